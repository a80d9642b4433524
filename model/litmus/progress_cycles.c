/* Fair cycles in the graph of a progress litmus test's states.
 *
 * An execution that never terminates stays, from some point on, in one
 * strongly connected component of the graph and takes a set of its edges
 * infinitely often. Whether the model allows it is a condition on that
 * set: under weak fairness, every thread that is in the model's fair set
 * at every state it visits takes some of its turns; under strong
 * fairness, every thread in the fair set at some state it visits does.
 *
 * Weak fairness is decided per component: a larger set of states leaves
 * fewer threads in the fair set everywhere and a larger set of edges
 * schedules more, so a component holds a weakly fair cycle iff taken
 * whole it is one. Strong fairness needs the refinement of Emerson and
 * Lei (1987): a thread in the fair set somewhere in the component that
 * takes no turn in it rules out every state where it is in the fair set;
 * what is left is split into components again, until a component is fair
 * or nothing is left. */
#include <stdlib.h>
#include <string.h>

#include "model/litmus/progress.h"

static unsigned weakened;

void lit_pgraph_weaken(unsigned mask) { weakened = mask; }

/* ---- components ------------------------------------------------------------- */

/* An edge that an infinite execution may take: a turn between two states
 * alive (the weakened analysis: a turn that changes nothing). */
static bool usable(const lit_pedge *x, const unsigned char *alive)
{
    return x->thread >= 0 && alive[x->from] && alive[x->to] && (!(weakened & LIT_WEAKEN_CYCLES) || x->from == x->to);
}

/* Tarjan's algorithm, iteratively, over the alive states: comp[v] gets the
 * component of v (UINT32_MAX for a dead state). Returns the number of
 * components, or -1 when out of memory. */
static long components(const lit_pgraph *g, const unsigned char *alive, uint32_t *comp)
{
    const uint32_t n = g->nnodes, none = UINT32_MAX;
    uint32_t *index = malloc(n * sizeof *index), *low = malloc(n * sizeof *low);
    uint32_t *stack = malloc(n * sizeof *stack), *call = malloc(n * sizeof *call), *next = malloc(n * sizeof *next);
    unsigned char *on = calloc(n, 1);
    if (!index || !low || !stack || !call || !next || !on) {
        free(index), free(low), free(stack), free(call), free(next), free(on);
        return -1;
    }
    for (uint32_t v = 0; v < n; v++) {
        index[v] = none;
        comp[v] = none;
    }
    uint32_t counter = 0, sp = 0, ncomp = 0;
    for (uint32_t s = 0; s < n; s++) {
        if (!alive[s] || index[s] != none)
            continue;
        uint32_t depth = 0;
        call[depth++] = s;
        index[s] = low[s] = counter++;
        next[s] = g->first[s];
        stack[sp++] = s;
        on[s] = 1;
        while (depth) {
            const uint32_t v = call[depth - 1];
            if (next[v] < g->first[v + 1]) {
                const lit_pedge *x = &g->edge[next[v]++];
                if (!usable(x, alive))
                    continue;
                const uint32_t w = x->to;
                if (index[w] == none) {
                    index[w] = low[w] = counter++;
                    next[w] = g->first[w];
                    stack[sp++] = w;
                    on[w] = 1;
                    call[depth++] = w;
                } else if (on[w] && index[w] < low[v]) {
                    low[v] = index[w];
                }
                continue;
            }
            if (low[v] == index[v]) {
                uint32_t w;
                do {
                    w = stack[--sp];
                    on[w] = 0;
                    comp[w] = ncomp;
                } while (w != v);
                ncomp++;
            }
            depth--;
            if (depth && low[v] < low[call[depth - 1]])
                low[call[depth - 1]] = low[v];
        }
    }
    free(index), free(low), free(stack), free(call), free(next), free(on);
    return (long)ncomp;
}

/* ---- lassos -------------------------------------------------------------------- */

typedef struct {
    const lit_pgraph *g;
    const uint32_t *comp;
    uint32_t c;        /* the component the cycle stays in */
    uint32_t *parent;  /* BFS: the edge a state was reached by */
    uint32_t *queue;
    unsigned char *mark;
    const unsigned char *alive;
} walk;

/* What a goal of the cycle is: take a turn of thread t, or visit a state
 * whose fair set leaves t out. */
typedef struct {
    lit_pmodel m;
    int t;
    bool visit;
} goal;

static bool goal_met_at(const walk *W, const goal *q, uint32_t v, uint32_t *edge)
{
    const lit_pgraph *g = W->g;
    for (uint32_t e = g->first[v]; e < g->first[v + 1]; e++) {
        const lit_pedge *x = &g->edge[e];
        if (x->thread == q->t && usable(x, W->alive) && W->comp[x->to] == W->c) {
            *edge = e;
            return true;
        }
    }
    *edge = UINT32_MAX;
    return q->visit && !(lit_pmodel_fair_set(q->m, g->started[v], g->finished[v], g->nthreads) >> q->t & 1u);
}

static void put_step(int8_t *arr, unsigned *n, int32_t thread)
{
    if (thread < 0)
        return;
    if (*n < LIT_LASSO_MAX)
        arr[*n] = (int8_t)thread;
    (*n)++;
}

/* Appends to arr the turns of the path to v from the BFS's start. */
static void put_path(const walk *W, uint32_t start, uint32_t v, int8_t *arr, unsigned *n)
{
    uint32_t len = 0;
    for (uint32_t x = v; x != start; x = W->g->edge[W->parent[x]].from)
        len++;
    int32_t tmp[LIT_LASSO_MAX];
    uint32_t k = len;
    for (uint32_t x = v; x != start; x = W->g->edge[W->parent[x]].from)
        if (--k < LIT_LASSO_MAX)
            tmp[k] = W->g->edge[W->parent[x]].thread;
    for (uint32_t i = 0; i < len; i++)
        put_step(arr, n, i < LIT_LASSO_MAX ? tmp[i] : 0);
}

/* BFS inside the component from start to the nearest state where q is met
 * (q NULL: to target). Returns that state, appending the path's turns. */
static uint32_t walk_to(walk *W, uint32_t start, const goal *q, uint32_t target, int8_t *arr, unsigned *n,
                        uint32_t *edge)
{
    const lit_pgraph *g = W->g;
    memset(W->mark, 0, g->nnodes);
    size_t qh = 0, qt = 0;
    W->queue[qt++] = start;
    W->mark[start] = 1;
    while (qh < qt) {
        const uint32_t v = W->queue[qh++];
        if (q ? goal_met_at(W, q, v, edge) : v == target) {
            put_path(W, start, v, arr, n);
            return v;
        }
        for (uint32_t e = g->first[v]; e < g->first[v + 1]; e++) {
            const lit_pedge *x = &g->edge[e];
            if (!usable(x, W->alive) || W->comp[x->to] != W->c || W->mark[x->to])
                continue;
            W->mark[x->to] = 1;
            W->parent[x->to] = e;
            W->queue[qt++] = x->to;
        }
    }
    return start; /* unreachable inside a strongly connected component */
}

/* A cycle from entry that meets every goal. */
static void make_cycle(walk *W, uint32_t entry, const goal *goals, unsigned ngoals, lit_lasso *out)
{
    const lit_pgraph *g = W->g;
    uint32_t cur = entry;
    out->ncycle = 0;
    for (unsigned i = 0; i < ngoals; i++) {
        bool met = false; /* a turn of the thread on the way to an earlier goal */
        for (unsigned k = 0; k < out->ncycle && k < LIT_LASSO_MAX; k++)
            met = met || out->cycle[k] == goals[i].t;
        if (met)
            continue;
        uint32_t e;
        cur = walk_to(W, cur, &goals[i], 0, out->cycle, &out->ncycle, &e);
        if (e != UINT32_MAX) {
            put_step(out->cycle, &out->ncycle, g->edge[e].thread);
            cur = g->edge[e].to;
        }
    }
    if (out->ncycle == 0) { /* no goal: any turn inside the component, then back */
        for (uint32_t e = g->first[cur]; e < g->first[cur + 1]; e++)
            if (usable(&g->edge[e], W->alive) && W->comp[g->edge[e].to] == W->c) {
                put_step(out->cycle, &out->ncycle, g->edge[e].thread);
                cur = g->edge[e].to;
                break;
            }
    }
    uint32_t dummy;
    walk_to(W, cur, NULL, entry, out->cycle, &out->ncycle, &dummy);
    out->started = g->started[entry];
    out->finished = g->finished[entry];
}

/* ---- the search for a fair component ---------------------------------------- */

typedef struct {
    unsigned any, all, turns; /* fair set somewhere, everywhere; threads with a turn inside */
    bool cyclic;
} comp_info;

static void summarize(const lit_pgraph *g, lit_pmodel m, const unsigned char *alive, const uint32_t *comp,
                      long ncomp, comp_info *ci)
{
    for (long c = 0; c < ncomp; c++)
        ci[c] = (comp_info){0, ~0u, 0, false};
    for (uint32_t v = 0; v < g->nnodes; v++) {
        if (!alive[v])
            continue;
        comp_info *x = &ci[comp[v]];
        const unsigned fs = lit_pmodel_fair_set(m, g->started[v], g->finished[v], g->nthreads);
        x->any |= fs;
        x->all &= fs;
        for (uint32_t e = g->first[v]; e < g->first[v + 1]; e++) {
            const lit_pedge *y = &g->edge[e];
            if (usable(y, alive) && comp[y->to] == comp[v]) {
                x->cyclic = true;
                x->turns |= 1u << y->thread;
            }
        }
    }
}

int lit_pgraph_nonterm(const lit_pgraph *g, lit_pmodel m, bool strong, lit_lasso *out)
{
    const uint32_t n = g->nnodes;
    memset(out, 0, sizeof *out);
    unsigned char *alive = malloc(n), *mark = malloc(n);
    uint32_t *comp = malloc(n * sizeof *comp), *order = malloc(n * sizeof *order);
    uint32_t *parent = malloc(n * sizeof *parent), *queue = malloc(n * sizeof *queue);
    comp_info *ci = malloc(n * sizeof *ci);
    int rc = -1;
    if (!alive || !mark || !comp || !order || !parent || !queue || !ci)
        goto done;
    /* the order in which a breadth-first search from the initial state
     * reaches each state (by distance, then by the threads' order) */
    for (uint32_t v = 0; v < n; v++)
        order[v] = UINT32_MAX;
    size_t qh = 0, qt = 0;
    queue[qt++] = g->root;
    order[g->root] = 0;
    while (qh < qt) {
        const uint32_t v = queue[qh++];
        for (uint32_t e = g->first[v]; e < g->first[v + 1]; e++)
            if (order[g->edge[e].to] == UINT32_MAX) {
                order[g->edge[e].to] = (uint32_t)qt;
                parent[g->edge[e].to] = e;
                queue[qt++] = g->edge[e].to;
            }
    }
    for (uint32_t v = 0; v < n; v++)
        alive[v] = order[v] != UINT32_MAX;
    /* the fair component whose nearest state the search reached first */
    uint32_t best = UINT32_MAX, best_entry = 0;
    unsigned char *best_alive = NULL;
    uint32_t *best_comp = NULL;
    rc = 0;
    for (;;) {
        const long ncomp = components(g, alive, comp);
        if (ncomp < 0) {
            rc = -1;
            break;
        }
        summarize(g, m, alive, comp, ncomp, ci);
        bool refined = false;
        for (uint32_t v = 0; v < n; v++) {
            if (!alive[v] || !ci[comp[v]].cyclic)
                continue;
            const comp_info *x = &ci[comp[v]];
            const unsigned bad =
                weakened & LIT_WEAKEN_FAIRNESS ? 0u : (strong ? x->any : x->all) & ~x->turns;
            if (!bad) {
                if (order[v] < best) {
                    best = order[v];
                    best_entry = v;
                    free(best_alive);
                    free(best_comp);
                    best_alive = malloc(n);
                    best_comp = malloc(n * sizeof *best_comp);
                    if (!best_alive || !best_comp) {
                        rc = -1;
                        break;
                    }
                    memcpy(best_alive, alive, n);
                    memcpy(best_comp, comp, n * sizeof *comp);
                }
            } else if (strong) {
                /* no fair cycle may visit a state where a thread it never
                 * schedules is in the fair set */
                const unsigned fs = lit_pmodel_fair_set(m, g->started[v], g->finished[v], g->nthreads);
                if (fs & bad) {
                    alive[v] = 0;
                    refined = true;
                }
            }
        }
        if (rc < 0 || !refined)
            break;
        /* the refined states are split into components again; those that
         * were fair already are kept in best */
        for (uint32_t v = 0; v < n; v++)
            if (alive[v] && ci[comp[v]].cyclic &&
                !((strong ? ci[comp[v]].any : ci[comp[v]].all) & ~ci[comp[v]].turns))
                alive[v] = 0; /* its component is decided: fair */
    }
    if (rc == 0 && best != UINT32_MAX) {
        rc = 1;
        /* the prefix: a shortest path from the start to the entry */
        uint32_t len = 0;
        for (uint32_t x = best_entry; x != g->root; x = g->edge[parent[x]].from)
            len++;
        int32_t *tmp = malloc((len + 1) * sizeof *tmp);
        if (!tmp) {
            rc = -1;
        } else {
            uint32_t k = len;
            for (uint32_t x = best_entry; x != g->root; x = g->edge[parent[x]].from)
                tmp[--k] = g->edge[parent[x]].thread;
            for (uint32_t i = 0; i < len; i++)
                put_step(out->prefix, &out->nprefix, tmp[i]);
            free(tmp);
            walk W = {g, best_comp, best_comp[best_entry], parent, queue, mark, best_alive};
            /* the cycle's goals: weak, a turn of every thread in the fair
             * set everywhere and a visit where the others are not (or a
             * turn); strong, a turn of every thread in it anywhere */
            comp_info x;
            summarize(g, m, best_alive, best_comp, (long)n, ci);
            x = ci[best_comp[best_entry]];
            goal goals[32];
            unsigned ng = 0;
            for (unsigned t = 0; t < g->nthreads; t++)
                if ((x.turns >> t & 1u) && (x.any >> t & 1u))
                    goals[ng++] = (goal){m, (int)t, !strong && !(x.all >> t & 1u)};
                else if (!strong && (x.any >> t & 1u))
                    goals[ng++] = (goal){m, (int)t, true};
            make_cycle(&W, best_entry, goals, ng, out);
        }
    }
    free(best_alive);
    free(best_comp);
done:
    free(alive), free(mark), free(comp), free(order), free(parent), free(queue), free(ci);
    return rc;
}
