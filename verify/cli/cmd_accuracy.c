/* scanlab accuracy: how far float add-scans are from the exact prefix sums,
 * per algorithm, backend, type, kind, distribution and size (DESIGN.md,
 * "Floating-point accuracy"; docs/accuracy.md). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify/cli/cli.h"
#include "verify/cli/commands.h"
#include "verify/cli/memory.h"
#include "verify/cli/options.h"
#include "verify/cli/progress.h"
#include "verify/formats/json.h"
#include "verify/formats/npy.h"
#include "verify/formats/output.h"
#include "verify/harness/accuracy.h"
#include "verify/harness/accuracy_inputs.h"
#include "verify/harness/ref_exact.h"
#include "verify/harness/rng.h"

enum { MAX_SEEDS = 1000, MAX_DISTS = ACC_DIST_COUNT };
/* Bytes per element held for one size: per seed the input, the exact
 * prefixes and sum|x| (8), then per algorithm its output and the pooled
 * ulps and eta (8 + 8). */
#define BYTES_PER_ELEM(es) (3 * (size_t)(es) + 24)
#define DEFAULT_SIZES "2^10,2^16,2^20"
#define DEFAULT_COND 1e8
#define FLOAT_TYPES (1u << SL_F32 | 1u << SL_F64)

static const cli_cmd_opt accuracy_opts[] = {
    {OPT_ALGO, "Here: scans"},
    {OPT_BACKEND, NULL},
    {OPT_TYPE, "Here f32 and f64 (all: both; with --input, the file's type)"},
    {OPT_EXCLUSIVE, NULL},
    {OPT_BOTH, NULL},
    {OPT_N, "Default " DEFAULT_SIZES},
    {OPT_DIST, "Here the float ones, default uniform01"},
    {OPT_COND, NULL},
    {OPT_INPUTS, NULL},
    {OPT_BLOCK, NULL},
    {OPT_PARAM, NULL},
    {OPT_INPUT, "Floats only. With it, --n, --dist, --inputs, --seed and --cond do not apply"},
    {OPT_SEED, NULL},
    {OPT_JOBS, "Here: OpenMP threads of the omp scans"},
    {OPT_FAIL_ON_SKIP, NULL},
    {OPT_OUTPUT, "Here: the exact prefix sums of the one input (one type, kind, size and "
                 "distribution and --inputs 1, or --input) as .npy"},
    {OPT_JSON, NULL},
};

static const cli_command accuracy_cmd = {
    "accuracy", "[options]",
    "Measures float add-scans against the exact prefix sums (an exact superaccumulator, each "
    "prefix rounded once). Per prefix: the error in ulps of the exact rounded value, and eta = "
    "|error| / (u sum|x_j|), u = 2^-24 (f32) or 2^-53 (f64). Per algorithm, backend, type, kind, "
    "distribution and size: max and median ulps, max, median and RMS eta over all prefixes and "
    "inputs, and the addition depth D that bounds eta (eta <= D/(1-Du) + 1). A backend that "
    "cannot run here (no GPU) is skipped, and the summary on stderr says so.",
    accuracy_opts, sizeof accuracy_opts / sizeof accuracy_opts[0],
    "a bound was exceeded or a run failed (with --fail-on-skip: or a measurement was skipped)",
    .dry_run = true};

/* What one size and distribution needs: the inputs of every seed, their
 * exact prefixes and sums of magnitudes. */
typedef struct {
    size_t n, count;
    void **x, **exact;
    double **abs;
} input_set;

typedef struct {
    sl_type type;              /* the type being measured */
    unsigned types;            /* every type to measure */
    bool exclusive;            /* the kind being measured */
    bool incl_kind, excl_kind; /* the kinds to measure */
    bool json, fail_on_skip;
    int threads, block, param;
    const verify_algo **algos; /* room for every entry of the table */
    size_t algo_count;
    unsigned backends;
    accuracy_dist dists[MAX_DISTS];
    size_t dist_count;
    size_t *sizes, size_count;
    int seeds;
    uint64_t seed;
    double cond;
    const char *input, *output;
    cli_progress progress;
    void *file_data; /* --input: the array read */
    size_t file_n;
    size_t skipped[SL_BACKEND_COUNT]; /* measurements that could not run, per backend */
    sl_status skip_why[SL_BACKEND_COUNT];
} plan;

/* --cond: a finite number >= 1. */
static int parse_cond(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || !isfinite(v) || v < 1.0)
        return cli_usage_error("accuracy: --cond: '%s' is not a condition number (a finite number "
                               ">= 1, e.g. 1e8)", s);
    *out = v;
    return CLI_EXIT_OK;
}

static int parse_dists(const char *s, plan *p)
{
    p->dist_count = 0;
    char buf[256];
    if (strlen(s) >= sizeof buf)
        return cli_usage_error("accuracy: --dist: list too long");
    strcpy(buf, s);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        accuracy_dist d;
        char why[512];
        if (verify_accuracy_parse_dist(tok, &d, why, sizeof why) != SL_OK)
            return cli_usage_error("accuracy: %s", why);
        bool dup = false;
        for (size_t i = 0; i < p->dist_count; i++)
            dup |= p->dists[i] == d;
        if (!dup)
            p->dists[p->dist_count++] = d;
    }
    if (p->dist_count == 0)
        return cli_usage_error("accuracy: --dist: empty list");
    return CLI_EXIT_OK;
}

/* Algorithms: explicit names must be scans that run on a selected backend;
 * "all" (the default) takes every scan that does. */
static int parse_algos(const char *s, plan *p)
{
    p->algo_count = 0;
    bool all = strcmp(s, "all") == 0;
    size_t cap = verify_algo_count;
    if (all) {
        for (size_t i = 0; i < verify_algo_count && p->algo_count < cap; i++) {
            const verify_algo *a = &verify_algos[i];
            bool runs = false;
            for (int b = 0; b < SL_BACKEND_COUNT; b++)
                runs |= (p->backends >> b & 1u) && verify_algo_runs_on(a, (sl_backend)b);
            if (a->kind == SL_KIND_SCAN && runs)
                p->algos[p->algo_count++] = a;
        }
        if (p->algo_count == 0)
            return cli_usage_error("accuracy: no scan algorithm runs on the selected backends");
        return CLI_EXIT_OK;
    }
    char buf[1024];
    if (strlen(s) >= sizeof buf)
        return cli_usage_error("accuracy: --algo: list too long");
    strcpy(buf, s);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        const verify_algo *a = verify_find_algo(tok, true);
        if (!a)
            return CLI_EXIT_USAGE;
        if (a->kind != SL_KIND_SCAN)
            return cli_usage_error("accuracy: '%s' is a reduction; accuracy measures scans", tok);
        bool runs = false, dup = false;
        for (int b = 0; b < SL_BACKEND_COUNT; b++)
            runs |= (p->backends >> b & 1u) && verify_algo_runs_on(a, (sl_backend)b);
        if (!runs)
            return cli_usage_error("accuracy: '%s' runs on none of the selected backends (see "
                                   "'scanlab list'; --backend all selects every one)", tok);
        for (size_t i = 0; i < p->algo_count; i++)
            dup |= p->algos[i] == a;
        if (!dup && p->algo_count < cap)
            p->algos[p->algo_count++] = a;
    }
    if (p->algo_count == 0)
        return cli_usage_error("accuracy: --algo: empty list");
    return CLI_EXIT_OK;
}

/* --input: read the array; its type must be a float type and agree with
 * --type when it names one. */
static int read_input(const cli_args *a, plan *p)
{
    const char *path = a->val[OPT_INPUT];
    sl_type raw = SL_TYPE_COUNT, t;
    if (a->val[OPT_TYPE]) {
        int one;
        if (cli_one_of("accuracy", "--type (with --input)", p->types, &one) != CLI_EXIT_OK)
            return CLI_EXIT_USAGE;
        raw = (sl_type)one;
    }
    char why[VERIFY_WHY_SIZE];
    sl_status st = verify_array_read(path, raw, &t, &p->file_data, &p->file_n, why, sizeof why);
    if (st == SL_ERR_NOMEM) {
        fprintf(stderr, "scanlab: accuracy: %s\n", why);
        return CLI_EXIT_FAILED;
    }
    if (st != SL_OK)
        return cli_usage_error("accuracy: %s", why);
    if (!SL_TYPE_IS_FLOAT(t))
        return cli_usage_error("accuracy: %s holds %s elements; accuracy measures f32 and f64",
                               path, verify_type_name(t));
    if (raw != SL_TYPE_COUNT && t != raw)
        return cli_usage_error("accuracy: %s holds %s elements, but --type says %s", path,
                               verify_type_name(t), verify_type_name(raw));
    p->types = 1u << t;
    return CLI_EXIT_OK;
}

/* The peak memory at size n with inputs inputs (verify/cli/memory.c): the
 * input sets (BYTES_PER_ELEM per element and input), and on the simulator
 * its device memory and shadow for one run. Measured: accuracy --backend
 * seq,omp --type f64 --n 2^22 (and 2^20) peaks 45 bytes per element and
 * input above the smaller run, against the 48 counted. */
static uint64_t peak_bytes(const plan *p, size_t n, int inputs)
{
    uint64_t peak = cli_peak_cpu(n, BYTES_PER_ELEM(8), (uint64_t)inputs);
    if (p->backends >> SL_SIM & 1u) {
        uint64_t sim = cli_peak_simulator(cli_bytes(n, 8), cli_bytes(n, 8),
                                          p->block ? 8u * (uint64_t)p->block : 0);
        peak = peak > UINT64_MAX - sim ? UINT64_MAX : peak + sim;
    }
    return peak;
}

static int build_plan(const cli_args *a, plan *p)
{
    int rc;
    if ((rc = cli_get_types(a, FLOAT_TYPES, &p->types)) != CLI_EXIT_OK)
        return rc;
    if (a->val[OPT_TYPE] && strcmp(a->val[OPT_TYPE], "all") == 0)
        p->types &= FLOAT_TYPES;
    for (int t = 0; t < SL_TYPE_COUNT; t++)
        if ((p->types >> t & 1u) && !SL_TYPE_IS_FLOAT(t))
            return cli_usage_error("accuracy: type '%s' is not a float type (accuracy measures f32 "
                                   "and f64)", verify_type_name((sl_type)t));
    if ((rc = cli_get_kinds("accuracy", a, &p->incl_kind, &p->excl_kind)) != CLI_EXIT_OK)
        return rc;
    p->json = a->set[OPT_JSON];
    p->fail_on_skip = a->set[OPT_FAIL_ON_SKIP];
    if ((rc = cli_get_jobs(a, &p->threads)) != CLI_EXIT_OK ||
        (rc = cli_get_block_param(a, &p->block, &p->param)) != CLI_EXIT_OK ||
        (rc = cli_get_backends("accuracy", a, cli_built_backends(), &p->backends)) != CLI_EXIT_OK)
        return rc;
    p->algos = malloc((verify_algo_count ? verify_algo_count : 1) * sizeof *p->algos);
    if (!p->algos)
        return CLI_EXIT_FAILED;
    if ((rc = parse_algos(a->val[OPT_ALGO] ? a->val[OPT_ALGO] : "all", p)) != CLI_EXIT_OK)
        return rc;
    p->input = a->val[OPT_INPUT];
    p->output = a->val[OPT_OUTPUT];
    char why[VERIFY_WHY_SIZE];
    if (p->output && verify_output_check(p->output, why, sizeof why) != SL_OK)
        return cli_usage_error("accuracy: --output: %s", why);
    if (p->input) {
        const char *clash = a->set[OPT_N] ? "--n" : a->set[OPT_DIST] ? "--dist"
                          : a->set[OPT_INPUTS] ? "--inputs" : a->set[OPT_SEED] ? "--seed"
                          : a->set[OPT_COND] ? "--cond" : NULL;
        if (clash)
            return cli_usage_error("accuracy: %s does not apply to --input (the file is the input)",
                                   clash);
        if (p->output && p->incl_kind && p->excl_kind)
            return cli_usage_error("accuracy: --output writes the prefixes of one kind: not --both");
        if (p->output && cli_same_file(p->input, p->output))
            return cli_usage_error("accuracy: --output %s is the --input file: writing the prefixes there "
                                   "would replace the input", p->output);
        int rc2 = read_input(a, p);
        if (rc2 == CLI_EXIT_OK && cli_check_peak("accuracy", p->file_n, peak_bytes(p, p->file_n, 1)) != SL_OK)
            rc2 = CLI_EXIT_USAGE;
        return rc2;
    }
    if ((rc = parse_dists(a->val[OPT_DIST] ? a->val[OPT_DIST] : "uniform01", p)) != CLI_EXIT_OK)
        return rc;
    p->cond = DEFAULT_COND;
    if (a->val[OPT_COND]) {
        bool illcond = false;
        for (size_t i = 0; i < p->dist_count; i++)
            illcond |= p->dists[i] == ACC_DIST_ILLCOND;
        if (!illcond)
            return cli_usage_error("accuracy: --cond applies to --dist illcond only");
        if ((rc = parse_cond(a->val[OPT_COND], &p->cond)) != CLI_EXIT_OK)
            return rc;
    }
    p->seeds = 3;
    if (a->val[OPT_INPUTS] &&
        cli_parse_int("--inputs", a->val[OPT_INPUTS], 1, MAX_SEEDS, &p->seeds) != SL_OK)
        return CLI_EXIT_USAGE;
    if ((rc = cli_get_seed("accuracy", a, &p->seed)) != CLI_EXIT_OK ||
        (rc = cli_get_sizes(a, DEFAULT_SIZES, p->seed, &p->sizes, &p->size_count)) != CLI_EXIT_OK)
        return rc;
    bool one_type = (p->types & (p->types - 1)) == 0;
    if (p->output && (p->size_count != 1 || p->dist_count != 1 || p->seeds != 1 || !one_type ||
                      (p->incl_kind && p->excl_kind)))
        return cli_usage_error("accuracy: --output writes the prefixes of one input: give one --n, "
                               "one --dist, one --type, --inputs 1 and not --both (or --input)");
    for (size_t i = 0; i < p->size_count; i++)
        if (cli_check_peak("accuracy", p->sizes[i], peak_bytes(p, p->sizes[i], p->seeds)) != SL_OK)
            return CLI_EXIT_USAGE;
    return CLI_EXIT_OK;
}

/* --- running ---------------------------------------------------------------- */

static void free_inputs(input_set *s)
{
    for (size_t k = 0; k < s->count; k++) {
        if (s->x)
            free(s->x[k]);
        if (s->exact)
            free(s->exact[k]);
        if (s->abs)
            free(s->abs[k]);
    }
    free(s->x);
    free(s->exact);
    free(s->abs);
    memset(s, 0, sizeof *s);
}

/* The inputs for one size and distribution (or the file), with their exact
 * prefixes. */
static sl_status make_inputs(const plan *p, size_t n, accuracy_dist d, input_set *s)
{
    size_t es = SL_TYPE_SIZE(p->type), count = p->input ? 1 : (size_t)p->seeds;
    s->n = n;
    s->count = count;
    s->x = calloc(count, sizeof *s->x);
    s->exact = calloc(count, sizeof *s->exact);
    s->abs = calloc(count, sizeof *s->abs);
    if (!s->x || !s->exact || !s->abs)
        return SL_ERR_NOMEM;
    for (size_t k = 0; k < count; k++) {
        s->x[k] = malloc(n ? n * es : 1);
        s->exact[k] = malloc(n ? n * es : 1);
        s->abs[k] = malloc(n ? n * sizeof(double) : 1);
        if (!s->x[k] || !s->exact[k] || !s->abs[k])
            return SL_ERR_NOMEM;
        sl_status st;
        if (p->input) {
            memcpy(s->x[k], p->file_data, n * es);
        } else {
            uint64_t seed = verify_derive_seed(verify_derive_seed(p->seed, k), n);
            if ((st = verify_accuracy_fill(p->type, d, p->cond, seed, n, s->x[k])) != SL_OK)
                return st;
        }
        st = verify_exact_scan(p->type, p->exclusive, s->x[k], n, s->exact[k], s->abs[k]);
        if (st != SL_OK)
            return st;
    }
    return SL_OK;
}

typedef struct {
    const verify_algo *algo;
    sl_backend backend;
    const char *dist;
    size_t n, depth;
    verify_accuracy_stats stats;
    bool within;
} result;

/* Run one algorithm on one backend over every input of the set and pool
 * the per-prefix errors. SL_ERR_UNSUPPORTED / SL_ERR_NO_GPU mean "skip". */
static sl_status measure(const plan *p, const input_set *s, const verify_algo *a, sl_backend b,
                         result *r)
{
    size_t n = s->n, m = n * s->count, es = SL_TYPE_SIZE(p->type);
    void *out = malloc(n ? n * es : 1);
    double *ulps = malloc(m ? m * sizeof *ulps : 1), *eta = malloc(m ? m * sizeof *eta : 1);
    sl_status st = out && ulps && eta ? SL_OK : SL_ERR_NOMEM;
    sl_scan_args args = {.type = p->type, .op = SL_ADD, .exclusive = p->exclusive, .n = n,
                         .threads = p->threads, .block = p->block, .param = p->param};
    for (size_t k = 0; k < s->count && st == SL_OK; k++) {
        args.in = s->x[k];
        args.out = out;
        st = a->run[b](&args);
        if (st == SL_OK)
            verify_accuracy_errors(p->type, out, s->exact[k], s->abs[k], n, ulps + k * n,
                                   eta + k * n);
    }
    if (st == SL_OK) {
        args.in = s->x[0];
        verify_accuracy_summarize(ulps, eta, m, &r->stats);
        r->depth = verify_accuracy_depth_bound(a, &args);
        r->within = verify_accuracy_within_bound(p->type, r->stats.max_eta, r->depth);
    }
    free(out);
    free(ulps);
    free(eta);
    return st;
}

static void print_header(void)
{
    printf("%-22s %-7s %-4s %-9s %-10s %10s %10s %10s %10s %10s %10s %11s  %s\n", "algorithm",
           "backend", "type", "kind", "dist", "n", "max_ulps", "med_ulps", "max_eta", "med_eta",
           "rms_eta", "depth", "bound");
}

static void print_row(const plan *p, const result *r)
{
    printf("%-22s %-7s %-4s %-9s %-10s %10zu %10.3g %10.3g %10.3g %10.3g %10.3g %11zu  %s\n",
           r->algo->name, verify_backend_name(r->backend), verify_type_name(p->type),
           p->exclusive ? "exclusive" : "inclusive", r->dist, r->n, r->stats.max_ulps,
           r->stats.median_ulps, r->stats.max_eta, r->stats.median_eta, r->stats.rms_eta, r->depth,
           r->within ? "ok" : "EXCEEDED");
}

static void json_row(json_writer *w, const plan *p, const result *r)
{
    json_begin_object(w, NULL);
    json_string(w, "algo", r->algo->name);
    json_string(w, "backend", verify_backend_name(r->backend));
    json_string(w, "type", verify_type_name(p->type));
    json_string(w, "kind", p->exclusive ? "exclusive" : "inclusive");
    json_bool(w, "exclusive", p->exclusive);
    json_string(w, "dist", r->dist);
    json_uint(w, "n", r->n);
    json_double(w, "max_ulps", r->stats.max_ulps);
    json_double(w, "median_ulps", r->stats.median_ulps);
    json_double(w, "max_eta", r->stats.max_eta);
    json_double(w, "median_eta", r->stats.median_eta);
    json_double(w, "rms_eta", r->stats.rms_eta);
    json_uint(w, "depth_bound", r->depth);
    json_string(w, "status", r->within ? "OK" : "FAILED");
    json_end_object(w);
}

/* Every algorithm x backend on one input set; returns the exit status. */
static int run_set(plan *p, const input_set *s, const char *dist, json_writer *w)
{
    int rc = CLI_EXIT_OK;
    for (size_t i = 0; i < p->algo_count; i++)
        for (int b = 0; b < SL_BACKEND_COUNT; b++) {
            const verify_algo *a = p->algos[i];
            if (!(p->backends >> b & 1u) || !verify_algo_runs_on(a, (sl_backend)b))
                continue;
            result r = {.algo = a, .backend = (sl_backend)b, .dist = dist, .n = s->n};
            sl_status st = measure(p, s, a, (sl_backend)b, &r);
            if (st == SL_ERR_UNSUPPORTED || st == SL_ERR_NO_GPU) {
                p->skipped[b]++;
                p->skip_why[b] = st;
                continue;
            }
            if (st != SL_OK) {
                fprintf(stderr, "scanlab: accuracy: %s on %s, %s, n = %zu: %s\n", a->name,
                        verify_backend_name((sl_backend)b), verify_type_name(p->type), s->n,
                        sl_status_str(st));
                rc = CLI_EXIT_FAILED;
                continue;
            }
            if (!r.within) {
                fprintf(stderr, "scanlab: accuracy: %s on %s, %s, %s, n = %zu: max eta %.6g "
                                "exceeds the bound of depth %zu\n", a->name,
                        verify_backend_name((sl_backend)b), verify_type_name(p->type), dist, s->n,
                        r.stats.max_eta, r.depth);
                rc = CLI_EXIT_FAILED;
            }
            if (p->json)
                json_row(w, p, &r);
            else
                print_row(p, &r);
            fflush(stdout);
        }
    return rc;
}

static int write_output(const plan *p, const input_set *s)
{
    char why[VERIFY_WHY_SIZE];
    sl_status st = verify_npy_write(p->output, p->type, s->exact[0], s->n, why, sizeof why);
    if (st != SL_OK) {
        fprintf(stderr, "scanlab: accuracy: %s\n", why);
        return CLI_EXIT_FAILED;
    }
    return CLI_EXIT_OK;
}

/* Every size and distribution of the current type and kind. */
static int run_type_kind(plan *p, json_writer *w, size_t *done)
{
    int rc = CLI_EXIT_OK;
    size_t nsizes = p->input ? 1 : p->size_count, ndists = p->input ? 1 : p->dist_count;
    for (size_t i = 0; i < nsizes; i++)
        for (size_t j = 0; j < ndists; j++) {
            input_set s = {0};
            size_t n = p->input ? p->file_n : p->sizes[i];
            const char *dist = p->input ? "file" : verify_accuracy_dist_name(p->dists[j]);
            char what[96];
            snprintf(what, sizeof what, "%s %s, n = %zu, %s", verify_type_name(p->type),
                     p->exclusive ? "exclusive" : "inclusive", n, dist);
            cli_progress_update(&p->progress, (*done)++, what);
            sl_status st = make_inputs(p, n, p->input ? ACC_DIST_COUNT : p->dists[j], &s);
            if (st != SL_OK) {
                fprintf(stderr, "scanlab: accuracy: inputs of n = %zu (%s): %s\n", n, dist,
                        sl_status_str(st));
                rc = CLI_EXIT_FAILED;
            } else {
                int r = run_set(p, &s, dist, w);
                if (r != CLI_EXIT_OK)
                    rc = r;
                if (p->output) {
                    r = write_output(p, &s);
                    if (r != CLI_EXIT_OK)
                        rc = r;
                }
            }
            free_inputs(&s);
        }
    return rc;
}

/* The skips on stderr; returns how many there were. */
static size_t report_skips(const plan *p)
{
    size_t total = 0;
    for (int b = 0; b < SL_BACKEND_COUNT; b++)
        if (p->skipped[b]) {
            fprintf(stderr, "scanlab: accuracy: %zu measurement%s on %s skipped: %s%s\n",
                    p->skipped[b], p->skipped[b] == 1 ? "" : "s", verify_backend_name((sl_backend)b),
                    sl_status_str(p->skip_why[b]),
                    p->fail_on_skip ? " (--fail-on-skip: they fail the run)" : "");
            total += p->skipped[b];
        }
    return total;
}

static int run_plan(plan *p)
{
    json_writer w;
    int rc = CLI_EXIT_OK;
    if (p->json) {
        json_init(&w, stdout);
        json_begin_object(&w, NULL);
        json_begin_array(&w, "results");
    } else {
        print_header();
    }
    size_t ntypes = (size_t)__builtin_popcount(p->types), nkinds = (size_t)p->incl_kind + p->excl_kind;
    size_t total = ntypes * nkinds * (p->input ? 1 : p->size_count * p->dist_count), done = 0;
    cli_progress_start(&p->progress, "accuracy", "inputs", total);
    for (int t = 0; t < SL_TYPE_COUNT; t++)
        for (int k = 0; k < 2; k++) {
            if (!(p->types >> t & 1u) || !(k ? p->excl_kind : p->incl_kind))
                continue;
            p->type = (sl_type)t;
            p->exclusive = k;
            int r = run_type_kind(p, p->json ? &w : NULL, &done);
            if (r != CLI_EXIT_OK)
                rc = r;
        }
    cli_progress_end(&p->progress);
    size_t skipped = report_skips(p);
    if (skipped && p->fail_on_skip && rc == CLI_EXIT_OK)
        rc = CLI_EXIT_FAILED;
    if (p->json) {
        json_end_array(&w);
        if (p->input) {
            json_null(&w, "seed");
            json_string(&w, "input", p->input);
        } else {
            json_uint(&w, "seed", p->seed);
            json_null(&w, "input");
        }
        json_begin_object(&w, "summary");
        json_uint(&w, "skipped", skipped);
        json_begin_object(&w, "skip_reasons");
        for (int b = 0; b < SL_BACKEND_COUNT; b++)
            if (p->skipped[b])
                json_uint(&w, verify_backend_name((sl_backend)b), p->skipped[b]);
        json_end_object(&w);
        json_bool(&w, "fail_on_skip", p->fail_on_skip);
        json_end_object(&w);
        json_end_object(&w);
        json_finish(&w);
    }
    return rc;
}

int cmd_accuracy(int argc, char **argv)
{
    cli_args args;
    int rc = cli_parse(&accuracy_cmd, argc, argv, &args);
    if (rc != CLI_EXIT_OK || args.set[OPT_HELP])
        return rc;
    plan p = {0};
    rc = build_plan(&args, &p);
    if (rc == CLI_EXIT_OK && !cli_dry_run()) {
        if (p.input)
            fprintf(stderr, "scanlab: accuracy: input %s (%zu elements)\n", p.input, p.file_n);
        else
            cli_print_seed("accuracy", p.seed);
        rc = run_plan(&p);
    }
    free(p.sizes);
    free(p.file_data);
    free(p.algos);
    cli_args_free(&args);
    return rc;
}
