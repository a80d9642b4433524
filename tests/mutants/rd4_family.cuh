/* A tree reduction whose last six steps run inside warp 0 through volatile
 * shared memory, the CUDA 5 samples' reduce4 pattern, under the
 * catalogue's multi-block driver. The control (rd4) orders the warp's
 * steps with __syncwarp: each lane reads, the warp synchronises, each
 * lane writes, the warp synchronises. The mutant (rd4-no-syncwarp) is the
 * samples' code: volatile alone. Under independent thread scheduling
 * (Volta and later) a lane may write x[t] before lane t - s has read it;
 * volatile accesses are strong, so this is no data race, and the default
 * schedule (the lanes of a warp in step) gives the right sum: only an
 * explored schedule shows the wrong one. Blocks of 64 threads or more, a
 * power of two. */

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
#if defined(MUT_RD4_NO_SYNCWARP)
            STV(x, t, OP(LDV(x, t), LDV(x, t + s))); /* mutated: no __syncwarp */
#else
            const T v = OP(LDV(x, t), LDV(x, t + s));
            SYNCWARP();
            STV(x, t, v);
            SYNCWARP();
#endif
        }
    if (t == 0)
        ST(partial, blockIdx.x, LDV(x, 0));
}
SL_DEFINE_LAUNCH(SL_KN(rd4_block), (const T *, in), (T *, partial), (size_t, n))

#define SL_REDUCE_KERNEL rd4_block
#define SL_REDUCE_HOST MUT_NAME
#include "cuda/reduce/reduce_driver.cuh"
#undef SL_REDUCE_KERNEL
#undef SL_REDUCE_HOST
