/* The one device the runtime answers for: a GPU of model/devices.def (the
 * H100 by default, SCANLAB_DEVICE for another), its properties, the
 * kernels' attributes and occupancy, and the versions. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/rt.h"

rt_settings rt_cfg;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* Properties of the H100 SXM that model/devices.def does not hold (from
 * its cudaGetDeviceProperties, CUDA 12/13): they are the same on every
 * Hopper part the runtime is asked to be. */
#define RT_CC_MAJOR 9
#define RT_CC_MINOR 0
#define RT_SMEM_PER_BLOCK (48 * 1024)
#define RT_SMEM_OPTIN (227 * 1024)
#define RT_SMEM_PER_SM (228 * 1024)
#define RT_REGS 65536
#define RT_L2_BYTES (50 * 1024 * 1024)
#define RT_CLOCK_KHZ 1980000
#define RT_MEM_CLOCK_KHZ 2619000
#define RT_BUS_BITS 5120
#define RT_CONST_BYTES 65536
#define RT_RESERVED_SMEM 1024
#define RT_TOTAL_MEM ((size_t)80 * 1024 * 1024 * 1024)
#define RT_VERSION 13000

static unsigned env_uint(const char *name, unsigned def)
{
    const char *v = getenv(name);
    return v && *v ? (unsigned)strtoul(v, NULL, 10) : def;
}

static void init_once(void)
{
    rt_cfg.report = getenv("SCANLAB_RUN_REPORT");
    rt_cfg.json = getenv("SCANLAB_RUN_JSON");
    rt_cfg.schedules = env_uint("SCANLAB_RUN_SCHEDULES", 1);
    if (rt_cfg.schedules < 1)
        rt_cfg.schedules = 1;
    rt_cfg.allow_races = env_uint("SCANLAB_RUN_ALLOW_RACES", 0) != 0;
    rt_cfg.models = env_uint("SCANLAB_RUN_MODELS", 0);
    rt_cfg.exhaustive = getenv("SCANLAB_RUN_EXHAUSTIVE") ? (int)env_uint("SCANLAB_RUN_EXHAUSTIVE", 0) != 0 : -1;
    rt_cfg.samples = env_uint("SCANLAB_RUN_SAMPLES", 100);
    rt_cfg.max_search_blocks = env_uint("SCANLAB_RUN_SEARCH_BLOCKS", 8);
    rt_cfg.resident = env_uint("SCANLAB_RUN_RESIDENT", 2);
    if (rt_cfg.resident < 1)
        rt_cfg.resident = 1;
    rt_cfg.seed = env_uint("SCANLAB_RUN_SEED", 1);
    const char *dev = getenv("SCANLAB_DEVICE");
    rt_cfg.device = model_device_find(dev && *dev ? dev : NULL);
    if (dev && *dev && !rt_cfg.device) {
        fprintf(stderr, "scanlab: runtime: SCANLAB_DEVICE=%s is not a device of model/devices.def; the first one "
                        "is used\n", dev);
        rt_cfg.device = model_device_find(NULL);
    }
}

void rt_init(void) { pthread_once(&once, init_once); }

static const model_device *device(void)
{
    rt_init();
    return rt_cfg.device;
}

static int sms(void) { return device() ? (int)device()->sms : 132; }
static int threads_per_sm(void) { return device() ? (int)device()->threads_per_sm : 2048; }
static int blocks_per_sm(void) { return device() ? (int)device()->blocks_per_sm : 32; }

RT_API cudaError_t cudaGetDeviceCount(int *count)
{
    if (!count)
        return rt_error(cudaErrorInvalidValue);
    *count = 1;
    return cudaSuccess;
}

RT_API cudaError_t cudaGetDevice(int *dev)
{
    if (!dev)
        return rt_error(cudaErrorInvalidValue);
    *dev = 0;
    return cudaSuccess;
}

RT_API cudaError_t cudaSetDevice(int dev) { return dev == 0 ? cudaSuccess : rt_error(cudaErrorInvalidDevice); }
RT_API cudaError_t cudaInitDevice(int dev, unsigned f1, unsigned f2)
{
    return (void)f1, (void)f2, cudaSetDevice(dev);
}
RT_API cudaError_t cudaDeviceReset(void) { return cudaSuccess; }
RT_API cudaError_t cudaSetDeviceFlags(unsigned flags) { return (void)flags, cudaSuccess; }
RT_API cudaError_t cudaGetDeviceFlags(unsigned *flags) { return flags ? (*flags = 0, cudaSuccess) : rt_error(1); }
RT_API cudaError_t cudaDeviceSetCacheConfig(int c) { return (void)c, cudaSuccess; }
RT_API cudaError_t cudaDeviceSetSharedMemConfig(int c) { return (void)c, cudaSuccess; }
RT_API cudaError_t cudaDeviceSetLimit(int limit, size_t value) { return (void)limit, (void)value, cudaSuccess; }

RT_API cudaError_t cudaDriverGetVersion(int *v) { return v ? (*v = RT_VERSION, cudaSuccess) : rt_error(1); }
RT_API cudaError_t cudaRuntimeGetVersion(int *v) { return v ? (*v = RT_VERSION, cudaSuccess) : rt_error(1); }

RT_API cudaError_t cudaDeviceGetAttribute(int *value, int attr, int dev)
{
    if (!value)
        return rt_error(cudaErrorInvalidValue);
    if (dev != 0)
        return rt_error(cudaErrorInvalidDevice);
    int v;
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: v = MODEL_MAX_BLOCK_THREADS; break;
    case cudaDevAttrMaxBlockDimX: case cudaDevAttrMaxBlockDimY: v = 1024; break;
    case cudaDevAttrMaxBlockDimZ: v = 64; break;
    case cudaDevAttrMaxGridDimX: v = 2147483647; break;
    case cudaDevAttrMaxGridDimY: case cudaDevAttrMaxGridDimZ: v = 65535; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: v = RT_SMEM_PER_BLOCK; break;
    case cudaDevAttrTotalConstantMemory: v = RT_CONST_BYTES; break;
    case cudaDevAttrWarpSize: v = MODEL_WARP_SIZE; break;
    case cudaDevAttrMaxPitch: v = 2147483647; break;
    case cudaDevAttrMaxRegistersPerBlock: case cudaDevAttrMaxRegistersPerMultiprocessor: v = RT_REGS; break;
    case cudaDevAttrClockRate: v = RT_CLOCK_KHZ; break;
    case cudaDevAttrGpuOverlap: case cudaDevAttrConcurrentKernels: case cudaDevAttrEccEnabled: v = 1; break;
    case cudaDevAttrMultiProcessorCount: v = sms(); break;
    case cudaDevAttrKernelExecTimeout: case cudaDevAttrIntegrated: case cudaDevAttrComputeMode: v = 0; break;
    case cudaDevAttrCanMapHostMemory: case cudaDevAttrUnifiedAddressing: case cudaDevAttrManagedMemory: v = 1; break;
    case cudaDevAttrPciBusId: case cudaDevAttrPciDeviceId: v = 0; break;
    case cudaDevAttrMemoryClockRate: v = RT_MEM_CLOCK_KHZ; break;
    case cudaDevAttrGlobalMemoryBusWidth: v = RT_BUS_BITS; break;
    case cudaDevAttrL2CacheSize: v = RT_L2_BYTES; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: v = threads_per_sm(); break;
    case cudaDevAttrAsyncEngineCount: v = 2; break;
    case cudaDevAttrComputeCapabilityMajor: v = RT_CC_MAJOR; break;
    case cudaDevAttrComputeCapabilityMinor: v = RT_CC_MINOR; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: v = RT_SMEM_PER_SM; break;
    case cudaDevAttrConcurrentManagedAccess: case cudaDevAttrCooperativeLaunch: v = 1; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: v = RT_SMEM_OPTIN; break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: v = blocks_per_sm(); break;
    case cudaDevAttrReservedSharedMemoryPerBlock: v = RT_RESERVED_SMEM; break;
    case cudaDevAttrMemoryPoolsSupported: v = 1; break;
    default: {
        char what[64];
        snprintf(what, sizeof what, "cudaDeviceGetAttribute(attribute %d)", attr);
        return rt_unsupported(what);
    }
    }
    *value = v;
    return cudaSuccess;
}

RT_API cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int dev)
{
    if (!p)
        return rt_error(cudaErrorInvalidValue);
    if (dev != 0)
        return rt_error(cudaErrorInvalidDevice);
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s (scanlab simulator)", device() ? device()->gpu : "NVIDIA H100");
    p->totalGlobalMem = RT_TOTAL_MEM;
    p->sharedMemPerBlock = RT_SMEM_PER_BLOCK;
    p->regsPerBlock = RT_REGS;
    p->warpSize = MODEL_WARP_SIZE;
    p->memPitch = 2147483647;
    p->maxThreadsPerBlock = MODEL_MAX_BLOCK_THREADS;
    p->maxThreadsDim[0] = p->maxThreadsDim[1] = 1024;
    p->maxThreadsDim[2] = 64;
    p->maxGridSize[0] = 2147483647;
    p->maxGridSize[1] = p->maxGridSize[2] = 65535;
    p->totalConstMem = RT_CONST_BYTES;
    p->major = RT_CC_MAJOR;
    p->minor = RT_CC_MINOR;
    p->textureAlignment = 512;
    p->texturePitchAlignment = 32;
    p->multiProcessorCount = sms();
    p->canMapHostMemory = 1;
    p->concurrentKernels = 1;
    p->ECCEnabled = 1;
    p->asyncEngineCount = 2;
    p->unifiedAddressing = 1;
    p->memoryBusWidth = RT_BUS_BITS;
    p->l2CacheSize = RT_L2_BYTES;
    p->maxThreadsPerMultiProcessor = threads_per_sm();
    p->globalL1CacheSupported = p->localL1CacheSupported = 1;
    p->sharedMemPerMultiprocessor = RT_SMEM_PER_SM;
    p->regsPerMultiprocessor = RT_REGS;
    p->managedMemory = 1;
    p->concurrentManagedAccess = 1;
    p->cooperativeLaunch = 1;
    p->sharedMemPerBlockOptin = RT_SMEM_OPTIN;
    p->maxBlocksPerMultiProcessor = blocks_per_sm();
    p->reservedSharedMemPerBlock = RT_RESERVED_SMEM;
    p->memoryPoolsSupported = 1;
    return cudaSuccess;
}

/* ---- kernels: attributes and occupancy ---- */
/* The kernel's static shared bytes: its .shared variables. */
static size_t static_shared(const ptx_module *m, int entry)
{
    size_t bytes = 0;
    for (unsigned i = 0; i < m->nsyms; i++)
        if (m->syms[i].space == PTX_SPACE_SHARED && !m->syms[i].external &&
            (m->syms[i].func == entry || m->syms[i].func < 0))
            bytes += m->syms[i].size;
    return bytes;
}

static struct rt_kernel *kernel_of(const void *func)
{
    rt_init();
    struct rt_kernel *k = rt_kernel_find(func);
    if (!k) {
        rt_error(cudaErrorInvalidDeviceFunction);
        return NULL;
    }
    return rt_kernel_resolve(k) ? k : NULL;
}

RT_API cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *a, const void *func)
{
    struct rt_kernel *k = kernel_of(func);
    if (!k)
        return cudaErrorInvalidDeviceFunction;
    if (!a)
        return rt_error(cudaErrorInvalidValue);
    const ptx_module *m = k->mod->m;
    const ptx_func *f = &m->funcs[k->entry];
    memset(a, 0, sizeof *a);
    a->sharedSizeBytes = static_shared(m, k->entry);
    a->localSizeBytes = f->local_bytes;
    a->maxThreadsPerBlock = f->maxntid[0] ? (int)(f->maxntid[0] * (f->maxntid[1] ? f->maxntid[1] : 1) *
                                                  (f->maxntid[2] ? f->maxntid[2] : 1))
                                          : MODEL_MAX_BLOCK_THREADS;
    a->numRegs = 32; /* registers are not modelled: a count that limits nothing */
    /* the virtual architecture (compute_90: 90), which CUB reads to pick its tuning; not the ISA version */
    a->ptxVersion = (int)m->sm;
    a->binaryVersion = RT_CC_MAJOR * 10 + RT_CC_MINOR;
    a->maxDynamicSharedSizeBytes =
        (int)(k->max_dyn_shared ? k->max_dyn_shared : RT_SMEM_PER_BLOCK - a->sharedSizeBytes);
    a->preferredShmemCarveout = -1;
    return cudaSuccess;
}

RT_API cudaError_t cudaFuncSetAttribute(const void *func, int attr, int value)
{
    struct rt_kernel *k = kernel_of(func);
    if (!k)
        return cudaErrorInvalidDeviceFunction;
    if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
        if (value < 0 || (size_t)value + static_shared(k->mod->m, k->entry) > RT_SMEM_OPTIN)
            return rt_error(cudaErrorInvalidValue);
        k->max_dyn_shared = (size_t)value;
        return cudaSuccess;
    }
    if (attr == cudaFuncAttributePreferredSharedMemoryCarveout)
        return cudaSuccess;
    char what[64];
    snprintf(what, sizeof what, "cudaFuncSetAttribute(attribute %d)", attr);
    return rt_unsupported(what);
}

RT_API cudaError_t cudaFuncSetCacheConfig(const void *func, int c) { return (void)func, (void)c, cudaSuccess; }

RT_API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *blocks, const void *func,
                                                                          int block_size, size_t dyn_shared,
                                                                          unsigned flags)
{
    (void)flags;
    struct rt_kernel *k = kernel_of(func);
    if (!k)
        return cudaErrorInvalidDeviceFunction;
    if (!blocks || block_size <= 0)
        return rt_error(cudaErrorInvalidValue);
    const size_t smem = static_shared(k->mod->m, k->entry) + dyn_shared;
    if (block_size > MODEL_MAX_BLOCK_THREADS || smem > RT_SMEM_OPTIN) {
        *blocks = 0;
        return cudaSuccess;
    }
    *blocks = device() ? (int)model_time_blocks_per_sm(device(), (unsigned)block_size, smem)
                       : threads_per_sm() / block_size;
    return cudaSuccess;
}

RT_API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, const void *func, int block_size,
                                                                 size_t dyn_shared)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(blocks, func, block_size, dyn_shared, 0);
}

/* struct cudaChannelFormatDesc: returned by value, so not a stub's int. */
typedef struct {
    int x, y, z, w, f;
} rt_channel_desc;

RT_API rt_channel_desc cudaCreateChannelDesc(int x, int y, int z, int w, int f)
{
    return (rt_channel_desc){x, y, z, w, f};
}
