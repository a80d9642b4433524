/* CUB's cub::DeviceScan as an entry of the algorithm table: the vendor scan
 * that the kernels of this project are compared with, and the baseline of
 * 'scanlab verify --repeat' (its decoupled look-back adds the predecessors'
 * partials in whatever order their status words arrive, so a float add scan
 * need not give the same bits twice). Built only with CUDA. */
#ifndef SCANLAB_CUB_SCAN_H
#define SCANLAB_CUB_SCAN_H

#include "verify/harness/algos.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Copy a->in to the GPU, scan it there with cub::DeviceScan (InclusiveSum /
 * ExclusiveSum for add, InclusiveScan / ExclusiveScan with the catalogue's
 * operator otherwise), copy the result to a->out. Any n, 0 and > 2^31
 * included. SL_ERR_NO_GPU without a GPU, SL_ERR_NOMEM when the GPU has not
 * the memory, SL_ERR_CUDA when a CUDA call fails. */
sl_status cub_scan_cuda(const sl_scan_args *a);

/* The compensated (TwoSum pair) add-scan on the GPU, float types and add
 * only (SL_ERR_UNSUPPORTED otherwise): cuda/cub/compensated.cu. */
sl_status compensated_cuda(const sl_scan_args *a);

/* The same for one element type each (one nvcc compilation per type). */
sl_status cub_scan_cuda_i32(const sl_scan_args *a);
sl_status cub_scan_cuda_i64(const sl_scan_args *a);
sl_status cub_scan_cuda_f32(const sl_scan_args *a);
sl_status cub_scan_cuda_f64(const sl_scan_args *a);

/* cub::DeviceScan out of place on device buffers in and out (n elements of
 * type), as the benchmark times it: with tmp NULL only stores the
 * temporary bytes CUB needs in *tmp_bytes; else runs (asynchronously) with
 * tmp_bytes bytes at tmp. */
sl_status cub_scan_dev(sl_type type, sl_op op, bool exclusive, const void *in, void *out, size_t n, void *tmp,
                       size_t *tmp_bytes);
sl_status cub_scan_dev_i32(sl_op op, bool exclusive, const void *in, void *out, size_t n, void *tmp,
                           size_t *tmp_bytes);
sl_status cub_scan_dev_i64(sl_op op, bool exclusive, const void *in, void *out, size_t n, void *tmp,
                           size_t *tmp_bytes);
sl_status cub_scan_dev_f32(sl_op op, bool exclusive, const void *in, void *out, size_t n, void *tmp,
                           size_t *tmp_bytes);
sl_status cub_scan_dev_f64(sl_op op, bool exclusive, const void *in, void *out, size_t n, void *tmp,
                           size_t *tmp_bytes);

#ifdef __cplusplus
}
#endif

#endif
