/* Warp-level accounting: the lanes of a warp ran alone between two sync
 * points, each appending its accesses to a trace; here the traces are
 * grouped into warp-level accesses by (call site, k-th occurrence of the
 * site) and each group is costed: shared-memory wavefronts and bank
 * conflicts, global sectors, divergence, added to the run's totals and to
 * the launch's own counts (loads and stores apart, as Nsight Compute counts
 * them); strong global accesses also feed the wait chains (chain.c). The
 * race shadow sees the traces first, lane by lane in the order the lanes
 * ran. */
#include <stdlib.h>
#include <string.h>

#include "chain.h"
#include "internal.h"

/* Words or sectors one warp-level access can touch (16-byte accesses by 32
 * lanes, each possibly straddling a boundary). */
#define MAX_UNITS (MODEL_WARP_SIZE * 8)
/* What the banks serve in one wavefront: one 4-byte word each. */
#define PHASE_BYTES (MODEL_BANKS * MODEL_BANK_BYTES)

typedef const model_trace_ent *entp;

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
static unsigned units(const entp *e, unsigned n, unsigned shift, uint64_t *u)
{
    unsigned m = 0;
    for (unsigned i = 0; i < n; i++) {
        uint64_t first = e[i]->addr >> shift, last = (e[i]->addr + e[i]->site->size - 1) >> shift;
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

/* Wavefronts of a shared access: the most distinct words one bank serves.
 * Each bank keeps the distinct words it has seen (a lane's access of up to
 * 16 bytes puts at most one word in each bank, so a bank sees at most one
 * word per lane). */
static unsigned wavefronts_general(const entp *e, unsigned n)
{
    uintptr_t words[MODEL_BANKS][MODEL_WARP_SIZE];
    unsigned count[MODEL_BANKS] = {0}, wf = 0;
    for (unsigned i = 0; i < n; i++) {
        uintptr_t first = e[i]->addr / MODEL_BANK_BYTES;
        uintptr_t last = (e[i]->addr + e[i]->site->size - 1) / MODEL_BANK_BYTES;
        for (uintptr_t wd = first; wd <= last; wd++) {
            unsigned bank = (unsigned)(wd % MODEL_BANKS), c = count[bank], j = 0;
            while (j < c && words[bank][j] != wd)
                j++;
            if (j < c)
                continue; /* served with a lane before: broadcast */
            if (c == MODEL_WARP_SIZE) {
                /* more than a bank can see from 32 lanes of 16 bytes */
                uint64_t u[MAX_UNITS];
                unsigned k = units(e, n, 2, u), per_bank[MODEL_BANKS] = {0};
                wf = 0;
                for (unsigned x = 0; x < k; x++)
                    if (++per_bank[u[x] % MODEL_BANKS] > wf)
                        wf = per_bank[u[x] % MODEL_BANKS];
                return wf;
            }
            words[bank][c] = wd;
            count[bank] = c + 1;
            if (c + 1 > wf)
                wf = c + 1;
        }
    }
    return wf;
}

/* Whether a load's lanes read in pairs: every active lane the same address
 * as its active partner lane^1, or every one as its partner lane^2 (all
 * lanes at one address is both). */
static bool paired(const entp *e, const unsigned *lane, unsigned n)
{
    uintptr_t at[MODEL_WARP_SIZE];
    bool on[MODEL_WARP_SIZE] = {false};
    for (unsigned i = 0; i < n; i++) {
        at[lane[i] % MODEL_WARP_SIZE] = e[i]->addr;
        on[lane[i] % MODEL_WARP_SIZE] = true;
    }
    for (unsigned x = 1; x <= 2; x++) {
        bool same = true;
        for (unsigned l = 0; l < MODEL_WARP_SIZE && same; l++)
            same = !on[l] || !on[l ^ x] || at[l] == at[l ^ x];
        if (same)
            return true;
    }
    return false;
}

/* The wavefronts a load needs to return its data, whatever the banks: a
 * wavefront carries one 4-byte register to each of the warp's lanes (128
 * bytes), so an access of `size` bytes by n lanes needs n * size / 128 of
 * them, half as many (rounded up) when its lanes read in pairs, whose
 * registers travel packed. On the H100 an LDS.128 read by the whole warp
 * at one address takes 2 wavefronts where an LDS.64 takes 1 (lookback-det's
 * tile prefix, docs/ptx.md). */
static unsigned return_wavefronts(const entp *e, const unsigned *lane, unsigned n, unsigned size)
{
    const unsigned w = (n * size + PHASE_BYTES - 1) / PHASE_BYTES;
    return w > 1 && paired(e, lane, n) ? (w + 1) / 2 : w;
}

/* Wavefronts of a shared access of `size`-byte words: 8-byte accesses are
 * served a half-warp at a time and 16-byte ones a quarter-warp at a time
 * (128 bytes per phase), each phase costed on its own, unless the whole
 * warp's words fit in one wavefront of the banks (a broadcast, or fewer
 * words than banks), when a load still takes what returning its data
 * takes. *ideal is what Nsight Compute subtracts to count conflicts. The
 * phase rules were fitted to the H100's counters (docs/model-fidelity.md):
 * costing the whole warp at once missed the conflicts inside a half-warp
 * that blelloch-cf's 4-byte padding leaves for 8-byte elements, and one
 * ideal for loads and stores alike missed those of reduce-interleaved's. */
static unsigned wavefronts_phased(const entp *e, const unsigned *lane, unsigned n, unsigned size, bool store,
                                  unsigned *ideal)
{
    const unsigned whole = wavefronts_general(e, n);
    *ideal = 1;
    if (size <= MODEL_BANK_BYTES)
        return whole; /* one phase */
    if (whole <= 1) {
        /* no bank serves two words: no conflict, but a wide load's data
         * may need more than one wavefront back */
        if (!store && whole == 1)
            *ideal = return_wavefronts(e, lane, n, size);
        return *ideal > whole ? *ideal : whole;
    }
    const unsigned per = size >= 16 ? 8 : 16;
    unsigned wf = 0, phases = 0;
    for (unsigned g = 0; g < MODEL_WARP_SIZE / per; g++) {
        entp sub[MODEL_WARP_SIZE];
        unsigned m = 0;
        for (unsigned i = 0; i < n; i++)
            if (lane[i] / per == g)
                sub[m++] = e[i];
        if (m) {
            wf += wavefronts_general(sub, m);
            phases++;
        }
    }
    /* Nsight Compute's ideal: for a store, one wavefront per phase with a
     * lane in it; for a load, the fewest its bytes fill (128 each) */
    *ideal = store ? phases : (n * size + PHASE_BYTES - 1) / PHASE_BYTES;
    return wf;
}

/* The usual case: one aligned 4-byte word per lane, lanes in increasing
 * address order, so that a repeated word is the previous lane's. Returns 0
 * when the access is not of that kind. */
static unsigned wavefronts_fast(const uintptr_t *addr, unsigned n, unsigned size)
{
    if (size != MODEL_BANK_BYTES)
        return 0;
    unsigned count[MODEL_BANKS] = {0}, wf = 0;
    uintptr_t prev = 0;
    for (unsigned i = 0; i < n; i++) {
        uintptr_t a = addr[i], wd = a / MODEL_BANK_BYTES;
        if ((a & (MODEL_BANK_BYTES - 1)) || (i > 0 && wd < prev))
            return 0;
        if (i > 0 && wd == prev)
            continue;
        prev = wd;
        unsigned c = ++count[wd % MODEL_BANKS];
        if (c > wf)
            wf = c;
    }
    return wf;
}

/* Sectors when lanes touch non-decreasing addresses: neighbours are
 * compared, no sorting. Returns 0 when they do not. */
static unsigned sectors_fast(const uintptr_t *addr, unsigned n, unsigned size)
{
    const unsigned shift = 5; /* log2 MODEL_SECTOR_BYTES */
    unsigned k = 0;
    uint64_t prev_last = 0;
    for (unsigned i = 0; i < n; i++) {
        uint64_t first = addr[i] >> shift, last = (addr[i] + size - 1) >> shift;
        if (i > 0 && first < prev_last)
            return 0;
        k += (unsigned)(last - first + 1) - (i > 0 && first == prev_last);
        prev_last = last;
    }
    return k;
}

/* Distinct 32-byte sectors of a global access. */
static unsigned sectors(const entp *e, unsigned n)
{
    uint64_t u[MAX_UNITS];
    return units(e, n, 5, u); /* log2 MODEL_SECTOR_BYTES */
}

/* Adds one warp-level access of `units` wavefronts (shared) or sectors
 * (global) by n lanes to the totals and the site's counts. */
static void record(model_stats *s, const model_site *site, bool shared, unsigned units_, unsigned n,
                   unsigned existing, unsigned ideal)
{
    model_site_stats *ss = model_site_stats_of(s, site);
    s->warp_issues++;
    if (ss)
        ss->issues++;
    if (n < existing) {
        s->divergent_issues++;
        if (ss)
            ss->divergent_issues++;
    }
    model_launch_counts *lc = &s->launch_acc;
    if (shared) {
        unsigned wf = units_;
        unsigned conflicts = wf > ideal ? wf - ideal : 0;
        if (site->kind & MODEL_ATOMIC) {
            lc->shared_atom++;
        } else if (site->kind & MODEL_WR) {
            lc->shared_st++;
            lc->shared_st_wavefronts += wf;
            lc->shared_st_conflicts += conflicts;
        } else {
            lc->shared_ld++;
            lc->shared_ld_wavefronts += wf;
            lc->shared_ld_conflicts += conflicts;
        }
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
        unsigned k = units_;
        if (site->kind & MODEL_WR) {
            s->global_store_sectors += k;
            s->global_store_elems += n;
        } else {
            s->global_load_sectors += k;
            s->global_load_elems += n;
        }
        if (site->kind & MODEL_ATOMIC)
            lc->global_atom_sectors += k;
        else if (site->kind & MODEL_WR)
            lc->global_st_sectors += k;
        else {
            lc->global_ld_sectors += k;
            if (site->kind & MODEL_STRONG)
                lc->global_poll_sectors += k;
        }
        if (ss) {
            ss->global_accesses++;
            ss->global_sectors += k;
            ss->global_elems += n;
        }
    }
}

/* A plain global load marks the block's interval as one that waits on
 * memory (model_launch_counts.load_rounds); polls and atomics do not. */
static void note_load(mblock *b, const model_site *site, bool shared)
{
    if (!shared && !(site->kind & (MODEL_WR | MODEL_ATOMIC | MODEL_STRONG)))
        b->interval_loaded = true;
}

static bool is_shared(const mblock *b, uintptr_t addr) { return addr - (uintptr_t)b->smem < MODEL_MAX_SHARED_LIMIT; }

/* A group of entries of one site id (diverged lanes). */
static void account(model_stats *s, mblock *b, const entp *e, const unsigned *lane, unsigned n,
                    unsigned existing)
{
    uintptr_t addr[MODEL_WARP_SIZE];
    unsigned size = 0;
    bool uniform = true;
    for (unsigned i = 0; i < n; i++) {
        addr[i] = e[i]->addr;
        uniform &= e[i]->site == e[0]->site;
        if (e[i]->site->size > size)
            size = e[i]->site->size;
    }
    const bool shared = is_shared(b, e[0]->addr);
    if (!shared && uniform && model_chain_site(e[0]->site))
        model_chain_note(s, b, e[0]->site, addr, n);
    unsigned ideal = 1;
    unsigned u = !uniform ? 0 : shared ? wavefronts_fast(addr, n, size) : sectors_fast(addr, n, size);
    if (u == 0)
        u = shared ? wavefronts_phased(e, lane, n, size, e[0]->site->kind & MODEL_WR, &ideal) : sectors(e, n);
    record(s, e[0]->site, shared, u, n, existing, ideal);
    note_load(b, e[0]->site, shared);
}

/* The k-th entries of lanes that all recorded the same sites. */
static void account_same(model_stats *s, mblock *b, mthread *const *ln, unsigned nl, size_t k,
                         unsigned existing)
{
    const model_site *site = ln[0]->tr[k].site;
    uintptr_t addr[MODEL_WARP_SIZE];
    for (unsigned i = 0; i < nl; i++)
        addr[i] = ln[i]->tr[k].addr;
    const bool shared = is_shared(b, addr[0]);
    if (!shared && model_chain_site(site))
        model_chain_note(s, b, site, addr, nl);
    unsigned ideal = 1;
    unsigned u = shared ? wavefronts_fast(addr, nl, site->size) : sectors_fast(addr, nl, site->size);
    if (u == 0) {
        entp grp[MODEL_WARP_SIZE];
        unsigned lane[MODEL_WARP_SIZE];
        for (unsigned i = 0; i < nl; i++) {
            grp[i] = &ln[i]->tr[k];
            lane[i] = ln[i]->lane;
        }
        u = shared ? wavefronts_phased(grp, lane, nl, site->size, site->kind & MODEL_WR, &ideal) : sectors(grp, nl);
    }
    record(s, site, shared, u, nl, existing, ideal);
    note_load(b, site, shared);
}

typedef struct {
    uint64_t key; /* site id << 32 | occurrence */
    unsigned lane;
    entp e;
} gent;

static int cmp_gent(const void *a, const void *b)
{
    const gent *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->lane < y->lane ? -1 : x->lane > y->lane;
}

static size_t trace_len(const mthread *t) { return (size_t)(t->pub.tr_next - t->tr); }

/* Lanes whose site sequences differ: group by (site, occurrence). */
static void account_diverged(model_stats *s, mblock *b, mthread **ln, unsigned nl, unsigned existing)
{
    size_t total = 0;
    int maxid = 0;
    for (unsigned i = 0; i < nl; i++) {
        total += trace_len(ln[i]);
        for (size_t k = 0; k < trace_len(ln[i]); k++)
            if (ln[i]->tr[k].site->id > maxid)
                maxid = ln[i]->tr[k].site->id;
    }
    if (total == 0)
        return;
    gent *g = malloc(total * sizeof *g);
    uint32_t *occ = calloc((size_t)maxid + 1, sizeof *occ);
    if (!g || !occ) {
        free(g);
        free(occ);
        return; /* the group goes uncounted rather than crash */
    }
    size_t m = 0;
    for (unsigned i = 0; i < nl; i++) {
        for (size_t k = 0; k < trace_len(ln[i]); k++) {
            entp e = &ln[i]->tr[k];
            uint32_t id = (uint32_t)e->site->id;
            g[m++] = (gent){(uint64_t)id << 32 | occ[id]++, ln[i]->lane, e};
        }
        for (size_t k = 0; k < trace_len(ln[i]); k++)
            occ[ln[i]->tr[k].site->id] = 0;
    }
    qsort(g, m, sizeof *g, cmp_gent);
    entp grp[MODEL_WARP_SIZE];
    unsigned lane[MODEL_WARP_SIZE];
    for (size_t i = 0; i < m;) {
        unsigned n = 0;
        size_t j = i;
        while (j < m && g[j].key == g[i].key) {
            if (n < MODEL_WARP_SIZE) {
                lane[n] = g[j].lane;
                grp[n++] = g[j].e;
            }
            j++;
        }
        account(s, b, grp, lane, n, existing);
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
    for (unsigned i = 0; i < nl; i++) {
        if (ln[i]->tr_shadow != ln[i]->pub.tr_next)
            model_shadow_trace(ln[i]);
        s->lane_ops += trace_len(ln[i]);
    }
    const unsigned existing = hi - lo;
    size_t len = trace_len(ln[0]);
    bool same = true;
    for (unsigned i = 1; i < nl && same; i++) {
        if (trace_len(ln[i]) != len) {
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
        for (size_t k = 0; k < len; k++)
            account_same(s, b, ln, nl, k, existing);
    } else {
        s->divergent_branches++;
        s->launch_acc.divergent_branches++;
        account_diverged(s, b, ln, nl, existing);
    }
    for (unsigned i = 0; i < nl; i++)
        ln[i]->pub.tr_next = ln[i]->tr_shadow = ln[i]->tr;
}
