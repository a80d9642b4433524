/* The values a strong load may return (docs/memory-model.md). Memory holds
 * the newest value of every location; beside it, each location that strong
 * stores (volatile, relaxed, release, atomic) wrote in this launch keeps a
 * short history: its value before the launch's first store, then the last
 * stores in coherence order, each with the release it carried.
 *
 * A strong load may return any store of the history that no later store
 * excludes: a store is excluded when a later store to the same location
 * happens before the load (hb.c), or when the loading thread has already
 * seen a later one (coherence). The default schedule always returns the
 * newest store (as sequential consistency would); explored schedules pick
 * among the allowed ones, and a thread that keeps polling one location
 * sees the newest after a few stale reads (stores become visible
 * eventually). */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Stores kept per location, the initial value included. */
#define HISTORY 6
/* Stale reads in a row of one location by one thread, at most. */
#define MAX_STALE_RUN 3

typedef struct {
    unsigned char val[16];
    mpos writer; /* tid 0: the value before the launch */
    mrel rel;
    uint64_t order; /* coherence order of the location */
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

static size_t slot(uintptr_t addr, size_t cap) { return (size_t)((addr >> 2) * UINT64_C(0x9e3779b97f4a7c15) >> 24) & (cap - 1); }

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

void model_weak_reset(void)
{
    free(hist);
    hist = NULL;
    hist_cap = hist_used = 0;
}

static void append(mhist *h, const mstore *st)
{
    if (h->n == HISTORY) {
        memmove(&h->s[0], &h->s[1], (HISTORY - 1) * sizeof h->s[0]);
        h->n--;
    }
    h->s[h->n] = *st;
    h->s[h->n].order = h->next++;
    h->n++;
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

void model_weak_store(mthread *t, uintptr_t p, size_t size, const void *old, const void *v, const mrel *rel)
{
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
    append(h, &st);
    mfloor *f = floor_of(t, p, true);
    f->order = h->s[h->n - 1].order;
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

mrel model_weak_newest(mthread *t, uintptr_t p, size_t size)
{
    mrel none;
    memset(&none, 0, sizeof none);
    mhist *h = hist_used ? find(p, false) : NULL;
    if (!h || h->dead || h->size != size || memcmp(h->s[h->n - 1].val, (const void *)p, size) != 0)
        return none;
    floor_of(t, p, true)->order = h->s[h->n - 1].order;
    return h->s[h->n - 1].rel;
}

mrel model_weak_load(mthread *t, uintptr_t p, size_t size, int kind, void *out)
{
    (void)kind;
    mrel none;
    memset(&none, 0, sizeof none);
    mhist *h = hist_used ? find(p, false) : NULL;
    /* no history, another size, or memory changed by a plain store since:
     * the newest value is the only one */
    if (!h || h->dead || h->size != size || memcmp(h->s[h->n - 1].val, (const void *)p, size) != 0) {
        memcpy(out, (const void *)p, size);
        if (h)
            h->dead = 1;
        return none;
    }
    mfloor *f = floor_of(t, p, true);
    unsigned pick = h->n - 1;
    if (model_L.explore && h->n > 1) {
        /* the oldest store still allowed: not older than what t has seen,
         * nor than the newest store that happens before the load */
        const mpos c = model_pos(t);
        unsigned lo = 0;
        while (lo < h->n - 1 && h->s[lo].order < f->order)
            lo++;
        for (unsigned k = h->n - 1; k > lo; k--)
            if (model_hb(&h->s[k].writer, &c)) {
                lo = k;
                break;
            }
        const bool polling = t->stale_addr == p;
        if (lo < h->n - 1 && !(polling && t->stale_run >= MAX_STALE_RUN))
            pick = lo + model_choose_value(h->n - lo);
        if (pick < h->n - 1) {
            t->stale_run = polling ? t->stale_run + 1 : 1;
            t->stale_addr = p;
            /* not a deadlock: the newer store becomes visible within a
             * few more polls */
            model_L.weak_progress++;
        } else if (polling) {
            t->stale_run = 0;
        }
    }
    f->order = h->s[pick].order;
    memcpy(out, h->s[pick].val, size);
    return h->s[pick].rel;
}
