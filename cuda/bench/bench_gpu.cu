/* The GPU side of `scanlab bench --backend cuda` (bench_gpu.h). */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/bench/bench_gpu.h"
#include "cuda/dialect.h"
#define SL_TILE_STATUS_COMMON_ONLY
#include "cuda/device/tile_status.cuh"

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

__global__ static void fill_kernel(void *d, int type, int add, size_t n, size_t first, uint64_t seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        const uint64_t r = mix64(seed ^ (uint64_t)(first + i));
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

extern "C" sl_status sl_bench_fill_at(void *d, sl_type type, sl_op op, size_t n, size_t first, uint64_t seed)
{
    if (n == 0)
        return SL_OK;
    fill_kernel<<<grid_for(n), SL_BENCH_THREADS>>>(d, (int)type, op == SL_ADD, n, first, seed);
    return status_of(cudaDeviceSynchronize());
}

extern "C" sl_status sl_bench_fill(void *d, sl_type type, sl_op op, size_t n, uint64_t seed)
{
    return sl_bench_fill_at(d, type, op, n, 0, seed);
}

extern "C" int sl_bench_gpu_count(void)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return count;
}

extern "C" sl_status sl_bench_use_gpu(int g) { return status_of(cudaSetDevice(g)); }

extern "C" sl_status sl_bench_event_wait(void *e) { return status_of(cudaStreamWaitEvent(0, (cudaEvent_t)e, 0)); }

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

__global__ static void hold_kernel(unsigned long long ns)
{
    unsigned long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do {
        __nanosleep(500);
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    } while (t - t0 < ns);
}

extern "C" sl_status sl_bench_hold(unsigned us)
{
    hold_kernel<<<1, 1>>>(us * 1000ull);
    return status_of(cudaGetLastError());
}

extern "C" sl_status sl_bench_event_done(void *e, int *done)
{
    const cudaError_t r = cudaEventQuery((cudaEvent_t)e);
    *done = r == cudaSuccess;
    return r == cudaErrorNotReady ? SL_OK : status_of(r);
}

/* A hand-off goes through words of the tile protocol's layout
 * (tile_status.cuh), as a chained scan's tiles publish and poll them: an
 * 8-byte word (a 4-byte value under its epoch and status) for 4-byte
 * elements, a 16-byte word (value, then a tag of it over epoch and status)
 * for 8-byte ones, whose poll also checks the tag. */
#define SL_HANDOFF_META ((1u << SL_TILE_EPOCH_SHIFT) | SL_TILE_P) /* epoch 1, an inclusive prefix */

__device__ static void handoff_publish(uint64_t *w, uint64_t v)
{
    ST_RELAXED(w, 0, ((uint64_t)SL_HANDOFF_META << 32) | (uint32_t)v);
}

__device__ static void handoff_publish(sl_u64x2 *w, uint64_t v)
{
    sl_u64x2 x;
    x.lo = v;
    x.hi = ((uint64_t)sl_tile_tag(v) << 32) | SL_HANDOFF_META;
    ST_RELAXED(w, 0, x);
}

/* One poll: whether the word holds an inclusive prefix of this run (tag
 * checked for 16 bytes), and its value. */
__device__ static bool handoff_poll(const uint64_t *w, uint64_t *v)
{
    const uint64_t x = LD_RELAXED(w, 0);
    *v = (uint32_t)x;
    return (uint32_t)(x >> 32) == SL_HANDOFF_META;
}

__device__ static bool handoff_poll(const sl_u64x2 *w, uint64_t *v)
{
    const sl_u64x2 x = LD_RELAXED(w, 0);
    *v = x.lo;
    return (uint32_t)(x.hi >> 32) == sl_tile_tag(x.lo) && (uint32_t)x.hi == SL_HANDOFF_META;
}

/* An empty chain: link k is published in words[k] by block k mod the
 * grid once it has seen link k - 1, as a chained scan's tiles hand on
 * their prefixes, without the tiles' data. What a link publishes is made
 * from what it saw (its value plus one), as a tile's prefix is, so that
 * the combination and the new word's tag follow the poll as they do in
 * the scan. One block per SM, so that consecutive links cross SMs as
 * consecutive tiles mostly do. Measured on
 * the H100 (docs/performance.md): the same time per link with 66 to 1056
 * blocks, where a hand-off between two fixed blocks varied from 0.235 to
 * 0.280 us with the pair of SMs they ran on. Every wait is bounded. */
template <typename W> __global__ static void chain_kernel(W *words, unsigned links, unsigned *err)
{
    if (threadIdx.x != 0)
        return;
    for (unsigned k = blockIdx.x; k < links; k += gridDim.x) {
        uint64_t seen = 0;
        uint32_t polls = 0;
        while (k > 0 && !handoff_poll(words + k - 1, &seen))
            if (++polls == SL_HANDOFF_SPIN_LIMIT) {
                ST_RELAXED(err, 0, 1u);
                return;
            }
        handoff_publish(words + k, k > 0 ? seen + 1 : 0);
    }
}

extern "C" sl_status sl_bench_handoff_us(int word_bytes, unsigned links, double *us)
{
    void *words = NULL;
    unsigned *err = NULL, host_err = 0;
    cudaEvent_t start = NULL, stop = NULL;
    float ms = 0.0f;
    int dev = 0, sms = 0;
    *us = 0.0;
    if ((word_bytes != 8 && word_bytes != 16) || links < 2)
        return SL_ERR_ARG;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (e == cudaSuccess)
        e = cudaMalloc(&words, (size_t)word_bytes * links);
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&err, sizeof host_err);
    if (e == cudaSuccess)
        e = cudaMemset(words, 0, (size_t)word_bytes * links);
    if (e == cudaSuccess)
        e = cudaMemset(err, 0, sizeof host_err);
    if (e == cudaSuccess)
        e = cudaEventCreate(&start);
    if (e == cudaSuccess)
        e = cudaEventCreate(&stop);
    if (e == cudaSuccess)
        e = cudaEventRecord(start, 0);
    if (e == cudaSuccess) {
        if (word_bytes == 8)
            chain_kernel<<<sms, SL_WARP_SIZE>>>((uint64_t *)words, links, err);
        else
            chain_kernel<<<sms, SL_WARP_SIZE>>>((sl_u64x2 *)words, links, err);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess)
        e = cudaEventRecord(stop, 0);
    if (e == cudaSuccess)
        e = cudaEventSynchronize(stop);
    if (e == cudaSuccess)
        e = cudaEventElapsedTime(&ms, start, stop);
    if (e == cudaSuccess)
        e = cudaMemcpy(&host_err, err, sizeof host_err, cudaMemcpyDeviceToHost);
    if (start)
        cudaEventDestroy(start);
    if (stop)
        cudaEventDestroy(stop);
    cudaFree(words);
    cudaFree(err);
    if (e != cudaSuccess)
        return status_of(e);
    *us = (double)ms * 1e3 / (double)(links - 1);
    return host_err ? SL_ERR_TIMEOUT : SL_OK;
}
