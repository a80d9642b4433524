/* Hierarchical scan (scan, scan the section sums, add back).
 *
 * The textbook device-level scan (Kirk & Hwu, "Programming Massively
 * Parallel Processors", ch. "Parallel scan", hierarchical scan; Harris,
 * Sengupta & Owens, GPU Gems 3 ch. 39):
 *   1. every block scans its section of B elements (one per thread) with
 *      the warp-shuffle block scan and writes the section total to sums[];
 *   2. the sums are scanned by the same procedure, recursively, until they
 *      fit one section;
 *   3. an add-back kernel combines sums[b - 1] into every element of
 *      section b (b >= 1).
 * Global traffic: n reads + n writes (1), n - B reads + n - B writes (3),
 * plus O(n / B) for the sums: about 4n elements.
 *
 * Template: compiled once per (T, TN, OPN) through cuda/inst_all.h. */
#include "cuda/device/device_common.h"
#include "cuda/device/block_scan.cuh"

/* Phase 1: scans section blockIdx.x of the virtual input (shift = 1: the
 * exclusive scan's in[i - 1]) into out[]; thread B - 1 writes the section
 * total to sums[blockIdx.x] when sums != NULL. */
SL_GLOBAL SL_KN(hier_scan)(const T *in, T *out, T *sums, size_t n, int shift)
{
    SHARED(T, warp_sums, SL_MAX_BLOCK_THREADS / SL_WARP_SIZE);
    const unsigned t = threadIdx.x, b = blockDim.x;
    const size_t i = (size_t)blockIdx.x * b + t;
    T total;
    T x = SL_KN(block_iscan)(SL_KN(load_shifted)(in, i, n, shift), warp_sums, &total);
    if (i < n)
        ST(out, i, x);
    if (sums != NULL && t == b - 1)
        ST(sums, blockIdx.x, total);
}
SL_DEFINE_LAUNCH(SL_KN(hier_scan), (const T *, in), (T *, out), (T *, sums), (size_t, n), (int, shift))

/* Phase 3: combines the scanned total of the sections before section b
 * into every element of section b; block 0 has nothing to add. Thread 0
 * reads the carry once and shares it, so the block reads one element of
 * sums[] rather than one per thread. */
SL_GLOBAL SL_KN(hier_add)(T *out, const T *sums, size_t n)
{
    SHARED(T, carry, 1);
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (blockIdx.x == 0)
        return;
    if (threadIdx.x == 0)
        ST(carry, 0, LD(sums, blockIdx.x - 1));
    SYNCTHREADS();
    if (i < n)
        ST(out, i, OP(LD(carry, 0), LD(out, i)));
}
SL_DEFINE_LAUNCH(SL_KN(hier_add), (T *, out), (const T *, sums), (size_t, n))

/* The device-level scan of d_in[0..n) into d_out (d_in may equal d_out
 * when shift = 0): recursion on the section sums for any depth. */
static sl_status SL_KN(hier_device)(const T *d_in, T *d_out, size_t n, int shift, unsigned block)
{
    const size_t blocks = sl_dev_tiles(n, block);
    T *d_sums = NULL;
    sl_status st = SL_OK;
    if (blocks > SL_DEV_MAX_GRID_X)
        return SL_ERR_ARG;
    if (blocks > 1)
        SL_TRY(sl_dev_alloc((void **)&d_sums, blocks * sizeof(T)));
    SL_TRY(SL_LAUNCH(hier_scan)(sl_launch_1d((unsigned)blocks, block, 0), d_in, d_out, d_sums, n, shift));
    if (d_sums != NULL) {
        SL_TRY(SL_KN(hier_device)(d_sums, d_sums, blocks, 0, block));
        SL_TRY(SL_LAUNCH(hier_add)(sl_launch_1d((unsigned)blocks, block, 0), d_out, d_sums, n));
    }
done:
    sl_dev_free(d_sums);
    return st;
}

/* hier_device on the buffers sl_host_run made; ctx is the block size. */
static sl_status SL_KN(hier_device_dev)(const void *d_in, void *d_out, const sl_kargs *a, const void *ctx)
{
    return SL_KN(hier_device)((const T *)d_in, (T *)d_out, a->n, a->exclusive ? 1 : 0, *(const unsigned *)ctx);
}

/* Host driver: a->block threads per block (power of two, 32..1024,
 * default 256), one element per thread. */
SL_HOST sl_status SL_KN(hierarchical)(const sl_kargs *a)
{
    const unsigned block = sl_dev_block_of(a->block);
    if (block == 0)
        return SL_ERR_ARG;
    if (a->n == 0)
        return SL_OK;
    return sl_host_run(a, sizeof(T), a->n, SL_KN(hier_device_dev), &block);
}
