/* A copy of cuda/reduce/reduce_shfl_tmpl.cuh (warp-shuffle reductions,
 * warp totals through shared memory, under the catalogue's multi-block
 * driver) with the mutation points of its mutants; with no MUT_RDS_* macro
 * defined it is the catalogue's kernel (the control, rds). See
 * ks_family.cuh for how a mutant uses it. */

SL_DEVICE T SL_KN(rds_warp)(T x)
{
    for (unsigned d = 1; d < SL_WARP_SIZE; d *= 2) {
        T y = SHFL_DOWN(x, d);
#if defined(MUT_RDS_SWAPPED)
        x = OP(y, x); /* mutated: operands swapped */
#else
        x = OP(x, y);
#endif
    }
    return x;
}

SL_GLOBAL SL_KN(rds_block)(const T *in, T *partial, size_t n)
{
    SHARED(T, warp_totals, SL_MAX_BLOCK_THREADS / SL_WARP_SIZE);
    const unsigned lane = LANE_ID(), w = WARP_ID(), nwarps = blockDim.x / SL_WARP_SIZE;
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    /* phase 1: every warp reduces its values */
    T x = SL_KN(rds_warp)(i < n ? LD(in, i) : IDENTITY());
    if (lane == 0)
        ST(warp_totals, w, x);
#if !defined(MUT_RDS_NO_BARRIER)
    SYNCTHREADS(); /* rds-no-barrier removes this barrier */
#endif
    /* phase 2: warp 0 reduces the warp totals */
    if (w == 0) {
#if defined(MUT_RDS_ZERO_PAD)
        T s = SL_KN(rds_warp)(lane < nwarps ? LD(warp_totals, lane) : (T)0); /* mutated: 0 for the identity */
#else
        T s = SL_KN(rds_warp)(lane < nwarps ? LD(warp_totals, lane) : IDENTITY());
#endif
        if (lane == 0)
            ST(partial, blockIdx.x, s);
    }
}
SL_DEFINE_LAUNCH(SL_KN(rds_block), (const T *, in), (T *, partial), (size_t, n))

#define SL_REDUCE_KERNEL rds_block
#define SL_REDUCE_HOST MUT_NAME
#include "cuda/reduce/reduce_driver.cuh"
#undef SL_REDUCE_KERNEL
#undef SL_REDUCE_HOST
