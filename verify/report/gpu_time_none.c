/* gpu_time.h without CUDA in the build: no kernel times. */
#include "verify/report/gpu_time.h"

#include <stdio.h>

bool report_gpu_timing_ready(char *why, size_t size)
{
    snprintf(why, size, "this scanlab was built without CUDA's CUPTI headers");
    return false;
}

sl_status report_gpu_timed(sl_scan_fn fn, const sl_scan_args *args, report_gpu_time *t)
{
    t->kernel_ms = 0;
    t->kernels = 0;
    sl_status st = fn(args);
    return st == SL_OK ? SL_ERR_UNSUPPORTED : st;
}
