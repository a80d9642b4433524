/* The differential harness behind 'scanlab verify', as a C API: one case
 * (algorithm x backend x type x operator x kind x size x distribution) is
 * run and checked against the reference, and a plan of many cases is run,
 * grouped one line per (algorithm, backend, type, operator, kind). Tests
 * call these directly with algorithm tables of their own. */
#ifndef SCANLAB_HARNESS_H
#define SCANLAB_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "verify/harness/algos.h"
#include "verify/harness/compare.h"
#include "verify/harness/inputs.h"

/* Elements of guard zone checked on each side of every output buffer. */
#define VERIFY_GUARD_ELEMS 8

typedef struct {
    const verify_algo *algo;
    sl_backend backend;
    sl_type type;
    sl_op op;
    bool exclusive; /* scans only; ignored for reductions and applications */
    verify_dist dist;
    size_t n;
    uint64_t seed;
    int repeat;     /* runs of the algorithm on the same input, >= 1 */
    int block;      /* threads per block for kernels; 0 = the algorithm's default */
    int param;      /* the algorithm's own parameter; 0 = its default */
    bool allow_races; /* sim: a race alone does not fail the case (see also
                       * verify_set_allow_races) */
    int schedules;    /* sim: runs under the default schedule and schedules - 1 explored
                       * ones (model_config.schedule) drawn from seed; <= 1: default only
                       * (but the persistent run below: explored unless exactly 1) */
    unsigned pct;     /* sim, explored schedules: PCT depth (0: uniformly random) */
    /* sim: only the grid the kernel asks for by default. Otherwise a kernel
     * whose grid an occupancy query sized, and which got a block per tile
     * for more than VERIFY_GRID_STRIDE_BLOCKS tiles, runs once more on a
     * persistent grid of half as many blocks (the GPU's path for large
     * inputs: harness.c, persistent_grid), under an explored schedule
     * unless schedules is 1 */
    bool one_grid;
} verify_case;

/* Sizes up to which verify and the report run a sim case under one
 * explored schedule besides the default one, unless --schedules says
 * otherwise: every size where a block of up to 1024 threads is partly
 * filled, and the sizes before the large ones that dominate the time. */
#define VERIFY_EXPLORE_MAX_N ((size_t)1025)

/* The simulator's stand-in for the resident blocks of a grid-stride kernel
 * (SL_SIM_RESIDENT_BLOCKS, cuda/dialect.h): a grid of more blocks that an
 * occupancy query sized is a block per tile. */
#define VERIFY_GRID_STRIDE_BLOCKS 4u

/* Room for the simulator's findings of one case, as text. */
#define VERIFY_FINDINGS_TEXT 2048

typedef enum {
    VERIFY_WHERE_VALUE,  /* an output differs from the reference */
    VERIFY_WHERE_BEFORE, /* it wrote before out[0] (mismatch.index elements before) */
    VERIFY_WHERE_AFTER,  /* it wrote past its last output (mismatch.index = offset from out) */
    VERIFY_WHERE_INPUT,  /* it modified its input (mismatch.index) */
    VERIFY_WHERE_COUNT,  /* an application's count differs (mismatch values: uint64_t) */
    VERIFY_WHERE_FINDING, /* sim: the simulator found a race, barrier divergence, an
                           * out-of-bounds or misaligned access, a deadlock or an
                           * undefined warp operation (findings_text names the sites) */
} verify_where;

typedef struct {
    /* SL_OK passed; SL_ERR_CHECK a check failed (see mismatch, where, run);
     * SL_ERR_SIM the simulator found an error in the kernel, whether it
     * stopped the kernel or not (where is VERIFY_WHERE_FINDING and
     * findings_text names the sites); SL_ERR_NO_GPU or SL_ERR_UNSUPPORTED:
     * the combination cannot run here (a skip); anything else: the
     * algorithm or the harness failed. */
    sl_status status;
    bool exact;             /* checked bit for bit (else against the float bound) */
    double max_eta;         /* float bound checks: largest eta over all runs */
    bool deterministic;     /* every run gave the same bits as the first */
    int run;                /* the run (0-based) that failed, for SL_ERR_CHECK */
    verify_where where;
    verify_mismatch mismatch;
    sl_type value_type;     /* type of the mismatch values (i64 for pack's records) */
    bool kept;              /* run 0's output went to keep (verify_run_case_on) */
    /* sim backend: what the simulator found over every run */
    uint64_t races;         /* races seen (allowed or not) */
    uint64_t schedule;      /* the schedule of the run that failed (0: the default) */
    unsigned occupancy;     /* the persistent grid of the run that failed (0: the kernel's own) */
    uint64_t findings;      /* findings that fail the case (model_findings) */
    /* the findings, one "path:line: error: message" line each (the first
     * ones, cut at a line end when they do not fit); empty when none */
    char findings_text[VERIFY_FINDINGS_TEXT];
} verify_case_result;

/* Whether a race alone fails a sim case, for every case of this process
 * (scanlab's --allow-races; a case's own allow_races also allows them).
 * Default: races fail. */
void verify_set_allow_races(bool allow);

/* One sentence (no newline) on what went wrong in a failed case: the
 * first differing index with both values, a write outside the output, a
 * modified input, a refused setting, or the simulator's first finding as
 * "path:line: error: message" (r->findings_text holds them all). */
void verify_describe_result(const verify_case_result *r, char *buf, size_t size);

/* Whether the skip/fail statuses of a case mean "cannot run here". */
bool verify_status_is_skip(sl_status st);

/* Run one case and check it: returns r->status. */
sl_status verify_run_case(const verify_case *c, verify_case_result *r);

/* verify_run_case on the given input data[0..c->n) of c->type (NULL: the
 * generated one; c->dist and c->seed are then ignored). When keep is not
 * NULL, run 0's output (n elements, 1 for a reduction; scans and
 * reductions only) is copied there as soon as the algorithm returns, before
 * any check, and r->kept is set. */
sl_status verify_run_case_on(const verify_case *c, const void *data, void *keep,
                             verify_case_result *r);

#endif
