/* The one option table of the scanlab command. Every subcommand names the
 * options it takes from this table, so an option has one spelling, one
 * meaning and one default everywhere (docs/usage.md documents the table),
 * and the shared getters below turn values into the same settings in every
 * command: sizes, seed, parallelism, selections. */
#ifndef SCANLAB_OPTIONS_H
#define SCANLAB_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "verify/harness/catalog.h"

typedef enum {
    /* what to run */
    OPT_ALGO,
    OPT_BACKEND,
    OPT_TYPE,
    OPT_OP,
    OPT_EXCLUSIVE,
    OPT_BOTH,
    OPT_N,
    OPT_DIST,
    OPT_BLOCK,
    OPT_PARAM,
    OPT_INPUT,
    OPT_LITMUS_OBSERVED,
    /* how */
    OPT_SEED,
    OPT_JOBS,
    OPT_REPEAT,
    OPT_TIMING,
    OPT_DEVICES,
    OPT_INPUTS,
    OPT_COND,
    OPT_SLOTS,
    OPT_OCCUPANCY,
    OPT_ORDER,
    OPT_SCHEDULE,
    OPT_SCHEDULES,
    OPT_PCT,
    OPT_HUGE,
    OPT_SHARED_LIMIT,
    OPT_QUICK,
    OPT_BLOCKS,
    OPT_RESIDENT,
    OPT_MODEL,
    OPT_EXHAUSTIVE,
    OPT_SAMPLES,
    OPT_BUDGET,
    /* verdicts */
    OPT_ALLOW_RACES,
    OPT_ALLOW_UNREACHED,
    OPT_FAIL_ON_SKIP,
    OPT_COVERAGE,
    /* output */
    OPT_OUTPUT,
    OPT_JSON,
    OPT_HELP,
    OPT_COUNT
} cli_opt;

/* One option of a subcommand: which, and what it means there when the
 * table's text needs a word more (the default of --n, what --output
 * writes), or NULL. */
typedef struct {
    cli_opt opt;
    const char *note;
} cli_cmd_opt;

typedef struct {
    const char *name;        /* "verify" */
    const char *synopsis;    /* after "usage: scanlab <name> " */
    const char *about;       /* what the command does, a paragraph */
    const cli_cmd_opt *opts; /* the options it takes */
    size_t nopts;
    const char *fails;       /* what exit status 1 means here */
    bool dry_run;            /* in a dry run the command validates its whole command line
                                and returns before its work (see cli_set_dry_run) */
} cli_command;

/* The values given on one command line. */
typedef struct {
    const char *val[OPT_COUNT]; /* the value given (once at most), or NULL */
    bool set[OPT_COUNT];        /* whether the option was given */
    char *owned[4];             /* values made from old spellings (freed by cli_args_free) */
    size_t nowned;
} cli_args;

/* Parse argv (argv[0] is the command name) against cmd's options. Old
 * spellings are taken with a note on stderr; an option that takes a value
 * given twice is refused. Returns 0, or 2 after one message on stderr;
 * --help prints the command's help on stdout and sets a->set[OPT_HELP]
 * (return 0: the caller returns 0 at once). In a dry run
 * a command whose table does not set dry_run gets a->set[OPT_HELP] too,
 * without the help: it stops once its options are parsed. */
int cli_parse(const cli_command *cmd, int argc, char **argv, cli_args *a);
void cli_args_free(cli_args *a);

/* Dry runs, for fuzzing the command lines (tests/fuzz): every command
 * parses its command line and, where its table sets dry_run, checks all of
 * it (selections, sizes, files, memory) as it would before working, then
 * returns its exit status without running anything or writing a file. */
void cli_set_dry_run(bool on);
bool cli_dry_run(void);

/* The help of cmd: synopsis, about, every option from the table, and the
 * exit statuses. */
void cli_print_help(FILE *f, const cli_command *cmd);

/* --- shared getters: each prints one message and returns 2 on bad input -- */

/* --seed S, else the environment variable SCANLAB_SEED, else a seed drawn
 * from the clock. The one policy of every command. */
int cli_get_seed(const char *cmd, const cli_args *a, uint64_t *seed);
/* "scanlab: <cmd>: seed S (replay with --seed S)" on stderr. */
void cli_print_seed(const char *cmd, uint64_t seed);

/* --jobs J (1 to 4096), else the number of CPUs this process may use. */
int cli_get_jobs(const cli_args *a, int *jobs);
/* The CPUs this process may run on (sched affinity), at least 1. */
int cli_cpus(void);

/* --n (else def): a comma-separated list of items, each a size N or 2^K,
 * a range A..B (A, every power of two between, and B), or 'edges' /
 * 'edges..N' (the edge set up to N, default 4096, with random sizes from
 * seed: see verify/harness/sizes.h). Sorted, without duplicates, in a
 * malloc'ed array. */
int cli_get_sizes(const cli_args *a, const char *def, uint64_t seed, size_t **sizes, size_t *count);

/* --block B (1 to 1024 threads) and --param P (0 to 2^20); 0 when absent. */
int cli_get_block_param(const cli_args *a, int *block, int *param);

/* Kinds: *inclusive and *exclusive from --exclusive / --both (default
 * inclusive only). */
int cli_get_kinds(const char *cmd, const cli_args *a, bool *inclusive, bool *exclusive);

/* A mask (1u << value) of --type / --op / --backend, "all" or a list;
 * def when the option is absent. */
int cli_get_types(const cli_args *a, unsigned def, unsigned *mask);
int cli_get_ops(const cli_args *a, unsigned def, unsigned *mask);
int cli_get_backends(const char *cmd, const cli_args *a, unsigned def, unsigned *mask);
/* The backends built in this scanlab, as a mask. */
unsigned cli_built_backends(void);

/* The one value of a mask that must hold exactly one (simulate, bench):
 * 2 with a message naming opt when it holds several. */
int cli_one_of(const char *cmd, const char *opt, unsigned mask, int *value);

#endif
