/* The GPUs of the multi-gpu scan (multi_gpu_tmpl.cuh) on the CUDA backend:
 * where its shards go, and a run across several GPUs, each shard resident
 * on its GPU with its own stream and workspace (docs/scaling.md, "A scan
 * across GPUs"). Built only with CUDA (mg_devices.cu). */
#ifndef SCANLAB_MG_DEVICES_H
#define SCANLAB_MG_DEVICES_H

#include <stddef.h>
#include "cuda/bench/dev_arena.h"
#include "cuda/device/multi_gpu.h"
#include "cuda/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The environment variable that places multi-gpu's shards:
 *   unset, "" or "auto": shard g on GPU g when GPUs 0 .. P - 1 exist and
 *                        can each access the others' memory, else every
 *                        shard on the current GPU;
 *   "each":              shard g on GPU g, refused where that cannot be;
 *   "one":               every shard on the current GPU. */
#define SL_MG_DEVICES_ENV "SCANLAB_MG_DEVICES"

typedef enum { SL_MG_AUTO, SL_MG_EACH, SL_MG_ONE } sl_mg_mode;

/* The mode SCANLAB_MG_DEVICES asks for; SL_ERR_ARG for another value. */
sl_status sl_mg_mode_get(sl_mg_mode *m);
/* Whether GPUs 0 .. p - 1 exist and each can access every other's memory
 * (cudaDeviceCanAccessPeer); if so, enables that access (once a process).
 * SL_ERR_NO_GPU: fewer GPUs; SL_ERR_UNSUPPORTED: a pair without peer
 * access; why (len bytes, or NULL) says which. */
sl_status sl_mg_gpus_ready(unsigned p, char *why, size_t len);
/* Where multi-gpu's p shards go: *each = 1 for one shard per GPU, 0 for
 * every shard on the current GPU, by the mode's rule. "each" where the GPUs
 * are not ready returns SL_ERR_ARG (the user asked for what cannot be), as
 * does a bad SCANLAB_MG_DEVICES; why as above. */
sl_status sl_mg_place(unsigned p, int *each, char *why, size_t len);

/* A run across GPUs 0 .. devices - 1: shard g, n[g] elements, in in[g] and
 * out[g] on GPU g, queued on stream[g] with workspace from arena[g]. */
typedef struct {
    unsigned devices;
    size_t elem, total;
    size_t n[SL_MG_MAX_DEVICES];
    void *in[SL_MG_MAX_DEVICES], *out[SL_MG_MAX_DEVICES];
    void *stream[SL_MG_MAX_DEVICES]; /* cudaStream_t, blocking: ordered with the default stream */
    void *done[SL_MG_MAX_DEVICES];   /* cudaEvent_t: the end of GPU g's part of the last run */
    sl_dev_arena arena[SL_MG_MAX_DEVICES];
    int io;     /* in and out allocated here */
    int ran;    /* a run was queued (done[] recorded) */
    /* the caller's device, stream and arena while a run queues its work */
    int saved_dev;
    void *saved_stream;
    sl_dev_arena *saved_arena;
} sl_mg_run;

/* Opens a run of total elements of elem bytes over p GPUs, cut as
 * sl_mg_shard cuts them: each GPU's stream and event and, with io, its
 * input and output slices (else the caller sets in[] and out[]). */
sl_status sl_mg_run_open(sl_mg_run *r, unsigned p, size_t total, size_t elem, int io);
/* Frees what sl_mg_run_open and the runs made. */
void sl_mg_run_close(sl_mg_run *r);
/* The run multi-gpu's driver on the calling thread uses instead of host
 * buffers (set by the benchmark across GPUs), or NULL. */
sl_mg_run *sl_mg_run_current(void);
void sl_mg_run_set(sl_mg_run *r);

/* Starts a run: opens each GPU's arena with cap[g] bytes the first time
 * (and waits for the zeroing), advances every arena to the next epoch
 * (the same on every GPU), saves the caller's device, stream and arena,
 * and makes each GPU's stream wait for every GPU's part of the last run
 * (its boards are written by the GPUs before it). */
sl_status sl_mg_run_begin(sl_mg_run *r, const size_t *cap);
/* Selects GPU g for the work that follows: current device, the thread's
 * stream and arena. */
sl_status sl_mg_run_use(sl_mg_run *r, unsigned g);
/* Ends the queueing: records each GPU's done event, restores the caller's
 * device, stream and arena. Returns st, or the first error of its own. */
sl_status sl_mg_run_end(sl_mg_run *r, sl_status st);
/* Waits for every GPU's stream; *gave_up: a bounded wait gave up on one. */
sl_status sl_mg_run_wait(sl_mg_run *r, int *gave_up);
/* Copies the host array of r->total elements into the GPUs' input slices,
 * or their output slices into it. */
sl_status sl_mg_run_copy_in(sl_mg_run *r, const void *host);
sl_status sl_mg_run_copy_out(const sl_mg_run *r, void *host);

#ifdef __cplusplus
}
#endif

#endif
