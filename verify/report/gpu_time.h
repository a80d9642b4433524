/* The GPU time of a call's kernels alone: the sum of the durations of the
 * kernels it launched, as CUPTI's activity records give them (the way
 * Nsight Systems measures), without the allocations and host-device
 * copies around them. CUPTI is loaded when first needed, so scanlab runs
 * where the CUDA toolkit's libcupti is absent (the kernel times are then
 * missing, with the reason). */
#ifndef SCANLAB_GPU_TIME_H
#define SCANLAB_GPU_TIME_H

#include <stdbool.h>
#include <stddef.h>
#include "verify/harness/algos.h"

typedef struct {
    double kernel_ms;  /* sum of the kernels' durations */
    unsigned kernels;  /* kernels the call launched */
} report_gpu_time;

/* Whether kernel times can be measured here; why says why not. */
bool report_gpu_timing_ready(char *why, size_t size);

/* Run fn(args) once and measure its kernels. The status is fn's, or
 * SL_ERR_UNSUPPORTED when no kernel time could be taken. */
sl_status report_gpu_timed(sl_scan_fn fn, const sl_scan_args *args, report_gpu_time *t);

#endif
