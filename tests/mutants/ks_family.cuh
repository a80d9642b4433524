/* A copy of cuda/block/kogge_stone_tmpl.cuh (the in-place Kogge-Stone
 * section scan under the catalogue's hierarchical driver) with the mutation
 * points of its mutants. With no MUT_KS_* macro defined it is the
 * catalogue's kernel (the control, ks). A mutant's template defines
 * MUT_NAME (its file stem, the host driver's name) and one MUT_KS_* macro,
 * then includes this file; the #if at each point shows the one change. */

#include "cuda/block/hier_section.cuh"

SL_GLOBAL SL_KN(ks_scan)(const T *in, T *out, T *sums, size_t n, int shift, size_t first)
{
    SHARED_DYN(T, xy);
    const unsigned t = threadIdx.x, b = blockDim.x;
    const size_t i = (first + blockIdx.x) * (size_t)b + t;
    ST(xy, t, SL_KN(hier_load)(in, i, n, shift));
    for (unsigned stride = 1; stride < b; stride *= 2) {
#if !defined(MUT_KS_BARRIER_MOVED)
        SYNCTHREADS();
#endif
        T temp = IDENTITY();
#if defined(MUT_KS_OFF_BY_ONE)
        if (t > stride) /* mutated: > for >= */
#else
        if (t >= stride)
#endif
#if defined(MUT_KS_SWAPPED)
            temp = OP(LD(xy, t), LD(xy, t - stride)); /* mutated: operands swapped */
#else
            temp = OP(LD(xy, t - stride), LD(xy, t));
#endif
#if defined(MUT_KS_NO_WRITE_BARRIER)
        /* mutated: the barrier between the reads and the writes removed */
        if (t >= stride)
            ST(xy, t, temp);
#elif defined(MUT_KS_DIVERGENT_BARRIER)
        if (t >= stride) {
            SYNCTHREADS(); /* mutated: the barrier moved inside the branch */
            ST(xy, t, temp);
        }
#else
        SYNCTHREADS();
        if (t >= stride)
            ST(xy, t, temp);
#endif
#if defined(MUT_KS_BARRIER_MOVED)
        SYNCTHREADS(); /* mutated: the loop's first barrier moved from its top to its end */
#endif
    }
    if (i < n)
        ST(out, i, LD(xy, t));
    if (sums != NULL && t == b - 1)
        ST(sums, first + blockIdx.x, LD(xy, t));
}
SL_DEFINE_LAUNCH(SL_KN(ks_scan), (const T *, in), (T *, out), (T *, sums), (size_t, n), (int, shift),
                 (size_t, first))

static sl_status SL_KN(ks_sections)(const T *in, T *out, T *sums, size_t n, int exclusive, size_t first,
                                    unsigned count, const sl_hier *h)
{
    return SL_LAUNCH(ks_scan)(sl_launch_1d(count, h->block, h->shmem), in, out, sums, n, exclusive, first);
}
#define SL_HIER_SECTIONS SL_KN(ks_sections)
#include "cuda/block/hier_driver.cuh"
#undef SL_HIER_SECTIONS

SL_HOST sl_status SL_KN(MUT_NAME)(const sl_kargs *a)
{
    const unsigned block = a->block > 0 ? (unsigned)a->block : SL_MAX_BLOCK_THREADS;
    const sl_hier h = {block, block, block * sizeof(T), a->param, a->param == 1};
    if (a->block < 0 || a->param < 0)
        return SL_ERR_ARG;
    return SL_KN(hier_run)(a, &h);
}
