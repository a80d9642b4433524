/* cub_scan_cuda: the entry of the algorithm table, by element type. */
#include "cuda/cub/cub_scan.h"

extern "C" sl_status sl_cuda_ready(void); /* cuda/cuda_ready.cu */

extern "C" sl_status cub_scan_cuda(const sl_scan_args *a)
{
    sl_status st = sl_cuda_ready();
    if (st != SL_OK)
        return st;
    switch (a->type) {
    case SL_I32: return cub_scan_cuda_i32(a);
    case SL_I64: return cub_scan_cuda_i64(a);
    case SL_F32: return cub_scan_cuda_f32(a);
    case SL_F64: return cub_scan_cuda_f64(a);
    default: return SL_ERR_UNSUPPORTED;
    }
}

extern "C" sl_status cub_scan_dev(sl_type type, sl_op op, bool exclusive, const void *in, void *out, size_t n,
                                  void *tmp, size_t *tmp_bytes)
{
    switch (type) {
    case SL_I32: return cub_scan_dev_i32(op, exclusive, in, out, n, tmp, tmp_bytes);
    case SL_I64: return cub_scan_dev_i64(op, exclusive, in, out, n, tmp, tmp_bytes);
    case SL_F32: return cub_scan_dev_f32(op, exclusive, in, out, n, tmp, tmp_bytes);
    case SL_F64: return cub_scan_dev_f64(op, exclusive, in, out, n, tmp, tmp_bytes);
    default: return SL_ERR_UNSUPPORTED;
    }
}
