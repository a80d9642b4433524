/* Reduction with the active threads kept contiguous (Harris, "Optimizing
 * parallel reduction in CUDA", kernel 2): at stride s = 1, 2, ..., B/2
 * thread t < B / (2s) combines x[2st] (earlier) with x[2st + s] (later).
 * Whole warps are active or idle, so only the steps with fewer than 32
 * active threads (the last five of a 1024-thread block) diverge.
 *
 * Why not Harris's kernel 3 ("if (t < s) x[t] += x[t + s]", s = B/2 down
 * to 1): it combines element t with element t + B/2, i.e. it reduces the
 * tile in bit-reversed order, which is right only for a commutative
 * operator; for affine it fails. The index mapping here keeps both
 * operands adjacent ranges in order, at the cost of bank conflicts (the
 * stride-2s shared accesses), which the simulator reports.
 *
 * Template: compiled once per (T, TN, OPN) through cuda/inst_all.h. */

/* partial[b] = the reduction of tile b (B elements, identity padded). */
SL_GLOBAL SL_KN(rdc_block)(const T *in, T *partial, size_t n)
{
    SHARED(T, x, SL_MAX_BLOCK_THREADS);
    const unsigned t = threadIdx.x;
    const size_t i = (size_t)blockIdx.x * blockDim.x + t;
    ST(x, t, i < n ? LD(in, i) : IDENTITY());
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        SYNCTHREADS();
        const unsigned index = 2 * s * t;
        if (index < blockDim.x)
            ST(x, index, OP(LD(x, index), LD(x, index + s)));
    }
    if (t == 0)
        ST(partial, blockIdx.x, LD(x, 0));
}
SL_DEFINE_LAUNCH(SL_KN(rdc_block), (const T *, in), (T *, partial), (size_t, n))

#define SL_REDUCE_KERNEL rdc_block
#define SL_REDUCE_HOST reduce_contiguous
#include "cuda/reduce/reduce_driver.cuh"
#undef SL_REDUCE_KERNEL
#undef SL_REDUCE_HOST
