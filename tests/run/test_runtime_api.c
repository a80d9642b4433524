/* The simulator's CUDA runtime called one by one, as nvcc's host code and
 * a program call it, without nvcc: a fat binary is put together here
 * around a PTX module (plain, and Zstandard-compressed as nvcc 13 writes
 * it where libzstd is present), registered, and its kernel launched. The
 * sticky error of a stopped launch is the last case: it stays. */
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "runtime/cuda_abi.h"
#include "tap.h"

/* The runtime's entry points, as cuda_runtime_api.h declares them. */
void **__cudaRegisterFatBinary(void *fat);
void __cudaRegisterFatBinaryEnd(void **h);
void __cudaRegisterFunction(void **h, const char *host_fun, char *dev_fun, const char *name, int limit, void *tid,
                            void *bid, void *bdim, void *gdim, int *wsize);
void __cudaRegisterVar(void **h, char *host_var, char *dev_addr, const char *name, int ext, size_t size, int constant,
                       int global);
unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared, cudaStream_t s);
cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shared, cudaStream_t *s);
cudaError_t __cudaGetKernel(cudaKernel_t *k, const void *f);
cudaError_t __cudaLaunchKernel(cudaKernel_t k, dim3 grid, dim3 block, void **args, size_t shared, cudaStream_t s);
cudaError_t cudaLaunchKernel(const void *f, dim3 grid, dim3 block, void **args, size_t shared, cudaStream_t s);
cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *c, const void *f, void **args);
cudaError_t cudaLaunchCooperativeKernel(const void *f, dim3 grid, dim3 block, void **args, size_t shared,
                                        cudaStream_t s);
cudaError_t cudaMalloc(void **p, size_t n);
cudaError_t cudaMallocHost(void **p, size_t n);
cudaError_t cudaFree(void *p);
cudaError_t cudaFreeHost(void *p);
cudaError_t cudaMemcpy(void *d, const void *s, size_t n, int kind);
cudaError_t cudaMemset(void *p, int v, size_t n);
cudaError_t cudaMemcpyToSymbol(const void *sym, const void *src, size_t n, size_t off, int kind);
cudaError_t cudaMemcpyFromSymbol(void *dst, const void *sym, size_t n, size_t off, int kind);
cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char *cudaGetErrorName(cudaError_t e);
const char *cudaGetErrorString(cudaError_t e);
cudaError_t cudaGetDeviceCount(int *n);
cudaError_t cudaSetDevice(int d);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int d);
cudaError_t cudaDeviceGetAttribute(int *v, int attr, int d);
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *a, const void *f);
cudaError_t cudaFuncSetAttribute(const void *f, int attr, int v);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, const void *f, int block, size_t shared);
cudaError_t cudaDriverGetVersion(int *v);
cudaError_t cudaRuntimeGetVersion(int *v);
cudaError_t cudaStreamCreate(cudaStream_t *s);
cudaError_t cudaStreamDestroy(cudaStream_t s);
cudaError_t cudaStreamSynchronize(cudaStream_t s);
cudaError_t cudaEventCreate(cudaEvent_t *e);
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b);
cudaError_t cudaEventDestroy(cudaEvent_t e);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaGraphCreate(void *g, unsigned flags);

/* add_gvar(int *p, int n): p[i] += gvar for i < n. */
static const char ptx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .global .align 4 .u32 gvar;\n"
    ".visible .entry add_gvar(.param .u64 p, .param .u32 n)\n{\n"
    ".reg .pred %p<2>;\n.reg .b32 %r<7>;\n.reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [p];\nld.param.u32 %r1, [n];\n"
    "mov.u32 %r2, %tid.x;\nmov.u32 %r3, %ctaid.x;\nmov.u32 %r4, %ntid.x;\nmad.lo.s32 %r2, %r3, %r4, %r2;\n"
    "setp.ge.s32 %p1, %r2, %r1;\n@%p1 bra DONE;\n"
    "cvta.to.global.u64 %rd1, %rd1;\nmul.wide.s32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
    "ld.global.u32 %r5, [%rd3];\nld.global.u32 %r6, [gvar];\nadd.s32 %r5, %r5, %r6;\nst.global.u32 [%rd3], %r5;\n"
    "DONE:\nret;\n}\n";

/* The fat binary's parts as nvcc lays them out (runtime/fatbin.c). */
typedef struct {
    uint32_t magic, version;
    const void *data;
    void *unused;
} wrapper;

typedef struct {
    uint16_t kind, version;
    uint32_t header_size, padded_size, unknown0, payload_size, unknown1, unknown2, sm, bits, unknown3;
    uint64_t flags, unknown4, uncompressed_size;
} entry;

typedef struct {
    uint64_t words[1024];
} fat_storage;

/* A container of one entry of payload (kind 1: PTX, 2: an ELF cubin;
 * compressed: flags and the uncompressed size say so) in *st; the wrapper
 * points at it. */
static void make_entry(fat_storage *st, wrapper *w, uint16_t kind, const void *payload, size_t n, uint64_t flags,
                       size_t raw)
{
    unsigned char *p = (unsigned char *)st->words;
    const size_t padded = (n + 7) / 8 * 8;
    assert_true(16 + sizeof(entry) + padded <= sizeof st->words);
    memset(st, 0, sizeof *st);
    const uint32_t magic = 0xba55ed50u;
    const uint16_t version = 1, hs = 16;
    const uint64_t size = sizeof(entry) + padded;
    memcpy(p, &magic, 4);
    memcpy(p + 4, &version, 2);
    memcpy(p + 6, &hs, 2);
    memcpy(p + 8, &size, 8);
    entry e = {.kind = kind, .version = 0x101, .header_size = sizeof(entry), .padded_size = (uint32_t)padded,
               .payload_size = (uint32_t)n, .sm = 90, .bits = 64, .flags = flags | 0x11, .uncompressed_size = raw};
    memcpy(p + 16, &e, sizeof e);
    memcpy(p + 16 + sizeof e, payload, n);
    *w = (wrapper){0x466243b1u, 1, st->words, NULL};
}

static void make_fatbin(fat_storage *st, wrapper *w, const void *payload, size_t n, uint64_t flags, size_t raw)
{
    make_entry(st, w, 1, payload, n, flags, raw);
}

/* The host-side objects nvcc registers: a stub per kernel, a shadow per variable. */
static void add_gvar_stub(void) {}
static void add_gvar_z_stub(void) {}
static int gvar_shadow, gvar_z_shadow;
static fat_storage fat_plain, fat_z;
static wrapper wrap_plain, wrap_z;

static void register_plain(void)
{
    static int done;
    if (done++)
        return;
    make_fatbin(&fat_plain, &wrap_plain, ptx, sizeof ptx - 1, 0, 0);
    void **h = __cudaRegisterFatBinary(&wrap_plain);
    __cudaRegisterFunction(h, (const char *)add_gvar_stub, "add_gvar", "add_gvar", -1, NULL, NULL, NULL, NULL, NULL);
    __cudaRegisterVar(h, (char *)&gvar_shadow, "gvar", "gvar", 0, 4, 0, 0);
    __cudaRegisterFatBinaryEnd(h);
}

static int *device_ints(int n, int v)
{
    int *d = NULL, *h = malloc(n * sizeof *h);
    assert_non_null(h);
    for (int i = 0; i < n; i++)
        h[i] = v + i;
    assert_int_equal(cudaMalloc((void **)&d, n * sizeof *d), cudaSuccess);
    assert_int_equal(cudaMemcpy(d, h, n * sizeof *d, cudaMemcpyHostToDevice), cudaSuccess);
    free(h);
    return d;
}

static void expect_ints(const int *d, int n, int v)
{
    int *h = malloc(n * sizeof *h);
    assert_non_null(h);
    assert_int_equal(cudaMemcpy(h, d, n * sizeof *h, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int i = 0; i < n; i++)
        assert_int_equal(h[i], v + i);
    free(h);
}

static void test_launch_forms(void **state)
{
    (void)state;
    register_plain();
    const int n = 300, three = 3;
    int *d = device_ints(n, 10);
    assert_int_equal(cudaMemcpyToSymbol(&gvar_shadow, &three, 4, 0, cudaMemcpyHostToDevice), cudaSuccess);
    void *args[] = {&d, (void *)&n};
    const dim3 grid = {3, 1, 1}, block = {128, 1, 1};
    /* cudaLaunchKernel */
    assert_int_equal(cudaLaunchKernel((const void *)add_gvar_stub, grid, block, args, 0, NULL), cudaSuccess);
    expect_ints(d, n, 13);
    /* <<<>>>: the configuration pushed and popped, then CUDA 13's __cudaLaunchKernel */
    assert_int_equal(__cudaPushCallConfiguration(grid, block, 0, NULL), 0);
    dim3 g, b;
    size_t sh;
    cudaStream_t s;
    assert_int_equal(__cudaPopCallConfiguration(&g, &b, &sh, &s), cudaSuccess);
    assert_int_equal(g.x, 3);
    assert_int_equal(b.x, 128);
    cudaKernel_t k;
    assert_int_equal(__cudaGetKernel(&k, (const void *)add_gvar_stub), cudaSuccess);
    assert_int_equal(__cudaLaunchKernel(k, g, b, args, sh, s), cudaSuccess);
    expect_ints(d, n, 16);
    /* cudaLaunchKernelEx, cooperative */
    cudaLaunchAttribute attr = {.id = cudaLaunchAttributeCooperative, .val.cooperative = 1};
    const cudaLaunchConfig_t cfg = {grid, block, 0, NULL, &attr, 1};
    assert_int_equal(cudaLaunchKernelExC(&cfg, (const void *)add_gvar_stub, args), cudaSuccess);
    expect_ints(d, n, 19);
    int back = 0;
    assert_int_equal(cudaMemcpyFromSymbol(&back, &gvar_shadow, 4, 0, cudaMemcpyDeviceToHost), cudaSuccess);
    assert_int_equal(back, 3);
    assert_int_equal(cudaFree(d), cudaSuccess);
}

static void test_launch_refusals(void **state)
{
    (void)state;
    register_plain();
    int *d = device_ints(4, 0), n = 4;
    void *args[] = {&d, &n};
    const dim3 one = {1, 1, 1}, big = {2048, 1, 1}, zero = {0, 1, 1}, b32 = {32, 1, 1};
    assert_int_equal(cudaLaunchKernel((const void *)test_launch_refusals, one, b32, args, 0, NULL),
                     cudaErrorInvalidDeviceFunction);
    assert_int_equal(cudaLaunchKernel((const void *)add_gvar_stub, one, big, args, 0, NULL),
                     cudaErrorInvalidConfiguration);
    assert_int_equal(cudaLaunchKernel((const void *)add_gvar_stub, zero, b32, args, 0, NULL),
                     cudaErrorInvalidConfiguration);
    /* more dynamic shared memory than the default limit, without cudaFuncSetAttribute */
    assert_int_equal(cudaLaunchKernel((const void *)add_gvar_stub, one, b32, args, 64 * 1024, NULL),
                     cudaErrorInvalidValue);
    assert_int_equal(cudaGetLastError(), cudaErrorInvalidValue);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    /* a cooperative grid larger than the device holds at once */
    const dim3 huge = {1u << 20, 1, 1}, b1024 = {1024, 1, 1};
    assert_int_equal(cudaLaunchCooperativeKernel((const void *)add_gvar_stub, huge, b1024, args, 0, NULL),
                     cudaErrorCooperativeLaunchTooLarge);
    (void)cudaGetLastError();
    assert_int_equal(cudaFree(d), cudaSuccess);
}

static void test_zstd_module(void **state)
{
    (void)state;
    void *lib = dlopen("libzstd.so.1", RTLD_NOW | RTLD_LOCAL);
    size_t (*compress)(void *, size_t, const void *, size_t, int) =
        lib ? (size_t (*)(void *, size_t, const void *, size_t, int))dlsym(lib, "ZSTD_compress") : NULL;
    if (!compress)
        skip(); /* no libzstd here: the runtime says so for such a program (runtime/fatbin.c) */
    /* the same kernel under other names, compressed */
    char text[sizeof ptx + 16];
    snprintf(text, sizeof text, "%s", ptx);
    for (char *p; (p = strstr(text, "add_gvar(")) != NULL;)
        memcpy(p, "add_gvaz", 8);
    for (char *p; (p = strstr(text, "gvar;")) != NULL || (p = strstr(text, "[gvar]")) != NULL;)
        p[p[0] == '[' ? 4 : 3] = 'z';
    unsigned char packed[4096];
    const size_t n = compress(packed, sizeof packed, text, strlen(text), 3);
    assert_true(n > 0 && n < sizeof packed);
    make_fatbin(&fat_z, &wrap_z, packed, n, 1u << 15, strlen(text));
    void **h = __cudaRegisterFatBinary(&wrap_z);
    __cudaRegisterFunction(h, (const char *)add_gvar_z_stub, "add_gvaz", "add_gvaz", -1, NULL, NULL, NULL, NULL, NULL);
    __cudaRegisterVar(h, (char *)&gvar_z_shadow, "gvaz", "gvaz", 0, 4, 0, 0);
    const int five = 5, cnt = 40;
    int *d = device_ints(cnt, 0);
    assert_int_equal(cudaMemcpyToSymbol(&gvar_z_shadow, &five, 4, 0, cudaMemcpyHostToDevice), cudaSuccess);
    void *args[] = {&d, (void *)&cnt};
    const dim3 grid = {1, 1, 1}, block = {64, 1, 1};
    assert_int_equal(cudaLaunchKernel((const void *)add_gvar_z_stub, grid, block, args, 0, NULL), cudaSuccess);
    expect_ints(d, cnt, 5);
    assert_int_equal(cudaFree(d), cudaSuccess);
}

static void test_memory(void **state)
{
    (void)state;
    int host[8] = {0}, *d = NULL, *pinned = NULL;
    assert_int_equal(cudaMalloc((void **)&d, sizeof host), cudaSuccess);
    /* a copy that leaves the allocation, or names a host pointer the device's */
    assert_int_equal(cudaMemcpy(d, host, 2 * sizeof host, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    assert_int_equal(cudaMemcpy(host, host + 1, 4, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    assert_int_equal(cudaMemcpy(d, host, 4, 7), cudaErrorInvalidMemcpyDirection);
    assert_int_equal(cudaMemset(d, 0xff, sizeof host), cudaSuccess);
    assert_int_equal(cudaMemcpy(host, d, sizeof host, cudaMemcpyDefault), cudaSuccess);
    assert_int_equal(host[7], -1);
    assert_int_equal(cudaMemset(d, 0, 2 * sizeof host), cudaErrorInvalidValue);
    assert_int_equal(cudaFree(host), cudaErrorInvalidDevicePointer);
    assert_int_equal(cudaFree(NULL), cudaSuccess);
    assert_int_equal(cudaMemcpyToSymbol(host, host, 4, 0, cudaMemcpyHostToDevice), cudaErrorInvalidSymbol);
    size_t fr = 0, total = 0;
    assert_int_equal(cudaMemGetInfo(&fr, &total), cudaSuccess);
    assert_true(fr + sizeof host <= total);
    assert_int_equal(cudaMallocHost((void **)&pinned, 64), cudaSuccess);
    assert_int_equal(cudaFreeHost(pinned), cudaSuccess);
    assert_int_equal(cudaFree(d), cudaSuccess);
    assert_int_equal(cudaFree(d), cudaErrorInvalidDevicePointer);
    (void)cudaGetLastError();
}

static void test_device_queries(void **state)
{
    (void)state;
    int n = 0, v = 0;
    assert_int_equal(cudaGetDeviceCount(&n), cudaSuccess);
    assert_int_equal(n, 1);
    assert_int_equal(cudaSetDevice(1), cudaErrorInvalidDevice);
    assert_int_equal(cudaSetDevice(0), cudaSuccess);
    cudaDeviceProp p;
    assert_int_equal(cudaGetDeviceProperties(&p, 0), cudaSuccess);
    assert_non_null(strstr(p.name, "H100"));
    assert_int_equal(p.major, 9);
    assert_int_equal(p.minor, 0);
    assert_int_equal(p.warpSize, 32);
    assert_int_equal(p.multiProcessorCount, 132);
    assert_int_equal(p.maxThreadsPerBlock, 1024);
    assert_int_equal(p.sharedMemPerBlockOptin, 227 * 1024);
    assert_int_equal(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0), cudaSuccess);
    assert_int_equal(v, 132);
    assert_int_equal(cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0), cudaSuccess);
    assert_int_equal(v, 227 * 1024);
    assert_int_equal(cudaDeviceGetAttribute(&v, 9999, 0), cudaErrorNotSupported);
    assert_int_equal(cudaDriverGetVersion(&v), cudaSuccess);
    assert_int_equal(v, 13000);
    assert_int_equal(cudaRuntimeGetVersion(&v), cudaSuccess);
    assert_string_equal(cudaGetErrorName(cudaErrorIllegalAddress), "cudaErrorIllegalAddress");
    assert_string_equal(cudaGetErrorString(cudaSuccess), "no error");
    (void)cudaGetLastError();
}

static void test_function_queries(void **state)
{
    (void)state;
    register_plain();
    cudaFuncAttributes a;
    assert_int_equal(cudaFuncGetAttributes(&a, (const void *)add_gvar_stub), cudaSuccess);
    assert_int_equal(a.maxThreadsPerBlock, 1024);
    assert_int_equal(a.sharedSizeBytes, 0);
    assert_int_equal(a.ptxVersion, 90); /* .target sm_90, whatever the .version */
    int blocks = 0;
    /* 2048 threads an SM: 8 blocks of 256, 2 of 1024; 32 blocks at most */
    assert_int_equal(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, (const void *)add_gvar_stub, 256, 0),
                     cudaSuccess);
    assert_int_equal(blocks, 8);
    assert_int_equal(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, (const void *)add_gvar_stub, 1024, 0),
                     cudaSuccess);
    assert_int_equal(blocks, 2);
    assert_int_equal(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, (const void *)add_gvar_stub, 32, 0),
                     cudaSuccess);
    assert_int_equal(blocks, 32);
    assert_int_equal(cudaFuncSetAttribute((const void *)add_gvar_stub, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          100 * 1024),
                     cudaSuccess);
    assert_int_equal(cudaFuncSetAttribute((const void *)add_gvar_stub, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          300 * 1024),
                     cudaErrorInvalidValue);
    assert_int_equal(cudaFuncGetAttributes(&a, (const void *)test_function_queries), cudaErrorInvalidDeviceFunction);
    (void)cudaGetLastError();
}

static void test_streams_events(void **state)
{
    (void)state;
    register_plain();
    cudaStream_t s;
    cudaEvent_t a, b, never;
    assert_int_equal(cudaStreamCreate(&s), cudaSuccess);
    assert_int_equal(cudaEventCreate(&a), cudaSuccess);
    assert_int_equal(cudaEventCreate(&b), cudaSuccess);
    assert_int_equal(cudaEventCreate(&never), cudaSuccess);
    int *d = device_ints(1000, 0), n = 1000;
    void *args[] = {&d, &n};
    const dim3 grid = {4, 1, 1}, block = {256, 1, 1};
    assert_int_equal(cudaEventRecord(a, s), cudaSuccess);
    assert_int_equal(cudaLaunchKernel((const void *)add_gvar_stub, grid, block, args, 0, s), cudaSuccess);
    assert_int_equal(cudaEventRecord(b, s), cudaSuccess);
    assert_int_equal(cudaStreamSynchronize(s), cudaSuccess);
    float ms = 0;
    /* the time model's prediction for the launch between: positive, and
     * far below a millisecond for 1000 elements on an H100 */
    assert_int_equal(cudaEventElapsedTime(&ms, a, b), cudaSuccess);
    assert_true(ms > 0.0f && ms < 0.1f);
    assert_int_equal(cudaEventElapsedTime(&ms, a, never), cudaErrorInvalidResourceHandle);
    assert_int_equal(cudaEventDestroy(a), cudaSuccess);
    assert_int_equal(cudaEventDestroy(b), cudaSuccess);
    assert_int_equal(cudaEventDestroy(never), cudaSuccess);
    assert_int_equal(cudaStreamDestroy(s), cudaSuccess);
    assert_int_equal(cudaFree(d), cudaSuccess);
    (void)cudaGetLastError();
}

static void test_unsupported(void **state)
{
    (void)state;
    assert_int_equal(cudaGraphCreate(NULL, 0), cudaErrorNotSupported);
    assert_int_equal(cudaGetLastError(), cudaErrorNotSupported);
    assert_int_equal(cudaGraphCreate(NULL, 0), cudaErrorNotSupported);
    (void)cudaGetLastError();
}

/* A fat binary with SASS only: nothing to run, said, and the launch refused. */
static void test_sass_only(void **state)
{
    (void)state;
    static fat_storage fat_elf;
    static wrapper wrap_elf;
    static const char elf[] = "\177ELF not a cubin the simulator could run";
    make_entry(&fat_elf, &wrap_elf, 2, elf, sizeof elf, 0, 0);
    void **h = __cudaRegisterFatBinary(&wrap_elf);
    __cudaRegisterFunction(h, (const char *)test_sass_only, "sass_kernel", "sass_kernel", -1, NULL, NULL, NULL, NULL,
                           NULL);
    const dim3 one = {1, 1, 1};
    assert_int_equal(cudaLaunchKernel((const void *)test_sass_only, one, one, NULL, 0, NULL),
                     cudaErrorNoKernelImageForDevice);
    assert_int_equal(cudaGetLastError(), cudaErrorNoKernelImageForDevice);
    assert_int_equal(cudaDeviceSynchronize(), cudaSuccess); /* not sticky: the GPU would not have run it either */
}

/* Last: a launch the simulator stops leaves the GPU's sticky error. */
static void test_sticky_error(void **state)
{
    (void)state;
    register_plain();
    int *bogus = (int *)(uintptr_t)0x1000, n = 32;
    void *args[] = {&bogus, &n};
    const dim3 grid = {1, 1, 1}, block = {32, 1, 1};
    assert_int_equal(cudaLaunchKernel((const void *)add_gvar_stub, grid, block, args, 0, NULL), cudaSuccess);
    assert_int_equal(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    void *p = NULL;
    assert_int_equal(cudaMalloc(&p, 16), cudaErrorIllegalAddress);
    assert_int_equal(cudaGetLastError(), cudaErrorIllegalAddress);
    assert_int_equal(cudaPeekAtLastError(), cudaErrorIllegalAddress);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_launch_forms),  cmocka_unit_test(test_launch_refusals),
        cmocka_unit_test(test_zstd_module),   cmocka_unit_test(test_memory),
        cmocka_unit_test(test_device_queries), cmocka_unit_test(test_function_queries),
        cmocka_unit_test(test_streams_events), cmocka_unit_test(test_unsupported),
        cmocka_unit_test(test_sass_only),      cmocka_unit_test(test_sticky_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
