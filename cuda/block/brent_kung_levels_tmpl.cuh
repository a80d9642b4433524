/* Brent-Kung scan, out of place by levels: every level of the reduction
 * tree is stored contiguously in shared memory, level 0 (the m = 2B
 * elements of the section) at [0, m), level 1 (m/2 pair sums) right after
 * it, and so on up to the root, 2m - 1 slots in all.
 *   up-sweep:   level l+1 node j = level l node 2j (op) node 2j+1;
 *   down-sweep: from the top, every level is replaced by its inclusive
 *               scan: node 2j+1 takes its parent's scanned value, node 2j
 *               takes the scanned parent j-1 (op) its own value.
 * Thread t touches slots 2t and 2t+1 of a level, or slot t of the level
 * above: stride 1 or 2, so a warp access needs at most 2 wavefronts per
 * 4-byte element whatever the level, where the in-place tree's strides
 * reach 32-way conflicts.
 * One section of n = 2^k elements (n/2 threads): work 2n - 2 - log2 n,
 * steps 2 log2 n - 1 (as the in-place Brent-Kung).
 * Any n: the hierarchical driver of hier_driver.cuh. */

#include "cuda/block/hier_section.cuh"

/* Scans section first + blockIdx.x (2 * blockDim.x elements). */
SL_GLOBAL SL_KN(bkl_scan)(const T *in, T *out, T *sums, size_t n, int shift, size_t first)
{
    SHARED_DYN(T, lv);
    const unsigned t = threadIdx.x, b = blockDim.x, m = 2 * b;
    const size_t base = (first + blockIdx.x) * (size_t)m;
    ST(lv, t, SL_KN(hier_load)(in, base + t, n, shift));
    ST(lv, t + b, SL_KN(hier_load)(in, base + t + b, n, shift));
    /* up-sweep: level of cnt nodes at src -> level of cnt/2 nodes at src + cnt */
    unsigned src = 0;
    for (unsigned cnt = m; cnt > 1; cnt /= 2) {
        SYNCTHREADS();
        if (t < cnt / 2)
            ST(lv, src + cnt + t, OP(LD(lv, src + 2 * t), LD(lv, src + 2 * t + 1)));
        src += cnt;
    }
    /* down-sweep: the level of cnt nodes below the scanned level at `up` */
    for (unsigned cnt = 2; cnt <= m; cnt *= 2) {
        const unsigned up = src;
        src -= cnt;
        SYNCTHREADS();
        if (t < cnt / 2) {
            T even = LD(lv, src + 2 * t);
            if (t > 0)
                even = OP(LD(lv, up + t - 1), even);
            ST(lv, src + 2 * t, even);
            ST(lv, src + 2 * t + 1, LD(lv, up + t));
        }
    }
    SYNCTHREADS();
    if (base + t < n)
        ST(out, base + t, LD(lv, t));
    if (base + t + b < n)
        ST(out, base + t + b, LD(lv, t + b));
    if (sums != NULL && t == b - 1)
        ST(sums, first + blockIdx.x, LD(lv, m - 1));
}
SL_DEFINE_LAUNCH(SL_KN(bkl_scan), (const T *, in), (T *, out), (T *, sums), (size_t, n), (int, shift),
                 (size_t, first))

static sl_status SL_KN(bkl_sections)(const T *in, T *out, T *sums, size_t n, int exclusive, size_t first,
                                     unsigned count, const sl_hier *h)
{
    return SL_LAUNCH(bkl_scan)(sl_launch_1d(count, h->block, h->shmem), in, out, sums, n, exclusive, first);
}
#define SL_HIER_SECTIONS SL_KN(bkl_sections)
#include "cuda/block/hier_driver.cuh"
#undef SL_HIER_SECTIONS

/* Host driver. a->block threads per block (a power of two, 1..1024, default
 * 1024), sections of 2 * block; a->param = 1 scans each section on its own. */
SL_HOST sl_status SL_KN(brent_kung_levels)(const sl_kargs *a)
{
    const unsigned block = a->block > 0 ? (unsigned)a->block : SL_MAX_BLOCK_THREADS;
    const size_t m = 2 * (size_t)block;
    const sl_hier h = {block, m, (2 * m - 1) * sizeof(T), a->param, a->param == 1};
    if (a->block < 0 || a->param < 0 || !sl_hier_pow2(block))
        return SL_ERR_ARG;
    return SL_KN(hier_run)(a, &h);
}
