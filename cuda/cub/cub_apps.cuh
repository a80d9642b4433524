/* The templates behind cub_app_dev_<tn> (cub_apps.h): each
 * cub_apps_<tn>.cu instantiates them for its own element type, so that
 * the four types compile as four parallel nvcc jobs. */
#ifndef SCANLAB_CUB_APPS_CUH
#define SCANLAB_CUB_APPS_CUH

#include <cub/device/device_partition.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_select.cuh>
#include <cuda_runtime.h>
#include <string.h>
#include <type_traits>

#include "cuda/apps/app_defs.h"
#include "cuda/cub/cub_apps.h"

/* The predicate of app_defs.h on an element of type T. */
template <typename T> struct sl_cub_keep {
    __host__ __device__ __forceinline__ bool operator()(const T &x) const
    {
        uint64_t bits = 0;
        memcpy(&bits, &x, sizeof x);
        return sl_app_keep(bits, std::is_floating_point<T>::value, (unsigned)sizeof(T));
    }
};

template <typename T>
static sl_status sl_cub_app_run(sl_cub_app app, const void *in, void *out, size_t n, void *tmp, size_t *tmp_bytes)
{
    const T *d_in = (const T *)in;
    uint64_t *d_count = (uint64_t *)out;
    T *d_out = (T *)((unsigned char *)out + SL_APP_HEADER_BYTES);
    const int64_t items = (int64_t)n;
    cudaError_t e = cudaSuccess;
    switch (app) {
    case SL_CUB_SELECT:
        e = cub::DeviceSelect::If(tmp, *tmp_bytes, d_in, d_out, d_count, items, sl_cub_keep<T>());
        break;
    case SL_CUB_PARTITION:
        e = cub::DevicePartition::If(tmp, *tmp_bytes, d_in, d_out, d_count, items, sl_cub_keep<T>());
        break;
    case SL_CUB_SORT:
        e = cub::DeviceRadixSort::SortKeys(tmp, *tmp_bytes, d_in, d_out, items);
        break;
    default:
        return SL_ERR_ARG;
    }
    if (e == cudaSuccess && tmp != NULL)
        e = cudaGetLastError();
    if (e == cudaSuccess)
        return SL_OK;
    (void)cudaGetLastError();
    return e == cudaErrorMemoryAllocation ? SL_ERR_NOMEM : SL_ERR_CUDA;
}

#endif
