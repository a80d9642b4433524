/* Warp-level accounting: the lanes of a warp ran alone between two sync
 * points, each appending its accesses to a trace; here the traces are
 * grouped into warp-level accesses by (call site, k-th occurrence of the
 * site) and each group is costed: shared-memory wavefronts and bank
 * conflicts, global sectors, divergence. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Words or sectors one warp-level access can touch (16-byte accesses by 32
 * lanes, each possibly straddling a boundary). */
#define MAX_UNITS (MODEL_WARP_SIZE * 8)

static void sort_u64(uint64_t *v, unsigned n)
{
    for (unsigned i = 1; i < n; i++) {
        uint64_t x = v[i];
        unsigned j = i;
        while (j > 0 && v[j - 1] > x) {
            v[j] = v[j - 1];
            j--;
        }
        v[j] = x;
    }
}

/* Distinct units of `shift` bits touched by the group, sorted. */
static unsigned units(const mtrace *const *e, unsigned n, unsigned shift, uint64_t *u)
{
    unsigned m = 0;
    for (unsigned i = 0; i < n; i++) {
        uint64_t first = e[i]->addr >> shift, last = (e[i]->addr + e[i]->size - 1) >> shift;
        for (uint64_t x = first; x <= last && m < MAX_UNITS; x++)
            u[m++] = x;
    }
    sort_u64(u, m);
    unsigned k = 0;
    for (unsigned i = 0; i < m; i++)
        if (k == 0 || u[k - 1] != u[i])
            u[k++] = u[i];
    return k;
}

static void account(model_stats *s, const mtrace *const *e, unsigned n, unsigned existing)
{
    const model_site *site = e[0]->site;
    model_site_stats *ss = model_site_stats_of(s, site);
    uint64_t u[MAX_UNITS];
    s->warp_issues++;
    if (ss)
        ss->issues++;
    if (n < existing) {
        s->divergent_issues++;
        if (ss)
            ss->divergent_issues++;
    }
    if (e[0]->shared) {
        unsigned k = units(e, n, 2, u), per_bank[MODEL_BANKS] = {0}, wf = 0;
        for (unsigned i = 0; i < k; i++) {
            unsigned c = ++per_bank[u[i] % MODEL_BANKS];
            if (c > wf)
                wf = c;
        }
        uint32_t size = 0;
        for (unsigned i = 0; i < n; i++)
            if (e[i]->size > size)
                size = e[i]->size;
        unsigned ideal = size > MODEL_BANK_BYTES ? size / MODEL_BANK_BYTES : 1;
        unsigned conflicts = wf > ideal ? wf - ideal : 0;
        s->shared_accesses++;
        s->shared_wavefronts += wf;
        s->bank_conflicts += conflicts;
        if (ss) {
            ss->shared_accesses++;
            ss->shared_wavefronts += wf;
            ss->bank_conflicts += conflicts;
            if (wf > ss->worst_degree)
                ss->worst_degree = wf;
        }
    } else {
        unsigned k = units(e, n, 5, u);
        if (e[0]->kind & MODEL_WR) {
            s->global_store_sectors += k;
            s->global_store_elems += n;
        } else {
            s->global_load_sectors += k;
            s->global_load_elems += n;
        }
        if (ss) {
            ss->global_accesses++;
            ss->global_sectors += k;
            ss->global_elems += n;
        }
    }
}

typedef struct {
    uint64_t key; /* site id << 32 | occurrence */
    unsigned lane;
    const mtrace *e;
} gent;

static int cmp_gent(const void *a, const void *b)
{
    const gent *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->lane < y->lane ? -1 : x->lane > y->lane;
}

/* Lanes whose site sequences differ: group by (site, occurrence). */
static void account_diverged(model_stats *s, mthread **ln, unsigned nl, unsigned existing)
{
    size_t total = 0;
    int maxid = 0;
    for (unsigned i = 0; i < nl; i++) {
        total += ln[i]->ntr;
        for (size_t k = 0; k < ln[i]->ntr; k++)
            if (ln[i]->tr[k].site->id > maxid)
                maxid = ln[i]->tr[k].site->id;
    }
    gent *g = malloc(total * sizeof *g);
    uint32_t *occ = calloc((size_t)maxid + 1, sizeof *occ);
    if (!g || !occ) {
        free(g);
        free(occ);
        return; /* the group goes uncounted rather than crash */
    }
    size_t m = 0;
    for (unsigned i = 0; i < nl; i++) {
        for (size_t k = 0; k < ln[i]->ntr; k++) {
            const mtrace *e = &ln[i]->tr[k];
            uint32_t id = (uint32_t)e->site->id;
            g[m++] = (gent){(uint64_t)id << 32 | occ[id]++, ln[i]->lane, e};
        }
        for (size_t k = 0; k < ln[i]->ntr; k++)
            occ[ln[i]->tr[k].site->id] = 0;
    }
    qsort(g, m, sizeof *g, cmp_gent);
    const mtrace *grp[MODEL_WARP_SIZE];
    for (size_t i = 0; i < m;) {
        unsigned n = 0;
        size_t j = i;
        while (j < m && g[j].key == g[i].key) {
            if (n < MODEL_WARP_SIZE)
                grp[n++] = g[j].e;
            j++;
        }
        account(s, grp, n, existing);
        i = j;
    }
    free(g);
    free(occ);
}

void model_warp_flush(mblock *b, unsigned w)
{
    unsigned lo = w * MODEL_WARP_SIZE, hi = lo + MODEL_WARP_SIZE;
    if (hi > b->nth)
        hi = b->nth;
    mthread *ln[MODEL_WARP_SIZE];
    unsigned nl = 0;
    for (unsigned i = lo; i < hi; i++)
        if (b->th[i].ran) {
            b->th[i].ran = false;
            ln[nl++] = &b->th[i];
        }
    if (nl == 0)
        return;
    model_stats *s = model_L.stats;
    const unsigned existing = hi - lo;
    size_t len = ln[0]->ntr;
    bool same = true;
    for (unsigned i = 1; i < nl && same; i++) {
        if (ln[i]->ntr != len) {
            same = false;
            break;
        }
        for (size_t k = 0; k < len; k++)
            if (ln[i]->tr[k].site != ln[0]->tr[k].site) {
                same = false;
                break;
            }
    }
    if (same) {
        const mtrace *grp[MODEL_WARP_SIZE];
        for (size_t k = 0; k < len; k++) {
            for (unsigned i = 0; i < nl; i++)
                grp[i] = &ln[i]->tr[k];
            account(s, grp, nl, existing);
        }
    } else {
        s->divergent_branches++;
        account_diverged(s, ln, nl, existing);
    }
    for (unsigned i = 0; i < nl; i++)
        ln[i]->ntr = 0;
}
