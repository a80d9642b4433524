/* The per-thread default stream forms (nvcc --default-stream per-thread
 * calls the _ptsz and _ptds names): with every call complete before it
 * returns, there is one order of work whatever the default stream, so
 * each is the call without the suffix. */
#include "runtime/rt.h"

cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s);
cudaError_t cudaEventRecordWithFlags(cudaEvent_t e, cudaStream_t s, unsigned f);
cudaError_t cudaFreeAsync(void *p, cudaStream_t s);
cudaError_t cudaMallocAsync(void **p, size_t bytes, cudaStream_t s);
cudaError_t cudaLaunchKernel(const void *f, dim3 g, dim3 b, void **args, size_t sh, cudaStream_t s);
cudaError_t cudaLaunchCooperativeKernel(const void *f, dim3 g, dim3 b, void **args, size_t sh, cudaStream_t s);
cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, int kind);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, int kind, cudaStream_t s);
cudaError_t cudaMemcpy2D(void *dst, size_t dp, const void *src, size_t sp, size_t w, size_t h, int kind);
cudaError_t cudaMemcpyToSymbol(const void *sym, const void *src, size_t n, size_t off, int kind);
cudaError_t cudaMemcpyFromSymbol(void *dst, const void *sym, size_t n, size_t off, int kind);
cudaError_t cudaMemcpyToSymbolAsync(const void *sym, const void *src, size_t n, size_t off, int kind, cudaStream_t s);
cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *sym, size_t n, size_t off, int kind, cudaStream_t s);
cudaError_t cudaMemset(void *p, int v, size_t n);
cudaError_t cudaMemsetAsync(void *p, int v, size_t n, cudaStream_t s);
cudaError_t cudaStreamQuery(cudaStream_t s);
cudaError_t cudaStreamSynchronize(cudaStream_t s);
cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned f);

RT_API cudaError_t cudaEventRecord_ptsz(cudaEvent_t e, cudaStream_t s) { return cudaEventRecord(e, s); }
RT_API cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t e, cudaStream_t s, unsigned f)
{
    return cudaEventRecordWithFlags(e, s, f);
}
RT_API cudaError_t cudaFreeAsync_ptsz(void *p, cudaStream_t s) { return cudaFreeAsync(p, s); }
RT_API cudaError_t cudaMallocAsync_ptsz(void **p, size_t n, cudaStream_t s) { return cudaMallocAsync(p, n, s); }
RT_API cudaError_t cudaLaunchKernel_ptsz(const void *f, dim3 g, dim3 b, void **args, size_t sh, cudaStream_t s)
{
    return cudaLaunchKernel(f, g, b, args, sh, s);
}
RT_API cudaError_t cudaLaunchCooperativeKernel_ptsz(const void *f, dim3 g, dim3 b, void **args, size_t sh,
                                                   cudaStream_t s)
{
    return cudaLaunchCooperativeKernel(f, g, b, args, sh, s);
}
RT_API cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config, const void *func, void **args)
{
    return cudaLaunchKernelExC(config, func, args);
}
RT_API cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t n, int kind)
{
    return cudaMemcpy(dst, src, n, kind);
}
RT_API cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t n, int kind, cudaStream_t s)
{
    return cudaMemcpyAsync(dst, src, n, kind, s);
}
RT_API cudaError_t cudaMemcpy2D_ptds(void *dst, size_t dp, const void *src, size_t sp, size_t w, size_t h, int kind)
{
    return cudaMemcpy2D(dst, dp, src, sp, w, h, kind);
}
RT_API cudaError_t cudaMemcpyToSymbol_ptds(const void *sym, const void *src, size_t n, size_t off, int kind)
{
    return cudaMemcpyToSymbol(sym, src, n, off, kind);
}
RT_API cudaError_t cudaMemcpyFromSymbol_ptds(void *dst, const void *sym, size_t n, size_t off, int kind)
{
    return cudaMemcpyFromSymbol(dst, sym, n, off, kind);
}
RT_API cudaError_t cudaMemcpyToSymbolAsync_ptsz(const void *sym, const void *src, size_t n, size_t off, int kind,
                                               cudaStream_t s)
{
    return cudaMemcpyToSymbolAsync(sym, src, n, off, kind, s);
}
RT_API cudaError_t cudaMemcpyFromSymbolAsync_ptsz(void *dst, const void *sym, size_t n, size_t off, int kind,
                                                 cudaStream_t s)
{
    return cudaMemcpyFromSymbolAsync(dst, sym, n, off, kind, s);
}
RT_API cudaError_t cudaMemset_ptds(void *p, int v, size_t n) { return cudaMemset(p, v, n); }
RT_API cudaError_t cudaMemsetAsync_ptsz(void *p, int v, size_t n, cudaStream_t s)
{
    return cudaMemsetAsync(p, v, n, s);
}
RT_API cudaError_t cudaStreamQuery_ptsz(cudaStream_t s) { return cudaStreamQuery(s); }
RT_API cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t s) { return cudaStreamSynchronize(s); }
RT_API cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t s, cudaEvent_t e, unsigned f)
{
    return cudaStreamWaitEvent(s, e, f);
}
