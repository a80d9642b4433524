/* Streams and events in issue order: every call completes before it
 * returns, so a stream is a handle and synchronising is a no-op that
 * reports the sticky error. An event records the predicted GPU time of
 * the launches issued before it (the time model, model/timemodel.c), so
 * cudaEventElapsedTime answers the time the kernels between two events
 * would take on the chosen device, not the simulator's own time. */
#include <stdlib.h>

#include "runtime/rt.h"

#define STREAM_MAGIC 0x5354524du
#define EVENT_MAGIC 0x4556454eu

struct rt_stream {
    unsigned magic;
};

struct rt_event {
    unsigned magic;
    bool recorded;
    double ns;
};

static double clock_ns;
double rt_clock_ns(void) { return clock_ns; }
void rt_clock_add(double ns) { clock_ns += ns; }

static cudaError_t new_stream(cudaStream_t *s)
{
    if (!s)
        return rt_error(cudaErrorInvalidValue);
    *s = malloc(sizeof **s);
    if (!*s)
        return rt_error(cudaErrorMemoryAllocation);
    (*s)->magic = STREAM_MAGIC;
    return cudaSuccess;
}

RT_API cudaError_t cudaStreamCreate(cudaStream_t *s) { return new_stream(s); }
RT_API cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned f) { return (void)f, new_stream(s); }
RT_API cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned f, int p)
{
    return (void)f, (void)p, new_stream(s);
}

/* The default stream (0) and the legacy and per-thread handles (1, 2)
 * are streams too. */
static bool is_stream(cudaStream_t s) { return (uintptr_t)s <= 2 || s->magic == STREAM_MAGIC; }

RT_API cudaError_t cudaStreamDestroy(cudaStream_t s)
{
    if ((uintptr_t)s <= 2 || s->magic != STREAM_MAGIC)
        return rt_error(cudaErrorInvalidResourceHandle);
    s->magic = 0;
    free(s);
    return cudaSuccess;
}

RT_API cudaError_t cudaStreamSynchronize(cudaStream_t s)
{
    if (!is_stream(s))
        return rt_error(cudaErrorInvalidResourceHandle);
    return rt_sticky();
}

RT_API cudaError_t cudaStreamQuery(cudaStream_t s) { return cudaStreamSynchronize(s); }
RT_API cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned f)
{
    return (void)e, (void)f, cudaStreamSynchronize(s);
}
RT_API cudaError_t cudaDeviceSynchronize(void) { return rt_sticky(); }

static cudaError_t new_event(cudaEvent_t *e)
{
    if (!e)
        return rt_error(cudaErrorInvalidValue);
    *e = calloc(1, sizeof **e);
    if (!*e)
        return rt_error(cudaErrorMemoryAllocation);
    (*e)->magic = EVENT_MAGIC;
    return cudaSuccess;
}

RT_API cudaError_t cudaEventCreate(cudaEvent_t *e) { return new_event(e); }
RT_API cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned f) { return (void)f, new_event(e); }

static bool is_event(cudaEvent_t e) { return e && e->magic == EVENT_MAGIC; }

RT_API cudaError_t cudaEventDestroy(cudaEvent_t e)
{
    if (!is_event(e))
        return rt_error(cudaErrorInvalidResourceHandle);
    e->magic = 0;
    free(e);
    return cudaSuccess;
}

RT_API cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s)
{
    if (!is_event(e) || !is_stream(s))
        return rt_error(cudaErrorInvalidResourceHandle);
    e->recorded = true;
    e->ns = clock_ns;
    return cudaSuccess;
}

RT_API cudaError_t cudaEventRecordWithFlags(cudaEvent_t e, cudaStream_t s, unsigned f)
{
    return (void)f, cudaEventRecord(e, s);
}

RT_API cudaError_t cudaEventSynchronize(cudaEvent_t e)
{
    if (!is_event(e))
        return rt_error(cudaErrorInvalidResourceHandle);
    return rt_sticky();
}

RT_API cudaError_t cudaEventQuery(cudaEvent_t e) { return cudaEventSynchronize(e); }

RT_API cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    if (!ms)
        return rt_error(cudaErrorInvalidValue);
    if (!is_event(start) || !is_event(end))
        return rt_error(cudaErrorInvalidResourceHandle);
    if (!start->recorded || !end->recorded)
        return rt_error(cudaErrorInvalidResourceHandle);
    *ms = (float)((end->ns - start->ns) / 1e6);
    return cudaSuccess;
}
