/* The GPUs of the multi-gpu scan on the CUDA backend (mg_devices.h). */
#include <cuda_runtime.h>
#include <mutex>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/device/mg_devices.h"

static sl_status status_of(cudaError_t e)
{
    if (e == cudaSuccess)
        return SL_OK;
    (void)cudaGetLastError();
    return e == cudaErrorMemoryAllocation ? SL_ERR_NOMEM : SL_ERR_CUDA;
}

extern "C" sl_status sl_mg_mode_get(sl_mg_mode *m)
{
    const char *v = getenv(SL_MG_DEVICES_ENV);
    *m = SL_MG_AUTO;
    if (!v || !*v || strcmp(v, "auto") == 0)
        return SL_OK;
    if (strcmp(v, "each") == 0)
        *m = SL_MG_EACH;
    else if (strcmp(v, "one") == 0)
        *m = SL_MG_ONE;
    else
        return SL_ERR_ARG;
    return SL_OK;
}

#define SAY(...) ((why) && (len) ? (void)snprintf((why), (len), __VA_ARGS__) : (void)0)

/* Pairs whose peer access this process enabled: bit h of enabled[g] for
 * GPU g reaching GPU h's memory. Asked again for pairs not yet enabled. */
static unsigned long long enabled[SL_MG_MAX_DEVICES];
static std::mutex enabled_lock; /* verify's cases may run on several threads */

extern "C" sl_status sl_mg_gpus_ready(unsigned p, char *why, size_t len)
{
    const std::lock_guard<std::mutex> hold(enabled_lock);
    int count = 0, cur = 0;
    SAY("%s", "");
    if (cudaGetDeviceCount(&count) != cudaSuccess || count < (int)p) {
        (void)cudaGetLastError();
        SAY("%u shards on as many GPUs; this host has %d", p, count);
        return SL_ERR_NO_GPU;
    }
    if (p > SL_MG_MAX_DEVICES)
        return SL_ERR_ARG;
    for (unsigned g = 0; g < p; g++)
        for (unsigned h = 0; h < p; h++) {
            int can = 0;
            if (g == h || (enabled[g] >> h & 1u))
                continue;
            if (cudaDeviceCanAccessPeer(&can, (int)g, (int)h) != cudaSuccess || !can) {
                (void)cudaGetLastError();
                SAY("GPU %u cannot access the memory of GPU %u (no peer access)", g, h);
                return SL_ERR_UNSUPPORTED;
            }
        }
    if (cudaGetDevice(&cur) != cudaSuccess)
        return status_of(cudaGetLastError());
    sl_status st = SL_OK;
    for (unsigned g = 0; g < p && st == SL_OK; g++)
        for (unsigned h = 0; h < p && st == SL_OK; h++) {
            if (g == h || (enabled[g] >> h & 1u))
                continue;
            cudaError_t e = cudaSetDevice((int)g);
            if (e == cudaSuccess)
                e = cudaDeviceEnablePeerAccess((int)h, 0);
            if (e == cudaErrorPeerAccessAlreadyEnabled) {
                (void)cudaGetLastError();
                e = cudaSuccess;
            }
            if (e != cudaSuccess) {
                SAY("GPU %u could not enable peer access to GPU %u", g, h);
                st = status_of(e);
            } else {
                enabled[g] |= 1ull << h;
            }
        }
    (void)cudaSetDevice(cur);
    return st;
}

extern "C" sl_status sl_mg_place(unsigned p, int *each, char *why, size_t len)
{
    sl_mg_mode m;
    *each = 0;
    SAY("%s", "");
    if (sl_mg_mode_get(&m) != SL_OK) {
        SAY("%s=%s is not a placement (valid: auto, each, one)", SL_MG_DEVICES_ENV, getenv(SL_MG_DEVICES_ENV));
        return SL_ERR_ARG;
    }
    if (m == SL_MG_ONE)
        return SL_OK;
    const sl_status st = sl_mg_gpus_ready(p, why, len);
    if (st == SL_OK) {
        *each = 1;
        return SL_OK;
    }
    /* auto: today's placement where the GPUs are not there; each: refused */
    if (m == SL_MG_AUTO && (st == SL_ERR_NO_GPU || st == SL_ERR_UNSUPPORTED))
        return SL_OK;
    return m == SL_MG_EACH && (st == SL_ERR_NO_GPU || st == SL_ERR_UNSUPPORTED) ? SL_ERR_ARG : st;
}

static thread_local sl_mg_run *current_run;

extern "C" sl_mg_run *sl_mg_run_current(void) { return current_run; }

extern "C" void sl_mg_run_set(sl_mg_run *r) { current_run = r; }

extern "C" sl_status sl_mg_run_open(sl_mg_run *r, unsigned p, size_t total, size_t elem, int io)
{
    int cur = 0;
    memset(r, 0, sizeof *r);
    if (p == 0 || p > SL_MG_MAX_DEVICES)
        return SL_ERR_ARG;
    if (cudaGetDevice(&cur) != cudaSuccess)
        return status_of(cudaGetLastError());
    r->devices = p;
    r->elem = elem;
    r->total = total;
    r->io = io;
    sl_status st = SL_OK;
    for (unsigned g = 0; g < p && st == SL_OK; g++) {
        size_t lo;
        sl_mg_shard(total, p, g, &lo, &r->n[g]);
        cudaError_t e = cudaSetDevice((int)g);
        /* a blocking stream: ordered with what the default stream of its
         * GPU runs (the arena's zeroing, the benchmark's events) */
        if (e == cudaSuccess)
            e = cudaStreamCreate((cudaStream_t *)&r->stream[g]);
        if (e == cudaSuccess)
            e = cudaEventCreateWithFlags((cudaEvent_t *)&r->done[g], cudaEventDisableTiming);
        if (e == cudaSuccess && io && r->n[g])
            e = cudaMalloc(&r->in[g], r->n[g] * elem);
        if (e == cudaSuccess && io && r->n[g])
            e = cudaMalloc(&r->out[g], r->n[g] * elem);
        st = status_of(e);
    }
    (void)cudaSetDevice(cur);
    if (st != SL_OK)
        sl_mg_run_close(r);
    return st;
}

extern "C" void sl_mg_run_close(sl_mg_run *r)
{
    int cur = 0;
    (void)cudaGetDevice(&cur);
    for (unsigned g = 0; g < r->devices; g++) {
        if (cudaSetDevice((int)g) != cudaSuccess)
            continue;
        (void)cudaDeviceSynchronize(); /* nothing is freed under a running kernel */
        if (r->io) {
            cudaFree(r->in[g]);
            cudaFree(r->out[g]);
        }
        if (r->arena[g].error)
            sl_dev_arena_close(&r->arena[g]);
        if (r->done[g])
            cudaEventDestroy((cudaEvent_t)r->done[g]);
        if (r->stream[g])
            cudaStreamDestroy((cudaStream_t)r->stream[g]);
    }
    (void)cudaGetLastError();
    (void)cudaSetDevice(cur);
    memset(r, 0, sizeof *r);
}

extern "C" sl_status sl_mg_run_begin(sl_mg_run *r, const size_t *cap)
{
    int cur = 0, zeroed = 0;
    if (cudaGetDevice(&cur) != cudaSuccess)
        return status_of(cudaGetLastError());
    sl_status st = SL_OK;
    for (unsigned g = 0; g < r->devices && st == SL_OK; g++) {
        st = status_of(cudaSetDevice((int)g));
        if (st == SL_OK && !r->arena[g].error) {
            st = sl_dev_arena_open(&r->arena[g], cap[g]);
            zeroed = 1;
        }
        if (st == SL_OK) {
            st = sl_dev_arena_next_run(&r->arena[g]);
            zeroed |= r->arena[g].epoch == 1; /* cleared when the epoch wrapped */
        }
    }
    for (unsigned g = 1; g < r->devices && st == SL_OK; g++)
        if (r->arena[g].epoch != r->arena[0].epoch)
            st = SL_ERR_ARG; /* arenas of one run advance together */
    /* A GPU's zeroing runs on its own default stream, and the GPUs before
     * it write into its board: every zeroing is done before any GPU's run. */
    for (unsigned g = 0; g < r->devices && st == SL_OK && zeroed; g++)
        if ((st = status_of(cudaSetDevice((int)g))) == SL_OK)
            st = status_of(cudaDeviceSynchronize());
    /* The GPUs before g write into g's board in this run: not before g's
     * part of the last run has read it, nor before any GPU is done with
     * the last run's tile states (queued, no host wait). */
    for (unsigned g = 0; g < r->devices && st == SL_OK && r->ran; g++) {
        st = status_of(cudaSetDevice((int)g));
        for (unsigned h = 0; h < r->devices && st == SL_OK; h++)
            if (h != g)
                st = status_of(cudaStreamWaitEvent((cudaStream_t)r->stream[g], (cudaEvent_t)r->done[h], 0));
    }
    r->saved_dev = cur;
    r->saved_stream = sl_dev_stream_current();
    r->saved_arena = sl_dev_arena_current();
    if (st != SL_OK)
        (void)cudaSetDevice(cur);
    return st;
}

extern "C" sl_status sl_mg_run_use(sl_mg_run *r, unsigned g)
{
    if (g >= r->devices)
        return SL_ERR_ARG;
    const sl_status st = status_of(cudaSetDevice((int)g));
    sl_dev_stream_set(r->stream[g]);
    sl_dev_arena_set(&r->arena[g]);
    return st;
}

extern "C" sl_status sl_mg_run_end(sl_mg_run *r, sl_status st)
{
    for (unsigned g = 0; g < r->devices; g++) {
        sl_status s = status_of(cudaSetDevice((int)g));
        if (s == SL_OK)
            s = status_of(cudaEventRecord((cudaEvent_t)r->done[g], (cudaStream_t)r->stream[g]));
        if (st == SL_OK)
            st = s;
    }
    r->ran = 1;
    sl_dev_stream_set(r->saved_stream);
    sl_dev_arena_set(r->saved_arena);
    (void)cudaSetDevice(r->saved_dev);
    return st;
}

extern "C" sl_status sl_mg_run_wait(sl_mg_run *r, int *gave_up)
{
    int cur = 0;
    sl_status st = status_of(cudaGetDevice(&cur));
    *gave_up = 0;
    for (unsigned g = 0; g < r->devices && st == SL_OK; g++) {
        int gu = 0;
        st = status_of(cudaSetDevice((int)g));
        if (st == SL_OK)
            st = status_of(cudaStreamSynchronize((cudaStream_t)r->stream[g]));
        if (st == SL_OK && r->arena[g].error)
            st = sl_dev_arena_error(&r->arena[g], &gu);
        *gave_up |= gu;
    }
    (void)cudaSetDevice(cur);
    return st;
}

/* Copies between the host array and the slices (to_gpu: in[], else out[]). */
static sl_status copy_slices(const sl_mg_run *r, void *host, int to_gpu)
{
    int cur = 0;
    sl_status st = status_of(cudaGetDevice(&cur));
    for (unsigned g = 0; g < r->devices && st == SL_OK; g++) {
        size_t lo, len;
        sl_mg_shard(r->total, r->devices, g, &lo, &len);
        char *h = (char *)host + lo * r->elem;
        if (len == 0)
            continue;
        st = status_of(cudaSetDevice((int)g));
        if (st == SL_OK)
            st = status_of(to_gpu ? cudaMemcpy(r->in[g], h, len * r->elem, cudaMemcpyHostToDevice)
                              : cudaMemcpy(h, r->out[g], len * r->elem, cudaMemcpyDeviceToHost));
    }
    (void)cudaSetDevice(cur);
    return st;
}

extern "C" sl_status sl_mg_run_copy_in(sl_mg_run *r, const void *host) { return copy_slices(r, (void *)host, 1); }

extern "C" sl_status sl_mg_run_copy_out(const sl_mg_run *r, void *host) { return copy_slices(r, host, 0); }
