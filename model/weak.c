/* The values a strong load may return (docs/memory-model.md). Memory holds
 * the newest value of every location; beside it, each location that strong
 * stores (volatile, relaxed, release, atomic) wrote in this launch keeps a
 * short history: its value before the launch's first store, then the last
 * stores in coherence order, each with the release it carried and the
 * threads that read it.
 *
 * A strong load may return any store of the history that no later store
 * excludes: a store is excluded when a later store to the same location
 * happens before the load (hb.c), or was read by a thread whose read
 * happens before the load (PTX's causality order begins with such an
 * observation), or when the loading thread has already seen a later one
 * (coherence). The default schedule always returns the newest store (as
 * sequential consistency would); explored schedules pick among the allowed
 * ones, and a thread that keeps polling one location sees the newest after
 * a few stale reads (stores become visible eventually).
 *
 * Coherence order is not the order stores are performed in: in an explored
 * schedule a store (not a read-modify-write) may take its place before
 * stores of other threads that it is not causally after: ones its thread
 * has not seen, that do not happen before it, and that no read happening
 * before it observed (PTX's Coherence axiom orders only writes related by
 * causality; 2+2W). Memory keeps the value of the last store in that
 * order. The history's order is total, but a load is held back only by the
 * stores PTX orders (co_before): morally strong ones, ones of one thread,
 * and ones causally related.
 *
 * In a litmus run (model_weak_free) weak stores enter the history too, and
 * weak loads and atomics have the freedom PTX gives them
 * (docs/memory-model.md, "Weak accesses in litmus runs"). */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Stores kept per location, the initial value included. */
#define HISTORY 6
/* Stale reads in a row of one location by one thread, at most. */
#define MAX_STALE_RUN 3
/* Readers kept per store (distinct threads, the first ones). A later
 * reader's observation orders nothing: the model may then allow more than
 * PTX (a false alarm at worst), never less. */
#define READERS 8
/* Coherence orders are spaced so that a store can be placed between two
 * (a gap of 1 left: that place is not offered). */
#define ORDER_GAP (UINT64_C(1) << 24)

typedef struct {
    unsigned char val[16];
    mpos writer; /* tid 0: the value before the launch */
    mrel rel;
    uint64_t order; /* coherence order of the location */
    mpos reader[READERS]; /* where threads that read it stood (morally strong reads only) */
    uint8_t nreader;
    uint8_t rmw; /* a read-modify-write's: stays right after the store it read */
    uint8_t weak; /* a weak (plain) store of a litmus run: morally strong with its own thread's accesses only */
} mstore;

typedef struct {
    uintptr_t addr; /* 0: empty slot */
    uint8_t size, dead;
    unsigned n;      /* stores kept, the oldest first */
    uint64_t next;   /* the next coherence order */
    mstore s[HISTORY];
} mhist;

static mhist *hist;
static size_t hist_cap, hist_used;

static size_t slot(uintptr_t addr, size_t cap)
{
    return (size_t)((addr >> 2) * UINT64_C(0x9e3779b97f4a7c15) >> 24) & (cap - 1);
}

static mhist *find(uintptr_t addr, bool create)
{
    if (hist_cap == 0) {
        if (!create)
            return NULL;
        hist = calloc(256, sizeof *hist);
        if (!hist)
            return NULL;
        hist_cap = 256;
    }
    size_t i = slot(addr, hist_cap);
    for (;; i = (i + 1) & (hist_cap - 1)) {
        if (hist[i].addr == addr)
            return &hist[i];
        if (!hist[i].addr)
            break;
    }
    if (!create)
        return NULL;
    if ((hist_used + 1) * 2 > hist_cap) {
        size_t ncap = hist_cap * 2;
        mhist *nh = calloc(ncap, sizeof *nh);
        if (!nh)
            return NULL;
        for (size_t k = 0; k < hist_cap; k++)
            if (hist[k].addr) {
                size_t j = slot(hist[k].addr, ncap);
                while (nh[j].addr)
                    j = (j + 1) & (ncap - 1);
                nh[j] = hist[k];
            }
        free(hist);
        hist = nh;
        hist_cap = ncap;
        return find(addr, true);
    }
    memset(&hist[i], 0, sizeof hist[i]);
    hist[i].addr = addr;
    hist_used++;
    return &hist[i];
}

/* Where the write of the read-modify-write that just read goes: right
 * after the store it read (set by model_weak_rmw_read, taken by the
 * write; nothing runs between the two). */
static struct {
    uintptr_t addr; /* 0: after every store */
    unsigned at;
} rmw_after;

void model_weak_reset(void)
{
    free(hist);
    hist = NULL;
    hist_cap = hist_used = 0;
    rmw_after.addr = 0;
}

static void append(mhist *h, const mstore *st)
{
    if (h->n == HISTORY) {
        memmove(&h->s[0], &h->s[1], (HISTORY - 1) * sizeof h->s[0]);
        h->n--;
    }
    h->s[h->n] = *st;
    h->s[h->n].order = ++h->next * ORDER_GAP;
    h->n++;
}

/* Puts st before h->s[at] (at >= 1, between two stores with room between
 * their orders); returns its index. */
static unsigned insert(mhist *h, const mstore *st, unsigned at)
{
    if (h->n == HISTORY) {
        memmove(&h->s[0], &h->s[1], (HISTORY - 1) * sizeof h->s[0]);
        h->n--;
        at--;
    }
    const uint64_t lo = at ? h->s[at - 1].order : h->s[at].order - ORDER_GAP, hi = h->s[at].order;
    memmove(&h->s[at + 1], &h->s[at], (h->n - at) * sizeof h->s[0]);
    h->s[at] = *st;
    h->s[at].order = lo + (hi - lo) / 2;
    h->n++;
    return at;
}

/* Whether a load of kind by t of store s is morally strong (PTX): the
 * scope of each includes the other thread. Only such a read is an
 * observation that orders what follows it. */
static bool morally_strong(const mthread *t, int kind, const mstore *s)
{
    if (s->writer.tid == 0 || s->writer.tid == t->gtid || (model_weaken & MODEL_WEAKEN_SCOPE))
        return true;
    /* a weak access is morally strong with accesses of its own thread only */
    if (s->weak || !(kind & MODEL_STRONG))
        return false;
    const bool same_block = (s->writer.tid - 1) / model_L.nth == t->blk->lin;
    const int ls = model_scope_of_kind(kind), ss = s->rel.sscope;
    if ((ls == MODEL_SCOPE_CTA || ss == MODEL_SCOPE_CTA) && !same_block)
        return false;
    return model_scope_spans(ls, s->writer.tid, t->gtid) && model_scope_spans(ss, s->writer.tid, t->gtid);
}

/* Records that t read s (the earliest read of each thread stands for its
 * later ones: whatever they happen before, it does). */
static void add_reader(mstore *s, const mthread *t, int kind)
{
    if (!model_L.explore || !morally_strong(t, kind, s))
        return;
    for (unsigned k = 0; k < s->nreader; k++)
        if (s->reader[k].tid == t->gtid)
            return;
    if (s->nreader < READERS)
        s->reader[s->nreader++] = model_pos(t);
}

/* Whether s is causally before the event at c: it happens before c, or a
 * read of it does. */
static bool causally_before(const mstore *s, const mpos *c)
{
    if (model_hb(&s->writer, c))
        return true;
    for (unsigned k = 0; k < s->nreader; k++)
        if (model_hb(&s->reader[k], c))
            return true;
    return false;
}

static mfloor *floor_of(mthread *t, uintptr_t addr, bool create)
{
    for (unsigned k = 0; k < t->nfloor; k++)
        if (t->floor[k].addr == addr)
            return &t->floor[k];
    if (!create)
        return NULL;
    if (t->nfloor < MODEL_COHERENCE_SLOTS) {
        t->floor[t->nfloor] = (mfloor){addr, 0};
        return &t->floor[t->nfloor++];
    }
    /* full: the oldest slot gives way; without its floor a thread could
     * see that location go back, so keep the histories of the locations it
     * polls (few) within the slots */
    memmove(&t->floor[0], &t->floor[1], (MODEL_COHERENCE_SLOTS - 1) * sizeof t->floor[0]);
    t->floor[MODEL_COHERENCE_SLOTS - 1] = (mfloor){addr, 0};
    return &t->floor[MODEL_COHERENCE_SLOTS - 1];
}

/* Where a store by t goes in h's coherence order (an index of h->s; h->n:
 * after every store, as performed). In an explored schedule it may go
 * before stores that are not causally before it: stores after what t has
 * seen (floor), that neither happen before it nor were read by a read that
 * does; never before the location's initial value, nor between a
 * read-modify-write and the store it read. */
static unsigned place(const mhist *h, const mthread *t, uint64_t floor)
{
    if (!model_L.explore || h->n < 2)
        return h->n;
    const mpos c = model_pos(t);
    unsigned at[HISTORY], n = 0;
    for (unsigned j = h->n - 1; j >= 1; j--) {
        const mstore *s = &h->s[j];
        if (s->order <= floor || causally_before(s, &c))
            break;
        if (!s->rmw && s->order - h->s[j - 1].order > 1)
            at[n++] = j;
    }
    if (n == 0)
        return h->n;
    const unsigned k = model_choose_place(n + 1);
    return k == 0 ? h->n : at[k - 1];
}

void model_weak_store(mthread *t, uintptr_t p, size_t size, const void *old, const void *v, const mrel *rel,
                      unsigned how)
{
    const uintptr_t after_addr = rmw_after.addr;
    rmw_after.addr = 0;
    if (size > 16 || !model_L.ordering)
        return;
    mhist *h = find(p, true);
    if (!h)
        return; /* out of memory: loads read memory, the newest value */
    if (h->n == 0 || h->size != size || h->dead) {
        /* the location's value before its first strong store of the launch
         * (or since a plain store or a store of another size) */
        h->n = 0;
        h->dead = 0;
        h->size = (uint8_t)size;
        mstore init;
        memset(&init, 0, sizeof init);
        memcpy(init.val, old, size);
        append(h, &init);
    }
    mstore st;
    memset(&st, 0, sizeof st);
    memcpy(st.val, v, size);
    /* a release store stands where its release does, so that what
     * acquires through a chain from it is after the store itself */
    st.writer = rel->own ? rel->p : model_pos(t);
    st.rel = *rel;
    st.rmw = how == MODEL_WEAK_RMW;
    st.weak = how == MODEL_WEAK_PLAIN;
    if (how == MODEL_WEAK_STRONG && !rel->valid)
        /* a strong store after a release store of its thread to the same
         * location carries that release (PTX's release pattern: a release
         * then, in program order, a strong store of the same location) */
        for (unsigned k = h->n; k-- > 1;)
            if (h->s[k].rel.own && h->s[k].rel.valid && h->s[k].rel.p.tid == t->gtid) {
                st.rel.p = h->s[k].rel.p;
                st.rel.scope = h->s[k].rel.scope;
                st.rel.valid = 1;
                break;
            }
    mfloor *f = floor_of(t, p, true);
    unsigned at = h->n;
    if (how != MODEL_WEAK_RMW)
        at = place(h, t, f->order);
    else if (after_addr == p && rmw_after.at + 1 < h->n)
        at = rmw_after.at + 1;
    if (at == h->n) {
        append(h, &st);
        f->order = h->s[h->n - 1].order;
        return;
    }
    f->order = h->s[insert(h, &st, at)].order;
    /* memory holds the last store in coherence order */
    memcpy((void *)p, h->s[h->n - 1].val, size);
}

void model_weak_plain_store(uintptr_t p, size_t size)
{
    if (hist_used == 0)
        return;
    for (uintptr_t a = (p & ~(uintptr_t)3) - 12; a < p + size; a += 4) {
        mhist *h = find(a, false);
        if (h && a + h->size > p)
            h->dead = 1;
    }
}

/* The history of p if it holds memory's value (no plain store of a kernel
 * since, the same size); NULL otherwise. */
static mhist *live(uintptr_t p, size_t size)
{
    mhist *h = hist_used ? find(p, false) : NULL;
    if (!h || h->dead || h->size != size || memcmp(h->s[h->n - 1].val, (const void *)p, size) != 0)
        return NULL;
    return h;
}

/* Whether stores a and b (of different threads) are morally strong: both
 * strong, the scope of each including the other's thread. */
static bool stores_morally_strong(const mstore *a, const mstore *b)
{
    if (model_weaken & MODEL_WEAKEN_SCOPE)
        return !a->weak && !b->weak;
    if (a->weak || b->weak)
        return false;
    const uint32_t ta = a->writer.tid, tb = b->writer.tid;
    const bool same_block = (ta - 1) / model_L.nth == (tb - 1) / model_L.nth;
    if ((a->rel.sscope == MODEL_SCOPE_CTA || b->rel.sscope == MODEL_SCOPE_CTA) && !same_block)
        return false;
    return model_scope_spans(a->rel.sscope, ta, tb) && model_scope_spans(b->rel.sscope, ta, tb);
}

/* co[k] (a bit per store of h): the stores k is before in coherence order
 * as PTX has it. The history's order is one total order consistent with
 * it, but PTX orders two stores to a location only when they are morally
 * strong or one is causally before the other (its Coherence axioms; then
 * transitively): a weak store and a store of another thread that neither
 * causality nor moral strength relates are in no order, and a load that
 * is causally after the one is not held back from the other. */
static void co_before(const mhist *h, unsigned co[HISTORY])
{
    for (unsigned k = h->n; k-- > 0;) {
        const mstore *a = &h->s[k];
        co[k] = 0;
        for (unsigned j = k + 1; j < h->n; j++) {
            const mstore *b = &h->s[j];
            if (co[k] >> j & 1)
                continue;
            if (a->writer.tid == 0 || a->writer.tid == b->writer.tid || stores_morally_strong(a, b) ||
                causally_before(a, &b->writer))
                co[k] |= (1u << j) | co[j];
        }
    }
}

/* The stores of h a load at c may return (indices into at, the newest
 * last; their number returned): every store that is not before, in
 * coherence order, a store causally before the load, nor (floor, for
 * strong loads: what its thread has observed) one its thread has seen;
 * and none of future (stores the load is causally before). */
static unsigned allowed(const mhist *h, uint64_t floor, const mpos *c, unsigned at[HISTORY], unsigned future)
{
    unsigned co[HISTORY], hidden = 0, n = 0;
    co_before(h, co);
    for (unsigned j = 1; j < h->n; j++)
        if (h->s[j].order <= floor || causally_before(&h->s[j], c))
            hidden |= 1u << j;
    for (unsigned k = 0; k < h->n; k++)
        if (!(co[k] & hidden) && !(future >> k & 1))
            at[n++] = k;
    return n;
}

/* Counts t's stale reads of p in a row (a thread that keeps polling p sees
 * the newest store after MAX_STALE_RUN of them). */
static void stale_count(mthread *t, uintptr_t p, bool stale)
{
    const bool polling = t->stale_addr == p;
    if (stale) {
        t->stale_run = polling ? t->stale_run + 1 : 1;
        t->stale_addr = p;
        /* not a deadlock: the newer store becomes visible within a few
         * more polls */
        model_L.weak_progress++;
    } else if (polling) {
        t->stale_run = 0;
    }
}

mrel model_weak_rmw_read(mthread *t, uintptr_t p, size_t size, int kind, void *out)
{
    mrel none;
    memset(&none, 0, sizeof none);
    rmw_after.addr = 0;
    mhist *h = live(p, size);
    if (!h) {
        memcpy(out, (const void *)p, size);
        return none;
    }
    mfloor *f = floor_of(t, p, true);
    unsigned pick = h->n - 1;
    if (model_chooser_now && model_L.explore && h->n > 1) {
        /* PTX's Atomicity axiom forbids only a morally strong store between
         * the read and the write in coherence order: the write can go right
         * after an older store, unless an atomic's write morally strong with
         * this one already stands there (it read that store) */
        const mpos c = model_pos(t);
        unsigned at[HISTORY], cand[HISTORY], n = 0;
        const unsigned na = allowed(h, f->order, &c, at, 0);
        for (unsigned i = 0; i + 1 < na; i++) {
            const unsigned k = at[i];
            const mstore *next = &h->s[k + 1];
            if (next->order - h->s[k].order > 1 && !(next->rmw && morally_strong(t, kind, next)))
                cand[n++] = k;
        }
        const bool polling = t->stale_addr == p;
        if (n && !(polling && t->stale_run >= MAX_STALE_RUN)) {
            const unsigned k = model_choose_value(n + 1);
            if (k < n)
                pick = cand[k];
        }
        stale_count(t, p, pick < h->n - 1);
    }
    if (pick < h->n - 1) {
        rmw_after.addr = p;
        rmw_after.at = pick;
    }
    f->order = h->s[pick].order;
    add_reader(&h->s[pick], t, kind);
    memcpy(out, h->s[pick].val, size);
    return h->s[pick].rel;
}

mrel model_weak_load(mthread *t, uintptr_t p, size_t size, int kind, const mpos *stood, void *out)
{
    mrel none;
    memset(&none, 0, sizeof none);
    mhist *h = live(p, size);
    /* no history, another size, or memory changed by a plain store since:
     * the newest value is the only one */
    if (!h) {
        memcpy(out, (const void *)p, size);
        h = hist_used ? find(p, false) : NULL;
        if (h)
            h->dead = 1;
        return none;
    }
    /* a weak load (litmus runs) is bound by causality alone: its thread's
     * earlier reads that were not observations (weak ones, or of weak
     * stores) do not hold it back, and it holds nothing back */
    const bool weak = !(kind & MODEL_STRONG);
    mfloor *f = floor_of(t, p, true);
    unsigned pick = h->n - 1;
    if (model_L.explore && h->n > 1) {
        /* a weak load bound late takes its value from where it stood: the
         * stores causally before that place hide older ones, and a store
         * of another thread that place is causally before (the fences,
         * releases and barriers it passed) it cannot read */
        const mpos c = weak && stood ? *stood : model_pos(t);
        unsigned future = 0;
        if (weak && stood)
            for (unsigned k = 1; k < h->n; k++)
                if (h->s[k].writer.tid != t->gtid && model_hb(stood, &h->s[k].writer))
                    future |= 1u << k;
        unsigned at[HISTORY];
        const unsigned na = allowed(h, weak ? 0 : f->order, &c, at, future);
        const bool polling = t->stale_addr == p;
        if (na > 1 && !(polling && t->stale_run >= MAX_STALE_RUN))
            pick = at[model_choose_value(na)];
        else if (na >= 1)
            pick = at[na - 1];
        stale_count(t, p, pick < h->n - 1);
    }
    memcpy(out, h->s[pick].val, size);
    if (weak)
        return none;
    /* only an observation (a morally strong read) holds the thread's later
     * loads back: PTX's read-read coherence comes from causality, which
     * begins with one */
    if (morally_strong(t, kind, &h->s[pick]))
        f->order = h->s[pick].order;
    add_reader(&h->s[pick], t, kind);
    return h->s[pick].rel;
}
