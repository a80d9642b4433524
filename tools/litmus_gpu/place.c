/* Where one launch puts the instances of a test: thread randomisation
 * (Alglave et al., ASPLOS 2015): each instance's threads at random threads
 * of random CTAs of the grid, threads the test places in one CTA in one
 * CTA (in random warps and lanes of it), threads of different CTAs in
 * different ones; and the instances' locations at shuffled slots of one
 * region, so that which locations share a cache line changes from launch
 * to launch and follows no pattern. A fresh placement every launch. */
#include <stdlib.h>
#include <string.h>

#include "tools/litmus_gpu/campaign.h"

unsigned lg_cta_capacity(const lg_geometry *g)
{
    /* three quarters of a CTA at most: the rest stresses */
    const unsigned c = g->block - g->block / 4;
    return c ? c : 1;
}

int lg_launch_alloc(lg_launch *L, const lit_test *t, const lg_geometry *g)
{
    memset(L, 0, sizeof *L);
    const size_t threads = (size_t)g->grid * g->block, slots = (size_t)g->instances * t->nlocs;
    L->mem_words = slots * g->stride;
    L->roles = malloc(threads * sizeof *L->roles);
    L->addr = malloc((slots ? slots : 1) * sizeof *L->addr);
    L->slots = malloc((slots ? slots : 1) * sizeof *L->slots);
    L->mem = malloc((L->mem_words ? L->mem_words : 1) * sizeof *L->mem);
    L->used = malloc((g->grid ? g->grid : 1) * sizeof *L->used);
    if (!L->roles || !L->addr || !L->slots || !L->mem || !L->used) {
        lg_launch_free(L);
        return -1;
    }
    return 0;
}

void lg_launch_free(lg_launch *L)
{
    free(L->roles);
    free(L->addr);
    free(L->slots);
    free(L->mem);
    free(L->used);
    memset(L, 0, sizeof *L);
}

static bool fits(const lg_launch *L, const lg_geometry *g, unsigned c, unsigned need, const unsigned *taken,
                 unsigned ntaken)
{
    bool ok = L->used[c] + need <= lg_cta_capacity(g);
    for (unsigned j = 0; j < ntaken && ok; j++)
        ok = taken[j] != c;
    return ok;
}

/* A CTA of the grid with room for need more testing threads, not one of
 * taken[0..ntaken): random tries first, then a scan from a random start.
 * -1 when there is none. */
static long pick_cta(const lg_launch *L, const lg_geometry *g, unsigned need, const unsigned *taken, unsigned ntaken,
                     uint64_t *rng)
{
    for (unsigned tries = 0; tries < 64; tries++) {
        const unsigned c = lg_below(rng, g->grid);
        if (fits(L, g, c, need, taken, ntaken))
            return c;
    }
    const unsigned from = lg_below(rng, g->grid);
    for (unsigned n = 0; n < g->grid; n++)
        if (fits(L, g, (from + n) % g->grid, need, taken, ntaken))
            return (from + n) % g->grid;
    return -1;
}

/* A free thread of CTA c: random tries (at least a quarter is free), then
 * a scan. */
static unsigned pick_thread(const lg_launch *L, const lg_geometry *g, unsigned c, uint64_t *rng)
{
    const uint32_t *row = L->roles + (size_t)c * g->block;
    for (unsigned tries = 0; tries < 64; tries++) {
        const unsigned s = lg_below(rng, g->block);
        if (row[s] == LG_ROLE_STRESS)
            return s;
    }
    for (unsigned s = lg_below(rng, g->block), n = 0; n < g->block; n++, s = (s + 1) % g->block)
        if (row[s] == LG_ROLE_STRESS)
            return s;
    return 0; /* not reached: the CTA had room */
}

unsigned lg_place(lg_launch *L, const lit_test *t, const lg_geometry *g, uint64_t *rng)
{
    memset(L->roles, 0, (size_t)g->grid * g->block * sizeof *L->roles);
    memset(L->used, 0, g->grid * sizeof *L->used);
    unsigned need[LIT_MAX_THREADS] = {0};
    for (unsigned k = 0; k < t->nthreads; k++)
        need[t->th[k].block]++;
    unsigned placed = 0;
    for (unsigned i = 0; i < g->instances; i++) {
        unsigned cta[LIT_MAX_THREADS];
        bool ok = true;
        for (unsigned b = 0; b < t->nblocks && ok; b++) {
            const long c = pick_cta(L, g, need[b], cta, b, rng);
            ok = c >= 0;
            cta[b] = (unsigned)c;
        }
        if (!ok)
            break;
        for (unsigned k = 0; k < t->nthreads; k++) {
            const unsigned c = cta[t->th[k].block], s = pick_thread(L, g, c, rng);
            L->roles[(size_t)c * g->block + s] = 1u + i * LIT_MAX_THREADS + k;
            L->used[c]++;
        }
        placed++;
    }
    /* the locations: slot j of the region at word j * stride, shuffled */
    const size_t slots = (size_t)g->instances * t->nlocs;
    for (size_t j = 0; j < slots; j++)
        L->slots[j] = (uint32_t)j;
    for (size_t j = slots; j > 1; j--) {
        const size_t r = (size_t)(lg_rand(rng) % j);
        const uint32_t x = L->slots[j - 1];
        L->slots[j - 1] = L->slots[r];
        L->slots[r] = x;
    }
    memset(L->mem, 0, L->mem_words * sizeof *L->mem);
    for (size_t j = 0; j < slots; j++) {
        L->addr[j] = L->slots[j] * g->stride;
        L->mem[L->addr[j]] = (uint32_t)t->loc_init[j % t->nlocs];
    }
    return placed;
}
