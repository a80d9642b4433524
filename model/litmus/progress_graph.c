/* The graph of a progress litmus test's states (model/litmus/progress.h):
 * built from the transitions the schedule search hands over, with which
 * threads have started and finished at each state; and the models' fair
 * sets. The search for fair cycles in it is progress_cycles.c. */
#include <stdlib.h>
#include <string.h>

#include "model/litmus/progress.h"

static const char *const names[LIT_PM_COUNT] = {"obe", "lobe", "hsa", "hsa+obe", "fair"};

const char *lit_pmodel_name(lit_pmodel m) { return m < LIT_PM_COUNT ? names[m] : "?"; }

int lit_pmodel_parse(const char *name)
{
    for (int m = 0; m < LIT_PM_COUNT; m++)
        if (strcmp(name, names[m]) == 0)
            return m;
    return -1;
}

unsigned lit_pmodel_fair_set(lit_pmodel m, unsigned started, unsigned finished, unsigned nthreads)
{
    const unsigned all = nthreads >= 32 ? ~0u : (1u << nthreads) - 1;
    const unsigned live = all & ~finished;
    const unsigned lowest = live & (~live + 1);
    const unsigned obe = started & live;
    unsigned below = 0; /* lobe: every id up to the highest started one */
    if (started)
        below = (1u << (31 - __builtin_clz(started))) * 2 - 1;
    switch (m) {
    case LIT_PM_OBE: return obe;
    case LIT_PM_LOBE: return below & live;
    case LIT_PM_HSA: return lowest;
    case LIT_PM_HSA_OBE: return lowest | obe;
    case LIT_PM_FAIR: return live;
    default: return 0;
    }
}

/* ---- building ---------------------------------------------------------------- */

static int cmp_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static int cmp_edge(const void *a, const void *b)
{
    const lit_pedge *x = a, *y = b;
    /* a state's transitions in the order of their threads, so that
     * searches from a state go the same way whatever numbers the states
     * got (hashes hold addresses, which differ from run to run) */
    if (x->from != y->from)
        return x->from < y->from ? -1 : 1;
    if (x->thread != y->thread)
        return x->thread < y->thread ? -1 : 1;
    return (x->to > y->to) - (x->to < y->to);
}

static uint32_t id_of(const uint64_t *h, size_t n, uint64_t key)
{
    size_t lo = 0, hi = n;
    while (hi - lo > 1) {
        const size_t mid = (lo + hi) / 2;
        if (h[mid] <= key)
            lo = mid;
        else
            hi = mid;
    }
    return (uint32_t)lo;
}

int lit_pgraph_build(lit_pgraph *g, unsigned nthreads, uint64_t root, lit_praw *raw, size_t n)
{
    memset(g, 0, sizeof *g);
    g->nthreads = nthreads;
    uint64_t *h = malloc((2 * n + 1) * sizeof *h);
    if (!h)
        return -1;
    size_t nh = 0;
    h[nh++] = root;
    for (size_t i = 0; i < n; i++) {
        h[nh++] = raw[i].from;
        h[nh++] = raw[i].to;
    }
    qsort(h, nh, sizeof *h, cmp_u64);
    size_t u = 0;
    for (size_t i = 0; i < nh; i++)
        if (i == 0 || h[i] != h[u - 1])
            h[u++] = h[i];
    g->nnodes = (uint32_t)u;
    g->root = id_of(h, u, root);
    g->started = calloc(u, 1);
    g->finished = calloc(u, 1);
    g->edge = malloc((n ? n : 1) * sizeof *g->edge);
    g->first = calloc(u + 1, sizeof *g->first);
    uint32_t *queue = malloc(u * sizeof *queue);
    unsigned char *seen = calloc(u, 1);
    if (!g->started || !g->finished || !g->edge || !g->first || !queue || !seen) {
        free(h);
        free(queue);
        free(seen);
        lit_pgraph_free(g);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        const uint32_t to = id_of(h, u, raw[i].to);
        g->edge[i] = (lit_pedge){id_of(h, u, raw[i].from), to, raw[i].thread};
        g->finished[to] = (unsigned char)raw[i].finished;
    }
    free(h);
    qsort(g->edge, n, sizeof *g->edge, cmp_edge);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (m == 0 || cmp_edge(&g->edge[i], &g->edge[m - 1]) != 0)
            g->edge[m++] = g->edge[i];
    g->nedges = m;
    for (size_t i = 0; i < m; i++)
        g->first[g->edge[i].from + 1]++;
    for (uint32_t v = 0; v < u; v++)
        g->first[v + 1] += g->first[v];
    /* which threads have started: a function of the state (a thread's first
     * turn takes it from its entry to its first access), so the first path
     * that reaches a state tells */
    size_t qh = 0, qt = 0;
    queue[qt++] = g->root;
    seen[g->root] = 1;
    while (qh < qt) {
        const uint32_t v = queue[qh++];
        for (uint32_t e = g->first[v]; e < g->first[v + 1]; e++) {
            const lit_pedge *x = &g->edge[e];
            if (seen[x->to])
                continue;
            seen[x->to] = 1;
            g->started[x->to] = (unsigned char)(g->started[v] | (x->thread >= 0 ? 1u << x->thread : 0u));
            queue[qt++] = x->to;
        }
    }
    free(queue);
    free(seen);
    return 0;
}

void lit_pgraph_free(lit_pgraph *g)
{
    free(g->started);
    free(g->finished);
    free(g->edge);
    free(g->first);
    memset(g, 0, sizeof *g);
}

