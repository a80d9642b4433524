/* Reduce-then-scan (Merrill & Grimshaw, "Parallel scan for stream
 * architectures", 2009; Blelloch's three-phase scan):
 *   1. reduce: every block reduces its tile of B elements to sums[b];
 *   2. the block sums are scanned (by this same procedure, recursively,
 *      until they fit one tile);
 *   3. scan: every block scans its tile again, starting from the carry
 *      sums[b - 1] (the combined total of the tiles before it).
 * Global traffic: 2n reads and n writes, plus O(n / B) for the sums (the
 * scan of phase 1 never leaves the chip).
 *
 * Template: compiled once per (T, TN, OPN) through cuda/inst_all.h. */
#include "cuda/device/device_common.h"
#include "cuda/device/block_scan.cuh"

/* Phase 1: sums[blockIdx.x] = the reduction of the block's tile of the
 * virtual input (shift = 1 for the exclusive scan). */
SL_GLOBAL SL_KN(rts_reduce)(const T *in, T *sums, size_t n, int shift)
{
    SHARED(T, warp_sums, SL_MAX_BLOCK_THREADS / SL_WARP_SIZE);
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    T total;
    (void)SL_KN(block_iscan)(SL_KN(load_shifted)(in, i, n, shift), warp_sums, &total);
    if (threadIdx.x == 0)
        ST(sums, blockIdx.x, total);
}
SL_DEFINE_LAUNCH(SL_KN(rts_reduce), (const T *, in), (T *, sums), (size_t, n), (int, shift))

/* Phase 3: scans the block's tile and combines the carry sums[b - 1]
 * (scanned sums; NULL when there is a single tile) as the earlier operand. */
SL_GLOBAL SL_KN(rts_scan)(const T *in, T *out, const T *sums, size_t n, int shift)
{
    SHARED(T, warp_sums, SL_MAX_BLOCK_THREADS / SL_WARP_SIZE);
    SHARED(T, carry, 1);
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    /* thread 0 fetches the carry; the block scan's barriers publish it */
    if (blockIdx.x > 0 && threadIdx.x == 0)
        ST(carry, 0, LD(sums, blockIdx.x - 1));
    T total;
    T x = SL_KN(block_iscan)(SL_KN(load_shifted)(in, i, n, shift), warp_sums, &total);
    if (i >= n)
        return;
    if (blockIdx.x > 0)
        x = OP(LD(carry, 0), x);
    ST(out, i, x);
}
SL_DEFINE_LAUNCH(SL_KN(rts_scan), (const T *, in), (T *, out), (const T *, sums), (size_t, n), (int, shift))

/* The device-level scan of d_in[0..n) into d_out; d_in may equal d_out
 * when shift = 0 (every element is read and written by one thread), which
 * is how the sums are scanned in place. */
static sl_status SL_KN(rts_device)(const T *d_in, T *d_out, size_t n, int shift, unsigned block)
{
    const size_t blocks = sl_dev_tiles(n, block);
    T *d_sums = NULL;
    sl_status st = SL_OK;
    if (blocks > SL_DEV_MAX_GRID_X)
        return SL_ERR_ARG;
    if (blocks > 1) {
        SL_TRY(sl_dev_alloc((void **)&d_sums, blocks * sizeof(T)));
        SL_TRY(SL_LAUNCH(rts_reduce)(sl_launch_1d((unsigned)blocks, block, 0), d_in, d_sums, n, shift));
        SL_TRY(SL_KN(rts_device)(d_sums, d_sums, blocks, 0, block));
    }
    SL_TRY(SL_LAUNCH(rts_scan)(sl_launch_1d((unsigned)blocks, block, 0), d_in, d_out, d_sums, n, shift));
done:
    sl_dev_free(d_sums);
    return st;
}

/* rts_device on the buffers sl_host_run made; ctx is the block size. */
static sl_status SL_KN(rts_device_dev)(const void *d_in, void *d_out, const sl_kargs *a, const void *ctx)
{
    return SL_KN(rts_device)((const T *)d_in, (T *)d_out, a->n, a->exclusive ? 1 : 0, *(const unsigned *)ctx);
}

/* Host driver: a->block threads per block (power of two, 32..1024,
 * default 256), one element per thread and tile. */
SL_HOST sl_status SL_KN(reduce_then_scan)(const sl_kargs *a)
{
    const unsigned block = sl_dev_block_of(a->block);
    if (block == 0)
        return SL_ERR_ARG;
    if (a->n == 0)
        return SL_OK;
    return sl_host_run(a, sizeof(T), a->n, SL_KN(rts_device_dev), &block);
}
