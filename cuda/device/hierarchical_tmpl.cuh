/* Hierarchical scan (scan, scan the section sums, add back), on register
 * tiles (tile_scan.cuh: B threads x items elements):
 *
 * The textbook device-level scan (Kirk & Hwu, "Programming Massively
 * Parallel Processors", ch. "Parallel scan", hierarchical scan; Harris,
 * Sengupta & Owens, GPU Gems 3, ch. 39):
 *   1. every tile is scanned alone and its total written to sums[];
 *   2. the sums are scanned by the same procedure, recursively, until
 *      they fit one tile;
 *   3. an add-back kernel combines sums[t - 1] into every element of tile
 *      t (t >= 1).
 * Both kernels are grid-stride loops with as many blocks as the GPU holds
 * at once. Global traffic: n reads + n writes (1), n - tile reads + n -
 * tile writes (3), plus O(n / tile) for the sums: about 4n elements.
 *
 * Template: compiled once per (T, TN, OPN) through cuda/inst_all.h. */
#include "cuda/device/tile_scan.cuh"

/* Phase 1: scans every tile alone into out[]; sums[t] = tile t's total
 * when sums != NULL. in may equal out. */
SL_GLOBAL_BOUNDED(SL_TILE_MAX_THREADS, 1)
SL_KN(hier_scan)(const T *in, T *out, T *sums, size_t n, int exclusive, unsigned items, size_t tiles)
{
    SHARED_DYN(T, stage_all);
    SHARED(T, wsum, SL_MAX_BLOCK_THREADS / SL_WARP_SIZE);
    T *stage = stage_all + WARP_ID() * SL_TILE_STAGE_ELEMS(items, sizeof(T));
    const size_t tile_elems = (size_t)blockDim.x * items;
    for (size_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        T x[SL_TILE_MAXI];
        SL_KN(tile_load)(in, tile * tile_elems, n, items, stage, x);
        const SL_FN(sl_tile_pos) pos = SL_KN(tile_block_reduce)(x, items, wsum);
        SL_KN(tile_thread_scan)(x, x, items, exclusive, pos.total, 0, pos);
        SL_KN(tile_store)(out, tile * tile_elems, n, items, stage, x);
        if (sums != NULL && threadIdx.x == 0)
            ST(sums, tile, pos.total);
        SYNCTHREADS();
    }
}
SL_DEFINE_LAUNCH(SL_KN(hier_scan), (const T *, in), (T *, out), (T *, sums), (size_t, n), (int, exclusive),
                 (unsigned, items), (size_t, tiles))

/* Phase 3: combines the scanned total of the tiles before tile t into
 * every element of tile t >= 1: each thread loads its items (block-strided,
 * all in flight), then combines and stores them. Thread 0 reads the carry
 * once and shares it. */
SL_GLOBAL_BOUNDED(SL_TILE_MAX_THREADS, 1)
SL_KN(hier_add)(T *out, const T *sums, size_t n, unsigned items, size_t tiles)
{
    SHARED(T, carry, 1);
    const size_t tile_elems = (size_t)blockDim.x * items;
    for (size_t tile = 1 + blockIdx.x; tile < tiles; tile += gridDim.x) {
        const size_t base = tile * tile_elems + threadIdx.x;
        T x[SL_TILE_MAXI];
        if (threadIdx.x == 0)
            ST(carry, 0, LD(sums, tile - 1));
        SL_UNROLL
        for (unsigned k = 0; k < SL_TILE_MAXI; k++)
            if (k < items && base + (size_t)k * blockDim.x < n)
                x[k] = LD(out, base + (size_t)k * blockDim.x);
        SYNCTHREADS();
        const T c = LD(carry, 0);
        SL_UNROLL
        for (unsigned k = 0; k < SL_TILE_MAXI; k++)
            if (k < items && base + (size_t)k * blockDim.x < n)
                ST(out, base + (size_t)k * blockDim.x, OP(c, x[k]));
        SYNCTHREADS();
    }
}
SL_DEFINE_LAUNCH(SL_KN(hier_add), (T *, out), (const T *, sums), (size_t, n), (unsigned, items), (size_t, tiles))

/* The device-level scan of d_in[0..n) into d_out (d_in may equal d_out):
 * recursion on the tile sums for any depth. */
static sl_status SL_KN(hier_device)(const T *d_in, T *d_out, size_t n, int exclusive, const sl_tile_geom *g)
{
    const size_t tiles = sl_dev_tiles(n, g->tile);
    const unsigned scan_grid = sl_dev_grid(tiles, SL_RESIDENT_BLOCKS(SL_KN(hier_scan), g->block, g->shmem));
    const unsigned add_grid = sl_dev_grid(tiles, SL_RESIDENT_BLOCKS(SL_KN(hier_add), g->block, 0));
    T *d_sums = NULL;
    sl_status st = SL_OK;
    /* inside the recursion, the tiles are the totals of the level below */
    const char *role0 = sl_launch_role(NULL);
    sl_launch_role(role0 ? "totals scan" : "tile scan");
    if (tiles > 1)
        SL_TRY(sl_dev_alloc((void **)&d_sums, tiles * sizeof(T)));
    SL_TRY(SL_LAUNCH(hier_scan)(sl_launch_1d(scan_grid, g->block, g->shmem), d_in, d_out, d_sums, n, exclusive,
                                g->items, tiles));
    if (d_sums != NULL) {
        SL_TRY(SL_KN(hier_device)(d_sums, d_sums, tiles, 0, g));
        sl_launch_role("add-back");
        SL_TRY(SL_LAUNCH(hier_add)(sl_launch_1d(add_grid, g->block, 0), d_out, d_sums, n, g->items, tiles));
        SL_TRY(sl_dev_sync());
    }
done:
    sl_launch_role(role0);
    sl_dev_free(d_sums);
    return st;
}

/* hier_device on the buffers sl_host_run made; ctx is the sl_tile_geom. */
static sl_status SL_KN(hier_dev)(const void *d_in, void *d_out, const sl_kargs *a, const void *ctx)
{
    return SL_KN(hier_device)((const T *)d_in, (T *)d_out, a->n, a->exclusive ? 1 : 0, (const sl_tile_geom *)ctx);
}

/* Host driver: a->block threads (a multiple of 32, default 128), a->param
 * items per thread (default 24 for 4-byte types, 12 for 8-byte types). */
SL_HOST sl_status SL_KN(hierarchical)(const sl_kargs *a)
{
    sl_tile_geom g;
    if (sl_tile_geom_of(a->block, a->param, sizeof(T), SL_TILE_THREADS, &g) != SL_OK)
        return SL_ERR_ARG;
    if (a->n == 0)
        return SL_OK;
    return sl_host_run(a, sizeof(T), a->n, SL_KN(hier_dev), &g);
}
