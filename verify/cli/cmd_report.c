/* scanlab report: run every section of the report into DIR.tmp-XXXXXX and
 * rename it to DIR only when every section completed, so that a report that
 * failed never looks complete. */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "verify/cli/cli.h"
#include "verify/cli/commands.h"
#include "verify/cli/options.h"
#include "verify/cli/progress.h"
#include "verify/formats/output.h"
#include "verify/harness/harness.h"
#include "verify/report/plot.h"
#include "verify/report/report.h"

/* The file that marks a directory as a report, so that -o never replaces a
 * directory that holds anything else. */
#define REPORT_MARKER ".scanlab-report"
#define DEFAULT_DIR "report"
/* Descriptors nftw may hold open while removing a replaced report. */
#define REMOVE_FDS 16

static const cli_cmd_opt report_opts[] = {
    {OPT_OUTPUT, "Here: the report's directory (default '" DEFAULT_DIR "'); an existing one is "
                 "replaced only if it is empty or an earlier report"},
    {OPT_QUICK, NULL},
    {OPT_SEED, NULL},
    {OPT_ALLOW_RACES, NULL},
};

static const cli_command report_cmd = {
    "report", "[-o DIR] [--quick] [--seed S] [--allow-races]",
    "Runs every analysis on a default selection sized for a few minutes on two cores and writes "
    "DIR/index.html (tables and SVG figures drawn by gnuplot), DIR/report.md (the same tables) "
    "and DIR/<table>.csv and .json for every table. Sections: the algorithm table, verification "
    "verdicts (every finding of the simulator fails them), work and steps of one block, bank "
    "conflicts, float error against n and against the index, GPU runs (when a GPU is present) "
    "and the coverage (when it was measured). The report is written to DIR.tmp-XXXXXX and "
    "renamed to DIR when it is complete; a section that fails leaves the temporary directory, "
    "its page saying INCOMPLETE.",
    report_opts, sizeof report_opts / sizeof report_opts[0],
    "the report is incomplete (a section failed) or a check in it failed"};

typedef struct {
    const char *dir;
    const char *seed;
    bool quick, help, allow_races;
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
    /* a link, '.' or a folder that cannot be made is refused before the run */
    char why[VERIFY_WHY_SIZE];
    if (!o->help && verify_output_check_dir(o->dir, why, sizeof why) != SL_OK) {
        cli_args_free(a);
        return cli_usage_error("report: -o: %s", why);
    }
    return CLI_EXIT_OK;
}

/* An existing DIR may be replaced only when it is an earlier report or an
 * empty directory. */
static int check_target(const char *dir)
{
    struct stat sb;
    if (stat(dir, &sb) != 0)
        return errno == ENOENT ? CLI_EXIT_OK
                               : cli_usage_error("report: cannot use '%s': %s", dir, strerror(errno));
    if (!S_ISDIR(sb.st_mode))
        return cli_usage_error("report: '%s' exists and is not a directory", dir);
    char marker[PATH_MAX + 32];
    snprintf(marker, sizeof marker, "%s/" REPORT_MARKER, dir);
    if (access(marker, F_OK) == 0)
        return CLI_EXIT_OK;
    DIR *d = opendir(dir);
    if (!d)
        return cli_usage_error("report: cannot read '%s': %s", dir, strerror(errno));
    bool empty = true;
    for (struct dirent *e; empty && (e = readdir(d));)
        empty = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0;
    closedir(d);
    return empty ? CLI_EXIT_OK
                 : cli_usage_error("report: '%s' exists and is not a scanlab report; refusing to "
                                   "replace it (choose another -o)", dir);
}

static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path);
}

/* Put the finished tmp in place of dir, replacing an earlier report. */
static sl_status install(const char *tmp, const char *dir)
{
    char old[PATH_MAX + 32];
    bool had_old = false;
    struct stat sb;
    if (stat(dir, &sb) == 0) {
        snprintf(old, sizeof old, "%s.old-XXXXXX", dir);
        if (!mkdtemp(old) || rename(dir, old) != 0)
            return SL_ERR_IO;
        had_old = true;
    }
    if (rename(tmp, dir) != 0) {
        if (had_old)
            rename(old, dir);
        return SL_ERR_IO;
    }
    if (had_old)
        nftw(old, remove_entry, REMOVE_FDS, FTW_DEPTH | FTW_PHYS);
    return SL_OK;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Run one section; SCANLAB_REPORT_FAIL=<name> makes it fail on purpose,
 * which the tests use to check the incomplete path. */
static void run_section(report_section *s)
{
    const char *force = getenv("SCANLAB_REPORT_FAIL");
    double t0 = now_s();
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

static int run_report(report_ctx *ctx, const char *dir, const char *tmp)
{
    report_section *secs = calloc(report_section_count, sizeof *secs);
    if (!secs) {
        fprintf(stderr, "scanlab: report: out of memory\n");
        return CLI_EXIT_FAILED;
    }
    cli_progress progress;
    cli_progress_start(&progress, "report", "sections", report_section_count);
    unsigned checks = 0;
    const report_section *failed = NULL;
    for (size_t i = 0; i < report_section_count; i++) {
        report_section *s = &secs[i];
        s->def = &report_sections[i];
        s->ctx = ctx;
        cli_progress_update(&progress, i, s->def->title);
        run_section(s);
        if (s->status != SL_OK) {
            fprintf(stderr, "scanlab: report: section %s failed: %s\n", s->def->name, s->why);
            if (!failed)
                failed = s;
        }
        checks += s->failed_checks;
    }
    cli_progress_end(&progress);
    sl_status st = report_write(ctx, secs, report_section_count);
    int rc = CLI_EXIT_OK;
    if (st != SL_OK) {
        fprintf(stderr, "scanlab: report: cannot write the report into %s: %s\n", tmp, sl_status_str(st));
        rc = CLI_EXIT_FAILED;
    } else if (failed) {
        fprintf(stderr, "scanlab: report: INCOMPLETE: section %s failed: %s; the incomplete report is "
                        "in %s, %s was not written\n", failed->def->name, failed->why, tmp, dir);
        rc = CLI_EXIT_FAILED;
    } else {
        char marker[PATH_MAX + 64];
        snprintf(marker, sizeof marker, "%s/" REPORT_MARKER, tmp);
        FILE *m = fopen(marker, "w");
        if (!m || fprintf(m, "%s\n", ctx->command) < 0 || fclose(m) != 0 || install(tmp, dir) != SL_OK) {
            fprintf(stderr, "scanlab: report: cannot move %s to %s: %s\n", tmp, dir, strerror(errno));
            rc = CLI_EXIT_FAILED;
        } else {
            printf("wrote %s/index.html, %s/report.md and the tables' CSV and JSON\n", dir, dir);
            if (checks) {
                fprintf(stderr, "scanlab: report: %u check%s failed (see the report)\n", checks,
                        checks == 1 ? "" : "s");
                rc = CLI_EXIT_FAILED;
            }
        }
    }
    for (size_t i = 0; i < report_section_count; i++)
        report_section_free(&secs[i]);
    free(secs);
    return rc;
}

int cmd_report(int argc, char **argv)
{
    options o = {.dir = DEFAULT_DIR};
    cli_args args;
    int rc = parse_options(argc, argv, &o, &args);
    if (rc != CLI_EXIT_OK || o.help)
        return rc;
    report_ctx ctx = {.quick = o.quick};
    /* the sections call the harness, whose verdicts carry the simulator's
     * findings */
    verify_set_allow_races(o.allow_races);
    if (cli_get_seed("report", &args, &ctx.seed) != CLI_EXIT_OK)
        return CLI_EXIT_USAGE;
    size_t len = strlen(o.dir);
    while (len > 1 && o.dir[len - 1] == '/')
        len--;
    if (len > PATH_MAX - 32)
        return cli_usage_error("report: -o: directory name too long");
    char dir[PATH_MAX], tmp[PATH_MAX + 32];
    memcpy(dir, o.dir, len);
    dir[len] = '\0';
    if ((rc = check_target(dir)) != CLI_EXIT_OK)
        return rc;
    snprintf(tmp, sizeof tmp, "%s.tmp-XXXXXX", dir);
    if (!mkdtemp(tmp))
        return cli_usage_error("report: cannot write next to '%s': %s", dir, strerror(errno));
    chmod(tmp, 0755);
    ctx.dir = tmp;
    ctx.gnuplot = plot_gnuplot_available();
    command_line(&ctx, argc, argv);
    report_provenance(&ctx);
    cli_print_seed("report", ctx.seed);
    if (!ctx.gnuplot)
        fprintf(stderr, "scanlab: report: gnuplot not found on PATH: figures are skipped\n");
    return run_report(&ctx, dir, tmp);
}
