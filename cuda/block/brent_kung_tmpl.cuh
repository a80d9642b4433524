/* Brent-Kung scan: the two-phase in-place inclusive scan of the lecture.
 *
 * One block of B threads scans a section of 2B elements in shared memory,
 * two elements per thread:
 *   reduction (up-sweep): at stride s = 1, 2, ..., B thread t combines
 *     xy[(t+1)*2s - 1 - s] into xy[(t+1)*2s - 1], one barrier per level;
 *   post-reduction reverse (down-sweep): at stride s = B/2, ..., 1 thread t
 *     combines xy[(t+1)*2s - 1] into xy[(t+1)*2s - 1 + s].
 * For one section of n = 2^k elements: work 2n - 2 - log2 n, steps
 * 2 log2 n - 1.
 *
 * Device level (any n): the hierarchical scheme. Every block scans its
 * section and writes the section's total to sums[]; the sums are scanned
 * by the same driver recursively, and an add-back kernel combines
 * sums[b-1] into every element of section b. An exclusive scan loads the
 * input shifted by one (the identity at index 0).
 *
 * Template: compiled once per (T, TN, OPN) through cuda/inst_all.h. */

/* Scans section blockIdx.x of in[] (2 * blockDim.x elements) into out[];
 * with sums != NULL, thread B-1 writes the section's total to
 * sums[blockIdx.x]. shift = 1 loads in[i - 1] (identity at 0). */
SL_GLOBAL SL_KN(bk_scan)(const T *in, T *out, T *sums, size_t n, int shift)
{
    SHARED_DYN(T, xy);
    const unsigned t = threadIdx.x, b = blockDim.x;
    const size_t base = (size_t)2 * b * blockIdx.x;
    for (unsigned h = 0; h < 2; h++) {
        size_t i = base + t + h * b;
        T x = IDENTITY();
        if (i < n && (!shift || i > 0))
            x = LD(in, i - (size_t)shift);
        ST(xy, t + h * b, x);
    }
    /* reduction tree */
    for (unsigned stride = 1; stride <= b; stride *= 2) {
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

/* Combines the scanned total of the sections before section b into every
 * element of section b (b >= 1; block 0 has nothing to add). */
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

/* The device-level scan of d_in[0..n) into d_out (d_in may equal d_out
 * when shift = 0), sections of 2 * block elements. */
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
    /* inside the recursion, the sections are the totals of the level below */
    const char *role0 = sl_launch_role(NULL);
    sl_launch_role(role0 ? "totals scan" : "section scan");
    if (blocks > 1 && !sections_only)
        SL_TRY(sl_dev_alloc((void **)&d_sums, blocks * sizeof(T)));
    SL_TRY(SL_LAUNCH(bk_scan)(sl_launch_1d((unsigned)blocks, block, shmem), d_in, d_out, d_sums, n, shift));
    if (d_sums != NULL) {
        SL_TRY(SL_KN(bk_device)(d_sums, d_sums, blocks, 0, block, 0));
        sl_launch_role("add-back");
        SL_TRY(SL_LAUNCH(bk_add)(sl_launch_1d((unsigned)blocks, block, 0), d_out, d_sums, n));
    }
done:
    sl_launch_role(role0);
    sl_dev_free(d_sums);
    return st;
}

/* bk_device on the buffers sl_host_run made; ctx is the block size. */
static sl_status SL_KN(bk_dev)(const void *d_in, void *d_out, const sl_kargs *a, const void *ctx)
{
    return SL_KN(bk_device)((const T *)d_in, (T *)d_out, a->n, a->exclusive ? 1 : 0,
                            *(const unsigned *)ctx, a->param == 1);
}

/* Host driver: copy in, scan, copy out. a->block threads per block (a power
 * of two, default 1024); a->param = 1 scans each section independently
 * (the block-level kernel alone, as `scanlab bench --backend sim` times it). */
SL_HOST sl_status SL_KN(brent_kung)(const sl_kargs *a)
{
    const unsigned block = a->block > 0 ? (unsigned)a->block : SL_MAX_BLOCK_THREADS;
    if ((block & (block - 1)) != 0) /* the tree needs a power of two; the launch checks the limit */
        return SL_ERR_ARG;
    if (a->n == 0)
        return SL_OK;
    return sl_host_run(a, sizeof(T), a->n, SL_KN(bk_dev), &block);
}
