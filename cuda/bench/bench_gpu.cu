/* The GPU side of `scanlab bench --backend cuda` (bench_gpu.h). */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/bench/bench_gpu.h"
#include "cuda/dialect.h"

enum { SL_BENCH_THREADS = 256, SL_BENCH_MAX_BLOCKS = 65535 };
/* Polls after which a hand-off is given up (seconds on any GPU). */
#define SL_HANDOFF_SPIN_LIMIT (1u << 22)

static sl_status status_of(cudaError_t e)
{
    if (e == cudaSuccess)
        return SL_OK;
    (void)cudaGetLastError();
    return e == cudaErrorMemoryAllocation ? SL_ERR_NOMEM : SL_ERR_CUDA;
}

static unsigned grid_for(size_t n)
{
    const size_t g = (n + SL_BENCH_THREADS - 1) / SL_BENCH_THREADS;
    return g == 0 ? 1u : g < SL_BENCH_MAX_BLOCKS ? (unsigned)g : (unsigned)SL_BENCH_MAX_BLOCKS;
}

extern "C" sl_status sl_bench_gpu_info(sl_bench_gpu *g)
{
    int count = 0, dev = 0;
    cudaDeviceProp p;
    memset(g, 0, sizeof *g);
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        (void)cudaGetLastError();
        return SL_ERR_NO_GPU;
    }
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess)
        e = cudaGetDeviceProperties(&p, dev);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&g->clock_khz, cudaDevAttrClockRate, dev);
    if (e == cudaSuccess)
        e = cudaMemGetInfo(&g->free_bytes, &g->mem_bytes);
    if (e != cudaSuccess)
        return status_of(e);
    snprintf(g->name, sizeof g->name, "%s", p.name);
    g->sms = p.multiProcessorCount;
    g->l2_bytes = (size_t)p.l2CacheSize;
    g->cc_major = p.major;
    g->cc_minor = p.minor;
    return SL_OK;
}

extern "C" sl_status sl_bench_alloc(void **p, size_t bytes)
{
    *p = NULL;
    return bytes == 0 ? SL_OK : status_of(cudaMalloc(p, bytes));
}

extern "C" void sl_bench_free(void *p)
{
    if (p)
        cudaFree(p);
}

extern "C" sl_status sl_bench_to_host(void *host, const void *dev, size_t bytes)
{
    return bytes == 0 ? SL_OK : status_of(cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost));
}

/* verify_mix64 (verify/harness/rng.c): one splitmix64 step. */
__device__ static uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

__global__ static void fill_kernel(void *d, int type, int add, size_t n, uint64_t seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        const uint64_t r = mix64(seed ^ (uint64_t)i);
        const int64_t iv = add ? (int64_t)(r % 1000) : (int64_t)r;
        const double fv = (double)(r >> 11) * 0x1.0p-53;
        switch (type) {
        case SL_I32: ((int32_t *)d)[i] = (int32_t)iv; break;
        case SL_I64: ((int64_t *)d)[i] = iv; break;
        case SL_F32: ((float *)d)[i] = (float)fv; break;
        default: ((double *)d)[i] = fv; break;
        }
    }
}

extern "C" sl_status sl_bench_fill(void *d, sl_type type, sl_op op, size_t n, uint64_t seed)
{
    if (n == 0)
        return SL_OK;
    fill_kernel<<<grid_for(n), SL_BENCH_THREADS>>>(d, (int)type, op == SL_ADD, n, seed);
    return status_of(cudaDeviceSynchronize());
}

extern "C" sl_status sl_bench_copy(void *dst, const void *src, size_t bytes)
{
    return bytes == 0 ? SL_OK : status_of(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, 0));
}

/* Reads every 16 bytes of buf; the XOR of all is stored only if it equals
 * a value it never has, so that the reads cannot be left out. */
__global__ static void flush_kernel(const uint4 *buf, size_t count, unsigned *sink)
{
    unsigned acc = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count; i += (size_t)gridDim.x * blockDim.x) {
        const uint4 v = buf[i];
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (acc == 0x5ca9b3e1u && sink)
        *sink = acc;
}

extern "C" sl_status sl_bench_flush(const void *buf, size_t bytes)
{
    const size_t count = bytes / sizeof(uint4);
    if (count == 0)
        return SL_OK;
    flush_kernel<<<grid_for(count), SL_BENCH_THREADS>>>((const uint4 *)buf, count, NULL);
    return status_of(cudaGetLastError());
}

/* Sum over the 4-byte words w_i of mix64(i << 32 | w_i): order-free, so
 * blocks add their parts atomically. */
__global__ static void digest_kernel(const uint32_t *w, size_t count, unsigned long long *slot)
{
    unsigned long long h = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count; i += (size_t)gridDim.x * blockDim.x)
        h += mix64(((uint64_t)i << 32) | w[i]);
    for (int d = SL_WARP_SIZE / 2; d > 0; d /= 2)
        h += __shfl_down_sync(SL_FULL_MASK, h, d);
    if ((threadIdx.x & (SL_WARP_SIZE - 1)) == 0)
        atomicAdd(slot, h);
}

extern "C" sl_status sl_bench_digest(const void *d, size_t bytes, uint64_t *slot)
{
    const size_t count = bytes / sizeof(uint32_t);
    if (count == 0)
        return SL_OK;
    digest_kernel<<<grid_for(count), SL_BENCH_THREADS>>>((const uint32_t *)d, count, (unsigned long long *)slot);
    return status_of(cudaGetLastError());
}

extern "C" sl_status sl_bench_zero(void *d, size_t bytes)
{
    return bytes == 0 ? SL_OK : status_of(cudaMemset(d, 0, bytes));
}


extern "C" sl_status sl_bench_event_new(void **e)
{
    cudaEvent_t ev = NULL;
    sl_status st = status_of(cudaEventCreate(&ev));
    *e = st == SL_OK ? (void *)ev : NULL;
    return st;
}

extern "C" void sl_bench_event_free(void *e)
{
    if (e)
        cudaEventDestroy((cudaEvent_t)e);
}

extern "C" sl_status sl_bench_event_record(void *e) { return status_of(cudaEventRecord((cudaEvent_t)e, 0)); }

extern "C" sl_status sl_bench_event_ms(void *start, void *stop, double *ms)
{
    float f = 0.0f;
    cudaError_t e = cudaEventSynchronize((cudaEvent_t)stop);
    if (e == cudaSuccess)
        e = cudaEventElapsedTime(&f, (cudaEvent_t)start, (cudaEvent_t)stop);
    *ms = (double)f;
    return status_of(e);
}

extern "C" sl_status sl_bench_sync(void) { return status_of(cudaDeviceSynchronize()); }

/* Block 0 publishes 2k + 1 and waits for 2k + 2; block 1 waits for 2k + 1
 * and publishes 2k + 2: each round is two hand-offs through one word, with
 * the strong relaxed accesses of the tile protocol (cuda/dialect.h). */
__global__ static void handoff_kernel(uint64_t *word, int rounds, unsigned *sm, unsigned *err)
{
    unsigned smid;
    if (threadIdx.x != 0)
        return;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    sm[blockIdx.x] = smid;
    const uint64_t mine = blockIdx.x == 0 ? 1 : 2;
    for (int k = 0; k < rounds; k++) {
        const uint64_t publish = 2 * (uint64_t)k + mine, await = blockIdx.x == 0 ? publish + 1 : publish - 1;
        if (blockIdx.x == 0)
            ST_RELAXED(word, 0, publish);
        uint32_t polls = 0;
        while (LD_RELAXED(word, 0) != await)
            if (++polls == SL_HANDOFF_SPIN_LIMIT) {
                ST_RELAXED(err, 0, 1u);
                return;
            }
        if (blockIdx.x == 1)
            ST_RELAXED(word, 0, publish);
    }
}

extern "C" sl_status sl_bench_handoff_us(int rounds, double *us, int *sm_a, int *sm_b)
{
    uint64_t *word = NULL;
    unsigned *aux = NULL, host[3] = {0, 0, 0};
    cudaEvent_t start = NULL, stop = NULL;
    float ms = 0.0f;
    *us = 0.0;
    cudaError_t e = cudaMalloc((void **)&word, sizeof *word);
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&aux, sizeof host);
    if (e == cudaSuccess)
        e = cudaMemset(word, 0, sizeof *word);
    if (e == cudaSuccess)
        e = cudaMemset(aux, 0, sizeof host);
    if (e == cudaSuccess)
        e = cudaEventCreate(&start);
    if (e == cudaSuccess)
        e = cudaEventCreate(&stop);
    if (e == cudaSuccess)
        e = cudaEventRecord(start, 0);
    if (e == cudaSuccess) {
        handoff_kernel<<<2, SL_WARP_SIZE>>>(word, rounds, aux, aux + 2);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess)
        e = cudaEventRecord(stop, 0);
    if (e == cudaSuccess)
        e = cudaEventSynchronize(stop);
    if (e == cudaSuccess)
        e = cudaEventElapsedTime(&ms, start, stop);
    if (e == cudaSuccess)
        e = cudaMemcpy(host, aux, sizeof host, cudaMemcpyDeviceToHost);
    if (start)
        cudaEventDestroy(start);
    if (stop)
        cudaEventDestroy(stop);
    cudaFree(word);
    cudaFree(aux);
    if (e != cudaSuccess)
        return status_of(e);
    *us = (double)ms * 1e3;
    *sm_a = (int)host[0];
    *sm_b = (int)host[1];
    return host[2] ? SL_ERR_TIMEOUT : SL_OK;
}
