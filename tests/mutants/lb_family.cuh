/* A copy of cuda/device/lookback_tmpl.cuh over the copies of the tile
 * (tile_scan_copy.cuh), the protocol (sp_status.cuh) and the single-pass
 * driver (sp_driver.cuh, whose pipelined path it takes on persistent
 * grids: the mutation point of lb-pipe-stage), with the
 * mutation point of lb-swapped; with no MUT_* macro defined it is the
 * catalogue's lookback (the control, lb). The catalogue's description
 * follows.
 *
 * Decoupled look-back (Merrill & Garland, "Single-pass parallel prefix
 * scan with decoupled look-back", NVIDIA TR NVR-2016-002; CUB's
 * DeviceScan), on the register tiles and persistent ticketed blocks of
 * single_pass.cuh.
 *
 * A tile publishes its aggregate (status A) as soon as it is reduced. Warp
 * 0 then looks back a window of 32 predecessors at once, lane l polling
 * tile - 1 - l, until every lane sees A or P; the values from the nearest
 * inclusive prefix (P) down to tile - 1 are combined by a fixed shuffle
 * tree, the earlier tile always the earlier operand. Without a P in the
 * window the warp moves 32 tiles further back and puts what it found in
 * front of what it has. The tile then publishes its inclusive prefix (P).
 * A tile waits only for predecessors to publish their aggregates, never
 * for a whole chain: n reads, n writes and O(n / tile) status words.
 *
 * Not deterministic: where the nearest P lies depends on timing, so the
 * tree of float additions (never an integer result) may change from run to
 * run; lookback-det fixes it. The protocol lives in tile_status.cuh.
 *
 * Template: compiled once per (T, TN, OPN) through cuda/inst_all.h. */
#include "tests/mutants/tile_scan_copy.cuh"
#include "tests/mutants/sp_status.cuh"

/* Lanes 0 .. last of warp 0 hold the values of tiles tile - 1, tile - 2,
 * ...: their combination, the earliest (highest lane) first, by a fixed
 * shuffle tree: at distance d lane l takes lane l + d's range in front of
 * its own when that range starts within the segment. */
SL_DEVICE T SL_KN(lb_window_reduce)(T v, unsigned last)
{
    const unsigned lane = LANE_ID();
    SL_UNROLL
    for (unsigned d = 1; d < SL_WARP_SIZE; d *= 2) {
        const T u = SHFL_DOWN(v, d);
        if (lane + d <= last)
#if defined(MUT_LB_SWAPPED)
            v = OP(v, u); /* mutated: operands swapped */
#else
            v = OP(u, v);
#endif
    }
    return SHFL_IDX(v, 0);
}

/* Warp 0's look-back: the combination of tiles 0 .. tile - 1. */
SL_DEVICE T SL_KN(lb_look_back)(sl_tile_status ts, size_t tile)
{
    long long pred = (long long)tile - 1 - (long long)LANE_ID();
    T exclusive = IDENTITY();
    for (int first = 1;; first = 0, pred -= SL_TILE_WINDOW) {
        T v;
        const uint32_t s = SL_KN(tile_wait_warp)(ts, ts.word, pred, &v, first);
        const unsigned pmask = BALLOT(s == SL_TILE_P);
        const unsigned last = pmask ? (unsigned)FFS(pmask) - 1 : SL_WARP_SIZE - 1;
        const T window = SL_KN(lb_window_reduce)(v, last);
        /* this window precedes everything combined so far */
        exclusive = first ? window : OP(window, exclusive);
        if (pmask)
            return exclusive;
    }
}

/* What a tile publishes from its aggregate alone (thread 0): A, or P for
 * tile 0, whose aggregate is its inclusive prefix. */
SL_DEVICE void SL_KN(tile_publish_own)(sl_tile_status ts, size_t tile, T total)
{
    if (threadIdx.x == 0)
        SL_KN(tile_publish)(ts, ts.word, tile, tile == 0 ? SL_TILE_P : SL_TILE_A, total);
}

/* The rest of the tile's part (every thread; ends with a barrier): warp
 * 0's look-back and the tile's P; the tile's prefix. */
SL_DEVICE T SL_KN(tile_resolve)(sl_tile_status ts, size_t tile, T total, T *sh, int *have)
{
    *have = tile > 0;
    if (WARP_ID() == 0 && tile > 0) {
        const T exclusive = SL_KN(lb_look_back)(ts, tile);
        if (LANE_ID() == 0) {
            SL_KN(tile_publish)(ts, ts.word, tile, SL_TILE_P, OP(exclusive, total));
            ST(sh, 0, exclusive);
        }
    }
    SYNCTHREADS();
    return SL_KN(tile_take_prefix)(sh, *have, total);
}

SL_DEVICE T SL_KN(tile_prefix)(sl_tile_status ts, size_t tile, T total, T *sh, int *have)
{
    SL_KN(tile_publish_own)(ts, tile, total);
    return SL_KN(tile_resolve)(ts, tile, total, sh, have);
}

/* Persistent blocks keep two tiles in flight (sp_driver.cuh). */
#define SL_SP_PIPELINE 1
#include "tests/mutants/sp_driver.cuh"

SL_HOST sl_status SL_KN(MUT_NAME)(const sl_kargs *a)
{
    return SL_KN(sp_host)(a, SL_TILE_THREADS, 0, 0);
}
