/* scanlab bench: measuring scans against a parallel copy of the same bytes.
 * cmd_bench.c parses the options and hands them to one backend's bench;
 * each backend fills rows and bench_report prints them the same way. */
#ifndef SCANLAB_BENCH_H
#define SCANLAB_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include "verify/harness/catalog.h"

typedef struct {
    sl_backend backend;
    size_t n;       /* elements */
    sl_type type;
    sl_op op;
    bool exclusive;
    int threads;    /* OpenMP threads (>= 1, resolved by the command) */
    int reps;       /* timed repetitions per algorithm; 0 = choose */
    bool json;      /* the JSON document instead of the table on stdout */
    bool progress;  /* progress lines on stderr (only when it is a terminal) */
    /* --backend cuda takes lists; these are the arguments as given (NULL:
     * not given), parsed by bench_cuda */
    const char *algos, *n_list, *types, *ops;
    int block, param; /* --block, --param (0: each algorithm's default) */
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
/* The GPU benchmark (bench_cuda.c): a device copy, CUB and the selected
 * scans on device buffers. Returns the exit status. */
int bench_cuda(const bench_options *o);

/* Seconds on a monotonic clock. */
double bench_now(void);
/* The median of v[0..count) (sorts v). */
double bench_median(double *v, size_t count);
/* Print rows (medians of reps runs) as a table, or as {"results": [...]}
 * with o->json. */
void bench_report(const bench_options *o, const bench_row *rows, size_t count, int reps);

#endif
