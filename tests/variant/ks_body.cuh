/* The body shared by the test variants: Kogge-Stone over one block of
 * blockDim.x threads, one element per thread, the running value kept in a
 * register. KS_COMBINE(partner, mine) is the variant's combining step;
 * KS_PLANT, when defined, is a statement planted after the first store
 * (a planted bug that leaves the result right). */

SL_GLOBAL SL_KN(ksr_scan)(const T *in, T *out, size_t n, unsigned shift)
{
    SHARED_DYN(T, buf);
    const unsigned t = threadIdx.x;
    T x = IDENTITY();
    if (t < n && t >= shift)
        x = LD(in, t - shift);
    ST(buf, t, x);
#ifdef KS_PLANT
    KS_PLANT
#endif
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        SYNCTHREADS();
        T partner = IDENTITY();
        if (t >= stride)
            partner = LD(buf, t - stride);
        SYNCTHREADS();
        if (t >= stride) {
            x = KS_COMBINE(partner, x);
            ST(buf, t, x);
        }
    }
    if (t < n)
        ST(out, t, x);
}
SL_DEFINE_LAUNCH(SL_KN(ksr_scan), (const T *, in), (T *, out), (size_t, n), (unsigned, shift))

/* Host driver: one block of n threads rounded up to a power of two (at
 * least a warp); n above one block is not this example's business. */
SL_HOST sl_status SL_KN(KS_NAME)(const sl_kargs *a)
{
    const size_t bytes = a->n * sizeof(T);
    unsigned block = SL_WARP_SIZE;
    T *d_in = NULL, *d_out = NULL;
    sl_status st = SL_OK;
    if (a->n > SL_MAX_BLOCK_THREADS)
        return SL_ERR_UNSUPPORTED;
    if (a->n == 0)
        return SL_OK;
    while (block < a->n)
        block *= 2;
    SL_TRY(sl_dev_alloc((void **)&d_in, bytes));
    SL_TRY(sl_dev_alloc((void **)&d_out, bytes));
    SL_TRY(sl_dev_copy_to(d_in, a->in, bytes));
    SL_TRY(SL_LAUNCH(ksr_scan)(sl_launch_1d(1, block, block * sizeof(T)), d_in, d_out, a->n,
                               a->exclusive ? 1u : 0u));
    SL_TRY(sl_dev_sync());
    SL_TRY(sl_dev_copy_from(a->out, d_out, bytes));
done:
    sl_dev_free(d_in);
    sl_dev_free(d_out);
    return st;
}
