/* What `scanlab bench --backend cuda` (verify/cli/bench_cuda.c) needs from
 * the GPU: the device's properties, device buffers, the benchmark input
 * made on the device, CUDA events, a read pass that evicts the L2, and the
 * hand-off latency between two blocks that the chained scans' time model
 * uses. Built only with CUDA (cuda/bench/bench_gpu.cu). */
#ifndef SCANLAB_BENCH_GPU_H
#define SCANLAB_BENCH_GPU_H

#include <stddef.h>
#include <stdint.h>
#include "cuda/ops.h"
#include "cuda/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    char name[256];
    int sms;              /* streaming multiprocessors */
    size_t l2_bytes;      /* L2 cache */
    size_t mem_bytes;     /* device memory */
    size_t free_bytes;    /* device memory free now */
    int clock_khz;        /* SM clock */
    int cc_major, cc_minor;
} sl_bench_gpu;

/* The current GPU's properties; SL_ERR_NO_GPU without one. */
sl_status sl_bench_gpu_info(sl_bench_gpu *g);

/* Device memory (NULL for 0 bytes), freed by sl_bench_free. */
sl_status sl_bench_alloc(void **p, size_t bytes);
void sl_bench_free(void *p);
/* Copies device memory to the host (waits). */
sl_status sl_bench_to_host(void *host, const void *dev, size_t bytes);

/* The benchmark input on the device: element i from the 64-bit mix of
 * (seed ^ i): for add, integers in [0, 1000) and floats in [0, 1); for the
 * other operators the mix's bits (integers; affine maps) or floats in
 * [0, 1). The same values as `scanlab bench --backend omp`. */
sl_status sl_bench_fill(void *d, sl_type type, sl_op op, size_t n, uint64_t seed);

/* The same for elements first .. first + n - 1 of that input (a shard of
 * it on one of several GPUs). */
sl_status sl_bench_fill_at(void *d, sl_type type, sl_op op, size_t n, size_t first, uint64_t seed);

/* GPUs of this host (0 without any), and the one the calls that follow use
 * (cudaSetDevice); each GPU has its own default stream, events and
 * buffers. */
int sl_bench_gpu_count(void);
sl_status sl_bench_use_gpu(int g);
/* The current GPU's default stream waits (queued) for event e, recorded
 * on any GPU: how the runs across GPUs start and end together. */
sl_status sl_bench_event_wait(void *e);

/* A device-to-device copy of bytes bytes, queued on the default stream. */
sl_status sl_bench_copy(void *dst, const void *src, size_t bytes);
/* Reads bytes bytes of buf on the device (queued), so that the L2 holds
 * them and nothing of what ran before. */
sl_status sl_bench_flush(const void *buf, size_t bytes);

/* Adds a 64-bit digest of bytes bytes at d (a multiple of 4) to *slot, a
 * device word that starts at 0 (queued): equal digests mean, but for a
 * 2^-64 chance, bitwise equal data. */
sl_status sl_bench_digest(const void *d, size_t bytes, uint64_t *slot);
/* Sets bytes bytes of device memory to 0 (waits). */
sl_status sl_bench_zero(void *d, size_t bytes);

/* CUDA events on the default stream. */
sl_status sl_bench_event_new(void **e);
void sl_bench_event_free(void *e);
sl_status sl_bench_event_record(void *e);
/* Milliseconds between two recorded events (waits for the second). */
sl_status sl_bench_event_ms(void *start, void *stop, double *ms);
/* Waits for the GPU and returns the first error of what ran. */
sl_status sl_bench_sync(void);
/* Queues a one-thread kernel that keeps the stream busy for us
 * microseconds, so that what the host queues behind it meanwhile starts
 * without the host's launch work in between. */
sl_status sl_bench_hold(unsigned us);
/* *done: whether the GPU has passed recorded event e (does not wait). */
sl_status sl_bench_event_done(void *e, int *done);

/* One hand-off of a chained scan: the time from a block's publication of
 * a status word to another block's poll seeing it and publishing its own.
 * Measured as an empty chain of `links` links (no tile data) through
 * status words of word_bytes bytes (8: the tile protocol's word of 4-byte
 * elements; 16: of 8-byte ones, tag checked), one block per SM, with
 * strong relaxed stores and unpaused polls of GPU scope as the chained
 * scans make them. *us: the time per link, in microseconds. Bounded:
 * SL_ERR_TIMEOUT if a link never comes; SL_ERR_ARG for another word size
 * or fewer than 2 links. */
sl_status sl_bench_handoff_us(int word_bytes, unsigned links, double *us);

#ifdef __cplusplus
}
#endif

#endif
