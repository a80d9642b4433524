/* Planted kernel for the deadlock tests: a hang inside one block. Blocks
 * are chained by flags (block b's thread 0 waits for block b - 1's flag,
 * so the kernel waits between blocks), and then only the lower half of
 * each block reaches a barrier: the upper half exits, and the barrier
 * never completes. CUDA leaves this undefined; the simulator reports it as
 * barrier divergence, and `scanlab deadlock` must report that finding, not
 * an inter-block deadlock. Copies in to out (the result is not its point).
 *
 * Template: compiled once per (T, TN, OPN) through cuda/inst_all.h. */

SL_GLOBAL SL_KN(fd_copy)(const T *in, T *out, size_t n, uint32_t *flag)
{
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0 && blockIdx.x > 0)
        while (LD_ACQUIRE(flag, blockIdx.x - 1) == 0) {
        }
    T x = IDENTITY();
    if (i < n)
        x = LD(in, i);
    if (threadIdx.x < blockDim.x / 2)
        SYNCTHREADS(); /* the planted divergence */
    if (i < n)
        ST(out, i, x);
    if (threadIdx.x == 0)
        ST_RELEASE(flag, blockIdx.x, (uint32_t)1);
}
SL_DEFINE_LAUNCH(SL_KN(fd_copy), (const T *, in), (T *, out), (size_t, n), (uint32_t *, flag))

static sl_status SL_KN(fd_dev)(const void *d_in, void *d_out, const sl_kargs *a, const void *ctx)
{
    const unsigned block = a->block > 0 ? (unsigned)a->block : SL_WARP_SIZE;
    const unsigned grid = (unsigned)((a->n + block - 1) / block);
    uint32_t *flag = NULL;
    sl_status st = SL_OK;
    (void)ctx;
    SL_TRY(sl_dev_alloc((void **)&flag, grid * sizeof(uint32_t)));
    SL_TRY(sl_dev_memset(flag, 0, grid * sizeof(uint32_t)));
    SL_TRY(SL_LAUNCH(fd_copy)(sl_launch_1d(grid, block, 0), (const T *)d_in, (T *)d_out, a->n, flag));
done:
    sl_dev_free(flag);
    return st;
}

/* Host driver: a->block threads (default one warp), one element each. */
SL_HOST sl_status SL_KN(flag_divergent)(const sl_kargs *a)
{
    if (a->block < 0 || a->block > SL_MAX_BLOCK_THREADS)
        return SL_ERR_ARG;
    if (a->n == 0)
        return SL_OK;
    return sl_host_run(a, sizeof(T), a->n, SL_KN(fd_dev), NULL);
}
