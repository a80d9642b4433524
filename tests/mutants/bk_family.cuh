/* A copy of cuda/block/brent_kung_tmpl.cuh (the two-phase in-place
 * Brent-Kung section scan, 2 elements per thread, and its own hierarchical
 * driver) with the mutation points of its mutants; with no MUT_BK_* macro
 * defined it is the catalogue's kernel (the control, bk). See
 * ks_family.cuh for how a mutant uses it. */

SL_GLOBAL SL_KN(bk_scan)(const T *in, T *out, T *sums, size_t n, int shift)
{
    SHARED_DYN(T, xy);
    const unsigned t = threadIdx.x, b = blockDim.x;
    const size_t base = (size_t)2 * b * blockIdx.x;
    for (unsigned h = 0; h < 2; h++) {
        size_t i = base + t + h * b;
        T x = IDENTITY();
#if defined(MUT_BK_NO_LOAD_BOUND)
        if (!shift || i > 0) /* mutated: i < n dropped */
#else
        if (i < n && (!shift || i > 0))
#endif
            x = LD(in, i - (size_t)shift);
        ST(xy, t + h * b, x);
    }
    /* reduction tree */
#if defined(MUT_BK_STRIDE_OFF_BY_ONE)
    for (unsigned stride = 1; stride < b; stride *= 2) { /* mutated: < for <= */
#else
    for (unsigned stride = 1; stride <= b; stride *= 2) {
#endif
        SYNCTHREADS();
        unsigned index = (t + 1) * 2 * stride - 1;
        if (index < 2 * b)
            ST(xy, index, OP(LD(xy, index - stride), LD(xy, index)));
    }
    /* post-reduction reverse phase */
    for (unsigned stride = b / 2; stride > 0; stride /= 2) {
        SYNCTHREADS();
        unsigned index = (t + 1) * 2 * stride - 1;
        if (index + stride < 2 * b)
            ST(xy, index + stride, OP(LD(xy, index), LD(xy, index + stride)));
    }
    SYNCTHREADS();
    for (unsigned h = 0; h < 2; h++) {
        size_t i = base + t + h * b;
        if (i < n)
            ST(out, i, LD(xy, t + h * b));
    }
    if (sums != NULL && t == b - 1)
        ST(sums, blockIdx.x, LD(xy, 2 * b - 1));
}
SL_DEFINE_LAUNCH(SL_KN(bk_scan), (const T *, in), (T *, out), (T *, sums), (size_t, n), (int, shift))

SL_GLOBAL SL_KN(bk_add)(T *out, const T *sums, size_t n)
{
    const unsigned t = threadIdx.x, b = blockDim.x;
    if (blockIdx.x == 0)
        return;
    const T carry = LD(sums, blockIdx.x - 1);
    const size_t base = (size_t)2 * b * blockIdx.x;
    for (unsigned h = 0; h < 2; h++) {
        size_t i = base + t + h * b;
        if (i < n)
            ST(out, i, OP(carry, LD(out, i)));
    }
}
SL_DEFINE_LAUNCH(SL_KN(bk_add), (T *, out), (const T *, sums), (size_t, n))

static sl_status SL_KN(bk_device)(const T *d_in, T *d_out, size_t n, int shift, unsigned block,
                                  int sections_only)
{
    const size_t section = (size_t)2 * block;
    const size_t blocks = (n + section - 1) / section;
    const size_t shmem = section * sizeof(T);
    T *d_sums = NULL;
    sl_status st = SL_OK;
    if (n == 0)
        return SL_OK;
    if (blocks > 1 && !sections_only)
        SL_TRY(sl_dev_alloc((void **)&d_sums, blocks * sizeof(T)));
    SL_TRY(SL_LAUNCH(bk_scan)(sl_launch_1d((unsigned)blocks, block, shmem), d_in, d_out, d_sums, n, shift));
    if (d_sums != NULL) {
        SL_TRY(SL_KN(bk_device)(d_sums, d_sums, blocks, 0, block, 0));
        SL_TRY(SL_LAUNCH(bk_add)(sl_launch_1d((unsigned)blocks, block, 0), d_out, d_sums, n));
    }
done:
    sl_dev_free(d_sums);
    return st;
}

static sl_status SL_KN(bk_dev)(const void *d_in, void *d_out, const sl_kargs *a, const void *ctx)
{
    return SL_KN(bk_device)((const T *)d_in, (T *)d_out, a->n, a->exclusive ? 1 : 0,
                            *(const unsigned *)ctx, a->param == 1);
}

SL_HOST sl_status SL_KN(MUT_NAME)(const sl_kargs *a)
{
    const unsigned block = a->block > 0 ? (unsigned)a->block : SL_MAX_BLOCK_THREADS;
    if ((block & (block - 1)) != 0) /* the tree needs a power of two; the launch checks the limit */
        return SL_ERR_ARG;
    if (a->n == 0)
        return SL_OK;
    return sl_host_run(a, sizeof(T), a->n, SL_KN(bk_dev), &block);
}
