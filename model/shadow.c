/* The race detector. A data race, as the PTX memory model defines it, is
 * two accesses to overlapping memory by different threads, at least one a
 * write, that are not morally strong (both strong, of the same address and
 * size, of scopes that include each other) and that happens-before does
 * not order (hb.c). Every 4-byte word of shared and global memory has a
 * shadow: its last write and every read since that write. A write is
 * checked against the last write and every read; a read against the last
 * write. A read that happens after the shadow's last read replaces it; a
 * concurrent one joins the word's read set, kept in a table beside the
 * shadow (most words have one reader at a time).
 *
 * Plain accesses reach the shadow from the lanes' traces, in the order the
 * lanes ran, before the position of their thread changes (at the next
 * synchronisation point); strong accesses reach it at once. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* ---- read sets ------------------------------------------------------------ */
typedef struct {
    const mshadow *key; /* NULL: empty slot */
    uint32_t life;      /* the first stamp of the memory's lifetime when filled */
    uint32_t n, cap;
    mref *v;
} mreadset;

static mreadset *sets;
static size_t sets_cap, sets_used;

static mreadset *set_find(const mshadow *key, bool create)
{
    if (sets_cap == 0) {
        if (!create)
            return NULL;
        sets = calloc(256, sizeof *sets);
        if (!sets)
            return NULL;
        sets_cap = 256;
    }
    size_t mask = sets_cap - 1, i = ((uintptr_t)key >> 3) * UINT64_C(0x9e3779b97f4a7c15) >> 20 & mask;
    for (;; i = (i + 1) & mask) {
        if (sets[i].key == key)
            return &sets[i];
        if (!sets[i].key)
            break;
    }
    if (!create)
        return NULL;
    if ((sets_used + 1) * 2 > sets_cap) {
        size_t ncap = sets_cap * 2;
        mreadset *ns = calloc(ncap, sizeof *ns);
        if (!ns)
            return NULL;
        for (size_t k = 0; k < sets_cap; k++)
            if (sets[k].key) {
                size_t j = ((uintptr_t)sets[k].key >> 3) * UINT64_C(0x9e3779b97f4a7c15) >> 20 & (ncap - 1);
                while (ns[j].key)
                    j = (j + 1) & (ncap - 1);
                ns[j] = sets[k];
            }
        free(sets);
        sets = ns;
        sets_cap = ncap;
        return set_find(key, true);
    }
    sets[i].key = key;
    sets[i].n = 0;
    sets_used++;
    return &sets[i];
}

void model_shadow_sets_reset(void)
{
    for (size_t k = 0; k < sets_cap; k++)
        free(sets[k].v);
    free(sets);
    sets = NULL;
    sets_cap = sets_used = 0;
}

/* ---- the checks ----------------------------------------------------------- */
static uint16_t size_code(uint32_t size) { return size == 4 ? 0 : size == 8 ? 1 : size == 16 ? 2 : 3; }

static uint16_t make_flags(int kind, int scope, uint32_t size, unsigned word)
{
    uint16_t f = (uint16_t)(size_code(size) << MREF_SIZE_SHIFT | (word & 3u) << MREF_OFF_SHIFT);
    if (kind & MODEL_STRONG)
        f |= (uint16_t)(MREF_STRONG | (unsigned)scope << MREF_SCOPE_SHIFT);
    return f;
}

static unsigned scope_of(uint16_t f) { return f >> MREF_SCOPE_SHIFT & 3u; }

/* Both strong, the same access (address and size), and scopes that include
 * both threads (a block scope only within one block, a GPU scope only
 * within one device). */
static bool morally_strong(const mref *a, uint16_t bflags, const mpos *b)
{
    const uint16_t same = MREF_STRONG | 3u << MREF_SIZE_SHIFT | 3u << MREF_OFF_SHIFT;
    if (!(a->flags & MREF_STRONG) || !(bflags & MREF_STRONG) || (a->flags & same) != (bflags & same))
        return false;
    if ((a->flags >> MREF_SIZE_SHIFT & 3u) == 3u)
        return false;
    if (scope_of(a->flags) == MODEL_SCOPE_CTA || scope_of(bflags) == MODEL_SCOPE_CTA)
        return (a->p.tid - 1) / model_L.nth == (b->tid - 1) / model_L.nth;
    /* GPU scope includes the threads of one device only */
    return model_scope_spans((int)scope_of(a->flags), a->p.tid, b->tid) &&
           model_scope_spans((int)scope_of(bflags), a->p.tid, b->tid);
}

/* Whether the earlier access a and the current one (at c, flags cf) can
 * coexist: no access, an earlier lifetime, the same thread, morally strong,
 * or ordered by happens-before. */
static bool coexist(const mref *a, const mpos *c, uint16_t cf, uint32_t stamp0)
{
    if (a->p.tid == 0 || a->p.stamp < stamp0 || a->p.tid == c->tid)
        return true;
    if (morally_strong(a, cf, c))
        return true;
    return model_hb(&a->p, c);
}

static mref make_ref(const mpos *p, const model_site *site, uint16_t flags)
{
    mref r = {*p, (uint16_t)(site->id <= (int)MREF_MAX_SITE ? site->id : 0), flags};
    return r;
}

/* The same thread with the same kind of access: the later read stands for
 * the earlier one. */
static bool same_reader(const mref *a, const mref *b)
{
    return a->p.tid == b->p.tid && (a->flags & ~MREF_SET) == (b->flags & ~MREF_SET);
}

static void read_word(mthread *t, mshadow *s, uint32_t stamp0, uintptr_t waddr, const mpos *c,
                      const mref *cr, const model_site *site)
{
    if (!coexist(&s->w, c, cr->flags, stamp0))
        model_report_race(t, site, &s->w, waddr, false);
    mref *r = &s->r;
    if (r->p.tid == 0 || r->p.stamp < stamp0) {
        *r = *cr;
        return;
    }
    const bool has_set = r->flags & MREF_SET;
    if (same_reader(r, cr) || (!has_set && model_local_before(&r->p, c))) {
        /* the new read happens after the old: it stands for both */
        *r = *cr;
        if (has_set)
            r->flags |= MREF_SET;
        return;
    }
    mreadset *set = set_find(s, true);
    if (!set) {
        *r = *cr; /* out of memory: a missed reader can only hide a report */
        return;
    }
    if (!has_set || set->life != stamp0) {
        set->n = 0;
        set->life = stamp0;
    }
    /* readers of earlier intervals of this block happen before this one:
     * drop them, so that a broadcast read interval after interval does not
     * grow the set */
    if (set->n && model_local_before(&set->v[set->n - 1].p, c) && model_local_before(&set->v[0].p, c)) {
        uint32_t k = 0;
        for (uint32_t j = 0; j < set->n; j++)
            if (!model_local_before(&set->v[j].p, c))
                set->v[k++] = set->v[j];
        set->n = k;
    }
    mref old = *r;
    old.flags &= (uint16_t)~MREF_SET;
    if (!model_local_before(&old.p, c)) {
        bool merged = false;
        for (uint32_t k = set->n; k > 0 && k + 4 > set->n; k--)
            if (same_reader(&set->v[k - 1], &old)) {
                set->v[k - 1] = old;
                merged = true;
                break;
            }
        if (!merged) {
            if (set->n == set->cap) {
                uint32_t cap = set->cap ? set->cap * 2 : 4;
                mref *v = realloc(set->v, cap * sizeof *v);
                if (!v) {
                    *r = *cr;
                    return;
                }
                set->v = v;
                set->cap = cap;
            }
            set->v[set->n++] = old;
        }
    }
    *r = *cr;
    if (set->n)
        r->flags |= MREF_SET;
}

static void write_word(mthread *t, mshadow *s, uint32_t stamp0, uintptr_t waddr, const mpos *c,
                       const mref *cr, const model_site *site)
{
    if (!coexist(&s->w, c, cr->flags, stamp0))
        model_report_race(t, site, &s->w, waddr, true);
    if (s->r.p.tid && s->r.p.stamp >= stamp0) {
        if (!coexist(&s->r, c, cr->flags, stamp0))
            model_report_race(t, site, &s->r, waddr, true);
        if (s->r.flags & MREF_SET) {
            mreadset *set = set_find(s, false);
            if (set && set->life == stamp0)
                for (uint32_t k = 0; k < set->n; k++)
                    if (!coexist(&set->v[k], c, cr->flags, stamp0))
                        model_report_race(t, site, &set->v[k], waddr, true);
            if (set)
                set->n = 0;
        }
    }
    memset(&s->r, 0, sizeof s->r);
    s->w = *cr;
}

static void access_words(mthread *t, mshadow *base, uintptr_t lo, uint32_t stamp0, uintptr_t addr,
                         uint32_t size, int kind, int scope, const model_site *site, const mpos *c)
{
    const size_t w0 = (addr - lo) / 4, w1 = (addr + size - 1 - lo) / 4;
    for (size_t w = w0; w <= w1; w++) {
        const mref cr = make_ref(c, site, make_flags(kind, scope, size, (unsigned)(w - w0)));
        if (kind & MODEL_WR)
            write_word(t, &base[w], stamp0, lo + w * 4, c, &cr, site);
        else
            read_word(t, &base[w], stamp0, lo + w * 4, c, &cr, site);
    }
}

void model_shadow_access(mthread *t, uintptr_t addr, uint32_t size, int kind, int scope,
                         const model_site *site)
{
    uintptr_t lo;
    uint32_t stamp0;
    mshadow *base = model_shadow_word(t->blk, addr, &lo, &stamp0);
    if (!base)
        return;
    const mpos c = model_pos(t);
    access_words(t, base, lo, stamp0, addr, size, kind, scope, site, &c);
}

void model_shadow_trace(mthread *t)
{
    const model_trace_ent *e = t->tr_shadow, *end = t->pub.tr_next;
    if (e == end)
        return;
    const mpos c = model_pos(t);
    const mblock *b = t->blk;
    const uintptr_t slo = (uintptr_t)b->smem;
    mshadow *const sbase = b->sshadow;
    const uint32_t sstamp0 = b->stamp0;
    for (; e < end; e++) {
        model_site *site = (model_site *)e->site;
        if (__builtin_expect(site->id == 0, 0))
            model_site_intern(site);
        if (site->kind & MODEL_STRONG)
            continue; /* already seen when it ran */
        const uintptr_t a = e->addr;
        if (__builtin_expect(a - slo < MODEL_MAX_SHARED_LIMIT && site->size == 4 && !(a & 3), 1)) {
            /* the common case: one aligned shared word */
            const mref cr = make_ref(&c, site, make_flags(site->kind, 0, 4, 0));
            mshadow *s = &sbase[(a - slo) / 4];
            if (site->kind & MODEL_WR)
                write_word(t, s, sstamp0, a, &c, &cr, site);
            else
                read_word(t, s, sstamp0, a, &c, &cr, site);
            continue;
        }
        uintptr_t lo;
        uint32_t stamp0;
        mshadow *base = model_shadow_word(b, a, &lo, &stamp0);
        if (base)
            access_words(t, base, lo, stamp0, a, site->size, site->kind, 0, site, &c);
    }
    t->tr_shadow = t->pub.tr_next;
}

void model_shadow_catch_up(mthread *t)
{
    if (!model_L.accounting)
        return;
    mblock *b = t->blk;
    unsigned lo = t->warp * MODEL_WARP_SIZE, hi = lo + MODEL_WARP_SIZE;
    if (hi > b->nth)
        hi = b->nth;
    for (unsigned i = lo; i < hi; i++)
        model_shadow_trace(&b->th[i]);
}
