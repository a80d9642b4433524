/* The simulator's part of libscanlab (include/scanlab/simulator.h): an
 * opaque handle over the model's counts, so that programs linking the
 * library never depend on the layout of model_stats. */
#include "scanlab/simulator.h"

#include <stdlib.h>

#include "model/model.h"

/* model_stats first: &s->stats == (model_stats *)s, which is what a
 * sim-backend run expects in sl_scan_args.sim. */
struct sl_sim {
    model_stats stats;
};

sl_sim *sl_sim_new(void)
{
    sl_sim *s = malloc(sizeof *s);
    if (s)
        model_stats_init(&s->stats);
    return s;
}

void sl_sim_free(sl_sim *s)
{
    if (!s)
        return;
    model_stats_free(&s->stats);
    free(s);
}

void *sl_sim_sink(sl_sim *s) { return &s->stats; }

static const char *const metric_names[SL_SIM_METRIC_COUNT] = {
    [SL_SIM_WORK] = "work",
    [SL_SIM_STEPS] = "steps",
    [SL_SIM_BARRIERS] = "barriers",
    [SL_SIM_LAUNCHES] = "launches",
    [SL_SIM_BLOCKS] = "blocks",
    [SL_SIM_THREADS] = "threads",
    [SL_SIM_SHARED_ACCESSES] = "shared_accesses",
    [SL_SIM_SHARED_WAVEFRONTS] = "shared_wavefronts",
    [SL_SIM_BANK_CONFLICTS] = "bank_conflicts",
    [SL_SIM_GLOBAL_LOAD_ELEMS] = "global_load_elements",
    [SL_SIM_GLOBAL_STORE_ELEMS] = "global_store_elements",
    [SL_SIM_GLOBAL_LOAD_SECTORS] = "global_load_sectors",
    [SL_SIM_GLOBAL_STORE_SECTORS] = "global_store_sectors",
    [SL_SIM_WARP_ISSUES] = "warp_issues",
    [SL_SIM_DIVERGENT_ISSUES] = "divergent_issues",
    [SL_SIM_DIVERGENT_BRANCHES] = "divergent_branches",
    [SL_SIM_RACES] = "races",
    [SL_SIM_BARRIER_DIVERGENCE] = "barrier_divergence",
    [SL_SIM_DEADLOCKS] = "deadlocks",
    [SL_SIM_OUT_OF_BOUNDS] = "out_of_bounds",
};

const char *sl_sim_metric_name(sl_sim_metric m)
{
    return (unsigned)m < SL_SIM_METRIC_COUNT ? metric_names[m] : NULL;
}

uint64_t sl_sim_count(const sl_sim *s, sl_sim_metric m)
{
    const model_stats *st = &s->stats;
    switch (m) {
    case SL_SIM_WORK: return st->work;
    case SL_SIM_STEPS: return st->steps;
    case SL_SIM_BARRIERS: return st->barriers;
    case SL_SIM_LAUNCHES: return st->launches;
    case SL_SIM_BLOCKS: return st->blocks;
    case SL_SIM_THREADS: return st->threads;
    case SL_SIM_SHARED_ACCESSES: return st->shared_accesses;
    case SL_SIM_SHARED_WAVEFRONTS: return st->shared_wavefronts;
    case SL_SIM_BANK_CONFLICTS: return st->bank_conflicts;
    case SL_SIM_GLOBAL_LOAD_ELEMS: return st->global_load_elems;
    case SL_SIM_GLOBAL_STORE_ELEMS: return st->global_store_elems;
    case SL_SIM_GLOBAL_LOAD_SECTORS: return st->global_load_sectors;
    case SL_SIM_GLOBAL_STORE_SECTORS: return st->global_store_sectors;
    case SL_SIM_WARP_ISSUES: return st->warp_issues;
    case SL_SIM_DIVERGENT_ISSUES: return st->divergent_issues;
    case SL_SIM_DIVERGENT_BRANCHES: return st->divergent_branches;
    case SL_SIM_RACES: return st->races;
    case SL_SIM_BARRIER_DIVERGENCE: return st->barrier_divergence;
    case SL_SIM_DEADLOCKS: return st->deadlocks;
    case SL_SIM_OUT_OF_BOUNDS: return st->oob;
    default: return 0;
    }
}

uint64_t sl_sim_findings(const sl_sim *s, bool allow_races) { return model_findings(&s->stats, allow_races); }

void sl_sim_print(FILE *f, const sl_sim *s) { model_print(f, &s->stats); }

void sl_sim_print_findings(FILE *f, const sl_sim *s) { model_print_findings(f, &s->stats); }
