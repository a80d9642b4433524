/* The chained scans' tile count (chained_model.h), from the same layout
 * rules as their drivers (cuda/device/tile_geom.h). */
#include "cuda/bench/chained_model.h"

#include "cuda/device/tile_geom.h"

size_t sl_chained_tiles(sl_type type, size_t n, int block, int param)
{
    sl_tile_geom g;
    if (sl_tile_geom_of(block, param, SL_TYPE_SIZE(type), SL_CHAINED_THREADS, &g) != SL_OK)
        return 0;
    return n == 0 ? 0 : sl_dev_tiles(n, g.tile);
}
