/* LSD radix sort built from scans: ascending total order of the elements
 * (cuda/apps/app_defs.h: integers signed, floats by the IEEE total order
 * with -0.0 before +0.0), stable in every pass.
 *
 * The keys are the order-preserving unsigned images of the elements
 * (sl_app_sort_key). Each pass sorts by the digit of `bits` bits at shift
 * 0, bits, 2 bits, ... (a->param bits, 1..8, default 4; R = 2^bits digit
 * values), from the least significant digit up, as in Satish, Harris and
 * Garland, "Designing efficient sorting algorithms for manycore GPUs"
 * (2009), and Blelloch (1990), over tiles of one element per thread:
 *   1. histogram: per tile and digit d, how many of the tile's elements
 *                 have digit d, stored digit-major: hist[d * tiles + tile];
 *   2. scan:      an exclusive scan of hist in that order: hist[d * tiles +
 *                 tile] becomes the first output position of the tile's
 *                 digit-d elements (all smaller digits, then digit d of the
 *                 tiles before), which is what makes the pass stable;
 *   3. scatter:   per tile, an exclusive scan of "my digit is d" gives each
 *                 element its rank r among the tile's digit-d elements:
 *                 dst[hist[d * tiles + tile] + r] = x.
 * The per-digit flags of phases 1 and 3 are scanned four digits at a time:
 * one 64-bit scan value holds four 16-bit counters (a tile has at most
 * 1024 elements, so a counter cannot overflow), R / 4 scans per tile.
 * Output: cuda/apps/app_defs.h (the count n, then the sorted elements).
 *
 * Template: compiled once per (T, TN, OPN) through cuda/inst_all.h. */
#include "cuda/apps/app_scan.cuh"
#include "cuda/apps/app_arena.cuh"

#ifndef SL_RADIX_LANES
/* Counters per 64-bit scan value, and their width. */
#define SL_RADIX_LANES 4u
#define SL_RADIX_LANE_BITS 16u
#define SL_RADIX_LANE_MASK 0xffffu
#endif

/* The digit of x at shift, digit values 0 .. radix - 1. */
SL_DEVICE unsigned SL_KN(radix_digit)(T x, unsigned shift, unsigned radix)
{
    const uint64_t key = sl_app_sort_key(SL_KN(app_bits)(x), SL_APP_IS_FLOAT, (unsigned)sizeof(T));
    return (unsigned)(key >> shift) & (radix - 1);
}

/* The scan value of an element with digit `digit` for the digit group
 * starting at g: a one in the counter of its digit, if in the group. */
SL_DEVICE uint64_t SL_KN(radix_flag)(bool valid, unsigned digit, unsigned g)
{
    return valid && digit - g < SL_RADIX_LANES ? (uint64_t)1 << (SL_RADIX_LANE_BITS * (digit - g)) : 0;
}

/* Phase 1: hist[d * tiles + tile] = elements of the tile with digit d. */
SL_GLOBAL SL_KN(radix_hist)(const T *src, uint64_t *hist, size_t n, size_t tiles, unsigned shift,
                            unsigned radix)
{
    SHARED(uint64_t, s, SL_MAX_BLOCK_THREADS);
    const unsigned t = threadIdx.x, b = blockDim.x;
    uint64_t total = 0;
    for (size_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        const size_t i = tile * b + t;
        const bool valid = i < n;
        const unsigned digit = valid ? SL_KN(radix_digit)(LD(src, i), shift, radix) : 0;
        for (unsigned g = 0; g < radix; g += SL_RADIX_LANES) {
            SL_KN(app_block_scan)(s, SL_KN(radix_flag)(valid, digit, g), &total);
            if (t < SL_RADIX_LANES && g + t < radix)
                ST(hist, (size_t)(g + t) * tiles + tile,
                   (total >> (SL_RADIX_LANE_BITS * t)) & SL_RADIX_LANE_MASK);
        }
    }
}
SL_DEFINE_LAUNCH(SL_KN(radix_hist), (const T *, src), (uint64_t *, hist), (size_t, n), (size_t, tiles),
                 (unsigned, shift), (unsigned, radix))

/* Phase 3: each element to the first free place of its digit. */
SL_GLOBAL SL_KN(radix_scatter)(const T *src, T *dst, const uint64_t *hist, size_t n, size_t tiles,
                               unsigned shift, unsigned radix)
{
    SHARED(uint64_t, s, SL_MAX_BLOCK_THREADS);
    const unsigned t = threadIdx.x, b = blockDim.x;
    uint64_t total = 0;
    for (size_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        const size_t i = tile * b + t;
        const bool valid = i < n;
        const T x = valid ? LD(src, i) : IDENTITY();
        const unsigned digit = valid ? SL_KN(radix_digit)(x, shift, radix) : 0;
        uint64_t rank = 0;
        for (unsigned g = 0; g < radix; g += SL_RADIX_LANES) {
            const uint64_t before = SL_KN(app_block_scan)(s, SL_KN(radix_flag)(valid, digit, g), &total);
            if (valid && digit - g < SL_RADIX_LANES)
                rank = (before >> (SL_RADIX_LANE_BITS * (digit - g))) & SL_RADIX_LANE_MASK;
        }
        if (valid)
            ST(dst, LD(hist, (size_t)digit * tiles + tile) + rank, x);
    }
}
SL_DEFINE_LAUNCH(SL_KN(radix_scatter), (const T *, src), (T *, dst), (const uint64_t *, hist), (size_t, n),
                 (size_t, tiles), (unsigned, shift), (unsigned, radix))

/* Host driver: a->block threads per block (1..1024, default 256), a->param
 * the digit width in bits (1..8, default 4). The first pass reads the
 * input, the others ping-pong between two device buffers so that the last
 * writes the output's. Inside a device arena (app_arena.cuh) a->in and
 * a->out are those device buffers. */
SL_HOST sl_status SL_KN(radix_sort_3phase)(const sl_kargs *a)
{
    const unsigned block = SL_KN(app_block)(a->block), bits = sl_app_radix_bits(a->param);
    const unsigned key_bits = 8 * (unsigned)sizeof(T);
    const int arena = sl_dev_in_arena();
    T *d_in = NULL, *d_buf[2] = {NULL, NULL};
    uint64_t *d_hist = NULL;
    sl_status st = SL_OK;
    if (block == 0 || bits == 0)
        return SL_ERR_ARG;
    const unsigned radix = 1u << bits, passes = (key_bits + bits - 1) / bits;
    const size_t n = a->n, tiles = (n + block - 1) / block, m = (size_t)radix * tiles + 1;
    const unsigned grid = SL_KN(app_grid)(tiles);
    if (n > 0) {
        if (arena) {
            d_in = (T *)a->in;
            d_buf[0] = (T *)SL_KN(app_data)(a->out);
        } else {
            SL_TRY(sl_dev_alloc((void **)&d_in, n * sizeof(T)));
            SL_TRY(sl_dev_alloc((void **)&d_buf[0], n * sizeof(T)));
            SL_TRY(sl_dev_copy_to(d_in, a->in, n * sizeof(T)));
        }
        SL_TRY(sl_dev_alloc((void **)&d_buf[1], n * sizeof(T)));
        SL_TRY(sl_dev_alloc((void **)&d_hist, m * sizeof *d_hist));
        for (unsigned p = 0; p < passes; p++) {
            /* pass p writes d_buf[(passes - 1 - p) % 2]: the last one d_buf[0] */
            const T *src = p == 0 ? d_in : d_buf[(passes - p) & 1u];
            T *dst = d_buf[(passes - 1 - p) & 1u];
            const unsigned shift = p * bits;
            SL_TRY(sl_dev_memset(d_hist, 0, m * sizeof *d_hist));
            SL_TRY(SL_LAUNCH(radix_hist)(sl_launch_1d(grid, block, 0), src, d_hist, n, tiles, shift, radix));
            SL_TRY(SL_LAUNCH(app_scan_counts)(sl_launch_1d(1, block, 0), d_hist, m));
            SL_TRY(SL_LAUNCH(radix_scatter)(sl_launch_1d(grid, block, 0), src, dst, d_hist, n, tiles, shift,
                                            radix));
        }
        if (!arena) {
            SL_TRY(sl_dev_sync());
            SL_TRY(sl_dev_copy_from(SL_KN(app_data)(a->out), d_buf[0], n * sizeof(T)));
        }
    }
    if (arena)
        SL_TRY(SL_KN(app_arena_count)(a->out, NULL, n));
    else
        SL_KN(app_set_count)(a->out, n);
done:
    if (!arena) {
        sl_dev_free(d_in);
        sl_dev_free(d_buf[0]);
    }
    sl_dev_free(d_buf[1]);
    sl_dev_free(d_hist);
    return st;
}
