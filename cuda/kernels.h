/* The run functions of every kernel of cuda/kernels.def, per backend:
 * <file>_sim always, <file>_cuda when the build has CUDA. */
#ifndef SCANLAB_KERNELS_H
#define SCANLAB_KERNELS_H

#include "cuda/depth.h"
#include "verify/harness/algos.h"

#define SL_KERNEL(file, level, kind, cli, depth, summary) \
    sl_status file##_sim(const sl_scan_args *a);          \
    sl_status file##_cuda(const sl_scan_args *a);
#include "cuda/kernels.def"
#undef SL_KERNEL

/* Whether a GPU is present (cached): SL_OK or SL_ERR_NO_GPU. */
sl_status sl_cuda_ready(void);

#endif
