/* Brent-Kung scan on a radix-k tree (k = a->param, default 4): the binary
 * tree's pairs become groups of k. A block of B threads scans a section of
 * S = k^M elements, the largest power of k not above k B, in place.
 *   up-sweep:   at stride s = 1, k, k^2, ... < S, thread g scans the k
 *               nodes g k s + j s - 1 (j = 1..k) of its group sequentially
 *               (k - 1 operations), so that node j holds the reduction of
 *               the group's first j s elements;
 *   down-sweep: at stride s = S/k^2, ..., 1, thread g >= 1 combines the
 *               scanned value just before its group, xy[g k s - 1], into
 *               the group's nodes j = 1..k-1 (the last one is already done).
 * One section (S = k^M): work 2S - 1 - k - (k-1)(M-1), steps (2M-1)(k-1);
 * k = 2 gives the binary Brent-Kung numbers 2S - 2 - log2 S, 2 log2 S - 1.
 * Any n: the hierarchical driver of hier_driver.cuh. */

#include "cuda/block/hier_section.cuh"

/* Scans section first + blockIdx.x (S = section elements) with radix k. */
SL_GLOBAL SL_KN(bkr_scan)(const T *in, T *out, T *sums, size_t n, int shift, size_t first, unsigned section,
                          unsigned k)
{
    SHARED_DYN(T, xy);
    const unsigned t = threadIdx.x, b = blockDim.x;
    const size_t base = (first + blockIdx.x) * (size_t)section;
    for (unsigned i = t; i < section; i += b)
        ST(xy, i, SL_KN(hier_load)(in, base + i, n, shift));
    /* up-sweep: scan each group of k nodes */
    for (unsigned s = 1; s < section; s *= k) {
        SYNCTHREADS();
        const unsigned g0 = t * k * s;
        if (g0 < section) {
            T acc = LD(xy, g0 + s - 1);
            for (unsigned j = 2; j <= k; j++) {
                acc = OP(acc, LD(xy, g0 + j * s - 1));
                ST(xy, g0 + j * s - 1, acc);
            }
        }
    }
    /* down-sweep: carry into the groups after the first */
    for (unsigned s = section / k / k; s >= 1; s /= k) {
        SYNCTHREADS();
        const unsigned g0 = t * k * s;
        if (t > 0 && g0 < section) {
            const T carry = LD(xy, g0 - 1);
            for (unsigned j = 1; j < k; j++)
                ST(xy, g0 + j * s - 1, OP(carry, LD(xy, g0 + j * s - 1)));
        }
    }
    SYNCTHREADS();
    for (unsigned i = t; i < section; i += b)
        if (base + i < n)
            ST(out, base + i, LD(xy, i));
    if (sums != NULL && t == 0)
        ST(sums, first + blockIdx.x, LD(xy, section - 1));
}
SL_DEFINE_LAUNCH(SL_KN(bkr_scan), (const T *, in), (T *, out), (T *, sums), (size_t, n), (int, shift),
                 (size_t, first), (unsigned, section), (unsigned, k))

static sl_status SL_KN(bkr_sections)(const T *in, T *out, T *sums, size_t n, int exclusive, size_t first,
                                     unsigned count, const sl_hier *h)
{
    return SL_LAUNCH(bkr_scan)(sl_launch_1d(count, h->block, h->shmem), in, out, sums, n, exclusive, first,
                               (unsigned)h->section, (unsigned)h->param);
}
#define SL_HIER_SECTIONS SL_KN(bkr_sections)
#include "cuda/block/hier_driver.cuh"
#undef SL_HIER_SECTIONS

/* Host driver. a->param = radix k (2..1024, default 4); a->block threads per
 * block (1..1024, default 256); the section is the largest power of k not
 * above k * block (it must fit in 48 KiB of shared memory). */
SL_HOST sl_status SL_KN(brent_kung_radix)(const sl_kargs *a)
{
    const unsigned block = a->block > 0 ? (unsigned)a->block : 256;
    const unsigned k = a->param > 0 ? (unsigned)a->param : 4;
    size_t section = 1;
    if (a->block < 0 || a->param < 0 || block > SL_MAX_BLOCK_THREADS || k < 2 || k > SL_MAX_BLOCK_THREADS)
        return SL_ERR_ARG;
    while (section * k <= (size_t)k * block)
        section *= k;
    const sl_hier h = {block, section, section * sizeof(T), (int)k, false};
    return SL_KN(hier_run)(a, &h);
}
