/* Deterministic decoupled look-back: the single-pass scan whose every tile
 * prefix is one fixed expression of the tile aggregates, so float results
 * are bitwise the same on every run and under every dispatch order, and
 * the same in the simulator and on the GPU.
 *
 * Tiles come in windows of 32 (window j = tiles 32j .. 32j + 31). With A_t
 * the aggregate of tile t:
 *   S(t)  = the inclusive Kogge-Stone warp scan of A_32j, ..., A_t at lane
 *           t - 32j (a fixed shuffle tree; lane l depends on lanes <= l
 *           only, so every tile of the window computes the same S);
 *   W_j   = S(32j + 31), the window's aggregate;
 *   L_1 = W_0, L_j = L_(j-1) op W_(j-1): the left fold of the windows;
 *   prefix(t) = L_j op S(t - 1) (S(t - 1) alone in window 0, L_j alone
 *           for the first tile of a window).
 * Every tile publishes its aggregate (status A). The last tile of window j
 * publishes W_j (window status A) as soon as it has S, and L_(j+1) (window
 * status P) once it has L_j. A tile needs L_j: warp 1 looks back over up to
 * 32 windows, lane l polling window j - 1 - l, until the nearest one with
 * P; it takes that window's L and folds the aggregates of the windows after
 * it, oldest first, into it. This is the left fold again, from a point on
 * it (L_(m+1) = L_m op W_m), so the bits do not depend on how far back P
 * was found. Meanwhile warp 0 waits for the aggregates of the tile's
 * predecessors in its window and computes S. Without a P in reach the
 * warp waits for one: the last tile of window m waits only for windows
 * below m, so some window in reach always gets its P. Persistent blocks
 * keep two tiles in flight as lookback's do (single_pass.cuh); the
 * window's last tile publishes W before its block leaves it
 * (tile_publish_own below).
 *
 * Traffic: n reads, n writes, one word per tile and one per window; the
 * waits are one round trip for the window's aggregates and usually one for
 * the windows (the two warps poll at the same time).
 *
 * Template: compiled once per (T, TN, OPN) through cuda/inst_all.h. */
#include "cuda/device/tile_scan.cuh"
#include "cuda/device/tile_status.cuh"

/* Warp 0: S(tile - 1) within the tile's window (returned to every lane;
 * meaningless for the window's first tile). For the window's last tile,
 * W_j in *window, published (window status A) when `publish` is set. */
SL_DEVICE T SL_KN(det_in_window)(sl_tile_status ts, size_t tile, T total, T *window, int publish)
{
    const unsigned lane = LANE_ID(), o = (unsigned)(tile % SL_TILE_WINDOW);
    const size_t j = tile / SL_TILE_WINDOW;
    /* lanes below o: the aggregates of the tile's predecessors in the
     * window; lane o: its own; above: nothing that lanes <= o can see */
    T v;
    (void)SL_KN(tile_wait_warp)(ts, ts.word, lane < o ? (long long)(tile - o + lane) : -1, &v, 1);
    if (lane == o)
        v = total;
    v = SL_KN(tile_warp_iscan)(v);
    if (publish && o == SL_TILE_WINDOW - 1 && lane == o)
        SL_KN(tile_publish)(ts, ts.win, j, SL_TILE_A, v);
    *window = SHFL_IDX(v, SL_TILE_WINDOW - 1);
    return SHFL_IDX(v, o > 0 ? o - 1 : 0);
}

/* Warp 1 (or 0 in a one-warp block): L_j for window j >= 1. */
SL_DEVICE T SL_KN(det_windows)(sl_tile_status ts, size_t j)
{
    const unsigned lane = LANE_ID();
    const long long w = (long long)j - 1 - (long long)lane; /* w < 0: before window 0 */
    T v;
    unsigned pmask = 0;
    for (uint32_t rounds = 0;; rounds++) {
        const uint32_t s = SL_KN(tile_wait_warp)(ts, ts.win, w, &v, rounds == 0);
        pmask = BALLOT(s == SL_TILE_P);
        if (pmask)
            break;
        if (rounds == SL_TILE_SPIN_LIMIT) {
            if (lane == 0)
                sl_tile_give_up(ts);
            return IDENTITY();
        }
        NANOSLEEP(SL_TILE_BACKOFF_MAX_NS); /* not reached by verify: a sleep while a window's P lags */
    }
    /* lane p: the nearest window with P; lanes >= j stand for "before
     * window 0", where the fold starts from W_0 itself (lane j - 1) */
    const unsigned p = (unsigned)FFS(pmask) - 1;
    T acc;
    int l;
    if ((size_t)p >= j) {
        acc = SHFL_IDX(v, (unsigned)j - 1);
        l = (int)j - 2;
    } else {
        acc = SHFL_IDX(v, p);
        l = (int)p - 1;
    }
    for (; l >= 0; l--)
        acc = OP(acc, SHFL_IDX(v, (unsigned)l));
    return acc;
}

/* The rest of a tile's part after its A (every thread; ends with a
 * barrier): warp 0's S and (publish_w) the window's W, warp 1's L_j, the
 * tile's prefix, and the window's P from its last tile. */
SL_DEVICE T SL_KN(det_prefix)(sl_tile_status ts, size_t tile, T total, T *sh, int *have, int publish_w)
{
    const unsigned w = WARP_ID(), o = (unsigned)(tile % SL_TILE_WINDOW);
    const unsigned wwin = blockDim.x > SL_WARP_SIZE ? 1 : 0;
    const size_t j = tile / SL_TILE_WINDOW;
    T window = IDENTITY();
    *have = tile > 0;
    if (w == 0) {
        const T s = SL_KN(det_in_window)(ts, tile, total, &window, publish_w);
        if (LANE_ID() == 0)
            ST(sh, 0, s);
    }
    if (w == wwin && j > 0) {
        const T l = SL_KN(det_windows)(ts, j);
        if (LANE_ID() == 0)
            ST(sh, 1, l);
    }
    SYNCTHREADS();
    /* nvcc reads sh[0] and sh[1] here with one vector load per warp on
     * every tile and selects (LDS.64, LDS.128 for 8-byte types, on sm_90):
     * the GPU counts one shared load per warp and tile where the
     * simulator counts the loads below (docs/model-fidelity.md) */
    T prefix = total;
    if (j == 0) {
        if (o > 0)
            prefix = LD(sh, 0);
    } else {
        prefix = o > 0 ? OP(LD(sh, 1), LD(sh, 0)) : LD(sh, 1);
    }
    /* the window's last tile publishes L_(j+1) */
    if (o == SL_TILE_WINDOW - 1 && threadIdx.x == 0)
        SL_KN(tile_publish)(ts, ts.win, j, SL_TILE_P, j == 0 ? window : OP(LD(sh, 1), window));
    /* a carry from before the scan (the shards before a multi-GPU scan's)
     * goes in front of the prefix: one fixed expression again, and the
     * published words stay the scan's own */
    if (ts.carry) {
        const T c = LD((const T *)ts.carry, 0); /* not reached by verify: lookback-det alone has no carry */
        prefix = *have ? OP(c, prefix) : c;
        *have = 1;
    }
    return prefix;
}

SL_DEVICE T SL_KN(tile_prefix)(sl_tile_status ts, size_t tile, T total, T *sh, int *have)
{
    if (threadIdx.x == 0)
        SL_KN(tile_publish)(ts, ts.word, tile, SL_TILE_A, total);
    return SL_KN(det_prefix)(ts, tile, total, sh, have, 1);
}

/* Pipelined blocks (single_pass.cuh): a tile publishes its A as soon as
 * it is reduced, and a window's last tile then also waits for the other
 * aggregates of its window and publishes W, before its block goes back to
 * the tile it drew before. Every tile of the next window waits for that
 * W: published in tile_resolve, it came a whole tile's loads later (on the
 * H100, 0.51 to 0.88 of CUB's speed at 2^28 that way, against 0.99 to
 * 1.00 of lookback's this way; docs/performance.md). The wait is for tiles
 * drawn before this one, each of which publishes its A after its own
 * loads alone. */
SL_DEVICE void SL_KN(tile_publish_own)(sl_tile_status ts, size_t tile, T total)
{
    if (threadIdx.x == 0)
        SL_KN(tile_publish)(ts, ts.word, tile, SL_TILE_A, total);
    if (tile % SL_TILE_WINDOW == SL_TILE_WINDOW - 1 && WARP_ID() == 0) {
        T window;
        (void)SL_KN(det_in_window)(ts, tile, total, &window, 1);
    }
}

/* The rest, when the block comes back to the tile. Its W is out; the
 * window's last tile polls its window again for S (one round, every 32nd
 * tile) rather than keep S and W in shared memory across the next tile's
 * loads, where the next tile may end a window too. */
SL_DEVICE T SL_KN(tile_resolve)(sl_tile_status ts, size_t tile, T total, T *sh, int *have)
{
    return SL_KN(det_prefix)(ts, tile, total, sh, have, 0);
}

#define SL_SP_PIPELINE 1
#include "cuda/device/single_pass.cuh"

/* A file that drives the scan itself (multi_gpu_tmpl.cuh) defines
 * SL_LOOKBACK_DET_NO_HOST: the host driver is this file's own symbol. */
#if !defined(SL_LOOKBACK_DET_NO_HOST)
/* Host driver: a->block threads (a multiple of 32, default 128, 192 for
 * inputs of 64 MiB or more: tile_geom.h), a->param items per thread
 * (default 24 for 4-byte types, 12 for 8-byte types). */
SL_HOST sl_status SL_KN(lookback_det)(const sl_kargs *a)
{
    return SL_KN(sp_host)(a, sl_lookback_threads(a->n, sizeof(T)), 0, 1);
}
#endif
