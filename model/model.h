/* The step-level simulator: public API.
 *
 * Kernels written in the dialect (cuda/dialect.h) and compiled by the C
 * compiler run here. A caller opens a run with model_begin(stats), calls
 * host drivers or launch functions (every launch adds to the same stats),
 * and closes it with model_end. docs/metrics.md defines every count. */
#ifndef SCANLAB_MODEL_H
#define SCANLAB_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "cuda/status.h"
#include "model/rt.h"

/* Hardware constants of the model (NVIDIA since Volta; H100 limits). */
#define MODEL_WARP_SIZE 32
#define MODEL_BANKS 32
#define MODEL_BANK_BYTES 4
#define MODEL_SECTOR_BYTES 32
#define MODEL_MAX_BLOCK_THREADS 1024
#define MODEL_DEFAULT_SHARED_LIMIT ((size_t)48 * 1024)
#define MODEL_MAX_SHARED_LIMIT ((size_t)227 * 1024)
#define MODEL_DEFAULT_SLOTS 8
#define MODEL_MAX_REPORTS 8
/* Huge grids: launches of at most this many blocks run whole. */
#define MODEL_HUGE_MIN_BLOCKS 1024
/* model_config.persistent: an occupancy query whose stand-in is more
 * blocks than this answers half as many (the grid-stride kernels' stand-in,
 * SL_SIM_RESIDENT_BLOCKS, and fewer stay as they are). */
#define MODEL_PERSISTENT_FROM 4u
/* Huge runs: what an occupancy query answers (a block per tile). */
#define MODEL_HUGE_OCCUPANCY (1u << 30)
/* Huge runs: global accesses allowed to the blocks run (a kernel whose
 * blocks each cover a large share of n cannot be simulated in part). */
#define MODEL_HUGE_MAX_ACCESSES (UINT64_C(1) << 24)
/* Why a huge run could not compute the chosen outputs (the index widths are
 * still checked at every site the blocks reached). */
#define MODEL_HUGE_DYNAMIC_IDS 1u /* blocks take tiles from a counter */
#define MODEL_HUGE_WAITS 2u       /* blocks wait for skipped blocks */

/* Orders in which pending blocks are dispatched to residency slots. */
typedef enum { MODEL_ORDER_IN, MODEL_ORDER_REVERSED, MODEL_ORDER_RANDOM } model_order;

typedef struct {
    unsigned slots;      /* resident blocks at once; 0 = MODEL_DEFAULT_SLOTS */
    model_order order;   /* dispatch order */
    uint64_t seed;       /* for MODEL_ORDER_RANDOM */
    size_t shared_limit; /* static + dynamic shared bytes per block; 0 = 48 KiB */
    bool quiet;          /* do not print errors on stderr when no sink was given */
    /* Explored schedules (docs/memory-model.md): 0 runs the default
     * schedule (lanes, warps and blocks in order, loads see the newest
     * store); any other value seeds a schedule that orders lanes, warps and
     * resident blocks at random, dispatches blocks in a random order (unless
     * keep_order), lets other blocks run at every store, strong load, fence
     * and atomic, and lets strong loads return older stores the memory
     * model allows. */
    uint64_t schedule;
    unsigned pct_depth; /* > 0: blocks chosen by PCT priorities with pct_depth - 1 change points */
    bool keep_order;    /* explored schedules keep the dispatch order of `order` */
    unsigned occupancy; /* blocks an occupancy query answers (persistent grids); 0 = the kernel's default */
    /* With occupancy 0: a grid-stride kernel's occupancy query
     * (SL_RESIDENT_BLOCKS) answers what this device holds at once of its
     * blocks, by threads and shared memory per block (registers are not
     * modelled), instead of the simulator's few; NULL: not asked. */
    const struct model_device *occupancy_device;
    /* With occupancy 0: an occupancy query whose stand-in is more than
     * MODEL_PERSISTENT_FROM blocks (a block per tile of the single-pass
     * scans, two-level's ranges) answers half as many: the device's
     * occupancy scaled to the simulated size, so that every block scans two
     * tiles or more, as the GPU's persistent blocks do for large inputs
     * (the single-pass scans' pipelined path, both staging areas). The
     * grid verify's persistent run gives such kernels (harness.h). */
    bool persistent;
    /* Huge grids (docs/memory-model.md): with huge_n (the elements of the
     * run) > 0, a launch of more than MODEL_HUGE_MIN_BLOCKS blocks runs only
     * the blocks around elements 0, huge_n - 1 and huge_at[], at their
     * share of the grid (and one on each side); the others are skipped.
     * Every access then takes the checked path, where an index expression
     * of 32 bits into an array beyond what it can address is a finding. */
    uint64_t huge_n;
    uint64_t huge_at[4];
    unsigned nhuge_at;
} model_config;

/* Kinds of finding. */
typedef enum {
    MODEL_FIND_RACE,
    MODEL_FIND_OOB,
    MODEL_FIND_BARRIER_DIVERGENCE,
    MODEL_FIND_DEADLOCK,
    MODEL_FIND_LIMIT,
    MODEL_FIND_MISALIGNED, /* an access not aligned to its size (faults on the GPU) */
    MODEL_FIND_WARP,       /* an undefined warp operation (mask and participants disagree) */
    MODEL_FIND_INDEX,      /* an index type too narrow for the array it indexes (32-bit arithmetic) */
    MODEL_FIND_UB,         /* undefined behaviour in kernel source: a shift by the width or more, signed
                            * overflow, a division by zero (model/ubsan.c) */
} model_find_kind;

/* One finding: sites, threads (block-linear, thread-linear), address. */
typedef struct {
    model_find_kind kind;
    const model_site *site[2]; /* the later and the earlier access (or NULL) */
    unsigned block[2], thread[2];
    uintptr_t addr;
    long long index;     /* out of bounds: the index */
    uint32_t interval;   /* barrier interval (epoch) of the later access */
    char text[320];      /* one readable line */
} model_finding;

/* Counts per call site (file:line). */
typedef struct {
    const model_site *site;
    uint64_t shared_accesses, shared_wavefronts, bank_conflicts, worst_degree;
    uint64_t global_accesses, global_sectors, global_elems;
    uint64_t divergent_issues, issues;
    uint64_t probes; /* PROBE sites: times reached */
} model_site_stats;

/* The counts of one launch that Nsight Compute also measures, loads and
 * stores apart (docs/metrics.md, "Per launch"). */
typedef struct {
    uint64_t shared_ld, shared_st;                       /* warp-level shared loads, stores */
    uint64_t shared_ld_wavefronts, shared_st_wavefronts; /* their wavefronts */
    uint64_t shared_ld_conflicts, shared_st_conflicts;   /* and bank conflicts */
    uint64_t shared_atom;                                /* warp-level shared atomics */
    uint64_t global_ld_sectors, global_st_sectors;       /* 32-byte sectors of loads, stores */
    uint64_t global_poll_sectors; /* of the loads: strong (volatile, relaxed, acquire) ones */
    uint64_t global_atom_sectors; /* atomics (counted as loads in the run's totals) */
    uint64_t divergent_branches;
    uint64_t chain; /* cross-block waits on the longest chain of them */
    /* the most barrier intervals of one block that issued a plain global
     * load (not strong, not atomic): the DRAM round trips a block waits
     * through in series (a tile loop: one a tile) */
    uint64_t load_rounds;
    /* the slowest block's steps of its own: as steps, without the steps
     * it waited for values other blocks published (a block's own path) */
    uint64_t own_steps;
} model_launch_counts;

/* One kernel launch. */
typedef struct {
    const char *name; /* the kernel's instantiated name */
    const char *role; /* its role in the driver (model_launch_role), or NULL */
    unsigned blocks, threads_per_block;
    uint64_t work, steps, barriers;
    bool reads_block_idx; /* some thread read blockIdx */
    /* the run asked an occupancy query before this launch: its grid is at
     * most what the GPU holds at once, whatever n (tools/fidelity_run
     * scales such a grid only up to that) */
    bool occupancy_grid;
    /* the grid's size was fixed by the caller whatever n (model_fixed_grid):
     * at most that many blocks at any size; 0 when not */
    unsigned fixed_grid;
    size_t dyn_shared;        /* dynamic shared bytes per block */
    model_launch_counts c;    /* this launch's counts */
} model_launch_stats;
#define MODEL_MAX_LAUNCH_RECORDS 32

typedef struct {
    model_config cfg;
    /* totals (docs/metrics.md) */
    uint64_t work, steps, barriers, launches, blocks, threads;
    uint64_t shared_accesses, shared_wavefronts, bank_conflicts;
    uint64_t global_load_elems, global_store_elems, global_load_sectors, global_store_sectors;
    uint64_t divergent_issues, divergent_branches, warp_issues;
    uint64_t races, barrier_divergence, deadlocks, oob, misaligned, warp_errors, narrow_index;
    uint64_t undefined; /* undefined behaviour in kernel source (MODEL_FIND_UB) */
    uint64_t skipped_blocks; /* huge grids: blocks not run */
    bool occupancy_asked;    /* the run has asked an occupancy query (model_occupancy) */
    unsigned persistent_grid; /* what the last query model_config.persistent halved answered; 0: none */
    unsigned fixed_grid_asked; /* the grid the run fixed whatever n (model_fixed_grid); 0: none */
    unsigned huge_unchecked; /* huge grids: MODEL_HUGE_* reasons the outputs are not the kernel's */
    char huge_wait[160];     /* huge grids: where a block waited for a skipped one */
    uint64_t global_polls; /* strong loads of global memory: a kernel that waits between blocks has some */
    uint64_t lane_ops; /* dialect calls by single threads */
    /* findings: the first MODEL_MAX_REPORTS races, and the error that
     * stopped a launch, if any */
    model_finding race[MODEL_MAX_REPORTS];
    bool has_error;
    model_finding error;
    /* the counts of the launch in progress (copied into its record) */
    model_launch_counts launch_acc;
    /* the first MODEL_MAX_LAUNCH_RECORDS launches */
    model_launch_stats launch[MODEL_MAX_LAUNCH_RECORDS];
    size_t nlaunch_records;
    /* per-site table, indexed by site id (entries with site NULL unused) */
    model_site_stats *sites;
    size_t nsites;
} model_stats;

/* Defaults for every field; cfg as documented above. */
void model_stats_init(model_stats *s);
void model_stats_free(model_stats *s);

/* Opens a run: launches until model_end add to s (NULL: a scratch sink;
 * errors are then printed on stderr). */
void model_begin(model_stats *s);
/* Closes the run; returns st unchanged. */
sl_status model_end(sl_status st);

/* The stats of the run in progress (the scratch sink if none). */
model_stats *model_current(void);

/* ---- the search of block schedules (docs/deadlock.md) -------------------- */
/* Progress models (Sorensen et al., OOPSLA 2021): which blocks a GPU that
 * honours CUDA's guarantees must keep scheduling. */
typedef enum {
    MODEL_PROGRESS_OBE,  /* occupancy-bound: a block that has started keeps being scheduled;
                            one waiting to start may wait while every slot is taken */
    MODEL_PROGRESS_LOBE, /* as obe, and blocks start in id order */
    MODEL_PROGRESS_HSA,  /* only the lowest-numbered unfinished block is sure to progress */
    MODEL_PROGRESS_FAIR, /* every block eventually runs */
    MODEL_PROGRESS_COUNT
} model_progress;

typedef struct {
    model_progress progress;
    bool exhaustive;     /* every schedule (with state caching); else samples */
    uint64_t samples;    /* random schedules when not exhaustive */
    uint64_t seed;       /* of the samples */
    uint64_t max_states; /* exhaustive: give up (not a proof) beyond this many; 0 = default */
    bool fork_per_choice; /* exhaustive: keep each state in a forked process instead of a snapshot
                             (what builds with AddressSanitizer do; the same states either way) */
    /* CLOCK_MONOTONIC seconds after which the search stops without a verdict
     * (INCOMPLETE, out_of_time); 0: none. A deadline, so that the calls of
     * one search (a sample each) share it. */
    double deadline;
    /* on_progress: called every MODEL_SEARCH_PROGRESS_S seconds of a search
     * with the states and schedules of this call so far, for the caller to
     * say how far it is (NULL: never); progress_next: when the next call is
     * due, kept by a caller that splits one search into several calls (a
     * sample each), else NULL (the first is due that long after the start).
     * The forked processes of an exhaustive search share it. */
    void (*on_progress)(void *ctx, uint64_t states, uint64_t schedules);
    void *progress_ctx;
    double *progress_next;
    /* exhaustive: the search shared with other processes (ranks), each
     * exploring its part of the tree (NULL, or ranks <= 1: alone) */
    const struct model_search_hooks *hooks;
    /* exhaustive: every transition taken, for a caller that builds the
     * graph of states (progress litmus tests look for fair cycles in it,
     * model/litmus/progress.c), called in the search's forked processes
     * too (so what it records must be in memory they share): the states' hashes
     * before and after, what ('d' dispatch, 'r' turn, 'f' a finding
     * stopped the launch), the block, and the blocks' status after it (0
     * pending, 1 resident, 2 finished). With it no plain run comes first
     * (a livelock would never end it), and blocks are never taken as
     * interchangeable. NULL: none. */
    void (*on_step)(void *ctx, uint64_t from, uint64_t to, char what, unsigned block, const unsigned char *status,
                    unsigned nblocks);
    void *step_ctx;
    /* a state also holds each thread's front-end state (a PTX thread's
     * program counter and registers): a loop that counts is then not back
     * where it was after a round, as it is when registers are left out */
    bool thread_state;
} model_search_cfg;
#define MODEL_SEARCH_PROGRESS_S 10.0
/* CLOCK_MONOTONIC in seconds (the clock of model_search_cfg.deadline). */
double model_search_now(void);

typedef enum {
    MODEL_VERDICT_FREE,       /* no deadlock in what was explored */
    MODEL_VERDICT_DEADLOCK,   /* a reachable state where the model lets nothing progress */
    MODEL_VERDICT_FINDING,    /* another finding stopped the kernel (e.g. barrier divergence) */
    MODEL_VERDICT_INCOMPLETE, /* the state limit or the deadline was reached before the search ended */
} model_verdict;

#define MODEL_TRACE_MAX 256
/* The largest grid a search takes: a state's choices (a block each) are
 * held in arrays of MODEL_TRACE_MAX; a larger launch is refused with a
 * limit finding. */
#define MODEL_SEARCH_MAX_BLOCKS MODEL_TRACE_MAX
typedef struct {
    model_verdict verdict;
    bool waiting;        /* some thread polled global memory (the kernel waits between blocks) */
    uint64_t states;     /* distinct states explored */
    uint64_t schedules;  /* complete schedules (ending or deadlocked) explored */
    uint64_t launches;   /* launches of the run */
    /* the shortest deadlock found: its steps ("dispatch b" / "run b"), then
     * one line per resident block saying where it waits */
    unsigned trace_len;
    struct {
        char what; /* 'd' dispatch, 'r' run */
        unsigned block;
    } trace[MODEL_TRACE_MAX];
    unsigned dispatch[MODEL_TRACE_MAX], ndispatch; /* the dispatch order up to the deadlock */
    char waits[8][256];
    unsigned nwaits;
    char finding[400];   /* MODEL_VERDICT_FINDING: the finding's text with its site */
    bool out_of_time;    /* MODEL_VERDICT_INCOMPLETE: the deadline passed (else the state limit) */
} model_search_result;

/* ---- an exhaustive search split over several ranks ------------------------
 * Every rank runs the same search to the split depth (the top of the tree,
 * the same at every rank); each subtree below it is explored by the rank
 * its root state's hash names. What a rank's processes newly record in
 * their table of states (a state's hash and depth, or a transition that
 * ends a schedule) is handed to the hooks, which send it to the other
 * ranks and put what they receive into this rank's table, so that every
 * rank's table ends complete (docs/scaling.md). The model itself knows
 * nothing of how ranks talk. */
typedef struct {
    uint64_t hash;
    uint32_t depth;
    uint32_t kind; /* MODEL_SEARCH_STATE, MODEL_SEARCH_END */
} model_search_entry;
#define MODEL_SEARCH_STATE 1u /* a state, at the smallest depth it was reached */
#define MODEL_SEARCH_END 2u   /* a transition that ends a schedule */
#define MODEL_SEARCH_NONE UINT32_MAX

/* What one rank's search found, merged over the ranks by the hooks. */
typedef struct {
    uint64_t states, schedules;      /* distinct states and schedule-ending transitions in the table */
    uint32_t deadlock_depth;         /* the shortest stuck state's depth (MODEL_SEARCH_NONE: none) */
    uint32_t finding_depth;          /* the least depth of a finding (MODEL_SEARCH_NONE: none) */
    uint8_t incomplete, out_of_time; /* a limit or the deadline cut the search */
    uint8_t disagree;                /* merged: the ranks' tables differ (they must not) */
    char finding[400];               /* at finding_depth, the first in byte order */
} model_search_summary;

typedef struct model_search_hooks {
    unsigned ranks, rank;
    void *ctx;
    /* Called often by the search's first process (every few hundred states,
     * and while it waits for a forked process): send what
     * model_search_outbox gives, pass what arrived to model_search_inbox. */
    void (*exchange)(void *ctx);
    /* Called by the first process when its part is done: goes on
     * exchanging until every rank is done and everything sent has arrived. */
    void (*finish)(void *ctx);
    /* Every rank's summary merged (model_search_merge), at every rank. */
    void (*combine)(void *ctx, model_search_summary *sum);
    /* Rank 0's result (the trace it found alone), at every rank. */
    void (*share)(void *ctx, model_search_result *r);
} model_search_hooks;

/* Takes up to max entries that this rank's processes recorded since the
 * last call; returns how many. For the hooks' exchange. */
size_t model_search_outbox(model_search_entry *buf, size_t max);
/* Records other ranks' entries in this rank's table. */
void model_search_inbox(const model_search_entry *e, size_t n);
/* Merges another rank's summary into *into. */
void model_search_merge(model_search_summary *into, const model_search_summary *from);

/* Runs run(ctx) (a host driver on the simulator, whose launches use s) under
 * every block schedule the progress model allows (exhaustive) or under
 * cfg->samples random ones, and says whether a schedule ends with nothing
 * allowed to progress. The search's launches count nothing (s's counts
 * then describe no schedule in particular); a launch that finishes hands
 * the rest of run to a forked child. */
sl_status model_search_run(const model_search_cfg *cfg, sl_status (*run)(void *ctx), void *ctx, model_stats *s,
                           model_search_result *out);

/* Prints a readable table of s (totals, worst sites, findings). */
void model_print(FILE *f, const model_stats *s);

/* The findings of s that make a run wrong: races (unless allow_races),
 * barrier divergence, out-of-bounds and misaligned accesses, deadlocks,
 * undefined warp operations, and the error that stopped a launch. */
uint64_t model_findings(const model_stats *s, bool allow_races);
/* Prints each finding of s as one "path:line: error: text" line (the
 * later access's site first), as compilers do, so that editors and CI
 * annotate the kernel source. */
void model_print_findings(FILE *f, const model_stats *s);

/* Every dialect call site of the program, executed or not: *begin points
 * to an array of the returned count (one record per macro expansion and
 * template instantiation). A site has executed when its id is not 0. */
size_t model_sites(const model_site **begin);

#endif
