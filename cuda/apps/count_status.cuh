/* The look-back of the single-pass applications (compact, partition,
 * pack, the radix sort's digit offsets): the tile status words and waits
 * of cuda/device/tile_status.cuh, the scans' protocol, over 64-bit counts
 * whatever the elements are. A tile publishes how many outputs it makes
 * (status A) as soon as it has counted them, and its inclusive prefix
 * (status P) once warp 0 has looked back; counts are added, and integer
 * additions in any order give the same sum, so where the nearest P lies
 * changes nothing in the result.
 *
 * The protocol is instantiated here once per translation unit for
 * T = int64_t, the count (16-byte words with a tag, as for any 8-byte
 * value), whatever element type the including template has: SL_CNT(name)
 * names its functions. Included inside a *_tmpl.cuh (T defined), which
 * this file saves and restores. */
#ifndef SCANLAB_COUNT_STATUS_H
#define SCANLAB_COUNT_STATUS_H

#pragma push_macro("T")
#pragma push_macro("TN")
#pragma push_macro("OPN")
#undef T
#undef TN
#undef OPN
#define T int64_t
#define TN cnt
#define OPN add
/* the count add: SL_APPLY names sl_add_cnt */
SL_HD int64_t sl_add_cnt(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
SL_HD int64_t sl_id_add_cnt(void) { return 0; }
#include "cuda/device/tile_status.cuh"
#undef T
#undef TN
#undef OPN
#pragma pop_macro("OPN")
#pragma pop_macro("TN")
#pragma pop_macro("T")

/* A function of the count protocol: SL_CNT(tile_publish) ->
 * tile_publish_cnt_add_sim (or _cuda). */
#define SL_CNT(name) SL_CAT2(name##_cnt_add, SL_BACKEND_SUFFIX)

/* Warp 0's look-back over counts: the sum of the counts of tiles
 * 0 .. tile - 1 (all 32 lanes call it; every lane gets the sum). Lane l
 * polls tile - 1 - l; the window is summed from the nearest P down to
 * tile - 1, then the warp moves 32 tiles further back if it found no P. */
SL_DEVICE int64_t sl_cnt_look_back(sl_tile_status ts, size_t tile)
{
    long long pred = (long long)tile - 1 - (long long)LANE_ID();
    int64_t sum = 0;
    for (int first = 1;; first = 0, pred -= SL_TILE_WINDOW) {
        int64_t v;
        const uint32_t s = SL_CNT(tile_wait_warp)(ts, ts.word, pred, &v, first);
        const unsigned pmask = BALLOT(s == SL_TILE_P);
        const unsigned last = pmask ? (unsigned)FFS(pmask) - 1 : SL_WARP_SIZE - 1;
        int64_t w = LANE_ID() <= last ? v : 0;
        SL_UNROLL
        for (unsigned d = SL_WARP_SIZE / 2; d > 0; d /= 2)
            w = SL_APP_ADD(w, SHFL_XOR(w, d));
        sum = SL_APP_ADD(sum, w);
        if (pmask)
            return sum;
    }
}

/* A tile's part of the protocol (every thread of the block; ends with a
 * barrier): thread 0 publishes the tile's count (P for tile 0, else A),
 * warp 0 looks back and publishes the inclusive prefix; returns the
 * outputs of all tiles before this one. sh: a shared int64_t. */
SL_DEVICE int64_t sl_cnt_tile_prefix(sl_tile_status ts, size_t tile, int64_t count, int64_t *sh)
{
    if (threadIdx.x == 0)
        SL_CNT(tile_publish)(ts, ts.word, tile, tile == 0 ? SL_TILE_P : SL_TILE_A, count);
    if (WARP_ID() == 0 && tile > 0) {
        const int64_t before = sl_cnt_look_back(ts, tile);
        if (LANE_ID() == 0) {
            SL_CNT(tile_publish)(ts, ts.word, tile, SL_TILE_P, SL_APP_ADD(before, count));
            ST(sh, 0, before);
        }
    }
    SYNCTHREADS();
    const int64_t p = LD(sh, 0);
    return tile > 0 ? p : 0;
}

#endif
