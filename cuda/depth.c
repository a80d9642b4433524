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

#include "cuda/device/device_common.h"

/* The block size the device-level kernels use for a->block. */
static size_t device_block(const sl_scan_args *a)
{
    return a->block > 0 ? (size_t)a->block : SL_DEV_DEFAULT_BLOCK;
}

static size_t log2_of(size_t b)
{
    size_t l = 0;
    while (((size_t)1 << l) < b)
        l++;
    return l;
}

/* Launch levels of a recursion on per-block totals: 1 for n <= block. */
static size_t levels_of(size_t n, size_t block)
{
    size_t levels = 1;
    for (size_t m = n; m > block; m = (m + block - 1) / block)
        levels++;
    return levels;
}

size_t sl_depth_device_levels(const sl_scan_args *a, size_t i)
{
    (void)i;
    const size_t b = device_block(a);
    return levels_of(a->n, b) * (log2_of(b) + 1);
}

size_t sl_depth_device_chained(const sl_scan_args *a, size_t i)
{
    const size_t b = device_block(a);
    return log2_of(b) + 2 + i / b;
}

size_t sl_depth_two_level(const sl_scan_args *a, size_t i)
{
    (void)i;
    const size_t b = device_block(a), l = log2_of(b);
    size_t worst = 0;
    if (a->n == 0 || !sl_dev_block_ok((unsigned)b))
        return 0;
    for (int gpu = 0; gpu <= 1; gpu++) {
        size_t c, r;
        sl_two_level_ranges(a->n, (unsigned)b, a->param, gpu, &c, &r);
        size_t d = 2 * (l + r) + (c + b - 1) / b + 2;
        if (d > worst)
            worst = d;
    }
    return worst;
}

size_t sl_depth_reduce_tree(const sl_scan_args *a, size_t i)
{
    (void)i;
    const size_t b = device_block(a);
    return levels_of(a->n, b) * log2_of(b);
}

/* Defaults of the block-level host drivers (cuda/block/). */
enum { BLOCK_SMALL_DEFAULT = 256, RADIX_DEFAULT = 4, PASSES_DEFAULT = 2, COARSE_DEFAULT = 8 };

static size_t ceil_log2(size_t x)
{
    size_t l = 0;
    while (((size_t)1 << l) < x)
        l++;
    return l;
}

static size_t block_or(const sl_scan_args *a, size_t dflt)
{
    return a->block > 0 ? (size_t)a->block : dflt;
}

static size_t param_or(const sl_scan_args *a, size_t dflt)
{
    return a->param > 0 ? (size_t)a->param : dflt;
}

/* L d + (L - 1) for the levels of sections that n elements need. */
static size_t hier_depth(size_t n, size_t section, size_t d)
{
    size_t levels = 1;
    if (section < 2)
        return n;
    for (size_t m = n; m > section; m = (m + section - 1) / section)
        levels++;
    return levels * d + (levels - 1);
}

size_t sl_depth_kogge_stone(const sl_scan_args *a, size_t i)
{
    (void)i;
    const size_t b = block_or(a, SL_MAX_BLOCK_THREADS);
    return hier_depth(a->n, b, ceil_log2(b));
}

size_t sl_depth_blelloch(const sl_scan_args *a, size_t i)
{
    (void)i;
    const size_t m = 2 * block_or(a, SL_MAX_BLOCK_THREADS);
    return hier_depth(a->n, m, 2 * ceil_log2(m));
}

size_t sl_depth_brent_kung_levels(const sl_scan_args *a, size_t i)
{
    (void)i;
    const size_t m = 2 * block_or(a, SL_MAX_BLOCK_THREADS);
    return hier_depth(a->n, m, 2 * ceil_log2(m) - 1);
}

size_t sl_depth_brent_kung_radix(const sl_scan_args *a, size_t i)
{
    (void)i;
    const size_t b = block_or(a, BLOCK_SMALL_DEFAULT), k = param_or(a, RADIX_DEFAULT);
    size_t s = 1, levels = 0;
    if (k < 2)
        return a->n;
    while (s * k <= k * b) {
        s *= k;
        levels++;
    }
    return hier_depth(a->n, s, (2 * levels - 1) * (k - 1));
}

size_t sl_depth_sengupta(const sl_scan_args *a, size_t i)
{
    (void)i;
    const size_t b = block_or(a, BLOCK_SMALL_DEFAULT), p = param_or(a, PASSES_DEFAULT);
    return hier_depth(a->n, b << p, 2 * p + ceil_log2(b));
}

size_t sl_depth_coarsened(const sl_scan_args *a, size_t i)
{
    (void)i;
    const size_t b = block_or(a, BLOCK_SMALL_DEFAULT), c = param_or(a, COARSE_DEFAULT);
    return hier_depth(a->n, b * c, (c - 1) + ceil_log2(b) + 1);
}

size_t sl_depth_warp_shfl(const sl_scan_args *a, size_t i)
{
    (void)i;
    const size_t b = block_or(a, SL_MAX_BLOCK_THREADS);
    const size_t warps = (b + SL_WARP_SIZE - 1) / SL_WARP_SIZE;
    return hier_depth(a->n, b, ceil_log2(b < SL_WARP_SIZE ? b : SL_WARP_SIZE) + ceil_log2(warps) + 1);
}
