/* CUB's select, partition and radix sort on int32_t elements (cub_apps.h). */
#include "cuda/cub/cub_apps.cuh"

extern "C" sl_status cub_app_dev_i32(sl_cub_app app, const void *in, void *out, size_t n, void *tmp, size_t *tmp_bytes)
{
    return sl_cub_app_run<int32_t>(app, in, out, n, tmp, tmp_bytes);
}
