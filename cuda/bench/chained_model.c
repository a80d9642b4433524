/* The chained scans' tile count and status word (chained_model.h), from
 * the same layout rules as their drivers (cuda/device/tile_geom.h,
 * tile_status.cuh). */
#include "cuda/bench/chained_model.h"

#include "cuda/device/tile_geom.h"
#define SL_TILE_STATUS_COMMON_ONLY
#include "cuda/device/tile_status.cuh"

size_t sl_chained_tiles(sl_type type, size_t n, int block, int param)
{
    sl_tile_geom g;
    if (sl_tile_geom_of(block, param, SL_TYPE_SIZE(type), SL_CHAINED_THREADS, &g) != SL_OK)
        return 0;
    return n == 0 ? 0 : sl_dev_tiles(n, g.tile);
}

size_t sl_chained_word_bytes(sl_type type) { return sl_tile_word_bytes(SL_TYPE_SIZE(type)); }
