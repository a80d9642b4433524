/* The chained scan (single pass, Yan, Long & Zhang, "StreamScan", PPoPP
 * 2013): every tile scans itself, then its thread 0 waits for the
 * inclusive prefix of the tile before it, publishes its own (prefix op
 * total) and hands the prefix to the block. The prefixes form a serial
 * chain: n reads, n writes and one status word per tile; the order of
 * operations is fixed, so float results are deterministic.
 *
 * Which tile a block scans decides whether the chain can deadlock:
 *   chained-static: tile = blockIdx.x. Block b waits for block b - 1, which
 *     CUDA does not promise to have been dispatched: with fewer residency
 *     slots than blocks and an adverse dispatch order every resident block
 *     waits for one that never starts (the simulator's explorer shows it);
 *   chained-ticket: tile = the next value of an atomic counter, so a block
 *     only ever waits for a tile already taken by a block that is running.
 *
 * Included by chained_static_tmpl.cuh and chained_ticket_tmpl.cuh (once per
 * instantiation; T-dependent names). */
#include "cuda/device/device_common.h"
#include "cuda/device/block_scan.cuh"
#include "cuda/device/tile_status.cuh"

/* One tile of the chained scan (ticketed = 1: the tile comes from the
 * ticket counter, else it is blockIdx.x). */
SL_GLOBAL SL_KN(chained_scan)(const T *in, T *out, size_t n, int shift, sl_tile_status ts, int ticketed)
{
    SHARED(T, warp_sums, SL_MAX_BLOCK_THREADS / SL_WARP_SIZE);
    SHARED(T, carry, 1);
    SHARED(uint32_t, tile_id, 1);
    const unsigned t = threadIdx.x;
    /* which tile this block scans */
    if (t == 0)
        ST(tile_id, 0, ticketed ? sl_tile_ticket(ts) : (uint32_t)blockIdx.x);
    SYNCTHREADS();
    const size_t tile = LD(tile_id, 0);
    const size_t i = tile * blockDim.x + t;
    /* the tile's own scan */
    T total;
    T x = SL_KN(block_iscan)(SL_KN(load_shifted)(in, i, n, shift), warp_sums, &total);
    /* the chain: wait for the predecessor's prefix, publish ours */
    if (t == 0) {
        T prefix = IDENTITY();
        if (tile == 0) {
            SL_KN(tile_publish)(ts, tile, SL_TILE_P, total);
        } else {
            (void)SL_KN(tile_wait)(ts, tile - 1, &prefix);
            SL_KN(tile_publish)(ts, tile, SL_TILE_P, OP(prefix, total));
        }
        ST(carry, 0, prefix);
    }
    SYNCTHREADS();
    if (tile > 0)
        x = OP(LD(carry, 0), x);
    if (i < n)
        ST(out, i, x);
}
SL_DEFINE_LAUNCH(SL_KN(chained_scan), (const T *, in), (T *, out), (size_t, n), (int, shift),
                 (sl_tile_status, ts), (int, ticketed))

/* The launch on the buffers sl_host_run made: tile statuses allocated,
 * one block per tile, the error flag of a bounded wait read back. ctx
 * points to { block, ticketed }. */
static sl_status SL_KN(chained_dev)(const void *d_in, void *d_out, const sl_kargs *a, const void *ctx)
{
    const unsigned block = ((const unsigned *)ctx)[0];
    const int ticketed = (int)((const unsigned *)ctx)[1];
    const size_t tiles = sl_dev_tiles(a->n, block);
    sl_tile_status ts;
    sl_status st = SL_OK;
    memset(&ts, 0, sizeof ts);
    SL_TRY(sl_tile_status_alloc(&ts, tiles, sizeof(T)));
    SL_TRY(SL_LAUNCH(chained_scan)(sl_launch_1d((unsigned)tiles, block, 0), (const T *)d_in, (T *)d_out,
                                    a->n, a->exclusive ? 1 : 0, ts, ticketed));
    SL_TRY(sl_dev_sync());
    SL_TRY(sl_tile_status_check(&ts));
done:
    sl_tile_status_free(&ts);
    return st;
}

/* Host side of both chained scans: one launch of one block per tile. */
static sl_status SL_KN(chained_host)(const sl_kargs *a, int ticketed)
{
    const unsigned ctx[2] = {sl_dev_block_of(a->block), (unsigned)ticketed};
    if (ctx[0] == 0)
        return SL_ERR_ARG;
    if (a->n == 0)
        return SL_OK;
    if (sl_dev_tiles(a->n, ctx[0]) > SL_DEV_MAX_GRID_X)
        return SL_ERR_ARG;
    return sl_host_run(a, sizeof(T), a->n, SL_KN(chained_dev), ctx);
}
