/* cub::DeviceScan on int64_t elements, every operator of the catalogue. */
#include "cuda/cub/cub_scan.cuh"

extern "C" sl_status cub_scan_cuda_i64(const sl_scan_args *a) { return sl_cub_dispatch<int64_t>(a); }

extern "C" sl_status cub_scan_dev_i64(sl_op op, bool exclusive, const void *in, void *out, size_t n, void *tmp,
                                    size_t *tmp_bytes)
{
    return sl_cub_dev_dispatch<int64_t>(op, exclusive, in, out, n, tmp, tmp_bytes);
}
