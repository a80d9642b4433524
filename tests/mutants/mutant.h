/* The expectations of the mutation check (test_mutants.c holds the table)
 * and the checks that hold a mutant or a control to them
 * (mutant_checks.c). docs/mutants.md describes the signals. */
#ifndef MUTANT_H
#define MUTANT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "model/model.h"
#include "verify/harness/algos.h"

typedef enum {
    SIG_CONTROL,    /* the unmutated copy: passes every check of its mutants */
    SIG_VALUE,      /* verify: a wrong value */
    SIG_RACE,       /* verify: a race naming the sites */
    SIG_OOB,        /* verify: an out-of-bounds access at the site */
    SIG_DIVERGENCE, /* verify: barrier divergence naming both barriers */
    SIG_WARP,       /* verify: an undefined warp operation at the site */
    SIG_SCHEDULES,  /* explored schedules: a wrong result in some, none by default, no finding */
    SIG_DEADLOCK,   /* few slots, adverse dispatch, the obe search: a deadlock at the wait */
    SIG_HUGE,       /* n > 2^32 in the simulator's huge mode: the index-width finding at the site */
} mut_signal;

/* Whether a signal is checked by a verify run. */
static inline bool mut_verify_signal(mut_signal s) { return s >= SIG_VALUE && s <= SIG_WARP; }

/* A kernel line a finding must name: the first line containing `text` after
 * the first line containing `after` (NULL: from the top), in the file of
 * the mutant; esize 4 or 8: only for elements of that size (0: any). */
typedef struct {
    const char *after, *text;
    unsigned esize;
} mut_site;

/* A run through the C API (schedules and deadlock signals). */
typedef struct {
    size_t n;
    int block, param;
    unsigned slots;     /* 0: the default */
    model_order order;
    unsigned schedules; /* explored schedules 1..schedules */
} mut_run;

typedef struct {
    const char *name;     /* in tests/mutants/kernels.def */
    const char *control;  /* its family's control (itself for a control) */
    const char *category; /* the category */
    const char *change;   /* what the mutation changes */
    mut_signal signal;
    const char *args;     /* verify options of the catching run (and of the control's) */
    const char *fail_ops; /* operators with a failing line (NULL: every line fails); the
                           * operators of a schedules signal */
    const char *pass_ops; /* operators whose lines all pass (the mutation's blind spot) */
    size_t first_n;       /* value signals: the smallest size that may fail */
    const char *file;     /* the kernel file the findings name */
    mut_site site[4];
    mut_run run;          /* schedules and deadlock signals */
    const char *blind;    /* verify options under which the mutant passes, or NULL */
    const char *why;      /* why this configuration is enough */
} mutant;

/* What the checks run against: the mutants' algorithm table and the seed
 * of every input. */
typedef struct {
    const verify_algo *table;
    size_t count;
    uint64_t seed;
} mut_ctx;

/* The table's algorithm called name (fails the test if none). */
const verify_algo *mut_algo(const mut_ctx *c, const char *name);

/* verify (sim, --seed, --json, opts) passes every line of algo. */
void mut_expect_verify_passes(const mut_ctx *c, const char *algo, const char *opts);
/* verify (sim, --seed, --json, opts) fails some line of algo with a wrong
 * value (no finding). */
void mut_expect_verify_fails(const mut_ctx *c, const char *algo, const char *opts);
/* verify with m->args fails with m's signal on the lines m names, and the
 * lines of m->pass_ops pass. */
void mut_expect_verify_catches(const mut_ctx *c, const mutant *m);
/* m's explored schedules on al (m itself, or its control with
 * expect_wrong false): a wrong result in at least one (none for a
 * control), none in the default schedule, no finding. */
void mut_check_schedules(const mut_ctx *c, const verify_algo *al, const mutant *m, bool expect_wrong);
/* m's run on al with few slots and adverse dispatch, through the C API
 * and `scanlab simulate`, and the schedule search under occupancy-bound
 * progress: a deadlock at m's wait (expect), or a clean run. */
void mut_check_deadlock(const mut_ctx *c, const verify_algo *al, const mutant *m, bool expect);
/* m's run on al over 2^32 + 2^10 elements with chosen blocks (huge mode):
 * the index-width finding at m's site (expect), or the exact sum. */
void mut_check_huge(const mut_ctx *c, const verify_algo *al, const mutant *m, bool expect);
/* verify's default checks (--type i32 --op add, no --n) on algo: its huge
 * line FAILED with the index-width finding at m's site (expect), or every
 * line OK. */
void mut_expect_default_huge(const mut_ctx *c, const mutant *m, const char *algo, bool expect);

#endif
