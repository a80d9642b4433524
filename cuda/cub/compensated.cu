/* The compensated (TwoSum pair) add-scan on the GPU: the accuracy reference
 * point of `scanlab accuracy --backend cuda`, as verify/compensated.c is on
 * the CPU. Every element becomes a pair (s, c) = (x, 0); pairs combine as
 *   (s1, c1) + (s2, c2) = (t, c1 + c2 + e),  (t, e) = TwoSum(s1, s2),
 * so s carries the rounded sum and c the rounding errors it dropped; every
 * output is s + c, rounded once. The pairs are scanned by cub::DeviceScan
 * (any n, 64-bit offsets), whose combining order does not matter to the
 * bound: each combination loses only the rounding of the small c sum. */
#include <cub/device/device_scan.cuh>
#include <cuda_runtime.h>

#include "cuda/cub/cub_scan.cuh"

extern "C" sl_status sl_cuda_ready(void); /* cuda/cuda_ready.cu */

enum { SL_COMP_THREADS = 256, SL_COMP_MAX_BLOCKS = 65535 };

template <typename F>
struct sl_pair {
    F s, c;
};

/* TwoSum (Knuth): t + e == s1 + s2 exactly, for any order of magnitude. No
 * multiplications, so nvcc's contraction into FMA cannot change it. */
template <typename F>
struct sl_pair_add {
    __host__ __device__ __forceinline__ sl_pair<F> operator()(const sl_pair<F> &earlier,
                                                              const sl_pair<F> &later) const
    {
        const F t = earlier.s + later.s;
        const F bp = t - earlier.s;
        const F e = (earlier.s - (t - bp)) + (later.s - bp);
        return sl_pair<F>{t, earlier.c + later.c + e};
    }
};

template <typename F>
__global__ void sl_comp_to_pairs(const F *x, sl_pair<F> *p, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        p[i] = sl_pair<F>{x[i], F(0)};
}

template <typename F>
__global__ void sl_comp_from_pairs(const sl_pair<F> *p, F *y, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        y[i] = p[i].s + p[i].c;
}

template <typename F>
static sl_status sl_comp_run(const sl_scan_args *a)
{
    const size_t n = a->n;
    if (n == 0)
        return SL_OK;
    if (n > SIZE_MAX / sizeof(sl_pair<F>))
        return SL_ERR_NOMEM;
    const size_t blocks_needed = (n + SL_COMP_THREADS - 1) / SL_COMP_THREADS;
    const unsigned grid =
        blocks_needed < (size_t)SL_COMP_MAX_BLOCKS ? (unsigned)blocks_needed : (unsigned)SL_COMP_MAX_BLOCKS;
    F *d = NULL;
    sl_pair<F> *p = NULL;
    void *tmp = NULL;
    size_t tmp_bytes = 0;
    const sl_pair<F> zero{F(0), F(0)};
    cudaError_t e = cudaMalloc((void **)&d, n * sizeof(F));
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&p, n * sizeof(sl_pair<F>));
    if (e == cudaSuccess)
        e = cudaMemcpy(d, a->in, n * sizeof(F), cudaMemcpyHostToDevice);
    if (e == cudaSuccess) {
        sl_comp_to_pairs<F><<<grid, SL_COMP_THREADS>>>(d, p, n);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess)
        e = a->exclusive ? cub::DeviceScan::ExclusiveScan(NULL, tmp_bytes, p, sl_pair_add<F>(), zero, n)
                         : cub::DeviceScan::InclusiveScan(NULL, tmp_bytes, p, sl_pair_add<F>(), n);
    if (e == cudaSuccess)
        e = cudaMalloc(&tmp, tmp_bytes ? tmp_bytes : 1);
    if (e == cudaSuccess)
        e = a->exclusive ? cub::DeviceScan::ExclusiveScan(tmp, tmp_bytes, p, sl_pair_add<F>(), zero, n)
                         : cub::DeviceScan::InclusiveScan(tmp, tmp_bytes, p, sl_pair_add<F>(), n);
    if (e == cudaSuccess) {
        sl_comp_from_pairs<F><<<grid, SL_COMP_THREADS>>>(p, d, n);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess) /* synchronises: kernel faults surface here */
        e = cudaMemcpy(a->out, d, n * sizeof(F), cudaMemcpyDeviceToHost);
    cudaFree(tmp);
    cudaFree(p);
    cudaFree(d);
    return sl_cub_status(e);
}

/* Float add only, like the CPU version: every other (type, operator) is
 * SL_ERR_UNSUPPORTED, which the commands report as a skip. */
extern "C" sl_status compensated_cuda(const sl_scan_args *a)
{
    if (a->op != SL_ADD || !SL_TYPE_IS_FLOAT(a->type))
        return SL_ERR_UNSUPPORTED;
    sl_status st = sl_cuda_ready();
    if (st != SL_OK)
        return st;
    return a->type == SL_F32 ? sl_comp_run<float>(a) : sl_comp_run<double>(a);
}
