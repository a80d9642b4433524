/* The litmus section's progress part: the project's progress litmus tests
 * (tests/litmus/progress) through the analysis `scanlab deadlock --litmus`
 * uses, each model's verdict under weak and strong fairness beside the
 * one the test states ("terminates: obe=no lobe=yes ...", and "terminates
 * strong: ..." where strong fairness differs); a difference,
 * or a test left without an answer, fails a check. */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/litmus/litmus.h"
#include "model/litmus/progress.h"
#include "verify/report/report.h"
#include "verify/report/report_progress.h"

#define PROGRESS_DIR "tests/litmus/progress"
#define PROGRESS_MAX_STATES 200000u
#define PROGRESS_BUDGET_S 120.0

/* The verdicts the file at path states on its line key ("\"terminates:",
 * or "\"terminates strong:" where strong fairness differs): a mask of the
 * models it names, and of those that terminate. False when it states none. */
static bool stated(const char *path, const char *key_line, unsigned *named, unsigned *yes)
{
    size_t len;
    int why;
    char *text = lit_read_text(path, 1u << 20, &len, &why);
    *named = *yes = 0;
    const char *line = text ? strstr(text, key_line) : NULL;
    const char *end = line ? strchr(line + 1, '"') : NULL;
    for (int m = 0; end && m < LIT_PM_COUNT; m++) {
        char key[32];
        snprintf(key, sizeof key, " %s=", lit_pmodel_name((lit_pmodel)m));
        const char *at = strstr(line, key);
        if (!at || at > end)
            continue;
        at += strlen(key);
        if (strncmp(at, "yes", 3) == 0 || strncmp(at, "no", 2) == 0) {
            *named |= 1u << m;
            *yes |= (at[0] == 'y') << m;
        }
    }
    free(text);
    return *named != 0;
}

static void verdicts(char *buf, size_t n, unsigned yes)
{
    buf[0] = 0;
    for (int m = 0; m < LIT_PM_COUNT; m++) {
        const size_t used = strlen(buf);
        snprintf(buf + used, n - used, "%s%s", m ? " / " : "", yes >> m & 1u ? "yes" : "no");
    }
}

static sl_status one_test(report_section *s, report_table *t, const char *path, unsigned *agree,
                          unsigned *failed, double *seconds)
{
    lit_test *lt = calloc(1, sizeof *lt); /* zeroed: lit_free is safe whatever the parse did */
    if (!lt)
        return SL_ERR_NOMEM;
    char err[600] = "", expect[140] = "-", weak[64] = "-", strong[64] = "-", check[700] = "ok";
    unsigned named, yes, named_strong, yes_strong, got[2] = {0, 0};
    lit_presult r;
    memset(&r, 0, sizeof r);
    const bool has = stated(path, "\"terminates:", &named, &yes);
    if (!stated(path, "\"terminates strong:", &named_strong, &yes_strong)) {
        named_strong = named; /* strong fairness gives the same verdicts */
        yes_strong = yes;
    }
    const lit_popts opts = {PROGRESS_MAX_STATES, PROGRESS_BUDGET_S, false, false};
    if (lit_parse_file(path, lt, err, sizeof err) < 0) {
        snprintf(check, sizeof check, "FAIL: %s", err);
    } else if (lit_progress_run(lt, &opts, &r, err, sizeof err) < 0) {
        snprintf(check, sizeof check, "FAIL: %s", err);
    } else if (!r.answered) {
        snprintf(check, sizeof check, "FAIL: no answer: %s", r.why);
    } else {
        for (int m = 0; m < LIT_PM_COUNT; m++)
            for (int f = 0; f < 2; f++)
                got[f] |= (unsigned)r.v[m][f].terminates << m;
        verdicts(weak, sizeof weak, got[0]);
        verdicts(strong, sizeof strong, got[1]);
        if (!has || named != (1u << LIT_PM_COUNT) - 1 || named_strong != named)
            snprintf(check, sizeof check, "FAIL: the test does not state a verdict for every model");
        else if (got[0] != yes || got[1] != yes_strong)
            snprintf(check, sizeof check, "FAIL: the analysis differs from the verdicts the test states");
    }
    if (has)
        verdicts(expect, sizeof expect, yes);
    if (has && yes_strong != yes) {
        char also[64];
        verdicts(also, sizeof also, yes_strong);
        const size_t used = strlen(expect);
        snprintf(expect + used, sizeof expect - used, "; strong: %s", also);
    }
    const bool ok = strcmp(check, "ok") == 0;
    *agree += ok;
    *failed += !ok;
    *seconds += r.seconds;
    const char *base = strrchr(path, '/');
    const sl_status st = report_cell(t, "%s", lt->name[0] ? lt->name : base ? base + 1 : path) ||
                                 report_cell(t, "%u", lt->nthreads) ||
                                 report_cell(t, "%llu", (unsigned long long)r.states) ||
                                 report_cell(t, "%s", expect) || report_cell(t, "%s", weak) ||
                                 report_cell(t, "%s", strong) || report_cell(t, "%s", check) ||
                                 report_cell(t, "%.3f", r.seconds)
                             ? SL_ERR_NOMEM
                             : SL_OK;
    lit_free(lt);
    free(lt);
    return st;
}

sl_status report_progress_litmus(report_section *s)
{
    static const report_col cols[] = {
        {"test", "test"},
        {"threads", "threads (a workgroup each)"},
        {"states", "states"},
        {"expected", "terminates, as the test states: obe / lobe / hsa / hsa+obe / fair (strong: where strong "
                     "fairness differs)"},
        {"weak", "the analysis, weak fairness"},
        {"strong", "the analysis, strong fairness"},
        {"check", "check"},
        {"seconds", "time (s)"}};
    char dir[4096], pattern[4200];
    snprintf(dir, sizeof dir, "%s/%s", report_source_root(), PROGRESS_DIR);
    snprintf(pattern, sizeof pattern, "%s/*.litmus", dir);
    glob_t g;
    const int grc = glob(pattern, 0, NULL, &g);
    if (grc == GLOB_NOSPACE)
        return SL_ERR_NOMEM;
    if (grc != 0)
        return report_text(s, "The project's progress litmus tests are not here (%s has none), so none was run.",
                           report_repo_path(dir));
    report_table *t = report_table_add(s, "progress-litmus", "The project's progress litmus tests: whether every "
                                       "execution each progress model allows terminates, against the verdicts "
                                       "the tests state", cols, sizeof cols / sizeof cols[0]);
    unsigned agree = 0, failed = 0;
    double seconds = 0;
    sl_status st = t ? SL_OK : SL_ERR_NOMEM;
    for (size_t i = 0; st == SL_OK && i < g.gl_pathc; i++)
        st = one_test(s, t, g.gl_pathv[i], &agree, &failed, &seconds);
    const size_t n = g.gl_pathc;
    globfree(&g);
    if (st != SL_OK)
        return st;
    s->failed_checks += failed;
    return report_text(s, "%zu progress litmus tests (%s), as 'scanlab deadlock --litmus' runs them: %u agree with "
                       "the verdicts they state for every model and both fairness conditions, %u failed; %.2f s. "
                       "Each model's guarantee and how the graph of states is searched for fair cycles: "
                       "docs/deadlock.md, 'Progress litmus tests'.",
                       n, report_repo_path(dir), agree, failed, seconds);
}
