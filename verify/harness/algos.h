/* The algorithm table: every algorithm scanlab knows, with the backends that
 * run it. Every command (list, verify, simulate, bench, report) walks this
 * table, so a new variant is one kernel file plus one line in algos.c. */
#ifndef SCANLAB_ALGOS_H
#define SCANLAB_ALGOS_H

#include <stdbool.h>
#include <stddef.h>
#include "cuda/launch.h" /* SL_ADVERSARY_* */
#include "verify/harness/catalog.h"

typedef enum {
    SL_KIND_SCAN,   /* out[0..n) is the inclusive or exclusive scan */
    SL_KIND_REDUCE, /* out[0] is the reduction (identity for n = 0) */
    /* Applications built on scan (cuda/apps/app_defs.h defines each and its
     * output: a uint64_t count, then elements). They use the add scan of
     * counts internally, so they run for every type with op = add only. */
    SL_KIND_COMPACT,   /* the elements satisfying the predicate, in order */
    SL_KIND_PARTITION, /* stable split: kept elements, then the others */
    SL_KIND_SORT,      /* ascending total order (radix sort) */
    SL_KIND_PACK,      /* item i emits c_i records, concatenated in item order */
    SL_KIND_PARTITION_REV, /* kept elements in order, then the others in reverse order (single pass) */
} sl_algo_kind;

/* Whether kind is an application (output = count header + elements). */
#define SL_KIND_IS_APP(k) ((k) >= SL_KIND_COMPACT)
/* Whether an application's output defines all n elements whatever the count
 * (partition, sort), else the first `count`. */
#define sl_app_defines_all(k) ((k) == SL_KIND_PARTITION || (k) == SL_KIND_PARTITION_REV || (k) == SL_KIND_SORT)

typedef struct {
    sl_type type;
    sl_op op;
    bool exclusive;
    const void *in; /* host memory, n elements; may equal out */
    void *out;      /* host memory: n elements for a scan, 1 for a reduction; for an
                     * application the layout of cuda/apps/app_defs.h, sized by
                     * verify_app_out_bytes() (verify/app_ref.h) */
    size_t n;
    int threads;    /* OpenMP threads; 0 = the runtime's default */
    int block;      /* threads per block for kernels; 0 = the algorithm's default */
    int param;      /* the algorithm's own parameter (radix, passes, blocks); 0 = default */
    void *sim;      /* sim backend: where counts go (a model_stats *), or NULL */
    int adversary;  /* an adversarial dispatch emulated by the single-pass scans (cuda/launch.h) */
} sl_scan_args;

typedef sl_status (*sl_scan_fn)(const sl_scan_args *a);

/* The depth of the addition tree behind output i of a scan run with these
 * arguments: the largest number of roundings any input passes through on
 * its way to out[i]. Floats are checked against eta <= depth (DESIGN.md). */
typedef size_t (*sl_depth_fn)(const sl_scan_args *a, size_t i);

typedef struct {
    const char *name;
    const char *summary; /* one line */
    sl_algo_kind kind;
    sl_scan_fn run[SL_BACKEND_COUNT]; /* NULL where that backend does not run it */
    sl_depth_fn depth;                /* NULL: sequential order, depth i (i - 1 if exclusive) */
} verify_algo;

extern const verify_algo verify_algos[];
extern const size_t verify_algo_count;

/* The algorithm called name, or NULL (with a message listing valid names on
 * stderr when complain is set). */
const verify_algo *verify_find_algo(const char *name, bool complain);

/* Whether the algorithm runs on backend b in this build. */
bool verify_algo_runs_on(const verify_algo *a, sl_backend b);

#endif
