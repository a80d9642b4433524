/* The hybrid scan of Sengupta, Lefohn and Owens ("A work-efficient
 * step-efficient prefix sum algorithm", Workshop on Edge Computing Using
 * New Commodity Architectures, 2006): reduce like Brent-Kung until the
 * level left has as many nodes as there are threads, scan that level
 * step-efficiently with Hillis-Steele, then sweep back down.
 * A block of B threads (a power of two) scans S = B 2^p elements in place,
 * p = a->param reduce passes (default 2; D = 2^p):
 *   reduce:        p levels of the binary up-sweep (strides 1 .. D/2);
 *   Hillis-Steele: over the B nodes (t+1) D - 1, one per thread;
 *   down-sweep:    p levels of the binary down-sweep (strides D/2 .. 1).
 * One section: work 2(S - B) - p + B log2 B - (B - 1), steps
 * 2(2^p - 1) + log2 B (a thread handles 2^(p-1)/s nodes at stride s).
 * Any n: the hierarchical driver of hier_driver.cuh. */

#include "cuda/block/hier_section.cuh"

/* Scans section first + blockIdx.x (blockDim.x << passes elements). */
SL_GLOBAL SL_KN(sg_scan)(const T *in, T *out, T *sums, size_t n, int shift, size_t first, unsigned passes)
{
    SHARED_DYN(T, xy);
    const unsigned t = threadIdx.x, b = blockDim.x, d = 1u << passes, section = b << passes;
    const size_t base = (first + blockIdx.x) * (size_t)section;
    for (unsigned i = t; i < section; i += b)
        ST(xy, i, SL_KN(hier_load)(in, base + i, n, shift));
    /* reduce: p passes */
    for (unsigned s = 1; s < d; s *= 2) {
        SYNCTHREADS();
        for (unsigned j = t; j < section / (2 * s); j += b) {
            unsigned index = (j + 1) * 2 * s - 1;
            ST(xy, index, OP(LD(xy, index - s), LD(xy, index)));
        }
    }
    /* Hillis-Steele over node (t+1) D - 1 */
    const unsigned me = (t + 1) * d - 1;
    for (unsigned stride = 1; stride < b; stride *= 2) {
        SYNCTHREADS();
        T temp = IDENTITY();
        if (t >= stride)
            temp = OP(LD(xy, me - stride * d), LD(xy, me));
        SYNCTHREADS();
        if (t >= stride)
            ST(xy, me, temp);
    }
    /* down-sweep: p passes */
    for (unsigned s = d / 2; s >= 1; s /= 2) {
        SYNCTHREADS();
        for (unsigned j = t; j + 1 < section / (2 * s); j += b) {
            unsigned index = (j + 1) * 2 * s - 1;
            ST(xy, index + s, OP(LD(xy, index), LD(xy, index + s)));
        }
    }
    SYNCTHREADS();
    for (unsigned i = t; i < section; i += b)
        if (base + i < n)
            ST(out, base + i, LD(xy, i));
    if (sums != NULL && t == b - 1)
        ST(sums, first + blockIdx.x, LD(xy, section - 1));
}
SL_DEFINE_LAUNCH(SL_KN(sg_scan), (const T *, in), (T *, out), (T *, sums), (size_t, n), (int, shift),
                 (size_t, first), (unsigned, passes))

static sl_status SL_KN(sg_sections)(const T *in, T *out, T *sums, size_t n, int exclusive, size_t first,
                                    unsigned count, const sl_hier *h)
{
    return SL_LAUNCH(sg_scan)(sl_launch_1d(count, h->block, h->shmem), in, out, sums, n, exclusive, first,
                              (unsigned)h->param);
}
#define SL_HIER_SECTIONS SL_KN(sg_sections)
#include "cuda/block/hier_driver.cuh"
#undef SL_HIER_SECTIONS

/* The largest number of reduce passes accepted (sections of B 2^p). */
#define SL_SENGUPTA_MAX_PASSES 12

/* Host driver. a->param = reduce passes p (1..12, default 2); a->block
 * threads per block (a power of two, default 256); sections of block << p
 * elements (at most 48 KiB of shared memory). */
SL_HOST sl_status SL_KN(sengupta)(const sl_kargs *a)
{
    const unsigned block = a->block > 0 ? (unsigned)a->block : 256;
    const unsigned p = a->param > 0 ? (unsigned)a->param : 2;
    if (a->block < 0 || a->param < 0 || !sl_hier_pow2(block) || p > SL_SENGUPTA_MAX_PASSES)
        return SL_ERR_ARG;
    const size_t section = (size_t)block << p;
    const sl_hier h = {block, section, section * sizeof(T), (int)p, false};
    return SL_KN(hier_run)(a, &h);
}
