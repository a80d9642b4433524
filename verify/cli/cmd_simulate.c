/* scanlab simulate: run one GPU algorithm in the step-level simulator,
 * check its result against the sequential reference, print the counts and
 * what the simulator found. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu.h"
#include "model/model.h"
#include "verify/cli/cli.h"
#include "verify/cli/commands.h"
#include "verify/cli/memory.h"
#include "verify/cli/options.h"
#include "verify/cli/simulate.h"
#include "verify/harness/huge.h"
#include "verify/cli/user_kernel.h"
#include "model/timemodel.h"
#include "verify/formats/json.h"
#include "verify/formats/npy.h"
#include "verify/formats/output.h"
#include "verify/harness/algos.h"
#include "verify/harness/app_ref.h"
#include "verify/harness/inputs.h"

#define SIM_DEFAULT_N "4096"

static const cli_cmd_opt simulate_opts[] = {
    {OPT_ALGO, "Here one algorithm with a sim backend, required"},
    {OPT_BACKEND, "Here sim, the only one"},
    {OPT_TYPE, "Here one type, default i32"},
    {OPT_OP, "Here one operator, default add"},
    {OPT_EXCLUSIVE, NULL},
    {OPT_BOTH, NULL},
    {OPT_N, "Default 4096; each size is one run"},
    {OPT_BLOCK, NULL},
    {OPT_PARAM, NULL},
    {OPT_SEED, NULL},
    {OPT_SLOTS, NULL},
    {OPT_OCCUPANCY, "Default here: half as many blocks as tiles where a kernel would get more than 4, the "
                    "GPU's persistent grid scaled to n (lookback and lookback-det pipelined); 'tiles': a "
                    "block per tile"},
    {OPT_ORDER, NULL},
    {OPT_SCHEDULE, NULL},
    {OPT_PCT, NULL},
    {OPT_HUGE, NULL},
    {OPT_SHARED_LIMIT, NULL},
    {OPT_ALLOW_RACES, NULL},
    {OPT_OUTPUT, "Here: the output array (a scan's or a reduction's) of the one run, as .npy"},
    {OPT_JSON, "With one run, the run's object; with several, {\"results\": [one per run]}"},
};

static const cli_command simulate_cmd = {
    "simulate", "--algo A [options]",
    "Runs algorithm A (one with backend sim, see 'scanlab list') in the step-level simulator, "
    "checks the result against the sequential reference, and prints work, steps, barriers, "
    "shared-memory wavefronts and bank conflicts, global sectors, divergence, races and the "
    "worst call sites (docs/metrics.md). Every finding of the simulator (a race, barrier "
    "divergence, an out-of-bounds or misaligned access, a deadlock, an undefined warp "
    "operation) is printed on stderr as 'path:line: error: message' and fails the run.",
    simulate_opts, sizeof simulate_opts / sizeof simulate_opts[0],
    "a result was wrong, or the simulator found an error in the kernel", .dry_run = true};

/* The settings of every run. */
typedef struct {
    const verify_algo *al;
    sl_type type;
    sl_op op;
    int block, param, slots;
    int occupancy; /* 0: the simulator's own */
    bool persistent; /* model_config.persistent: the GPU's persistent grid, scaled (not --occupancy tiles) */
    uint64_t schedule;
    unsigned pct;
    bool huge;
    size_t shared_limit;
    model_order order;
    uint64_t seed;
    bool allow_races, json;
    const char *output;
} sim_plan;

/* Floats: |sim - ref| within (depth + 1) roundings of the prefix of |x|. */
static size_t check_result(const sl_scan_args *a, const verify_algo *al, const void *ref, size_t count,
                           size_t *first_bad)
{
    size_t bad = 0;
    const size_t es = SL_TYPE_SIZE(a->type);
    double abs_prefix = 0.0;
    /* A reduction is the last inclusive prefix: its scale is the sum of every
     * |x_j| and its depth that of output n - 1. */
    const bool reduce = al->kind != SL_KIND_SCAN;
    if (reduce && SL_TYPE_IS_FLOAT(a->type))
        for (size_t j = 0; j < a->n; j++)
            abs_prefix += a->type == SL_F32 ? fabs(((const float *)a->in)[j]) : fabs(((const double *)a->in)[j]);
    for (size_t i = 0; i < count; i++) {
        bool ok;
        if (!SL_TYPE_IS_FLOAT(a->type) || a->op != SL_ADD) {
            ok = memcmp((const char *)a->out + i * es, (const char *)ref + i * es, es) == 0;
        } else {
            double got, want, x;
            if (a->type == SL_F32) {
                got = ((const float *)a->out)[i];
                want = ((const float *)ref)[i];
                x = al->kind == SL_KIND_SCAN ? ((const float *)a->in)[a->exclusive ? (i ? i - 1 : 0) : i] : 0;
            } else {
                got = ((const double *)a->out)[i];
                want = ((const double *)ref)[i];
                x = al->kind == SL_KIND_SCAN ? ((const double *)a->in)[a->exclusive ? (i ? i - 1 : 0) : i] : 0;
            }
            if (!(a->exclusive && i == 0))
                abs_prefix += fabs(x);
            double u = a->type == SL_F32 ? 0x1p-24 : 0x1p-53;
            const size_t at = reduce ? (a->n ? a->n - 1 : 0) : i;
            size_t depth = al->depth ? al->depth(a, at) : at + 1;
            double tol = 2.0 * (double)(depth + 1) * u * abs_prefix;
            ok = fabs(got - want) <= tol || (isnan(got) && isnan(want));
        }
        if (!ok && bad++ == 0)
            *first_bad = i;
    }
    return bad;
}

/* A launch's per-launch counts (docs/metrics.md) and its predicted time
 * on the measured device (null when none was measured). */
static void print_json_launch_counts(json_writer *w, const model_launch_stats *l)
{
    const model_launch_counts *c = &l->c;
    json_uint(w, "shared_ld", c->shared_ld);
    json_uint(w, "shared_st", c->shared_st);
    json_uint(w, "shared_ld_wavefronts", c->shared_ld_wavefronts);
    json_uint(w, "shared_st_wavefronts", c->shared_st_wavefronts);
    json_uint(w, "shared_ld_conflicts", c->shared_ld_conflicts);
    json_uint(w, "shared_st_conflicts", c->shared_st_conflicts);
    json_uint(w, "shared_atom", c->shared_atom);
    json_uint(w, "global_ld_sectors", c->global_ld_sectors);
    json_uint(w, "global_st_sectors", c->global_st_sectors);
    json_uint(w, "global_poll_sectors", c->global_poll_sectors);
    json_uint(w, "global_atom_sectors", c->global_atom_sectors);
    json_uint(w, "divergent_branches", c->divergent_branches);
    json_uint(w, "chain", c->chain);
    json_uint(w, "load_rounds", c->load_rounds);
    json_uint(w, "own_steps", c->own_steps);
    const model_device *d = model_device_find(NULL);
    if (d)
        json_double(w, "predicted_ns", model_time_predict(d, l).total);
    else
        json_null(w, "predicted_ns");
}

static const char *finding_kind(model_find_kind k)
{
    switch (k) {
    case MODEL_FIND_RACE: return "race";
    case MODEL_FIND_OOB: return "out_of_bounds";
    case MODEL_FIND_BARRIER_DIVERGENCE: return "barrier_divergence";
    case MODEL_FIND_DEADLOCK: return "deadlock";
    case MODEL_FIND_LIMIT: return "limit";
    case MODEL_FIND_MISALIGNED: return "misaligned";
    case MODEL_FIND_WARP: return "warp";
    case MODEL_FIND_INDEX: return "index_width";
    case MODEL_FIND_UB: return "undefined_behaviour";
    }
    return "other";
}

/* One finding: its kind, the site (path relative to the repository root,
 * line) of the later access, and the message. */
static void json_finding(json_writer *w, const model_finding *f)
{
    json_begin_object(w, NULL);
    json_string(w, "kind", finding_kind(f->kind));
    if (f->site[0]) {
        json_string(w, "file", f->site[0]->file);
        json_int(w, "line", f->site[0]->line);
    } else {
        json_null(w, "file");
        json_null(w, "line");
    }
    json_string(w, "message", f->text);
    json_end_object(w);
}

/* One run's outcome. */
typedef struct {
    sl_status st;
    size_t bad, first_bad;
    uint64_t found;   /* findings that fail the run */
    bool refused;     /* the host driver refused its settings: nothing ran */
} sim_result;

static const char *verdict(const sim_result *r)
{
    return r->st == SL_OK && r->bad == 0 && r->found == 0 ? "OK" : "FAILED";
}

static uint64_t peak_of(const sim_plan *p, size_t n);

static void print_json(json_writer *w, const sim_plan *p, const sl_scan_args *a, const model_stats *s,
                       const sim_result *r)
{
    json_begin_object(w, NULL);
    json_string(w, "algo", p->al->name);
    json_string(w, "backend", "sim");
    json_uint(w, "n", a->n);
    json_string(w, "type", verify_type_name(a->type));
    json_string(w, "op", verify_op_name(a->op));
    json_bool(w, "exclusive", a->exclusive);
    json_int(w, "block", a->block);
    json_int(w, "param", a->param);
    json_uint(w, "seed", p->seed);
    json_uint(w, "memory_estimate_bytes", peak_of(p, a->n));
    json_uint(w, "persistent_grid", s->persistent_grid);
    json_string(w, "status", verdict(r));
    json_bool(w, "correct", r->st == SL_OK && r->bad == 0);
    json_bool(w, "passed", r->st == SL_OK && r->bad == 0 && r->found == 0);
    json_uint(w, "wrong_elements", r->bad);
    if (r->st == SL_OK)
        json_null(w, "error");
    else
        json_string(w, "error", sl_status_str(r->st));
    json_uint(w, "work", s->work);
    json_uint(w, "steps", s->steps);
    json_uint(w, "barriers", s->barriers);
    json_uint(w, "launches", s->launches);
    json_uint(w, "blocks", s->blocks);
    json_uint(w, "shared_accesses", s->shared_accesses);
    json_uint(w, "shared_wavefronts", s->shared_wavefronts);
    json_uint(w, "bank_conflicts", s->bank_conflicts);
    json_uint(w, "global_load_elements", s->global_load_elems);
    json_uint(w, "global_store_elements", s->global_store_elems);
    json_uint(w, "global_load_sectors", s->global_load_sectors);
    json_uint(w, "global_store_sectors", s->global_store_sectors);
    json_uint(w, "warp_issues", s->warp_issues);
    json_uint(w, "divergent_issues", s->divergent_issues);
    json_uint(w, "divergent_branches", s->divergent_branches);
    json_uint(w, "races", s->races);
    json_uint(w, "barrier_divergence", s->barrier_divergence);
    json_uint(w, "deadlocks", s->deadlocks);
    if (s->cfg.huge_n) {
        json_uint(w, "skipped_blocks", s->skipped_blocks);
        json_bool(w, "outputs_checked", !s->huge_unchecked);
    }
    json_begin_array(w, "launch_list");
    for (size_t i = 0; i < s->nlaunch_records; i++) {
        const model_launch_stats *l = &s->launch[i];
        json_begin_object(w, NULL);
        json_string(w, "kernel", l->name);
        json_uint(w, "blocks", l->blocks);
        json_uint(w, "threads_per_block", l->threads_per_block);
        json_uint(w, "work", l->work);
        json_uint(w, "steps", l->steps);
        json_uint(w, "barriers", l->barriers);
        if (l->role)
            json_string(w, "role", l->role);
        else
            json_null(w, "role");
        print_json_launch_counts(w, l);
        json_end_object(w);
    }
    json_end_array(w);
    json_begin_array(w, "sites");
    for (size_t i = 0; i < s->nsites; i++) {
        const model_site_stats *x = &s->sites[i];
        if (!x->site)
            continue;
        json_begin_object(w, NULL);
        json_string(w, "file", x->site->file);
        json_int(w, "line", x->site->line);
        json_string(w, "what", x->site->what);
        json_uint(w, "warp_issues", x->issues);
        json_uint(w, "divergent_issues", x->divergent_issues);
        json_uint(w, "shared_accesses", x->shared_accesses);
        json_uint(w, "shared_wavefronts", x->shared_wavefronts);
        json_uint(w, "bank_conflicts", x->bank_conflicts);
        json_uint(w, "worst_degree", x->worst_degree);
        json_uint(w, "global_accesses", x->global_accesses);
        json_uint(w, "global_sectors", x->global_sectors);
        if (x->probes)
            json_uint(w, "probes", x->probes);
        json_end_object(w);
    }
    json_end_array(w);
    json_begin_array(w, "race_reports");
    for (uint64_t i = 0; i < s->races && i < MODEL_MAX_REPORTS; i++)
        json_string(w, NULL, s->race[i].text);
    json_end_array(w);
    json_uint(w, "findings", r->found);
    json_begin_array(w, "finding_list");
    for (uint64_t i = 0; i < s->races && i < MODEL_MAX_REPORTS; i++)
        json_finding(w, &s->race[i]);
    if (s->has_error)
        json_finding(w, &s->error);
    json_end_array(w);
    json_end_object(w);
}

/* Buffers of one run: the input, the output (and a guard byte), the
 * reference. */
typedef struct {
    void *in, *out, *ref;
    size_t out_bytes, out_count;
} sim_buffers;

static sl_status alloc_buffers(const sim_plan *p, size_t n, sim_buffers *b)
{
    const size_t es = SL_TYPE_SIZE(p->type);
    const bool app = SL_KIND_IS_APP(p->al->kind);
    b->out_count = p->al->kind == SL_KIND_SCAN ? n : 1;
    /* applications: a count, then elements (cuda/apps/app_defs.h), sized
     * for the parameter given */
    /* the memory check refused sizes whose bytes do not fit; none wraps here */
    if (cli_bytes(n, es) >= SIZE_MAX)
        return SL_ERR_NOMEM;
    b->out_bytes = app ? verify_app_out_bytes(p->al->kind, p->type, n, p->param) : b->out_count * es + 1;
    if (b->out_bytes == 0)
        return SL_ERR_ARG;
    b->in = malloc(n ? n * es : 1);
    b->out = malloc(b->out_bytes);
    b->ref = calloc(1, b->out_bytes);
    return b->in && b->out && b->ref ? SL_OK : SL_ERR_NOMEM;
}

static void free_buffers(sim_buffers *b)
{
    free(b->in);
    free(b->out);
    free(b->ref);
}

/* Whether the buffers of a huge run of n elements of type t can be
 * mapped: their bytes fit in 64 bits and in this process's address space
 * (tried, and given back at once: the pages are never touched). */
static int huge_check_size(size_t n, sl_type t)
{
    const uint64_t bytes = cli_bytes(n, SL_TYPE_SIZE(t));
    if (bytes >= SIZE_MAX)
        return cli_usage_error("simulate: --huge: n = %zu would need more than 2^64 bytes of address space",
                               n);
    void *in = huge_buffer((size_t)bytes), *out = huge_buffer((size_t)bytes);
    huge_buffer_free(in, (size_t)bytes);
    huge_buffer_free(out, (size_t)bytes);
    if (!in || !out)
        return cli_usage_error("simulate: --huge: n = %zu: cannot map 2 x %" PRIu64 " bytes of address "
                               "space here", n, bytes);
    return CLI_EXIT_OK;
}

/* A huge run (verify/harness/huge.c): lazily mapped buffers, the sparse input,
 * the chosen blocks, the outputs at the chosen elements. */
static int run_huge(const sim_plan *p, size_t n, bool exclusive, json_writer *w)
{
    const size_t bytes = n * SL_TYPE_SIZE(p->type); /* fits: huge_check_size */
    void *in = huge_buffer(bytes), *out = huge_buffer(bytes);
    if (!in || !out) {
        huge_buffer_free(in, bytes);
        huge_buffer_free(out, bytes);
        return cli_usage_error("simulate: --huge: n = %zu: cannot map 2 x %zu bytes of address space "
                               "here", n, bytes);
    }
    uint64_t at[4];
    const unsigned nat = huge_positions(n, at);
    huge_fill(p->type, p->seed, n, in, at, nat);
    model_stats s;
    model_stats_init(&s);
    s.cfg.slots = (unsigned)p->slots;
    s.cfg.shared_limit = p->shared_limit;
    s.cfg.huge_n = n;
    for (unsigned k = 1; k + 1 < nat; k++)
        s.cfg.huge_at[s.cfg.nhuge_at++] = at[k];
    sl_scan_args a = {.type = p->type, .op = SL_ADD, .exclusive = exclusive, .in = in, .out = out, .n = n,
                      .block = p->block, .param = p->param, .sim = &s};
    sim_result r = {.st = p->al->run[SL_SIM](&a)};
    /* blocks that waited for skipped ones stopped where the run can check
     * no further: not an error of the kernel */
    const bool stalled = r.st == SL_ERR_UNSUPPORTED && (s.huge_unchecked & MODEL_HUGE_WAITS);
    const bool values = r.st == SL_OK && !s.huge_unchecked;
    long long want = 0, got = 0;
    if (values)
        r.bad = huge_check(p->type, exclusive, n, in, out, at, nat, &r.first_bad, &want, &got);
    r.found = model_findings(&s, p->allow_races);
    if (stalled)
        r.st = SL_OK;
    char why[256] = "";
    if (s.huge_unchecked & MODEL_HUGE_DYNAMIC_IDS)
        snprintf(why, sizeof why, "its blocks take their tiles from a counter, so the blocks run took the first tiles");
    else if (s.huge_unchecked & MODEL_HUGE_WAITS)
        snprintf(why, sizeof why, "its blocks wait for the tiles before them, which were skipped (%s)", s.huge_wait);
    if (w) {
        print_json(w, p, &a, &s, &r);
    } else {
        printf("%s on sim, huge: n = %zu, %s, add, %s; %llu blocks run, %llu skipped\n", p->al->name, n,
               verify_type_name(p->type), exclusive ? "exclusive" : "inclusive", (unsigned long long)s.blocks,
               (unsigned long long)s.skipped_blocks);
        model_print(stdout, &s);
        const char *res = r.st != SL_OK ? "not produced"
                          : r.found     ? "the simulator found errors (see stderr)"
                          : !values     ? "index widths clean; outputs not checked"
                          : r.bad       ? "WRONG"
                                        : "correct";
        printf("\nresult: %s\n", res);
        if (!values && r.st == SL_OK)
            printf("outputs not checked: %s; the index widths were checked at every site the blocks reached\n",
                   why);
    }
    if (r.found)
        model_print_findings(stderr, &s);
    if (values && r.bad)
        fprintf(stderr, "scanlab: simulate: %zu of the checked outputs wrong, the first at %zu: %lld, "
                        "expected %lld (seed %llu)\n", r.bad, r.first_bad, got, want, (unsigned long long)p->seed);
    else if (r.st != SL_OK && !r.found)
        fprintf(stderr, "scanlab: simulate: %s\n", sl_status_str(r.st));
    int rc = r.st == SL_OK && !r.bad && !r.found ? CLI_EXIT_OK : CLI_EXIT_FAILED;
    /* the run's limit (a kernel that cannot be simulated in part) is a
     * refusal of the request, not a failed check */
    if (s.has_error && s.error.kind == MODEL_FIND_LIMIT && r.st == SL_ERR_ARG)
        rc = CLI_EXIT_USAGE;
    model_stats_free(&s);
    huge_buffer_free(in, bytes);
    huge_buffer_free(out, bytes);
    return rc;
}

/* One run: input, reference, the kernel in the simulator, the check.
 * Prints the counts (or adds the run to w) and the findings. */
static int run_one(const sim_plan *p, size_t n, bool exclusive, json_writer *w)
{
    const verify_algo *al = p->al;
    const bool app = SL_KIND_IS_APP(al->kind);
    sim_buffers b = {0};
    sl_status st = alloc_buffers(p, n, &b);
    if (st == SL_ERR_ARG) {
        free_buffers(&b);
        return cli_usage_error("simulate: %s refused --param %d (docs/algorithms.md lists its "
                               "range)", al->name, p->param);
    }
    if (st != SL_OK) {
        free_buffers(&b);
        fprintf(stderr, "scanlab: simulate: out of memory\n");
        return CLI_EXIT_FAILED;
    }
    st = verify_fill_input(p->type, p->op, verify_default_dist(p->type), p->seed, n, b.in);
    if (st == SL_OK)
        st = app ? verify_app_reference(al->kind, p->type, b.in, n, p->param, b.ref)
             : al->kind == SL_KIND_SCAN ? cpu_scan_seq(p->type, p->op, exclusive, b.in, b.ref, n)
                                        : cpu_reduce_seq(p->type, p->op, b.in, n, b.ref);
    model_stats s;
    model_stats_init(&s);
    s.cfg.slots = (unsigned)p->slots;
    s.cfg.occupancy = (unsigned)p->occupancy;
    s.cfg.persistent = p->persistent;
    s.cfg.order = p->order;
    s.cfg.seed = p->seed;
    s.cfg.schedule = p->schedule;
    s.cfg.pct_depth = p->pct;
    s.cfg.shared_limit = p->shared_limit;
    sl_scan_args a = {.type = p->type, .op = p->op, .exclusive = exclusive, .in = b.in, .out = b.out,
                      .n = n, .block = p->block, .param = p->param, .sim = &s};
    if (st == SL_OK)
        st = al->run[SL_SIM](&a);
    sim_result r = {.st = st};
    if (st == SL_OK && app)
        r.bad = verify_app_mismatches(al->kind, p->type, n, p->param, b.ref, b.out, &r.first_bad);
    else if (st == SL_OK)
        r.bad = check_result(&a, al, b.ref, b.out_count, &r.first_bad);
    /* the host driver refused its parameters before launching anything */
    r.refused = st == SL_ERR_ARG && !s.has_error;
    /* what the simulator found fails the run like a wrong value; a launch
     * the simulator refused (a limit) is bad usage, not a finding */
    const bool limit = st == SL_ERR_ARG && s.has_error && s.error.kind == MODEL_FIND_LIMIT;
    r.found = r.refused || limit ? 0 : model_findings(&s, p->allow_races);
    if (r.refused) {
        /* no counts to show: the message below says why */
    } else if (w) {
        print_json(w, p, &a, &s, &r);
    } else {
        printf("%s on sim: n = %zu, %s, %s, %s\n", al->name, n, verify_type_name(p->type),
               verify_op_name(p->op), exclusive ? "exclusive" : "inclusive");
        if (s.persistent_grid)
            printf("grid: persistent, %u blocks, half the block-per-tile grid: every block scans two tiles "
                   "or more, as on a GPU for large inputs (--occupancy tiles: a block per tile)\n",
                   s.persistent_grid);
        model_print(stdout, &s);
        model_time_print(stdout, &s, model_device_find(NULL));
        printf("\nresult: %s%s\n", st != SL_OK ? "not produced" : r.bad ? "WRONG" : "correct",
               r.found && st == SL_OK ? ", but the simulator found errors (see stderr)" : "");
    }
    if (r.found)
        model_print_findings(stderr, &s);
    else if (s.races && p->allow_races)
        fprintf(stderr, "scanlab: simulate: %llu races allowed by --allow-races\n",
                (unsigned long long)s.races);
    if (r.refused)
        fprintf(stderr,
                "scanlab: simulate: %s refused block size %d, param %d (a block has at most %d "
                "threads; tree scans need a power of two; docs/algorithms.md lists each "
                "algorithm's block sizes and parameter range)\n",
                al->name, p->block, p->param, MODEL_MAX_BLOCK_THREADS);
    else if (st != SL_OK && !r.found)
        fprintf(stderr, "scanlab: simulate: %s%s%s\n", sl_status_str(st), s.has_error ? ": " : "",
                s.has_error ? s.error.text : "");
    else if (r.bad)
        fprintf(stderr, "scanlab: simulate: %zu wrong elements, the first at index %zu (seed %llu)\n",
                r.bad, r.first_bad, (unsigned long long)p->seed);
    int rc = st == SL_ERR_ARG ? CLI_EXIT_USAGE
             : st == SL_OK && r.bad == 0 && r.found == 0 ? CLI_EXIT_OK
                                                        : CLI_EXIT_FAILED;
    if (p->output && !r.refused && st == SL_OK) {
        char why[VERIFY_WHY_SIZE];
        if (verify_npy_write(p->output, p->type, b.out, b.out_count, why, sizeof why) != SL_OK) {
            fprintf(stderr, "scanlab: simulate: %s\n", why);
            rc = CLI_EXIT_FAILED;
        }
    }
    model_stats_free(&s);
    free_buffers(&b);
    return rc;
}

/* The run's peak memory (verify/cli/memory.c). */
static uint64_t peak_of(const sim_plan *p, size_t n)
{
    const uint64_t es = SL_TYPE_SIZE(p->type);
    uint64_t out = SL_KIND_IS_APP(p->al->kind) ? verify_app_out_bytes(p->al->kind, p->type, n, p->param)
                 : p->al->kind == SL_KIND_SCAN ? cli_bytes(n, es)
                                               : es;
    size_t elem, cap;
    if (SL_KIND_IS_APP(p->al->kind) &&
        verify_app_layout(p->al->kind, p->type, n, p->param, &elem, &cap) == SL_ERR_ARG)
        return 0; /* a parameter the application refuses: the run says so */
    if (SL_KIND_IS_APP(p->al->kind) && out == 0)
        out = UINT64_MAX; /* too large to lay out */
    uint64_t threads = (uint64_t)p->slots * (uint64_t)(p->block ? p->block : MODEL_MAX_BLOCK_THREADS);
    return out == UINT64_MAX ? UINT64_MAX : cli_peak_simulate(cli_bytes(n, es), out, threads);
}

static const verify_algo *find_sim_algo(const char *name, const verify_algo *algos, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (strcmp(algos[i].name, name) == 0 && algos[i].run[SL_SIM])
            return &algos[i];
    char shown[256];
    fprintf(stderr, "scanlab: simulate: '%s' is not an algorithm with a sim backend (valid:",
            cli_printable(name, -1, shown, sizeof shown));
    for (size_t i = 0; i < count; i++)
        if (algos[i].run[SL_SIM])
            fprintf(stderr, " %s", algos[i].name);
    fprintf(stderr, ")\n");
    return NULL;
}

static int parse_order(const char *s, model_order *order)
{
    if (!s)
        *order = MODEL_ORDER_IN;
    else if (strcmp(s, "in") == 0)
        *order = MODEL_ORDER_IN;
    else if (strcmp(s, "reversed") == 0)
        *order = MODEL_ORDER_REVERSED;
    else if (strcmp(s, "random") == 0)
        *order = MODEL_ORDER_RANDOM;
    else
        return cli_usage_error("simulate: unknown --order '%s' (valid: in, reversed, random)", s);
    return CLI_EXIT_OK;
}

/* Everything but the sizes and kinds, from the command line. */
static int make_plan(const cli_args *a, const verify_algo *algos, size_t count, sim_plan *p)
{
    int rc, t, op;
    unsigned types, ops, backends;
    if (!a->val[OPT_ALGO])
        return cli_usage_error("simulate: --algo is required (see scanlab list)");
    if (!(p->al = find_sim_algo(a->val[OPT_ALGO], algos, count)))
        return CLI_EXIT_USAGE;
    if ((rc = cli_get_backends("simulate", a, 1u << SL_SIM, &backends)) != CLI_EXIT_OK)
        return rc;
    if (backends != 1u << SL_SIM)
        return cli_usage_error("simulate: runs on the sim backend only (for the others: scanlab "
                               "verify, scanlab bench)");
    if ((rc = cli_get_types(a, 1u << SL_I32, &types)) != CLI_EXIT_OK ||
        (rc = cli_one_of("simulate", "--type", types, &t)) != CLI_EXIT_OK ||
        (rc = cli_get_ops(a, 1u << SL_ADD, &ops)) != CLI_EXIT_OK ||
        (rc = cli_one_of("simulate", "--op", ops, &op)) != CLI_EXIT_OK)
        return rc;
    p->type = (sl_type)t;
    p->op = (sl_op)op;
    if (!SL_OP_APPLIES(p->op, p->type))
        return cli_usage_error("simulate: operator %s does not apply to %s", verify_op_name(p->op),
                               verify_type_name(p->type));
    if (SL_KIND_IS_APP(p->al->kind) && p->op != SL_ADD)
        return cli_usage_error("simulate: '%s' runs with --op add only", p->al->name);
    if ((rc = cli_get_block_param(a, &p->block, &p->param)) != CLI_EXIT_OK)
        return rc;
    p->slots = MODEL_DEFAULT_SLOTS;
    if (a->val[OPT_SLOTS] && cli_parse_int("--slots", a->val[OPT_SLOTS], 1, 1 << 16, &p->slots) != SL_OK)
        return CLI_EXIT_USAGE;
    if ((rc = parse_order(a->val[OPT_ORDER], &p->order)) != CLI_EXIT_OK)
        return rc;
    if (a->val[OPT_SCHEDULE] && cli_parse_u64("--schedule", a->val[OPT_SCHEDULE], &p->schedule) != SL_OK)
        return CLI_EXIT_USAGE;
    int pct = 0;
    if (a->val[OPT_PCT] && cli_parse_int("--pct", a->val[OPT_PCT], 0, 64, &pct) != SL_OK)
        return CLI_EXIT_USAGE;
    if (pct && !p->schedule)
        return cli_usage_error("simulate: --pct applies to an explored schedule: give --schedule S too");
    p->pct = (unsigned)pct;
    p->huge = a->set[OPT_HUGE];
    if (p->huge && (p->al->kind != SL_KIND_SCAN || p->op != SL_ADD))
        return cli_usage_error("simulate: --huge runs add scans (the outputs it checks are exact sums)");
    p->occupancy = 0;
    p->persistent = !p->huge;
    if (a->val[OPT_OCCUPANCY] && strcmp(a->val[OPT_OCCUPANCY], "tiles") == 0)
        p->persistent = false;
    else if (a->val[OPT_OCCUPANCY] &&
             cli_parse_int("--occupancy", a->val[OPT_OCCUPANCY], 1, 1 << 16, &p->occupancy) != SL_OK)
        return CLI_EXIT_USAGE;
    if (p->occupancy && p->huge)
        return cli_usage_error("simulate: --occupancy with --huge: a huge run gives every tile its own block "
                               "(so that the blocks around the chosen elements run alone)");
    p->shared_limit = MODEL_DEFAULT_SHARED_LIMIT;
    if (a->val[OPT_SHARED_LIMIT]) {
        if (cli_parse_size("--shared-limit", a->val[OPT_SHARED_LIMIT], &p->shared_limit) != SL_OK)
            return CLI_EXIT_USAGE;
        if (p->shared_limit == 0 || p->shared_limit > MODEL_MAX_SHARED_LIMIT)
            return cli_usage_error("simulate: --shared-limit must be 1..%zu bytes",
                                   MODEL_MAX_SHARED_LIMIT);
    }
    p->allow_races = a->set[OPT_ALLOW_RACES];
    p->json = a->set[OPT_JSON];
    p->output = a->val[OPT_OUTPUT];
    if (p->output && p->huge)
        return cli_usage_error("simulate: --output with --huge: a huge run computes a few windows of its "
                               "output, not an array to write");
    char why[VERIFY_WHY_SIZE];
    if (p->output && verify_output_check(p->output, why, sizeof why) != SL_OK)
        return cli_usage_error("simulate: --output: %s", why);
    return cli_get_seed("simulate", a, &p->seed);
}

int simulate_main(int argc, char **argv, const verify_algo *algos, size_t count)
{
    cli_args args;
    int rc = cli_parse(&simulate_cmd, argc, argv, &args);
    if (rc != CLI_EXIT_OK || args.set[OPT_HELP])
        return rc;
    sim_plan p = {0};
    bool incl, excl;
    size_t *sizes = NULL, nsizes = 0;
    rc = make_plan(&args, algos, count, &p);
    if (rc == CLI_EXIT_OK)
        rc = cli_get_kinds("simulate", &args, &incl, &excl);
    if (rc == CLI_EXIT_OK)
        rc = cli_get_sizes(&args, SIM_DEFAULT_N, p.seed, &sizes, &nsizes);
    const bool scan = rc == CLI_EXIT_OK && p.al->kind == SL_KIND_SCAN;
    /* reductions and applications have one kind */
    const size_t nkinds = scan ? (size_t)incl + excl : 1;
    if (rc == CLI_EXIT_OK && p.output) {
        if (nsizes * nkinds != 1)
            rc = cli_usage_error("simulate: --output writes the output of one run: give one --n, "
                                 "and not --both");
        else if (SL_KIND_IS_APP(p.al->kind))
            rc = cli_usage_error("simulate: --output writes scans and reductions; '%s' is an "
                                 "application", p.al->name);
    }
    /* a huge run touches a few windows of its buffers, not n elements, but
     * needs their bytes in address space */
    for (size_t i = 0; rc == CLI_EXIT_OK && i < nsizes; i++)
        if (p.huge ? huge_check_size(sizes[i], p.type) != CLI_EXIT_OK
                   : cli_check_peak("simulate", sizes[i], peak_of(&p, sizes[i])) != SL_OK)
            rc = CLI_EXIT_USAGE;
    if (rc != CLI_EXIT_OK || cli_dry_run()) {
        free(sizes);
        cli_args_free(&args);
        return rc;
    }
    cli_print_seed("simulate", p.seed);
    json_writer w;
    const bool many = nsizes * nkinds > 1;
    if (p.json) {
        json_init(&w, stdout);
        if (many) {
            json_begin_object(&w, NULL);
            json_begin_array(&w, "results");
        }
    }
    for (size_t i = 0; i < nsizes; i++)
        for (int k = 0; k < 2; k++) {
            if (scan ? !(k ? excl : incl) : k)
                continue;
            if (!p.json && (i || k) && many)
                printf("\n");
            int r = p.huge ? run_huge(&p, sizes[i], scan && k, p.json ? &w : NULL)
                           : run_one(&p, sizes[i], scan && k, p.json ? &w : NULL);
            if (r != CLI_EXIT_OK && rc != CLI_EXIT_USAGE)
                rc = r;
        }
    if (p.json) {
        if (many) {
            json_end_array(&w);
            json_end_object(&w);
        }
        if (w.need_comma[0]) /* a run refused before running prints nothing */
            json_finish(&w);
    }
    free(sizes);
    cli_args_free(&args);
    return rc;
}

int cmd_simulate(int argc, char **argv) { return user_kernel_dispatch("simulate", argc, argv, simulate_main); }
