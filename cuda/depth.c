#include "depth.h"

#include "cuda/dialect.h"

size_t sl_depth_brent_kung(const sl_scan_args *a, size_t i)
{
    (void)i;
    const size_t section = 2 * (size_t)(a->block > 0 ? a->block : SL_MAX_BLOCK_THREADS);
    size_t log2s = 0, levels = 1;
    while (((size_t)1 << log2s) < section)
        log2s++;
    for (size_t m = a->n; m > section; m = (m + section - 1) / section)
        levels++;
    return levels * (2 * log2s - 1) + (levels - 1);
}
