/* Warp-shuffle scan: one element per thread, three phases.
 *   phase 1: every warp scans its lanes' values in registers with SHFL_UP
 *            (Kogge-Stone across lanes: log2 32 = 5 steps, no shared memory);
 *   phase 2: the last lane of each warp writes the warp's total to shared
 *            memory, and warp 0 scans the totals the same way;
 *   phase 3: every thread of warp w > 0 combines total w - 1 into its value.
 * A block whose size is not a multiple of 32 ends with a partial warp: its
 * shuffles name only its lanes (the _MASK forms).
 * One block of B = 1024: steps 5 + 5 + 1 = 11, two barriers.
 * Any n: the hierarchical driver of hier_driver.cuh. */

#include "cuda/block/hier_section.cuh"

/* The lanes of warp w in a block of b threads, as a shuffle mask. */
SL_DEVICE unsigned SL_KN(ws_mask)(unsigned b, unsigned w)
{
    const unsigned lanes = b - w * SL_WARP_SIZE;
    return lanes >= SL_WARP_SIZE ? SL_FULL_MASK : (1u << lanes) - 1;
}

/* Scans section first + blockIdx.x (blockDim.x elements). */
SL_GLOBAL SL_KN(ws_scan)(const T *in, T *out, T *sums, size_t n, int shift, size_t first)
{
    SHARED(T, warp_total, SL_WARP_SIZE);
    const unsigned t = threadIdx.x, b = blockDim.x, lane = LANE_ID(), warp = WARP_ID();
    const unsigned warps = (b + SL_WARP_SIZE - 1) / SL_WARP_SIZE;
    const unsigned lanes = b - warp * SL_WARP_SIZE < SL_WARP_SIZE ? b - warp * SL_WARP_SIZE : SL_WARP_SIZE;
    const unsigned mask = SL_KN(ws_mask)(b, warp);
    const size_t i = (first + blockIdx.x) * (size_t)b + t;
    T v = SL_KN(hier_load)(in, i, n, shift);
    /* phase 1: scan within the warp */
    for (unsigned d = 1; d < lanes; d *= 2) {
        T y = SHFL_UP_MASK(mask, v, d);
        if (lane >= d)
            v = OP(y, v);
    }
    if (lane == lanes - 1)
        ST(warp_total, warp, v);
    SYNCTHREADS();
    /* phase 2: warp 0 scans the warp totals */
    if (warp == 0) {
        T s = lane < warps ? LD(warp_total, lane) : IDENTITY();
        for (unsigned d = 1; d < warps; d *= 2) {
            T y = SHFL_UP_MASK(mask, s, d);
            if (lane >= d)
                s = OP(y, s);
        }
        if (lane < warps)
            ST(warp_total, lane, s);
    }
    SYNCTHREADS();
    /* phase 3: the totals of the warps before */
    if (warp > 0)
        v = OP(LD(warp_total, warp - 1), v);
    if (i < n)
        ST(out, i, v);
    if (sums != NULL && t == b - 1)
        ST(sums, first + blockIdx.x, v);
}
SL_DEFINE_LAUNCH(SL_KN(ws_scan), (const T *, in), (T *, out), (T *, sums), (size_t, n), (int, shift),
                 (size_t, first))

static sl_status SL_KN(ws_sections)(const T *in, T *out, T *sums, size_t n, int exclusive, size_t first,
                                    unsigned count, const sl_hier *h)
{
    return SL_LAUNCH(ws_scan)(sl_launch_1d(count, h->block, h->shmem), in, out, sums, n, exclusive, first);
}
#define SL_HIER_SECTIONS SL_KN(ws_sections)
#include "cuda/block/hier_driver.cuh"
#undef SL_HIER_SECTIONS

/* Host driver. a->block threads per block (2..1024, any size, default
 * 1024); a->param = 1 scans each section on its own. */
SL_HOST sl_status SL_KN(warp_shfl)(const sl_kargs *a)
{
    const unsigned block = a->block > 0 ? (unsigned)a->block : SL_MAX_BLOCK_THREADS;
    const sl_hier h = {block, block, 0, a->param, a->param == 1};
    if (a->block < 0 || a->param < 0)
        return SL_ERR_ARG;
    return SL_KN(hier_run)(a, &h);
}
