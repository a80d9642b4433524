/* The body shared by the reduce4 test variants: the CUDA 5 samples' tree
 * reduction (Harris, "Optimizing parallel reduction in CUDA", kernel 4)
 * under the catalogue's multi-block driver. The block halves its tile
 * with barriers down to 64 elements; warp 0 then combines the last six
 * steps through volatile shared memory, without __syncthreads.
 *
 * RD4_SYNCWARP set: the form that is right on Volta and later (CUDA 9,
 * "Using CUDA Warp-Level Primitives"): each lane reads into a register,
 * the warp synchronises, each lane writes, the warp synchronises.
 * RD4_SYNCWARP unset: the samples' code, volatile alone. Under independent
 * thread scheduling the lanes of the warp need not run in step: a lane may
 * read x[t + s] before the lane that owns it has added its own step's
 * partner, or after it has added the next one. Volatile accesses are
 * strong, so this is no data race; the sum is wrong in the schedules
 * where the lanes drift apart.
 *
 * Like the samples' code it combines x[t] with x[t + s] (sequential
 * addressing), which regroups the elements: right for commutative
 * operators (add, max, min), not for affine. Blocks of 64 threads or
 * more, a power of two. */

SL_GLOBAL SL_KN(rd4_block)(const T *in, T *partial, size_t n)
{
    SHARED(T, x, SL_MAX_BLOCK_THREADS);
    const unsigned t = threadIdx.x;
    const size_t i = (size_t)blockIdx.x * blockDim.x + t;
    ST(x, t, i < n ? LD(in, i) : IDENTITY());
    SYNCTHREADS();
    for (unsigned s = blockDim.x / 2; s > SL_WARP_SIZE; s /= 2) {
        if (t < s)
            ST(x, t, OP(LD(x, t), LD(x, t + s)));
        SYNCTHREADS();
    }
    if (t < SL_WARP_SIZE)
        for (unsigned s = SL_WARP_SIZE; s > 0; s /= 2) {
#if RD4_SYNCWARP
            const T v = OP(LDV(x, t), LDV(x, t + s));
            SYNCWARP();
            STV(x, t, v);
            SYNCWARP();
#else
            STV(x, t, OP(LDV(x, t), LDV(x, t + s)));
#endif
        }
    if (t == 0)
        ST(partial, blockIdx.x, LDV(x, 0));
}
SL_DEFINE_LAUNCH(SL_KN(rd4_block), (const T *, in), (T *, partial), (size_t, n))

#define SL_REDUCE_KERNEL rd4_block
#define SL_REDUCE_HOST RD4_NAME
#include "cuda/reduce/reduce_driver.cuh"
#undef SL_REDUCE_KERNEL
#undef SL_REDUCE_HOST
