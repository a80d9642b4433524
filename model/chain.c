/* Cross-block wait chains. The first strong store of a word in a launch
 * (a published flag) gives the word its block's chain depth at that
 * moment; a block that reads, with a strong load, a word another block of
 * the launch published waited for that block: its depth becomes at least
 * the word's depth + 1. The launch's chain is the largest depth, the
 * number of waits in series on the longest chain.
 *
 * The first store counts, not the one the load happened to see: it is the
 * earliest value the reader could have used, which is what a GPU running
 * every tile at once gets. A chained scan publishes each tile's prefix
 * once, after its own wait: its chain is tiles - 1. A look-back scan
 * publishes each aggregate before its tile waits, so whichever status a
 * reader saw, the word's first value made no one wait: its chain is 1.
 *
 * Warps are accounted when their lanes park; a strong load parks at once
 * and a store is accounted at the writer's next park, before any other
 * block runs, so a store a load saw has been noted before the load. */
#include <stdlib.h>
#include <string.h>

#include "chain.h"

typedef struct {
    uintptr_t addr; /* 0: empty */
    uint32_t depth, block;
} cword;

static struct {
    const model_stats *stats;
    uint32_t stamp0;
    unsigned nblocks;
    uint32_t *depth; /* per block-linear index */
    cword *map;      /* open addressing, capacity a power of two */
    size_t cap, used;
} C;

static size_t hash(uintptr_t a, size_t cap) { return (size_t)((a >> 2) * 0x9e3779b97f4a7c15ull) & (cap - 1); }

/* Tables for the launch in progress; false when out of memory. */
static bool ready(const model_stats *s)
{
    if (C.stats == s && C.stamp0 == model_L.stamp0 && C.nblocks == model_L.nblocks && C.depth)
        return true;
    free(C.depth);
    C.depth = calloc(model_L.nblocks ? model_L.nblocks : 1, sizeof *C.depth);
    if (C.used)
        memset(C.map, 0, C.cap * sizeof *C.map);
    C.used = 0;
    C.stats = s;
    C.stamp0 = model_L.stamp0;
    C.nblocks = model_L.nblocks;
    return C.depth != NULL;
}

static cword *slot(uintptr_t addr, bool insert)
{
    if (insert && 2 * (C.used + 1) > C.cap) {
        size_t cap = C.cap ? 2 * C.cap : 1024;
        cword *m = calloc(cap, sizeof *m);
        if (!m)
            return NULL;
        for (size_t i = 0; i < C.cap; i++)
            if (C.map[i].addr) {
                size_t h = hash(C.map[i].addr, cap);
                while (m[h].addr)
                    h = (h + 1) & (cap - 1);
                m[h] = C.map[i];
            }
        free(C.map);
        C.map = m;
        C.cap = cap;
    }
    if (C.cap == 0)
        return NULL;
    size_t h = hash(addr, C.cap);
    while (C.map[h].addr && C.map[h].addr != addr)
        h = (h + 1) & (C.cap - 1);
    if (!C.map[h].addr) {
        if (!insert)
            return NULL;
        C.map[h].addr = addr;
        C.used++;
    }
    return &C.map[h];
}

void model_chain_note(model_stats *s, const mblock *b, const model_site *site, const uintptr_t *addr,
                      unsigned n)
{
    if (!ready(s) || b->lin >= C.nblocks)
        return;
    uint32_t *mine = &C.depth[b->lin];
    for (unsigned i = 0; i < n; i++) {
        if (site->kind & MODEL_WR) {
            if (slot(addr[i], false))
                continue; /* published before: the first value stays */
            cword *w = slot(addr[i], true);
            if (w) {
                w->depth = *mine;
                w->block = b->lin;
            }
            continue;
        }
        const cword *w = slot(addr[i], false);
        if (!w || w->block == b->lin || w->depth + 1 <= *mine)
            continue;
        *mine = w->depth + 1;
        if (*mine > s->launch_acc.chain)
            s->launch_acc.chain = *mine;
    }
}
