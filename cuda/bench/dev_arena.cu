/* Device arenas (dev_arena.h): the arena behind sl_dev_alloc while a
 * benchmark times a driver, and the occupancy query of SL_RESIDENT_BLOCKS. */
#include <cuda_runtime.h>

#include "cuda/bench/dev_arena.h"

/* Epochs live in 30 bits of the protocol words (cuda/device/tile_status.cuh). */
#define SL_ARENA_EPOCH_LIMIT (1u << 30)
#define SL_ARENA_ALIGN 256u

static thread_local sl_dev_arena *current_arena;

extern "C" sl_dev_arena *sl_dev_arena_current(void) { return current_arena; }

extern "C" void sl_dev_arena_set(sl_dev_arena *s) { current_arena = s; }

static thread_local void *current_stream;

extern "C" void *sl_dev_stream_current(void) { return current_stream; }

extern "C" void sl_dev_stream_set(void *s) { current_stream = s; }

static sl_status status_of(cudaError_t e)
{
    if (e == cudaSuccess)
        return SL_OK;
    (void)cudaGetLastError();
    return e == cudaErrorMemoryAllocation ? SL_ERR_NOMEM : SL_ERR_CUDA;
}

extern "C" sl_status sl_dev_arena_open(sl_dev_arena *s, size_t cap)
{
    *s = sl_dev_arena{};
    cudaError_t e = cudaMalloc((void **)&s->error, sizeof *s->error);
    if (e == cudaSuccess)
        e = cudaMemset(s->error, 0, sizeof *s->error);
    if (e == cudaSuccess && cap > 0)
        e = cudaMalloc((void **)&s->mem, cap);
    if (e == cudaSuccess && cap > 0)
        e = cudaMemset(s->mem, 0, cap);
    if (e != cudaSuccess) {
        sl_dev_arena_close(s);
        return status_of(e);
    }
    s->cap = cap;
    return SL_OK;
}

extern "C" void sl_dev_arena_close(sl_dev_arena *s)
{
    if (s->mem)
        cudaFree(s->mem);
    if (s->error)
        cudaFree(s->error);
    *s = sl_dev_arena{};
}

extern "C" sl_status sl_dev_arena_next_run(sl_dev_arena *s)
{
    s->used = 0;
    if (s->epoch + 1 >= SL_ARENA_EPOCH_LIMIT) {
        /* words of every earlier epoch must read as never written again */
        if (s->cap > 0) {
            sl_status st = status_of(cudaMemset(s->mem, 0, s->cap));
            if (st != SL_OK)
                return st;
        }
        s->epoch = 0;
    }
    s->epoch++;
    return SL_OK;
}

extern "C" sl_status sl_dev_arena_error(const sl_dev_arena *s, int *gave_up)
{
    uint32_t err = 0;
    sl_status st = status_of(cudaMemcpy(&err, s->error, sizeof err, cudaMemcpyDeviceToHost));
    *gave_up = st == SL_OK && err != 0;
    return st;
}

extern "C" sl_status sl_dev_arena_alloc(sl_dev_arena *s, void **p, size_t bytes)
{
    const size_t start = (s->used + SL_ARENA_ALIGN - 1) / SL_ARENA_ALIGN * SL_ARENA_ALIGN;
    *p = NULL;
    if (start + bytes > s->need)
        s->need = start + bytes;
    s->used = start + bytes;
    if (start + bytes <= s->cap) {
        *p = s->mem + start;
        return SL_OK;
    }
    /* beyond the arena: fresh zeroed memory, freed by sl_dev_free */
    cudaError_t e = cudaMalloc(p, bytes);
    if (e == cudaSuccess)
        e = cudaMemset(*p, 0, bytes);
    if (e != cudaSuccess && *p) {
        cudaFree(*p);
        *p = NULL;
    }
    return status_of(e);
}

extern "C" int sl_dev_arena_owns(const sl_dev_arena *s, const void *p)
{
    const unsigned char *c = (const unsigned char *)p;
    return s->mem != NULL && c >= s->mem && c < s->mem + s->cap;
}

/* The answers of the two queries below, per thread: a driver asks them on
 * every call, and their host time would otherwise be part of every call's
 * latency (on the H100 about 2 % of a 2^16 lookback call;
 * docs/performance.md). An answer depends only on the device, the kernel,
 * the block and the dynamic shared memory, none of which a process changes
 * under it (no kernel's attributes are set). */
#define SL_QUERY_CACHE 64
#define SL_QUERY_DEVICES 16
typedef struct {
    const void *kernel;
    int dev;
    unsigned block;
    size_t shmem;
    unsigned blocks;
} resident_entry;
static thread_local resident_entry resident_cache[SL_QUERY_CACHE];
static thread_local unsigned resident_count, resident_next;
static thread_local size_t l2_cache[SL_QUERY_DEVICES]; /* bytes + 1; 0: not asked yet */

static unsigned resident_query(int dev, const void *kernel, unsigned block, size_t shmem)
{
    int sms = 0, per_sm = 0;
    if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, (int)block, shmem) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    const long long total = (long long)sms * per_sm;
    return total > 0 ? (unsigned)total : 1u;
}

extern "C" unsigned sl_dev_resident_blocks(const void *kernel, unsigned block, size_t shmem)
{
    int dev = 0;
    if (cudaGetDevice(&dev) != cudaSuccess) {
        (void)cudaGetLastError();
        return 1;
    }
    for (unsigned k = 0; k < resident_count; k++) {
        const resident_entry *e = &resident_cache[k];
        if (e->kernel == kernel && e->dev == dev && e->block == block && e->shmem == shmem)
            return e->blocks;
    }
    const unsigned blocks = resident_query(dev, kernel, block, shmem);
    if (blocks == 0) /* a failed query is not remembered */
        return 1;
    resident_cache[resident_next] = resident_entry{kernel, dev, block, shmem, blocks};
    resident_next = (resident_next + 1) % SL_QUERY_CACHE;
    if (resident_count < SL_QUERY_CACHE)
        resident_count++;
    return blocks;
}

extern "C" size_t sl_dev_l2_bytes(void)
{
    int dev = 0, bytes = 0;
    if (cudaGetDevice(&dev) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    if (dev >= 0 && dev < SL_QUERY_DEVICES && l2_cache[dev])
        return l2_cache[dev] - 1;
    if (cudaDeviceGetAttribute(&bytes, cudaDevAttrL2CacheSize, dev) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    const size_t l2 = bytes > 0 ? (size_t)bytes : 0;
    if (dev >= 0 && dev < SL_QUERY_DEVICES)
        l2_cache[dev] = l2 + 1;
    return l2;
}
