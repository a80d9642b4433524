/* The simulator's runtime ABI: what the C side of cuda/dialect.h calls.
 *
 * Kernels never include this directly; the dialect's macros expand to these
 * calls. Every simulated thread is a fiber; model_cur points at the thread
 * that is running now (one per host thread, so blocks may later run on
 * several host threads). */
#ifndef SCANLAB_MODEL_RT_H
#define SCANLAB_MODEL_RT_H

#include <stddef.h>
#include <stdint.h>
#include "cuda/launch.h"
#include "cuda/status.h"

/* One call site of the dialect in a kernel source. Each macro expansion
 * owns one static instance; the model interns (file, line) into id on
 * first use so that the per-site tables are plain arrays. */
typedef struct {
    const char *file;
    int line;
    const char *what; /* "LD", "ST", "SYNCTHREADS", ... */
    int id;           /* 0 until interned */
} model_site;

/* The part of a simulated thread that the dialect's macros read. */
typedef struct model_lane {
    sl_dim3 thread_idx;
    const sl_dim3 *block_idx, *block_dim, *grid_dim;
    uint64_t ops; /* operator applications in the current barrier interval */
} model_lane;

extern __thread model_lane *model_cur __attribute__((tls_model("initial-exec")));

/* Kinds of memory access recorded in a lane's trace. */
enum { MODEL_RD = 0, MODEL_WR = 1, MODEL_VOL = 2, MODEL_ATOMIC = 4 };

/* A checked access to elements base[i] of size bytes: returns &base[i], or
 * never returns (the launch is stopped) when it is out of bounds. */
void *model_access(const void *base, long long i, size_t size, int kind, model_site *site);

/* The k-th static shared array executed by this thread (the block's k-th
 * allocation), and the block's dynamic shared memory. */
void *model_shared(size_t bytes, size_t align, model_site *site);
void *model_shared_dyn(model_site *site);

/* Synchronisation points: the calling fiber parks here. */
void model_syncthreads(model_site *site);
void model_syncwarp(unsigned mask, model_site *site);
void model_threadfence(model_site *site);

enum { MODEL_SHFL_UP, MODEL_SHFL_DOWN, MODEL_SHFL_IDX, MODEL_SHFL_XOR };
uint64_t model_shfl(int kind, unsigned mask, uint64_t value, int arg, model_site *site);
enum { MODEL_VOTE_BALLOT, MODEL_VOTE_ALL, MODEL_VOTE_ANY };
unsigned model_vote(int kind, unsigned mask, int pred, model_site *site);

enum { MODEL_AT_ADD, MODEL_AT_MAX, MODEL_AT_MIN, MODEL_AT_CAS, MODEL_AT_EXCH };
/* An atomic read-modify-write on a 4- or 8-byte integer; returns the old
 * value. is_unsigned selects the comparison of MAX and MIN. */
uint64_t model_atomic(int kind, void *p, size_t size, int is_unsigned, uint64_t a, uint64_t b,
                      model_site *site);

/* Host side: device memory is host memory registered with the model, which
 * needs it for bounds checks and race shadows. */
sl_status model_dev_alloc(void **p, size_t bytes);
void model_dev_free(void *p);

/* A kernel launch: run entry(args) on every thread of the grid. */
typedef void (*model_entry)(const void *args);
sl_status model_launch(const sl_launch *cfg, model_entry entry, const void *args, const char *name);
/* The same with accounting off (fibers and barriers kept): the speed
 * baseline for kernels compiled with SL_SIM_PLAIN. */
sl_status model_launch_plain(const sl_launch *cfg, model_entry entry, const void *args, const char *name);

#endif
