/* libscanlab, harness: one differential check. A case (algorithm, backend,
 * type, operator, kind, size, input distribution, seed) is run and compared
 * with its reference: integers and float max/min bit for bit with the
 * sequential scan, float sums with the exact reference within the
 * algorithm's addition-depth bound. */
#ifndef SCANLAB_PUBLIC_HARNESS_H
#define SCANLAB_PUBLIC_HARNESS_H

#include <scanlab/types.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    VERIFY_DIST_UNIFORM,   /* integers: the full range */
    VERIFY_DIST_SMALL,     /* integers: [-100, 100] */
    VERIFY_DIST_UNIFORM01, /* floats: [0, 1) */
    VERIFY_DIST_UNIFORM11, /* floats: [-1, 1) */
    VERIFY_DIST_NORMAL,
    VERIFY_DIST_LOGNORMAL,
    VERIFY_DIST_ONES,
    VERIFY_DIST_ILLCOND,   /* large values cancelled by their negations */
    VERIFY_DIST_COUNT
} verify_dist;

/* The distribution used for type t when none is chosen. */
verify_dist verify_default_dist(sl_type t);

/* Fill out[0..n) with type-t elements for operator op from distribution d
 * and seed (the same numbers on every backend). */
sl_status verify_fill_input(sl_type t, sl_op op, verify_dist d, uint64_t seed, size_t n, void *out);

#define VERIFY_MAX_ELEM 8

/* Where a check first failed; values as raw element bits. */
typedef struct {
    bool found;
    size_t index;
    unsigned char expected[VERIFY_MAX_ELEM];
    unsigned char got[VERIFY_MAX_ELEM];
    double eta;   /* float bound checks: the error in units of u * sum|x| */
    double bound; /* ... and the allowed eta there */
} verify_mismatch;

typedef struct {
    const verify_algo *algo;
    sl_backend backend;
    sl_type type;
    sl_op op;
    bool exclusive;
    verify_dist dist;
    size_t n;
    uint64_t seed;
    int repeat; /* runs on the same input, >= 1 */
    int block;  /* threads per block for kernels; 0 = the algorithm's default */
    int param;  /* the algorithm's own parameter; 0 = its default */
    bool allow_races; /* sim: a race alone does not fail the case */
    int schedules;    /* sim: the default schedule and schedules - 1 explored ones */
    unsigned pct;     /* sim, explored schedules: PCT depth (0: random) */
    bool one_grid;    /* sim: only the kernel's own grid (else a grid an occupancy query sized runs once
                         more on a persistent grid of half as many blocks, as on the GPU) */
} verify_case;

/* Room for the simulator's findings of one case, as text. */
#define VERIFY_FINDINGS_TEXT 2048

typedef enum {
    VERIFY_WHERE_VALUE,  /* an output differs from the reference */
    VERIFY_WHERE_BEFORE, /* it wrote before out[0] */
    VERIFY_WHERE_AFTER,  /* it wrote past its last output */
    VERIFY_WHERE_INPUT,  /* it modified its input */
    VERIFY_WHERE_COUNT,  /* an application's count differs */
    VERIFY_WHERE_FINDING, /* sim: the simulator found an error in the kernel (findings_text) */
} verify_where;

typedef struct {
    sl_status status;   /* SL_OK passed; SL_ERR_CHECK a check failed; see verify_status_is_skip */
    bool exact;         /* checked bit for bit (else against the float bound) */
    double max_eta;
    bool deterministic; /* every run gave the same bits as the first */
    int run;            /* the run that failed */
    verify_where where;
    verify_mismatch mismatch;
    sl_type value_type;
    bool kept;
    /* sim backend: what the simulator found over every run */
    uint64_t races;    /* races seen (allowed or not) */
    uint64_t schedule; /* the schedule of the run that failed (0: the default) */
    unsigned occupancy; /* the persistent grid of the run that failed (0: the kernel's own) */
    uint64_t findings; /* findings that fail the case */
    char findings_text[VERIFY_FINDINGS_TEXT]; /* one "path:line: error: message" line each */
} verify_case_result;

/* Whether a race alone fails a sim case, for every case of this process.
 * Default: races fail. */
void verify_set_allow_races(bool allow);

/* One sentence on what went wrong in a failed case (the simulator's first
 * finding as "path:line: error: message" where there was one). */
void verify_describe_result(const verify_case_result *r, char *buf, size_t size);

/* Run one case and check it; returns r->status. */
sl_status verify_run_case(const verify_case *c, verify_case_result *r);

/* The same on the caller's input data[0..c->n) (NULL: generated); keep (not
 * NULL) receives the first run's output. */
sl_status verify_run_case_on(const verify_case *c, const void *data, void *keep, verify_case_result *r);

/* Whether a status means "cannot run here" (no GPU, not built). */
bool verify_status_is_skip(sl_status st);

#ifdef __cplusplus
}
#endif

#endif
