/* Kogge-Stone scan, double-buffered (Harris, "Parallel Prefix Sum (Scan)
 * with CUDA", GPU Gems 3, ch. 39, the naive scan): two shared arrays swap
 * roles at every step; each step reads only the input buffer and writes
 * only the output buffer, so one barrier per step suffices.
 * For one section of n = 2^k elements: work n log2 n - (n - 1), steps
 * log2 n, log2 n barriers (the in-place version needs 2 log2 n).
 * Any n: the hierarchical driver of hier_driver.cuh. */

#include "cuda/block/hier_section.cuh"

/* Scans section first + blockIdx.x (blockDim.x elements) through the
 * buffers buf[0..B) and buf[B..2B). */
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
        /* the element's own load and the store are common to both
         * paths (one instruction each, which diverged lanes issue
         * together), and only the earlier operand's load is conditional.
         * nvcc compiled the two-branch form this way for 4-byte types
         * (the H100 counted the same shared instructions before and after
         * this rewrite); for 8-byte types it had kept the element's load
         * in each branch. Written so, the simulator counts what the GPU issues
         * (docs/model-fidelity.md). */
        T v = LD(buf, pin * b + t);
        if (t >= stride)
            v = OP(LD(buf, pin * b + t - stride), v);
        ST(buf, pout * b + t, v);
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

/* Host driver. a->block threads per block (2..1024, default 1024);
 * a->param = 1 scans each section on its own. */
SL_HOST sl_status SL_KN(kogge_stone_db)(const sl_kargs *a)
{
    const unsigned block = a->block > 0 ? (unsigned)a->block : SL_MAX_BLOCK_THREADS;
    const sl_hier h = {block, block, 2 * (size_t)block * sizeof(T), a->param, a->param == 1};
    if (a->block < 0 || a->param < 0)
        return SL_ERR_ARG;
    return SL_KN(hier_run)(a, &h);
}
