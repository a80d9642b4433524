/* Pack (variable-length output, the neighbour-list problem): item i emits
 * c_i records, c_i = f(x_i) in [0, K] (cuda/apps/app_defs.h: the element's
 * bits mod K + 1; K = a->param, default 4), and the records of all items
 * are concatenated in item order. Record j of item i is (i << 8) | j.
 *
 * The allocation-by-scan pattern (Blelloch 1990; Sengupta, Harris, Zhang
 * and Owens 2007, "Scan primitives for GPU computing"), over tiles of one
 * item per thread:
 *   1. count:  per tile, the sum of its items' c_i (a scan's total);
 *   2. scan:   an exclusive scan of the per-tile sums gives each tile its
 *              first record, and at the end the number of records, which
 *              sizes the output buffer;
 *   3. write:  per tile, an exclusive scan of the c_i gives item i its
 *              start; it writes its c_i records contiguously from there.
 * Output: cuda/apps/app_defs.h (the count, then int64_t records).
 *
 * Template: compiled once per (T, TN, OPN) through cuda/inst_all.h. */
#include "cuda/apps/app_scan.cuh"
#include "cuda/apps/app_arena.cuh"

/* c_i of item x. */
SL_DEVICE unsigned SL_KN(pack_count)(T x, unsigned k)
{
    return sl_app_pack_count(SL_KN(app_bits)(x), k);
}

/* Phase 1: counts[tile] = the records the tile's items emit. */
SL_GLOBAL SL_KN(pack_tile_count)(const T *in, uint64_t *counts, size_t n, size_t tiles, unsigned k)
{
    SHARED(uint64_t, s, SL_MAX_BLOCK_THREADS);
    const unsigned t = threadIdx.x, b = blockDim.x;
    uint64_t total = 0;
    for (size_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        const size_t i = tile * b + t;
        SL_KN(app_block_scan)(s, i < n ? SL_KN(pack_count)(LD(in, i), k) : 0, &total);
        if (t == 0)
            ST(counts, tile, total);
    }
}
SL_DEFINE_LAUNCH(SL_KN(pack_tile_count), (const T *, in), (uint64_t *, counts), (size_t, n),
                 (size_t, tiles), (unsigned, k))

/* Phase 3: item i writes records (i, 0) .. (i, c_i - 1) from its start. */
SL_GLOBAL SL_KN(pack_write)(const T *in, int64_t *out, const uint64_t *offsets, size_t n, size_t tiles,
                            unsigned k)
{
    SHARED(uint64_t, s, SL_MAX_BLOCK_THREADS);
    const unsigned t = threadIdx.x, b = blockDim.x;
    uint64_t total = 0;
    for (size_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        const size_t i = tile * b + t;
        const unsigned c = i < n ? SL_KN(pack_count)(LD(in, i), k) : 0;
        const uint64_t before = SL_KN(app_block_scan)(s, c, &total);
        if (c > 0) {
            const uint64_t start = LD(offsets, tile) + before;
            for (unsigned j = 0; j < c; j++)
                ST(out, start + j, sl_app_pack_record(i, j));
        }
    }
}
SL_DEFINE_LAUNCH(SL_KN(pack_write), (const T *, in), (int64_t *, out), (const uint64_t *, offsets),
                 (size_t, n), (size_t, tiles), (unsigned, k))

/* Host driver: a->block threads per block (1..1024, default 256), a->param
 * = K (1..255, default 4). The output buffer holds n * K records. Inside a
 * device arena (app_arena.cuh) it runs on a->in and a->out directly; the
 * host still reads the number of records back between the phases, as the
 * allocation it sizes would. */
SL_HOST sl_status SL_KN(pack_3phase)(const sl_kargs *a)
{
    const unsigned block = SL_KN(app_block)(a->block), k = sl_app_pack_k(a->param);
    const int arena = sl_dev_in_arena();
    T *d_in = NULL;
    int64_t *d_out = NULL;
    uint64_t *d_off = NULL, count = 0;
    sl_status st = SL_OK;
    if (block == 0 || k == 0)
        return SL_ERR_ARG;
    const size_t n = a->n, tiles = (n + block - 1) / block;
    const unsigned grid = SL_KN(app_grid)(tiles);
    if (n > 0) {
        if (arena) {
            d_in = (T *)a->in;
        } else {
            SL_TRY(sl_dev_alloc((void **)&d_in, n * sizeof(T)));
            SL_TRY(sl_dev_copy_to(d_in, a->in, n * sizeof(T)));
        }
        SL_TRY(sl_dev_alloc((void **)&d_off, (tiles + 1) * sizeof *d_off));
        SL_TRY(sl_dev_memset(d_off, 0, (tiles + 1) * sizeof *d_off));
        SL_TRY(SL_LAUNCH(pack_tile_count)(sl_launch_1d(grid, block, 0), d_in, d_off, n, tiles, k));
        SL_TRY(SL_LAUNCH(app_scan_counts)(sl_launch_1d(1, block, 0), d_off, tiles + 1));
        SL_TRY(sl_dev_sync());
        /* the scan's last entry is the number of records: allocate that */
        SL_TRY(sl_dev_copy_from(&count, d_off + tiles, sizeof count));
        if (count > (uint64_t)n * k) {
            st = SL_ERR_CUDA; /* cannot happen unless the device computed garbage */
            goto done;
        }
        if (arena)
            d_out = (int64_t *)SL_KN(app_data)(a->out);
        else
            SL_TRY(sl_dev_alloc((void **)&d_out, count * sizeof *d_out));
        if (count > 0) {
            SL_TRY(SL_LAUNCH(pack_write)(sl_launch_1d(grid, block, 0), d_in, d_out, d_off, n, tiles, k));
            SL_TRY(sl_dev_sync());
            if (!arena)
                SL_TRY(sl_dev_copy_from(SL_KN(app_data)(a->out), d_out, count * sizeof *d_out));
        }
    }
    if (arena)
        SL_TRY(SL_KN(app_arena_count)(a->out, NULL, count));
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
