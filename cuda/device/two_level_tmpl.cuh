/* Two-level scan with a fixed grid (Merry, "A performance comparison of
 * sort and scan libraries for GPUs", 2015; the "reduce-then-scan with
 * persistent blocks" of CUDPP/Thrust): C blocks, block c owning the
 * contiguous range c of the input and walking it tile by tile with a
 * running prefix (the carry). Three launches:
 *   1. reduce: block c reduces its range to totals[c];
 *   2. one block scans the C totals (the same range kernel, one range);
 *   3. scan: block c scans its range again, starting from totals[c - 1].
 * Extra memory O(C); global traffic 2n reads, n writes, O(C). C = a->param
 * (default: enough blocks to fill the GPU; 8 in the simulator).
 *
 * Template: compiled once per (T, TN, OPN) through cuda/inst_all.h. */
#include "cuda/device/device_common.h"
#include "cuda/device/block_scan.cuh"

/* Phase 1: totals[c] = the reduction of range c (range_len elements of
 * the virtual input) for c = blockIdx.x. */
SL_GLOBAL SL_KN(tl_reduce)(const T *in, T *totals, size_t n, int shift, size_t range_len)
{
    SHARED(T, warp_sums, SL_MAX_BLOCK_THREADS / SL_WARP_SIZE);
    const size_t lo = (size_t)blockIdx.x * range_len;
    const size_t hi = lo + range_len < n ? lo + range_len : n;
    T acc = IDENTITY();
    for (size_t base = lo; base < hi; base += blockDim.x) {
        T total;
        (void)SL_KN(block_iscan)(SL_KN(load_shifted)(in, base + threadIdx.x, hi, shift), warp_sums, &total);
        acc = base == lo ? total : OP(acc, total);
    }
    if (threadIdx.x == 0)
        ST(totals, blockIdx.x, acc);
}
SL_DEFINE_LAUNCH(SL_KN(tl_reduce), (const T *, in), (T *, totals), (size_t, n), (int, shift),
                 (size_t, range_len))

/* Phases 2 and 3: block c scans range c tile by tile, carrying the running
 * prefix; range c > 0 starts from the carry totals[c - 1] (the scanned
 * totals). With one range and totals = NULL it is a serial tile-loop scan. */
SL_GLOBAL SL_KN(tl_scan)(const T *in, T *out, const T *totals, size_t n, int shift, size_t range_len)
{
    SHARED(T, warp_sums, SL_MAX_BLOCK_THREADS / SL_WARP_SIZE);
    SHARED(T, range_carry, 1);
    const size_t lo = (size_t)blockIdx.x * range_len;
    const size_t hi = lo + range_len < n ? lo + range_len : n;
    int has_carry = blockIdx.x > 0;
    /* thread 0 fetches the range's carry; the first block scan's barriers
     * publish it */
    if (has_carry && threadIdx.x == 0)
        ST(range_carry, 0, LD(totals, blockIdx.x - 1));
    T carry = IDENTITY();
    for (size_t base = lo; base < hi; base += blockDim.x) {
        const size_t i = base + threadIdx.x;
        T total;
        T x = SL_KN(block_iscan)(SL_KN(load_shifted)(in, i, hi, shift), warp_sums, &total);
        if (base == lo && has_carry)
            carry = LD(range_carry, 0);
        if (has_carry)
            x = OP(carry, x);
        if (i < hi)
            ST(out, i, x);
        carry = has_carry ? OP(carry, total) : total;
        has_carry = 1;
    }
}
SL_DEFINE_LAUNCH(SL_KN(tl_scan), (const T *, in), (T *, out), (const T *, totals), (size_t, n), (int, shift),
                 (size_t, range_len))

/* The three launches on the buffers sl_host_run made; ctx is the block
 * size. */
static sl_status SL_KN(tl_dev)(const void *d_in_, void *d_out_, const sl_kargs *a, const void *ctx)
{
    const T *d_in = (const T *)d_in_;
    T *d_out = (T *)d_out_, *d_totals = NULL;
    const unsigned block = *(const unsigned *)ctx;
    size_t ranges = 0, tiles_per_range = 0;
    sl_status st = SL_OK;
#ifdef __CUDACC__
    const int gpu = 1;
#else
    const int gpu = 0;
#endif
    sl_two_level_ranges(a->n, block, a->param, gpu, &ranges, &tiles_per_range);
    const size_t range_len = tiles_per_range * block;
    const int shift = a->exclusive ? 1 : 0;
    if (ranges > 1) {
        SL_TRY(sl_dev_alloc((void **)&d_totals, ranges * sizeof(T)));
        SL_TRY(SL_LAUNCH(tl_reduce)(sl_launch_1d((unsigned)ranges, block, 0), d_in, d_totals, a->n, shift,
                                    range_len));
        /* the C totals, one range covering them all, in place */
        SL_TRY(SL_LAUNCH(tl_scan)(sl_launch_1d(1, block, 0), d_totals, d_totals, NULL, ranges, 0, ranges));
    }
    SL_TRY(SL_LAUNCH(tl_scan)(sl_launch_1d((unsigned)ranges, block, 0), d_in, d_out, d_totals, a->n, shift,
                              range_len));
    /* d_totals is read by the last launch: wait before freeing it */
    SL_TRY(sl_dev_sync());
done:
    sl_dev_free(d_totals);
    return st;
}

/* Host driver: a->block threads per block (power of two, 32..1024,
 * default 256), a->param ranges (blocks). */
SL_HOST sl_status SL_KN(two_level)(const sl_kargs *a)
{
    const unsigned block = sl_dev_block_of(a->block);
    if (block == 0 || a->param < 0)
        return SL_ERR_ARG;
    if (a->n == 0)
        return SL_OK;
    return sl_host_run(a, sizeof(T), a->n, SL_KN(tl_dev), &block);
}
