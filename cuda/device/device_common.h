/* Constants and checks shared by the device-level scans and reductions
 * (type-independent, so guarded). */
#ifndef SCANLAB_DEVICE_COMMON_H
#define SCANLAB_DEVICE_COMMON_H

#include "cuda/dialect.h"

/* Default threads per block of the reductions (cuda/reduce/). */
#define SL_DEV_DEFAULT_BLOCK 256
/* CUDA's limit on gridDim.x. */
#define SL_DEV_MAX_GRID_X 2147483647u
/* Dynamic shared memory a block may use without an opt-in (48 KiB). */
#define SL_DEV_SHARED_LIMIT ((size_t)48 * 1024)

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

/* The grid of a kernel that loops over `work` pieces: as many blocks as
 * the GPU holds at once (resident), never more than the pieces. */
static inline unsigned sl_dev_grid(size_t work, unsigned resident)
{
    return work < resident ? (unsigned)work : resident;
}

/* two-level: the default number of ranges C in the simulator (on the GPU:
 * the resident blocks of its scan kernel, from the occupancy query). */
#define SL_TWO_LEVEL_SIM_RANGES 8

/* two-level's ranges over `tiles` tiles when c ranges are asked for:
 * *ranges blocks of *tiles_per_range tiles each (the last range may be
 * shorter, none is empty). */
static inline void sl_two_level_ranges(size_t tiles, size_t c, size_t *ranges, size_t *tiles_per_range)
{
    if (c > tiles)
        c = tiles;
    if (c == 0)
        c = 1;
    *tiles_per_range = sl_dev_tiles(tiles, c);
    *ranges = sl_dev_tiles(tiles, *tiles_per_range);
}

#endif
