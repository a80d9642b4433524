/* A stand-in for libcuda.so.1 that runs nothing, for testing the litmus
 * runner's host loop without a GPU (test_litmus_gpu): device memory is
 * host memory, a module must hold the entry litmus_gpu, and a launch only
 * checks the roles table and counts its testing threads into the params
 * word the kernel counts start timeouts in. So every record keeps the
 * word the runner filled it with, every location its initial value, and
 * the runner's count of timeouts must equal runs times threads. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tools/litmus_gpu/campaign.h"

#define SMS 4

static char module_text[1 << 16];

int cuInit(unsigned flags) { return flags ? 1 : 0; }
int cuDriverGetVersion(int *v)
{
    *v = 13000;
    return 0;
}
int cuDeviceGet(int *d, int ordinal)
{
    *d = ordinal;
    return ordinal == 0 ? 0 : 101;
}
int cuDeviceGetName(char *name, int len, int dev)
{
    (void)dev;
    strncpy(name, "fake GPU", (size_t)len);
    return 0;
}
int cuDeviceGetAttribute(int *v, int attr, int dev)
{
    (void)dev;
    *v = attr == 16 ? SMS : 0;
    return 0;
}
int cuDevicePrimaryCtxRetain(void **ctx, int dev)
{
    (void)dev;
    *ctx = module_text;
    return 0;
}
int cuDevicePrimaryCtxRelease_v2(int dev) { return dev == 0 ? 0 : 1; }
int cuCtxSetCurrent(void *ctx) { return ctx ? 0 : 1; }
int cuCtxSynchronize(void) { return 0; }
int cuModuleLoadDataEx(void **m, const void *ptx, unsigned n, int *opt, void **val)
{
    (void)n, (void)opt, (void)val;
    const char *text = ptx;
    if (!strstr(text, ".visible .entry litmus_gpu(") || strlen(text) >= sizeof module_text)
        return 218; /* CUDA_ERROR_INVALID_PTX */
    strcpy(module_text, text);
    *m = module_text;
    return 0;
}
int cuModuleUnload(void *m) { return m == module_text ? 0 : 1; }
int cuModuleGetFunction(void **fn, void *m, const char *name)
{
    *fn = m;
    return strcmp(name, "litmus_gpu") == 0 ? 0 : 500;
}
int cuOccupancyMaxActiveBlocksPerMultiprocessor(int *n, void *fn, int block, size_t smem)
{
    (void)fn, (void)smem;
    *n = 2048 / block;
    return 0;
}
int cuMemAlloc_v2(unsigned long long *p, size_t bytes)
{
    void *q = calloc(1, bytes);
    *p = (unsigned long long)(uintptr_t)q;
    return q ? 0 : 2;
}
int cuMemFree_v2(unsigned long long p)
{
    free((void *)(uintptr_t)p);
    return 0;
}
int cuMemcpyHtoD_v2(unsigned long long d, const void *s, size_t bytes)
{
    memcpy((void *)(uintptr_t)d, s, bytes);
    return 0;
}
int cuMemcpyDtoH_v2(void *d, unsigned long long s, size_t bytes)
{
    memcpy(d, (const void *)(uintptr_t)s, bytes);
    return 0;
}
int cuMemsetD32_v2(unsigned long long d, unsigned v, size_t n)
{
    uint32_t *p = (uint32_t *)(uintptr_t)d;
    for (size_t k = 0; k < n; k++)
        p[k] = v;
    return 0;
}
int cuLaunchKernel(void *fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                   unsigned smem, void *stream, void **args, void **extra)
{
    (void)stream, (void)extra;
    if (fn != module_text || gy != 1 || gz != 1 || by != 1 || bz != 1 || smem)
        return 1;
    const uint32_t *roles = (const uint32_t *)(uintptr_t)*(unsigned long long *)args[2];
    uint32_t *params = (uint32_t *)(uintptr_t)*(unsigned long long *)args[6];
    for (size_t k = 0; k < (size_t)gx * bx; k++)
        params[LG_P_TIMEOUTS] += roles[k] != LG_ROLE_STRESS;
    return 0;
}
int cuGetErrorString(int r, const char **s)
{
    *s = r ? "fake error" : "no error";
    return 0;
}
