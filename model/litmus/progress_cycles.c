/* Fair cycles in the graph of a progress litmus test's states, under weak
 * fairness (strong: progress_strong.c).
 *
 * An execution that never terminates stays, from some point on, in one
 * strongly connected component of the graph and takes a set of its edges
 * infinitely often. Under weak fairness the model allows it when every
 * thread that is in the model's fair set at every state it visits takes
 * some of its turns. That is decided per component: a larger set of
 * states leaves fewer threads in the fair set everywhere and a larger set
 * of edges schedules more, so a component holds a weakly fair cycle iff
 * taken whole it is one. */
#include <stdlib.h>
#include <string.h>

#include "model/litmus/progress.h"
#include "model/litmus/progress_cycles.h"

static unsigned weakened;

void lit_pgraph_weaken(unsigned mask) { weakened = mask; }

/* ---- components ------------------------------------------------------------- */

/* An edge that an infinite execution may take: a turn between two states
 * alive (the weakened analysis: a turn that changes nothing). */
bool lit_pgraph_usable(const lit_pedge *x, const unsigned char *alive)
{
    return x->thread >= 0 && alive[x->from] && alive[x->to] && (!(weakened & LIT_WEAKEN_CYCLES) || x->from == x->to);
}

static bool usable_edge(const lit_pgraph *g, uint32_t e, const void *alive)
{
    return lit_pgraph_usable(&g->edge[e], alive);
}

/* Tarjan's algorithm, iteratively. */
long lit_pgraph_components(const lit_pgraph *g, const unsigned char *alive, lit_edge_pred follow, const void *ctx,
                           uint32_t *comp)
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
                const uint32_t e = next[v]++;
                const lit_pedge *x = &g->edge[e];
                if (!alive[x->to] || !follow(g, e, ctx))
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

/* What a goal of the cycle is: take a turn of thread t, or visit a state
 * whose fair set leaves t out. */
typedef struct {
    lit_pmodel m;
    int t;
    bool visit;
} goal;

static bool goal_met_at(const lit_walk *W, const goal *q, uint32_t v, uint32_t *edge)
{
    const lit_pgraph *g = W->g;
    for (uint32_t e = g->first[v]; e < g->first[v + 1]; e++) {
        const lit_pedge *x = &g->edge[e];
        if (x->thread == q->t && lit_pgraph_usable(x, W->alive) && W->comp[x->to] == W->c) {
            *edge = e;
            return true;
        }
    }
    *edge = UINT32_MAX;
    return q->visit && !(lit_pmodel_fair_set(q->m, g->started[v], g->finished[v], g->nthreads) >> q->t & 1u);
}

void lit_lasso_step(int8_t *arr, unsigned *n, int32_t thread)
{
    if (thread < 0)
        return;
    if (*n < LIT_LASSO_MAX)
        arr[*n] = (int8_t)thread;
    (*n)++;
}

/* Appends to arr the turns of the path to v from the BFS's start. */
static void put_path(const lit_walk *W, uint32_t start, uint32_t v, int8_t *arr, unsigned *n)
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
        lit_lasso_step(arr, n, i < LIT_LASSO_MAX ? tmp[i] : 0);
}

uint32_t lit_pgraph_walk(lit_walk *W, uint32_t start, lit_state_pred met, const void *ctx, int8_t *arr,
                         unsigned *n)
{
    const lit_pgraph *g = W->g;
    size_t qh = 0, qt = 0;
    W->queue[qt++] = start;
    W->mark[start] = 1;
    uint32_t found = start; /* not found: impossible inside a strongly connected component */
    while (qh < qt) {
        const uint32_t v = W->queue[qh++];
        if (met(v, ctx)) {
            put_path(W, start, v, arr, n);
            found = v;
            break;
        }
        for (uint32_t e = g->first[v]; e < g->first[v + 1]; e++) {
            const lit_pedge *x = &g->edge[e];
            if (!lit_pgraph_usable(x, W->alive) || W->comp[x->to] != W->c || W->mark[x->to])
                continue;
            W->mark[x->to] = 1;
            W->parent[x->to] = e;
            W->queue[qt++] = x->to;
        }
    }
    /* the marks back to zero, at the cost of the states seen (a walk is
     * often short, the graph large) */
    for (size_t i = 0; i < qt; i++)
        W->mark[W->queue[i]] = 0;
    return found;
}

typedef struct {
    const lit_walk *W;
    const goal *q;
    uint32_t target;
    uint32_t *edge;
} goal_ctx;

static bool goal_met(uint32_t v, const void *ctx)
{
    const goal_ctx *c = ctx;
    return c->q ? goal_met_at(c->W, c->q, v, c->edge) : v == c->target;
}

/* A walk inside the component from start to the nearest state where q is
 * met (q NULL: to target). Returns that state, appending the walk's turns;
 * *edge: the turn of q's thread there (UINT32_MAX: none). */
static uint32_t walk_goal(lit_walk *W, uint32_t start, const goal *q, uint32_t target, int8_t *arr, unsigned *n,
                          uint32_t *edge)
{
    const goal_ctx c = {W, q, target, edge};
    return lit_pgraph_walk(W, start, goal_met, &c, arr, n);
}

/* A cycle from entry that meets every goal. */
static void make_cycle(lit_walk *W, uint32_t entry, const goal *goals, unsigned ngoals, lit_lasso *out)
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
        cur = walk_goal(W, cur, &goals[i], 0, out->cycle, &out->ncycle, &e);
        if (e != UINT32_MAX) {
            lit_lasso_step(out->cycle, &out->ncycle, g->edge[e].thread);
            cur = g->edge[e].to;
        }
    }
    if (out->ncycle == 0) { /* no goal: any turn inside the component, then back */
        for (uint32_t e = g->first[cur]; e < g->first[cur + 1]; e++)
            if (lit_pgraph_usable(&g->edge[e], W->alive) && W->comp[g->edge[e].to] == W->c) {
                lit_lasso_step(out->cycle, &out->ncycle, g->edge[e].thread);
                cur = g->edge[e].to;
                break;
            }
    }
    uint32_t dummy;
    walk_goal(W, cur, NULL, entry, out->cycle, &out->ncycle, &dummy);
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
            if (lit_pgraph_usable(y, alive) && comp[y->to] == comp[v]) {
                x->cyclic = true;
                x->turns |= 1u << y->thread;
            }
        }
    }
}

void lit_pgraph_bfs(const lit_pgraph *g, uint32_t *order, uint32_t *parent, uint32_t *queue)
{
    for (uint32_t v = 0; v < g->nnodes; v++)
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
}

int lit_lasso_prefix(const lit_pgraph *g, const uint32_t *parent, uint32_t v, lit_lasso *out)
{
    uint32_t len = 0;
    for (uint32_t x = v; x != g->root; x = g->edge[parent[x]].from)
        len++;
    int32_t *tmp = malloc((len + 1) * sizeof *tmp);
    if (!tmp)
        return -1;
    uint32_t k = len;
    for (uint32_t x = v; x != g->root; x = g->edge[parent[x]].from)
        tmp[--k] = g->edge[parent[x]].thread;
    for (uint32_t i = 0; i < len; i++)
        lit_lasso_step(out->prefix, &out->nprefix, tmp[i]);
    free(tmp);
    return 0;
}

/* Weak fairness: a component, taken whole, holds a fair cycle iff every
 * thread in the fair set at all its states takes a turn inside it. */
static int weak_nonterm(const lit_pgraph *g, lit_pmodel m, lit_lasso *out)
{
    const uint32_t n = g->nnodes;
    unsigned char *alive = malloc(n), *mark = calloc(n, 1);
    uint32_t *comp = malloc(n * sizeof *comp), *order = malloc(n * sizeof *order);
    uint32_t *parent = malloc(n * sizeof *parent), *queue = malloc(n * sizeof *queue);
    comp_info *ci = malloc(n * sizeof *ci);
    int rc = -1;
    if (!alive || !mark || !comp || !order || !parent || !queue || !ci)
        goto done;
    /* the order in which a breadth-first search from the initial state
     * reaches each state (by distance, then by the threads' order) */
    lit_pgraph_bfs(g, order, parent, queue);
    for (uint32_t v = 0; v < n; v++)
        alive[v] = order[v] != UINT32_MAX;
    const long ncomp = lit_pgraph_components(g, alive, usable_edge, alive, comp);
    if (ncomp < 0)
        goto done;
    summarize(g, m, alive, comp, ncomp, ci);
    /* the fair component whose nearest state the search reached first */
    uint32_t best = UINT32_MAX, best_entry = 0;
    for (uint32_t v = 0; v < n; v++) {
        if (!alive[v] || !ci[comp[v]].cyclic)
            continue;
        const comp_info *x = &ci[comp[v]];
        const unsigned bad = weakened & LIT_WEAKEN_FAIRNESS ? 0u : x->all & ~x->turns;
        if (!bad && order[v] < best) {
            best = order[v];
            best_entry = v;
        }
    }
    rc = 0;
    if (best != UINT32_MAX) {
        rc = 1;
        /* the prefix: a shortest path from the start to the entry */
        if (lit_lasso_prefix(g, parent, best_entry, out) < 0) {
            rc = -1;
            goto done;
        }
        lit_walk W = {g, comp, comp[best_entry], parent, queue, mark, alive};
        /* the cycle's goals: a turn of every thread in the fair set
         * everywhere, and for a thread in it somewhere, a turn or a visit
         * where it is not */
        const comp_info x = ci[comp[best_entry]];
        goal goals[32];
        unsigned ng = 0;
        for (unsigned t = 0; t < g->nthreads; t++)
            if (x.any >> t & 1u)
                goals[ng++] = (goal){m, (int)t, !(x.all >> t & 1u)};
        make_cycle(&W, best_entry, goals, ng, out);
    }
done:
    free(alive), free(mark), free(comp), free(order), free(parent), free(queue), free(ci);
    return rc;
}

int lit_pgraph_nonterm(const lit_pgraph *g, lit_pmodel m, bool strong, lit_lasso *out)
{
    memset(out, 0, sizeof *out);
    /* fairness ignored (a test's weakening): every cycle is allowed, whatever the condition */
    if (strong && !(weakened & LIT_WEAKEN_FAIRNESS))
        return lit_pgraph_nonterm_strong(g, m, out);
    return weak_nonterm(g, m, out);
}
