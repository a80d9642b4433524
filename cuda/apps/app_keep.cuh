/* The predicate pass shared by compact and partition: per tile, the
 * number of elements kept. Included inside compact_3phase_tmpl.cuh and
 * partition_3phase_tmpl.cuh after app_scan.cuh and app_arena.cuh (SL_KN names, no
 * include guard). */

/* The predicate of cuda/apps/app_defs.h on an element of type T. */
SL_DEVICE bool SL_KN(app_keep)(T x)
{
    return sl_app_keep(SL_KN(app_bits)(x), SL_APP_IS_FLOAT, (unsigned)sizeof(T));
}

/* Phase 1: counts[tile] = the kept elements of the tile (tile = one block's
 * worth of elements, one per thread), the total of a flag scan. */
SL_GLOBAL SL_KN(app_keep_count)(const T *in, uint64_t *counts, size_t n, size_t tiles)
{
    SHARED(uint64_t, s, SL_MAX_BLOCK_THREADS);
    const unsigned t = threadIdx.x, b = blockDim.x;
    uint64_t total = 0;
    for (size_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        const size_t i = tile * b + t;
        const uint64_t flag = i < n && SL_KN(app_keep)(LD(in, i));
        SL_KN(app_block_scan)(s, flag, &total);
        if (t == 0)
            ST(counts, tile, total);
    }
}
SL_DEFINE_LAUNCH(SL_KN(app_keep_count), (const T *, in), (uint64_t *, counts), (size_t, n), (size_t, tiles))

/* Phases 1 and 2 of both drivers: offsets[0..tiles] = the exclusive scan
 * of the per-tile kept counts (offsets[tiles] = all kept). */
static sl_status SL_KN(app_keep_offsets)(const T *d_in, uint64_t *d_off, size_t n, size_t tiles,
                                         unsigned block)
{
    sl_status st = SL_OK;
    SL_TRY(sl_dev_memset(d_off, 0, (tiles + 1) * sizeof *d_off));
    SL_TRY(SL_LAUNCH(app_keep_count)(sl_launch_1d(SL_KN(app_grid)(tiles), block, 0), d_in, d_off, n,
                                     tiles));
    SL_TRY(SL_LAUNCH(app_scan_counts)(sl_launch_1d(1, block, 0), d_off, tiles + 1));
done:
    return st;
}

/* The scatter launch of compact or partition (phase 3). */
typedef sl_status (*SL_KN(app_scatter_fn))(sl_launch cfg, const T *in, T *out, const uint64_t *offsets,
                                           size_t n, size_t tiles);

/* The host side of both: copy in, phases 1 and 2, the scatter, then the
 * count and the output's first `count` elements (or all n when copy_all:
 * a partition keeps every element). Inside a device arena (app_arena.cuh)
 * the phases run on a->in and a->out directly. */
static sl_status SL_KN(app_keep_run)(const sl_kargs *a, SL_KN(app_scatter_fn) scatter, int copy_all)
{
    const unsigned block = SL_KN(app_block)(a->block);
    const int arena = sl_dev_in_arena();
    T *d_in = NULL, *d_out = NULL;
    uint64_t *d_off = NULL, count = 0;
    sl_status st = SL_OK;
    if (block == 0)
        return SL_ERR_ARG;
    const size_t n = a->n, tiles = (n + block - 1) / block;
    if (n > 0) {
        if (arena) {
            d_in = (T *)a->in;
            d_out = (T *)SL_KN(app_data)(a->out);
        } else {
            SL_TRY(sl_dev_alloc((void **)&d_in, n * sizeof(T)));
            SL_TRY(sl_dev_alloc((void **)&d_out, n * sizeof(T)));
            SL_TRY(sl_dev_copy_to(d_in, a->in, n * sizeof(T)));
        }
        SL_TRY(sl_dev_alloc((void **)&d_off, (tiles + 1) * sizeof *d_off));
        SL_TRY(SL_KN(app_keep_offsets)(d_in, d_off, n, tiles, block));
        SL_TRY(scatter(sl_launch_1d(SL_KN(app_grid)(tiles), block, 0), d_in, d_out, d_off, n, tiles));
        if (arena) {
            SL_TRY(SL_KN(app_arena_count)(a->out, d_off + tiles, 0));
            goto done;
        }
        SL_TRY(sl_dev_sync());
        SL_TRY(sl_dev_copy_from(&count, d_off + tiles, sizeof count));
        SL_TRY(sl_dev_copy_from(SL_KN(app_data)(a->out), d_out, (copy_all ? n : count) * sizeof(T)));
    }
    if (arena)
        SL_TRY(SL_KN(app_arena_count)(a->out, NULL, 0));
    else
        SL_KN(app_set_count)(a->out, count);
done:
    if (!arena) {
        sl_dev_free(d_in);
        sl_dev_free(d_out);
    }
    sl_dev_free(d_off);
    return st;
}
