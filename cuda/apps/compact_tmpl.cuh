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
SL_HOST sl_status SL_KN(compact)(const sl_kargs *a)
{
    const unsigned block = SL_KN(app_block)(a->block);
    T *d_in = NULL, *d_out = NULL;
    uint64_t *d_off = NULL, count = 0;
    sl_status st = SL_OK;
    if (block == 0)
        return SL_ERR_ARG;
    const size_t n = a->n, tiles = (n + block - 1) / block;
    if (n > 0) {
        SL_TRY(sl_dev_alloc((void **)&d_in, n * sizeof(T)));
        SL_TRY(sl_dev_alloc((void **)&d_out, n * sizeof(T)));
        SL_TRY(sl_dev_alloc((void **)&d_off, (tiles + 1) * sizeof *d_off));
        SL_TRY(sl_dev_copy_to(d_in, a->in, n * sizeof(T)));
        SL_TRY(SL_KN(app_keep_offsets)(d_in, d_off, n, tiles, block));
        SL_TRY(SL_LAUNCH(compact_scatter)(sl_launch_1d(SL_KN(app_grid)(tiles), block, 0), d_in, d_out,
                                          d_off, n, tiles));
        SL_TRY(sl_dev_sync());
        SL_TRY(sl_dev_copy_from(&count, d_off + tiles, sizeof count));
        SL_TRY(sl_dev_copy_from(SL_KN(app_data)(a->out), d_out, count * sizeof(T)));
    }
    SL_KN(app_set_count)(a->out, count);
done:
    sl_dev_free(d_in);
    sl_dev_free(d_out);
    sl_dev_free(d_off);
    return st;
}
