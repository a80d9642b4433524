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

#include "cuda/device/tile_geom.h"

/* The block size the reductions use for a->block. */
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

static size_t max2(size_t a, size_t b) { return a > b ? a : b; }

/* A register tile (cuda/device/tile_scan.cuh) as its driver resolves it. */
typedef struct {
    size_t items, warps, tile;
} tile_shape;

static tile_shape tile_shape_of(const sl_scan_args *a, size_t default_block, int items_from_param)
{
    const size_t size = SL_TYPE_SIZE(a->type);
    const size_t block = a->block > 0 ? (size_t)a->block : default_block;
    const size_t items = items_from_param && a->param > 0 ? (size_t)a->param : SL_TILE_ITEMS_FOR(size);
    tile_shape s = {items, max2(block / SL_WARP_SIZE, 1), 0};
    s.tile = max2(block * items, 1);
    return s;
}

/* Roundings inside a tile: a thread folds its items (items - 1), the warp
 * scan adds at most 5, the fold of the warp totals warps - 1: the tile's
 * aggregate has depth <= agg; a thread's exclusive prefix within the tile
 * one more than a warp's partial fold, <= pos. */
static size_t tile_agg(tile_shape s) { return s.items + 4 + s.warps - 1; }
static size_t tile_pos(tile_shape s) { return s.items + 5 + s.warps; }
/* An output of the tile: prefix op position, then up to items serial steps. */
static size_t tile_out(tile_shape s, size_t prefix) { return max2(prefix, tile_pos(s)) + 1 + s.items; }

/* chained: P(t) = P(t - 1) op A_t, so tile t's prefix has depth agg + t - 1. */
size_t sl_depth_chained(const sl_scan_args *a, size_t i)
{
    const tile_shape s = tile_shape_of(a, SL_CHAINED_THREADS, 1);
    const size_t t = i / s.tile;
    return tile_out(s, t > 0 ? tile_agg(s) + t - 1 : 0);
}

/* lookback: a window's values meet in a tree of depth 5, each further
 * window adds one, and the inclusive prefix found (at tile t' < t) had
 * depth <= agg + 7 t' + 1; by induction tile t's prefix <= agg + 7 t. */
size_t sl_depth_lookback(const sl_scan_args *a, size_t i)
{
    const tile_shape s = tile_shape_of(a, sl_lookback_threads(a->n, SL_TYPE_SIZE(a->type)), 1);
    const size_t t = i / s.tile;
    return tile_out(s, t > 0 ? tile_agg(s) + 7 * t : 0);
}

/* lookback-det: the in-window scan adds 5, the left fold of j windows
 * j - 1, the combination 1: agg + 5 + j for a tile of window j. */
size_t sl_depth_lookback_det(const sl_scan_args *a, size_t i)
{
    const tile_shape s = tile_shape_of(a, sl_lookback_threads(a->n, SL_TYPE_SIZE(a->type)), 1);
    const size_t t = i / s.tile;
    return tile_out(s, t > 0 ? tile_agg(s) + 5 + t / 32 : 0);
}

/* reduce-then-scan: tile t's prefix is output t - 1 of the same scan of
 * the tile aggregates (depth agg each), one level up. */
static size_t rts_depth(tile_shape s, size_t n, size_t i)
{
    const size_t tiles = (n + s.tile - 1) / s.tile, t = i / s.tile;
    return tile_out(s, tiles > 1 && t > 0 ? tile_agg(s) + rts_depth(s, tiles, t - 1) : 0);
}

size_t sl_depth_reduce_then_scan(const sl_scan_args *a, size_t i)
{
    const tile_shape s = tile_shape_of(a, SL_TILE_THREADS, 1);
    return rts_depth(s, a->n, i < a->n ? i : a->n - 1);
}

/* hierarchical: tile t alone, then sums[t - 1] (output t - 1 of the scan
 * of the tile totals) in front. */
static size_t hier_depth_of(tile_shape s, size_t n, size_t i)
{
    const size_t tiles = (n + s.tile - 1) / s.tile, t = i / s.tile;
    const size_t own = tile_out(s, 0);
    if (tiles <= 1 || t == 0)
        return own;
    return max2(tile_agg(s) + hier_depth_of(s, tiles, t - 1), own) + 1;
}

size_t sl_depth_hierarchical(const sl_scan_args *a, size_t i)
{
    const tile_shape s = tile_shape_of(a, SL_TILE_THREADS, 1);
    return hier_depth_of(s, a->n, i < a->n ? i : a->n - 1);
}

/* two-level with C ranges of R tiles: a range total folds R aggregates,
 * the scan of the C totals (one range of ceil(C / tile) tiles) adds that
 * many carries, and the carry along the range R more. C = a->param, or any
 * C when it is the default (the GPU's comes from an occupancy query):
 * then R and C are bounded by the tiles. */
size_t sl_depth_two_level(const sl_scan_args *a, size_t i)
{
    (void)i;
    tile_shape s = tile_shape_of(a, SL_TILE_THREADS, 0);
    const size_t tiles = (a->n + s.tile - 1) / s.tile;
    size_t c = tiles, r = tiles;
    if (a->n == 0)
        return 0;
    if (a->param > 0)
        sl_two_level_ranges(tiles, (size_t)a->param, &c, &r);
    const size_t totals = tile_out(s, 0) + (c + s.tile - 1) / s.tile;
    return tile_out(s, tile_agg(s) + r + totals + r);
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
