/* scanlab deadlock: whether a kernel that waits on other blocks can hang
 * under a GPU progress model, by searching its block schedules in the
 * simulator (docs/deadlock.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "verify/cli/cli.h"
#include "verify/campaign/ranks.h"
#include "verify/campaign/search_ranks.h"
#include "verify/cli/user_kernel.h"
#include "verify/cli/commands.h"
#include "verify/cli/deadlock.h"
#include "verify/cli/options.h"
#include "verify/cli/progress.h"
#include "verify/formats/json.h"
#include "verify/harness/deadlock.h"

#define DEFAULT_BLOCKS 3
#define PLURAL(k) ((k) == 1 ? "" : "s")
#define DEFAULT_RESIDENT 2
/* Seconds a search may take by default (--budget). */
#define DEFAULT_BUDGET_S 120
/* The largest --n: a search hashes the device memory at every turn of a
 * block, and a schedule has a turn for every tile, so one schedule costs
 * about n^2 (docs/deadlock.md measures it: 16 s for lookback at 2^16 on
 * two cores, about 4 times more at each doubling). */
#define MAX_N ((size_t)1 << 16)

static const cli_cmd_opt deadlock_opts[] = {
    {OPT_ALGO, "Here algorithms with a sim backend; all: every one (those that never wait between "
               "blocks are answered as such)"},
    {OPT_BLOCKS, NULL},
    {OPT_RESIDENT, NULL},
    {OPT_MODEL, "Here every model is answered by default and obe, the model of an NVIDIA GPU, decides the exit "
                "status; models named (all: every one) decide it themselves"},
    {OPT_N, "Here one size; default: chosen so that the launch that waits has G blocks (32-element "
            "tiles for the single-pass scans)"},
    {OPT_EXHAUSTIVE, NULL},
    {OPT_SAMPLES, NULL},
    {OPT_SEED, "Here the seed of the sampled schedules"},
    {OPT_BUDGET, NULL},
    {OPT_JSON, "{\"results\": [one object per algorithm and model]}"},
};

static const cli_command deadlock_cmd = {
    "deadlock", "[--algo A[,A...]] [--blocks G] [--resident R] [--model M] [options]",
    "Runs each algorithm's kernel in the step-level simulator under every block schedule a progress "
    "model allows (G blocks, R of them resident at once, no preemption) and says whether one of them "
    "ends with nothing allowed to progress: deadlock-free (exhaustive: a proof for this "
    "configuration), deadlock-free in K sampled schedules (not a proof), DEADLOCK with the "
    "shortest trace found (dispatch order, resident blocks, and where each waits as path:line), "
    "another finding that stopped the kernel (such as barrier divergence: a hang inside one block), "
    "or INCOMPLETE (the search hit its state limit or its --budget of seconds). A search that runs longer "
    "than 10 s says how far it is on stderr every 10 s. An algorithm whose threads never poll global "
    "memory cannot wait on another block, and is answered as such. Every model asked is answered; "
    "the exit status follows obe, the model of an NVIDIA GPU (CUDA's forward-progress promise for "
    "blocks), unless --model names the models (all: every one). docs/deadlock.md defines the "
    "models. 'scanlab deadlock [options] -- PROGRAM ARGS' searches every launch of an unchanged program "
    "that waits between blocks instead (docs/run.md; 'scanlab deadlock --help --' lists its options); "
    "'scanlab deadlock --litmus TEST.litmus...' answers progress litmus tests: whether every execution each "
    "model allows terminates, under weak and strong fairness ('scanlab deadlock --litmus --help').",
    deadlock_opts, sizeof deadlock_opts / sizeof deadlock_opts[0],
    "under a model that decides (obe, or those --model names) a deadlock was found, another finding "
    "stopped a kernel, or a search hit its state limit or its time budget (no verdict)", .dry_run = true};

/* What the command line asks. */
typedef struct {
    const verify_algo **algos;
    size_t nalgos;
    unsigned models; /* mask of 1u << model_progress */
    unsigned decisive; /* the models whose answers decide the exit status: those --model names, else
                        * the target's (VERIFY_DEADLOCK_TARGET) */
    unsigned blocks, resident;
    size_t n;        /* 0: chosen from G */
    int exhaustive;  /* 1 asked, 0 sampling asked, -1 by G */
    uint64_t samples, seed;
    int budget;      /* seconds a search may take */
    bool json;
} dl_plan;

static int parse_models(const char *s, unsigned *mask, unsigned *decisive)
{
    *mask = 0;
    *decisive = 1u << VERIFY_DEADLOCK_TARGET;
    if (!s || strcmp(s, "all") == 0) {
        *mask = (1u << MODEL_PROGRESS_COUNT) - 1;
        if (s) /* named: every model decides */
            *decisive = *mask;
        return CLI_EXIT_OK;
    }
    char *buf = strdup(s);
    if (!buf)
        return cli_usage_error("deadlock: out of memory");
    int rc = CLI_EXIT_OK;
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok && rc == CLI_EXIT_OK; tok = strtok_r(NULL, ",", &save)) {
        int m = -1;
        for (int p = 0; p < MODEL_PROGRESS_COUNT; p++)
            if (strcmp(tok, verify_progress_name((model_progress)p)) == 0)
                m = p;
        if (m < 0)
            rc = cli_usage_error("deadlock: unknown --model '%s' (valid: obe, lobe, hsa, fair, all)", tok);
        else
            *mask |= 1u << m;
    }
    free(buf);
    if (rc == CLI_EXIT_OK && !*mask)
        rc = cli_usage_error("deadlock: --model: empty list");
    *decisive = *mask;
    return rc;
}

static void list_sim_algos(const verify_algo *algos, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (algos[i].run[SL_SIM])
            fprintf(stderr, " %s", algos[i].name);
}

/* --algo: names with a sim backend, or all of them. */
static int parse_algos(const char *s, const verify_algo *algos, size_t count, dl_plan *p)
{
    p->algos = calloc(count ? count : 1, sizeof *p->algos);
    if (!p->algos)
        return cli_usage_error("deadlock: out of memory");
    if (!s || strcmp(s, "all") == 0) {
        for (size_t i = 0; i < count; i++)
            if (algos[i].run[SL_SIM])
                p->algos[p->nalgos++] = &algos[i];
        return CLI_EXIT_OK;
    }
    char *buf = strdup(s);
    if (!buf)
        return cli_usage_error("deadlock: out of memory");
    int rc = CLI_EXIT_OK;
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok && rc == CLI_EXIT_OK; tok = strtok_r(NULL, ",", &save)) {
        const verify_algo *al = NULL;
        for (size_t i = 0; i < count && !al; i++)
            if (strcmp(algos[i].name, tok) == 0)
                al = &algos[i];
        if (!al || !al->run[SL_SIM]) {
            char shown[256];
            fprintf(stderr, "scanlab: deadlock: '%s' %s: the search runs the kernel in the simulator (valid:",
                    cli_printable(tok, -1, shown, sizeof shown),
                    al ? "has no sim backend" : "is not an algorithm");
            list_sim_algos(algos, count);
            fprintf(stderr, ")\n");
            rc = CLI_EXIT_USAGE;
            break;
        }
        bool dup = false;
        for (size_t i = 0; i < p->nalgos; i++)
            dup = dup || p->algos[i] == al;
        if (!dup && p->nalgos < count)
            p->algos[p->nalgos++] = al;
    }
    free(buf);
    return rc;
}

static int make_plan(const cli_args *a, const verify_algo *algos, size_t count, dl_plan *p)
{
    int rc, g = DEFAULT_BLOCKS, r = 0;
    if ((rc = parse_algos(a->val[OPT_ALGO], algos, count, p)) != CLI_EXIT_OK ||
        (rc = parse_models(a->val[OPT_MODEL], &p->models, &p->decisive)) != CLI_EXIT_OK)
        return rc;
    if (a->val[OPT_BLOCKS] &&
        cli_parse_int("--blocks", a->val[OPT_BLOCKS], 0, VERIFY_DEADLOCK_MAX_BLOCKS, &g) != SL_OK)
        return CLI_EXIT_USAGE;
    if (g == 0)
        return cli_usage_error("deadlock: --blocks 0: a launch has at least one block");
    if (g == 1)
        return cli_usage_error("deadlock: --blocks 1: one block has no other block to wait for, so the "
                               "question is empty (give G >= 2)");
    r = g > DEFAULT_RESIDENT ? DEFAULT_RESIDENT : g - 1;
    if (a->val[OPT_RESIDENT] && cli_parse_int("--resident", a->val[OPT_RESIDENT], 0, 1 << 20, &r) != SL_OK)
        return CLI_EXIT_USAGE;
    if (r == 0)
        return cli_usage_error("deadlock: --resident 0: no block could ever run (give 1 <= R < G)");
    if (r >= g)
        return cli_usage_error("deadlock: --resident %d with --blocks %d: every block is resident at once, "
                               "so none waits for a slot and obe and lobe say what fair says; give R < G (hsa "
                               "and fair let every block be resident whatever R is)",
                               r, g);
    p->blocks = (unsigned)g;
    p->resident = (unsigned)r;
    if (a->val[OPT_N]) {
        if (strchr(a->val[OPT_N], ',') || strstr(a->val[OPT_N], ".."))
            return cli_usage_error("deadlock: --n takes one size here");
        if (cli_parse_size("--n", a->val[OPT_N], &p->n) != SL_OK)
            return CLI_EXIT_USAGE;
        if (p->n == 0)
            return cli_usage_error("deadlock: --n 0: an empty scan launches nothing");
        if (p->n > MAX_N)
            return cli_usage_error("deadlock: --n %zu: a schedule of the search costs about n^2 (the device "
                                   "memory is compared at every turn of a block), so it would not finish; give "
                                   "at most 2^16 elements (a few tiles suffice)", p->n);
    }
    if (a->set[OPT_EXHAUSTIVE] && a->set[OPT_SAMPLES])
        return cli_usage_error("deadlock: --exhaustive and --samples exclude each other");
    p->exhaustive = a->set[OPT_EXHAUSTIVE] ? 1 : a->set[OPT_SAMPLES] ? 0 : -1;
    p->samples = VERIFY_DEADLOCK_DEFAULT_SAMPLES;
    if (a->val[OPT_SAMPLES]) {
        int k;
        if (cli_parse_int("--samples", a->val[OPT_SAMPLES], 1, 1000000, &k) != SL_OK)
            return CLI_EXIT_USAGE;
        p->samples = (uint64_t)k;
    }
    if (p->exhaustive == 1 && p->blocks > VERIFY_DEADLOCK_MAX_EXHAUSTIVE)
        return cli_usage_error("deadlock: --exhaustive with --blocks %u: exhaustive search is offered up to %d "
                               "blocks (docs/deadlock.md measures its cost); use --samples K",
                               p->blocks, VERIFY_DEADLOCK_MAX_EXHAUSTIVE);
    p->budget = DEFAULT_BUDGET_S;
    if (a->val[OPT_BUDGET] && cli_parse_int("--budget", a->val[OPT_BUDGET], 1, 86400, &p->budget) != SL_OK)
        return CLI_EXIT_USAGE;
    p->json = a->set[OPT_JSON];
    return cli_get_seed("deadlock", a, &p->seed);
}

/* One (algorithm, model) answer. */
typedef struct {
    model_progress model;
    bool exhaustive;
    model_search_result r;
    double seconds;
    bool decisive; /* decides the exit status */
} dl_answer;

static void print_config(const verify_algo *al, const verify_deadlock_config *c)
{
    printf("%s: n = %zu", al->name, c->n);
    if (c->block && c->param && al->kind == SL_KIND_SORT) /* a sort's parameter is its digit width */
        printf(" (blocks of %d threads, %d-bit digits)", c->block, c->param);
    else if (c->block && c->param)
        printf(" (%zu tiles of %d threads x %d item%s)", (c->n + (size_t)c->block * c->param - 1) /
                                                           ((size_t)c->block * c->param),
               c->block, c->param, c->param == 1 ? "" : "s");
    else
        printf(" (the algorithm's own block size and parameter)");
    printf(", %u block%s of %u threads in %s, %u residency slot%s (obe, lobe; under hsa and fair every block "
           "can be resident)\n",
           c->blocks, PLURAL(c->blocks), c->threads, c->kernel ? c->kernel : "?", c->resident, PLURAL(c->resident));
}

/* "1, 2 and 5" into buf. */
static void block_list(const unsigned *b, unsigned k, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < k && len < size; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s%u", i == 0 ? "" : i + 1 == k ? " and " : ", ", b[i]);
    if (k == 0)
        snprintf(buf, size, "none");
}

/* The blocks of 0..g-1 in none of the lists. */
static unsigned pending_of(unsigned g, const unsigned *dispatched, unsigned nd, unsigned *out, unsigned max)
{
    unsigned k = 0;
    for (unsigned b = 0; b < g && k < max; b++) {
        bool seen = false;
        for (unsigned i = 0; i < nd && !seen; i++)
            seen = dispatched[i] == b;
        if (!seen)
            out[k++] = b;
    }
    return k;
}

static void print_trace(const verify_deadlock_config *c, model_progress model, const model_search_result *r)
{
    printf("        trace:");
    for (unsigned i = 0; i < r->trace_len; i++)
        printf(" %c%u", r->trace[i].what, r->trace[i].block);
    if (r->trace_len == MODEL_TRACE_MAX)
        printf(" ...");
    printf("  (d: dispatch a block into a free slot, r: run a resident block until it waits)\n");
    char buf[512];
    block_list(r->dispatch, r->ndispatch, buf, sizeof buf);
    printf("        dispatch order: %s\n", buf);
    unsigned res[8], pend[VERIFY_DEADLOCK_MAX_BLOCKS];
    const unsigned nres = verify_deadlock_resident(r, res, 8);
    block_list(res, nres, buf, sizeof buf);
    /* the search describes at most 8 resident blocks */
    printf("        resident: %s%s", buf, nres == 8 ? " (the first 8)" : "");
    const unsigned np = pending_of(c->blocks, r->dispatch, r->ndispatch, pend, VERIFY_DEADLOCK_MAX_BLOCKS);
    block_list(pend, np, buf, sizeof buf);
    printf("; never dispatched: %s\n", buf);
    for (unsigned i = 0; i < r->nwaits; i++)
        printf("        %s\n", r->waits[i]);
    if (model == MODEL_PROGRESS_HSA && nres) {
        /* the lowest-numbered unfinished block: resident or never dispatched */
        unsigned low = res[0];
        for (unsigned i = 0; i < nres; i++)
            low = res[i] < low ? res[i] : low;
        for (unsigned i = 0; i < np; i++)
            low = pend[i] < low ? pend[i] : low;
        printf("        hsa guarantees progress to block %u alone (the lowest-numbered unfinished block), "
               "which cannot progress without the others; they need not run\n",
               low);
    }
}

static void print_answer(const verify_deadlock_config *c, const dl_answer *x)
{
    const model_search_result *r = &x->r;
    printf("  %-5s ", verify_progress_name(x->model));
    switch (r->verdict) {
    case MODEL_VERDICT_FREE:
        if (x->exhaustive)
            printf("deadlock-free (exhaustive: %llu states, %llu schedule%s; %.2f s)\n",
                   (unsigned long long)r->states, (unsigned long long)r->schedules, PLURAL(r->schedules),
                   x->seconds);
        else
            printf("deadlock-free in %llu sampled schedule%s (not a proof; %.2f s)\n",
                   (unsigned long long)r->schedules, PLURAL(r->schedules), x->seconds);
        break;
    case MODEL_VERDICT_DEADLOCK:
        if (x->exhaustive)
            printf("DEADLOCK (exhaustive: %llu states, %llu schedule%s; %.2f s)\n", (unsigned long long)r->states,
                   (unsigned long long)r->schedules, PLURAL(r->schedules), x->seconds);
        else
            printf("DEADLOCK (in sampled schedule %llu; %.2f s)\n", (unsigned long long)r->schedules, x->seconds);
        print_trace(c, x->model, r);
        break;
    case MODEL_VERDICT_FINDING:
        printf("another finding stopped the kernel (not an inter-block deadlock): %s\n", r->finding);
        break;
    case MODEL_VERDICT_INCOMPLETE:
        printf("INCOMPLETE: the search hit its %s after %llu states and %llu schedules (%.2f s): no "
               "verdict; try fewer blocks, a smaller --n, or --samples K\n",
               r->out_of_time ? "time budget (--budget)" : "state limit", (unsigned long long)r->states,
               (unsigned long long)r->schedules, x->seconds);
        break;
    }
}

static const char *json_verdict(const model_search_result *r)
{
    if (!r->waiting && r->verdict == MODEL_VERDICT_FREE)
        return "no_waiting";
    switch (r->verdict) {
    case MODEL_VERDICT_FREE: return "free";
    case MODEL_VERDICT_DEADLOCK: return "deadlock";
    case MODEL_VERDICT_FINDING: return "finding";
    case MODEL_VERDICT_INCOMPLETE: return "incomplete";
    }
    return "?";
}

static void json_blocks(json_writer *w, const char *key, const unsigned *b, unsigned k)
{
    json_begin_array(w, key);
    for (unsigned i = 0; i < k; i++)
        json_uint(w, NULL, b[i]);
    json_end_array(w);
}

static void json_answer(json_writer *w, const verify_algo *al, const verify_deadlock_config *c, const dl_answer *x)
{
    const model_search_result *r = &x->r;
    json_begin_object(w, NULL);
    json_string(w, "algo", al->name);
    json_string(w, "model", verify_progress_name(x->model));
    json_string(w, "verdict", json_verdict(r));
    json_bool(w, "waiting", r->waiting);
    json_bool(w, "exhaustive", x->exhaustive);
    json_bool(w, "decides_exit", x->decisive);
    json_uint(w, "states", r->states);
    json_uint(w, "schedules", r->schedules);
    json_bool(w, "out_of_time", r->out_of_time);
    if (r->verdict == MODEL_VERDICT_DEADLOCK) {
        json_begin_object(w, "trace");
        json_begin_array(w, "steps");
        for (unsigned i = 0; i < r->trace_len; i++) {
            char step[24];
            snprintf(step, sizeof step, "%c%u", r->trace[i].what, r->trace[i].block);
            json_string(w, NULL, step);
        }
        json_end_array(w);
        json_blocks(w, "dispatch", r->dispatch, r->ndispatch);
        unsigned res[8];
        json_blocks(w, "resident", res, verify_deadlock_resident(r, res, 8));
        json_begin_array(w, "waits");
        for (unsigned i = 0; i < r->nwaits; i++)
            json_string(w, NULL, r->waits[i]);
        json_end_array(w);
        json_end_object(w);
    } else {
        json_null(w, "trace");
    }
    if (r->verdict == MODEL_VERDICT_FINDING)
        json_string(w, "finding", r->finding);
    else
        json_null(w, "finding");
    json_uint(w, "n", c->n);
    json_int(w, "block", c->block);
    json_int(w, "param", c->param);
    json_uint(w, "blocks", c->blocks);
    json_uint(w, "resident", c->resident);
    json_string(w, "kernel", c->kernel ? c->kernel : "");
    json_double(w, "seconds", x->seconds);
    json_end_object(w);
}

/* Whether the answer fails the check (exit status 1). */
static bool fails(const model_search_result *r) { return r->verdict != MODEL_VERDICT_FREE; }

/* The configuration of every algorithm, before anything is printed, so
 * that bad usage leaves no partial output. */
static int configure_all(const dl_plan *p, verify_deadlock_config *cs, bool *exh)
{
    for (size_t i = 0; i < p->nalgos; i++) {
        const verify_algo *al = p->algos[i];
        char why[256];
        const sl_status st = verify_deadlock_configure(al, p->blocks, p->resident, p->n, &cs[i], why, sizeof why);
        if (st != SL_OK) {
            fprintf(stderr, "scanlab: deadlock: %s\n", why);
            return st == SL_ERR_ARG ? CLI_EXIT_USAGE : CLI_EXIT_FAILED;
        }
        if (cs[i].most_blocks > VERIFY_DEADLOCK_MAX_BLOCKS)
            return cli_usage_error("deadlock: with --n %zu a launch of %s has %u blocks, beyond the %d the "
                                   "search takes; give a smaller --n", cs[i].n, al->name, cs[i].most_blocks,
                                   VERIFY_DEADLOCK_MAX_BLOCKS);
        const bool big = cs[i].blocks > VERIFY_DEADLOCK_MAX_EXHAUSTIVE;
        if (p->exhaustive == 1 && cs[i].waiting && big)
            return cli_usage_error("deadlock: --exhaustive: with --n %zu the launch of %s has %u blocks, beyond "
                                   "the exhaustive limit of %d; use --samples K or a smaller --n",
                                   cs[i].n, al->name, cs[i].blocks, VERIFY_DEADLOCK_MAX_EXHAUSTIVE);
        exh[i] = p->exhaustive == 1 || (p->exhaustive < 0 && cs[i].blocks <= VERIFY_DEADLOCK_AUTO_EXHAUSTIVE);
    }
    return CLI_EXIT_OK;
}

/* What a search says on stderr while it runs (model_search_cfg.on_progress,
 * every MODEL_SEARCH_PROGRESS_S seconds). */
typedef struct {
    const char *algo, *model;
    double t0, next;
} dl_progress;

static void say_progress(void *ctx, uint64_t states, uint64_t schedules)
{
    const dl_progress *g = ctx;
    const double t = model_search_now();
    fprintf(stderr, "scanlab: deadlock: %s under %s: %.0f s, %llu states and %llu schedules so far\n", g->algo,
            g->model, t - g->t0, (unsigned long long)states, (unsigned long long)schedules);
}

static int run_algo(const dl_plan *p, const verify_algo *al, const verify_deadlock_config *c, bool exhaustive,
                    json_writer *w, cli_progress *prog, size_t *done)
{
    if (!w)
        print_config(al, c);
    int rc = CLI_EXIT_OK;
    bool said_none = false;
    for (int m = 0; m < MODEL_PROGRESS_COUNT; m++) {
        if (!(p->models >> m & 1u))
            continue;
        cli_progress_update(prog, *done, al->name);
        dl_answer x = {.model = (model_progress)m, .exhaustive = exhaustive};
        dl_progress g = {al->name, verify_progress_name(x.model), model_search_now(), 0};
        g.next = g.t0 + MODEL_SEARCH_PROGRESS_S;
        /* under MPI an exhaustive search is split over the ranks (docs/scaling.md);
         * rank 0 alone says how far it is */
        const model_search_cfg cfg = {.progress = (model_progress)m, .exhaustive = exhaustive,
                                      .samples = p->samples, .seed = p->seed, .deadline = g.t0 + p->budget,
                                      .on_progress = ranks_rank() == 0 ? say_progress : NULL,
                                      .progress_ctx = &g, .progress_next = &g.next,
                                      .hooks = exhaustive ? search_ranks_hooks() : NULL};
        const sl_status st = verify_deadlock_search(al, c, &cfg, &x.r, &x.seconds);
        (*done)++;
        if (st != SL_OK && ranks_many()) /* the other ranks would wait for this one's part */
            ranks_abort(CLI_EXIT_FAILED, "deadlock: %s under %s: %s at rank %d", al->name,
                        verify_progress_name(x.model), sl_status_str(st), ranks_rank());
        if (st != SL_OK) {
            fprintf(stderr, "scanlab: deadlock: %s under %s: %s\n", al->name, verify_progress_name(x.model),
                    sl_status_str(st));
            rc = CLI_EXIT_FAILED;
            continue;
        }
        x.exhaustive = exhaustive && x.r.waiting;
        x.decisive = (p->decisive >> m & 1u) != 0;
        if (fails(&x.r) && x.decisive)
            rc = CLI_EXIT_FAILED;
        if (w) {
            json_answer(w, al, c, &x);
        } else if (!x.r.waiting && x.r.verdict == MODEL_VERDICT_FREE) {
            if (!said_none)
                printf("  no inter-block waiting: no thread polls global memory, so no schedule can make a "
                       "block wait for another (nothing to search)\n");
            said_none = true;
        } else {
            print_answer(c, &x);
        }
    }
    return rc;
}

/* Which answers decided the exit status, and why those. */
static void print_decisive_note(const dl_plan *p)
{
    if (p->decisive == 1u << VERIFY_DEADLOCK_TARGET && p->models != p->decisive) {
        printf("\nexit status: decided by %s, the model of an NVIDIA GPU running an ordinary launch (CUDA "
               "promises a block that has started that it keeps running, and neither an order of dispatch nor "
               "that a block not yet started ever starts); the other models are shown for comparison, and "
               "--model M makes M decide (docs/deadlock.md)\n",
               verify_progress_name(VERIFY_DEADLOCK_TARGET));
        return;
    }
    printf("\nexit status: decided by the model%s --model names\n", PLURAL(__builtin_popcount(p->decisive)));
}

int deadlock_main(int argc, char **argv, const verify_algo *algos, size_t count)
{
    cli_args args;
    int rc = cli_parse(&deadlock_cmd, argc, argv, &args);
    if (rc != CLI_EXIT_OK || args.set[OPT_HELP])
        return rc;
    dl_plan p = {0};
    rc = make_plan(&args, algos, count, &p);
    cli_args_free(&args);
    if (rc == CLI_EXIT_OK && cli_dry_run()) {
        free(p.algos);
        return rc;
    }
    verify_deadlock_config *cs = rc == CLI_EXIT_OK ? calloc(p.nalgos + 1, sizeof *cs) : NULL;
    bool *exh = rc == CLI_EXIT_OK ? calloc(p.nalgos + 1, sizeof *exh) : NULL;
    if (rc == CLI_EXIT_OK && (!cs || !exh))
        rc = cli_usage_error("deadlock: out of memory");
    if (rc == CLI_EXIT_OK)
        rc = configure_all(&p, cs, exh);
    if (rc != CLI_EXIT_OK) {
        free(cs);
        free(exh);
        free(p.algos);
        return rc;
    }
    bool sampled = false;
    for (size_t i = 0; i < p.nalgos; i++)
        sampled = sampled || (cs[i].waiting && !exh[i]);
    if (sampled)
        cli_print_seed("deadlock", p.seed);
    json_writer w;
    /* under MPI the document is written whole at the end: a rank that
     * fails stops every rank, and must leave no part of it behind */
    char *doc = NULL;
    size_t doclen = 0;
    FILE *jf = p.json && ranks_many() ? open_memstream(&doc, &doclen) : NULL;
    if (p.json) {
        json_init(&w, jf ? jf : stdout);
        json_begin_object(&w, NULL);
        json_uint(&w, "blocks", p.blocks);
        json_uint(&w, "resident", p.resident);
        json_string(&w, "target_model", verify_progress_name(VERIFY_DEADLOCK_TARGET));
        json_begin_array(&w, "decisive_models");
        for (int m = 0; m < MODEL_PROGRESS_COUNT; m++)
            if (p.decisive >> m & 1u)
                json_string(&w, NULL, verify_progress_name((model_progress)m));
        json_end_array(&w);
        if (sampled)
            json_uint(&w, "seed", p.seed);
        else
            json_null(&w, "seed");
        json_begin_array(&w, "results");
    }
    const size_t nmodels = (size_t)__builtin_popcount(p.models);
    size_t done = 0;
    cli_progress prog;
    cli_progress_start(&prog, "deadlock", "searches", p.nalgos * nmodels);
    for (size_t i = 0; i < p.nalgos; i++) {
        if (!p.json && i)
            printf("\n");
        if (run_algo(&p, p.algos[i], &cs[i], exh[i], p.json ? &w : NULL, &prog, &done) != CLI_EXIT_OK)
            rc = CLI_EXIT_FAILED;
    }
    cli_progress_end(&prog);
    if (!p.json)
        print_decisive_note(&p);
    if (p.json) {
        json_end_array(&w);
        json_end_object(&w);
        json_finish(&w);
    }
    if (jf) {
        fclose(jf);
        fwrite(doc, 1, doclen, stdout);
        free(doc);
    }
    free(cs);
    free(exh);
    free(p.algos);
    return rc;
}

int cmd_deadlock(int argc, char **argv)
{
    /* deadlock -- PROGRAM: the launches of a whole program (cmd_run.c) */
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--") == 0) {
            cli_set_command("deadlock");
            return cmd_run_deadlock(argc, argv);
        }
    /* deadlock --litmus TEST...: progress litmus tests (deadlock_litmus.c) */
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--litmus") == 0)
            return deadlock_litmus_main(argc, argv);
    return user_kernel_dispatch("deadlock", argc, argv, deadlock_main);
}
