/* The CUDA driver API through dlopen: the few entry points the campaign
 * uses, declared here with the driver's ABI (cuda.h's values; checked
 * against cuda.h where it is found), so that neither the toolkit nor
 * libcuda is needed to build, and a machine without either fails with a
 * message. */
#define _POSIX_C_SOURCE 200809L
#include "tools/litmus_gpu/driver.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int cu_result;
typedef int cu_device;
typedef void *cu_handle; /* CUcontext, CUmodule, CUfunction, CUstream */
typedef unsigned long long cu_ptr;

#define CU_SUCCESS 0
#define CU_ATTR_SM_COUNT 16
#define CU_JIT_INFO_LOG 3
#define CU_JIT_INFO_LOG_SIZE 4
#define CU_JIT_ERROR_LOG 5
#define CU_JIT_ERROR_LOG_SIZE 6

#if defined(__has_include)
#if __has_include(<cuda.h>)
#include <cuda.h>
_Static_assert(CU_ATTR_SM_COUNT == CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, "cuda.h");
_Static_assert(CU_JIT_INFO_LOG == CU_JIT_INFO_LOG_BUFFER && CU_JIT_INFO_LOG_SIZE == CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
               "cuda.h");
_Static_assert(CU_JIT_ERROR_LOG == CU_JIT_ERROR_LOG_BUFFER, "cuda.h");
_Static_assert(CU_JIT_ERROR_LOG_SIZE == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, "cuda.h");
_Static_assert(sizeof(cu_ptr) == sizeof(CUdeviceptr) && sizeof(cu_device) == sizeof(CUdevice), "cuda.h");
#endif
#endif

typedef struct {
    cu_result (*init)(unsigned);
    cu_result (*driver_version)(int *);
    cu_result (*device_get)(cu_device *, int);
    cu_result (*device_name)(char *, int, cu_device);
    cu_result (*device_attribute)(int *, int, cu_device);
    cu_result (*primary_retain)(cu_handle *, cu_device);
    cu_result (*primary_release)(cu_device);
    cu_result (*ctx_set)(cu_handle);
    cu_result (*ctx_sync)(void);
    cu_result (*module_load)(cu_handle *, const void *, unsigned, int *, void **);
    cu_result (*module_unload)(cu_handle);
    cu_result (*module_function)(cu_handle *, cu_handle, const char *);
    cu_result (*occupancy)(int *, cu_handle, int, size_t);
    cu_result (*mem_alloc)(cu_ptr *, size_t);
    cu_result (*mem_free)(cu_ptr);
    cu_result (*htod)(cu_ptr, const void *, size_t);
    cu_result (*dtoh)(void *, cu_ptr, size_t);
    cu_result (*memset32)(cu_ptr, unsigned, size_t);
    cu_result (*launch)(cu_handle, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, cu_handle,
                        void **, void **);
    cu_result (*error_string)(cu_result, const char **);
} cu_api;

struct lg_gpu {
    void *lib;
    cu_api api;
    cu_device dev;
    cu_handle ctx, module, fn;
    char name[128];
    int driver, sms;
    cu_ptr buf[LG_NBUF];
    size_t words[LG_NBUF];
};

static const struct {
    const char *symbol;
    size_t offset;
} entry_points[] = {
    {"cuInit", offsetof(cu_api, init)},
    {"cuDriverGetVersion", offsetof(cu_api, driver_version)},
    {"cuDeviceGet", offsetof(cu_api, device_get)},
    {"cuDeviceGetName", offsetof(cu_api, device_name)},
    {"cuDeviceGetAttribute", offsetof(cu_api, device_attribute)},
    {"cuDevicePrimaryCtxRetain", offsetof(cu_api, primary_retain)},
    {"cuDevicePrimaryCtxRelease_v2", offsetof(cu_api, primary_release)},
    {"cuCtxSetCurrent", offsetof(cu_api, ctx_set)},
    {"cuCtxSynchronize", offsetof(cu_api, ctx_sync)},
    {"cuModuleLoadDataEx", offsetof(cu_api, module_load)},
    {"cuModuleUnload", offsetof(cu_api, module_unload)},
    {"cuModuleGetFunction", offsetof(cu_api, module_function)},
    {"cuOccupancyMaxActiveBlocksPerMultiprocessor", offsetof(cu_api, occupancy)},
    {"cuMemAlloc_v2", offsetof(cu_api, mem_alloc)},
    {"cuMemFree_v2", offsetof(cu_api, mem_free)},
    {"cuMemcpyHtoD_v2", offsetof(cu_api, htod)},
    {"cuMemcpyDtoH_v2", offsetof(cu_api, dtoh)},
    {"cuMemsetD32_v2", offsetof(cu_api, memset32)},
    {"cuLaunchKernel", offsetof(cu_api, launch)},
    {"cuGetErrorString", offsetof(cu_api, error_string)},
};

/* 0, or -1 with "what: the driver's message" in err. */
static int check(const lg_gpu *g, cu_result r, const char *what, char *err, size_t errlen)
{
    if (r == CU_SUCCESS)
        return 0;
    const char *s = NULL;
    if (g->api.error_string)
        g->api.error_string(r, &s);
    snprintf(err, errlen, "%s: %s (CUDA error %d)", what, s ? s : "unknown error", r);
    return -1;
}

lg_gpu *lg_gpu_open(char *err, size_t errlen)
{
    const char *path = getenv("LITMUS_GPU_DRIVER");
    if (!path || !*path)
        path = "libcuda.so.1";
    lg_gpu *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    g->dev = -1;
    if (!(g->lib = dlopen(path, RTLD_NOW | RTLD_LOCAL))) {
        const char *e = dlerror();
        snprintf(err, errlen, "no GPU here: the CUDA driver cannot be loaded (%s)", e ? e : path);
        free(g);
        return NULL;
    }
    for (size_t k = 0; k < sizeof entry_points / sizeof entry_points[0]; k++) {
        void *fn = dlsym(g->lib, entry_points[k].symbol);
        if (!fn) {
            snprintf(err, errlen, "the CUDA driver %s has no %s (too old?)", path, entry_points[k].symbol);
            lg_gpu_close(g);
            return NULL;
        }
        memcpy((char *)&g->api + entry_points[k].offset, &fn, sizeof fn);
    }
    cu_device dev;
    if (check(g, g->api.init(0), "no GPU here: cuInit", err, errlen) < 0 ||
        check(g, g->api.device_get(&dev, 0), "cuDeviceGet", err, errlen) < 0 ||
        check(g, g->api.primary_retain(&g->ctx, dev), "cuDevicePrimaryCtxRetain", err, errlen) < 0) {
        lg_gpu_close(g);
        return NULL;
    }
    g->dev = dev;
    if (check(g, g->api.ctx_set(g->ctx), "cuCtxSetCurrent", err, errlen) < 0 ||
        check(g, g->api.device_name(g->name, (int)sizeof g->name, dev), "cuDeviceGetName", err, errlen) < 0 ||
        check(g, g->api.driver_version(&g->driver), "cuDriverGetVersion", err, errlen) < 0 ||
        check(g, g->api.device_attribute(&g->sms, CU_ATTR_SM_COUNT, dev), "cuDeviceGetAttribute", err, errlen) < 0) {
        lg_gpu_close(g);
        return NULL;
    }
    return g;
}

void lg_gpu_close(lg_gpu *g)
{
    if (!g)
        return;
    if (g->api.mem_free)
        for (int b = 0; b < LG_NBUF; b++)
            if (g->buf[b])
                g->api.mem_free(g->buf[b]);
    if (g->module)
        g->api.module_unload(g->module);
    if (g->dev >= 0)
        g->api.primary_release(g->dev);
    if (g->lib)
        dlclose(g->lib);
    free(g);
}

const char *lg_gpu_name(const lg_gpu *g) { return g->name; }
int lg_gpu_driver_version(const lg_gpu *g) { return g->driver; }
int lg_gpu_sms(const lg_gpu *g) { return g->sms; }

int lg_gpu_load(lg_gpu *g, const char *ptx, unsigned block, int *per_sm, char *err, size_t errlen)
{
    if (g->module) {
        g->api.module_unload(g->module);
        g->module = g->fn = NULL;
    }
    static char log[8192], info[256];
    log[0] = info[0] = 0;
    int opt[] = {CU_JIT_ERROR_LOG, CU_JIT_ERROR_LOG_SIZE, CU_JIT_INFO_LOG, CU_JIT_INFO_LOG_SIZE};
    void *val[] = {log, (void *)(uintptr_t)sizeof log, info, (void *)(uintptr_t)sizeof info};
    const cu_result r = g->api.module_load(&g->module, ptx, 4, opt, val);
    if (r != CU_SUCCESS) {
        char what[8300];
        snprintf(what, sizeof what, "the kernel does not JIT-compile: %s", log);
        g->module = NULL;
        return check(g, r, what, err, errlen);
    }
    if (check(g, g->api.module_function(&g->fn, g->module, "litmus_gpu"), "cuModuleGetFunction", err, errlen) < 0)
        return -1;
    return check(g, g->api.occupancy(per_sm, g->fn, (int)block, 0), "cuOccupancyMaxActiveBlocksPerMultiprocessor", err,
                 errlen);
}

int lg_gpu_alloc(lg_gpu *g, const size_t words[LG_NBUF], char *err, size_t errlen)
{
    for (int b = 0; b < LG_NBUF; b++) {
        const size_t w = words[b] ? words[b] : 1;
        if (g->buf[b] && g->words[b] >= w)
            continue;
        if (g->buf[b])
            g->api.mem_free(g->buf[b]);
        g->buf[b] = 0;
        g->words[b] = 0;
        if (check(g, g->api.mem_alloc(&g->buf[b], w * 4), "cuMemAlloc", err, errlen) < 0)
            return -1;
        g->words[b] = w;
    }
    return 0;
}

static int in_bounds(const lg_gpu *g, int buf, size_t words, char *err, size_t errlen)
{
    if (buf >= 0 && buf < LG_NBUF && words <= g->words[buf])
        return 0;
    snprintf(err, errlen, "internal: %zu words past device buffer %d", words, buf);
    return -1;
}

int lg_gpu_put(lg_gpu *g, int buf, const uint32_t *src, size_t words, char *err, size_t errlen)
{
    if (in_bounds(g, buf, words, err, errlen) < 0)
        return -1;
    return words ? check(g, g->api.htod(g->buf[buf], src, words * 4), "cuMemcpyHtoD", err, errlen) : 0;
}

int lg_gpu_get(lg_gpu *g, int buf, uint32_t *dst, size_t words, char *err, size_t errlen)
{
    if (in_bounds(g, buf, words, err, errlen) < 0)
        return -1;
    return words ? check(g, g->api.dtoh(dst, g->buf[buf], words * 4), "cuMemcpyDtoH", err, errlen) : 0;
}

int lg_gpu_fill(lg_gpu *g, int buf, uint32_t value, size_t words, char *err, size_t errlen)
{
    if (in_bounds(g, buf, words, err, errlen) < 0)
        return -1;
    return words ? check(g, g->api.memset32(g->buf[buf], value, words), "cuMemsetD32", err, errlen) : 0;
}

int lg_gpu_launch(lg_gpu *g, unsigned grid, unsigned block, char *err, size_t errlen)
{
    void *args[LG_NBUF];
    for (int b = 0; b < LG_NBUF; b++)
        args[b] = &g->buf[b];
    if (check(g, g->api.launch(g->fn, grid, 1, 1, block, 1, 1, 0, NULL, args, NULL), "cuLaunchKernel", err, errlen) < 0)
        return -1;
    return check(g, g->api.ctx_sync(), "the kernel", err, errlen);
}
