/* scanlab bench: measuring scans against a parallel copy of the same bytes.
 * cmd_bench.c parses the options and hands them to one backend's bench;
 * each backend fills rows and bench_report prints them the same way. */
#ifndef SCANLAB_BENCH_H
#define SCANLAB_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "verify/formats/json.h"
#include "verify/harness/catalog.h"

typedef struct {
    sl_backend backend;
    size_t n;       /* elements (the command loops over --n) */
    sl_type type;
    sl_op op;
    bool exclusive; /* the command loops over --both */
    const char *algos; /* --algo: the algorithms to time, or NULL for all */
    int block, param;  /* passed to kernels; 0 = their default */
    uint64_t seed;  /* of the input */
    int threads;    /* OpenMP threads (>= 1, resolved by the command) */
    int reps;       /* timed repetitions per algorithm; 0 = choose */
    bool call_timing; /* cuda: time each call on an idle GPU, launch calls included (--timing call) */
    int devices;      /* cuda: --devices P, the multi-gpu scan on P GPUs (bench_cuda_mg.c); 0: not asked */
    bool json;      /* rows go into w instead of the table on stdout */
    json_writer *w; /* with json: the open "results" array of the one document */
    struct cli_progress_ *progress; /* progress lines on stderr (verify/cli/progress.h), or NULL */
    size_t done;    /* sizes and kinds finished, for the progress lines */
    /* --backend cuda times lists in one process: the arguments as given
     * (NULL: not given), parsed by bench_cuda */
    const char *n_list, *types, *ops;
} bench_options;

/* One measured algorithm. */
typedef struct {
    const char *algo;    /* "copy" for the ceiling, else an algorithm's name */
    const char *backend; /* "seq", "omp", ... */
    int threads;
    double median_ms;
    double gbps;         /* 2 * n * sizeof(element) bytes per median time */
    double frac_of_copy; /* copy's median time over this one's */
} bench_row;

/* The OpenMP benchmark: copy, the sequential scan and each OpenMP scan of
 * the algorithm table. Returns the exit status. */
int bench_omp(const bench_options *o);
/* The simulator's benchmark, where it is built (SCANLAB_BENCH_SIM). */
int bench_sim(const bench_options *o);
/* What each of those refuses before working (the selection, the memory of
 * size o->n), checked for every size and kind before the seed line: 0, or
 * 2 after one message. */
int bench_omp_check(const bench_options *o);
int bench_sim_check(const bench_options *o);
/* The GPU benchmark (bench_cuda.c): a device copy, CUB and the selected
 * scans on device buffers. Returns the exit status. */
int bench_cuda(const bench_options *o);

/* The benchmark across GPUs (bench_cuda_mg.c, --devices P): per size n
 * (elements per GPU) the multi-gpu scan of P * n elements with shard g on
 * GPU g, against lookback at n elements and a device copy of n elements
 * on every GPU at once. Returns the exit status. */
int bench_cuda_mg(const bench_options *o);

/* Seconds on a monotonic clock. */
double bench_now(void);
/* The median of v[0..count) (sorts v). */
double bench_median(double *v, size_t count);
/* Print rows (medians of reps runs) as a table, or add them as objects to
 * the JSON document's results (o->w). */
void bench_report(const bench_options *o, const bench_row *rows, size_t count, int reps);

#endif
