/* A copy of cuda/block/warp_shfl_tmpl.cuh (warp-shuffle scans combined
 * across warps through shared memory, any block size) with the mutation
 * points of its mutants; with no MUT_WS_* macro defined it is the
 * catalogue's kernel (the control, ws). See ks_family.cuh for how a mutant
 * uses it. */

#include "cuda/block/hier_section.cuh"

SL_DEVICE unsigned SL_KN(ws_mask)(unsigned b, unsigned w)
{
    const unsigned lanes = b - w * SL_WARP_SIZE;
    return lanes >= SL_WARP_SIZE ? SL_FULL_MASK : (1u << lanes) - 1;
}

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
#if defined(MUT_WS_FULL_MASK)
        T y = SHFL_UP(v, d); /* mutated: the full mask, in the block's partial last warp too */
#else
        T y = SHFL_UP_MASK(mask, v, d);
#endif
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
#if defined(MUT_WS_NO_STORE_BOUND)
    ST(out, i, v); /* mutated: the bounds check i < n dropped */
#else
    if (i < n)
        ST(out, i, v);
#endif
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

SL_HOST sl_status SL_KN(MUT_NAME)(const sl_kargs *a)
{
    const unsigned block = a->block > 0 ? (unsigned)a->block : SL_MAX_BLOCK_THREADS;
    const sl_hier h = {block, block, 0, a->param, a->param == 1};
    if (a->block < 0 || a->param < 0)
        return SL_ERR_ARG;
    return SL_KN(hier_run)(a, &h);
}
