/* A copy of cuda/reduce/reduce_interleaved_tmpl.cuh (the interleaved tree
 * reduction under the catalogue's multi-block driver) with the mutation
 * points of its mutants; with no MUT_RDI_* macro defined it is the
 * catalogue's kernel (the control, rdi). See ks_family.cuh for how a
 * mutant uses it. */

SL_GLOBAL SL_KN(rdi_block)(const T *in, T *partial, size_t n)
{
    SHARED(T, x, SL_MAX_BLOCK_THREADS);
    const unsigned t = threadIdx.x;
#if defined(MUT_RDI_U32_INDEX)
    const unsigned i = blockIdx.x * blockDim.x + t; /* mutated: 32-bit index arithmetic */
#else
    const size_t i = (size_t)blockIdx.x * blockDim.x + t;
#endif
#if defined(MUT_RDI_NO_BOUND)
    ST(x, t, LD(in, i)); /* mutated: the bounds check i < n dropped */
#else
    ST(x, t, i < n ? LD(in, i) : IDENTITY());
#endif
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        SYNCTHREADS();
#if defined(MUT_RDI_MOD_STRIDE)
        if (t % s == 0) /* mutated: s for 2 * s */
#else
        if (t % (2 * s) == 0)
#endif
            ST(x, t, OP(LD(x, t), LD(x, t + s)));
    }
    if (t == 0)
        ST(partial, blockIdx.x, LD(x, 0));
}
SL_DEFINE_LAUNCH(SL_KN(rdi_block), (const T *, in), (T *, partial), (size_t, n))

#define SL_REDUCE_KERNEL rdi_block
#define SL_REDUCE_HOST MUT_NAME
#include "cuda/reduce/reduce_driver.cuh"
#undef SL_REDUCE_KERNEL
#undef SL_REDUCE_HOST
