/* The layout of a register tile (tile_scan.cuh), type-independent: the
 * default threads and items per thread, and how a driver resolves them.
 * Also read by cuda/depth.c. */
#ifndef SCANLAB_TILE_GEOM_H
#define SCANLAB_TILE_GEOM_H

#include "cuda/device/device_common.h"

/* Threads per block of the tile kernels (CUB's sm_90 tuning for 4-byte
 * scans) and items per thread: 24 for 4-byte types, 12 for 8-byte types,
 * 96 bytes per thread either way. */
#define SL_TILE_THREADS 128u
#define SL_TILE_ITEMS_4 24u
#define SL_TILE_ITEMS_8 12u
#define SL_TILE_ITEMS_FOR(size) ((size) == 4 ? SL_TILE_ITEMS_4 : SL_TILE_ITEMS_8)
/* Threads per block of lookback and lookback-det: SL_TILE_THREADS, and
 * SL_LOOKBACK_LARGE_THREADS where the input holds SL_LOOKBACK_LARGE_BYTES
 * or more (the same items a thread). Measured on the H100, where such
 * inputs make grids of persistent blocks with two tiles in flight
 * (docs/performance.md): at 2^28, 192 threads took lookback from 0.893 to
 * 0.917 of a device copy for i32 and f32 and from 0.905 to 0.936 for i64
 * and f64 (lookback-det from 0.888 to 0.907 and from 0.906 to 0.930),
 * and every 8-byte operator and 4-byte max and min likewise; 4-byte
 * affine lookback lost 1 % (0.893 -> 0.881). Below 64 MiB they gained
 * little or lost (2^16 i32 5.3 -> 5.5 us, 2^21 i64 1.10 -> 1.03 to 1.05
 * of CUB's speed). A rule on
 * the size alone, not on the GPU: lookback-det's bits follow its tile,
 * and must be the same on every GPU and in the simulator. */
#define SL_LOOKBACK_LARGE_THREADS 192u
#define SL_LOOKBACK_LARGE_BYTES ((size_t)64 << 20)
static inline unsigned sl_lookback_threads(size_t n, size_t elem)
{
    return n >= SL_LOOKBACK_LARGE_BYTES / elem ? SL_LOOKBACK_LARGE_THREADS : SL_TILE_THREADS;
}
/* Threads per block of the chained scans, whose time is one hand-off per
 * tile: 384 x 24 4-byte items (9216 elements, 37 KiB of staging), 384 x
 * 12 for 8-byte items. */
#define SL_CHAINED_THREADS 384u

/* The largest block of a tile kernel: its launch bounds, which let the
 * compiler use up to 128 registers per thread (items stay in registers
 * for every operator). */
#define SL_TILE_MAX_THREADS 512u

/* A tile's layout as a driver resolved it. */
typedef struct {
    unsigned block; /* threads per block, a multiple of 32, at most SL_TILE_MAX_THREADS */
    unsigned items; /* items per thread, 1 .. SL_TILE_ITEMS_FOR(elem) */
    size_t tile;    /* elements per tile: block * items */
    size_t shmem;   /* dynamic shared bytes: the warps' staging areas */
} sl_tile_geom;

/* A warp's staging area holds its 32 x items elements with one pad
 * element after every PERIOD: 96 words, the least common multiple of the
 * 32 banks and the 24 words a thread holds by default, so that neither the
 * warp-striped nor the blocked accesses of the default layout meet in a
 * bank (4-byte elements: 1 wavefront per access, 8-byte: 2). Other item
 * counts conflict a little, and stay correct. */
#define SL_TILE_PAD_PERIOD(size) ((size) == 4 ? 96u : 48u)
#define SL_TILE_STAGE_ELEMS(items, size) \
    ((size_t)SL_WARP_SIZE * (items) + (size_t)SL_WARP_SIZE * (items) / SL_TILE_PAD_PERIOD(size) + 1)

/* Resolves block (0 = default_block) and items (0 = the type's default)
 * for elements of elem bytes; SL_ERR_ARG when either is out of range or
 * the staging areas pass 48 KiB. */
static inline sl_status sl_tile_geom_of(int block, int items, size_t elem, unsigned default_block,
                                        sl_tile_geom *g)
{
    const unsigned max_items = SL_TILE_ITEMS_FOR(elem);
    if (block < 0 || items < 0)
        return SL_ERR_ARG;
    g->block = block > 0 ? (unsigned)block : default_block;
    g->items = items > 0 ? (unsigned)items : max_items;
    if (g->block % SL_WARP_SIZE != 0 || g->block > SL_TILE_MAX_THREADS || g->items > max_items)
        return SL_ERR_ARG;
    g->tile = (size_t)g->block * g->items;
    g->shmem = (g->block / SL_WARP_SIZE) * SL_TILE_STAGE_ELEMS(g->items, elem) * elem;
    return g->shmem <= SL_DEV_SHARED_LIMIT ? SL_OK : SL_ERR_ARG;
}

#endif
