/* Progress litmus tests (docs/deadlock.md, "Progress litmus tests"): a
 * litmus test whose threads each sit in a block of their own and spin on
 * atomics; the question is whether every execution a progress model
 * allows terminates. The schedule search (model_search_run) explores
 * every interleaving of the threads' turns and hands over each transition;
 * the graph of states it reached is then searched, per model and
 * fairness, for a fair cycle: an infinite execution the model allows.
 * A test is either in the litmus format or one of Sorensen et al.'s
 * (alloy.c, lit_parse_progress_file). */
#ifndef SCANLAB_LITMUS_PROGRESS_H
#define SCANLAB_LITMUS_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/litmus/litmus.h"

/* The models of Sorensen et al. (OOPSLA 2021), which threads a scheduler
 * must keep scheduling: their fair set at a state (lit_pmodel_fair_set). */
typedef enum {
    LIT_PM_OBE,     /* the threads that have started */
    LIT_PM_LOBE,    /* every thread whose id is at most a started thread's */
    LIT_PM_HSA,     /* the lowest-id thread that has not terminated */
    LIT_PM_HSA_OBE, /* hsa's thread and obe's */
    LIT_PM_FAIR,    /* every thread */
    LIT_PM_COUNT
} lit_pmodel;

/* "obe", "lobe", "hsa", "hsa+obe", "fair". */
const char *lit_pmodel_name(lit_pmodel m);
/* The model of that name, or -1. */
int lit_pmodel_parse(const char *name);
/* The threads (a bit each) model m must schedule at a state where those of
 * started have run and those of finished have terminated. */
unsigned lit_pmodel_fair_set(lit_pmodel m, unsigned started, unsigned finished, unsigned nthreads);

/* ---- the graph of states (progress_graph.c; its fair cycles: progress_cycles.c) ---- */
typedef struct {
    uint32_t from, to;
    int32_t thread; /* the thread that took the turn; -1 - t: thread t's block dispatched (no step) */
} lit_pedge;

typedef struct {
    unsigned nthreads;
    uint32_t nnodes, root;
    unsigned char *started, *finished; /* per node: masks of threads */
    lit_pedge *edge;                   /* sorted by from and thread, no duplicates */
    size_t nedges;
    uint32_t *first; /* per node + 1: its out-edges are edge[first[v], first[v+1]), by thread */
} lit_pgraph;

/* A transition as the search hands it over: states by hash, the finished
 * threads after it. */
typedef struct {
    uint64_t from, to;
    int32_t thread; /* -1 - t: a dispatch of thread t's block */
    uint32_t finished;
} lit_praw;

/* The graph of the n transitions raw[] (in any order, repeats allowed)
 * from the state root: 0, or -1 when out of memory. */
int lit_pgraph_build(lit_pgraph *g, unsigned nthreads, uint64_t root, lit_praw *raw, size_t n);

/* An infinite execution: prefix from the initial state, then a cycle that
 * repeats for ever (threads, one a turn). */
#define LIT_LASSO_MAX 256
typedef struct {
    unsigned nprefix, ncycle;
    int8_t prefix[LIT_LASSO_MAX], cycle[LIT_LASSO_MAX];
    unsigned started, finished; /* at the cycle */
} lit_lasso;

/* Whether some execution that model m allows under weak (strong: false) or
 * strong fairness never terminates: 1 with a lasso in *out (its prefix a
 * shortest path into a fair component, its cycle scheduling every thread
 * the model requires there), 0 when every such execution terminates, -1
 * when out of memory. The conditions are Sorensen et al.'s (docs/deadlock.md,
 * "What each model guarantees"). Weak fairness: a thread in the fair set
 * at every state of the cycle is scheduled in it; strong: every turn a
 * thread of the fair set can take at a state of the cycle is taken in it
 * (progress_strong.c). */
int lit_pgraph_nonterm(const lit_pgraph *g, lit_pmodel m, bool strong, lit_lasso *out);
void lit_pgraph_free(lit_pgraph *g);

/* Test-only weakenings of the analysis (SCANLAB_TEST_WEAKEN_PROGRESS), a
 * mask: cycles that change the state ignored, only spins (a turn that
 * leaves the state as it was) counted, as a search that treats a state
 * seen before as finished would find; or fairness ignored, every cycle
 * taken as allowed (the unfair scheduler's answer for every model). 0:
 * the analysis as it is. */
#define LIT_WEAKEN_CYCLES 1u
#define LIT_WEAKEN_FAIRNESS 2u
void lit_pgraph_weaken(unsigned mask);

/* ---- running a test (progress.c) ---- */
typedef struct {
    bool answered; /* false: the search was cut (state limit) or a finding stopped it */
    char why[400]; /* not answered: why */
    uint64_t states;
    size_t edges;
    double seconds;
    struct {
        bool terminates;
        lit_lasso lasso; /* when not */
    } v[LIT_PM_COUNT][2]; /* [model][strong] */
} lit_presult;

/* Whether t can be asked as a progress test: each thread in a block of its
 * own, one GPU, no plain load or store of a location (the search lets
 * other threads run at strong accesses and atomics only), and every loop
 * with a strong access in it (else it would spin inside one turn). 0, or
 * -1 with a message in err. */
int lit_progress_check(const lit_test *t, char *err, size_t errlen);
typedef struct {
    uint64_t max_states; /* the search is cut past this many states */
    double budget_s;     /* or past this many seconds */
    bool fork_per_choice; /* each state in a process of its own (what ASan builds do), not a snapshot */
    /* for tests only: registers left out of a state, as the kernels'
     * search does (a loop that counts then looks like a spin) */
    bool ignore_registers;
} lit_popts;
/* Explores t as o says and answers every model and fairness. 0, or -1
 * with a message in err (the kernel could not be made or launched, out of
 * memory); a cut search is r->answered false. */
int lit_progress_run(lit_test *t, const lit_popts *o, lit_presult *r, char *err, size_t errlen);

#endif
