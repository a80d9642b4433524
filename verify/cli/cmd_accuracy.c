/* scanlab accuracy: how far float add-scans are from the exact prefix sums,
 * per algorithm, backend, distribution and size (DESIGN.md,
 * "Floating-point accuracy"; docs/accuracy.md). */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify/harness/accuracy.h"
#include "verify/harness/accuracy_inputs.h"
#include "verify/cli/cli.h"
#include "verify/cli/commands.h"
#include "verify/formats/json.h"
#include "verify/formats/npy.h"
#include "verify/harness/ref_exact.h"
#include "verify/harness/rng.h"

enum { MAX_SEEDS = 1000, MAX_THREADS = 4096, MAX_DISTS = ACC_DIST_COUNT };
/* Bytes per element held for one size: per seed the input, the exact
 * prefixes and sum|x| (8), then per algorithm its output and the pooled
 * ulps and eta (8 + 8). */
#define BYTES_PER_ELEM(es) (3 * (size_t)(es) + 24)
#define DEFAULT_SIZES "2^10,2^16,2^20"
#define DEFAULT_COND 1e8

typedef struct {
    const char *algo, *backend, *type, *dist, *n, *seeds, *seed, *input, *output, *cond, *threads;
    bool exclusive, json, help;
} options;

/* What one size and distribution needs: the inputs of every seed, their
 * exact prefixes and sums of magnitudes. */
typedef struct {
    size_t n, count;
    void **x, **exact;
    double **abs;
} input_set;

typedef struct {
    sl_type type;
    bool exclusive, json;
    int threads;
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
    bool progress;   /* stderr is a terminal: show which input is being measured */
    void *file_data; /* --input: the array read */
    size_t file_n;
} plan;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: scanlab accuracy [options]\n\n"
            "Measures float add-scans against the exact prefix sums (an exact superaccumulator,\n"
            "each prefix rounded once). Per prefix: the error in ulps of the exact rounded value,\n"
            "and eta = |error| / (u sum|x_j|), u = 2^-24 (f32) or 2^-53 (f64). Per algorithm,\n"
            "backend, distribution and size: max and median ulps, max, median and RMS eta over\n"
            "all prefixes and seeds, and the addition depth D that bounds eta (eta <= D/(1-Du) + 1).\n"
            "Exit 0 every bound held, 1 a bound was exceeded or a run failed, 2 bad usage.\n\n"
            "  --algo A[,A...]|all  scan algorithms (default: every scan that runs on the backends)\n"
            "  --backend B[,B...]   seq, omp, sim, cuda or all (default seq,omp)\n"
            "  --type T             f32 or f64 (default f32; for a .npy input, the file's type)\n"
            "  --dist D[,D...]      uniform01, uniform11, normal, lognormal, ones, illcond\n"
            "                       (default uniform01)\n"
            "  --cond C             condition number sum|x|/|sum x| for illcond (default %g)\n"
            "  --n N[,N...]         sizes, N or 2^K (default " DEFAULT_SIZES ")\n"
            "  --seeds K            inputs per size and distribution (default 3)\n"
            "  --seed S             first seed (default: SCANLAB_SEED, else 1); printed on stderr\n"
            "  --input FILE         measure on this array instead: .npy (<f4, <f8), or raw\n"
            "                       little-endian floats of --type\n"
            "  --output FILE        write the exact prefix sums of the one input as .npy\n"
            "  --exclusive          exclusive scans (default inclusive)\n"
            "  --threads T          OpenMP threads (default: the runtime's)\n"
            "  --json               one JSON document on stdout instead of the table\n"
            "  --help               this text\n",
            DEFAULT_COND);
}

static int parse_options(int argc, char **argv, options *o)
{
    enum { O_ALGO = 256, O_BACKEND, O_TYPE, O_DIST, O_COND, O_N, O_SEEDS, O_SEED, O_INPUT,
           O_OUTPUT, O_EXCL, O_THREADS, O_JSON, O_HELP };
    static const struct option opts[] = {
        {"algo", required_argument, NULL, O_ALGO},     {"backend", required_argument, NULL, O_BACKEND},
        {"type", required_argument, NULL, O_TYPE},     {"dist", required_argument, NULL, O_DIST},
        {"cond", required_argument, NULL, O_COND},     {"n", required_argument, NULL, O_N},
        {"seeds", required_argument, NULL, O_SEEDS},   {"seed", required_argument, NULL, O_SEED},
        {"input", required_argument, NULL, O_INPUT},   {"output", required_argument, NULL, O_OUTPUT},
        {"exclusive", no_argument, NULL, O_EXCL},      {"threads", required_argument, NULL, O_THREADS},
        {"json", no_argument, NULL, O_JSON},           {"help", no_argument, NULL, O_HELP},
        {NULL, 0, NULL, 0}};
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
        switch (c) {
        case O_ALGO: o->algo = optarg; break;
        case O_BACKEND: o->backend = optarg; break;
        case O_TYPE: o->type = optarg; break;
        case O_DIST: o->dist = optarg; break;
        case O_COND: o->cond = optarg; break;
        case O_N: o->n = optarg; break;
        case O_SEEDS: o->seeds = optarg; break;
        case O_SEED: o->seed = optarg; break;
        case O_INPUT: o->input = optarg; break;
        case O_OUTPUT: o->output = optarg; break;
        case O_EXCL: o->exclusive = true; break;
        case O_THREADS: o->threads = optarg; break;
        case O_JSON: o->json = true; break;
        case O_HELP: o->help = true; break;
        case ':':
            return cli_usage_error("accuracy: option '%s' needs a value", argv[optind - 1]);
        default:
            return cli_usage_error("accuracy: unknown option '%s' (valid: --algo, --backend, --type, "
                                   "--dist, --cond, --n, --seeds, --seed, --input, --output, "
                                   "--exclusive, --threads, --json, --help)",
                                   argv[optind - 1]);
        }
    }
    if (optind < argc)
        return cli_usage_error("accuracy: unexpected argument '%s'", argv[optind]);
    return CLI_EXIT_OK;
}

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
        if (verify_accuracy_parse_dist(tok, &d) != SL_OK)
            return CLI_EXIT_USAGE;
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

static int parse_backends(const char *s, plan *p)
{
    unsigned built = 0;
    for (int b = 0; b < SL_BACKEND_COUNT; b++)
        if (verify_backend_built((sl_backend)b))
            built |= 1u << b;
    if (!s) {
        p->backends = ((1u << SL_SEQ) | (1u << SL_OMP)) & built;
        return CLI_EXIT_OK;
    }
    if (verify_parse_backend_list(s, &p->backends) != SL_OK)
        return CLI_EXIT_USAGE;
    if (strcmp(s, "all") == 0)
        p->backends &= built;
    for (int b = 0; b < SL_BACKEND_COUNT; b++)
        if ((p->backends >> b & 1u) && !verify_backend_built((sl_backend)b))
            return cli_usage_error("accuracy: backend '%s' is not built in this scanlab",
                                   verify_backend_name((sl_backend)b));
    return CLI_EXIT_OK;
}

/* --input: read the array; its type must be a float type and agree with
 * --type when both say one. */
static int read_input(const options *o, plan *p)
{
    sl_type raw = o->type ? p->type : SL_TYPE_COUNT, t;
    char why[512];
    sl_status st = verify_array_read(o->input, raw, &t, &p->file_data, &p->file_n, why, sizeof why);
    if (st != SL_OK) {
        fprintf(stderr, "scanlab: accuracy: %s\n", why);
        return st == SL_ERR_NOMEM ? CLI_EXIT_FAILED : CLI_EXIT_USAGE;
    }
    if (!SL_TYPE_IS_FLOAT(t))
        return cli_usage_error("accuracy: %s holds %s elements; accuracy measures f32 and f64",
                               o->input, verify_type_name(t));
    if (o->type && t != p->type)
        return cli_usage_error("accuracy: %s holds %s elements, but --type says %s", o->input,
                               verify_type_name(t), verify_type_name(p->type));
    p->type = t;
    return CLI_EXIT_OK;
}

static int build_plan(const options *o, plan *p)
{
    int rc;
    p->type = SL_F32;
    if (o->type) {
        if (verify_parse_type(o->type, &p->type) != SL_OK)
            return CLI_EXIT_USAGE;
        if (!SL_TYPE_IS_FLOAT(p->type))
            return cli_usage_error("accuracy: type '%s' is not a float type (accuracy measures f32 "
                                   "and f64)", o->type);
    }
    p->exclusive = o->exclusive;
    p->json = o->json;
    p->progress = cli_stderr_is_tty();
    if (o->threads && cli_parse_int("--threads", o->threads, 1, MAX_THREADS, &p->threads) != SL_OK)
        return CLI_EXIT_USAGE;
    if ((rc = parse_backends(o->backend, p)) != CLI_EXIT_OK)
        return rc;
    p->algos = malloc((verify_algo_count ? verify_algo_count : 1) * sizeof *p->algos);
    if (!p->algos)
        return CLI_EXIT_FAILED;
    if ((rc = parse_algos(o->algo ? o->algo : "all", p)) != CLI_EXIT_OK)
        return rc;
    p->input = o->input;
    p->output = o->output;
    if (o->input) {
        const char *clash = o->n ? "--n" : o->dist ? "--dist" : o->seeds ? "--seeds"
                          : o->seed ? "--seed" : o->cond ? "--cond" : NULL;
        if (clash)
            return cli_usage_error("accuracy: %s does not apply to --input (the file is the input)",
                                   clash);
        return read_input(o, p);
    }
    if ((rc = parse_dists(o->dist ? o->dist : "uniform01", p)) != CLI_EXIT_OK)
        return rc;
    p->cond = DEFAULT_COND;
    if (o->cond) {
        bool illcond = false;
        for (size_t i = 0; i < p->dist_count; i++)
            illcond |= p->dists[i] == ACC_DIST_ILLCOND;
        if (!illcond)
            return cli_usage_error("accuracy: --cond applies to --dist illcond only");
        if ((rc = parse_cond(o->cond, &p->cond)) != CLI_EXIT_OK)
            return rc;
    }
    p->seeds = 3;
    if (o->seeds && cli_parse_int("--seeds", o->seeds, 1, MAX_SEEDS, &p->seeds) != SL_OK)
        return CLI_EXIT_USAGE;
    const char *env = getenv("SCANLAB_SEED");
    p->seed = 1;
    if (o->seed ? cli_parse_u64("--seed", o->seed, &p->seed) != SL_OK
                : env && *env && cli_parse_u64("SCANLAB_SEED", env, &p->seed) != SL_OK)
        return CLI_EXIT_USAGE;
    if (cli_parse_size_list("--n", o->n ? o->n : DEFAULT_SIZES, &p->sizes, &p->size_count) != SL_OK)
        return CLI_EXIT_USAGE;
    if (p->size_count == 0)
        return cli_usage_error("accuracy: --n: empty list");
    if (p->output && (p->size_count != 1 || p->dist_count != 1 || p->seeds != 1))
        return cli_usage_error("accuracy: --output writes the prefixes of one input: give one --n, "
                               "one --dist and --seeds 1 (or --input)");
    for (size_t i = 0; i < p->size_count; i++) {
        size_t n = p->sizes[i];
        if (n > SIZE_MAX / BYTES_PER_ELEM(8) / (size_t)p->seeds ||
            cli_check_memory("accuracy", n * (size_t)p->seeds, BYTES_PER_ELEM(SL_TYPE_SIZE(p->type)),
                             1) != SL_OK)
            return cli_usage_error("accuracy: --n %zu with --seeds %d does not fit in memory", n,
                                   p->seeds);
    }
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
                         .threads = p->threads};
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
    printf("%-22s %-7s %-4s %-10s %10s %10s %10s %10s %10s %10s %11s  %s\n", "algorithm", "backend",
           "type", "dist", "n", "max_ulps", "med_ulps", "max_eta", "med_eta", "rms_eta", "depth",
           "bound");
}

static void print_row(const plan *p, const result *r)
{
    printf("%-22s %-7s %-4s %-10s %10zu %10.3g %10.3g %10.3g %10.3g %10.3g %11zu  %s\n",
           r->algo->name, verify_backend_name(r->backend), verify_type_name(p->type), r->dist, r->n,
           r->stats.max_ulps, r->stats.median_ulps, r->stats.max_eta, r->stats.median_eta,
           r->stats.rms_eta, r->depth, r->within ? "ok" : "EXCEEDED");
}

static void json_row(json_writer *w, const plan *p, const result *r)
{
    json_begin_object(w, NULL);
    json_string(w, "algo", r->algo->name);
    json_string(w, "backend", verify_backend_name(r->backend));
    json_string(w, "type", verify_type_name(p->type));
    json_string(w, "dist", r->dist);
    json_uint(w, "n", r->n);
    json_double(w, "max_ulps", r->stats.max_ulps);
    json_double(w, "median_ulps", r->stats.median_ulps);
    json_double(w, "max_eta", r->stats.max_eta);
    json_double(w, "median_eta", r->stats.median_eta);
    json_double(w, "rms_eta", r->stats.rms_eta);
    json_uint(w, "depth_bound", r->depth);
    json_end_object(w);
}

/* Every algorithm x backend on one input set; returns the exit status. */
static int run_set(const plan *p, const input_set *s, const char *dist, json_writer *w)
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
                fprintf(stderr, "scanlab: accuracy: %s on %s skipped: %s\n", a->name,
                        verify_backend_name((sl_backend)b), sl_status_str(st));
                continue;
            }
            if (st != SL_OK) {
                fprintf(stderr, "scanlab: accuracy: %s on %s, n = %zu: %s\n", a->name,
                        verify_backend_name((sl_backend)b), s->n, sl_status_str(st));
                rc = CLI_EXIT_FAILED;
                continue;
            }
            if (!r.within) {
                fprintf(stderr, "scanlab: accuracy: %s on %s, %s, n = %zu: max eta %.6g exceeds "
                                "the bound of depth %zu\n", a->name,
                        verify_backend_name((sl_backend)b), dist, s->n, r.stats.max_eta, r.depth);
                rc = CLI_EXIT_FAILED;
            }
            if (p->progress)
                fputs("\r\033[K", stderr); /* clear the progress line */
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
    char why[512];
    sl_status st = verify_npy_write(p->output, p->type, s->exact[0], s->n, why, sizeof why);
    if (st != SL_OK) {
        fprintf(stderr, "scanlab: accuracy: %s\n", why);
        return CLI_EXIT_FAILED;
    }
    return CLI_EXIT_OK;
}

static int run_plan(const plan *p)
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
    size_t nsizes = p->input ? 1 : p->size_count, ndists = p->input ? 1 : p->dist_count;
    for (size_t i = 0; i < nsizes; i++)
        for (size_t j = 0; j < ndists; j++) {
            input_set s = {0};
            size_t n = p->input ? p->file_n : p->sizes[i];
            const char *dist = p->input ? "file" : verify_accuracy_dist_name(p->dists[j]);
            if (p->progress)
                fprintf(stderr, "\rscanlab: accuracy: n = %zu, %s (%zu of %zu) ", n, dist,
                        i * ndists + j + 1, nsizes * ndists);
            sl_status st = make_inputs(p, n, p->input ? ACC_DIST_COUNT : p->dists[j], &s);
            if (st != SL_OK) {
                fprintf(stderr, "scanlab: accuracy: inputs of n = %zu (%s): %s\n", n, dist,
                        sl_status_str(st));
                rc = CLI_EXIT_FAILED;
            } else {
                int r = run_set(p, &s, dist, p->json ? &w : NULL);
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
    if (p->progress)
        fputs("\r\033[K", stderr);
    if (p->json) {
        json_end_array(&w);
        json_end_object(&w);
        json_finish(&w);
    }
    return rc;
}

int cmd_accuracy(int argc, char **argv)
{
    options o = {0};
    int rc = parse_options(argc, argv, &o);
    if (rc != CLI_EXIT_OK)
        return rc;
    if (o.help) {
        usage(stdout);
        return CLI_EXIT_OK;
    }
    plan p = {0};
    rc = build_plan(&o, &p);
    if (rc == CLI_EXIT_OK) {
        if (!p.input)
            fprintf(stderr, "scanlab: accuracy: seed %" PRIu64 " (replay with --seed %" PRIu64 ")\n",
                    p.seed, p.seed);
        rc = run_plan(&p);
    }
    free(p.sizes);
    free(p.file_data);
    free(p.algos);
    return rc;
}
