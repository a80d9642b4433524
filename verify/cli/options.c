/* The option table every subcommand parses with (options.h). */
#include "verify/cli/options.h"

#include <getopt.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "verify/campaign/ranks.h"
#include "verify/cli/cli.h"
#include "verify/harness/rng.h"
#include "verify/harness/sizes.h"

typedef struct {
    const char *name;  /* --name */
    char short_name;   /* -x, or 0 */
    const char *value; /* what the value looks like; NULL for a flag */
    const char *help;  /* meaning and default */
} opt_def;

static const opt_def defs[OPT_COUNT] = {
    [OPT_ALGO] = {"algo", 0, "A[,A...]|all",
                  "algorithms, as 'scanlab list' names them (default all: every one that runs on "
                  "the selected backends)"},
    [OPT_BACKEND] = {"backend", 0, "B[,B...]|all",
                     "seq, omp, sim, cuda (default all: every backend built here)"},
    [OPT_TYPE] = {"type", 0, "T[,T...]|all", "element types: i32, i64, f32, f64 (default all)"},
    [OPT_OP] = {"op", 0, "OP[,OP...]|all",
                "operators: add, max, min, affine (integers only) (default all)"},
    [OPT_EXCLUSIVE] = {"exclusive", 0, NULL, "exclusive scans (default: inclusive scans)"},
    [OPT_BOTH] = {"both", 0, NULL, "inclusive and exclusive scans"},
    [OPT_N] = {"n", 0, "N[,N...]",
               "sizes in elements: N or 2^K, a comma-separated list, a range A..B (A, every "
               "power of two between, and B), or edges[..M] (0-3, 31-33, 1000, 1023-1025, every "
               "2^k and 2^k+-1 up to M (default 4096), and 3 random sizes from the seed)"},
    [OPT_DIST] = {"dist", 0, "D[,D...]|all",
                  "input distributions: uniform (full range), small ([-100, 100]) for integers; "
                  "uniform01, uniform11, normal, lognormal, ones, illcond for floats"},
    [OPT_BLOCK] = {"block", 0, "B", "threads per block of a kernel, 1 to 1024 (default: the algorithm's)"},
    [OPT_PARAM] = {"param", 0, "P",
                   "the algorithm's own parameter: radix, reduce passes, coarsening, block "
                   "count, digit bits (docs/algorithms.md; default 0: the algorithm's)"},
    [OPT_INPUT] = {"input", 0, "FILE",
                   "the input array instead of generated ones: .npy (1-D, C order, <i4 <i8 <f4 "
                   "<f8; its dtype is the type) or raw little-endian elements of the one --type"},
    [OPT_LITMUS_OBSERVED] = {"litmus-observed", 0, "FILE",
                             "the outcomes a GPU showed for the litmus tests, as 'tools/gpu-check.sh litmus' "
                             "records them (default: docs/data/litmus-h100.json of the source tree, when "
                             "present); an outcome the memory model forbids fails the check"},
    [OPT_SEED] = {"seed", 0, "S",
                  "seed of every random input and size (default: the environment variable "
                  "SCANLAB_SEED, else drawn from the clock); printed on stderr, --seed replays it"},
    [OPT_JOBS] = {"jobs", 0, "J", "parallelism: how many threads the work uses (default: the CPUs "
                                  "this process may use)"},
    [OPT_REPEAT] = {"repeat", 0, "K", "runs of each case on the same input"},
    [OPT_TIMING] = {"timing", 0, "MODE",
                     "what a timed run covers: gpu, the GPU's work alone (default), or call, from the "
                     "call to the end of its work on an idle GPU, the host's launch calls included"},
    [OPT_DEVICES] = {"devices", 0, "P",
                     "GPUs of one host, 1 to 32: the multi-gpu scan with one shard resident on each of "
                     "GPUs 0 .. P - 1 (peer access between them)"},
    [OPT_INPUTS] = {"inputs", 0, "K", "random inputs per size and distribution, 1 to 1000 (default 3)"},
    [OPT_COND] = {"cond", 0, "C",
                  "condition number sum|x|/|sum x| of --dist illcond, a finite number >= 1 "
                  "(default 1e8)"},
    [OPT_SLOTS] = {"slots", 0, "K", "resident blocks at once (default 8)"},
    [OPT_OCCUPANCY] = {"occupancy", 0, "G|tiles",
                       "blocks a kernel's occupancy query answers, 1 to 65536: the grid of a persistent "
                       "kernel (the single-pass scans' persistent blocks, grid-stride loops); tiles: a "
                       "block per tile for the single-pass scans (default: half as many blocks as tiles "
                       "past 4 tiles, 4 for grid-stride kernels)"},
    [OPT_ORDER] = {"order", 0, "O", "block dispatch order: in (default), reversed, random (from --seed)"},
    [OPT_SCHEDULE] = {"schedule", 0, "S",
                      "an explored schedule (docs/memory-model.md): lanes, warps and blocks in an "
                      "order drawn from S, other blocks running at every store, strong access and "
                      "fence, strong loads returning older values the memory model allows; 0 (the "
                      "default) is the deterministic schedule"},
    [OPT_SCHEDULES] = {"schedules", 0, "K",
                       "sim: every case under K schedules, the default one and K - 1 explored ones "
                       "drawn from the case's seed (1 to 1000; default: 2 for a verify case of up to 1025 "
                       "elements, else 1)"},
    [OPT_HUGE] = {"huge", 0, NULL,
                  "n beyond memory, to find 32-bit index arithmetic: memory mapped lazily, only the "
                  "blocks around elements 0, 2^31, 2^32 and n - 1 run, a narrow index type into a "
                  "larger array is a finding; add scans only, the outputs there checked exactly (so no "
                  "--output)"},
    [OPT_PCT] = {"pct", 0, "D",
                 "with explored schedules: choose blocks by PCT priorities with D - 1 change points "
                 "(probabilistic concurrency testing, depth D; 0 = uniformly random, the default)"},
    [OPT_SHARED_LIMIT] = {"shared-limit", 0, "BYTES",
                          "shared memory per block (default 49152, at most 232448)"},
    [OPT_QUICK] = {"quick", 0, NULL, "a reduced selection (seconds)"},
    [OPT_BLOCKS] = {"blocks", 0, "G", "blocks of the launch whose schedules are searched, 2 to 256 (default 3)"},
    [OPT_RESIDENT] = {"resident", 0, "R",
                      "residency slots: blocks that can be resident at once, 1 to G - 1 (default 2, "
                      "or 1 when G is 2)"},
    [OPT_MODEL] = {"model", 0, "M[,M...]|all",
                   "progress models: obe (occupancy-bound), lobe (obe with blocks started in id "
                   "order), hsa (only the lowest-numbered unfinished block is sure to run), fair "
                   "(every block eventually runs) (default all)"},
    [OPT_EXHAUSTIVE] = {"exhaustive", 0, NULL,
                        "search every schedule the model allows: a proof for this configuration; "
                        "offered up to G = 8 (default where G is at most 3)"},
    [OPT_SAMPLES] = {"samples", 0, "K",
                     "search K random schedules instead (from --seed): not a proof (default: 100 "
                     "where G is above 3)"},
    [OPT_BUDGET] = {"budget", 0, "S",
                    "seconds each search may take, 1 to 86400: past them it stops without a verdict "
                    "(INCOMPLETE, exit status 1) (default 120)"},
    [OPT_ALLOW_RACES] = {"allow-races", 0, NULL,
                         "a race the simulator finds does not fail the check (a barrier "
                         "divergence, an out-of-bounds or misaligned access, a deadlock or an "
                         "undefined warp operation still does)"},
    [OPT_ALLOW_UNREACHED] = {"allow-unreached", 0, NULL,
                             "a kernel call site that the default checks did not reach does not fail the "
                             "run (it is still listed)"},
    [OPT_FAIL_ON_SKIP] = {"fail-on-skip", 0, NULL,
                          "a check that cannot run here (no GPU present, not supported) fails "
                          "instead of being skipped"},
    [OPT_COVERAGE] = {"coverage", 0, NULL,
                      "after the table, the call sites of each kernel that these inputs reached in "
                      "the simulator, and every one they did not (path:line: note:)"},
    [OPT_OUTPUT] = {"output", 'o', "PATH", "where the result is written"},
    [OPT_JSON] = {"json", 0, NULL, "one JSON document on stdout instead of the table (docs/usage.md "
                                   "lists the keys and their units)"},
    [OPT_HELP] = {"help", 'h', NULL, "this text"},
};

/* Old spellings, kept for one release: each is taken with a note on
 * stderr. fmt, when set, rewrites the value (--max-n N is --n edges..N). */
static const struct {
    const char *old;
    cli_opt opt;
    const char *fmt;
} aliases[] = {
    {"sizes", OPT_N, NULL},       {"max-n", OPT_N, "edges..%s"}, {"threads", OPT_JOBS, NULL},
    {"seeds", OPT_INPUTS, NULL},  {"reps", OPT_REPEAT, NULL},
};
#define NALIASES (sizeof aliases / sizeof aliases[0])

/* cli_set_dry_run: one setting of the process, as the command line is. */
static bool dry_run;

enum { VAL_OPT = 1000, VAL_ALIAS = 2000, MAX_JOBS = 4096, HELP_COL = 26, HELP_WIDTH = 79 };

static bool accepts(const cli_command *cmd, cli_opt o)
{
    if (o == OPT_HELP)
        return true;
    for (size_t i = 0; i < cmd->nopts; i++)
        if (cmd->opts[i].opt == o)
            return true;
    return false;
}

static const char *note_of(const cli_command *cmd, cli_opt o)
{
    for (size_t i = 0; i < cmd->nopts; i++)
        if (cmd->opts[i].opt == o)
            return cmd->opts[i].note;
    return NULL;
}

/* text from column col, wrapped at HELP_WIDTH, every line after the first
 * indented to col. */
static void wrap(FILE *f, const char *text, int col)
{
    int at = col;
    for (const char *p = text; *p;) {
        while (*p == ' ')
            p++;
        int len = (int)strcspn(p, " ");
        if (at > col && at + 1 + len > HELP_WIDTH) {
            fprintf(f, "\n%*s", col, "");
            at = col;
        }
        if (at > col) {
            fputc(' ', f);
            at++;
        }
        fprintf(f, "%.*s", len, p);
        at += len;
        p += len;
    }
    fputc('\n', f);
}

/* help without its parenthesised "(default ...)" at the top level: for an
 * option whose note names the command's own default, so that the entry
 * does not give two. */
static void without_default(const char *help, char *out, size_t size)
{
    size_t k = 0;
    int depth = 0;
    for (const char *p = help; *p && k + 1 < size; p++) {
        if (depth == 0 && strncmp(p, " (default", 9) == 0) {
            int d = 0;
            for (p++; *p; p++) {
                d += *p == '(' ? 1 : *p == ')' ? -1 : 0;
                if (d == 0)
                    break;
            }
            if (!*p)
                break;
            continue;
        }
        depth += *p == '(' ? 1 : *p == ')' ? -1 : 0;
        out[k++] = *p;
    }
    out[k] = '\0';
}

void cli_print_help(FILE *f, const cli_command *cmd)
{
    fprintf(f, "usage: scanlab %s %s\n\n", cmd->name, cmd->synopsis);
    wrap(f, cmd->about, 0);
    fprintf(f, "\noptions:\n");
    for (int o = 0; o < OPT_COUNT; o++) {
        if (!accepts(cmd, (cli_opt)o))
            continue;
        const opt_def *d = &defs[o];
        char head[64];
        int len = d->short_name
                      ? snprintf(head, sizeof head, "  -%c, --%s%s%s", d->short_name, d->name,
                                 d->value ? " " : "", d->value ? d->value : "")
                      : snprintf(head, sizeof head, "  --%s%s%s", d->name, d->value ? " " : "",
                                 d->value ? d->value : "");
        fputs(head, f);
        if (len + 1 >= HELP_COL)
            fprintf(f, "\n%*s", HELP_COL, "");
        else
            fprintf(f, "%*s", HELP_COL - len, "");
        const char *note = note_of(cmd, (cli_opt)o);
        char help[1024], text[2048];
        if (note && (strstr(note, "default") || strstr(note, "Default")))
            without_default(d->help, help, sizeof help);
        else
            snprintf(help, sizeof help, "%s", d->help);
        snprintf(text, sizeof text, "%s%s%s", help, note ? ". " : "", note ? note : "");
        wrap(f, text, HELP_COL);
    }
    bool first = true;
    for (size_t i = 0; i < NALIASES; i++) {
        if (!accepts(cmd, aliases[i].opt))
            continue;
        char with[64] = "";
        if (aliases[i].fmt) {
            with[0] = ' ';
            snprintf(with + 1, sizeof with - 1, aliases[i].fmt, "N");
        }
        fprintf(f, "%s--%s%s is --%s%s", first ? "\nold spellings, accepted with a note until the next "
                                                 "release:\n  " : "; ",
                aliases[i].old, aliases[i].fmt ? " N" : "", defs[aliases[i].opt].name, with);
        first = false;
    }
    if (!first)
        fputc('\n', f);
    fprintf(f, "\nexit status:\n  0  every check passed\n  1  ");
    wrap(f, cmd->fails, 5);
    fputs("  2  ", f);
    wrap(f, "the command was used wrongly: an unknown option or value, a value out of range, an "
            "input or output refused (one message on stderr says which)", 5);
}

/* The table's option called name (without --), or -1. */
static int find_def(const char *name, size_t len)
{
    for (int o = 0; o < OPT_COUNT; o++)
        if (strlen(defs[o].name) == len && strncmp(defs[o].name, name, len) == 0)
            return o;
    return -1;
}

static void list_valid(const cli_command *cmd, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int o = 0; o < OPT_COUNT && len < size; o++)
        if (accepts(cmd, (cli_opt)o))
            len += (size_t)snprintf(buf + len, size - len, "%s--%s", len ? ", " : "", defs[o].name);
}

/* An option getopt did not take: unknown, or of another command. */
static int unknown(const cli_command *cmd, const char *arg)
{
    char valid[1024];
    list_valid(cmd, valid, sizeof valid);
    if (strncmp(arg, "--", 2) == 0) {
        size_t len = strcspn(arg + 2, "=");
        int o = find_def(arg + 2, len);
        if (o >= 0)
            return cli_usage_error("%s: --%s does not apply to %s (valid: %s)", cmd->name,
                                   defs[o].name, cmd->name, valid);
    }
    return cli_usage_error("%s: unknown option '%s' (valid: %s)", cmd->name, arg, valid);
}

int cli_parse(const cli_command *cmd, int argc, char **argv, cli_args *a)
{
    memset(a, 0, sizeof *a);
    cli_set_command(cmd->name);
    struct option longs[OPT_COUNT + NALIASES + 1];
    size_t nl = 0;
    char shorts[16] = ":";
    for (int o = 0; o < OPT_COUNT; o++) {
        if (!accepts(cmd, (cli_opt)o))
            continue;
        longs[nl++] = (struct option){defs[o].name, defs[o].value ? required_argument : no_argument,
                                      NULL, VAL_OPT + o};
        if (defs[o].short_name) {
            size_t k = strlen(shorts);
            shorts[k] = defs[o].short_name;
            shorts[k + 1] = defs[o].value ? ':' : '\0';
            shorts[k + 2] = '\0';
        }
    }
    for (size_t i = 0; i < NALIASES; i++)
        if (accepts(cmd, aliases[i].opt))
            longs[nl++] = (struct option){aliases[i].old,
                                          defs[aliases[i].opt].value ? required_argument : no_argument,
                                          NULL, VAL_ALIAS + (int)i};
    longs[nl] = (struct option){NULL, 0, NULL, 0};
    int c, idx;
    optind = 0; /* glibc: 0 starts afresh; 1 would resume a cluster an earlier parse left */
    opterr = 0;
    while ((c = getopt_long(argc, argv, shorts, longs, &idx)) != -1) {
        if (c == ':') {
            const char *name = argv[optind - 1];
            cli_args_free(a);
            return cli_usage_error("%s: option '%s' needs a value", cmd->name, name);
        }
        if (c == '?') {
            cli_args_free(a);
            if (optopt >= VAL_OPT && optopt < VAL_ALIAS) /* --flag=value */
                return cli_usage_error("%s: --%s takes no value", cmd->name, defs[optopt - VAL_OPT].name);
            /* a letter inside a cluster (-xyz): optind has not passed the cluster yet */
            char letter[3] = {'-', (char)optopt, '\0'};
            return unknown(cmd, optopt > 0 && optopt < 128 ? letter : argv[optind - 1]);
        }
        int o = -1;
        if (c >= VAL_ALIAS) {
            size_t i = (size_t)(c - VAL_ALIAS);
            o = aliases[i].opt;
            char with[64] = "";
            if (aliases[i].fmt) {
                with[0] = ' ';
                snprintf(with + 1, sizeof with - 1, aliases[i].fmt, "N");
            }
            fprintf(stderr, "scanlab: %s: note: --%s is an old spelling of --%s%s and will be "
                            "removed in the next release\n",
                    cmd->name, aliases[i].old, defs[o].name, with);
            if (aliases[i].fmt && optarg && a->nowned < sizeof a->owned / sizeof a->owned[0]) {
                size_t size = strlen(aliases[i].fmt) + strlen(optarg) + 1;
                char *v = malloc(size);
                if (!v) {
                    cli_args_free(a);
                    return cli_usage_error("%s: out of memory", cmd->name);
                }
                snprintf(v, size, aliases[i].fmt, optarg);
                a->owned[a->nowned++] = v;
                optarg = v;
            }
        } else if (c >= VAL_OPT) {
            o = c - VAL_OPT;
        } else {
            for (int k = 0; k < OPT_COUNT && o < 0; k++)
                if (defs[k].short_name == c && accepts(cmd, (cli_opt)k))
                    o = k;
            if (o < 0) {
                cli_args_free(a);
                return unknown(cmd, argv[optind - 1]);
            }
        }
        /* the last value silently winning would run what the user did not
         * mean (--input A --input B, -o A -o B) */
        if (defs[o].value && a->set[o]) {
            cli_args_free(a);
            return cli_usage_error("%s: --%s given twice", cmd->name, defs[o].name);
        }
        a->set[o] = true;
        a->val[o] = defs[o].value ? optarg : NULL;
        if (defs[o].value && !*optarg) {
            cli_args_free(a);
            return cli_usage_error("%s: --%s: empty value", cmd->name, defs[o].name);
        }
    }
    if (optind < argc) {
        cli_args_free(a);
        return cli_usage_error("%s: unexpected argument '%s'", cmd->name, argv[optind]);
    }
    if (a->set[OPT_HELP])
        cli_print_help(stdout, cmd); /* scanlab.c checks that stdout took it */
    else if (dry_run && !cmd->dry_run)
        a->set[OPT_HELP] = true; /* the caller returns at once, as after --help */
    if (a->set[OPT_HELP])
        cli_args_free(a); /* the caller returns at once, without freeing */
    return CLI_EXIT_OK;
}

void cli_set_dry_run(bool on) { dry_run = on; }

bool cli_dry_run(void) { return dry_run; }

void cli_args_free(cli_args *a)
{
    for (size_t i = 0; i < a->nowned; i++)
        free(a->owned[i]);
    a->nowned = 0;
}

/* --- getters ------------------------------------------------------------- */

static uint64_t clock_seed(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return verify_derive_seed((uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec,
                              (uint64_t)getpid());
}

int cli_get_seed(const char *cmd, const cli_args *a, uint64_t *seed)
{
    const char *env = getenv("SCANLAB_SEED");
    if (a->val[OPT_SEED])
        return cli_parse_u64("--seed", a->val[OPT_SEED], seed) == SL_OK ? CLI_EXIT_OK
                                                                         : CLI_EXIT_USAGE;
    if (env && *env)
        return cli_parse_u64("SCANLAB_SEED", env, seed) == SL_OK ? CLI_EXIT_OK : CLI_EXIT_USAGE;
    *seed = clock_seed();
    /* the ranks of a campaign draw every input from rank 0's seed, so
     * that a case's input is the same whichever rank runs it */
    if (!ranks_broadcast(seed, sizeof *seed))
        ranks_abort(1, "%s: the seed could not be sent to every rank", cmd);
    return CLI_EXIT_OK;
}

void cli_print_seed(const char *cmd, uint64_t seed)
{
    if (ranks_rank() != 0) /* once for the campaign */
        return;
    fprintf(stderr, "scanlab: %s: seed %llu (replay with --seed %llu)\n", cmd,
            (unsigned long long)seed, (unsigned long long)seed);
}

int cli_cpus(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

int cli_get_jobs(const cli_args *a, int *jobs)
{
    *jobs = cli_cpus();
    if (a->val[OPT_JOBS] && cli_parse_int("--jobs", a->val[OPT_JOBS], 1, MAX_JOBS, jobs) != SL_OK)
        return CLI_EXIT_USAGE;
    return CLI_EXIT_OK;
}

/* Append v to the growing list. */
static bool push(size_t **v, size_t *count, size_t *cap, size_t x)
{
    if (*count == *cap) {
        size_t c2 = *cap ? 2 * *cap : 16;
        size_t *p = realloc(*v, c2 * sizeof *p);
        if (!p)
            return false;
        *v = p;
        *cap = c2;
    }
    (*v)[(*count)++] = x;
    return true;
}

/* One item of a size list into v. */
static int size_item(const char *item, uint64_t seed, size_t **v, size_t *count, size_t *cap)
{
    const char *dots = strstr(item, "..");
    if (strncmp(item, "edges", 5) == 0 && (item[5] == '\0' || dots == item + 5)) {
        size_t max_n = VERIFY_DEFAULT_MAX_N, *e = NULL, ne = 0;
        if (dots && cli_parse_size("--n", dots + 2, &max_n) != SL_OK)
            return CLI_EXIT_USAGE;
        if (verify_default_sizes(max_n, seed, &e, &ne) != SL_OK)
            return cli_usage_error("%s--n: out of memory", cli_command_prefix());
        bool ok = true;
        for (size_t i = 0; i < ne && ok; i++)
            ok = push(v, count, cap, e[i]);
        free(e);
        return ok ? CLI_EXIT_OK : cli_usage_error("%s--n: out of memory", cli_command_prefix());
    }
    if (!dots) {
        size_t n;
        if (cli_parse_size("--n", item, &n) != SL_OK)
            return CLI_EXIT_USAGE;
        return push(v, count, cap, n) ? CLI_EXIT_OK
                                      : cli_usage_error("%s--n: out of memory", cli_command_prefix());
    }
    char lo_s[64];
    size_t lo_len = (size_t)(dots - item), lo, hi;
    if (lo_len == 0 || lo_len >= sizeof lo_s)
        return cli_usage_error("%s--n: '%s' is not a range (A..B, e.g. 2^10..2^20)", cli_command_prefix(),
                               item);
    memcpy(lo_s, item, lo_len);
    lo_s[lo_len] = '\0';
    if (cli_parse_size("--n", lo_s, &lo) != SL_OK || cli_parse_size("--n", dots + 2, &hi) != SL_OK)
        return CLI_EXIT_USAGE;
    if (lo > hi)
        return cli_usage_error("%s--n: range '%s' runs backwards", cli_command_prefix(), item);
    bool ok = push(v, count, cap, lo);
    for (size_t p = 1; p && p < hi && ok; p <<= 1)
        if (p > lo)
            ok = push(v, count, cap, p);
    ok = ok && push(v, count, cap, hi);
    return ok ? CLI_EXIT_OK : cli_usage_error("%s--n: out of memory", cli_command_prefix());
}

int cli_get_sizes(const cli_args *a, const char *def, uint64_t seed, size_t **sizes, size_t *count)
{
    const char *spec = a->val[OPT_N] ? a->val[OPT_N] : def;
    char *buf = strdup(spec);
    size_t *v = NULL, n = 0, cap = 0;
    if (!buf)
        return cli_usage_error("%s--n: out of memory", cli_command_prefix());
    int rc = CLI_EXIT_OK;
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok && rc == CLI_EXIT_OK;
         tok = strtok_r(NULL, ",", &save))
        rc = size_item(tok, seed, &v, &n, &cap);
    free(buf);
    if (rc == CLI_EXIT_OK && n == 0)
        rc = cli_usage_error("%s--n: empty list", cli_command_prefix());
    if (rc != CLI_EXIT_OK) {
        free(v);
        return rc;
    }
    *sizes = v;
    *count = verify_sort_sizes(v, n);
    return CLI_EXIT_OK;
}

int cli_get_block_param(const cli_args *a, int *block, int *param)
{
    *block = *param = 0;
    if (a->val[OPT_BLOCK] && cli_parse_int("--block", a->val[OPT_BLOCK], 1, 1024, block) != SL_OK)
        return CLI_EXIT_USAGE;
    if (a->val[OPT_PARAM] && cli_parse_int("--param", a->val[OPT_PARAM], 0, 1 << 20, param) != SL_OK)
        return CLI_EXIT_USAGE;
    return CLI_EXIT_OK;
}

int cli_get_kinds(const char *cmd, const cli_args *a, bool *inclusive, bool *exclusive)
{
    if (a->set[OPT_EXCLUSIVE] && a->set[OPT_BOTH])
        return cli_usage_error("%s: --exclusive and --both exclude each other", cmd);
    *inclusive = !a->set[OPT_EXCLUSIVE];
    *exclusive = a->set[OPT_EXCLUSIVE] || a->set[OPT_BOTH];
    return CLI_EXIT_OK;
}

int cli_get_types(const cli_args *a, unsigned def, unsigned *mask)
{
    char why[512];
    *mask = def;
    if (a->val[OPT_TYPE] && verify_parse_type_list(a->val[OPT_TYPE], mask, why, sizeof why) != SL_OK)
        return cli_usage_error("%s%s", cli_command_prefix(), why);
    return CLI_EXIT_OK;
}

int cli_get_ops(const cli_args *a, unsigned def, unsigned *mask)
{
    char why[512];
    *mask = def;
    if (a->val[OPT_OP] && verify_parse_op_list(a->val[OPT_OP], mask, why, sizeof why) != SL_OK)
        return cli_usage_error("%s%s", cli_command_prefix(), why);
    return CLI_EXIT_OK;
}

unsigned cli_built_backends(void)
{
    unsigned m = 0;
    for (int b = 0; b < SL_BACKEND_COUNT; b++)
        if (verify_backend_built((sl_backend)b))
            m |= 1u << b;
    return m;
}

int cli_get_backends(const char *cmd, const cli_args *a, unsigned def, unsigned *mask)
{
    *mask = def;
    const char *s = a->val[OPT_BACKEND];
    if (!s)
        return CLI_EXIT_OK;
    char why[512];
    if (verify_parse_backend_list(s, mask, why, sizeof why) != SL_OK)
        return cli_usage_error("%s: %s", cmd, why);
    if (strcmp(s, "all") == 0) {
        *mask &= cli_built_backends();
        return CLI_EXIT_OK;
    }
    for (int b = 0; b < SL_BACKEND_COUNT; b++)
        if ((*mask >> b & 1u) && !verify_backend_built((sl_backend)b))
            return cli_usage_error("%s: backend '%s' is not built in this scanlab", cmd,
                                   verify_backend_name((sl_backend)b));
    return CLI_EXIT_OK;
}

int cli_one_of(const char *cmd, const char *opt, unsigned mask, int *value)
{
    if (mask == 0 || (mask & (mask - 1)))
        return cli_usage_error("%s: %s takes one value here (%s runs one configuration)", cmd, opt,
                               cmd);
    *value = __builtin_ctz(mask);
    return CLI_EXIT_OK;
}
