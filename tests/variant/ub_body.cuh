/* The body of the test variants with undefined behaviour in their source:
 * one warp's shuffle scan (the CUDA samples' shfl_scan), its lane mask
 * computed from the width. UB_SHIFT: the samples' (1 << width) - 1, a
 * shift by the width of int at width 32 (x86 gives mask 0, nvcc happens to
 * give 0xffffffff); otherwise a signed overflow whose wrapped result
 * happens to give the full mask, so that the scan itself is right. The lines marked UB_SITE
 * are what the simulator must name. */

SL_GLOBAL SL_KN(ub_scan)(const T *in, T *out, size_t n, int width, unsigned shift)
{
    const unsigned t = threadIdx.x;
#if defined(UB_SHIFT)
    const unsigned mask = (1 << width) - 1; /* UB_SITE */
#else
    const int span = (INT32_MAX - 31) + width; /* UB_SITE */
    const unsigned mask = span != 0 ? SL_FULL_MASK : 0u;
#endif
    T x = IDENTITY();
    if (t < n && t >= shift)
        x = LD(in, t - shift);
    for (int d = 1; d < width; d *= 2) {
        const T y = SHFL_UP_MASK(mask, x, d);
        if ((int)t >= d)
            x = OP(y, x);
    }
    if (t < n)
        ST(out, t, x);
}
SL_DEFINE_LAUNCH(SL_KN(ub_scan), (const T *, in), (T *, out), (size_t, n), (int, width), (unsigned, shift))

/* Host driver: one warp; more is not this example's business. */
SL_HOST sl_status SL_KN(UB_NAME)(const sl_kargs *a)
{
    const size_t bytes = a->n * sizeof(T);
    T *d_in = NULL, *d_out = NULL;
    sl_status st = SL_OK;
    if (a->n > SL_WARP_SIZE)
        return SL_ERR_UNSUPPORTED;
    if (a->n == 0)
        return SL_OK;
    SL_TRY(sl_dev_alloc((void **)&d_in, bytes));
    SL_TRY(sl_dev_alloc((void **)&d_out, bytes));
    SL_TRY(sl_dev_copy_to(d_in, a->in, bytes));
    SL_TRY(SL_LAUNCH(ub_scan)(sl_launch_1d(1, SL_WARP_SIZE, 0), d_in, d_out, a->n, SL_WARP_SIZE,
                              a->exclusive ? 1u : 0u));
    SL_TRY(sl_dev_sync());
    SL_TRY(sl_dev_copy_from(a->out, d_out, bytes));
done:
    sl_dev_free(d_in);
    sl_dev_free(d_out);
    return st;
}
