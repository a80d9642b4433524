/* Report section "coverage": which call sites of each kernel the
 * verification section's inputs reached in the simulator (kernel_coverage.h),
 * every one they did not reach, and, where coverage/run.sh has made a
 * coverage build, gcov's line and branch numbers of the test suite, copied
 * into the report so that it stands alone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "verify/harness/algos.h"
#include "verify/report/kernel_coverage.h"
#include "verify/report/report.h"

/* gcovr's JSON summary, as coverage/run.sh writes it (relative to the
 * working directory: the main job runs from the repository root). */
#define GCOVR_SUMMARY "build-coverage/coverage.json"
#define GCOV_FOLDERS 4
static const char *const gcov_folders[GCOV_FOLDERS] = {"cuda/", "model/", "cpu/", "verify/"};

static double pct(size_t part, size_t whole) { return whole ? 100.0 * (double)part / (double)whole : 0.0; }

/* The number after "key": in text[0..len), or -1. */
static long long number_in(const char *text, size_t len, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    size_t plen = strlen(pat);
    for (size_t i = 0; i + plen < len; i++)
        if (memcmp(text + i, pat, plen) == 0)
            return strtoll(text + i + plen, NULL, 10);
    return -1;
}

typedef struct {
    long long lines, lines_total, branches, branches_total;
} gcov_counts;

/* Walk the flat file objects of a gcovr summary: for each "filename",
 * the counts of its object. */
static size_t gcov_files(const char *json, void (*each)(void *, const char *, const gcov_counts *), void *arg)
{
    size_t files = 0;
    for (const char *p = strstr(json, "\"filename\":"); p; p = strstr(p + 1, "\"filename\":")) {
        const char *open = p, *close = strchr(p, '}');
        while (open > json && *open != '{')
            open--;
        const char *q = strchr(p + 11, '"');
        const char *end = q ? strchr(q + 1, '"') : NULL;
        if (!close || !q || !end)
            break;
        char name[512];
        snprintf(name, sizeof name, "%.*s", (int)(end - q - 1), q + 1);
        size_t len = (size_t)(close - open);
        gcov_counts c = {number_in(open, len, "line_covered"), number_in(open, len, "line_total"),
                         number_in(open, len, "branch_covered"), number_in(open, len, "branch_total")};
        if (c.lines >= 0 && c.lines_total >= 0)
            each(arg, name, &c);
        files++;
    }
    return files;
}

typedef struct {
    report_table *kernels;
    gcov_counts folder[GCOV_FOLDERS];
    bool bad;
} gcov_walk;

static void gcov_one(void *arg, const char *name, const gcov_counts *c)
{
    gcov_walk *w = arg;
    for (size_t f = 0; f < GCOV_FOLDERS; f++)
        if (strncmp(name, gcov_folders[f], strlen(gcov_folders[f])) == 0) {
            w->folder[f].lines += c->lines;
            w->folder[f].lines_total += c->lines_total;
            w->folder[f].branches += c->branches > 0 ? c->branches : 0;
            w->folder[f].branches_total += c->branches_total > 0 ? c->branches_total : 0;
        }
    if (strncmp(name, "cuda/", 5) != 0 || strchr(name + 5, '/') == NULL)
        return; /* the kernel sources only: cuda/<level>/... */
    report_table *t = w->kernels;
    w->bad |= report_cell(t, "%s", name) || report_cell(t, "%lld", c->lines) ||
              report_cell(t, "%lld", c->lines_total) ||
              report_cell(t, "%.1f", pct((size_t)c->lines, (size_t)c->lines_total)) ||
              report_cell(t, "%lld", c->branches) || report_cell(t, "%lld", c->branches_total) ||
              report_cell(t, "%.1f", pct((size_t)(c->branches > 0 ? c->branches : 0),
                                         (size_t)(c->branches_total > 0 ? c->branches_total : 0)));
}

/* The test suite's gcov numbers, when a coverage build exists. */
static sl_status gcov_section(report_section *s)
{
    FILE *f = fopen(GCOVR_SUMMARY, "rb");
    if (!f) {
        report_text(s, "No coverage build was found (" GCOVR_SUMMARY " relative to the working directory): "
                       "sh coverage/run.sh makes one, with gcov's line and branch coverage of the test suite, "
                       "which this section then adds.");
        return SL_OK;
    }
    struct stat sb;
    char *json = NULL;
    if (fstat(fileno(f), &sb) == 0 && sb.st_size > 0 && (json = malloc((size_t)sb.st_size + 1))) {
        size_t got = fread(json, 1, (size_t)sb.st_size, f);
        json[got] = '\0';
    }
    fclose(f);
    if (!json)
        return report_fail(s, SL_ERR_IO, "cannot read %s", GCOVR_SUMMARY);
    static const report_col cols[] = {
        {"file", "file"}, {"lines", "lines run"}, {"lines_total", "lines"}, {"lines_percent", "lines [%]"},
        {"branches", "branches taken"}, {"branches_total", "branches"}, {"branches_percent", "branches [%]"}};
    char made[64] = "";
    struct tm tm;
    if (gmtime_r(&sb.st_mtime, &tm))
        strftime(made, sizeof made, "%Y-%m-%d %H:%M UTC", &tm);
    report_text(s, "The test suite's coverage by gcov (gcovr's summary " GCOVR_SUMMARY ", made by coverage/run.sh "
                   "on %s; the whole suite, not only the inputs above).", made);
    gcov_walk w = {.kernels = report_table_add(s, "coverage-gcov", "gcov line and branch coverage of the kernel "
                                               "sources by the test suite (simulator build)", cols, 7)};
    report_table *folders = report_table_add(s, "coverage-gcov-folders", "gcov coverage by folder", cols, 7);
    if (!w.kernels || !folders) {
        free(json);
        return report_fail(s, SL_ERR_NOMEM, "out of memory");
    }
    size_t files = gcov_files(json, gcov_one, &w);
    free(json);
    for (size_t i = 0; i < GCOV_FOLDERS && !w.bad; i++) {
        const gcov_counts *c = &w.folder[i];
        w.bad |= report_cell(folders, "%s", gcov_folders[i]) || report_cell(folders, "%lld", c->lines) ||
                 report_cell(folders, "%lld", c->lines_total) ||
                 report_cell(folders, "%.1f", pct((size_t)c->lines, (size_t)c->lines_total)) ||
                 report_cell(folders, "%lld", c->branches) || report_cell(folders, "%lld", c->branches_total) ||
                 report_cell(folders, "%.1f", pct((size_t)c->branches, (size_t)c->branches_total));
    }
    if (w.bad)
        return report_fail(s, SL_ERR_NOMEM, "out of memory");
    if (files == 0)
        return report_fail(s, SL_ERR_IO, "%s holds no file", GCOVR_SUMMARY);
    return SL_OK;
}

static sl_status kernel_tables(report_section *s, const report_kcov_result *r)
{
    static const report_col cols[] = {{"kernel", "kernel"},   {"sites", "call sites (lines)"},
                                      {"reached", "reached"}, {"percent", "reached [%]"},
                                      {"unreached", "not reached"}, {"files", "files"}};
    static const report_col line_cols[] = {{"kernel", "kernel"}, {"site", "call site"}, {"calls", "dialect calls"},
                                           {"reached_by", "reached by another kernel"}};
    static const report_col file_cols[] = {{"kernel", "kernel"}, {"file", "file"}, {"sites", "call sites (lines)"},
                                           {"reached", "reached"}};
    report_table *t = report_table_add(s, "coverage", "Call sites of each kernel reached by the verification "
                                       "inputs (simulator)", cols, 6);
    report_table *miss = report_table_add(s, "coverage-unreached", "Call sites no verification input reached",
                                          line_cols, 4);
    report_table *files = report_table_add(s, "coverage-files", "Call sites per kernel and file", file_cols, 4);
    if (!t || !miss || !files)
        return report_fail(s, SL_ERR_NOMEM, "out of memory");
    files->data_only = true;
    size_t sites = 0, reached = 0;
    bool bad = false;
    for (size_t i = 0; i < r->count && !bad; i++) {
        const report_kcov_kernel *k = &r->kernels[i];
        char list[512] = "";
        for (size_t f = 0; k->src->files[f]; f++) {
            size_t len = strlen(list);
            snprintf(list + len, sizeof list - len, "%s%s", f ? ", " : "", k->src->files[f]);
            bad |= report_cell(files, "%s", k->name) || report_cell(files, "%s", k->src->files[f]) ||
                   report_cell(files, "%zu", k->file_sites[f]) || report_cell(files, "%zu", k->file_reached[f]);
        }
        bad |= report_cell(t, "%s", k->name) || report_cell(t, "%zu", k->sites) || report_cell(t, "%zu", k->reached) ||
               report_cell(t, "%.1f", pct(k->reached, k->sites)) || report_cell(t, "%zu", k->sites - k->reached) ||
               report_cell(t, "%s", list);
        for (size_t l = 0; l < k->sites && !bad; l++) {
            const report_kcov_line *x = &k->lines[l];
            if (!x->reached)
                bad |= report_cell(miss, "%s", k->name) || report_cell(miss, "%s:%d", x->file, x->line) ||
                       report_cell(miss, "%s", x->what) || report_cell(miss, "%s", x->by ? x->by : "");
        }
        sites += k->sites;
        reached += k->reached;
    }
    if (!bad)
        bad = report_cell(t, "%s", "all kernels") || report_cell(t, "%zu", sites) || report_cell(t, "%zu", reached) ||
              report_cell(t, "%.1f", pct(reached, sites)) || report_cell(t, "%zu", sites - reached) ||
              report_cell(t, "%s", "");
    if (bad)
        return report_fail(s, SL_ERR_NOMEM, "out of memory");
    return SL_OK;
}

sl_status report_run_coverage(report_section *s)
{
    report_text(s, "Kernel coverage: the dialect call sites (loads, stores, barriers, shuffles, atomics, ...) of "
                   "every kernel, grouped by line, and whether the inputs of the verification section reached "
                   "them in the simulator. A kernel's sites are those of its template and of the kernel headers "
                   "the template includes (listed with it); the runs were attributed algorithm by algorithm, so "
                   "a line of a header that several kernels share counts for a kernel only when its own copy "
                   "ran, and a shared line only other kernels compile is not the kernel's. A line that another "
                   "kernel's inputs reached is named with that kernel: compiled into both, exercised by one.");
    const verify_algo **algos = calloc(verify_algo_count + 1, sizeof *algos);
    if (!algos)
        return report_fail(s, SL_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < verify_algo_count; i++)
        algos[i] = &verify_algos[i];
    report_kcov_result r;
    sl_status st = s->ctx->kcov ? report_kcov_compute(s->ctx->kcov, algos, verify_algo_count, &r) : SL_ERR_NOMEM;
    if (st != SL_OK) {
        free(algos);
        return report_fail(s, st, "kernel coverage: %s", sl_status_str(st));
    }
    bool ran = false;
    for (size_t i = 0; i < r.count; i++)
        ran |= r.kernels[i].reached > 0;
    if (!ran)
        report_text(s, "No kernel ran in the simulator before this section (the verification section did not "
                       "complete), so every call site shows as not reached.");
    /* a verdict must not rest on code that did not run (but in the
     * reduced selection of --quick) */
    size_t unreached = 0, exempt = 0;
    for (size_t i = 0; i < r.count; i++)
        for (size_t l = 0; l < r.kernels[i].sites; l++) {
            const report_kcov_line *x = &r.kernels[i].lines[l];
            unreached += report_kcov_line_fails(&r.kernels[i], x, algos, verify_algo_count);
            exempt += !x->reached && x->exempt[0];
        }
    if (unreached && !s->ctx->quick && !s->ctx->allow_unreached)
        s->failed_checks += (unsigned)unreached;
    free(algos);
    report_text(s, "%zu call site%s not reached that the verdicts need (a line of a kernel's own template, or "
                   "of a shared header that no kernel reached), and %zu that no correct run of the default "
                   "configuration reaches, each marked in the source with the reason (a spin's give-up, an "
                   "emulated adversary, a torn read, a setting other than the default): %s.", unreached,
                unreached == 1 ? "" : "s", exempt,
                !unreached                ? "every verdict of the verification section rests on code that ran"
                : s->ctx->quick           ? "listed, not failed: --quick checks a reduced selection"
                : s->ctx->allow_unreached ? "listed, not failed (--allow-unreached)"
                                          : "each one a failed check (--allow-unreached lists them without failing)");
    st = kernel_tables(s, &r);
    report_kcov_result_free(&r);
    if (st != SL_OK)
        return st;
    return gcov_section(s);
}
