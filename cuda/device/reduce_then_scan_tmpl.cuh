/* Reduce-then-scan (Merrill & Grimshaw, "Parallel scan for stream
 * architectures", 2009; Blelloch's three-phase scan), on register tiles
 * (tile_scan.cuh: B threads x items elements):
 *   1. reduce: sums[t] = the aggregate of tile t;
 *   2. the tile sums are scanned by this same procedure, recursively,
 *      until they fit one tile;
 *   3. scan: every tile is scanned again from the carry sums[t - 1].
 * Both passes are grid-stride loops over the tiles with as many blocks as
 * the GPU holds at once (the occupancy query); every load of a tile is in
 * flight before its first barrier. Global traffic: 2n reads and n writes,
 * plus O(n / tile) for the sums (the scan of phase 1 never leaves the
 * chip): the 3n bound.
 *
 * Template: compiled once per (T, TN, OPN) through cuda/inst_all.h. */
#include "cuda/device/tile_scan.cuh"

/* Phase 1: sums[t] = the reduction of tile t, for every tile. */
SL_GLOBAL_BOUNDED(SL_TILE_MAX_THREADS, 1)
SL_KN(rts_reduce)(const T *in, T *sums, size_t n, unsigned items, size_t tiles)
{
    SHARED_DYN(T, stage_all);
    SHARED(T, wsum, SL_MAX_BLOCK_THREADS / SL_WARP_SIZE);
    T *stage = stage_all + WARP_ID() * SL_TILE_STAGE_ELEMS(items, sizeof(T));
    const size_t tile_elems = (size_t)blockDim.x * items;
    for (size_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        T x[SL_TILE_MAXI];
        SL_KN(tile_load)(in, tile * tile_elems, n, items, stage, x);
        const T total = SL_KN(tile_block_total)(x, items, wsum);
        if (threadIdx.x == 0)
            ST(sums, tile, total);
        SYNCTHREADS();
    }
}
SL_DEFINE_LAUNCH(SL_KN(rts_reduce), (const T *, in), (T *, sums), (size_t, n), (unsigned, items),
                 (size_t, tiles))

/* Phase 3: scans every tile, the scanned sums[t - 1] in front (sums NULL
 * when there is one tile). in may equal out. */
SL_GLOBAL_BOUNDED(SL_TILE_MAX_THREADS, 1)
SL_KN(rts_scan)(const T *in, T *out, const T *sums, size_t n, int exclusive, unsigned items, size_t tiles)
{
    SHARED_DYN(T, stage_all);
    SHARED(T, wsum, SL_MAX_BLOCK_THREADS / SL_WARP_SIZE);
    SHARED(T, carry, 1);
    T *stage = stage_all + WARP_ID() * SL_TILE_STAGE_ELEMS(items, sizeof(T));
    const size_t tile_elems = (size_t)blockDim.x * items;
    for (size_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        T x[SL_TILE_MAXI];
        /* the carry's load is in flight with the tile's; the block
         * reduction's barrier publishes it */
        if (tile > 0 && threadIdx.x == 0)
            ST(carry, 0, LD(sums, tile - 1));
        SL_KN(tile_load)(in, tile * tile_elems, n, items, stage, x);
        const SL_FN(sl_tile_pos) pos = SL_KN(tile_block_reduce)(x, items, wsum);
        const T prefix = SL_KN(tile_take_prefix)(carry, tile > 0, pos.total);
        SL_KN(tile_thread_scan)(x, x, items, exclusive, prefix, tile > 0, pos);
        SL_KN(tile_store)(out, tile * tile_elems, n, items, stage, x);
        SYNCTHREADS();
    }
}
SL_DEFINE_LAUNCH(SL_KN(rts_scan), (const T *, in), (T *, out), (const T *, sums), (size_t, n), (int, exclusive),
                 (unsigned, items), (size_t, tiles))

/* The device-level scan of d_in[0..n) into d_out (d_in may equal d_out),
 * recursing on the tile sums. */
static sl_status SL_KN(rts_device)(const T *d_in, T *d_out, size_t n, int exclusive, const sl_tile_geom *g)
{
    const size_t tiles = sl_dev_tiles(n, g->tile);
    const unsigned reduce_grid = sl_dev_grid(tiles, SL_RESIDENT_BLOCKS(SL_KN(rts_reduce), g->block, g->shmem));
    const unsigned scan_grid = sl_dev_grid(tiles, SL_RESIDENT_BLOCKS(SL_KN(rts_scan), g->block, g->shmem));
    T *d_sums = NULL;
    sl_status st = SL_OK;
    if (tiles > 1) {
        SL_TRY(sl_dev_alloc((void **)&d_sums, tiles * sizeof(T)));
        SL_TRY(SL_LAUNCH(rts_reduce)(sl_launch_1d(reduce_grid, g->block, g->shmem), d_in, d_sums, n, g->items,
                                     tiles));
        SL_TRY(SL_KN(rts_device)(d_sums, d_sums, tiles, 0, g));
    }
    SL_TRY(SL_LAUNCH(rts_scan)(sl_launch_1d(scan_grid, g->block, g->shmem), d_in, d_out, d_sums, n, exclusive,
                               g->items, tiles));
    SL_TRY(sl_dev_sync());
done:
    sl_dev_free(d_sums);
    return st;
}

/* rts_device on the buffers sl_host_run made; ctx is the sl_tile_geom. */
static sl_status SL_KN(rts_dev)(const void *d_in, void *d_out, const sl_kargs *a, const void *ctx)
{
    return SL_KN(rts_device)((const T *)d_in, (T *)d_out, a->n, a->exclusive ? 1 : 0, (const sl_tile_geom *)ctx);
}

/* Host driver: a->block threads (a multiple of 32, default 128), a->param
 * items per thread (default 24 for 4-byte types, 12 for 8-byte types). */
SL_HOST sl_status SL_KN(reduce_then_scan)(const sl_kargs *a)
{
    sl_tile_geom g;
    if (sl_tile_geom_of(a->block, a->param, sizeof(T), SL_TILE_THREADS, &g) != SL_OK)
        return SL_ERR_ARG;
    if (a->n == 0)
        return SL_OK;
    return sl_host_run(a, sizeof(T), a->n, SL_KN(rts_dev), &g);
}
