/* The body of the Blelloch scan, shared by blelloch_tmpl.cuh (plain shared
 * indices) and blelloch_cf_tmpl.cuh (padded, conflict-free indices).
 * The including file defines, per instantiation:
 *   SL_BL_PAD(i)   the shared slot of logical index i: i + offset(i)
 *   SL_BL_NAME     the host driver's stem (blelloch or blelloch_cf)
 *
 * Blelloch's work-efficient exclusive scan as Harris writes it (GPU Gems 3,
 * ch. 39.2.2): a block of B threads scans a section of m = 2B elements.
 *   up-sweep:   at d = B, B/2, ..., 1 (offset = m / 2d) thread t < d combines
 *               temp[offset (2t+1) - 1] into temp[offset (2t+2) - 1];
 *   clear:      the root takes the identity (its value, the section's total,
 *               is kept in slot m);
 *   down-sweep: at d = 1, 2, ..., B thread t < d passes its prefix to the
 *               left child and prefix (op) left-subtree to the right child.
 * One section of n = 2^k elements (n/2 threads): work 2(n - 1), steps
 * 2 log2 n. The inclusive scan costs nothing more: with the total in slot
 * m, inclusive[j] = exclusive[j + 1] for every j < m. */

#include "cuda/block/hier_section.cuh"

/* Scans section first + blockIdx.x (2 * blockDim.x elements) of in[] into
 * out[], exclusive or inclusive; the section's total goes to sums[]. */
SL_GLOBAL SL_KN(bl_scan)(const T *in, T *out, T *sums, size_t n, int exclusive, size_t first)
{
    SHARED_DYN(T, temp);
    const unsigned t = threadIdx.x, b = blockDim.x, m = 2 * b;
    const size_t base = (first + blockIdx.x) * (size_t)m;
    /* load: elements t and t + B, so that global reads are coalesced */
    ST(temp, SL_BL_PAD(t), SL_KN(hier_load)(in, base + t, n, 0));
    ST(temp, SL_BL_PAD(t + b), SL_KN(hier_load)(in, base + t + b, n, 0));
    /* up-sweep (reduce) */
    unsigned offset = 1;
    for (unsigned d = b; d > 0; d >>= 1) {
        SYNCTHREADS();
        if (t < d) {
            unsigned ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
            ST(temp, SL_BL_PAD(bi), OP(LD(temp, SL_BL_PAD(ai)), LD(temp, SL_BL_PAD(bi))));
        }
        offset *= 2;
    }
    /* clear the root; its value (the total) moves to slot m */
    if (t == 0) {
        ST(temp, SL_BL_PAD(m), LD(temp, SL_BL_PAD(m - 1)));
        ST(temp, SL_BL_PAD(m - 1), IDENTITY());
    }
    /* down-sweep */
    for (unsigned d = 1; d < m; d *= 2) {
        offset >>= 1;
        SYNCTHREADS();
        if (t < d) {
            unsigned ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
            T left = LD(temp, SL_BL_PAD(ai)), prefix = LD(temp, SL_BL_PAD(bi));
            ST(temp, SL_BL_PAD(ai), prefix);
            ST(temp, SL_BL_PAD(bi), OP(prefix, left));
        }
    }
    SYNCTHREADS();
    /* store: exclusive[j] = temp[j], inclusive[j] = temp[j + 1] */
    const unsigned k = exclusive ? 0 : 1;
    if (base + t < n)
        ST(out, base + t, LD(temp, SL_BL_PAD(t + k)));
    if (base + t + b < n)
        ST(out, base + t + b, LD(temp, SL_BL_PAD(t + b + k)));
    if (sums != NULL && t == 0)
        ST(sums, first + blockIdx.x, LD(temp, SL_BL_PAD(m)));
}
SL_DEFINE_LAUNCH(SL_KN(bl_scan), (const T *, in), (T *, out), (T *, sums), (size_t, n), (int, exclusive),
                 (size_t, first))

static sl_status SL_KN(bl_sections)(const T *in, T *out, T *sums, size_t n, int exclusive, size_t first,
                                    unsigned count, const sl_hier *h)
{
    return SL_LAUNCH(bl_scan)(sl_launch_1d(count, h->block, h->shmem), in, out, sums, n, exclusive, first);
}
#define SL_HIER_SECTIONS SL_KN(bl_sections)
#include "cuda/block/hier_driver.cuh"
#undef SL_HIER_SECTIONS

/* Host driver. a->block threads per block (a power of two, 1..1024, default
 * 1024), sections of 2 * block; a->param = 1 scans each section on its own. */
SL_HOST sl_status SL_KN(SL_BL_NAME)(const sl_kargs *a)
{
    const unsigned block = a->block > 0 ? (unsigned)a->block : SL_MAX_BLOCK_THREADS;
    const size_t m = 2 * (size_t)block;
    const sl_hier h = {block, m, ((size_t)SL_BL_PAD(m) + 1) * sizeof(T), a->param, a->param == 1};
    if (a->block < 0 || a->param < 0 || !sl_hier_pow2(block))
        return SL_ERR_ARG;
    return SL_KN(hier_run)(a, &h);
}
