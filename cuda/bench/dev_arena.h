/* Device arenas: how `scanlab bench --backend cuda` times a kernel's host
 * driver on the GPU alone.
 *
 * Without an arena a driver copies its input to the GPU, allocates what it
 * needs, launches, waits and copies the result back (sl_host_run in
 * cuda/dialect.h). While an arena is set on the calling thread:
 *   - a->in and a->out are device pointers: sl_host_run hands them to the
 *     driver's device function without copying or waiting;
 *   - sl_dev_alloc takes memory from the arena, which was zero when it was
 *     made and keeps its contents from run to run (sl_dev_free gives
 *     nothing back); a run that needs more than the arena holds gets zeroed
 *     cudaMalloc memory and the arena records the need, so that an untimed
 *     first run sizes the arena for the timed ones;
 *   - sl_dev_sync only reports launch errors: the caller synchronises;
 *   - sl_dev_epoch() is the run's number (1, 2, ...): protocol words tagged
 *     with an older epoch read as never written, so a driver needs no
 *     clearing pass between runs;
 *   - a bounded spin that gives up sets the arena's error word.
 *
 * Arenas exist in the CUDA compilation only; the simulator's drivers never
 * see one (sl_dev_epoch() is 1, every allocation is fresh). */
#ifndef SCANLAB_DEV_ARENA_H
#define SCANLAB_DEV_ARENA_H

#include <stddef.h>
#include <stdint.h>
#include "cuda/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    unsigned char *mem;   /* device memory, zeroed when made */
    size_t cap;           /* its bytes */
    size_t used;          /* bytes handed out in the current run */
    size_t need;          /* the most bytes one run asked for */
    uint32_t epoch;       /* the current run's number, from 1 */
    uint32_t *error;      /* device word set to 1 by a bounded spin that gave up */
} sl_dev_arena;

/* The arena of the calling thread, or NULL. */
sl_dev_arena *sl_dev_arena_current(void);
/* Makes s (or NULL: none) the calling thread's arena. */
void sl_dev_arena_set(sl_dev_arena *s);

/* Makes an arena of cap bytes (zeroed) and its error word (zeroed). */
sl_status sl_dev_arena_open(sl_dev_arena *s, size_t cap);
/* Frees what sl_dev_arena_open made. */
void sl_dev_arena_close(sl_dev_arena *s);
/* Starts the next run: the arena is handed out again from its start and
 * the epoch advances (the arena is cleared when the epoch would wrap). */
sl_status sl_dev_arena_next_run(sl_dev_arena *s);
/* Whether a bounded spin gave up in any run so far (waits for the GPU). */
sl_status sl_dev_arena_error(const sl_dev_arena *s, int *gave_up);

/* sl_dev_alloc while an arena is set: bytes from it (256-byte aligned), or
 * zeroed cudaMalloc memory when it is too small. */
sl_status sl_dev_arena_alloc(sl_dev_arena *s, void **p, size_t bytes);
/* Whether p lies in the arena's memory (sl_dev_free leaves it alone). */
int sl_dev_arena_owns(const sl_dev_arena *s, const void *p);

/* The stream (a cudaStream_t) of the calling thread's launches and
 * memsets in the dialect (SL_DEFINE_LAUNCH), NULL: the default stream. A
 * driver that runs on several GPUs sets each GPU's own while it queues
 * that GPU's work (cuda/device/mg_devices.h). */
void *sl_dev_stream_current(void);
/* Makes s (NULL: the default stream) the calling thread's stream. */
void sl_dev_stream_set(void *s);

/* Co-resident blocks of a kernel on the current GPU: the occupancy of one
 * SM (cudaOccupancyMaxActiveBlocksPerMultiprocessor) times the SM count,
 * at least 1. kernel is the __global__ function's address. Asked of the
 * runtime once per device, kernel, block and shmem on each thread, then
 * remembered. */
unsigned sl_dev_resident_blocks(const void *kernel, unsigned block, size_t shmem);
/* Bytes of the current GPU's L2 cache (cudaDevAttrL2CacheSize), 0 if the
 * query fails; remembered per device on each thread, as above. */
size_t sl_dev_l2_bytes(void);

#ifdef __cplusplus
}
#endif

#endif
