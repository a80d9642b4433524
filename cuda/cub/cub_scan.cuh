/* The host driver behind cub_scan_cuda_<tn>: one buffer on the GPU, scanned
 * in place by cub::DeviceScan. Each cub_scan_<tn>.cu includes this and
 * instantiates sl_cub_dispatch for its own element type only, so that the
 * four types compile as four parallel nvcc jobs. */
#ifndef SCANLAB_CUB_SCAN_CUH
#define SCANLAB_CUB_SCAN_CUH

#include <cub/device/device_scan.cuh>
#include <cuda_runtime.h>
#include <type_traits>

#include "cuda/cub/cub_scan.h"
#include "cuda/ops.h"

/* CUB applies scan_op(accumulated, next): the earlier operand first, which
 * is the catalogue's op(earlier, later), so affine (not commutative) keeps
 * its order. One functor per (type, operator) of the catalogue. */
#define X(T_, tn, opn, st, so)                                                          \
    struct sl_cub_##opn##_##tn {                                                        \
        __host__ __device__ __forceinline__ T_ operator()(const T_ &earlier,            \
                                                          const T_ &later) const        \
        {                                                                               \
            return sl_##opn##_##tn(earlier, later);                                     \
        }                                                                               \
    };
SL_FOR_EACH_TYPE_OP(X)
#undef X

/* The status of a failed CUDA call, clearing CUDA's sticky last error for
 * the recoverable ones so that the next case starts clean. */
static inline sl_status sl_cub_status(cudaError_t e)
{
    if (e == cudaSuccess)
        return SL_OK;
    (void)cudaGetLastError();
    return e == cudaErrorMemoryAllocation ? SL_ERR_NOMEM : SL_ERR_CUDA;
}

/* One scan of d[0..n) in place; with tmp NULL, only sizes *tmp_bytes.
 * add goes through the Sum entry points, as users of CUB call them (for
 * integers CUB's plus wraps around like sl_add on every GPU). Sum is
 * chosen at compile time so that add does not also instantiate Scan. */
template <bool Sum, typename T, typename Op>
static cudaError_t sl_cub_scan(void *tmp, size_t *tmp_bytes, T *d, size_t n, bool exclusive,
                               Op op, T identity)
{
    if constexpr (Sum)
        return exclusive ? cub::DeviceScan::ExclusiveSum(tmp, *tmp_bytes, d, n)
                         : cub::DeviceScan::InclusiveSum(tmp, *tmp_bytes, d, n);
    else
        return exclusive ? cub::DeviceScan::ExclusiveScan(tmp, *tmp_bytes, d, op, identity, n)
                         : cub::DeviceScan::InclusiveScan(tmp, *tmp_bytes, d, op, n);
}

/* Copy in, scan, copy out. n is size_t all the way down: CUB picks 64-bit
 * offsets for an 8-byte NumItemsT, so n > 2^31 is one call. */
template <bool Sum, typename T, typename Op>
static sl_status sl_cub_run(const sl_scan_args *a, Op op, T identity)
{
    size_t n = a->n;
    if (n == 0)
        return SL_OK;
    if (n > SIZE_MAX / sizeof(T))
        return SL_ERR_NOMEM;
    size_t bytes = n * sizeof(T), tmp_bytes = 0;
    T *d = NULL;
    void *tmp = NULL;
    cudaError_t e = cudaMalloc((void **)&d, bytes);
    if (e == cudaSuccess)
        e = cudaMemcpy(d, a->in, bytes, cudaMemcpyHostToDevice);
    if (e == cudaSuccess)
        e = sl_cub_scan<Sum, T>(NULL, &tmp_bytes, d, n, a->exclusive, op, identity);
    if (e == cudaSuccess)
        e = cudaMalloc(&tmp, tmp_bytes ? tmp_bytes : 1);
    if (e == cudaSuccess)
        e = sl_cub_scan<Sum, T>(tmp, &tmp_bytes, d, n, a->exclusive, op, identity);
    if (e == cudaSuccess)
        e = cudaGetLastError();
    if (e == cudaSuccess) /* synchronises: kernel faults surface here */
        e = cudaMemcpy(a->out, d, bytes, cudaMemcpyDeviceToHost);
    cudaFree(tmp);
    cudaFree(d);
    return sl_cub_status(e);
}

/* Out of place on device buffers, as `scanlab bench --backend cuda` times
 * it; with tmp NULL only sizes *tmp_bytes. */
template <bool Sum, typename T, typename Op>
static cudaError_t sl_cub_scan_io(void *tmp, size_t *tmp_bytes, const T *in, T *out, size_t n, bool exclusive,
                                  Op op, T identity)
{
    if constexpr (Sum)
        return exclusive ? cub::DeviceScan::ExclusiveSum(tmp, *tmp_bytes, in, out, n)
                         : cub::DeviceScan::InclusiveSum(tmp, *tmp_bytes, in, out, n);
    else
        return exclusive ? cub::DeviceScan::ExclusiveScan(tmp, *tmp_bytes, in, out, op, identity, n)
                         : cub::DeviceScan::InclusiveScan(tmp, *tmp_bytes, in, out, op, n);
}

/* sl_cub_scan_io for the catalogue's operator op on element type T. */
template <typename T>
static sl_status sl_cub_dev_dispatch(sl_op op, bool exclusive, const void *in, void *out, size_t n, void *tmp,
                                     size_t *tmp_bytes)
{
#define X(T_, tn, opn, st, so)                                                                       \
    if constexpr (std::is_same<T_, T>::value) {                                                      \
        if (op == so) {                                                                              \
            cudaError_t e = sl_cub_scan_io<so == SL_ADD, T>(tmp, tmp_bytes, (const T *)in, (T *)out, \
                                                            n, exclusive, sl_cub_##opn##_##tn(),     \
                                                            (T)sl_id_##opn##_##tn());               \
            if (e == cudaSuccess && tmp != NULL)                                                     \
                e = cudaGetLastError();                                                              \
            return sl_cub_status(e);                                                                 \
        }                                                                                            \
    }
    SL_FOR_EACH_TYPE_OP(X)
#undef X
    return SL_ERR_UNSUPPORTED;
}

/* The operators of the catalogue that apply to element type T. The calls
 * depend on T, so the pairs of the other types are discarded, never
 * instantiated: each cub_scan_<tn>.cu compiles its own type only. */
template <typename T>
static sl_status sl_cub_dispatch(const sl_scan_args *a)
{
#define X(T_, tn, opn, st, so)                                                          \
    if constexpr (std::is_same<T_, T>::value) {                                         \
        if (a->op == so)                                                                \
            return sl_cub_run<so == SL_ADD, T>(a, sl_cub_##opn##_##tn(),                \
                                               (T)sl_id_##opn##_##tn());                \
    }
    SL_FOR_EACH_TYPE_OP(X)
#undef X
    return SL_ERR_UNSUPPORTED;
}

#endif
