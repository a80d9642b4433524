/* libscanlab, simulator: what a kernel did in the step-level simulator.
 *
 *     sl_sim *sim = sl_sim_new();
 *     sl_scan_args a = {..., .sim = sl_sim_sink(sim)};
 *     algo->run[SL_SIM](&a);
 *     sl_sim_count(sim, SL_SIM_WORK);
 *
 * Every sim-backend run given the sink adds its counts (docs/metrics.md
 * defines each). This header stands alone: it needs no other of scanlab's. */
#ifndef SCANLAB_PUBLIC_SIMULATOR_H
#define SCANLAB_PUBLIC_SIMULATOR_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sl_sim sl_sim;

typedef enum {
    SL_SIM_WORK,               /* operator applications, all threads */
    SL_SIM_STEPS,              /* depth: per barrier interval the busiest thread, summed */
    SL_SIM_BARRIERS,
    SL_SIM_LAUNCHES,
    SL_SIM_BLOCKS,
    SL_SIM_THREADS,
    SL_SIM_SHARED_ACCESSES,    /* warp-level shared-memory accesses */
    SL_SIM_SHARED_WAVEFRONTS,
    SL_SIM_BANK_CONFLICTS,     /* wavefronts beyond the ideal */
    SL_SIM_GLOBAL_LOAD_ELEMS,
    SL_SIM_GLOBAL_STORE_ELEMS,
    SL_SIM_GLOBAL_LOAD_SECTORS,
    SL_SIM_GLOBAL_STORE_SECTORS,
    SL_SIM_WARP_ISSUES,
    SL_SIM_DIVERGENT_ISSUES,
    SL_SIM_DIVERGENT_BRANCHES,
    SL_SIM_RACES,
    SL_SIM_BARRIER_DIVERGENCE,
    SL_SIM_DEADLOCKS,
    SL_SIM_OUT_OF_BOUNDS,
    SL_SIM_METRIC_COUNT
} sl_sim_metric;

/* A fresh set of counts (all zero); NULL when out of memory. */
sl_sim *sl_sim_new(void);
void sl_sim_free(sl_sim *s);

/* The value to put in sl_scan_args.sim. */
void *sl_sim_sink(sl_sim *s);

/* One count; 0 for an unknown metric. */
uint64_t sl_sim_count(const sl_sim *s, sl_sim_metric m);
/* Its name as 'scanlab simulate --json' writes it ("work", "bank_conflicts"). */
const char *sl_sim_metric_name(sl_sim_metric m);

/* Findings that make a run wrong: races (unless allow_races), barrier
 * divergence, out-of-bounds or misaligned accesses, deadlocks, undefined
 * warp operations, an error that stopped a launch. */
uint64_t sl_sim_findings(const sl_sim *s, bool allow_races);

/* A readable table of the counts, and each finding as "path:line: error:". */
void sl_sim_print(FILE *f, const sl_sim *s);
void sl_sim_print_findings(FILE *f, const sl_sim *s);

#ifdef __cplusplus
}
#endif

#endif
