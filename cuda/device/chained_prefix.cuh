/* The chained scan's prefix (single pass, Yan, Long & Zhang, "StreamScan",
 * PPoPP 2013): thread 0 waits for the inclusive prefix of the tile before
 * it, publishes its own (prefix op total, status P) and hands the prefix
 * to the block. The prefixes form a serial chain across the tiles: the
 * scan takes about (tiles) x (one hand-off: a publish seen by the next
 * tile's poll), whatever the bandwidth, so its tiles are large. The order
 * of operations is fixed: float results are deterministic.
 *
 * Included by chained_static_tmpl.cuh and chained_ticket_tmpl.cuh (once
 * per instantiation), which differ in how a block gets its tile
 * (single_pass.cuh). */
#include "cuda/device/tile_scan.cuh"
#include "cuda/device/tile_status.cuh"

SL_DEVICE T SL_KN(tile_prefix)(sl_tile_status ts, size_t tile, T total, T *sh, int *have)
{
    *have = tile > 0;
    if (threadIdx.x == 0) {
        if (tile == 0) {
            SL_KN(tile_publish)(ts, ts.word, 0, SL_TILE_P, total);
        } else {
            const T prefix = SL_KN(tile_wait_prefix)(ts, ts.word, tile - 1);
            SL_KN(tile_publish)(ts, ts.word, tile, SL_TILE_P, OP(prefix, total));
            ST(sh, 0, prefix);
        }
    }
    SYNCTHREADS();
    return SL_KN(tile_take_prefix)(sh, *have, total);
}

#include "cuda/device/single_pass.cuh"
