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
SL_HOST sl_status SL_KN(partition)(const sl_kargs *a)
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
        SL_TRY(SL_LAUNCH(partition_scatter)(sl_launch_1d(SL_KN(app_grid)(tiles), block, 0), d_in, d_out,
                                            d_off, n, tiles));
        SL_TRY(sl_dev_sync());
        SL_TRY(sl_dev_copy_from(&count, d_off + tiles, sizeof count));
        SL_TRY(sl_dev_copy_from(SL_KN(app_data)(a->out), d_out, n * sizeof(T)));
    }
    SL_KN(app_set_count)(a->out, count);
done:
    sl_dev_free(d_in);
    sl_dev_free(d_out);
    sl_dev_free(d_off);
    return st;
}
