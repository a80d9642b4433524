/* Kernel times through CUPTI's activity API (gpu_time.h), loaded with
 * dlopen: only the few entry points below are used. */
#include "verify/report/gpu_time.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cupti_activity.h>

/* The kernel record of this CUPTI: every version since 4 has start and end
 * at the same place, which is all that is read. */
#if CUPTI_API_VERSION >= 130000
typedef CUpti_ActivityKernel10 kernel_record;
#else
typedef CUpti_ActivityKernel9 kernel_record;
#endif

#define BUFFER_BYTES ((size_t)1 << 20)
#define BUFFER_ALIGN 8

static const char *const libraries[] = {
    "libcupti.so", "libcupti.so.13", "libcupti.so.12", "/usr/local/cuda/lib64/libcupti.so",
    "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so",
};

static struct {
    int state; /* 0 not tried, 1 ready, -1 failed */
    char why[256];
    CUptiResult (*register_callbacks)(CUpti_BuffersCallbackRequestFunc, CUpti_BuffersCallbackCompleteFunc);
    CUptiResult (*enable)(CUpti_ActivityKind);
    CUptiResult (*disable)(CUpti_ActivityKind);
    CUptiResult (*flush_all)(uint32_t);
    CUptiResult (*next_record)(uint8_t *, size_t, CUpti_Activity **);
    /* what the completed buffers held */
    uint64_t ns;
    unsigned kernels;
} cupti;

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    *buffer = aligned_alloc(BUFFER_ALIGN, BUFFER_BYTES);
    *size = *buffer ? BUFFER_BYTES : 0;
    *max_records = 0;
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size, size_t valid)
{
    (void)ctx;
    (void)stream;
    (void)size;
    CUpti_Activity *rec = NULL;
    while (cupti.next_record(buffer, valid, &rec) == CUPTI_SUCCESS)
        if (rec->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || rec->kind == CUPTI_ACTIVITY_KIND_KERNEL) {
            const kernel_record *k = (const kernel_record *)rec;
            if (k->end > k->start) {
                cupti.ns += k->end - k->start;
                cupti.kernels++;
            }
        }
    free(buffer);
}

static bool load(void)
{
    if (cupti.state)
        return cupti.state > 0;
    cupti.state = -1;
    void *h = NULL;
    for (size_t i = 0; i < sizeof libraries / sizeof libraries[0] && !h; i++)
        h = dlopen(libraries[i], RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(cupti.why, sizeof cupti.why, "CUPTI (libcupti.so of the CUDA toolkit) was not found");
        return false;
    }
    *(void **)&cupti.register_callbacks = dlsym(h, "cuptiActivityRegisterCallbacks");
    *(void **)&cupti.enable = dlsym(h, "cuptiActivityEnable");
    *(void **)&cupti.disable = dlsym(h, "cuptiActivityDisable");
    *(void **)&cupti.flush_all = dlsym(h, "cuptiActivityFlushAll");
    *(void **)&cupti.next_record = dlsym(h, "cuptiActivityGetNextRecord");
    if (!cupti.register_callbacks || !cupti.enable || !cupti.disable || !cupti.flush_all || !cupti.next_record) {
        snprintf(cupti.why, sizeof cupti.why, "libcupti lacks the activity API");
        return false;
    }
    CUptiResult r = cupti.register_callbacks(buffer_requested, buffer_completed);
    if (r != CUPTI_SUCCESS) {
        snprintf(cupti.why, sizeof cupti.why, "CUPTI refused its activity buffers (error %d)", (int)r);
        return false;
    }
    cupti.state = 1;
    return true;
}

bool report_gpu_timing_ready(char *why, size_t size)
{
    bool ok = load();
    snprintf(why, size, "%s", ok ? "" : cupti.why);
    return ok;
}

sl_status report_gpu_timed(sl_scan_fn fn, const sl_scan_args *args, report_gpu_time *t)
{
    t->kernel_ms = 0;
    t->kernels = 0;
    if (!load()) {
        sl_status st = fn(args);
        return st == SL_OK ? SL_ERR_UNSUPPORTED : st;
    }
    cupti.ns = 0;
    cupti.kernels = 0;
    bool on = cupti.enable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) == CUPTI_SUCCESS;
    sl_status st = fn(args); /* returns after its results are copied back: the kernels are done */
    if (on) {
        cupti.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
        cupti.disable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    }
    if (st != SL_OK)
        return st;
    if (!on || cupti.kernels == 0)
        return SL_ERR_UNSUPPORTED;
    t->kernel_ms = (double)cupti.ns * 1e-6;
    t->kernels = cupti.kernels;
    return SL_OK;
}
