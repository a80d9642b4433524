/* Thread-coarsened three-phase scan (Hwu, Kirk, El Hajj, "Programming
 * Massively Parallel Processors", 4th ed., ch. 11.6): a block of B threads
 * scans a tile of B C elements (C = a->param, default 8).
 *   load:    the tile is copied to shared memory coalesced (element j B + t
 *            by thread t), then each thread owns the contiguous section
 *            [t C, t C + C);
 *   phase 1: each thread scans its section sequentially (C - 1 operations);
 *   phase 2: Kogge-Stone over the B section totals xy[t C + C - 1];
 *   phase 3: each thread t > 0 combines the scanned total of section t - 1
 *            into its first C - 1 elements.
 * One tile, B a power of two: work B(C-1) + B log2 B - (B-1) + (B-1)(C-1),
 * steps 2(C-1) + log2 B.
 * Any n: the hierarchical driver of hier_driver.cuh. */

#include "cuda/block/hier_section.cuh"

/* Scans tile first + blockIdx.x (blockDim.x * coarse elements). */
SL_GLOBAL SL_KN(co_scan)(const T *in, T *out, T *sums, size_t n, int shift, size_t first, unsigned coarse)
{
    SHARED_DYN(T, xy);
    const unsigned t = threadIdx.x, b = blockDim.x, tile = b * coarse;
    const size_t base = (first + blockIdx.x) * (size_t)tile;
    for (unsigned j = 0; j < coarse; j++)
        ST(xy, j * b + t, SL_KN(hier_load)(in, base + j * b + t, n, shift));
    SYNCTHREADS();
    /* phase 1: sequential scan of the thread's own section, the running
     * value kept in a register: each element is loaded once. (Written as
     * xy[j] = xy[j - 1] op xy[j], nvcc kept the stored value in a register
     * only within its unrolled chunks of the loop, and the GPU issued a
     * number of loads that depended on the unrolling.) */
    const unsigned s0 = t * coarse, last = s0 + coarse - 1;
    T run = LD(xy, s0);
    for (unsigned j = 1; j < coarse; j++) {
        run = OP(run, LD(xy, s0 + j));
        ST(xy, s0 + j, run);
    }
    /* phase 2: Kogge-Stone over the section totals */
    for (unsigned stride = 1; stride < b; stride *= 2) {
        SYNCTHREADS();
        T temp = IDENTITY();
        if (t >= stride)
            temp = OP(LD(xy, last - stride * coarse), LD(xy, last));
        SYNCTHREADS();
        if (t >= stride)
            ST(xy, last, temp);
    }
    SYNCTHREADS();
    /* phase 3: add the total of the sections before */
    if (t > 0) {
        const T carry = LD(xy, s0 - 1);
        for (unsigned j = 0; j + 1 < coarse; j++)
            ST(xy, s0 + j, OP(carry, LD(xy, s0 + j)));
    }
    SYNCTHREADS();
    for (unsigned j = 0; j < coarse; j++)
        if (base + j * b + t < n)
            ST(out, base + j * b + t, LD(xy, j * b + t));
    if (sums != NULL && t == b - 1)
        ST(sums, first + blockIdx.x, LD(xy, tile - 1));
}
SL_DEFINE_LAUNCH(SL_KN(co_scan), (const T *, in), (T *, out), (T *, sums), (size_t, n), (int, shift),
                 (size_t, first), (unsigned, coarse))

static sl_status SL_KN(co_sections)(const T *in, T *out, T *sums, size_t n, int exclusive, size_t first,
                                    unsigned count, const sl_hier *h)
{
    return SL_LAUNCH(co_scan)(sl_launch_1d(count, h->block, h->shmem), in, out, sums, n, exclusive, first,
                              (unsigned)h->param);
}
#define SL_HIER_SECTIONS SL_KN(co_sections)
#include "cuda/block/hier_driver.cuh"
#undef SL_HIER_SECTIONS

/* Host driver. a->param = coarsening factor C (default 8); a->block threads
 * per block (1..1024, default 256); tiles of block * C elements (at most
 * 48 KiB of shared memory, at least 2 elements). */
SL_HOST sl_status SL_KN(coarsened)(const sl_kargs *a)
{
    const unsigned block = a->block > 0 ? (unsigned)a->block : 256;
    const unsigned coarse = a->param > 0 ? (unsigned)a->param : 8;
    if (a->block < 0 || a->param < 0 || block > SL_MAX_BLOCK_THREADS ||
        (size_t)coarse > SL_BLOCK_SHARED_BYTES / sizeof(T))
        return SL_ERR_ARG;
    const size_t tile = (size_t)block * coarse;
    const sl_hier h = {block, tile, tile * sizeof(T), (int)coarse, false};
    return SL_KN(hier_run)(a, &h);
}
