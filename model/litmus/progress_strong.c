/* Strong fairness in the graph of a progress litmus test's states, as
 * Sorensen et al. define it (OOPSLA 2021): the property their checker
 * decides, FreeFromStrongDeadlockLasso (the artifact's
 * cadp/scripts/checker, common_strong.lnt and prod_cons.svl):
 *
 *   [ (not exit)* ] < (EX by a thread of the fair set | TERMINATE)* . (exit | EX with an empty fair set) > true
 *
 * from every reachable state, turns of the threads in the model's fair set
 * alone can lead to the end of the test, or to a state whose fair set is
 * empty (where the model promises nothing; a turn from there starts a
 * thread). It is fairness on the turns themselves: an infinite execution
 * is strongly fair when every turn that a thread of the fair set can take
 * at a state the execution visits infinitely often is taken infinitely
 * often. A thread that spins on a flag another thread of the fair set
 * keeps setting and clearing is bound to see it set, which weak fairness
 * does not promise.
 *
 * Decided by a search backwards from those targets over fair turns: the
 * states it does not reach are bad. A bad state's fair turns lead only to
 * bad states, so the bad states hold a bottom component (no fair turn
 * leaves it); a strongly fair execution that stays there for ever takes
 * every fair turn of every state in it, and never terminates. */
#include <stdlib.h>
#include <string.h>

#include "model/litmus/progress.h"
#include "model/litmus/progress_cycles.h"

static unsigned fair_set(const lit_pgraph *g, lit_pmodel m, uint32_t v)
{
    return lit_pmodel_fair_set(m, g->started[v], g->finished[v], g->nthreads);
}

/* A turn of a thread in the fair set at the state it leaves, or a block's
 * dispatch (no choice of the scheduler's: every block is dispatched). */
static bool fair_edge(const lit_pgraph *g, uint32_t e, const void *ctx)
{
    const lit_pedge *x = &g->edge[e];
    return x->thread < 0 || (fair_set(g, *(const lit_pmodel *)ctx, x->from) >> x->thread & 1u);
}

/* good[v]: v reaches a state with an empty fair set (the end of the test
 * among them) by fair turns. -1 when out of memory. */
static int good_states(const lit_pgraph *g, lit_pmodel m, unsigned char *good, uint32_t *queue)
{
    const uint32_t n = g->nnodes;
    /* the fair edges by the state they reach */
    uint32_t *rfirst = calloc((size_t)n + 1, sizeof *rfirst), *rfrom = malloc((g->nedges + 1) * sizeof *rfrom);
    if (!rfirst || !rfrom) {
        free(rfirst), free(rfrom);
        return -1;
    }
    for (uint32_t e = 0; e < g->nedges; e++)
        if (fair_edge(g, e, &m))
            rfirst[g->edge[e].to + 1]++;
    for (uint32_t v = 0; v < n; v++)
        rfirst[v + 1] += rfirst[v];
    for (uint32_t e = 0; e < g->nedges; e++)
        if (fair_edge(g, e, &m))
            rfrom[rfirst[g->edge[e].to]++] = g->edge[e].from;
    for (uint32_t v = n; v > 0; v--) /* back to the starts */
        rfirst[v] = rfirst[v - 1];
    rfirst[0] = 0;
    size_t qh = 0, qt = 0;
    for (uint32_t v = 0; v < n; v++) {
        good[v] = fair_set(g, m, v) == 0;
        if (good[v])
            queue[qt++] = v;
    }
    while (qh < qt) {
        const uint32_t v = queue[qh++];
        for (uint32_t i = rfirst[v]; i < rfirst[v + 1]; i++)
            if (!good[rfrom[i]]) {
                good[rfrom[i]] = 1;
                queue[qt++] = rfrom[i];
            }
    }
    free(rfirst), free(rfrom);
    return 0;
}

typedef struct {
    const lit_pgraph *g;
    lit_pmodel m;
    const uint32_t *comp;
    uint32_t c;
    const unsigned char *taken; /* per edge */
} untaken_ctx;

/* A fair turn inside the component that the cycle has not taken yet:
 * its edge, or UINT32_MAX. */
static uint32_t untaken_at(const untaken_ctx *u, uint32_t v)
{
    const lit_pgraph *g = u->g;
    for (uint32_t e = g->first[v]; e < g->first[v + 1]; e++)
        if (g->edge[e].thread >= 0 && !u->taken[e] && u->comp[g->edge[e].to] == u->c && fair_edge(g, e, &u->m))
            return e;
    return UINT32_MAX;
}

static bool has_untaken(uint32_t v, const void *ctx)
{
    return untaken_at(ctx, v) != UINT32_MAX;
}

static bool is_state(uint32_t v, const void *ctx)
{
    return v == *(const uint32_t *)ctx;
}

/* A cycle from entry through every fair turn of component c: at each
 * state, a fair turn not taken yet, else a walk to the nearest state that
 * has one; at the end, back to entry. -1 when out of memory. */
static int cover_cycle(lit_walk *W, lit_pmodel m, uint32_t entry, lit_lasso *out)
{
    const lit_pgraph *g = W->g;
    unsigned char *taken = calloc(g->nedges + 1, 1);
    if (!taken)
        return -1;
    const untaken_ctx u = {g, m, W->comp, W->c, taken};
    uint32_t cur = entry;
    for (;;) {
        uint32_t e = untaken_at(&u, cur);
        if (e == UINT32_MAX) {
            const uint32_t next = lit_pgraph_walk(W, cur, has_untaken, &u, out->cycle, &out->ncycle);
            if (next == cur) /* every fair turn taken */
                break;
            cur = next;
            e = untaken_at(&u, cur);
        }
        taken[e] = 1;
        lit_lasso_step(out->cycle, &out->ncycle, g->edge[e].thread);
        cur = g->edge[e].to;
    }
    lit_pgraph_walk(W, cur, is_state, &entry, out->cycle, &out->ncycle);
    out->started = g->started[entry];
    out->finished = g->finished[entry];
    free(taken);
    return 0;
}

/* trap[c]: component c of the bad states is a bottom one (no fair turn
 * leaves it) with a usable fair turn inside (the analysis weakened for
 * tests takes only a turn that changes nothing). */
static void traps(const lit_pgraph *g, lit_pmodel m, const unsigned char *bad, const uint32_t *comp,
                  unsigned char *trap, long ncomp)
{
    unsigned char *leaves = trap + ncomp; /* scratch: ncomp more bytes */
    memset(trap, 0, 2 * (size_t)ncomp);
    for (uint32_t v = 0; v < g->nnodes; v++) {
        if (!bad[v])
            continue;
        for (uint32_t e = g->first[v]; e < g->first[v + 1]; e++) {
            if (!fair_edge(g, e, &m))
                continue;
            if (comp[g->edge[e].to] != comp[v])
                leaves[comp[v]] = 1;
            else if (lit_pgraph_usable(&g->edge[e], bad))
                trap[comp[v]] = 1;
        }
    }
    for (long c = 0; c < ncomp; c++)
        trap[c] = trap[c] && !leaves[c];
}

int lit_pgraph_nonterm_strong(const lit_pgraph *g, lit_pmodel m, lit_lasso *out)
{
    const uint32_t n = g->nnodes;
    unsigned char *bad = malloc(n), *mark = calloc(n, 1), *trap = NULL;
    uint32_t *order = malloc(n * sizeof *order), *parent = malloc(n * sizeof *parent);
    uint32_t *queue = malloc(n * sizeof *queue), *comp = malloc(n * sizeof *comp);
    int rc = -1;
    if (!bad || !mark || !order || !parent || !queue || !comp || good_states(g, m, bad, queue) < 0)
        goto done;
    lit_pgraph_bfs(g, order, parent, queue);
    bool any = false;
    for (uint32_t v = 0; v < n; v++) { /* bad holds the good states: turned round */
        bad[v] = !bad[v] && order[v] != UINT32_MAX;
        any = any || bad[v];
    }
    rc = 0;
    if (!any)
        goto done;
    const long ncomp = lit_pgraph_components(g, bad, fair_edge, &m, comp);
    if (ncomp < 0 || !(trap = malloc(2 * (size_t)ncomp))) {
        rc = -1;
        goto done;
    }
    traps(g, m, bad, comp, trap, ncomp);
    /* the trap whose state the search from the start reached first */
    uint32_t entry = UINT32_MAX;
    for (uint32_t v = 0; v < n; v++)
        if (bad[v] && trap[comp[v]] && (entry == UINT32_MAX || order[v] < order[entry]))
            entry = v;
    if (entry == UINT32_MAX)
        goto done;
    rc = 1;
    lit_walk W = {g, comp, comp[entry], parent, queue, mark, bad};
    if (lit_lasso_prefix(g, parent, entry, out) < 0 || cover_cycle(&W, m, entry, out) < 0)
        rc = -1;
done:
    free(bad), free(mark), free(trap), free(order), free(parent), free(queue), free(comp);
    return rc;
}
