/* Reduction with warp shuffles (Luitjens, "Faster parallel reductions on
 * Kepler", NVIDIA 2014): every warp reduces its 32 values in registers,
 * lane 0 writes the warp's total to shared memory, and warp 0 reduces the
 * B/32 totals the same way. One barrier per block.
 *
 * The shuffle distance grows (1, 2, ..., 16) rather than shrinks, so that
 * lane l always combines the adjacent ranges [l, l+d) and [l+d, l+2d) in
 * order: with the usual shrinking distance lane 0 would combine x_0 with
 * x_16 first, which is wrong for a non-commutative operator. Only lane 0's
 * value is used.
 *
 * Template: compiled once per (T, TN, OPN) through cuda/inst_all.h. */

/* Lane 0 returns the reduction of the warp's 32 values (other lanes:
 * partial or meaningless values). */
SL_DEVICE T SL_KN(rds_warp)(T x)
{
    for (unsigned d = 1; d < SL_WARP_SIZE; d *= 2) {
        T y = SHFL_DOWN(x, d);
        x = OP(x, y);
    }
    return x;
}

/* partial[b] = the reduction of tile b (B elements, identity padded). */
SL_GLOBAL SL_KN(rds_block)(const T *in, T *partial, size_t n)
{
    SHARED(T, warp_totals, SL_MAX_BLOCK_THREADS / SL_WARP_SIZE);
    const unsigned lane = LANE_ID(), w = WARP_ID(), nwarps = blockDim.x / SL_WARP_SIZE;
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    /* phase 1: every warp reduces its values */
    T x = SL_KN(rds_warp)(i < n ? LD(in, i) : IDENTITY());
    if (lane == 0)
        ST(warp_totals, w, x);
    SYNCTHREADS();
    /* phase 2: warp 0 reduces the warp totals */
    if (w == 0) {
        T s = SL_KN(rds_warp)(lane < nwarps ? LD(warp_totals, lane) : IDENTITY());
        if (lane == 0)
            ST(partial, blockIdx.x, s);
    }
}
SL_DEFINE_LAUNCH(SL_KN(rds_block), (const T *, in), (T *, partial), (size_t, n))

#define SL_REDUCE_KERNEL rds_block
#define SL_REDUCE_HOST reduce_shfl
#include "cuda/reduce/reduce_driver.cuh"
#undef SL_REDUCE_KERNEL
#undef SL_REDUCE_HOST
