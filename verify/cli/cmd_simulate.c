/* scanlab simulate: run one GPU algorithm in the step-level simulator,
 * check its result against the sequential reference, print the counts. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify/cli/simulate.h"
#include "verify/harness/algos.h"
#include "verify/harness/app_ref.h"
#include "verify/cli/cli.h"
#include "verify/cli/commands.h"
#include "cpu/cpu.h"
#include "verify/harness/inputs.h"
#include "verify/formats/json.h"
#include "model/model.h"

#define SIM_DEFAULT_N 4096
#define SIM_DEFAULT_SEED 1

static void usage(void)
{
    printf("usage: scanlab simulate --algo A [--n N] [--block B] [--param P] [--type T] [--op OP] [--exclusive]\n"
           "                        [--seed S] [--slots K] [--order in|reversed|random]\n"
           "                        [--shared-limit BYTES] [--json]\n\n"
           "Runs algorithm A (one with backend sim, see 'scanlab list') on N elements in the\n"
           "step-level simulator, checks the result against the sequential scan, and prints\n"
           "work, steps, barriers, shared-memory wavefronts and bank conflicts, global\n"
           "sectors, divergence, races and the worst call sites (docs/metrics.md).\n\n"
           "  --n N             elements (default %d; 2^K accepted)\n"
           "  --block B         threads per block (default: the algorithm's)\n"
           "  --param P         the algorithm's own parameter: radix, reduce passes, coarsening,\n"
           "                    block count, digit bits (docs/algorithms.md; default 0: its default)\n"
           "  --type T          i32 (default), i64, f32, f64\n"
           "  --op OP           add (default), max, min, affine\n"
           "  --exclusive       exclusive scan\n"
           "  --seed S          input seed (default %d)\n"
           "  --slots K         resident blocks at once (default %d)\n"
           "  --order O         block dispatch order: in (default), reversed, random (with --seed)\n"
           "  --shared-limit B  shared memory per block (default 49152, at most 232448)\n"
           "  --allow-races     a race alone does not fail the run (other findings still do)\n"
           "  --json            one JSON document on stdout\n\n"
           "Every finding of the simulator (a race, barrier divergence, an out-of-bounds or\n"
           "misaligned access, a deadlock, an undefined warp operation) is printed on stderr as\n"
           "'path:line: error: message' and fails the run.\n"
           "Exit status: 0 correct and no finding, 1 wrong result or a finding, 2 bad usage.\n",
           SIM_DEFAULT_N, SIM_DEFAULT_SEED, MODEL_DEFAULT_SLOTS);
}

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

static void print_json(const sl_scan_args *a, const char *algo, const model_stats *s, size_t bad,
                       sl_status st, uint64_t found)
{
    json_writer w;
    json_init(&w, stdout);
    json_begin_object(&w, NULL);
    json_string(&w, "algo", algo);
    json_uint(&w, "n", a->n);
    json_string(&w, "type", verify_type_name(a->type));
    json_string(&w, "op", verify_op_name(a->op));
    json_bool(&w, "exclusive", a->exclusive);
    json_bool(&w, "correct", st == SL_OK && bad == 0);
    json_bool(&w, "passed", st == SL_OK && bad == 0 && found == 0);
    json_uint(&w, "wrong_elements", bad);
    json_string(&w, "status", sl_status_str(st));
    json_uint(&w, "work", s->work);
    json_uint(&w, "steps", s->steps);
    json_uint(&w, "barriers", s->barriers);
    json_uint(&w, "launches", s->launches);
    json_uint(&w, "blocks", s->blocks);
    json_uint(&w, "shared_accesses", s->shared_accesses);
    json_uint(&w, "shared_wavefronts", s->shared_wavefronts);
    json_uint(&w, "bank_conflicts", s->bank_conflicts);
    json_uint(&w, "global_load_elements", s->global_load_elems);
    json_uint(&w, "global_store_elements", s->global_store_elems);
    json_uint(&w, "global_load_sectors", s->global_load_sectors);
    json_uint(&w, "global_store_sectors", s->global_store_sectors);
    json_uint(&w, "warp_issues", s->warp_issues);
    json_uint(&w, "divergent_issues", s->divergent_issues);
    json_uint(&w, "divergent_branches", s->divergent_branches);
    json_uint(&w, "races", s->races);
    json_uint(&w, "barrier_divergence", s->barrier_divergence);
    json_uint(&w, "deadlocks", s->deadlocks);
    json_begin_array(&w, "launch_list");
    for (size_t i = 0; i < s->nlaunch_records; i++) {
        const model_launch_stats *l = &s->launch[i];
        json_begin_object(&w, NULL);
        json_string(&w, "kernel", l->name);
        json_uint(&w, "blocks", l->blocks);
        json_uint(&w, "threads_per_block", l->threads_per_block);
        json_uint(&w, "work", l->work);
        json_uint(&w, "steps", l->steps);
        json_uint(&w, "barriers", l->barriers);
        json_end_object(&w);
    }
    json_end_array(&w);
    json_begin_array(&w, "sites");
    for (size_t i = 0; i < s->nsites; i++) {
        const model_site_stats *x = &s->sites[i];
        if (!x->site)
            continue;
        json_begin_object(&w, NULL);
        json_string(&w, "file", x->site->file);
        json_int(&w, "line", x->site->line);
        json_string(&w, "what", x->site->what);
        json_uint(&w, "warp_issues", x->issues);
        json_uint(&w, "divergent_issues", x->divergent_issues);
        json_uint(&w, "shared_accesses", x->shared_accesses);
        json_uint(&w, "shared_wavefronts", x->shared_wavefronts);
        json_uint(&w, "bank_conflicts", x->bank_conflicts);
        json_uint(&w, "worst_degree", x->worst_degree);
        json_uint(&w, "global_accesses", x->global_accesses);
        json_uint(&w, "global_sectors", x->global_sectors);
        json_end_object(&w);
    }
    json_end_array(&w);
    json_begin_array(&w, "race_reports");
    for (uint64_t i = 0; i < s->races && i < MODEL_MAX_REPORTS; i++)
        json_string(&w, NULL, s->race[i].text);
    json_end_array(&w);
    json_uint(&w, "findings", found);
    json_begin_array(&w, "finding_list");
    for (uint64_t i = 0; i < s->races && i < MODEL_MAX_REPORTS; i++)
        json_finding(&w, &s->race[i]);
    if (s->has_error)
        json_finding(&w, &s->error);
    json_end_array(&w);
    if (s->has_error)
        json_string(&w, "error", s->error.text);
    else
        json_null(&w, "error");
    json_end_object(&w);
    json_finish(&w);
}

int simulate_main(int argc, char **argv, const verify_algo *algos, size_t count)
{
    static const struct option opts[] = {
        {"algo", required_argument, NULL, 'a'},  {"n", required_argument, NULL, 'n'},
        {"block", required_argument, NULL, 'b'}, {"type", required_argument, NULL, 't'},
        {"op", required_argument, NULL, 'o'},    {"exclusive", no_argument, NULL, 'x'},
        {"seed", required_argument, NULL, 's'},  {"slots", required_argument, NULL, 'k'},
        {"order", required_argument, NULL, 'r'}, {"shared-limit", required_argument, NULL, 'l'},
        {"json", no_argument, NULL, 'j'},        {"help", no_argument, NULL, 'h'},
        {"param", required_argument, NULL, 'p'}, {"allow-races", no_argument, NULL, 'R'},
        {NULL, 0, NULL, 0}};
    const char *algo = NULL;
    size_t n = SIM_DEFAULT_N, limit = MODEL_DEFAULT_SHARED_LIMIT;
    int block = 0, param = 0, slots = MODEL_DEFAULT_SLOTS;
    sl_type type = SL_I32;
    sl_op op = SL_ADD;
    bool exclusive = false, json = false, allow_races = false;
    uint64_t seed = SIM_DEFAULT_SEED;
    model_order order = MODEL_ORDER_IN;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        sl_status st = SL_OK;
        switch (c) {
        case 'a':
            algo = optarg;
            break;
        case 'n':
            st = cli_parse_size("--n", optarg, &n);
            break;
        case 'b':
            st = cli_parse_int("--block", optarg, 1, 1 << 20, &block);
            break;
        case 'p':
            st = cli_parse_int("--param", optarg, 0, 1 << 20, &param);
            break;
        case 't':
            st = verify_parse_type(optarg, &type);
            break;
        case 'o':
            st = verify_parse_op(optarg, &op);
            break;
        case 'x':
            exclusive = true;
            break;
        case 's':
            st = cli_parse_u64("--seed", optarg, &seed);
            break;
        case 'k':
            st = cli_parse_int("--slots", optarg, 1, 1 << 16, &slots);
            break;
        case 'r':
            if (strcmp(optarg, "in") == 0)
                order = MODEL_ORDER_IN;
            else if (strcmp(optarg, "reversed") == 0)
                order = MODEL_ORDER_REVERSED;
            else if (strcmp(optarg, "random") == 0)
                order = MODEL_ORDER_RANDOM;
            else
                return cli_usage_error("simulate: unknown --order '%s' (valid: in, reversed, random)", optarg);
            break;
        case 'l':
            st = cli_parse_size("--shared-limit", optarg, &limit);
            if (st == SL_OK && (limit == 0 || limit > MODEL_MAX_SHARED_LIMIT))
                return cli_usage_error("simulate: --shared-limit must be 1..%zu bytes", MODEL_MAX_SHARED_LIMIT);
            break;
        case 'j':
            json = true;
            break;
        case 'R':
            allow_races = true;
            break;
        case 'h':
            usage();
            return CLI_EXIT_OK;
        default:
            return cli_usage_error("simulate: unknown option '%s' (see scanlab simulate --help)", argv[optind - 1]);
        }
        if (st != SL_OK)
            return CLI_EXIT_USAGE;
    }
    if (optind < argc)
        return cli_usage_error("simulate: unexpected argument '%s'", argv[optind]);
    if (!algo)
        return cli_usage_error("simulate: --algo is required (see scanlab list)");
    const verify_algo *al = NULL;
    for (size_t i = 0; i < count && !al; i++)
        if (strcmp(algos[i].name, algo) == 0)
            al = &algos[i];
    if (!al) {
        fprintf(stderr, "scanlab: simulate: unknown algorithm '%s' (valid:", algo);
        for (size_t i = 0; i < count; i++)
            if (algos[i].run[SL_SIM])
                fprintf(stderr, " %s", algos[i].name);
        fprintf(stderr, ")\n");
        return CLI_EXIT_USAGE;
    }
    if (!al->run[SL_SIM])
        return cli_usage_error("simulate: '%s' has no sim backend (see scanlab list)", algo);
    if (!SL_OP_APPLIES(op, type))
        return cli_usage_error("simulate: operator %s does not apply to %s", verify_op_name(op), verify_type_name(type));
    if (cli_check_memory("simulate", n, SL_TYPE_SIZE(type), 3) != SL_OK)
        return CLI_EXIT_USAGE;

    const size_t es = SL_TYPE_SIZE(type), out_count = al->kind == SL_KIND_SCAN ? n : 1;
    /* applications: a count, then elements (cuda/apps/app_defs.h) */
    const bool app = SL_KIND_IS_APP(al->kind);
    const size_t app_bytes = app ? verify_app_out_bytes(al->kind, type, n, param) : 0;
    if (app && (app_bytes == 0 || op != SL_ADD))
        return cli_usage_error("simulate: '%s' runs with --op add only, on n it can size", algo);
    const size_t out_bytes = app ? app_bytes : out_count * es + 1;
    void *in = malloc(n ? n * es : 1), *out = malloc(out_bytes), *ref = calloc(1, out_bytes);
    if (!in || !out || !ref) {
        free(in);
        free(out);
        free(ref);
        fprintf(stderr, "scanlab: simulate: out of memory\n");
        return CLI_EXIT_FAILED;
    }
    sl_status st = verify_fill_input(type, op, verify_default_dist(type), seed, n, in);
    if (st == SL_OK)
        st = app ? verify_app_reference(al->kind, type, in, n, param, ref)
             : al->kind == SL_KIND_SCAN ? cpu_scan_seq(type, op, exclusive, in, ref, n)
                                        : cpu_reduce_seq(type, op, in, n, ref);
    model_stats s;
    model_stats_init(&s);
    s.cfg.slots = (unsigned)slots;
    s.cfg.order = order;
    s.cfg.seed = seed;
    s.cfg.shared_limit = limit;
    sl_scan_args a = {.type = type, .op = op, .exclusive = exclusive, .in = in, .out = out, .n = n,
                      .block = block, .param = param, .sim = &s};
    if (st == SL_OK)
        st = al->run[SL_SIM](&a);
    size_t bad = 0, first_bad = 0;
    if (st == SL_OK && app)
        bad = verify_app_mismatches(al->kind, type, n, param, ref, out, &first_bad);
    else if (st == SL_OK)
        bad = check_result(&a, al, ref, out_count, &first_bad);
    /* the host driver refused its parameters before launching anything */
    const bool refused = st == SL_ERR_ARG && !s.has_error;
    /* what the simulator found fails the run like a wrong value */
    const uint64_t found = refused || (st == SL_ERR_ARG && s.error.kind == MODEL_FIND_LIMIT)
                               ? 0
                               : model_findings(&s, allow_races);
    if (refused) {
        /* no counts to show: the message below says why */
    } else if (json) {
        print_json(&a, algo, &s, bad, st, found);
    } else {
        printf("%s on sim: n = %zu, %s, %s, %s\n", algo, n, verify_type_name(type), verify_op_name(op),
               exclusive ? "exclusive" : "inclusive");
        model_print(stdout, &s);
        printf("\nresult: %s%s\n", st != SL_OK ? "not produced" : bad ? "WRONG" : "correct",
               found && st == SL_OK ? ", but the simulator found errors (see stderr)" : "");
    }
    if (found)
        model_print_findings(stderr, &s);
    else if (s.races && allow_races)
        fprintf(stderr, "scanlab: simulate: %llu races allowed by --allow-races\n",
                (unsigned long long)s.races);
    if (refused)
        fprintf(stderr,
                "scanlab: simulate: %s refused block size %d, param %d (a block has at most %d "
                "threads; tree scans need a power of two; docs/algorithms.md lists each "
                "algorithm's block sizes and parameter range)\n",
                algo, block, param, MODEL_MAX_BLOCK_THREADS);
    else if (st != SL_OK && !found)
        fprintf(stderr, "scanlab: simulate: %s%s%s\n", sl_status_str(st), s.has_error ? ": " : "",
                s.has_error ? s.error.text : "");
    else if (bad)
        fprintf(stderr, "scanlab: simulate: %zu wrong elements, the first at index %zu (seed %llu)\n", bad,
                first_bad, (unsigned long long)seed);
    model_stats_free(&s);
    free(in);
    free(out);
    free(ref);
    if (st == SL_ERR_ARG)
        return CLI_EXIT_USAGE;
    return st == SL_OK && bad == 0 && found == 0 ? CLI_EXIT_OK : CLI_EXIT_FAILED;
}

int cmd_simulate(int argc, char **argv) { return simulate_main(argc, argv, verify_algos, verify_algo_count); }
