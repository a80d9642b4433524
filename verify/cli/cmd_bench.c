/* scanlab bench: options, the loop over sizes and kinds, and dispatch to a
 * backend's benchmark; every backend reports through bench_report (or
 * writes its own objects into the one JSON document). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify/cli/bench.h"
#include "verify/cli/cli.h"
#include "verify/cli/commands.h"
#include "verify/cli/options.h"
#include "verify/cli/progress.h"
#include "verify/formats/json.h"
#include "config.h"

/* Defaults: 2^24 elements run in seconds on two cores. */
#define BENCH_DEFAULT_N "2^24"
#define BENCH_MAX_REPS 1000

#if defined(SCANLAB_BENCH_SIM) && SCANLAB_HAVE_CUDA
#define BENCH_BACKENDS "omp, sim, cuda"
#elif defined(SCANLAB_BENCH_SIM)
#define BENCH_BACKENDS "omp, sim"
#elif SCANLAB_HAVE_CUDA
#define BENCH_BACKENDS "omp, cuda"
#else
#define BENCH_BACKENDS "omp"
#endif

static const cli_cmd_opt bench_opts[] = {
    {OPT_ALGO, "Here: the scans timed on omp and cuda (the copy, and on cuda CUB, are always timed); "
               "on sim, brent-kung"},
    {OPT_BACKEND, "Here one backend, default omp (valid: " BENCH_BACKENDS ")"},
    {OPT_TYPE, "Here one type, default i32 (cuda: a list, timed in one process)"},
    {OPT_OP, "Here one operator, default add (cuda: a list)"},
    {OPT_EXCLUSIVE, NULL},
    {OPT_BOTH, NULL},
    {OPT_N, "Default 2^24 (cuda: 2^28); each size is timed on its own (sim: at most 2^22)"},
    {OPT_BLOCK, "Here: passed to the kernels (sim, cuda)"},
    {OPT_PARAM, "Here: passed to the kernels (sim; default there 1, the block-level scan alone; cuda)"},
    {OPT_SEED, NULL},
    {OPT_JOBS, "Here: OpenMP threads"},
    {OPT_REPEAT, "Here: timed repetitions after a warm-up, 1 to 1000 (default: at least 5, more "
                 "for short runs; sim: 1)"},
    {OPT_TIMING, "Here: cuda only"},
    {OPT_DEVICES, "Here: cuda only; per size n (elements per GPU, default 2^24) the multi-gpu scan of "
                  "P * n elements against lookback at n and a copy of n on each GPU at once "
                  "(--algo: multi-gpu or none; no --param, no --timing call)"},
    {OPT_JSON, NULL},
};

static const cli_command bench_cmd = {
    "bench", "[options]",
    "omp: measures, in one process, a parallel copy of the same bytes (the bandwidth ceiling), "
    "the sequential scan and each OpenMP scan; reports the median time, GB/s counting 2 * n * "
    "sizeof(element) bytes, and the fraction of the copy. sim: simulated lane-operations per "
    "second, with full accounting and with accounting off, on a block-level Brent-Kung scan "
    "(one core). cuda: in one process, a device-to-device copy of the same bytes, CUB's DeviceScan "
    "and each selected GPU scan on device buffers, timed with CUDA events (median of 25), each "
    "checked against CUB first; with --json one document {device, date, results}. "
    "docs/performance.md holds measured tables.",
    bench_opts, sizeof bench_opts / sizeof bench_opts[0],
    "a run failed, or a scan's output differed from the sequential scan's", .dry_run = true};

/* The one backend bench measures: omp, sim, or one a build adds. */
static int pick_backend(const cli_args *a, sl_backend *out)
{
    const char *s = a->val[OPT_BACKEND] ? a->val[OPT_BACKEND] : "omp";
    if (strcmp(s, "omp") == 0) {
        *out = SL_OMP;
        return CLI_EXIT_OK;
    }
#ifdef SCANLAB_BENCH_SIM
    if (strcmp(s, "sim") == 0) {
        *out = SL_SIM;
        return CLI_EXIT_OK;
    }
#endif
    if (strcmp(s, "cuda") == 0) {
        *out = SL_CUDA; /* without CUDA or a GPU, bench_cuda says so */
        return CLI_EXIT_OK;
    }
    return cli_usage_error("bench: cannot measure backend '%s' (valid: " BENCH_BACKENDS ")", s);
}

/* --devices P: the benchmark across GPUs, which times multi-gpu (with its
 * own baselines) and sets P itself. */
static int devices_options(const cli_args *a, bench_options *o)
{
    if (cli_parse_int("--devices", a->val[OPT_DEVICES], 1, 32, &o->devices) != SL_OK)
        return CLI_EXIT_USAGE;
    if (o->algos && strcmp(o->algos, "multi-gpu") != 0)
        return cli_usage_error("bench: --devices times multi-gpu only (against lookback and a copy on each "
                               "GPU); --algo '%s' is not that", o->algos);
    if (a->val[OPT_PARAM])
        return cli_usage_error("bench: --devices %d sets multi-gpu's P; leave out --param", o->devices);
    if (o->call_timing)
        return cli_usage_error("bench: --devices: --timing call is not measured across GPUs");
    return CLI_EXIT_OK;
}

/* --backend cuda: every list in one process (bench_cuda parses them and
 * prints its own table or document). */
static int run_cuda(const cli_args *a, bench_options *o)
{
    int rc;
    bool incl = true, excl = false;
    o->n_list = a->val[OPT_N];
    o->types = a->val[OPT_TYPE];
    o->ops = a->val[OPT_OP];
    o->algos = a->val[OPT_ALGO];
    if ((rc = cli_get_block_param(a, &o->block, &o->param)) != CLI_EXIT_OK ||
        (rc = cli_get_kinds("bench", a, &incl, &excl)) != CLI_EXIT_OK)
        return rc;
    if (incl && excl)
        return cli_usage_error("bench: --backend cuda times one kind per run (--exclusive or not)");
    o->exclusive = excl;
    if (a->val[OPT_REPEAT] &&
        cli_parse_int("--repeat", a->val[OPT_REPEAT], 1, BENCH_MAX_REPS, &o->reps) != SL_OK)
        return CLI_EXIT_USAGE;
    if (a->val[OPT_TIMING] && strcmp(a->val[OPT_TIMING], "call") == 0)
        o->call_timing = true;
    else if (a->val[OPT_TIMING] && strcmp(a->val[OPT_TIMING], "gpu") != 0)
        return cli_usage_error("bench: --timing: '%s' is not a timing (valid: gpu, call)", a->val[OPT_TIMING]);
    o->json = a->set[OPT_JSON];
    if (a->val[OPT_DEVICES] && (rc = devices_options(a, o)) != CLI_EXIT_OK)
        return rc;
    if (cli_dry_run() && (cli_built_backends() >> SL_CUDA & 1u))
        return CLI_EXIT_OK; /* without CUDA, bench_cuda only refuses */
    cli_progress progress;
    cli_progress_start(&progress, "bench", "configurations", 0);
    o->progress = &progress;
    rc = o->devices ? bench_cuda_mg(o) : bench_cuda(o);
    cli_progress_end(&progress);
    return rc;
}

/* Everything but the sizes and kinds; o->backend is chosen. */
static int make_options(const cli_args *a, bench_options *o)
{
    int rc, t, op;
    unsigned types, ops;
    if ((rc = cli_get_types(a, 1u << SL_I32, &types)) != CLI_EXIT_OK ||
        (rc = cli_one_of("bench", "--type", types, &t)) != CLI_EXIT_OK ||
        (rc = cli_get_ops(a, 1u << SL_ADD, &ops)) != CLI_EXIT_OK ||
        (rc = cli_one_of("bench", "--op", ops, &op)) != CLI_EXIT_OK)
        return rc;
    o->type = (sl_type)t;
    o->op = (sl_op)op;
    if (!SL_OP_APPLIES(o->op, o->type))
        return cli_usage_error("bench: --op affine applies to the integer types only (valid with "
                               "%s: add, max, min)", verify_type_name(o->type));
    o->algos = a->val[OPT_ALGO];
    if (a->set[OPT_TIMING])
        return cli_usage_error("bench: --timing applies to --backend cuda only");
    if (a->set[OPT_DEVICES])
        return cli_usage_error("bench: --devices applies to --backend cuda only");
    if ((rc = cli_get_block_param(a, &o->block, &o->param)) != CLI_EXIT_OK ||
        (rc = cli_get_jobs(a, &o->threads)) != CLI_EXIT_OK)
        return rc;
    if (a->val[OPT_REPEAT] &&
        cli_parse_int("--repeat", a->val[OPT_REPEAT], 1, BENCH_MAX_REPS, &o->reps) != SL_OK)
        return CLI_EXIT_USAGE;
    o->json = a->set[OPT_JSON];
    return cli_get_seed("bench", a, &o->seed);
}

/* What the chosen backend refuses, for every size and kind: before the
 * seed line, as every command refuses before it starts. */
static int check_backend(bench_options *o, const size_t *sizes, size_t nsizes, bool incl, bool excl)
{
    int rc = CLI_EXIT_OK;
    for (size_t i = 0; i < nsizes && rc == CLI_EXIT_OK; i++)
        for (int k = 0; k < 2 && rc == CLI_EXIT_OK; k++) {
            if (!(k ? excl : incl))
                continue;
            o->n = sizes[i];
            o->exclusive = k;
#ifdef SCANLAB_BENCH_SIM
            if (o->backend == SL_SIM) {
                rc = bench_sim_check(o);
                continue;
            }
#endif
            rc = bench_omp_check(o);
        }
    return rc;
}

/* One size and kind on the chosen backend. */
static int run_backend(const bench_options *o)
{
    switch (o->backend) {
#ifdef SCANLAB_BENCH_SIM
    case SL_SIM:
        return bench_sim(o);
#endif
    default:
        return bench_omp(o);
    }
}

int cmd_bench(int argc, char **argv)
{
    cli_args args;
    int rc = cli_parse(&bench_cmd, argc, argv, &args);
    if (rc != CLI_EXIT_OK || args.set[OPT_HELP])
        return rc;
    bench_options o = {0};
    bool incl = true, excl = false;
    size_t *sizes = NULL, nsizes = 0;
    rc = pick_backend(&args, &o.backend);
    if (rc == CLI_EXIT_OK && o.backend == SL_CUDA) {
        rc = run_cuda(&args, &o);
        cli_args_free(&args);
        return rc;
    }
    if (rc == CLI_EXIT_OK)
        rc = make_options(&args, &o);
    if (rc == CLI_EXIT_OK)
        rc = cli_get_kinds("bench", &args, &incl, &excl);
    if (rc == CLI_EXIT_OK)
        rc = cli_get_sizes(&args, BENCH_DEFAULT_N, o.seed, &sizes, &nsizes);
    if (rc == CLI_EXIT_OK && sizes[0] == 0)
        rc = cli_usage_error("bench: --n: the benchmark needs at least 1 element");
    if (rc == CLI_EXIT_OK)
        rc = check_backend(&o, sizes, nsizes, incl, excl);
    if (rc != CLI_EXIT_OK || cli_dry_run()) {
        free(sizes);
        cli_args_free(&args);
        return rc;
    }
    cli_print_seed("bench", o.seed);
    cli_progress progress;
    cli_progress_start(&progress, "bench", "sizes and kinds", nsizes * ((size_t)incl + excl));
    o.progress = &progress;
    json_writer w;
    if (o.json) {
        json_init(&w, stdout);
        json_begin_object(&w, NULL);
        json_begin_array(&w, "results");
        o.w = &w;
    }
    for (size_t i = 0; i < nsizes && rc != CLI_EXIT_USAGE; i++)
        for (int k = 0; k < 2 && rc != CLI_EXIT_USAGE; k++) {
            if (!(k ? excl : incl))
                continue;
            o.n = sizes[i];
            o.exclusive = k;
            int r = run_backend(&o);
            o.done++;
            if (r != CLI_EXIT_OK && rc != CLI_EXIT_USAGE)
                rc = r;
        }
    cli_progress_end(&progress);
    if (o.json) {
        json_end_array(&w);
        json_uint(&w, "seed", o.seed);
        json_end_object(&w);
        json_finish(&w);
    }
    free(sizes);
    cli_args_free(&args);
    return rc;
}
