/* Kogge-Stone (Hillis-Steele) scan, in place, one element per thread: the
 * lecture kernel. A block of B threads scans a section of B elements in
 * shared memory; at stride 1, 2, 4, ... < B thread t >= stride reads its
 * partner xy[t - stride], waits at a barrier (so every read of the old
 * values is done), then writes, and waits again.
 * For one section of n = 2^k elements: work n log2 n - (n - 1), steps
 * log2 n, 2 log2 n barriers.
 * Any n: the hierarchical driver of hier_driver.cuh. */

#include "cuda/block/hier_section.cuh"

/* Scans section first + blockIdx.x of in[] (blockDim.x elements) into out[];
 * the section's total goes to sums[] when sums != NULL. */
SL_GLOBAL SL_KN(ks_scan)(const T *in, T *out, T *sums, size_t n, int shift, size_t first)
{
    SHARED_DYN(T, xy);
    const unsigned t = threadIdx.x, b = blockDim.x;
    const size_t i = (first + blockIdx.x) * (size_t)b + t;
    ST(xy, t, SL_KN(hier_load)(in, i, n, shift));
    for (unsigned stride = 1; stride < b; stride *= 2) {
        SYNCTHREADS();
        T temp = IDENTITY();
        if (t >= stride)
            temp = OP(LD(xy, t - stride), LD(xy, t));
        SYNCTHREADS();
        if (t >= stride)
            ST(xy, t, temp);
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

/* Host driver. a->block threads per block (2..1024, default 1024; no need
 * for a power of two); a->param = 1 scans each section on its own. */
SL_HOST sl_status SL_KN(kogge_stone)(const sl_kargs *a)
{
    const unsigned block = a->block > 0 ? (unsigned)a->block : SL_MAX_BLOCK_THREADS;
    const sl_hier h = {block, block, block * sizeof(T), a->param, a->param == 1};
    if (a->block < 0 || a->param < 0)
        return SL_ERR_ARG;
    return SL_KN(hier_run)(a, &h);
}
