/* Stream compaction: keep the elements that satisfy the predicate
 * (cuda/apps/app_defs.h: odd integers, positive floats), in input order.
 *
 * The textbook scheme on scan (Blelloch 1990, "Prefix sums and their
 * applications"; Harris, Sengupta and Owens, GPU Gems 3 ch. 39), over tiles
 * of one element per thread:
 *   1. count:   per tile, the number of kept elements (a flag scan's total);
 *   2. scan:    an exclusive scan of the per-tile counts gives each tile
 *               its first output position (and, at the end, the count);
 *   3. scatter: per tile, an exclusive flag scan gives each kept element
 *               its rank in the tile: out[offset[tile] + rank] = x.
 * Output: cuda/apps/app_defs.h (a count, then the kept elements).
 *
 * Template: compiled once per (T, TN, OPN) through cuda/inst_all.h. */
#include "cuda/apps/app_scan.cuh"
#include "cuda/apps/app_arena.cuh"
#include "cuda/apps/app_keep.cuh"

/* Phase 3: each kept element to its place. */
SL_GLOBAL SL_KN(compact_scatter)(const T *in, T *out, const uint64_t *offsets, size_t n, size_t tiles)
{
    SHARED(uint64_t, s, SL_MAX_BLOCK_THREADS);
    const unsigned t = threadIdx.x, b = blockDim.x;
    uint64_t total = 0;
    for (size_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        const size_t i = tile * b + t;
        const T x = i < n ? LD(in, i) : IDENTITY();
        const bool keep = i < n && SL_KN(app_keep)(x);
        const uint64_t rank = SL_KN(app_block_scan)(s, keep, &total);
        if (keep)
            ST(out, LD(offsets, tile) + rank, x);
    }
}
SL_DEFINE_LAUNCH(SL_KN(compact_scatter), (const T *, in), (T *, out), (const uint64_t *, offsets),
                 (size_t, n), (size_t, tiles))

/* Host driver: a->block threads per block (1..1024, default 256). */
SL_HOST sl_status SL_KN(compact_3phase)(const sl_kargs *a)
{
    return SL_KN(app_keep_run)(a, SL_LAUNCH(compact_scatter), 0);
}
