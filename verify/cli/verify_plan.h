/* The engine of `scanlab verify`: a plan (the selection the options made)
 * expanded into cases, run on a pool of jobs, summarised one line per group
 * or as one JSON document. */
#ifndef SCANLAB_VERIFY_PLAN_H
#define SCANLAB_VERIFY_PLAN_H

#include <stdio.h>
#include "verify/harness/harness.h"

/* What 'scanlab verify' runs. */
typedef struct {
    const verify_algo *const *algos; /* in the order of the lines */
    size_t algo_count;
    unsigned backends, types, ops;   /* masks: 1u << value */
    unsigned dists;                  /* mask; 0: verify_default_dist per type */
    bool inclusive, exclusive;       /* which kinds of scan (reductions always run) */
    const size_t *sizes;
    size_t size_count;
    uint64_t seed;
    int jobs;                        /* cases run at once, >= 1 */
    int repeat;                      /* >= 1 */
    int block, param;                /* kernels: threads per block, own parameter (0: default) */
    bool allow_races;                /* sim: a race alone does not fail a case */
    int schedules;                   /* sim: schedules per case (docs/memory-model.md), >= 1 */
    unsigned pct;                    /* sim: PCT depth of the explored schedules (0: random) */
    bool fail_on_skip;               /* a skipped line fails the run (exit 1) */
    /* The default checks (no --n, no --input; docs/usage.md): each kernel
     * backend's sizes grow by its geometry (verify/harness/geometry.h),
     * and with the sim backend every device-level kernel gets a huge check
     * (verify/harness/huge_check.h) and an unreached call site of a
     * catalogue kernel fails the run unless allow_unreached. */
    bool defaults;
    bool allow_unreached;
    /* --schedules given: without it, sim cases of up to VERIFY_EXPLORE_MAX_N
     * elements run under one explored schedule besides the default one */
    bool schedules_given;
    bool json;
    uint64_t peak_bytes;             /* the estimated peak memory (JSON: memory_estimate_bytes) */
    /* User data (--input): every case scans data[0..sizes[0]) instead of a
     * generated input; sizes holds that one size, and failures replay with
     * '--input input' instead of sizes, distribution and seed. */
    const void *data;
    const char *input;
    /* --output: when the plan is exactly one case, run 0's output goes to
     * keep and *kept says whether it got there. */
    void *keep;
    bool *kept;
} verify_plan;

/* Run every case of the plan and print one line per group on out (or one
 * JSON document with plan->json), and a summary that counts the skipped
 * lines by reason. Returns the exit status: 0 everything that ran passed
 * (skips included unless plan->fail_on_skip), 1 a check or a run failed
 * (or, with fail_on_skip, a line was skipped), 2 the plan selects
 * nothing. */
int verify_run_plan(const verify_plan *plan, FILE *out);

/* 'scanlab verify' over the algorithm table algos[0..count): parse the
 * options (argv[0] is the subcommand name), print the seed on stderr, run
 * the plan and print its table or JSON on out. Returns the exit status. */
int verify_main(int argc, char **argv, const verify_algo *algos, size_t count, FILE *out);

#endif
