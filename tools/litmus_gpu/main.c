/* litmus_gpu: the PTX litmus tests on the GPU, each run many times under
 * stress, every final state counted, in the JSON `scanlab litmus
 * --observed` reads (docs/memory-model.md, "The litmus campaign on the
 * GPU"). The tests are parsed and translated by the simulator's own code
 * (model/litmus), so the GPU runs the instructions the model judges. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "tools/litmus_gpu/campaign.h"
#include "tools/litmus_gpu/driver.h"

#define MIN_RUNS 1000000ull   /* what a test must reach unless --runs asks fewer */
#define STRESS_LINES_MAX 64u  /* scratchpad lines a launch's stress may spread over */
#define LINE_WORDS 32u        /* a 128-byte line: one word per lane */
#define BAD_WORD 0xdeadbeefu  /* a result no thread wrote reads as this */

static const char usage[] =
    "usage: litmus_gpu [options] TEST.litmus...\n"
    "Runs each PTX litmus test (herd/Dat3M format) many times at once on GPU 0 under stress and writes\n"
    "every final state with its count as JSON for `scanlab litmus --observed`. A test the campaign\n"
    "cannot run (what the model does not cover, loops, uneven barriers) is listed as skipped.\n"
    "  --out FILE         the JSON document (default litmus-gpu.json), rewritten after each test\n"
    "  --runs N           runs of each test (default 5000000)\n"
    "  --seconds S        time per test after which it stops once it has 10^6 runs (default 4)\n"
    "  --seed S           the random placement and stress (default: from the clock; printed)\n"
    "  --block B          threads per CTA, a multiple of 32 (default 256)\n"
    "  --instances I      instances per launch (default: a quarter of the grid's threads / threads)\n"
    "  --stride W         words between location slots (default 1)\n"
    "  --stress-iters N   stress accesses of each stressing thread (default 64; 0: no stress)\n"
    "  --pre-iters N      stress accesses of each testing thread before its start (default 8)\n"
    "  --spin N           polls a testing thread waits for its instance at the start (default 20000)\n"
    "  --ptx DIR          write each test's kernel to DIR/NAME.ptx and stop (no GPU needed)\n"
    "  --progress N       a progress run (docs/deadlock.md): loops allowed, each testing thread stopped\n"
    "                     after N label visits and counted as hung; threads start as dispatched; the\n"
    "                     tests may also be Sorensen et al.'s (THREAD0 ...), as deadlock --litmus reads\n"
    "  --oversubscribe F  a grid of F times the CTAs the GPU holds at once (default 1): the test's\n"
    "                     CTAs may wait for a slot while others of their instance run\n"
    "Exit status: 0 done; 1 a test failed to run or has fewer runs than asked (at most 10^6);\n"
    "2 bad usage, a file that is not a litmus test, or no GPU.\n";

typedef struct {
    const char *out, *ptx_dir;
    unsigned long long runs, seed;
    double seconds;
    unsigned block, instances, stride, stress, pre, spin;
    unsigned loop_bound, oversubscribe; /* --progress (0: not a progress run), --oversubscribe */
} options;

static int usage_error(const char *fmt, const char *arg)
{
    fputs("litmus_gpu: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs(" (see litmus_gpu --help)\n", stderr);
    return 2;
}

static int number(const char *opt, const char *s, unsigned long long lo, unsigned long long hi,
                  unsigned long long *v)
{
    char *end;
    errno = 0;
    *v = strtoull(s, &end, 0);
    if (!*s || *end || errno || s[0] == '-' || *v < lo || *v > hi) {
        fprintf(stderr, "litmus_gpu: %s wants a whole number from %llu to %llu, not '%s'\n", opt, lo, hi, s);
        return -1;
    }
    return 0;
}

/* The options that set an unsigned field within bounds. */
typedef struct {
    const char *name;
    unsigned long long lo, hi;
    unsigned *field;
} unsigned_option;

/* Whether name is one of them; *u then says its bounds and field in o. */
static bool unsigned_option_of(const char *name, options *o, unsigned_option *u)
{
    const unsigned_option all[] = {
        {"--instances", 1, 1u << 24, &o->instances},  {"--stride", 1, 64, &o->stride},
        {"--stress-iters", 0, 100000, &o->stress},    {"--pre-iters", 0, 100000, &o->pre},
        {"--progress", 16, 100000000, &o->loop_bound}, {"--oversubscribe", 1, 16, &o->oversubscribe},
        {"--spin", 1, 10000000, &o->spin},
    };
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++)
        if (strcmp(name, all[k].name) == 0) {
            *u = all[k];
            return true;
        }
    return false;
}

/* Parses the options; returns the index of the first test, or -1 (exit 2). */
static int parse_options(int argc, char **argv, options *o)
{
    *o = (options){"litmus-gpu.json", NULL, 5000000, 0, 4.0, 256, 0, 1, 64, 8, 20000, 0, 1};
    bool seeded = false;
    int i = 1;
    for (; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0) {
            fputs(usage, stdout);
            exit(0);
        }
        if (i + 1 >= argc) {
            usage_error("%s needs a value", a);
            return -1;
        }
        const char *v = argv[++i];
        unsigned long long x;
        int rc = 0;
        if (strcmp(a, "--out") == 0) {
            o->out = v;
        } else if (strcmp(a, "--ptx") == 0) {
            o->ptx_dir = v;
        } else if (strcmp(a, "--runs") == 0) {
            rc = number(a, v, 1, 1ull << 40, &o->runs);
        } else if (strcmp(a, "--seed") == 0) {
            rc = number(a, v, 0, ~0ull, &o->seed);
            seeded = true;
        } else if (strcmp(a, "--seconds") == 0) {
            rc = number(a, v, 1, 3600, &x);
            o->seconds = (double)x;
        } else if (strcmp(a, "--block") == 0) {
            rc = number(a, v, 64, 1024, &x);
            o->block = (unsigned)x;
            if (!rc && x % 32) {
                usage_error("--block wants a multiple of 32, not '%s'", v);
                rc = -1;
            }
        } else {
            unsigned_option u;
            if (!unsigned_option_of(a, o, &u)) {
                usage_error("unknown option '%s'", a);
                return -1;
            }
            rc = number(a, v, u.lo, u.hi, &x);
            *u.field = (unsigned)x;
        }
        if (rc < 0)
            return -1;
    }
    if (i >= argc) {
        usage_error("%s", "no test file given");
        return -1;
    }
    for (int j = i; j < argc; j++)
        if (strncmp(argv[j], "--", 2) == 0) {
            usage_error("options come before the test files ('%s')", argv[j]);
            return -1;
        }
    if (!seeded)
        o->seed = (unsigned long long)time(NULL) ^ ((unsigned long long)clock() << 32);
    return i;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* --ptx: each test's kernel into dir, no GPU. */
static int write_kernels(const char *dir, lit_test *tests, unsigned n, bool bounded_loops)
{
    int rc = 0;
    mkdir(dir, 0777);
    for (unsigned i = 0; i < n; i++) {
        lit_test *t = &tests[i];
        lg_results r;
        lg_result_layout(t, &r);
        char err[700];
        char *ptx = lg_kernel_ptx(t, &r, bounded_loops, err, sizeof err);
        if (!ptx) {
            const char *why = lg_inexpressible(t, bounded_loops);
            printf("%s: skipped: %s\n", t->name, why ? why : err);
            continue;
        }
        char path[4200];
        snprintf(path, sizeof path, "%s/%s.ptx", dir, t->name);
        FILE *f = fopen(path, "w");
        if (!f || fputs(ptx, f) < 0 || fclose(f) != 0) {
            fprintf(stderr, "litmus_gpu: cannot write %s: %s\n", path, strerror(errno));
            rc = 2;
        } else {
            printf("%s: %s\n", t->name, path);
        }
        free(ptx);
    }
    return rc;
}

typedef struct {
    const options *o;
    lg_gpu *gpu;
    uint64_t rng;
    unsigned grid_used;
} campaign;

/* Runs one test into rec. 0; 1 the test could not run here (rec->skipped
 * says why; the campaign goes on); -1 a GPU failure (err; it stops). */
static int run_test(campaign *c, lit_test *t, lg_record *rec, char *err, size_t errlen)
{
    const options *o = c->o;
    const bool progress = o->loop_bound > 0;
    const char *why = lg_inexpressible(t, progress);
    if (why) {
        snprintf(rec->skipped, sizeof rec->skipped, "%s", why);
        return 0;
    }
    lg_results r;
    lg_result_layout(t, &r);
    char *ptx = lg_kernel_ptx(t, &r, progress, err, errlen);
    if (!ptx && t->unsupported[0]) { /* an instruction the model does not cover either */
        snprintf(rec->skipped, sizeof rec->skipped, "%s", t->unsupported);
        return 0;
    }
    int per_sm = 0;
    if (!ptx || lg_gpu_load(c->gpu, ptx, o->block, &per_sm, err, errlen) < 0) {
        free(ptx);
        snprintf(rec->skipped, sizeof rec->skipped, "%.190s", err);
        return 1;
    }
    free(ptx);
    const unsigned sms = (unsigned)lg_gpu_sms(c->gpu);
    /* every CTA resident at once: the start's wait then always ends (a
     * progress run, which has no such wait, may ask for more) */
    lg_geometry g = {sms * (unsigned)(per_sm > 0 ? per_sm : 1) * o->oversubscribe, o->block, o->instances, o->stride};
    c->grid_used = g.grid;
    const unsigned long long room = (unsigned long long)g.grid * lg_cta_capacity(&g) / t->nthreads;
    if (!g.instances)
        g.instances = (unsigned)((unsigned long long)g.grid * g.block / 4 / t->nthreads);
    if (g.instances > room)
        g.instances = (unsigned)room;
    if (g.grid < t->nblocks || g.instances == 0) {
        snprintf(rec->skipped, sizeof rec->skipped, "a grid of %u CTAs of %u threads cannot hold it", g.grid,
                 g.block);
        return 1;
    }
    rec->instances = g.instances;
    lg_launch L;
    lg_hist h;
    lg_hist_init(&h, t->nnamed);
    const size_t words[LG_NBUF] = {
        [LG_BUF_MEM] = (size_t)g.instances * t->nlocs * g.stride, [LG_BUF_OUT] = (size_t)g.instances * r.nres,
        [LG_BUF_ROLES] = (size_t)g.grid * g.block,  [LG_BUF_ADDR] = (size_t)g.instances * t->nlocs,
        [LG_BUF_SYNC] = g.instances, [LG_BUF_SCRATCH] = STRESS_LINES_MAX * LINE_WORDS, [LG_BUF_PARAMS] = LG_P_WORDS};
    uint32_t *out = malloc(((size_t)g.instances * r.nres + 1) * sizeof *out);
    if (!out || lg_launch_alloc(&L, t, &g) < 0) {
        free(out);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = lg_gpu_alloc(c->gpu, words, err, errlen);
    const unsigned long long floor_runs = o->runs < MIN_RUNS ? o->runs : MIN_RUNS;
    const double t0 = now();
    while (rc == 0 && rec->runs < o->runs) {
        const double spent = now() - t0;
        if ((spent > o->seconds && rec->runs >= floor_runs) || spent > 4 * o->seconds)
            break;
        const unsigned placed = lg_place(&L, t, &g, &c->rng);
        uint32_t params[LG_P_WORDS] = {0};
        params[LG_P_ITERS] = o->stress;
        params[LG_P_PRE_ITERS] = o->pre;
        params[LG_P_PATTERN] = lg_below(&c->rng, 4);
        params[LG_P_LINES] = 1u << lg_below(&c->rng, 7); /* 1 .. 64 lines */
        params[LG_P_LINE_WORDS] = LINE_WORDS;
        params[LG_P_SPIN] = o->spin;
        params[LG_P_LOOP_BOUND] = o->loop_bound;
        if (lg_gpu_put(c->gpu, LG_BUF_ROLES, L.roles, words[LG_BUF_ROLES], err, errlen) < 0 ||
            lg_gpu_put(c->gpu, LG_BUF_ADDR, L.addr, words[LG_BUF_ADDR], err, errlen) < 0 ||
            lg_gpu_put(c->gpu, LG_BUF_MEM, L.mem, L.mem_words, err, errlen) < 0 ||
            lg_gpu_put(c->gpu, LG_BUF_PARAMS, params, LG_P_WORDS, err, errlen) < 0 ||
            lg_gpu_fill(c->gpu, LG_BUF_SYNC, 0, words[LG_BUF_SYNC], err, errlen) < 0 ||
            lg_gpu_fill(c->gpu, LG_BUF_OUT, BAD_WORD, words[LG_BUF_OUT], err, errlen) < 0 ||
            lg_gpu_launch(c->gpu, g.grid, g.block, err, errlen) < 0 ||
            lg_gpu_get(c->gpu, LG_BUF_OUT, out, (size_t)placed * r.nres, err, errlen) < 0 ||
            lg_gpu_get(c->gpu, LG_BUF_MEM, L.mem, L.mem_words, err, errlen) < 0 ||
            lg_gpu_get(c->gpu, LG_BUF_PARAMS, params, LG_P_WORDS, err, errlen) < 0) {
            rc = -1;
            break;
        }
        if (lg_hist_launch(&h, t, &r, placed, out, L.mem, L.addr) < 0) {
            snprintf(err, errlen, "out of memory");
            rc = -1;
            break;
        }
        rec->runs += placed;
        rec->launches++;
        rec->timeouts += params[LG_P_TIMEOUTS];
        rec->hung += params[LG_P_HUNG];
    }
    rec->seconds = now() - t0;
    if (lg_record_outcomes(rec, t, &h) < 0 && rc == 0) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
    }
    lg_hist_free(&h);
    lg_launch_free(&L);
    free(out);
    return rc;
}

static void print_record(const lg_record *rec)
{
    if (rec->skipped[0]) {
        printf("%s: skipped: %s\n", rec->name, rec->skipped);
        return;
    }
    printf("%s: %llu runs (%llu launches of %u instances), %.2f s, %u outcome%s\n", rec->name,
           (unsigned long long)rec->runs, (unsigned long long)rec->launches, rec->instances, rec->seconds, rec->nout,
           rec->nout == 1 ? "" : "s");
    for (unsigned k = 0; k < rec->nout; k++)
        printf("  %-40s %12llu%s\n", rec->out[k].state, (unsigned long long)rec->out[k].count,
               rec->out[k].body ? "  <- the condition's body" : "");
    if (rec->hung)
        printf("  %llu testing threads stopped at the loop bound (hung)\n", (unsigned long long)rec->hung);
    if (rec->timeouts)
        printf("  %llu testing threads started without waiting for their instance (bounded wait)\n",
               (unsigned long long)rec->timeouts);
    fflush(stdout);
}

/* Every test on the GPU, the JSON rewritten after each. The exit status. */
static int run_campaign(campaign *c, int argc, char **argv, int first, lit_test *tests, lg_record *recs, unsigned n)
{
    const options *o = c->o;
    char err[9000];
    char command[2048] = "litmus_gpu", date[32];
    for (int i = 1; i < argc; i++)
        if (strlen(command) + strlen(argv[i]) + 2 < sizeof command)
            strcat(strcat(command, " "), argv[i]);
    const time_t wall = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&wall));
    lg_meta m = {command, lg_gpu_name(c->gpu), date, lg_gpu_driver_version(c->gpu), lg_gpu_sms(c->gpu), o->seed,
                 o->block, 0, o->stride, o->stress, o->pre, o->spin, o->loop_bound, o->oversubscribe, o->runs, false};
    printf("litmus_gpu: %s (%d multiprocessors, driver %d), seed %llu, %u tests -> %s\n", m.device, m.sms, m.driver,
           o->seed, n, o->out);
    int status = 0;
    const unsigned long long floor_runs = o->runs < MIN_RUNS ? o->runs : MIN_RUNS;
    unsigned done = 0;
    for (; done < n; done++) {
        lg_record *rec = &recs[done];
        snprintf(rec->name, sizeof rec->name, "%s", tests[done].name);
        snprintf(rec->file, sizeof rec->file, "%s", argv[first + (int)done]);
        const int rc = run_test(c, &tests[done], rec, err, sizeof err);
        m.grid = c->grid_used;
        if (rc < 0) {
            fprintf(stderr, "litmus_gpu: %s: %s\n", rec->name, err);
            status = 1;
            break;
        }
        if (rc > 0)
            status = 1;
        print_record(rec);
        if (!rec->skipped[0] && rec->runs < floor_runs) {
            fprintf(stderr, "litmus_gpu: %s: only %llu runs in the time allowed\n", rec->name,
                    (unsigned long long)rec->runs);
            status = 1;
        }
        m.complete = done + 1 == n;
        if (lg_write_json(o->out, &m, recs, done + 1) < 0) {
            fprintf(stderr, "litmus_gpu: cannot write %s: %s\n", o->out, strerror(errno));
            status = 2;
            break;
        }
    }
    unsigned run = 0, skipped = 0;
    for (unsigned i = 0; i < done && i < n; i++)
        recs[i].skipped[0] ? skipped++ : run++;
    printf("litmus_gpu: %u tests run, %u skipped%s; seed %llu\n", run, skipped,
           done < n ? ", the campaign stopped early" : "", o->seed);
    return status;
}

int main(int argc, char **argv)
{
    options o;
    const int first = parse_options(argc, argv, &o);
    if (first < 0)
        return 2;
    const unsigned n = (unsigned)(argc - first);
    lit_test *tests = calloc(n, sizeof *tests);
    lg_record *recs = calloc(n, sizeof *recs);
    if (!tests || !recs) {
        fprintf(stderr, "litmus_gpu: out of memory\n");
        return 2;
    }
    char err[9000];
    int status = 0;
    unsigned parsed = 0;
    for (; parsed < n && status == 0; parsed++)
        if ((o.loop_bound ? lit_parse_progress_file : lit_parse_file)(argv[first + (int)parsed], &tests[parsed], err,
                                                                       sizeof err) < 0) {
            fprintf(stderr, "litmus_gpu: %s\n", err);
            status = 2;
        }
    campaign c = {&o, NULL, o.seed, 0};
    if (status == 0 && o.ptx_dir)
        status = write_kernels(o.ptx_dir, tests, n, o.loop_bound > 0);
    else if (status == 0 && !(c.gpu = lg_gpu_open(err, sizeof err))) {
        fprintf(stderr, "litmus_gpu: %s\n", err);
        status = 2;
    }
    if (c.gpu)
        status = run_campaign(&c, argc, argv, first, tests, recs, n);
    for (unsigned i = 0; i < n; i++) {
        lg_record_free(&recs[i]);
        if (i < parsed)
            lit_free(&tests[i]);
    }
    free(recs);
    free(tests);
    lg_gpu_close(c.gpu);
    return status;
}
