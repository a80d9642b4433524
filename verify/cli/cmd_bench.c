/* scanlab bench: options, dispatch to a backend's benchmark, and the report
 * every backend prints through. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify/cli/bench.h"
#include "verify/cli/cli.h"
#include "verify/cli/commands.h"
#include "config.h"

#if SCANLAB_HAVE_OPENMP
#include <omp.h>
#endif

/* Defaults: 2^24 elements run in seconds on two cores. */
#define BENCH_DEFAULT_LOG2_N 24
/* More threads than this is a typing mistake, not a machine. */
#define BENCH_MAX_THREADS 1024
#define BENCH_MAX_REPS 1000

#ifdef SCANLAB_BENCH_SIM
#define BENCH_BACKENDS "omp, sim, cuda"
#else
#define BENCH_BACKENDS "omp, cuda"
#endif

static void usage(void)
{
    printf("usage: scanlab bench [--backend omp] [--n N] [--type T] [--op OP] [--exclusive]\n"
           "                     [--threads K] [--reps R] [--json]\n"
           "       scanlab bench --backend cuda [--algo A,...] [--n N,...] [--type T,...]\n"
           "                     [--op OP,...] [--exclusive] [--block B] [--param P] [--reps R] [--json]\n\n"
           "Measures, in one process, a parallel copy of the same bytes (the bandwidth\n"
           "ceiling), the sequential scan and each OpenMP scan; reports the median time,\n"
           "GB/s counting 2 * n * sizeof(element) bytes, and the fraction of the copy.\n"
           "With --backend cuda: a device copy, CUB's DeviceScan and each selected GPU scan\n"
           "on device buffers, timed with CUDA events (docs/performance.md).\n\n"
           "  --backend B   what to measure (valid: " BENCH_BACKENDS "; default omp)\n"
           "  --n N         elements, a number or 2^K (default 2^%d; cuda: a list, default 2^28)\n"
           "  --type T      i32, i64, f32, f64 (default i64; cuda: a list, default i32)\n"
           "  --op OP       add, max, min, affine (integers only) (default add; cuda: a list)\n"
           "  --exclusive   exclusive scans (default inclusive)\n"
           "  --threads K   OpenMP threads, 1 to %d (default: the OpenMP default)\n"
           "  --reps R      timed repetitions per algorithm after a warm-up, 1 to %d\n"
           "                (default: at least 5, more for short runs; cuda: 25)\n"
           "  --algo A,...  cuda: the scans to time (default: the device-level scans)\n"
           "  --block B     cuda: threads per block (default: each algorithm's)\n"
           "  --param P     cuda: the algorithm's own parameter (default: each algorithm's)\n"
           "  --json        {\"results\": [...]} on stdout instead of the table\n",
           BENCH_DEFAULT_LOG2_N, BENCH_MAX_THREADS, BENCH_MAX_REPS);
}

static int default_threads(void)
{
#if SCANLAB_HAVE_OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}

/* Accepts only the backends bench can measure, naming them otherwise. */
static sl_status parse_bench_backend(const char *s, sl_backend *out)
{
    if (strcmp(s, "omp") == 0) {
        *out = SL_OMP;
        return SL_OK;
    }
    if (strcmp(s, "cuda") == 0) {
        *out = SL_CUDA;
        return SL_OK;
    }
    if (strcmp(s, "sim") == 0) {
#ifdef SCANLAB_BENCH_SIM
        *out = SL_SIM;
        return SL_OK;
#else
        cli_usage_error("bench: sim benchmark not built (valid: " BENCH_BACKENDS ")");
        return SL_ERR_ARG;
#endif
    }
    cli_usage_error("bench: unknown backend '%s' (valid: " BENCH_BACKENDS ")", s);
    return SL_ERR_ARG;
}

/* getopt_long sets optopt to the option's val when its value is missing,
 * and to 0 (long) or the letter (short) when the option is unknown. */
static bool takes_value(const struct option *opts, int val)
{
    for (; opts->name; opts++)
        if (opts->val == val && opts->has_arg == required_argument)
            return true;
    return false;
}

static sl_status parse_options(int argc, char **argv, bench_options *o, bool *help)
{
    static const struct option opts[] = {
        {"backend", required_argument, NULL, 'b'}, {"n", required_argument, NULL, 'n'},
        {"type", required_argument, NULL, 't'},    {"op", required_argument, NULL, 'o'},
        {"exclusive", no_argument, NULL, 'x'},     {"threads", required_argument, NULL, 'k'},
        {"reps", required_argument, NULL, 'r'},    {"json", no_argument, NULL, 'j'},
        {"algo", required_argument, NULL, 'a'},    {"block", required_argument, NULL, 'B'},
        {"param", required_argument, NULL, 'p'},   {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    sl_status st = SL_OK;
    int c;
    optind = 1;
    opterr = 0;
    while (st == SL_OK && (c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'b': st = parse_bench_backend(optarg, &o->backend); break;
        case 'n': o->n_list = optarg; break;
        case 't': o->types = optarg; break;
        case 'o': o->ops = optarg; break;
        case 'a': o->algos = optarg; break;
        case 'B': st = cli_parse_int("--block", optarg, 1, BENCH_MAX_THREADS, &o->block); break;
        case 'p': st = cli_parse_int("--param", optarg, 0, 1 << 30, &o->param); break;
        case 'x': o->exclusive = true; break;
        case 'k': st = cli_parse_int("--threads", optarg, 1, BENCH_MAX_THREADS, &o->threads); break;
        case 'r': st = cli_parse_int("--reps", optarg, 1, BENCH_MAX_REPS, &o->reps); break;
        case 'j': o->json = true; break;
        case 'h': *help = true; return SL_OK;
        default:
            cli_usage_error("bench: %s '%s' (valid: --backend, --n, --type, --op, --exclusive, "
                            "--threads, --reps, --algo, --block, --param, --json, --help)",
                            takes_value(opts, optopt) ? "missing value for" : "unknown option",
                            argv[optind - 1]);
            return SL_ERR_ARG;
        }
    }
    if (st != SL_OK)
        return st;
    if (optind < argc) {
        cli_usage_error("bench: unexpected argument '%s'", argv[optind]);
        return SL_ERR_ARG;
    }
    if (o->backend == SL_CUDA)
        return SL_OK; /* bench_cuda parses its lists */
    if (o->algos || o->block || o->param) {
        cli_usage_error("bench: --algo, --block and --param apply to --backend cuda");
        return SL_ERR_ARG;
    }
    if ((o->n_list && (st = cli_parse_size("--n", o->n_list, &o->n)) != SL_OK) ||
        (o->types && (st = verify_parse_type(o->types, &o->type)) != SL_OK) ||
        (o->ops && (st = verify_parse_op(o->ops, &o->op)) != SL_OK))
        return st;
    if (o->n == 0) {
        cli_usage_error("--n: the benchmark needs at least 1 element");
        return SL_ERR_ARG;
    }
    if (!SL_OP_APPLIES(o->op, o->type)) {
        cli_usage_error("--op: affine applies to the integer types only (valid with %s: add, max, min)",
                        verify_type_name(o->type));
        return SL_ERR_ARG;
    }
    return SL_OK;
}

int cmd_bench(int argc, char **argv)
{
    bench_options o = {.backend = SL_OMP,
                       .n = (size_t)1 << BENCH_DEFAULT_LOG2_N,
                       .type = SL_I64,
                       .op = SL_ADD,
                       .threads = default_threads(),
                       .progress = cli_stderr_is_tty()};
    bool help = false;
    sl_status st = parse_options(argc, argv, &o, &help);
    if (st != SL_OK)
        return cli_exit_code(st);
    if (help) {
        usage();
        return CLI_EXIT_OK;
    }
#ifdef SCANLAB_BENCH_SIM
    if (o.backend == SL_SIM)
        return bench_sim(&o);
#endif
    if (o.backend == SL_CUDA)
        return bench_cuda(&o);
    return bench_omp(&o);
}
