/* The multi-block driver shared by the reductions of this folder: every
 * block reduces its tile of B elements to one partial, and the partials
 * are reduced again by the same kernel until one value remains.
 *
 * Included at the end of a reduction template after it defines
 *   SL_REDUCE_KERNEL: the block kernel, (const T *in, T *partial, size_t n):
 *     block b writes the reduction of in[b*B .. b*B+B) (identity padded)
 *     to partial[b], combining earlier elements as the earlier operand;
 *   SL_REDUCE_HOST: the exported host driver's name.
 * Defines T-dependent functions (no include guard on purpose). */
#include "cuda/device/device_common.h"

/* Reduces d_in[0..n) (n >= 1) into d_result[0]: one launch per level. */
static sl_status SL_KN(reduce_levels)(const T *d_in, size_t n, unsigned block, T *d_result)
{
    const size_t blocks = sl_dev_tiles(n, block);
    T *d_part = NULL;
    sl_status st = SL_OK;
    if (blocks > SL_DEV_MAX_GRID_X)
        return SL_ERR_ARG;
    if (blocks == 1)
        return SL_LAUNCH(SL_REDUCE_KERNEL)(sl_launch_1d(1, block, 0), d_in, d_result, n);
    SL_TRY(sl_dev_alloc((void **)&d_part, blocks * sizeof(T)));
    SL_TRY(SL_LAUNCH(SL_REDUCE_KERNEL)(sl_launch_1d((unsigned)blocks, block, 0), d_in, d_part, n));
    SL_TRY(SL_KN(reduce_levels)(d_part, blocks, block, d_result));
done:
    sl_dev_free(d_part);
    return st;
}

/* reduce_levels on the buffers sl_host_run made; ctx is the block size. */
static sl_status SL_KN(reduce_dev)(const void *d_in, void *d_result, const sl_kargs *a, const void *ctx)
{
    return SL_KN(reduce_levels)((const T *)d_in, a->n, *(const unsigned *)ctx, (T *)d_result);
}

/* Host driver: out[0] = the reduction of in[0..n) (the identity for
 * n = 0); a->block threads per block (power of two, 32..1024, default
 * 256). */
SL_HOST sl_status SL_KN(SL_REDUCE_HOST)(const sl_kargs *a)
{
    const unsigned block = sl_dev_block_of(a->block);
    if (block == 0)
        return SL_ERR_ARG;
    if (a->n == 0) {
        const T id = IDENTITY();
        memcpy(a->out, &id, sizeof id);
        return SL_OK;
    }
    return sl_host_run(a, sizeof(T), 1, SL_KN(reduce_dev), &block);
}
