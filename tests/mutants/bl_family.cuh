/* A copy of cuda/block/blelloch_body.cuh as cuda/block/blelloch_tmpl.cuh
 * instantiates it (plain shared indices), with the mutation points of its
 * mutants; with no MUT_BL_* macro defined it is the catalogue's kernel (the
 * control, bl). See ks_family.cuh for how a mutant uses it. */

#include "cuda/block/hier_section.cuh"

#define MUT_BL_PAD(i) (i)

SL_GLOBAL SL_KN(bl_scan)(const T *in, T *out, T *sums, size_t n, int exclusive, size_t first)
{
    SHARED_DYN(T, temp);
    const unsigned t = threadIdx.x, b = blockDim.x, m = 2 * b;
    const size_t base = (first + blockIdx.x) * (size_t)m;
    ST(temp, MUT_BL_PAD(t), SL_KN(hier_load)(in, base + t, n, 0));
    ST(temp, MUT_BL_PAD(t + b), SL_KN(hier_load)(in, base + t + b, n, 0));
    /* up-sweep (reduce) */
    unsigned offset = 1;
    for (unsigned d = b; d > 0; d >>= 1) {
        SYNCTHREADS();
        if (t < d) {
            unsigned ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
            ST(temp, MUT_BL_PAD(bi), OP(LD(temp, MUT_BL_PAD(ai)), LD(temp, MUT_BL_PAD(bi))));
        }
        offset *= 2;
    }
    /* clear the root; its value (the total) moves to slot m */
    if (t == 0) {
        ST(temp, MUT_BL_PAD(m), LD(temp, MUT_BL_PAD(m - 1)));
#if defined(MUT_BL_ZERO_IDENTITY)
        ST(temp, MUT_BL_PAD(m - 1), (T)0); /* mutated: 0 for the operator's identity */
#else
        ST(temp, MUT_BL_PAD(m - 1), IDENTITY());
#endif
    }
    /* down-sweep */
    for (unsigned d = 1; d < m; d *= 2) {
        offset >>= 1;
        SYNCTHREADS();
        if (t < d) {
            unsigned ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
            T left = LD(temp, MUT_BL_PAD(ai)), prefix = LD(temp, MUT_BL_PAD(bi));
            ST(temp, MUT_BL_PAD(ai), prefix);
            ST(temp, MUT_BL_PAD(bi), OP(prefix, left));
        }
    }
    SYNCTHREADS();
    /* store: exclusive[j] = temp[j], inclusive[j] = temp[j + 1] */
    const unsigned k = exclusive ? 0 : 1;
    if (base + t < n)
        ST(out, base + t, LD(temp, MUT_BL_PAD(t + k)));
    if (base + t + b < n)
        ST(out, base + t + b, LD(temp, MUT_BL_PAD(t + b + k)));
    if (sums != NULL && t == 0)
        ST(sums, first + blockIdx.x, LD(temp, MUT_BL_PAD(m)));
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

SL_HOST sl_status SL_KN(MUT_NAME)(const sl_kargs *a)
{
    const unsigned block = a->block > 0 ? (unsigned)a->block : SL_MAX_BLOCK_THREADS;
    const size_t m = 2 * (size_t)block;
    const sl_hier h = {block, m, ((size_t)MUT_BL_PAD(m) + 1) * sizeof(T), a->param, a->param == 1};
    if (a->block < 0 || a->param < 0 || !sl_hier_pow2(block))
        return SL_ERR_ARG;
    return SL_KN(hier_run)(a, &h);
}
