/* scanlab report: claim DIR, run every section of the report into the
 * staging folder DIR.tmp-XXXXXX, and move it into DIR only when every
 * section completed, so that a report that failed never looks complete
 * (verify/report/report_dir.h). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cpu/cpu.h"
#include "verify/campaign/ranks.h"
#include "verify/cli/cli.h"
#include "verify/cli/commands.h"
#include "verify/cli/options.h"
#include "verify/cli/progress.h"
#include "verify/cli/user_kernel.h"
#include "verify/formats/output.h"
#include "verify/harness/harness.h"
#include "verify/report/kernel_coverage.h"
#include "verify/report/plot.h"
#include "verify/report/report.h"
#include "verify/report/report_dir.h"

#define DEFAULT_DIR "report"

static const cli_cmd_opt report_opts[] = {
    {OPT_OUTPUT, "Here: the report's directory (default '" DEFAULT_DIR "'); an existing one must "
                 "be empty or an earlier report (not a symbolic link, not the working directory); "
                 "only the earlier report's files are replaced"},
    {OPT_QUICK, NULL},
    {OPT_SEED, NULL},
    {OPT_ALLOW_RACES, NULL},
    {OPT_ALLOW_UNREACHED, "Here: the coverage section lists the unreached sites without failing (--quick never "
                          "fails on them: its selection is reduced)"},
    {OPT_JOBS, "Here: the threads of the OpenMP scans (the simulator's runs take one thread)"},
    {OPT_LITMUS_OBSERVED, "Here: shown in the litmus section; a file that cannot be read is refused"},
    {OPT_TYPE, "With --kernel: the one type the kernel scans (default i32)"},
    {OPT_OP, "With --kernel: the one operator it computes (default add)"},
    {OPT_EXCLUSIVE, "With --kernel: it computes the exclusive scan"},
    {OPT_N, "With --kernel: the sizes its section runs (default: the harness's edge sizes up to 4096)"},
    {OPT_BLOCK, "With --kernel: its threads per block (default 256)"},
};

static const cli_command report_cmd = {
    "report", "[-o DIR] [--quick] [--seed S] [--jobs J] [--allow-races] [--allow-unreached] [--litmus-observed FILE] "
    "[--kernel FILE --entry NAME ...]",
    "Runs every analysis on a default selection sized for a few minutes on two cores and writes "
    "DIR/index.html (tables and SVG figures drawn by gnuplot), DIR/report.md (the same tables) "
    "and DIR/<table>.csv and .json for every table. Sections: the algorithm table, verification "
    "verdicts (every finding of the simulator fails them), deadlock freedom, the project's litmus tests of the "
    "memory model with the outcomes a GPU showed (docs/data/litmus-h100.json, or --litmus-observed), work and "
    "steps of one block, bank conflicts, float error against n and against the index, GPU runs (when a GPU is "
    "present), the simulator's counts and predicted times against the last recorded GPU run "
    "(docs/data/fidelity-h100.json) and the call sites of each kernel the verification reached (with gcov's "
    "numbers when coverage/run.sh has made them). With --kernel FILE.cu|FILE.ptx --entry NAME (and --args, "
    "--grid, --shared, "
    "--scratch, --arch as for verify --kernel) a first section checks that kernel: its verdict, findings and "
    "counts per size (docs/ptx.md). DIR is claimed when the report starts; the report is written "
    "to DIR.tmp-XXXXXX and moved into DIR when it is complete; a section that fails leaves the "
    "staging folder, its page saying INCOMPLETE. An interrupt removes what the report wrote.",
    report_opts, sizeof report_opts / sizeof report_opts[0],
    "the report is incomplete (a section failed) or a check in it failed", .dry_run = true};

typedef struct {
    const char *dir;
    const char *seed;
    const char *litmus_observed; /* --litmus-observed, or NULL */
    bool quick, help, allow_races, allow_unreached;
    report_user_kernel kernel; /* algo NULL: no --kernel */
} options;

static int parse_options(int argc, char **argv, options *o, cli_args *a)
{
    int rc = cli_parse(&report_cmd, argc, argv, a);
    if (rc != CLI_EXIT_OK)
        return rc;
    o->help = a->set[OPT_HELP];
    if (a->val[OPT_OUTPUT])
        o->dir = a->val[OPT_OUTPUT];
    o->seed = a->val[OPT_SEED];
    o->quick = a->set[OPT_QUICK];
    o->allow_races = a->set[OPT_ALLOW_RACES];
    o->allow_unreached = a->set[OPT_ALLOW_UNREACHED];
    o->litmus_observed = a->val[OPT_LITMUS_OBSERVED];
    /* a file named is read before anything runs, so that a typing error
     * does not cost a whole report */
    if (!o->help && o->litmus_observed && access(o->litmus_observed, R_OK) != 0) {
        char buf[128];
        const int e = errno;
        cli_args_free(a);
        return cli_usage_error("report: --litmus-observed: cannot read '%s': %s",
                               cli_printable(o->litmus_observed, -1, buf, sizeof buf), strerror(e));
    }
    /* the folder itself is checked and claimed by report_dir_claim */
    return CLI_EXIT_OK;
}

/* The options that say what a user's kernel computes: only with --kernel. */
static int take_kernel_options(const cli_args *a, options *o)
{
    static const struct {
        cli_opt opt;
        const char *name;
    } kopts[] = {{OPT_TYPE, "type"}, {OPT_OP, "op"}, {OPT_EXCLUSIVE, "exclusive"}, {OPT_N, "n"}, {OPT_BLOCK, "block"}};
    if (!o->kernel.algo) {
        for (size_t k = 0; k < sizeof kopts / sizeof kopts[0]; k++)
            if (a->set[kopts[k].opt])
                return cli_usage_error("report: --%s goes with --kernel FILE --entry NAME", kopts[k].name);
        return CLI_EXIT_OK;
    }
    report_user_kernel *k = &o->kernel;
    char why[256];
    k->type = SL_I32;
    k->op = SL_ADD;
    if (a->val[OPT_TYPE] && verify_parse_type(a->val[OPT_TYPE], &k->type, why, sizeof why) != SL_OK)
        return cli_usage_error("report: --type: %s", why);
    if (a->val[OPT_OP] && verify_parse_op(a->val[OPT_OP], &k->op, why, sizeof why) != SL_OK)
        return cli_usage_error("report: --op: %s", why);
    if (!SL_OP_APPLIES(k->op, k->type))
        return cli_usage_error("report: --op %s does not apply to --type %s", verify_op_name(k->op),
                               verify_type_name(k->type));
    k->exclusive = a->set[OPT_EXCLUSIVE];
    if (a->val[OPT_N] && cli_parse_size_list("--n", a->val[OPT_N], &k->sizes, &k->nsizes) != SL_OK)
        return CLI_EXIT_USAGE;
    if (a->val[OPT_BLOCK] && cli_parse_int("--block", a->val[OPT_BLOCK], 1, 1024, &k->block) != SL_OK)
        return CLI_EXIT_USAGE;
    return CLI_EXIT_OK;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void on_continue(int sig) { (void)sig; }

/* SCANLAB_REPORT_HOLD=<name>: wait before that section until SIGUSR1 (or
 * an interrupt), so that the tests can act while a report runs. */
static void hold_before(const report_section *s)
{
    const char *hold = getenv("SCANLAB_REPORT_HOLD");
    if (!hold || strcmp(hold, s->def->name) != 0)
        return;
    sigset_t usr1, old;
    sigemptyset(&usr1);
    sigaddset(&usr1, SIGUSR1);
    sigprocmask(SIG_BLOCK, &usr1, &old);
    signal(SIGUSR1, on_continue);
    fprintf(stderr, "scanlab: report: holding before section %s (SIGUSR1 continues)\n", s->def->name);
    sigset_t wait_mask = old;
    sigdelset(&wait_mask, SIGUSR1);
    sigsuspend(&wait_mask);
    sigprocmask(SIG_SETMASK, &old, NULL);
    signal(SIGUSR1, SIG_DFL);
}

/* Run one section; SCANLAB_REPORT_FAIL=<name> makes it fail on purpose,
 * which the tests use to check the incomplete path. */
/* The sections whose work the ranks of a campaign share (docs/scaling.md):
 * every rank runs them, rank 0 alone runs the others. */
static bool shared_section(const report_section *s)
{
    static const char *const names[] = {"verify", "deadlock", "accuracy"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(s->def->name, names[i]) == 0)
            return true;
    return false;
}

/* SCANLAB_REPORT_ONLY=<name>[,<name>...] (tests only): the sections not
 * named are left out, each saying so on the page, so that a test of the
 * report's folder handling need not run every analysis. */
static bool left_out(const report_section *s)
{
    const char *only = getenv("SCANLAB_REPORT_ONLY");
    if (!only)
        return false;
    const size_t len = strlen(s->def->name);
    for (const char *p = only; *p;) {
        const char *end = strchr(p, ',');
        const size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n == len && strncmp(p, s->def->name, n) == 0)
            return false;
        p += n + (end != NULL);
    }
    return true;
}

static void run_section(report_section *s)
{
    if (left_out(s)) {
        report_text(s, "Left out: SCANLAB_REPORT_ONLY=%s (a setting for tests) names the sections to run.",
                    getenv("SCANLAB_REPORT_ONLY"));
        return;
    }
    hold_before(s);
    const char *force = getenv("SCANLAB_REPORT_FAIL");
    double t0 = now_s();
    /* a shared section runs still, at rank 0 too, or the other ranks
     * would wait for rank 0's share forever */
    if (force && strcmp(force, s->def->name) == 0 && ranks_many() && shared_section(s))
        s->def->run(s);
    if (force && strcmp(force, s->def->name) == 0)
        report_fail(s, SL_ERR_CHECK, "forced by SCANLAB_REPORT_FAIL=%s", force);
    else if (s->def->run(s) != SL_OK && s->status == SL_OK)
        report_fail(s, SL_ERR_CHECK, "the section did not complete");
    s->seconds = now_s() - t0;
}

static void command_line(report_ctx *ctx, int argc, char **argv)
{
    size_t len = (size_t)snprintf(ctx->command, sizeof ctx->command, "scanlab");
    for (int i = 0; i < argc && len < sizeof ctx->command; i++)
        len += (size_t)snprintf(ctx->command + len, sizeof ctx->command - len, " %s", argv[i]);
}

/* The other ranks of a campaign: their share of the shared sections,
 * nothing written (rank 0 alone touches the folder). */
static int run_share(report_ctx *ctx)
{
    report_section *secs = calloc(report_section_count, sizeof *secs);
    if (!secs)
        ranks_abort(1, "report: out of memory");
    for (size_t i = 0; i < report_section_count; i++) {
        report_section *s = &secs[i];
        s->def = &report_sections[i];
        s->ctx = ctx;
        if (shared_section(s) && !left_out(s))
            s->def->run(s);
        report_section_free(s);
    }
    free(secs);
    return CLI_EXIT_OK; /* rank 0's status is the campaign's (ranks_finish) */
}

static int run_report(report_ctx *ctx, report_dir *d)
{
    report_section *secs = calloc(report_section_count, sizeof *secs);
    if (!secs) {
        fprintf(stderr, "scanlab: report: out of memory\n");
        report_dir_release(d);
        return CLI_EXIT_FAILED;
    }
    bool tty = cli_stderr_is_tty();
    unsigned checks = 0;
    const report_section *failed = NULL;
    for (size_t i = 0; i < report_section_count; i++) {
        report_section *s = &secs[i];
        s->def = &report_sections[i];
        s->ctx = ctx;
        if (tty)
            fprintf(stderr, "scanlab: report: [%zu/%zu] %s ...\n", i + 1, report_section_count,
                    s->def->title);
        run_section(s);
        /* one line a section also on a pipe: a few a minute at most */
        fprintf(stderr, "scanlab: report: [%zu/%zu] %s: %s (%.1f s)\n", i + 1, report_section_count,
                s->def->name, s->status == SL_OK ? "done" : "FAILED", s->seconds);
        if (s->status != SL_OK) {
            fprintf(stderr, "scanlab: report: section %s failed: %s\n", s->def->name, s->why);
            if (!failed)
                failed = s;
        }
        checks += s->failed_checks;
    }
    sl_status st = report_write(ctx, secs, report_section_count);
    int rc = CLI_EXIT_OK;
    char why[2 * PATH_MAX];
    if (st != SL_OK) {
        fprintf(stderr, "scanlab: report: cannot write the report into %s: %s\n", d->tmp, sl_status_str(st));
        report_dir_release(d);
        rc = CLI_EXIT_FAILED;
    } else if (failed) {
        fprintf(stderr, "scanlab: report: INCOMPLETE: section %s failed: %s; the incomplete report is "
                        "in %s, %s was not written\n", failed->def->name, failed->why, d->tmp, d->dir);
        report_dir_release(d);
        rc = CLI_EXIT_FAILED;
    } else if (report_dir_install(d, ctx->command, why, sizeof why) != SL_OK) {
        fprintf(stderr, "scanlab: report: %s\n", why);
        report_dir_release(d);
        rc = CLI_EXIT_FAILED;
    } else {
        printf("wrote %s/index.html, %s/report.md and the tables' CSV and JSON\n", d->dir, d->dir);
        if (checks) {
            fprintf(stderr, "scanlab: report: %u check%s failed (see the report)\n", checks,
                    checks == 1 ? "" : "s");
            rc = CLI_EXIT_FAILED;
        }
    }
    report_dir_unguard();
    for (size_t i = 0; i < report_section_count; i++)
        report_section_free(&secs[i]);
    free(secs);
    return rc;
}

/* The report, its options parsed. */
static int report_body(const options *o, cli_args *args, int argc, char **argv)
{
    report_ctx ctx = {.quick = o->quick, .allow_unreached = o->allow_unreached,
                      .litmus_observed = o->litmus_observed,
                      .kernel = o->kernel.algo ? &o->kernel : NULL};
    /* the sections call the harness, whose verdicts carry the simulator's
     * findings */
    verify_set_allow_races(o->allow_races);
    int rc = cli_get_seed("report", args, &ctx.seed);
    int jobs = 0;
    if (rc == CLI_EXIT_OK && args->val[OPT_JOBS])
        rc = cli_get_jobs(args, &jobs);
    cli_args_free(args);
    if (rc != CLI_EXIT_OK)
        return CLI_EXIT_USAGE;
    cpu_omp_set_default_threads(jobs); /* 0: the runtime's default */
    static report_dir d; /* the signal handlers read it */
    char why[2 * PATH_MAX];
    if (cli_dry_run()) /* the folder checked, not claimed */
        return verify_output_check_dir(o->dir, why, sizeof why) == SL_OK
                   ? CLI_EXIT_OK
                   : cli_usage_error("report: -o: %s", why);
    /* rank 0 alone claims the folder, and tells the others whether it
     * could, before they compute their share */
    int claimed = ranks_rank() == 0 && report_dir_claim(&d, o->dir, why, sizeof why) == SL_OK;
    if (!ranks_broadcast(&claimed, sizeof claimed))
        ranks_abort(1, "report: the ranks could not agree to start");
    if (ranks_rank() != 0) {
        if (!claimed)
            return CLI_EXIT_USAGE;
        ctx.kcov = report_kcov_new();
        rc = run_share(&ctx);
        report_kcov_free(ctx.kcov);
        return rc;
    }
    if (!claimed)
        return cli_usage_error("report: -o: %s", why);
    report_dir_guard(&d);
    ctx.dir = d.tmp;
    ctx.kcov = report_kcov_new(); /* before any kernel runs */
    ctx.gnuplot = plot_gnuplot_available();
    command_line(&ctx, argc, argv);
    report_provenance(&ctx);
    cli_print_seed("report", ctx.seed);
    if (!ctx.gnuplot)
        fprintf(stderr, "scanlab: report: gnuplot not found on PATH: figures are skipped\n");
    rc = run_report(&ctx, &d);
    report_kcov_free(ctx.kcov);
    return rc;
}

/* The report over the catalogue; algos is the catalogue itself, or a
 * user's kernel (--kernel, user_kernel_dispatch), checked in a section of
 * its own before the catalogue's. */
static int report_main(int argc, char **argv, const verify_algo *algos, size_t count)
{
    options o = {.dir = DEFAULT_DIR};
    if (algos != verify_algos && count == 1)
        o.kernel.algo = algos;
    cli_args args;
    int rc = parse_options(argc, argv, &o, &args);
    if (rc != CLI_EXIT_OK || o.help)
        return rc;
    rc = take_kernel_options(&args, &o);
    if (rc != CLI_EXIT_OK)
        cli_args_free(&args);
    else
        rc = report_body(&o, &args, argc, argv);
    free(o.kernel.sizes);
    return rc;
}

int cmd_report(int argc, char **argv) { return user_kernel_dispatch("report", argc, argv, report_main); }
