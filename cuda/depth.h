/* Addition-tree depths of the kernels (the bound eta <= depth that float
 * results are checked against, DESIGN.md): named in cuda/kernels.def. */
#ifndef SCANLAB_DEPTH_H
#define SCANLAB_DEPTH_H

#include <stddef.h>
#include "verify/harness/algos.h"

/* Brent-Kung, hierarchical: per level of sections at most 2 log2(section) - 1
 * roundings, plus one add-back per level above the first. */
size_t sl_depth_brent_kung(const sl_scan_args *a, size_t i);

/* Device-level scans built on the warp-shuffle block scan
 * (cuda/device/block_scan.cuh; L = log2 of the block): a block scan's
 * outputs have depth <= L + 1 and its total <= L.
 * hierarchical and reduce-then-scan: L + 1 per level of sums. */
size_t sl_depth_device_levels(const sl_scan_args *a, size_t i);
/* chained-static, chained-ticket, lookback: the prefix of tile k has depth
 * <= L + k, so output i (tile i / B) has depth <= L + 2 + i / B. */
size_t sl_depth_device_chained(const sl_scan_args *a, size_t i);
/* two-level with C ranges of R tiles (either default, simulator or GPU):
 * 2 (L + R) + ceil(C / B) + 2. */
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
