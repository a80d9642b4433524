/* Stable partition (split): the elements that satisfy the predicate
 * (cuda/apps/app_defs.h), then the others, each group in input order.
 *
 * The split of Blelloch's radix sort ("Prefix sums and their
 * applications", 1990) over tiles of one element per thread:
 *   1. count:   per tile, the number of kept elements;
 *   2. scan:    an exclusive scan of the per-tile counts: offset[tile] kept
 *               elements come before the tile, offset[tiles] in all;
 *   3. scatter: per tile, an exclusive flag scan gives a kept element's
 *               rank r; element i goes to offset[tile] + r when kept, else
 *               to offset[tiles] + (i - offset[tile] - r), since
 *               i - offset[tile] - r elements before it were not kept.
 * Output: cuda/apps/app_defs.h (the number kept, then all n elements).
 *
 * Template: compiled once per (T, TN, OPN) through cuda/inst_all.h. */
#include "cuda/apps/app_scan.cuh"
#include "cuda/apps/app_arena.cuh"
#include "cuda/apps/app_keep.cuh"

/* Phase 3: every element to its place. */
SL_GLOBAL SL_KN(partition_scatter)(const T *in, T *out, const uint64_t *offsets, size_t n, size_t tiles)
{
    SHARED(uint64_t, s, SL_MAX_BLOCK_THREADS);
    const unsigned t = threadIdx.x, b = blockDim.x;
    const uint64_t kept_all = LD(offsets, tiles);
    uint64_t total = 0;
    for (size_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        const size_t i = tile * b + t;
        const T x = i < n ? LD(in, i) : IDENTITY();
        const bool keep = i < n && SL_KN(app_keep)(x);
        const uint64_t rank = SL_KN(app_block_scan)(s, keep, &total);
        if (i < n) {
            const uint64_t kept_before = LD(offsets, tile) + rank;
            ST(out, keep ? kept_before : kept_all + (i - kept_before), x);
        }
    }
}
SL_DEFINE_LAUNCH(SL_KN(partition_scatter), (const T *, in), (T *, out), (const uint64_t *, offsets),
                 (size_t, n), (size_t, tiles))

/* Host driver: a->block threads per block (1..1024, default 256). */
SL_HOST sl_status SL_KN(partition_3phase)(const sl_kargs *a)
{
    return SL_KN(app_keep_run)(a, SL_LAUNCH(partition_scatter), 1);
}
