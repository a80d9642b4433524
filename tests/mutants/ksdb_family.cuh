/* A copy of cuda/block/kogge_stone_db_tmpl.cuh (Kogge-Stone with two
 * shared buffers, one barrier per step) with the mutation points of its
 * mutants; with no MUT_KSDB_* macro defined it is the catalogue's kernel
 * (the control, ksdb). See ks_family.cuh for how a mutant uses it. */

#include "cuda/block/hier_section.cuh"

SL_GLOBAL SL_KN(ksdb_scan)(const T *in, T *out, T *sums, size_t n, int shift, size_t first)
{
    SHARED_DYN(T, buf);
    const unsigned t = threadIdx.x, b = blockDim.x;
    const size_t i = (first + blockIdx.x) * (size_t)b + t;
    unsigned pout = 0, pin = 1;
    ST(buf, pout * b + t, SL_KN(hier_load)(in, i, n, shift));
    for (unsigned stride = 1; stride < b; stride *= 2) {
        SYNCTHREADS();
        pout = 1 - pout;
        pin = 1 - pout;
#if defined(MUT_KSDB_IN_PLACE)
        /* mutated: the step writes the buffer it reads (pin for pout) */
        if (t >= stride)
            ST(buf, pin * b + t, OP(LD(buf, pin * b + t - stride), LD(buf, pin * b + t)));
        else
            ST(buf, pout * b + t, LD(buf, pin * b + t));
#else
        if (t >= stride)
            ST(buf, pout * b + t, OP(LD(buf, pin * b + t - stride), LD(buf, pin * b + t)));
        else
            ST(buf, pout * b + t, LD(buf, pin * b + t));
#endif
    }
    if (i < n)
        ST(out, i, LD(buf, pout * b + t));
    if (sums != NULL && t == b - 1)
        ST(sums, first + blockIdx.x, LD(buf, pout * b + t));
}
SL_DEFINE_LAUNCH(SL_KN(ksdb_scan), (const T *, in), (T *, out), (T *, sums), (size_t, n), (int, shift),
                 (size_t, first))

static sl_status SL_KN(ksdb_sections)(const T *in, T *out, T *sums, size_t n, int exclusive, size_t first,
                                      unsigned count, const sl_hier *h)
{
    return SL_LAUNCH(ksdb_scan)(sl_launch_1d(count, h->block, h->shmem), in, out, sums, n, exclusive, first);
}
#define SL_HIER_SECTIONS SL_KN(ksdb_sections)
#include "cuda/block/hier_driver.cuh"
#undef SL_HIER_SECTIONS

SL_HOST sl_status SL_KN(MUT_NAME)(const sl_kargs *a)
{
    const unsigned block = a->block > 0 ? (unsigned)a->block : SL_MAX_BLOCK_THREADS;
    const sl_hier h = {block, block, 2 * (size_t)block * sizeof(T), a->param, a->param == 1};
    if (a->block < 0 || a->param < 0)
        return SL_ERR_ARG;
    return SL_KN(hier_run)(a, &h);
}
