/* Constants and checks shared by the device-level scans and reductions
 * (type-independent, so guarded). */
#ifndef SCANLAB_DEVICE_COMMON_H
#define SCANLAB_DEVICE_COMMON_H

#include "cuda/dialect.h"

/* Default threads per block of the device-level scans and reductions. */
#define SL_DEV_DEFAULT_BLOCK 256
/* CUDA's limit on gridDim.x. */
#define SL_DEV_MAX_GRID_X 2147483647u

/* Whether block is a valid block size for the warp-shuffle block scan:
 * a power of two of at least one warp and at most 1024 threads. */
static inline int sl_dev_block_ok(unsigned block)
{
    return block >= SL_WARP_SIZE && block <= SL_MAX_BLOCK_THREADS && (block & (block - 1)) == 0;
}

/* The block size asked for (0 = SL_DEV_DEFAULT_BLOCK), or 0 if invalid. */
static inline unsigned sl_dev_block_of(int asked)
{
    unsigned b = asked > 0 ? (unsigned)asked : asked == 0 ? SL_DEV_DEFAULT_BLOCK : 0;
    return sl_dev_block_ok(b) ? b : 0;
}

/* Number of tiles of `tile` elements covering n (n > 0). */
static inline size_t sl_dev_tiles(size_t n, size_t tile) { return (n + tile - 1) / tile; }

/* two-level: default number of ranges (blocks). On the GPU enough blocks
 * to fill an H100: SMs times the resident blocks of `block` threads; in the
 * simulator a few, so that every range has several tiles. */
#define SL_TWO_LEVEL_GPU_SMS 132
#define SL_TWO_LEVEL_THREADS_PER_SM 2048
#define SL_TWO_LEVEL_SIM_RANGES 8

/* two-level's ranges for n > 0 elements in tiles of `block`: *ranges
 * blocks of *tiles_per_range tiles each (the last range may be shorter,
 * none is empty). param = the ranges asked for (0 = default for gpu). */
static inline void sl_two_level_ranges(size_t n, unsigned block, int param, int gpu, size_t *ranges,
                                       size_t *tiles_per_range)
{
    size_t c = param > 0 ? (size_t)param
               : gpu     ? (size_t)SL_TWO_LEVEL_GPU_SMS * (SL_TWO_LEVEL_THREADS_PER_SM / block)
                         : SL_TWO_LEVEL_SIM_RANGES;
    const size_t tiles = sl_dev_tiles(n, block);
    if (c > tiles)
        c = tiles;
    *tiles_per_range = sl_dev_tiles(tiles, c);
    *ranges = sl_dev_tiles(tiles, *tiles_per_range);
}

#endif
