/* scanlab verify: the command line of the differential harness. Parses and
 * validates the selection, then hands a plan to verify_run_plan. */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "verify/cli/cli.h"
#include "verify/cli/commands.h"
#include "verify/cli/verify_plan.h"
#include "verify/formats/npy.h"
#include "verify/harness/rng.h"
#include "verify/harness/sizes.h"

/* Limits of --jobs and --repeat. */
enum { MAX_JOBS = 256, MAX_REPEAT = 1000 };
/* Buffers of at most 8 bytes per element that one case holds at once:
 * input and its copy, reference, poison, first run, output, abs_prefix,
 * depth. */
enum { CASE_COPIES = 8 };

typedef struct {
    const char *algo, *backend, *type, *op, *sizes, *max_n, *dist, *seed, *jobs, *repeat;
    const char *input, *output;
    bool exclusive, both, json, help, allow_races;
} options;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: scanlab verify [options]\n\n"
            "Runs every selected algorithm x backend x type x operator x kind x size x input\n"
            "distribution and compares it with the reference: integers and float max/min bit for\n"
            "bit with the sequential scan; float add with the exact (MPFR) prefix, within\n"
            "|got - exact| <= D u sum|x_j| + half an ulp, D the algorithm's addition depth.\n"
            "One line per (algorithm, backend, type, operator, kind); exit 0 all passed (skips\n"
            "included), 1 a check failed, 2 bad usage.\n\n"
            "  --algo A[,A...]|all    algorithms (default all; 'scanlab list' names them)\n"
            "  --backend B[,B...]|all seq, omp, sim, cuda (default: every backend built)\n"
            "  --type T[,T...]|all    i32, i64, f32, f64 (default all)\n"
            "  --op OP[,OP...]|all    add, max, min, affine (default all; affine is integers only)\n"
            "  --exclusive            exclusive scans only (default: inclusive only)\n"
            "  --both                 inclusive and exclusive scans\n"
            "  --sizes N[,N...]       the sizes to check (N or 2^K), replacing the default set:\n"
            "                         0-3, 31-33, 1023-1025, 1000, 2^k and 2^k+-1 up to --max-n,\n"
            "                         and %d random sizes from the seed\n"
            "  --max-n N              largest size of the default set (default %zu)\n"
            "  --dist D[,D...]|all    input distributions: uniform (full range), small ([-100,100])\n"
            "                         for integers; uniform01, uniform11, normal, lognormal, ones,\n"
            "                         illcond for floats (default uniform and uniform11)\n"
            "  --seed S               seed of every random input and size (default: from the\n"
            "                         environment variable SCANLAB_SEED, else the clock); printed\n"
            "                         on stderr so any run can be replayed\n"
            "  --jobs J               cases run at once (default 1; simulator and GPU cases still\n"
            "                         run one at a time)\n"
            "  --repeat K             run each case K times and report whether the results were\n"
            "                         bitwise identical run to run (default 1); 'cub' (CUB's\n"
            "                         DeviceScan, GPU builds) is the baseline to compare with\n"
            "  --input FILE           check on this array instead of generated inputs: a .npy\n"
            "                         file (1-D, C order, <i4 <i8 <f4 <f8; its type is the type)\n"
            "                         or raw little-endian elements of the one type --type names\n"
            "  --output FILE          with --input: write the output of the one case selected\n"
            "                         (one algorithm, backend and operator, one kind; a scan or\n"
            "                         a reduction) as .npy, as computed by the first run, whether\n"
            "                         or not it passed; never a partial file\n"
            "  --json                 one JSON document on stdout instead of the table\n"
            "  --help                 this text\n\n"
            "A failure prints the first differing index, the expected and actual values, the seed\n"
            "and a command that replays exactly that case.\n",
            VERIFY_RANDOM_SIZES, (size_t)VERIFY_DEFAULT_MAX_N);
}

static int parse_options(int argc, char **argv, options *o)
{
    enum { O_ALGO = 256, O_BACKEND, O_TYPE, O_OP, O_EXCL, O_BOTH, O_SIZES, O_MAXN, O_DIST, O_SEED,
           O_JOBS, O_REPEAT, O_JSON, O_HELP, O_INPUT, O_OUTPUT, O_ALLOW_RACES };
    static const struct option opts[] = {
        {"algo", required_argument, NULL, O_ALGO},     {"backend", required_argument, NULL, O_BACKEND},
        {"type", required_argument, NULL, O_TYPE},     {"op", required_argument, NULL, O_OP},
        {"exclusive", no_argument, NULL, O_EXCL},      {"both", no_argument, NULL, O_BOTH},
        {"sizes", required_argument, NULL, O_SIZES},   {"max-n", required_argument, NULL, O_MAXN},
        {"dist", required_argument, NULL, O_DIST},     {"seed", required_argument, NULL, O_SEED},
        {"jobs", required_argument, NULL, O_JOBS},     {"repeat", required_argument, NULL, O_REPEAT},
        {"json", no_argument, NULL, O_JSON},           {"help", no_argument, NULL, O_HELP},
        {"input", required_argument, NULL, O_INPUT},   {"output", required_argument, NULL, O_OUTPUT},
        {"allow-races", no_argument, NULL, O_ALLOW_RACES},
        {NULL, 0, NULL, 0}};
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
        switch (c) {
        case O_ALGO: o->algo = optarg; break;
        case O_BACKEND: o->backend = optarg; break;
        case O_TYPE: o->type = optarg; break;
        case O_OP: o->op = optarg; break;
        case O_EXCL: o->exclusive = true; break;
        case O_BOTH: o->both = true; break;
        case O_SIZES: o->sizes = optarg; break;
        case O_MAXN: o->max_n = optarg; break;
        case O_DIST: o->dist = optarg; break;
        case O_SEED: o->seed = optarg; break;
        case O_JOBS: o->jobs = optarg; break;
        case O_REPEAT: o->repeat = optarg; break;
        case O_JSON: o->json = true; break;
        case O_HELP: o->help = true; break;
        case O_INPUT: o->input = optarg; break;
        case O_OUTPUT: o->output = optarg; break;
        case O_ALLOW_RACES: o->allow_races = true; break;
        case ':':
            return cli_usage_error("verify: option '%s' needs a value", argv[optind - 1]);
        default:
            return cli_usage_error("verify: unknown option '%s' (valid: --algo, --backend, --type, "
                                   "--op, --exclusive, --both, --sizes, --max-n, --dist, --seed, "
                                   "--jobs, --repeat, --input, --output, --json, --help)",
                                   argv[optind - 1]);
        }
    }
    if (optind < argc)
        return cli_usage_error("verify: unexpected argument '%s'", argv[optind]);
    if (o->exclusive && o->both)
        return cli_usage_error("verify: --exclusive and --both exclude each other");
    if (o->output && !o->input)
        return cli_usage_error("verify: --output writes the scan of the --input file: give --input");
    if (o->input) {
        const char *clash = o->sizes ? "--sizes" : o->max_n ? "--max-n" : o->dist ? "--dist"
                          : o->seed ? "--seed" : NULL;
        if (clash)
            return cli_usage_error("verify: %s does not apply to --input (the file is the input)",
                                   clash);
    }
    return CLI_EXIT_OK;
}

static const verify_algo *find_algo(const verify_algo *algos, size_t count, const char *name,
                                    size_t len)
{
    for (size_t i = 0; i < count; i++)
        if (strlen(algos[i].name) == len && strncmp(algos[i].name, name, len) == 0)
            return &algos[i];
    return NULL;
}

/* The selected algorithms, in the order given (table order for all). */
static int parse_algos(const char *s, const verify_algo *algos, size_t count,
                       const verify_algo **sel, size_t *nsel)
{
    *nsel = 0;
    if (strcmp(s, "all") == 0) {
        for (size_t i = 0; i < count; i++)
            sel[(*nsel)++] = &algos[i];
        return CLI_EXIT_OK;
    }
    for (const char *p = s; *p;) {
        size_t len = strcspn(p, ",");
        const verify_algo *a = find_algo(algos, count, p, len);
        if (!a) {
            fprintf(stderr, "scanlab: verify: unknown algorithm '%.*s' (valid: all", (int)len, p);
            for (size_t i = 0; i < count; i++)
                fprintf(stderr, ", %s", algos[i].name);
            fprintf(stderr, ")\n");
            return CLI_EXIT_USAGE;
        }
        bool dup = false;
        for (size_t i = 0; i < *nsel; i++)
            dup |= sel[i] == a;
        if (!dup)
            sel[(*nsel)++] = a;
        p += len;
        if (*p == ',')
            p++;
    }
    if (*nsel == 0)
        return cli_usage_error("verify: --algo: empty list");
    return CLI_EXIT_OK;
}

static unsigned built_backends(void)
{
    unsigned m = 0;
    for (int b = 0; b < SL_BACKEND_COUNT; b++)
        if (verify_backend_built((sl_backend)b))
            m |= 1u << b;
    return m;
}

/* The explicit combinations that can never run are usage errors; the same
 * combinations reached through "all" are left out silently. */
static int check_selection(const options *o, const verify_plan *p)
{
    for (int b = 0; b < SL_BACKEND_COUNT; b++)
        if ((p->backends >> b & 1u) && !verify_backend_built((sl_backend)b))
            return cli_usage_error("verify: backend '%s' is not built in this scanlab",
                                   verify_backend_name((sl_backend)b));
    bool type_explicit = (o->type && strcmp(o->type, "all") != 0) || o->input;
    bool op_explicit = o->op && strcmp(o->op, "all") != 0;
    bool dist_explicit = o->dist && strcmp(o->dist, "all") != 0;
    for (int t = 0; t < SL_TYPE_COUNT; t++)
        for (int op = 0; op < SL_OP_COUNT; op++)
            if (type_explicit && op_explicit && (p->types >> t & 1u) && (p->ops >> op & 1u) &&
                !SL_OP_APPLIES(op, t))
                return cli_usage_error("verify: operator '%s' does not apply to type '%s' (%s is "
                                       "defined on i32 and i64 only)",
                                       verify_op_name((sl_op)op), verify_type_name((sl_type)t),
                                       verify_op_name((sl_op)op));
    for (int d = 0; d < VERIFY_DIST_COUNT && dist_explicit; d++) {
        bool used = false;
        for (int t = 0; t < SL_TYPE_COUNT; t++)
            used |= (p->types >> t & 1u) && verify_dist_applies((verify_dist)d, (sl_type)t);
        if ((p->dists >> d & 1u) && !used)
            return cli_usage_error("verify: distribution '%s' makes none of the selected types "
                                   "(uniform, small: integers; the others: floats)",
                                   verify_dist_name((verify_dist)d));
    }
    for (int t = 0; t < SL_TYPE_COUNT && type_explicit && dist_explicit; t++) {
        bool any = false;
        for (int d = 0; d < VERIFY_DIST_COUNT; d++)
            any |= (p->dists >> d & 1u) && verify_dist_applies((verify_dist)d, (sl_type)t);
        if ((p->types >> t & 1u) && !any)
            return cli_usage_error("verify: no selected distribution makes type '%s' (%s)",
                                   verify_type_name((sl_type)t),
                                   SL_TYPE_IS_FLOAT(t) ? "uniform01, uniform11, normal, "
                                                         "lognormal, ones, illcond"
                                                       : "uniform, small");
    }
    for (size_t i = 0; i < p->algo_count && o->algo && strcmp(o->algo, "all") != 0; i++) {
        bool any = false;
        for (int b = 0; b < SL_BACKEND_COUNT; b++)
            any |= (p->backends >> b & 1u) && verify_algo_runs_on(p->algos[i], (sl_backend)b);
        if (!any) {
            fprintf(stderr, "scanlab: verify: algorithm '%s' runs on none of the selected backends "
                            "(it runs on:", p->algos[i]->name);
            for (int b = 0; b < SL_BACKEND_COUNT; b++)
                if (verify_algo_runs_on(p->algos[i], (sl_backend)b))
                    fprintf(stderr, " %s", verify_backend_name((sl_backend)b));
            fprintf(stderr, ")\n");
            return CLI_EXIT_USAGE;
        }
    }
    return CLI_EXIT_OK;
}

/* --input: read the file; its type becomes the one type of the plan, and
 * an explicit --type must name that type (a raw file needs it). */
static int read_input(const options *o, verify_plan *p, void **data, size_t *n)
{
    sl_type raw = SL_TYPE_COUNT, t = SL_TYPE_COUNT;
    if (o->type) {
        if (strchr(o->type, ',') || strcmp(o->type, "all") == 0)
            return cli_usage_error("verify: with --input, --type names the one type of the file, "
                                   "not '%s'", o->type);
        if (verify_parse_type(o->type, &raw) != SL_OK)
            return CLI_EXIT_USAGE;
    }
    char why[512];
    sl_status st = verify_array_read(o->input, raw, &t, data, n, why, sizeof why);
    if (st != SL_OK) {
        fprintf(stderr, "scanlab: verify: %s\n", why);
        return st == SL_ERR_NOMEM ? CLI_EXIT_FAILED : CLI_EXIT_USAGE;
    }
    if (o->type && t != raw)
        return cli_usage_error("verify: %s holds %s elements, but --type says %s", o->input,
                               verify_type_name(t), verify_type_name(raw));
    p->types = 1u << t;
    p->data = *data;
    p->input = o->input;
    return CLI_EXIT_OK;
}

/* --output keeps the output of one case, so the selection must expand to
 * exactly one line, a scan or a reduction; *len gets its output length. */
static int check_output(const verify_plan *p, size_t n, size_t *len)
{
    size_t lines = 0;
    const verify_algo *last = NULL;
    for (size_t i = 0; i < p->algo_count; i++)
        for (int b = 0; b < SL_BACKEND_COUNT; b++) {
            const verify_algo *a = p->algos[i];
            if (!(p->backends >> b & 1u) || !verify_algo_runs_on(a, (sl_backend)b))
                continue;
            for (int t = 0; t < SL_TYPE_COUNT; t++)
                for (int op = 0; op < SL_OP_COUNT; op++) {
                    if (!(p->types >> t & 1u) || !(p->ops >> op & 1u) || !SL_OP_APPLIES(op, t) ||
                        (SL_KIND_IS_APP(a->kind) && op != SL_ADD))
                        continue;
                    lines += a->kind == SL_KIND_SCAN ? (size_t)p->inclusive + p->exclusive : 1;
                    last = a;
                }
        }
    if (lines != 1)
        return cli_usage_error("verify: --output writes the output of one case, and this selection "
                               "has %zu: give one --algo, one --backend, one --op, and not --both",
                               lines);
    if (SL_KIND_IS_APP(last->kind))
        return cli_usage_error("verify: --output writes scans and reductions; '%s' is an "
                               "application", last->name);
    *len = last->kind == SL_KIND_REDUCE ? 1 : n;
    return CLI_EXIT_OK;
}

/* Write what the one case computed; exit status 1 when it did not run. */
static int write_output(const options *o, const verify_plan *p, const void *keep, bool kept,
                        size_t len)
{
    char why[512];
    if (!kept) {
        fprintf(stderr, "scanlab: verify: %s not written: the case did not run (see its line)\n",
                o->output);
        return CLI_EXIT_FAILED;
    }
    sl_type t = SL_TYPE_COUNT;
    for (int k = 0; k < SL_TYPE_COUNT; k++)
        if (p->types >> k & 1u)
            t = (sl_type)k;
    if (verify_npy_write(o->output, t, keep, len, why, sizeof why) != SL_OK) {
        fprintf(stderr, "scanlab: verify: %s\n", why);
        return CLI_EXIT_FAILED;
    }
    return CLI_EXIT_OK;
}

static uint64_t clock_seed(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return verify_derive_seed((uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec,
                              (uint64_t)getpid());
}

static int pick_seed(const options *o, uint64_t *seed)
{
    const char *env = getenv("SCANLAB_SEED");
    if (o->seed)
        return cli_parse_u64("--seed", o->seed, seed) == SL_OK ? CLI_EXIT_OK : CLI_EXIT_USAGE;
    if (env && *env)
        return cli_parse_u64("SCANLAB_SEED", env, seed) == SL_OK ? CLI_EXIT_OK : CLI_EXIT_USAGE;
    *seed = clock_seed();
    return CLI_EXIT_OK;
}

/* --jobs, --repeat and the sizes: with --input the file's one size n. */
static int parse_numbers(const options *o, verify_plan *p, size_t n, size_t **sizes)
{
    p->jobs = 1;
    p->repeat = 1;
    if (o->jobs && cli_parse_int("--jobs", o->jobs, 1, MAX_JOBS, &p->jobs) != SL_OK)
        return CLI_EXIT_USAGE;
    if (o->repeat && cli_parse_int("--repeat", o->repeat, 1, MAX_REPEAT, &p->repeat) != SL_OK)
        return CLI_EXIT_USAGE;
    size_t max_n = VERIFY_DEFAULT_MAX_N, count = 0;
    if (o->max_n && cli_parse_size("--max-n", o->max_n, &max_n) != SL_OK)
        return CLI_EXIT_USAGE;
    sl_status st = SL_OK;
    if (o->input) {
        *sizes = malloc(sizeof **sizes);
        st = *sizes ? SL_OK : SL_ERR_NOMEM;
        if (*sizes)
            (*sizes)[count++] = n;
    } else {
        st = o->sizes ? cli_parse_size_list("--sizes", o->sizes, sizes, &count)
                      : verify_default_sizes(max_n, p->seed, sizes, &count);
    }
    if (st != SL_OK)
        return cli_exit_code(st);
    count = verify_sort_sizes(*sizes, count);
    p->sizes = *sizes;
    p->size_count = count;
    size_t largest = count ? (*sizes)[count - 1] : 0;
    /* Buffers hold elements of the widest selected type (pack's 8-byte
     * records included), so 4-byte types alone need half the memory. */
    size_t elem = 4;
    for (int t = 0; t < SL_TYPE_COUNT; t++)
        if ((p->types >> t & 1u) && SL_TYPE_SIZE(t) > elem)
            elem = SL_TYPE_SIZE(t);
    /* the file's data is one more copy */
    unsigned copies = CASE_COPIES * (unsigned)p->jobs + (o->input ? 1u : 0u);
    if (cli_check_memory("verify", largest + 2 * VERIFY_GUARD_ELEMS, elem, copies) != SL_OK)
        return CLI_EXIT_USAGE;
    return CLI_EXIT_OK;
}

int verify_main(int argc, char **argv, const verify_algo *algos, size_t count, FILE *out)
{
    options o = {0};
    int rc = parse_options(argc, argv, &o);
    if (rc != CLI_EXIT_OK)
        return rc;
    if (o.help) {
        usage(out);
        return CLI_EXIT_OK;
    }
    verify_plan p = {.inclusive = !o.exclusive, .exclusive = o.exclusive || o.both, .json = o.json,
                     .allow_races = o.allow_races};
    const verify_algo **sel = malloc((count ? count : 1) * sizeof *sel);
    size_t *sizes = NULL;
    if (!sel)
        return CLI_EXIT_FAILED;
    p.algos = sel;
    rc = parse_algos(o.algo ? o.algo : "all", algos, count, sel, &p.algo_count);
    p.backends = built_backends();
    if (rc == CLI_EXIT_OK && o.backend && verify_parse_backend_list(o.backend, &p.backends) != SL_OK)
        rc = CLI_EXIT_USAGE;
    if (o.backend && strcmp(o.backend, "all") == 0)
        p.backends &= built_backends();
    p.types = p.ops = ~0u;
    if (rc == CLI_EXIT_OK && o.type && verify_parse_type_list(o.type, &p.types) != SL_OK)
        rc = CLI_EXIT_USAGE;
    if (rc == CLI_EXIT_OK && o.op && verify_parse_op_list(o.op, &p.ops) != SL_OK)
        rc = CLI_EXIT_USAGE;
    if (rc == CLI_EXIT_OK && o.dist && verify_parse_dist_list(o.dist, &p.dists) != SL_OK)
        rc = CLI_EXIT_USAGE;
    void *data = NULL, *keep = NULL;
    size_t n = 0, out_len = 0;
    bool kept = false;
    if (rc == CLI_EXIT_OK && o.input)
        rc = read_input(&o, &p, &data, &n);
    if (rc == CLI_EXIT_OK)
        rc = check_selection(&o, &p);
    if (rc == CLI_EXIT_OK && o.output && (rc = check_output(&p, n, &out_len)) == CLI_EXIT_OK) {
        keep = malloc(out_len ? out_len * SL_TYPE_SIZE(SL_I64) : 1);
        rc = keep ? CLI_EXIT_OK : CLI_EXIT_FAILED;
        p.keep = keep;
        p.kept = &kept;
    }
    if (rc == CLI_EXIT_OK)
        rc = pick_seed(&o, &p.seed);
    if (rc == CLI_EXIT_OK)
        rc = parse_numbers(&o, &p, n, &sizes);
    if (rc == CLI_EXIT_OK) {
        if (o.input)
            fprintf(stderr, "scanlab: verify: input %s (%zu elements)\n", o.input, n);
        else
            fprintf(stderr, "scanlab: verify: seed %" PRIu64 " (replay with --seed %" PRIu64 ")\n",
                    p.seed, p.seed);
        rc = verify_run_plan(&p, out);
        if (o.output && rc != CLI_EXIT_USAGE) {
            int wrc = write_output(&o, &p, keep, kept, out_len);
            if (wrc != CLI_EXIT_OK)
                rc = wrc;
        }
    }
    free(keep);
    free(data);
    free(sizes);
    free(sel);
    return rc;
}

int cmd_verify(int argc, char **argv)
{
    return verify_main(argc, argv, verify_algos, verify_algo_count, stdout);
}
