/* The deadlock question for one algorithm (deadlock.h). */
#include "verify/harness/deadlock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "verify/harness/app_ref.h"
#include "verify/harness/rng.h"

/* Small tiles: a block of one warp, one item a thread, so that a grid of G
 * blocks is G x 32 elements and every state of the search is small. */
#define SMALL_BLOCK 32
#define SMALL_ITEMS 1
/* a sort's parameter is its digit width: 4-bit digits (16 of them, polled
 * by lanes of one warp) in 32-thread blocks keep its tiles small and its
 * passes few (8), with the whole look-back protocol of wider digits */
#define SMALL_SORT_BITS 4
/* The largest n a trial tries when it scales n towards G blocks. */
#define MAX_TRIAL_N ((size_t)1 << 20)
#define MAX_TRIALS 12
/* how far an application's n grows while no launch waits: far enough for
 * tiles of thousands of elements to come three or more to a launch, and no
 * further, since an application that never waits is simulated at each */
#define MAX_PROBE_N ((size_t)1 << 14)

/* One run of the algorithm on the simulator: the search's host driver. */
typedef struct {
    const verify_algo *al;
    sl_scan_args a;
} run_ctx;

static sl_status run_once(void *ctx)
{
    const run_ctx *r = ctx;
    return r->al->run[SL_SIM](&r->a);
}

/* The buffers of one run: a fixed input (the search's verdict does not
 * depend on the values; no seed is needed to replay it) and the output. */
static sl_status buffers(const verify_algo *al, size_t n, int param, void **in, void **out)
{
    const size_t es = sizeof(int32_t);
    const size_t out_bytes = SL_KIND_IS_APP(al->kind) ? verify_app_out_bytes(al->kind, SL_I32, n, param)
                             : al->kind == SL_KIND_SCAN ? n * es + 1
                                                        : es + 1;
    if (out_bytes == 0)
        return SL_ERR_ARG;
    int32_t *x = malloc(n ? n * es : 1);
    *out = malloc(out_bytes);
    *in = x;
    if (!x || !*out) {
        free(x);
        free(*out);
        *in = *out = NULL;
        return SL_ERR_NOMEM;
    }
    for (size_t i = 0; i < n; i++)
        x[i] = (int32_t)(i % 7) - 3;
    return SL_OK;
}

static void set_args(run_ctx *r, const verify_algo *al, const verify_deadlock_config *c, void *in, void *out,
                     model_stats *s)
{
    memset(r, 0, sizeof *r);
    r->al = al;
    r->a = (sl_scan_args){.type = SL_I32, .op = SL_ADD, .in = in, .out = out, .n = c->n, .block = c->block,
                          .param = c->param, .sim = s};
}

static void set_model(model_stats *s, const verify_deadlock_config *c)
{
    s->cfg.slots = c->resident;
    s->cfg.occupancy = c->occupancy;
    s->cfg.quiet = true;
}

/* The settings of a search under model m: hsa and fair let every block be
 * resident, so R does not matter to them; the search's first run then
 * uses a slot for every block, and every slot the search uses starts from
 * the same (zeroed) shared memory whatever earlier runs left in it. */
static void set_search_model(model_stats *s, const verify_deadlock_config *c, model_progress m)
{
    set_model(s, c);
    if (m == MODEL_PROGRESS_HSA || m == MODEL_PROGRESS_FAIR)
        s->cfg.slots = c->blocks > c->resident ? c->blocks : c->resident;
}

/* What one plain run of a setting says. */
typedef enum { TRIAL_REFUSED, TRIAL_RAN } trial_kind;

/* One plain run of c: fills c's trial fields; TRIAL_REFUSED when the
 * algorithm refused the setting (or a launch limit stopped it). */
static trial_kind trial(const verify_algo *al, verify_deadlock_config *c, sl_status *st)
{
    void *in, *out;
    *st = buffers(al, c->n, c->param, &in, &out);
    if (*st != SL_OK)
        return TRIAL_REFUSED;
    model_stats s;
    model_stats_init(&s);
    set_model(&s, c);
    run_ctx r;
    set_args(&r, al, c, in, out, &s);
    *st = run_once(&r);
    const bool limit = s.has_error && s.error.kind == MODEL_FIND_LIMIT;
    const bool refused = (*st == SL_ERR_ARG && !s.has_error) || limit || *st == SL_ERR_UNSUPPORTED ||
                         *st == SL_ERR_NOMEM || s.nlaunch_records == 0;
    if (!refused) {
        size_t pick = 0;
        bool waits = false;
        for (size_t i = 0; i < s.nlaunch_records; i++) {
            const bool w = s.launch[i].c.global_poll_sectors > 0;
            if (w && !waits) {
                pick = i;
                waits = true;
            } else if (!waits && s.launch[i].blocks > s.launch[pick].blocks) {
                pick = i;
            }
        }
        c->waiting = s.global_polls > 0;
        c->blocks = s.launch[pick].blocks;
        c->most_blocks = 0;
        for (size_t i = 0; i < s.nlaunch_records; i++)
            c->most_blocks = s.launch[i].blocks > c->most_blocks ? s.launch[i].blocks : c->most_blocks;
        c->threads = s.launch[pick].threads_per_block;
        c->kernel = s.launch[pick].name;
        c->launches = (unsigned)s.launches;
    }
    model_stats_free(&s);
    free(in);
    free(out);
    return refused ? TRIAL_REFUSED : TRIAL_RAN;
}

/* Scales n until the explored launch has `blocks` blocks (or n is fixed);
 * false when the setting does not run. The closest n found is kept.
 * probe: the launch that waits may appear only above some n (an
 * application whose tiles hold thousands of elements, with launches of
 * fixed grids beside it: radix sort's digit bins); while no launch has
 * waited, n grows fourfold to look for one, and once one has, only
 * settings where it waits are kept. */
static bool fit(const verify_algo *al, unsigned blocks, size_t n_fixed, bool probe, verify_deadlock_config *c,
                sl_status *st)
{
    size_t n = n_fixed ? n_fixed : (size_t)blocks * (c->block ? (size_t)c->block : 256);
    verify_deadlock_config best = *c;
    bool any = false, waited = false;
    for (int k = 0; k < MAX_TRIALS; k++) {
        c->n = n;
        if (trial(al, c, st) != TRIAL_RAN)
            break;
        if (waited && !c->waiting)
            break; /* it waited at a smaller n: keep what was found there */
        if (c->waiting && !waited && probe) {
            waited = true;
            any = false; /* the settings without a wait no longer count */
        }
        const unsigned d = c->blocks > blocks ? c->blocks - blocks : blocks - c->blocks;
        const unsigned bd = best.blocks > blocks ? best.blocks - blocks : blocks - best.blocks;
        if (!any || d < bd)
            best = *c;
        any = true;
        if (probe && !waited && !n_fixed) {
            if (n > MAX_PROBE_N / 4)
                break;
            n *= 4;
            continue;
        }
        if (n_fixed || c->blocks == blocks)
            break;
        /* blocks grow with n about as n / (elements a block); a launch of
         * one block says only that a block holds at least n */
        size_t next = c->blocks > 1 ? (n + c->blocks - 1) / c->blocks * blocks : n * blocks;
        if (next == n)
            next = c->blocks < blocks ? n + 1 : n - 1;
        if (next == 0 || next > MAX_TRIAL_N)
            break;
        n = next;
    }
    *c = best;
    return any;
}

sl_status verify_deadlock_configure(const verify_algo *al, unsigned blocks, unsigned resident, size_t n_fixed,
                                    verify_deadlock_config *c, char *why, size_t size)
{
    if (!al->run[SL_SIM]) {
        snprintf(why, size, "%s has no sim backend", al->name);
        return SL_ERR_ARG;
    }
    sl_status st = SL_OK;
    /* small tiles first: the single-pass scans' grid is then the occupancy
     * query's answer (persistent blocks) or one block per 32 elements */
    verify_deadlock_config small = {.block = SMALL_BLOCK,
                                    .param = al->kind == SL_KIND_SORT ? SMALL_SORT_BITS : SMALL_ITEMS,
                                    .occupancy = blocks, .resident = resident};
    /* (G tiles of 32 elements; an application's n may grow from there
     * until a launch waits) */
    const bool app = SL_KIND_IS_APP(al->kind);
    const bool small_runs = fit(al, blocks, n_fixed || app ? n_fixed : (size_t)blocks * SMALL_BLOCK, app, &small, &st);
    if (small_runs && small.waiting) {
        *c = small;
        return SL_OK;
    }
    /* the algorithm's own settings, n scaled to G blocks */
    verify_deadlock_config own = {.occupancy = blocks, .resident = resident};
    if (fit(al, blocks, n_fixed, SL_KIND_IS_APP(al->kind), &own, &st) &&
        (own.waiting || !small_runs || own.blocks == blocks)) {
        *c = own;
        return SL_OK;
    }
    if (small_runs) {
        *c = small;
        return SL_OK;
    }
    snprintf(why, size, "%s does not run in the simulator with 32-thread tiles nor with its own settings (%s)",
             al->name, sl_status_str(st));
    return SL_ERR_ARG;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The progress of a sampled search: the samples done before this one
 * count among its schedules. */
typedef struct {
    const model_search_cfg *cfg;
    uint64_t done;
} sample_progress;

static void on_sample_progress(void *ctx, uint64_t states, uint64_t schedules)
{
    const sample_progress *sp = ctx;
    sp->cfg->on_progress(sp->cfg->progress_ctx, states, sp->done + schedules);
}

sl_status verify_deadlock_search(const verify_algo *al, const verify_deadlock_config *c,
                                 const model_search_cfg *cfg, model_search_result *out, double *seconds)
{
    void *in, *outbuf;
    sl_status st = buffers(al, c->n, c->param, &in, &outbuf);
    if (st != SL_OK)
        return st;
    model_stats s;
    model_stats_init(&s);
    set_search_model(&s, c, cfg->progress);
    run_ctx r;
    set_args(&r, al, c, in, outbuf, &s);
    memset(out, 0, sizeof *out);
    const double t0 = now();
    if (cfg->exhaustive) {
        st = model_search_run(cfg, run_once, &r, &s, out);
    } else {
        /* one search of one schedule per sample: each starts from fresh
         * counts, as the first does (model_search_run's later samples would
         * see the earlier ones' launches, by whose numbers it knows which
         * launches read blockIdx) */
        model_search_cfg one = *cfg;
        one.samples = 1;
        sample_progress sp = {cfg, 0};
        if (cfg->on_progress) {
            one.on_progress = on_sample_progress;
            one.progress_ctx = &sp;
        }
        for (uint64_t k = 0; k < cfg->samples && st == SL_OK; k++) {
            sp.done = k;
            one.seed = verify_derive_seed(cfg->seed, k);
            model_stats_free(&s);
            model_stats_init(&s);
            set_search_model(&s, c, cfg->progress);
            st = model_search_run(&one, run_once, &r, &s, out);
            out->schedules = out->out_of_time ? k : k + 1; /* a sample cut short is no schedule */
            if (st != SL_OK || out->verdict != MODEL_VERDICT_FREE || !out->waiting)
                break;
        }
    }
    if (seconds)
        *seconds = now() - t0;
    model_stats_free(&s);
    free(in);
    free(outbuf);
    return st;
}

const char *verify_progress_name(model_progress p)
{
    switch (p) {
    case MODEL_PROGRESS_OBE: return "obe";
    case MODEL_PROGRESS_LOBE: return "lobe";
    case MODEL_PROGRESS_HSA: return "hsa";
    case MODEL_PROGRESS_FAIR: return "fair";
    case MODEL_PROGRESS_COUNT: break;
    }
    return "?";
}

const char *verify_verdict_name(model_verdict v)
{
    switch (v) {
    case MODEL_VERDICT_FREE: return "deadlock-free";
    case MODEL_VERDICT_DEADLOCK: return "DEADLOCK";
    case MODEL_VERDICT_FINDING: return "FINDING";
    case MODEL_VERDICT_INCOMPLETE: return "INCOMPLETE";
    }
    return "?";
}

unsigned verify_deadlock_resident(const model_search_result *r, unsigned *blocks, unsigned max)
{
    unsigned k = 0;
    for (unsigned i = 0; i < r->nwaits && k < max; i++) {
        /* "path:line: block B thread T ..." or "block B: has not taken a turn yet" */
        const char *w = r->waits[i];
        const char *p = strncmp(w, "block ", 6) == 0 ? w : strstr(w, ": block ");
        if (!p)
            continue;
        p = strchr(p, 'k') + 1;
        char *end;
        const unsigned long b = strtoul(p, &end, 10);
        if (end != p)
            blocks[k++] = (unsigned)b;
    }
    return k;
}
