/* Decoupled look-back (Merrill & Garland, "Single-pass parallel prefix
 * scan with decoupled look-back", NVIDIA TR 2016; CUB's DeviceScan).
 *
 * Tiles are ticketed (atomic counter). Every tile scans itself, publishes
 * its aggregate (status A) at once, then looks back over its predecessors,
 * nearest first, combining their values until it meets an inclusive
 * prefix (status P); it publishes its own inclusive prefix (P) and hands
 * the exclusive one to the block. A tile never waits for a whole chain,
 * only for predecessors to publish their aggregates: n reads, n writes and
 * O(n / B) status traffic.
 *
 * Not deterministic: which predecessors show A or P depends on timing, so
 * the tree of float additions (not the exact result of integer operators)
 * may differ from run to run. The protocol lives in tile_status.cuh.
 *
 * Template: compiled once per (T, TN, OPN) through cuda/inst_all.h. */
#include "cuda/device/device_common.h"
#include "cuda/device/block_scan.cuh"
#include "cuda/device/tile_status.cuh"

/* Thread 0's look-back: the combined value of tiles 0 .. tile - 1, read
 * from the nearest predecessors' aggregates and the first inclusive
 * prefix met. Tile 0 always publishes P, so the walk ends. */
SL_DEVICE T SL_KN(look_back)(sl_tile_status ts, size_t tile)
{
    T exclusive = IDENTITY();
    size_t j = tile;
    for (int first = 1; j > 0; first = 0) {
        T v;
        j--;
        uint32_t s = SL_KN(tile_wait)(ts, j, &v);
        /* tile j precedes everything combined so far: the earlier operand */
        exclusive = first ? v : OP(v, exclusive);
        if (s == SL_TILE_P)
            break;
    }
    return exclusive;
}

/* One ticketed tile of the single-pass scan. */
SL_GLOBAL SL_KN(lookback_scan)(const T *in, T *out, size_t n, int shift, sl_tile_status ts)
{
    SHARED(T, warp_sums, SL_MAX_BLOCK_THREADS / SL_WARP_SIZE);
    SHARED(T, carry, 1);
    SHARED(uint32_t, tile_id, 1);
    const unsigned t = threadIdx.x;
    /* which tile: the order in which blocks arrive */
    if (t == 0)
        ST(tile_id, 0, sl_tile_ticket(ts));
    SYNCTHREADS();
    const size_t tile = LD(tile_id, 0);
    const size_t i = tile * blockDim.x + t;
    /* the tile's own scan */
    T total;
    T x = SL_KN(block_iscan)(SL_KN(load_shifted)(in, i, n, shift), warp_sums, &total);
    /* publish the aggregate, look back, publish the inclusive prefix */
    if (t == 0) {
        T exclusive = IDENTITY();
        if (tile == 0) {
            SL_KN(tile_publish)(ts, tile, SL_TILE_P, total);
        } else {
            SL_KN(tile_publish)(ts, tile, SL_TILE_A, total);
            exclusive = SL_KN(look_back)(ts, tile);
            SL_KN(tile_publish)(ts, tile, SL_TILE_P, OP(exclusive, total));
        }
        ST(carry, 0, exclusive);
    }
    SYNCTHREADS();
    if (tile > 0)
        x = OP(LD(carry, 0), x);
    if (i < n)
        ST(out, i, x);
}
SL_DEFINE_LAUNCH(SL_KN(lookback_scan), (const T *, in), (T *, out), (size_t, n), (int, shift),
                 (sl_tile_status, ts))

/* The launch on the buffers sl_host_run made: tile statuses allocated,
 * one block per tile, the error flag of a bounded wait read back. ctx is
 * the block size. */
static sl_status SL_KN(lookback_dev)(const void *d_in, void *d_out, const sl_kargs *a, const void *ctx)
{
    const unsigned block = *(const unsigned *)ctx;
    const size_t tiles = sl_dev_tiles(a->n, block);
    sl_tile_status ts;
    sl_status st = SL_OK;
    memset(&ts, 0, sizeof ts);
    SL_TRY(sl_tile_status_alloc(&ts, tiles, sizeof(T)));
    SL_TRY(SL_LAUNCH(lookback_scan)(sl_launch_1d((unsigned)tiles, block, 0), (const T *)d_in, (T *)d_out,
                                     a->n, a->exclusive ? 1 : 0, ts));
    SL_TRY(sl_dev_sync());
    SL_TRY(sl_tile_status_check(&ts));
done:
    sl_tile_status_free(&ts);
    return st;
}

/* Host driver: a->block threads per block (power of two, 32..1024,
 * default 256), one tile of a->block elements per block. */
SL_HOST sl_status SL_KN(lookback)(const sl_kargs *a)
{
    const unsigned block = sl_dev_block_of(a->block);
    if (block == 0)
        return SL_ERR_ARG;
    if (a->n == 0)
        return SL_OK;
    if (sl_dev_tiles(a->n, block) > SL_DEV_MAX_GRID_X)
        return SL_ERR_ARG;
    return sl_host_run(a, sizeof(T), a->n, SL_KN(lookback_dev), &block);
}
