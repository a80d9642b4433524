/* scanlab verify: the command line of the differential harness. Parses and
 * validates the selection, then hands a plan to verify_run_plan. */
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "verify/campaign/ranks.h"
#include "verify/cli/cli.h"
#include "verify/cli/user_kernel.h"
#include "verify/cli/commands.h"
#include "verify/cli/memory.h"
#include "verify/cli/options.h"
#include "verify/cli/verify_plan.h"
#include "verify/formats/npy.h"
#include "verify/formats/output.h"
#include "verify/harness/app_ref.h"
#include "verify/harness/sizes.h"
#include "verify/report/kernel_coverage.h"

/* Limit of --repeat. */
enum { MAX_REPEAT = 1000 };
/* Buffers of at most 8 bytes per element that one case holds at once:
 * input and its copy, reference, poison, first run, output, abs_prefix,
 * depth. */
enum { CASE_COPIES = 8 };

static const cli_cmd_opt verify_opts[] = {
    {OPT_ALGO, NULL},
    {OPT_BACKEND, NULL},
    {OPT_TYPE, NULL},
    {OPT_OP, NULL},
    {OPT_EXCLUSIVE, NULL},
    {OPT_BOTH, NULL},
    {OPT_N, "Default: edges, and for a kernel on sim or cuda the sizes of its geometry (two full sections "
            "and a partial one; 34 tiles for a scan whose blocks wait for each other), with the default checks "
            "below"},
    {OPT_DIST, "Default: uniform for integers, uniform11 for floats"},
    {OPT_BLOCK, NULL},
    {OPT_PARAM, NULL},
    {OPT_INPUT, "With it, --n, --dist and --seed do not apply"},
    {OPT_SEED, NULL},
    {OPT_JOBS, "Here: cases run at once (simulator and GPU cases still run one at a time)"},
    {OPT_REPEAT, "Default 1; with K > 1 each line says whether the K results were bitwise "
                 "identical ('cub', CUB's DeviceScan in GPU builds, is the baseline)"},
    {OPT_ALLOW_RACES, NULL},
    {OPT_ALLOW_UNREACHED, "Default checks only (without --n and --input)"},
    {OPT_SCHEDULES, "Default: sim cases of up to 1025 elements under 2, the default schedule and one explored "
                    "one; larger ones under the default schedule"},
    {OPT_PCT, NULL},
    {OPT_FAIL_ON_SKIP, NULL},
    {OPT_COVERAGE, "Not with --json"},
    {OPT_OUTPUT, "Here, with --input: the output of the one case selected (one algorithm, "
                 "backend, operator and kind; a scan or a reduction) as .npy, as computed by the "
                 "first run, passed or not; never a partial file"},
    {OPT_JSON, NULL},
};

static const cli_command verify_cmd = {
    "verify", "[options]",
    "Runs every selected algorithm x backend x type x operator x kind x size x input "
    "distribution and compares it with the reference: integers and float max/min bit for bit "
    "with the sequential scan; float add with the exact (MPFR) prefix, within |got - exact| <= "
    "D u sum|x_j| + half an ulp, D the algorithm's addition depth. On the simulator every "
    "finding (race, barrier divergence, out-of-bounds or misaligned access, deadlock, undefined "
    "warp operation) fails the check and is printed as path:line: error: message. One line per "
    "(algorithm, backend, type, operator, kind): OK, FAILED or SKIPPED; the summary says how "
    "many were skipped and why. A failure prints the first differing index, the expected and "
    "actual values, the seed and a command that replays exactly that case. Without --n and --input the "
    "default checks also run: each kernel's sizes from its geometry, a kernel whose grid an occupancy "
    "query sizes on a persistent grid too, a huge check per device-level kernel (2^32 + 1024 elements, "
    "only the blocks around 0, 2^31, 2^32 and n - 1: 32-bit index arithmetic fails it), and an "
    "unreached call site of a catalogue kernel fails the run (unless --allow-unreached).",
    verify_opts, sizeof verify_opts / sizeof verify_opts[0],
    "a check failed or a case could not run (with --fail-on-skip: or was skipped)", .dry_run = true};

typedef struct {
    const char *algo, *backend, *type, *op, *dist, *input, *output;
    bool exclusive, both, json, allow_races, fail_on_skip;
} options;

static void take_options(const cli_args *a, options *o)
{
    o->algo = a->val[OPT_ALGO];
    o->backend = a->val[OPT_BACKEND];
    o->type = a->val[OPT_TYPE];
    o->op = a->val[OPT_OP];
    o->dist = a->val[OPT_DIST];
    o->input = a->val[OPT_INPUT];
    o->output = a->val[OPT_OUTPUT];
    o->exclusive = a->set[OPT_EXCLUSIVE];
    o->both = a->set[OPT_BOTH];
    o->json = a->set[OPT_JSON];
    o->allow_races = a->set[OPT_ALLOW_RACES];
    o->fail_on_skip = a->set[OPT_FAIL_ON_SKIP];
}

/* Combinations of options that do not go together. */
static int check_options(const cli_args *a)
{
    if (a->set[OPT_EXCLUSIVE] && a->set[OPT_BOTH])
        return cli_usage_error("verify: --exclusive and --both exclude each other");
    if (a->set[OPT_COVERAGE] && a->set[OPT_JSON])
        return cli_usage_error("verify: --coverage prints a table after the verdicts; not with --json");
    if (a->set[OPT_ALLOW_UNREACHED] && (a->set[OPT_N] || a->set[OPT_INPUT]))
        return cli_usage_error("verify: --allow-unreached applies to the default checks, which run without --n "
                               "and --input");
    if (a->set[OPT_OUTPUT] && !a->set[OPT_INPUT])
        return cli_usage_error("verify: --output writes the scan of the --input file: give --input");
    /* the same file under another name too (a link, ./F): the scan would
     * replace the data it checks */
    if (a->set[OPT_OUTPUT] && cli_same_file(a->val[OPT_INPUT], a->val[OPT_OUTPUT]))
        return cli_usage_error("verify: --output %s is the --input file: writing the scan there would "
                               "replace the input", a->val[OPT_OUTPUT]);
    if (a->set[OPT_INPUT]) {
        const char *clash = a->set[OPT_N] ? "--n" : a->set[OPT_DIST] ? "--dist"
                          : a->set[OPT_SEED] ? "--seed" : NULL;
        if (clash)
            return cli_usage_error("verify: %s does not apply to --input (the file is the input)",
                                   clash);
    }
    /* before the run, not after it */
    char why[VERIFY_WHY_SIZE];
    if (a->val[OPT_OUTPUT] && verify_output_check(a->val[OPT_OUTPUT], why, sizeof why) != SL_OK)
        return cli_usage_error("verify: --output: %s", why);
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
            if (ranks_rank() != 0) /* every rank parses the same line: rank 0 says it once */
                return CLI_EXIT_USAGE;
            char shown[256];
            fprintf(stderr, "scanlab: verify: unknown algorithm '%s' (valid: all",
                    cli_printable(p, (int)len, shown, sizeof shown));
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

/* Types and operators both named: the pairs that do not exist (affine on
 * a float) are left out, as "all" leaves them out, but said
 * (note_skipped_pairs); a selection left with none is a usage error. */
static bool pairs_named(const options *o)
{
    return ((o->type && strcmp(o->type, "all") != 0) || o->input) && o->op && strcmp(o->op, "all") != 0;
}

static int check_pairs(const verify_plan *p)
{
    int missing_t = -1, missing_op = -1;
    for (int t = 0; t < SL_TYPE_COUNT; t++)
        for (int op = 0; op < SL_OP_COUNT; op++) {
            if (!(p->types >> t & 1u) || !(p->ops >> op & 1u))
                continue;
            if (SL_OP_APPLIES(op, t))
                return CLI_EXIT_OK;
            if (missing_t < 0) {
                missing_t = t;
                missing_op = op;
            }
        }
    if (missing_t < 0)
        return CLI_EXIT_OK;
    return cli_usage_error("verify: operator '%s' does not apply to type '%s' (%s is defined on i32 and i64 "
                           "only)", verify_op_name((sl_op)missing_op), verify_type_name((sl_type)missing_t),
                           verify_op_name((sl_op)missing_op));
}

/* One line per operator left out for some named types, before the run. */
static void note_skipped_pairs(const verify_plan *p)
{
    for (int op = 0; op < SL_OP_COUNT; op++) {
        char types[64] = "";
        for (int t = 0, len = 0; t < SL_TYPE_COUNT; t++)
            if ((p->types >> t & 1u) && (p->ops >> op & 1u) && !SL_OP_APPLIES(op, t))
                len += snprintf(types + len, sizeof types - (size_t)len, "%s%s", len ? ", " : "",
                                verify_type_name((sl_type)t));
        if (types[0])
            fprintf(stderr, "scanlab: verify: skipping %s on %s (%s is defined on i32 and i64 only)\n",
                    verify_op_name((sl_op)op), types, verify_op_name((sl_op)op));
    }
}

/* The explicit combinations that can never run are usage errors (but the
 * pairs of check_pairs); the same combinations reached through "all" are
 * left out silently. */
static int check_selection(const options *o, const verify_plan *p)
{
    for (int b = 0; b < SL_BACKEND_COUNT; b++)
        if ((p->backends >> b & 1u) && !verify_backend_built((sl_backend)b))
            return cli_usage_error("verify: backend '%s' is not built in this scanlab",
                                   verify_backend_name((sl_backend)b));
    bool type_explicit = (o->type && strcmp(o->type, "all") != 0) || o->input;
    bool dist_explicit = o->dist && strcmp(o->dist, "all") != 0;
    int rc = pairs_named(o) ? check_pairs(p) : CLI_EXIT_OK;
    if (rc != CLI_EXIT_OK)
        return rc;
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
    char why[VERIFY_WHY_SIZE];
    if (o->type) {
        if (strchr(o->type, ',') || strcmp(o->type, "all") == 0)
            return cli_usage_error("verify: with --input, --type names the one type of the file, "
                                   "not '%s'", o->type);
        if (verify_parse_type(o->type, &raw, why, sizeof why) != SL_OK)
            return cli_usage_error("verify: %s", why);
    }
    sl_status st = verify_array_read(o->input, raw, &t, data, n, why, sizeof why);
    if (st == SL_ERR_NOMEM) {
        char shown[VERIFY_WHY_SIZE];
        fprintf(stderr, "scanlab: verify: %s\n", cli_printable(why, -1, shown, sizeof shown));
        return CLI_EXIT_FAILED;
    }
    if (st != SL_OK)
        return cli_usage_error("verify: %s", why);
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
    char why[VERIFY_WHY_SIZE];
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

/* The peak memory of the plan at its largest size n (verify/cli/memory.c):
 * every busy job's case buffers (CASE_COPIES of the widest element), the file's
 * data, and, when the simulator runs, its device memory and shadow for one
 * case at a time (pack's records of 8 bytes, k per element). Measured:
 * verify --algo sequential --backend seq --type i64 --n 2^22 --jobs 1
 * peaks at 199832 KiB, 48 bytes per element against the 64 counted. */
static uint64_t peak_bytes(const verify_plan *p, size_t n, bool input)
{
    uint64_t elem = 4;
    for (int t = 0; t < SL_TYPE_COUNT; t++)
        if ((p->types >> t & 1u) && SL_TYPE_SIZE(t) > elem)
            elem = SL_TYPE_SIZE(t);
    /* no more jobs hold buffers of n elements than there are cases of that
     * size: (algorithm, type, operator, kind) */
    uint64_t cases = (uint64_t)p->algo_count * (uint64_t)__builtin_popcount(p->types) *
                     (uint64_t)__builtin_popcount(p->ops) * (uint64_t)((p->inclusive ? 1 : 0) + (p->exclusive ? 1 : 0));
    if (cases == 0)
        cases = 1;
    const uint64_t jobs = (uint64_t)p->jobs < cases ? (uint64_t)p->jobs : cases;
    uint64_t copies = CASE_COPIES * jobs + (input ? 1u : 0u);
    uint64_t peak = cli_peak_cpu((uint64_t)n + 2 * VERIFY_GUARD_ELEMS, elem, copies);
    if (!(p->backends >> SL_SIM & 1u))
        return peak;
    uint64_t out = cli_bytes(n, elem);
    for (size_t i = 0; i < p->algo_count; i++)
        if (p->algos[i]->run[SL_SIM] && SL_KIND_IS_APP(p->algos[i]->kind)) {
            size_t bytes = verify_app_out_bytes(p->algos[i]->kind, SL_I64, n, p->param);
            out = bytes > out ? bytes : bytes == 0 ? UINT64_MAX : out;
        }
    uint64_t sim = out == UINT64_MAX ? UINT64_MAX
                                     : cli_peak_simulator(cli_bytes(n, elem), out,
                                                          (uint64_t)MODEL_DEFAULT_SLOTS *
                                                              (p->block ? (uint64_t)p->block : 1024));
    return sim == UINT64_MAX || peak > UINT64_MAX - sim ? UINT64_MAX : peak + sim;
}

/* --jobs, --repeat, --block, --param and the sizes: with --input the
 * file's one size n. */
static int parse_numbers(const cli_args *a, const options *o, verify_plan *p, size_t n,
                         size_t **sizes)
{
    p->repeat = 1;
    if (cli_get_jobs(a, &p->jobs) != CLI_EXIT_OK ||
        cli_get_block_param(a, &p->block, &p->param) != CLI_EXIT_OK)
        return CLI_EXIT_USAGE;
    p->schedules = 1;
    if (a->val[OPT_SCHEDULES] &&
        cli_parse_int("--schedules", a->val[OPT_SCHEDULES], 1, MAX_REPEAT, &p->schedules) != SL_OK)
        return CLI_EXIT_USAGE;
    int pct = 0;
    if (a->val[OPT_PCT] && cli_parse_int("--pct", a->val[OPT_PCT], 0, 64, &pct) != SL_OK)
        return CLI_EXIT_USAGE;
    /* schedule 1 of each case is the default one: only K >= 2 explores */
    if (pct && p->schedules < 2)
        return cli_usage_error("verify: --pct applies to an explored schedule: give --schedules K "
                               "too (K >= 2)");
    p->pct = (unsigned)pct;
    if (a->val[OPT_REPEAT] &&
        cli_parse_int("--repeat", a->val[OPT_REPEAT], 1, MAX_REPEAT, &p->repeat) != SL_OK)
        return CLI_EXIT_USAGE;
    size_t count = 0;
    if (o->input) {
        *sizes = malloc(sizeof **sizes);
        if (!*sizes)
            return CLI_EXIT_FAILED;
        (*sizes)[count++] = n;
    } else {
        int rc = cli_get_sizes(a, "edges", p->seed, sizes, &count);
        if (rc != CLI_EXIT_OK)
            return rc;
    }
    p->sizes = *sizes;
    p->size_count = count;
    size_t largest = count ? (*sizes)[count - 1] : 0;
    p->peak_bytes = peak_bytes(p, largest, o->input != NULL);
    if (cli_check_peak("verify", largest, p->peak_bytes) != SL_OK)
        return CLI_EXIT_USAGE;
    return CLI_EXIT_OK;
}

int verify_main(int argc, char **argv, const verify_algo *algos, size_t count, FILE *out)
{
    cli_args args;
    int rc = cli_parse(&verify_cmd, argc, argv, &args);
    if (rc != CLI_EXIT_OK || args.set[OPT_HELP])
        return rc;
    options o = {0};
    take_options(&args, &o);
    if ((rc = check_options(&args)) != CLI_EXIT_OK) {
        cli_args_free(&args);
        return rc;
    }
    verify_plan p = {.inclusive = !o.exclusive, .exclusive = o.exclusive || o.both, .json = o.json,
                     .allow_races = o.allow_races, .fail_on_skip = o.fail_on_skip,
                     .defaults = !args.set[OPT_N] && !o.input, .allow_unreached = args.set[OPT_ALLOW_UNREACHED],
                     .schedules_given = args.set[OPT_SCHEDULES]};
    const verify_algo **sel = malloc((count ? count : 1) * sizeof *sel);
    size_t *sizes = NULL;
    if (!sel) {
        cli_args_free(&args);
        return CLI_EXIT_FAILED;
    }
    p.algos = sel;
    rc = parse_algos(o.algo ? o.algo : "all", algos, count, sel, &p.algo_count);
    if (rc == CLI_EXIT_OK)
        rc = cli_get_backends("verify", &args, cli_built_backends(), &p.backends);
    if (rc == CLI_EXIT_OK)
        rc = cli_get_types(&args, ~0u, &p.types);
    if (rc == CLI_EXIT_OK)
        rc = cli_get_ops(&args, ~0u, &p.ops);
    char why[512];
    if (rc == CLI_EXIT_OK && o.dist && verify_parse_dist_list(o.dist, &p.dists, why, sizeof why) != SL_OK)
        rc = cli_usage_error("verify: %s", why);
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
        rc = cli_get_seed("verify", &args, &p.seed);
    if (rc == CLI_EXIT_OK)
        rc = parse_numbers(&args, &o, &p, n, &sizes);
    if (rc == CLI_EXIT_OK && !cli_dry_run()) {
        /* the ranks of a campaign (docs/scaling.md) share the cases; rank
         * 0 alone speaks, prints and writes the --output file */
        const bool speaks = ranks_rank() == 0;
        if (pairs_named(&o) && speaks)
            note_skipped_pairs(&p);
        if (o.input && speaks)
            fprintf(stderr, "scanlab: verify: input %s (%zu elements)\n", o.input, n);
        else if (!o.input)
            cli_print_seed("verify", p.seed);
        rc = verify_run_plan(&p, out);
        if (args.set[OPT_COVERAGE] && rc != CLI_EXIT_USAGE && speaks &&
            report_kcov_print(out, p.algos, p.algo_count) != SL_OK)
            rc = CLI_EXIT_FAILED;
        if (o.output && rc != CLI_EXIT_USAGE && speaks) {
            int wrc = write_output(&o, &p, keep, kept, out_len);
            if (wrc != CLI_EXIT_OK)
                rc = wrc;
        }
    }
    free(keep);
    free(data);
    free(sizes);
    free(sel);
    cli_args_free(&args);
    return rc;
}

static int verify_main_stdout(int argc, char **argv, const verify_algo *algos, size_t count)
{
    return verify_main(argc, argv, algos, count, stdout);
}

int cmd_verify(int argc, char **argv) { return user_kernel_dispatch("verify", argc, argv, verify_main_stdout); }
