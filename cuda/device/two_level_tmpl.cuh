/* Two-level scan with a fixed grid (Merry, "A performance comparison of
 * sort and scan libraries for GPUs", 2015; the "reduce-then-scan with
 * persistent blocks" of CUDPP/Thrust): C blocks, block c owning the
 * contiguous range c of the input and walking it tile by tile (register
 * tiles of tile_scan.cuh) with a running prefix, the carry. Three
 * launches:
 *   1. reduce: block c reduces its range to totals[c];
 *   2. one block scans the C totals (the same range kernel, one range);
 *   3. scan: block c scans its range again, starting from totals[c - 1].
 * Extra memory O(C); global traffic 2n reads, n writes, O(C). C = a->param
 * (default: on the GPU as many blocks as it holds at once, from the
 * occupancy query; 8 in the simulator).
 *
 * Template: compiled once per (T, TN, OPN) through cuda/inst_all.h. */
#include "cuda/device/tile_scan.cuh"

/* Phase 1: totals[c] = the reduction of range c (range_tiles tiles) for
 * c = blockIdx.x. */
SL_GLOBAL_BOUNDED(SL_TILE_MAX_THREADS, 1)
SL_KN(tl_reduce)(const T *in, T *totals, size_t n, unsigned items, size_t range_tiles)
{
    SHARED_DYN(T, stage_all);
    SHARED(T, wsum, SL_MAX_BLOCK_THREADS / SL_WARP_SIZE);
    T *stage = stage_all + WARP_ID() * SL_TILE_STAGE_ELEMS(items, sizeof(T));
    const size_t tile_elems = (size_t)blockDim.x * items;
    const size_t lo = (size_t)blockIdx.x * range_tiles * tile_elems;
    const size_t hi = lo + range_tiles * tile_elems < n ? lo + range_tiles * tile_elems : n;
    T acc = IDENTITY();
    for (size_t base = lo; base < hi; base += tile_elems) {
        T x[SL_TILE_MAXI];
        SL_KN(tile_load)(in, base, hi, items, stage, x);
        const T total = SL_KN(tile_block_total)(x, items, wsum);
        acc = base == lo ? total : OP(acc, total);
        SYNCTHREADS();
    }
    if (threadIdx.x == 0)
        ST(totals, blockIdx.x, acc);
}
SL_DEFINE_LAUNCH(SL_KN(tl_reduce), (const T *, in), (T *, totals), (size_t, n), (unsigned, items),
                 (size_t, range_tiles))

/* Phases 2 and 3: block c scans range c tile by tile, carrying the running
 * prefix; range c > 0 starts from the carry totals[c - 1] (the scanned
 * totals). With one range and totals NULL it is a serial tile-loop scan;
 * in may equal out. */
SL_GLOBAL_BOUNDED(SL_TILE_MAX_THREADS, 1)
SL_KN(tl_scan)(const T *in, T *out, const T *totals, size_t n, int exclusive, unsigned items, size_t range_tiles)
{
    SHARED_DYN(T, stage_all);
    SHARED(T, wsum, SL_MAX_BLOCK_THREADS / SL_WARP_SIZE);
    SHARED(T, range_carry, 1);
    T *stage = stage_all + WARP_ID() * SL_TILE_STAGE_ELEMS(items, sizeof(T));
    const size_t tile_elems = (size_t)blockDim.x * items;
    const size_t lo = (size_t)blockIdx.x * range_tiles * tile_elems;
    const size_t hi = lo + range_tiles * tile_elems < n ? lo + range_tiles * tile_elems : n;
    int has_carry = blockIdx.x > 0;
    /* thread 0 fetches the range's carry; the first tile's barrier
     * publishes it */
    if (has_carry && threadIdx.x == 0)
        ST(range_carry, 0, LD(totals, blockIdx.x - 1));
    T carry = IDENTITY();
    for (size_t base = lo; base < hi; base += tile_elems) {
        T x[SL_TILE_MAXI];
        SL_KN(tile_load)(in, base, hi, items, stage, x);
        const SL_FN(sl_tile_pos) pos = SL_KN(tile_block_reduce)(x, items, wsum);
        /* written the way nvcc compiles it: for 8-byte types it loads
         * range_carry on every tile and selects (a value never used where
         * no carry was stored), for 4-byte types it keeps the condition;
         * so the simulator counts the shared loads the GPU issues
         * (docs/model-fidelity.md) */
        const int take = base == lo && has_carry;
        if (sizeof(T) == 8 || take) {
            const T rc = LD(range_carry, 0);
            if (take)
                carry = rc;
        }
        SL_KN(tile_thread_scan)(x, x, items, exclusive, carry, has_carry, pos);
        SL_KN(tile_store)(out, base, hi, items, stage, x);
        carry = has_carry ? OP(carry, pos.total) : pos.total;
        has_carry = 1;
        SYNCTHREADS();
    }
}
SL_DEFINE_LAUNCH(SL_KN(tl_scan), (const T *, in), (T *, out), (const T *, totals), (size_t, n), (int, exclusive),
                 (unsigned, items), (size_t, range_tiles))

/* The three launches on the buffers sl_host_run made; ctx is the
 * sl_tile_geom. */
static sl_status SL_KN(tl_dev)(const void *d_in_, void *d_out_, const sl_kargs *a, const void *ctx)
{
    const sl_tile_geom *g = (const sl_tile_geom *)ctx;
    const T *d_in = (const T *)d_in_;
    T *d_out = (T *)d_out_, *d_totals = NULL;
    const size_t tiles = sl_dev_tiles(a->n, g->tile);
#ifdef __CUDACC__
    const size_t asked = a->param > 0 ? (size_t)a->param : SL_RESIDENT_BLOCKS(SL_KN(tl_scan), g->block, g->shmem);
#else
    /* the simulator's occupancy answer when one is set (a huge run answers
     * a block per tile, so that a few ranges can run alone) */
    const size_t asked = a->param > 0 ? (size_t)model_fixed_grid((unsigned)a->param)
                                      : model_occupancy(SL_TWO_LEVEL_SIM_RANGES);
#endif
    size_t ranges = 0, range_tiles = 0;
    sl_status st = SL_OK;
    sl_two_level_ranges(tiles, asked, &ranges, &range_tiles);
    if (ranges > SL_DEV_MAX_GRID_X)
        return SL_ERR_ARG;
    if (ranges > 1) {
        /* the C totals are one range of their own, scanned in place */
        SL_TRY(sl_dev_alloc((void **)&d_totals, ranges * sizeof(T)));
        SL_TRY(SL_LAUNCH(tl_reduce)(sl_launch_1d((unsigned)ranges, g->block, g->shmem), d_in, d_totals, a->n,
                                    g->items, range_tiles));
        SL_TRY(SL_LAUNCH(tl_scan)(sl_launch_1d(1, g->block, g->shmem), d_totals, d_totals, NULL, ranges, 0,
                                  g->items, sl_dev_tiles(ranges, g->tile)));
    }
    SL_TRY(SL_LAUNCH(tl_scan)(sl_launch_1d((unsigned)ranges, g->block, g->shmem), d_in, d_out, d_totals, a->n,
                              a->exclusive ? 1 : 0, g->items, range_tiles));
    /* d_totals is read by the last launch: wait before freeing it */
    SL_TRY(sl_dev_sync());
done:
    sl_dev_free(d_totals);
    return st;
}

/* Host driver: a->block threads (a multiple of 32, default 128), items per
 * thread the type's default (24 for 4-byte types, 12 for 8-byte types),
 * a->param ranges C. */
SL_HOST sl_status SL_KN(two_level)(const sl_kargs *a)
{
    sl_tile_geom g;
    if (a->param < 0 || sl_tile_geom_of(a->block, 0, sizeof(T), SL_TILE_THREADS, &g) != SL_OK)
        return SL_ERR_ARG;
    if (a->n == 0)
        return SL_OK;
    return sl_host_run(a, sizeof(T), a->n, SL_KN(tl_dev), &g);
}
