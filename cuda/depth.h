/* Addition-tree depths of the kernels (the bound eta <= depth that float
 * results are checked against, DESIGN.md): named in cuda/kernels.def. */
#ifndef SCANLAB_DEPTH_H
#define SCANLAB_DEPTH_H

#include <stddef.h>
#include "verify/harness/algos.h"

/* Brent-Kung, hierarchical: per level of sections at most 2 log2(section) - 1
 * roundings, plus one add-back per level above the first. */
size_t sl_depth_brent_kung(const sl_scan_args *a, size_t i);

/* Device-level scans on register tiles (cuda/device/tile_scan.cuh, items
 * per thread I, W warps): a tile's aggregate has depth <= I + W + 3, an
 * output <= max(prefix, I + W + 5) + 1 + I, where prefix is the depth of
 * the tile's prefix: */
/* chained-static, chained-ticket: aggregate + t - 1 for tile t. */
size_t sl_depth_chained(const sl_scan_args *a, size_t i);
/* lookback: aggregate + 7 t. */
size_t sl_depth_lookback(const sl_scan_args *a, size_t i);
/* lookback-det: aggregate + 5 + t / 32. */
size_t sl_depth_lookback_det(const sl_scan_args *a, size_t i);
/* reduce-then-scan: the same scan of the tile aggregates one level up. */
size_t sl_depth_reduce_then_scan(const sl_scan_args *a, size_t i);
/* hierarchical: the tile alone, then the scanned tile sums in front. */
size_t sl_depth_hierarchical(const sl_scan_args *a, size_t i);
/* two-level with C ranges of R tiles: range totals, their scan and the
 * carry along the range; any C when C is the default. */
size_t sl_depth_two_level(const sl_scan_args *a, size_t i);
/* Tree reductions of cuda/reduce: L per level of partials. */
size_t sl_depth_reduce_tree(const sl_scan_args *a, size_t i);

#endif

/* The block-level scans of cuda/block/ under the hierarchical driver
 * (hier_driver.cuh): a section scan of depth d per level of sections, plus
 * one add-back per level above the first, L d + (L - 1) for L levels.
 * d is bounded by the section scan's steps (a chain of roundings inside one
 * barrier interval stays in one thread). */
/* Kogge-Stone, in place or double-buffered: d = ceil(log2 B). */
size_t sl_depth_kogge_stone(const sl_scan_args *a, size_t i);
/* Blelloch, plain or padded: d = 2 log2(2B). */
size_t sl_depth_blelloch(const sl_scan_args *a, size_t i);
/* Brent-Kung by levels: d = 2 log2(2B) - 1. */
size_t sl_depth_brent_kung_levels(const sl_scan_args *a, size_t i);
/* Radix-k Brent-Kung on sections of k^M: d = (2M - 1)(k - 1). */
size_t sl_depth_brent_kung_radix(const sl_scan_args *a, size_t i);
/* Sengupta-Lefohn-Owens with p passes: d = 2p + log2 B. */
size_t sl_depth_sengupta(const sl_scan_args *a, size_t i);
/* Coarsened by C: d = (C - 1) + ceil(log2 B) + 1. */
size_t sl_depth_coarsened(const sl_scan_args *a, size_t i);
/* Warp shuffles: d = ceil(log2 min(B, 32)) + ceil(log2(warps)) + 1. */
size_t sl_depth_warp_shfl(const sl_scan_args *a, size_t i);
