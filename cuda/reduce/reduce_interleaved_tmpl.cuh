/* Reduction with interleaved addressing and divergent branching (Harris,
 * "Optimizing parallel reduction in CUDA", kernel 1): at stride s = 1, 2,
 * ..., B/2 thread t works when t % (2s) == 0, combining x[t] (earlier)
 * with x[t + s] (later). The active threads are spread over every warp,
 * so every step issues partial warps: the warps diverge in every step.
 *
 * Template: compiled once per (T, TN, OPN) through cuda/inst_all.h. */

/* partial[b] = the reduction of tile b (B elements, identity padded). */
SL_GLOBAL SL_KN(rdi_block)(const T *in, T *partial, size_t n)
{
    SHARED(T, x, SL_MAX_BLOCK_THREADS);
    const unsigned t = threadIdx.x;
    const size_t i = (size_t)blockIdx.x * blockDim.x + t;
    ST(x, t, i < n ? LD(in, i) : IDENTITY());
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        SYNCTHREADS();
        if (t % (2 * s) == 0)
            ST(x, t, OP(LD(x, t), LD(x, t + s)));
    }
    if (t == 0)
        ST(partial, blockIdx.x, LD(x, 0));
}
SL_DEFINE_LAUNCH(SL_KN(rdi_block), (const T *, in), (T *, partial), (size_t, n))

#define SL_REDUCE_KERNEL rdi_block
#define SL_REDUCE_HOST reduce_interleaved
#include "cuda/reduce/reduce_driver.cuh"
#undef SL_REDUCE_KERNEL
#undef SL_REDUCE_HOST
