/* The deadlock question for one algorithm (docs/deadlock.md): choose a
 * configuration whose waiting launch has G blocks, then search its block
 * schedules under a progress model (model_search_run). Shared by `scanlab
 * deadlock` and the report's deadlock section. */
#ifndef SCANLAB_DEADLOCK_H
#define SCANLAB_DEADLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "model/model.h"
#include "verify/harness/algos.h"

/* Exhaustive search is offered up to this many blocks in the explored
 * launch (a search of more ranks, or a longer --budget, goes further:
 * lookback at G = 10 under fair takes minutes; docs/scaling.md), and
 * chosen by default up to VERIFY_DEADLOCK_AUTO_EXHAUSTIVE: the largest
 * grid at which every single-pass scan finishes every model in seconds on
 * two cores (docs/deadlock.md gives the measurements). */
#define VERIFY_DEADLOCK_MAX_EXHAUSTIVE 12
#define VERIFY_DEADLOCK_AUTO_EXHAUSTIVE 8
/* Random schedules of a sampled search when none are asked for. */
#define VERIFY_DEADLOCK_DEFAULT_SAMPLES 100
/* The largest grid the command takes (a sampled search): the most the
 * search holds (a choice per block at a state: model_search_run). */
#define VERIFY_DEADLOCK_MAX_BLOCKS MODEL_SEARCH_MAX_BLOCKS

/* The progress model that describes an NVIDIA GPU running an ordinary
 * launch, and so decides `scanlab deadlock`'s exit status unless --model
 * names others: CUDA promises a device thread parallel forward progress (a
 * thread that has not started may never start; once started it keeps
 * running) and no order of dispatch, which is obe (docs/deadlock.md). */
#define VERIFY_DEADLOCK_TARGET MODEL_PROGRESS_OBE

/* The configuration a search runs. */
typedef struct {
    size_t n;           /* elements scanned */
    int block, param;   /* the algorithm's settings (0: its default) */
    unsigned occupancy; /* what the occupancy query answers: G, for persistent grids */
    unsigned resident;  /* residency slots R (obe, lobe) */
    /* from the trial run */
    bool waiting;        /* some launch polls global memory */
    unsigned blocks;     /* blocks of the explored launch: the first that waits, else the largest */
    unsigned most_blocks; /* blocks of the largest launch (the search takes every launch's turns) */
    unsigned threads;    /* its threads per block */
    unsigned launches;   /* launches of one run */
    const char *kernel;  /* its kernel's name */
} verify_deadlock_config;

/* Chooses n, block and param so that the launch that waits between blocks
 * has `blocks` blocks: small tiles (32 threads, 1 item) with the occupancy
 * query answering `blocks` where the algorithm takes them, else its own
 * settings with n scaled from trial runs. n_fixed > 0 keeps that n (and
 * the explored launch has what it gives). SL_ERR_ARG when no setting of
 * the algorithm runs; why (size bytes) says what failed. */
sl_status verify_deadlock_configure(const verify_algo *al, unsigned blocks, unsigned resident, size_t n_fixed,
                                    verify_deadlock_config *c, char *why, size_t size);

/* Searches the block schedules of c under cfg (model_search_run). *seconds
 * receives the wall-clock time of the search, when not NULL. */
sl_status verify_deadlock_search(const verify_algo *al, const verify_deadlock_config *c,
                                 const model_search_cfg *cfg, model_search_result *out, double *seconds);

/* "obe", "lobe", "hsa", "fair". */
const char *verify_progress_name(model_progress p);
/* "deadlock-free", "DEADLOCK", "FINDING", "INCOMPLETE". */
const char *verify_verdict_name(model_verdict v);

/* The blocks resident when a deadlock was found (parsed from the result's
 * wait lines, one per resident block); returns how many. */
unsigned verify_deadlock_resident(const model_search_result *r, unsigned *blocks, unsigned max);

#endif
