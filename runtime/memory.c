/* Device memory: the simulator's (host memory the model watches), so a
 * device pointer is a host address the kernels' accesses are checked
 * against. The runtime keeps its own list of allocations to refuse a copy
 * that leaves one, as CUDA refuses it, instead of writing past it. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/rt.h"

typedef struct {
    uintptr_t lo;
    size_t bytes;
    bool host; /* cudaMallocHost / cudaHostAlloc */
} rt_alloc;

static rt_alloc *allocs;
static size_t nallocs, capallocs, allocated;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* Bytes after each allocation that belong to none, so that a kernel
 * reading past the end of one buffer is out of bounds rather than inside
 * the next (allocations are otherwise packed at 256-byte alignment). */
#define RT_GUARD_BYTES 4096

/* The H100's memory: what cudaMemGetInfo answers as the total. */
#define RT_TOTAL_MEM ((size_t)80 * 1024 * 1024 * 1024)

static const rt_alloc *find(const void *p)
{
    const uintptr_t a = (uintptr_t)p;
    for (size_t i = 0; i < nallocs; i++)
        if (a >= allocs[i].lo && a - allocs[i].lo < (allocs[i].bytes ? allocs[i].bytes : 1))
            return &allocs[i];
    return NULL;
}

bool rt_is_device(const void *p, size_t n)
{
    pthread_mutex_lock(&lock);
    const rt_alloc *a = find(p);
    const bool ok = a && (uintptr_t)p - a->lo + n <= a->bytes;
    pthread_mutex_unlock(&lock);
    return ok;
}

size_t rt_allocated(void) { return allocated; }

static cudaError_t alloc(void **p, size_t bytes, bool host)
{
    rt_init();
    if (!p)
        return rt_error(cudaErrorInvalidValue);
    *p = NULL;
    if (rt_sticky())
        return rt_sticky();
    if (bytes == 0)
        return cudaSuccess;
    if (bytes > RT_TOTAL_MEM - allocated)
        return rt_error(cudaErrorMemoryAllocation);
    pthread_mutex_lock(&lock);
    cudaError_t e = cudaSuccess;
    if (nallocs == capallocs) {
        const size_t c = capallocs ? capallocs * 2 : 64;
        rt_alloc *n = realloc(allocs, c * sizeof *n);
        if (n) {
            allocs = n;
            capallocs = c;
        }
    }
    if (nallocs == capallocs || model_dev_alloc_guarded(p, bytes, RT_GUARD_BYTES) != SL_OK) {
        *p = NULL;
        e = cudaErrorMemoryAllocation;
    } else {
        allocs[nallocs++] = (rt_alloc){(uintptr_t)*p, bytes, host};
        allocated += bytes;
    }
    pthread_mutex_unlock(&lock);
    return rt_error(e);
}

static cudaError_t release(void *p, bool host)
{
    if (!p)
        return cudaSuccess;
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < nallocs; i++)
        if (allocs[i].lo == (uintptr_t)p && allocs[i].host == host) {
            allocated -= allocs[i].bytes;
            allocs[i] = allocs[--nallocs];
            model_dev_free(p);
            pthread_mutex_unlock(&lock);
            return cudaSuccess;
        }
    pthread_mutex_unlock(&lock);
    return rt_error(host ? cudaErrorInvalidValue : cudaErrorInvalidDevicePointer);
}

RT_API cudaError_t cudaMalloc(void **p, size_t bytes) { return alloc(p, bytes, false); }
RT_API cudaError_t cudaMallocManaged(void **p, size_t bytes, unsigned flags)
{
    return (void)flags, alloc(p, bytes, false);
}
RT_API cudaError_t cudaMallocAsync(void **p, size_t bytes, cudaStream_t s) { return (void)s, alloc(p, bytes, false); }
RT_API cudaError_t cudaMallocHost(void **p, size_t bytes) { return alloc(p, bytes, true); }
RT_API cudaError_t cudaHostAlloc(void **p, size_t bytes, unsigned flags) { return (void)flags, alloc(p, bytes, true); }
RT_API cudaError_t cudaFree(void *p) { return release(p, false); }
RT_API cudaError_t cudaFreeAsync(void *p, cudaStream_t s) { return (void)s, release(p, false); }
RT_API cudaError_t cudaFreeHost(void *p) { return release(p, true); }

/* Whether a copy of n bytes of the given kind may go from src to dst:
 * each side that the kind says is the device's lies in one allocation
 * (cudaMemcpyDefault: any pointer, as with unified addressing). */
static cudaError_t check_copy(void *dst, const void *src, size_t n, int kind)
{
    if (rt_sticky())
        return rt_sticky();
    if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault)
        return rt_error(cudaErrorInvalidMemcpyDirection);
    if (n == 0)
        return cudaSuccess;
    if (!dst || !src)
        return rt_error(cudaErrorInvalidValue);
    const bool dst_dev = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    const bool src_dev = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    if ((dst_dev && !rt_is_device(dst, n)) || (src_dev && !rt_is_device(src, n)))
        return rt_error(cudaErrorInvalidValue);
    return cudaSuccess;
}

RT_API cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, int kind)
{
    rt_init();
    const cudaError_t e = check_copy(dst, src, n, kind);
    if (e == cudaSuccess && n)
        model_dev_copy(dst, src, n);
    return e;
}

RT_API cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, int kind, cudaStream_t s)
{
    (void)s;
    return cudaMemcpy(dst, src, n, kind);
}

RT_API cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                size_t height, int kind)
{
    rt_init();
    if (width > dpitch || width > spitch)
        return rt_error(cudaErrorInvalidValue);
    if (height == 0 || width == 0)
        return cudaSuccess;
    const size_t dspan = dpitch * (height - 1) + width, sspan = spitch * (height - 1) + width;
    cudaError_t e = check_copy(dst, src, 1, kind);
    if (e == cudaSuccess)
        e = check_copy(dst, src, dspan < sspan ? dspan : sspan, kind);
    if (e == cudaSuccess && (kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice) &&
        !rt_is_device(dst, dspan))
        e = rt_error(cudaErrorInvalidValue);
    if (e == cudaSuccess && (kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice) &&
        !rt_is_device(src, sspan))
        e = rt_error(cudaErrorInvalidValue);
    for (size_t r = 0; e == cudaSuccess && r < height; r++)
        memmove((char *)dst + r * dpitch, (const char *)src + r * spitch, width);
    return e;
}

RT_API cudaError_t cudaMemset(void *p, int value, size_t n)
{
    rt_init();
    if (rt_sticky())
        return rt_sticky();
    if (n == 0)
        return cudaSuccess;
    if (!rt_is_device(p, n))
        return rt_error(cudaErrorInvalidValue);
    model_dev_memset(p, value & 0xff, n);
    return cudaSuccess;
}

RT_API cudaError_t cudaMemsetAsync(void *p, int value, size_t n, cudaStream_t s)
{
    return (void)s, cudaMemset(p, value, n);
}

/* ---- module variables ---- */
static cudaError_t symbol_span(const void *symbol, size_t count, size_t offset, void **dev)
{
    size_t bytes = 0;
    *dev = rt_var_device(symbol, &bytes);
    if (!*dev)
        return rt_error(cudaErrorInvalidSymbol);
    if (offset > bytes || count > bytes - offset)
        return rt_error(cudaErrorInvalidValue);
    *dev = (char *)*dev + offset;
    return cudaSuccess;
}

RT_API cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset, int kind)
{
    rt_init();
    void *dev;
    cudaError_t e = symbol_span(symbol, count, offset, &dev);
    if (e == cudaSuccess && kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice &&
        kind != cudaMemcpyDefault)
        e = rt_error(cudaErrorInvalidMemcpyDirection);
    if (e == cudaSuccess && kind == cudaMemcpyDeviceToDevice && !rt_is_device(src, count))
        e = rt_error(cudaErrorInvalidValue);
    if (e == cudaSuccess && count)
        memmove(dev, src, count);
    return e;
}

RT_API cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset, int kind)
{
    rt_init();
    void *dev;
    cudaError_t e = symbol_span(symbol, count, offset, &dev);
    if (e == cudaSuccess && kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice &&
        kind != cudaMemcpyDefault)
        e = rt_error(cudaErrorInvalidMemcpyDirection);
    if (e == cudaSuccess && kind == cudaMemcpyDeviceToDevice && !rt_is_device(dst, count))
        e = rt_error(cudaErrorInvalidValue);
    if (e == cudaSuccess && count)
        memmove(dst, dev, count);
    return e;
}

RT_API cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset,
                                           int kind, cudaStream_t s)
{
    return (void)s, cudaMemcpyToSymbol(symbol, src, count, offset, kind);
}

RT_API cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset, int kind,
                                             cudaStream_t s)
{
    return (void)s, cudaMemcpyFromSymbol(dst, symbol, count, offset, kind);
}

RT_API cudaError_t cudaGetSymbolAddress(void **dev, const void *symbol)
{
    rt_init();
    size_t bytes;
    if (!dev)
        return rt_error(cudaErrorInvalidValue);
    *dev = rt_var_device(symbol, &bytes);
    return *dev ? cudaSuccess : rt_error(cudaErrorInvalidSymbol);
}

RT_API cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol)
{
    rt_init();
    if (!size)
        return rt_error(cudaErrorInvalidValue);
    return rt_var_device(symbol, size) ? cudaSuccess : rt_error(cudaErrorInvalidSymbol);
}

RT_API cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total)
{
    rt_init();
    if (free_bytes)
        *free_bytes = RT_TOTAL_MEM - allocated;
    if (total)
        *total = RT_TOTAL_MEM;
    return cudaSuccess;
}

/* struct cudaPointerAttributes: type (0 unregistered, 1 host, 2 device),
 * device, device and host pointers. */
typedef struct {
    int type, device;
    void *devicePointer, *hostPointer;
} rt_pointer_attributes;

RT_API cudaError_t cudaPointerGetAttributes(rt_pointer_attributes *a, const void *p)
{
    rt_init();
    if (!a)
        return rt_error(cudaErrorInvalidValue);
    pthread_mutex_lock(&lock);
    const rt_alloc *al = find(p);
    a->type = !al ? 0 : al->host ? 1 : 2;
    a->device = 0;
    a->devicePointer = al ? (void *)p : NULL;
    a->hostPointer = !al || al->host ? (void *)p : NULL;
    pthread_mutex_unlock(&lock);
    return cudaSuccess;
}
