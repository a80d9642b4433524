/* Report section "litmus": the project's PTX litmus tests
 * (tests/litmus/tests) through the explorer `scanlab litmus` uses, each
 * verdict beside the one the test states (the PTX memory model's, and,
 * where scanlab's model is known to differ, its own with the reason: the
 * test files are the one list of those), and the outcomes a GPU showed
 * (docs/data/litmus-h100.json, or --litmus-observed), of which any that
 * the model forbids fails a check. What the memory model and the progress
 * models cover is said in two paragraphs. The tests take about a second,
 * so rank 0 runs them alone under a campaign (nothing to share). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "model/litmus/litmus.h"
#include "model/litmus/observed.h"
#include "verify/report/report.h"
#include "verify/report/report_progress.h"

#define LITMUS_DIR "tests/litmus/tests"
#define LITMUS_OBSERVED "docs/data/litmus-h100.json"
#define GPU_RUNS_WANTED 1000000ull /* tools/litmus_gpu's floor per test */

/* One test of the set, as the tables show it. */
typedef struct {
    char file[128], name[96], shape[64], placement[160], scopes[48], quant[8];
    char verdict[16]; /* the model's; "" when the test could not be run */
    char error[400];  /* why not, or why exploration was incomplete */
    lit_stated st;
    uint64_t executions;
    double seconds;
    /* the GPU's outcomes */
    int gpu;           /* 1 run, 0 not in the document, -1 states of another shape, -2 not judged */
    uint64_t runs;
    unsigned nseen, nforbidden;
    char weak[512], forbidden[512];
} lit_row;

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The *.litmus files of dir, sorted (byte order, as the test `litmus`
 * sorts them); -1 when dir cannot be opened, -2 out of memory. */
static int list_tests(const char *dir, char ***names, size_t *n)
{
    *names = NULL;
    *n = 0;
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    size_t cap = 0;
    int rc = 0;
    for (struct dirent *e; rc == 0 && (e = readdir(d)) != NULL;) {
        const size_t len = strlen(e->d_name);
        if (len <= 7 || strcmp(e->d_name + len - 7, ".litmus") != 0)
            continue;
        if (*n == cap) {
            cap = cap ? 2 * cap : 64;
            char **nn = realloc(*names, cap * sizeof *nn);
            if (!nn) {
                rc = -2;
                break;
            }
            *names = nn;
        }
        if (((*names)[*n] = strdup(e->d_name)) == NULL)
            rc = -2;
        else
            (*n)++;
    }
    closedir(d);
    if (*n)
        qsort(*names, *n, sizeof **names, by_name);
    return rc;
}

/* herd names a test by its shape, then its variants after '+': the name
 * up to the first '+' after its first letter (2+2W+rlx is 2+2W). */
static void shape_of(const char *name, char *buf, size_t n)
{
    size_t i = 0;
    while (name[i] && !((name[i] >= 'A' && name[i] <= 'Z') || (name[i] >= 'a' && name[i] <= 'z')))
        i++;
    while (name[i] && name[i] != '+')
        i++;
    snprintf(buf, n, "%.*s", (int)i, name);
}

/* Each thread's CTA, as the header places it: "cta 0 | cta 1". */
static void placement_of(const lit_test *t, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = 0;
    for (unsigned k = 0; k < t->nthreads && len < n; k++) {
        len += (size_t)snprintf(buf + len, n - len, "%scta %u", k ? " | " : "", t->th[k].cta);
        if (t->ngpus > 1 && len < n) /* CTA numbers are per GPU */
            len += (size_t)snprintf(buf + len, n - len, " gpu %u", t->th[k].gpu);
    }
}

/* The scopes the instructions name (membar.gl is gpu; volatile is
 * relaxed at system scope and named as written). */
static void scopes_of(const lit_test *t, char *buf, size_t n)
{
    static const char *const words[][2] = {{"cta", "cta"}, {"gpu", "gpu"}, {"gl", "gpu"}, {"sys", "sys"},
                                           {"volatile", "volatile"}};
    static const char *const shown[] = {"cta", "gpu", "sys", "volatile"};
    bool seen[4] = {false};
    for (unsigned k = 0; k < t->nthreads; k++)
        for (unsigned i = 0; i < t->th[k].ninsns; i++)
            for (const char *p = strchr(t->th[k].insn[i], '.'); p; p = strchr(p + 1, '.')) {
                size_t len = 0;
                while (p[1 + len] && (p[1 + len] == '_' || (p[1 + len] >= 'a' && p[1 + len] <= 'z')))
                    len++;
                for (size_t w = 0; w < sizeof words / sizeof words[0]; w++)
                    if (strlen(words[w][0]) == len && strncmp(p + 1, words[w][0], len) == 0)
                        for (size_t s = 0; s < 4; s++)
                            seen[s] |= strcmp(shown[s], words[w][1]) == 0;
            }
    size_t len = 0;
    buf[0] = 0;
    for (size_t s = 0; s < 4 && len < n; s++)
        if (seen[s])
            len += (size_t)snprintf(buf + len, n - len, "%s%s", len ? ", " : "", shown[s]);
    if (!len)
        snprintf(buf, n, "-");
}

/* The states of o the condition asks about (those satisfying the body of
 * exists and ~exists, those violating the body of forall) or those the
 * model forbids, "state (count); ..." */
static void states_of(const lit_test *t, const lit_observed *o, bool forbidden, char *buf, size_t n, unsigned *k)
{
    size_t len = 0;
    buf[0] = 0;
    *k = 0;
    for (unsigned i = 0; i < o->nseen; i++) {
        const lit_seen *x = &o->seen[i];
        const bool pick = forbidden ? !x->allowed : x->satisfies == (t->quant != LIT_FORALL);
        if (!pick)
            continue;
        (*k)++;
        if (len < n)
            len += (size_t)snprintf(buf + len, n - len, "%s%s (%llu)", len ? "; " : "", x->state,
                                    (unsigned long long)x->count);
    }
}

static const char *verdict_of(const lit_test *t, const lit_result *r)
{
    if (t->quant == LIT_FORALL)
        return r->all ? "holds" : "fails";
    return r->exists ? "allowed" : "forbidden";
}

/* Test file path run into row; doc the GPU's document or NULL. False
 * when out of memory. */
static bool run_test(const char *path, const char *doc, lit_row *row)
{
    lit_test *t = malloc(sizeof *t);
    if (!t)
        return false;
    row->gpu = -2;
    bool parsed = false;
    if (lit_stated_read(path, &row->st) < 0)
        snprintf(row->error, sizeof row->error, "the file cannot be read");
    else /* a file that is not a test: its message */
        parsed = lit_parse_file(path, t, row->error, sizeof row->error) == 0;
    if (!parsed) {
        free(t);
        return true;
    }
    snprintf(row->name, sizeof row->name, "%s", t->name);
    shape_of(t->name, row->shape, sizeof row->shape);
    placement_of(t, row->placement, sizeof row->placement);
    scopes_of(t, row->scopes, sizeof row->scopes);
    snprintf(row->quant, sizeof row->quant, "%s",
             t->quant == LIT_EXISTS ? "exists" : t->quant == LIT_NOT_EXISTS ? "~exists" : "forall");
    bool ok = true;
    char why[sizeof row->error];
    lit_result r;
    memset(&r, 0, sizeof r);
    if (t->unsupported[0]) {
        snprintf(row->verdict, sizeof row->verdict, "unsupported");
        snprintf(row->error, sizeof row->error, "%s", t->unsupported);
    } else if (lit_explore(t, LIT_DEFAULT_BOUND, &r, why, sizeof why) < 0) {
        snprintf(row->error, sizeof row->error, "%s", why); /* the message counts only on failure */
    } else {
        snprintf(row->verdict, sizeof row->verdict, "%s", verdict_of(t, &r));
        row->executions = r.executions;
        row->seconds = r.seconds;
        if (r.bounded || r.stuck || r.capped || (r.executions == 0 && r.hangs == 0))
            snprintf(row->error, sizeof row->error, "not every execution explored: %llu cut at %u turns, %llu "
                     "stopped%s%s%.200s", (unsigned long long)r.bounded, LIT_DEFAULT_BOUND, (unsigned long long)r.stuck,
                     r.capped ? ", the exploration capped at its paths" : "", r.finding[0] ? ": " : "", r.finding);
        if (doc) {
            lit_observed o;
            const int rc = lit_observed_check(doc, t, &r, &o);
            ok = rc != -2;
            row->gpu = rc < 0 ? -1 : o.run;
            row->runs = o.runs;
            row->nseen = o.nseen;
            unsigned k;
            states_of(t, &o, false, row->weak, sizeof row->weak, &k);
            states_of(t, &o, true, row->forbidden, sizeof row->forbidden, &row->nforbidden);
            lit_observed_free(&o);
        }
    }
    lit_result_free(&r);
    lit_free(t);
    free(t);
    return ok;
}

/* What the test states it should give: the model's known difference
 * where it names one, else the PTX model's verdict. */
static const char *stated_verdict(const lit_row *row)
{
    return row->st.model[0] ? row->st.model : row->st.expected;
}

/* The check of a row: "" when it passes, else why it fails. */
static void row_check(const lit_row *row, char *buf, size_t n)
{
    buf[0] = 0;
    if (!row->verdict[0])
        snprintf(buf, n, "FAIL: %s", row->error);
    else if (!row->st.expected[0])
        snprintf(buf, n, "FAIL: the test states no expected verdict");
    else if (strcmp(row->verdict, stated_verdict(row)) != 0)
        snprintf(buf, n, "FAIL: the model gives %s, the test states %s", row->verdict, stated_verdict(row));
    else if (row->error[0] && strcmp(row->verdict, "unsupported") != 0)
        snprintf(buf, n, "FAIL: %s", row->error);
}

static sl_status memory_text(report_section *s)
{
    return report_text(s, "What the memory model covers (docs/memory-model.md, 'Litmus tests'): weak accesses, "
                       "ordered only by happens-before (a race between them is a finding); volatile accesses, "
                       "relaxed at system scope; relaxed, acquire and release accesses at cta, gpu and sys "
                       "scope, which synchronise when each one's scope includes the other thread; atomics and "
                       "reductions, each reading the newest value (a relaxed RMW passes on the release of the "
                       "store it read); fence.acq_rel, and fence.sc and membar, totally ordered; bar.sync within "
                       "a CTA; coherence per location, a store placed before the stores not causally before it "
                       "(2+2W); causality through an observed store (WRC, IRIW with fences); load buffering, a "
                       "relaxed load bound at the first use of its value or an ordering point of its thread. "
                       "Outside it: proxies and asynchronous copies, several GPUs, named barriers with a thread "
                       "count; and, of the PTX model itself, chains of releasing RMWs, where the model allows "
                       "more than PTX (a false alarm at worst), and load buffering through a control dependency "
                       "or an atomic, where it allows less. The enumeration has "
                       "limits of its own: a plain load is no choice point and reads the newest store, a "
                       "location keeps its last 6 values, a thread reads at most 3 stale values of one location "
                       "in a row, and an execution is cut after %u turns.",
                    LIT_DEFAULT_BOUND);
}

static sl_status progress_text(report_section *s)
{
    return report_text(s, "The progress models (docs/deadlock.md) are those of the deadlock section: obe, lobe, "
                          "hsa and fair, each a condition on which blocks must keep being scheduled, searched "
                          "exhaustively over dispatch orders and turns on a small grid; for a kernel, a deadlock "
                          "is a reachable state in which no block the model must schedule can progress. The "
                          "progress litmus tests below add hsa+obe and weak and strong fairness, and find "
                          "non-termination without such a state too: a fair cycle of changing states (a "
                          "livelock) in the graph of the test's states. Outside them: weak memory within the "
                          "search (a load there sees the newest store), and livelocks in the catalogue's kernels "
                          "(their search ends a path at a state seen before). The published progress litmus "
                          "tests (Sorensen et al., OOPSLA 2021: 483 tests, tests/litmus/published/progress) are "
                          "held against their published verdicts by the test progress_published "
                          "(docs/deadlock.md), not run here.");
}

static sl_status verdict_tables(report_section *s, const lit_row *rows, size_t n, const char *dir)
{
    static const report_col cols[] = {
        {"test", "test"},         {"shape", "shape"},           {"threads", "threads (CTA)"},
        {"scopes", "scopes"},     {"condition", "condition"},   {"verdict", "model's verdict"},
        {"expected", "PTX model's verdict (stated)"},          {"agrees", "agrees"},
        {"check", "check"},       {"executions", "executions"}, {"seconds", "time (s)"}};
    static const report_col dcols[] = {{"test", "test"},
                                       {"verdict", "model's verdict"},
                                       {"expected", "PTX model's verdict"},
                                       {"reason", "why the model differs (the test's 'model:' line)"},
                                       {"ptx_reason", "why PTX gives its verdict (the test's 'expected:' line)"}};
    size_t agree = 0, known = 0, unsup = 0, failed = 0;
    uint64_t executions = 0;
    double seconds = 0;
    for (size_t i = 0; i < n; i++) {
        const lit_row *r = &rows[i];
        char check[600];
        row_check(r, check, sizeof check);
        failed += check[0] != 0;
        unsup += strcmp(r->verdict, "unsupported") == 0;
        agree += r->verdict[0] && strcmp(r->verdict, r->st.expected) == 0;
        known += !check[0] && r->st.model[0] && strcmp(r->verdict, r->st.expected) != 0;
        executions += r->executions;
        seconds += r->seconds;
    }
    s->failed_checks += (unsigned)failed;
    if (report_text(s, "%zu tests (%s): %zu agree with the PTX memory model, %zu differ as the tests state (known "
                       "differences, each with the reason its test gives, below), %zu unsupported, %zu failed "
                       "(a verdict other than the test states, or executions not all explored); %llu executions "
                       "explored in %.2f s. Each test is run as 'scanlab litmus' runs it: every interleaving of "
                       "its threads' events (a relaxed load's binding among them), every store a strong load may "
                       "return and every place in coherence order a store may take.",
                    n, dir, agree, known, unsup, failed, (unsigned long long)executions, seconds) != SL_OK)
        return SL_ERR_NOMEM;
    report_table *t = report_table_add(s, "litmus", "The project's litmus tests: the model's verdict against the "
                                       "PTX memory model's", cols, sizeof cols / sizeof cols[0]);
    if (!t)
        return SL_ERR_NOMEM;
    for (size_t i = 0; i < n; i++) {
        const lit_row *r = &rows[i];
        char check[600], agrees[32];
        row_check(r, check, sizeof check);
        snprintf(agrees, sizeof agrees, "%s",
                 !r->verdict[0] || !r->st.expected[0]        ? "-"
                 : strcmp(r->verdict, r->st.expected) == 0   ? "yes"
                 : r->st.model[0] && !check[0]               ? "no: known difference"
                                                             : "no");
        if (report_cell(t, "%s", r->name[0] ? r->name : r->file) || report_cell(t, "%s", r->shape) ||
            report_cell(t, "%s", r->placement) || report_cell(t, "%s", r->scopes) ||
            report_cell(t, "%s", r->quant) || report_cell(t, "%s", r->verdict[0] ? r->verdict : "-") ||
            report_cell(t, "%s", r->st.expected[0] ? r->st.expected : "-") || report_cell(t, "%s", agrees) ||
            report_cell(t, "%s", check[0] ? check : "ok") ||
            report_cell(t, "%llu", (unsigned long long)r->executions) || report_cell(t, "%.3f", r->seconds))
            return SL_ERR_NOMEM;
    }
    if (!known)
        return SL_OK;
    report_table *d = report_table_add(s, "litmus-differences", "Where the model differs from the PTX memory "
                                       "model, as the tests state it", dcols, sizeof dcols / sizeof dcols[0]);
    if (!d)
        return SL_ERR_NOMEM;
    for (size_t i = 0; i < n; i++) {
        const lit_row *r = &rows[i];
        char check[600];
        row_check(r, check, sizeof check);
        if (check[0] || !r->st.model[0] || strcmp(r->verdict, r->st.expected) == 0)
            continue;
        if (report_cell(d, "%s", r->name) || report_cell(d, "%s", r->verdict) ||
            report_cell(d, "%s", r->st.expected) || report_cell(d, "%s", r->st.model_why) ||
            report_cell(d, "%s", r->st.expected_why))
            return SL_ERR_NOMEM;
    }
    return SL_OK;
}

/* Whether the test states that the model allows less than the PTX model
 * (its "model:" line forbids what its "expected:" line allows): a gap
 * known and written down before any GPU ran, which an outcome seen on a GPU
 * confirms rather than discovers. */
static bool stated_gap(const lit_row *r)
{
    return r->st.model[0] && strcmp(r->st.model, "forbidden") == 0 && strcmp(r->st.expected, "allowed") == 0;
}

static sl_status gpu_table(report_section *s, const lit_row *rows, size_t n, const char *doc, const char *shown)
{
    static const report_col cols[] = {{"test", "test"},
                                      {"runs", "runs"},
                                      {"outcomes", "distinct outcomes"},
                                      {"weak", "the condition's outcomes seen (count)"},
                                      {"forbidden", "outcomes the model forbids (count)"},
                                      {"check", "check"}};
    char device[128], date[64];
    lit_observed_field(doc, "device", device, sizeof device);
    lit_observed_field(doc, "date", date, sizeof date);
    size_t run = 0, few = 0, weak = 0, bad = 0, gaps = 0;
    char gap_names[256] = "";
    for (size_t i = 0; i < n; i++) {
        run += rows[i].gpu == 1;
        few += rows[i].gpu == 1 && rows[i].runs < GPU_RUNS_WANTED;
        weak += rows[i].gpu == 1 && rows[i].weak[0];
        if (rows[i].gpu == 1 && rows[i].nforbidden && stated_gap(&rows[i])) {
            gaps++;
            const size_t len = strlen(gap_names);
            snprintf(gap_names + len, sizeof gap_names - len, "%s%s", len ? ", " : "", rows[i].name);
        } else {
            bad += rows[i].gpu == 1 ? rows[i].nforbidden : rows[i].gpu == -1;
        }
    }
    s->failed_checks += (unsigned)bad;
    char fewer[96] = "";
    if (few)
        snprintf(fewer, sizeof fewer, " (%zu of them with fewer than 10^6 runs)", few);
    if (report_text(s, "The outcomes a GPU showed: %s, %s (%s, recorded by 'tools/gpu-check.sh litmus'%s; nothing "
                       "ran on a GPU now). %zu of the %zu tests ran there%s; %zu showed an outcome the condition "
                       "asks about (one satisfying the body of exists or ~exists, one violating the body of "
                       "forall), and %zu outcome%s the model forbids (each a failed check: the model would pass "
                       "what the hardware does). An outcome the model allows but the GPU never showed is no "
                       "failure.",
                    device[0] ? device : "an unnamed GPU", date[0] ? date : "undated", shown,
                    lit_observed_complete(doc) ? "" : ", a campaign that did not finish", run, n, fewer, weak, bad,
                    bad == 1 ? "" : "s") != SL_OK)
        return SL_ERR_NOMEM;
    if (gaps && report_text(s, "Known gaps of the model, confirmed by the GPU: %zu test%s (%s) state%s that the "
                               "model forbids what the PTX model allows, and the GPU showed it. There the model "
                               "is unsound: a kernel whose bug needs that behaviour passes scanlab. Stated in "
                               "the tests and in docs/memory-model.md before the GPU ran; not counted as failed "
                               "checks, as a new difference would be.",
                        gaps, gaps == 1 ? "" : "s", gap_names, gaps == 1 ? "s" : "") != SL_OK)
        return SL_ERR_NOMEM;
    report_table *t = report_table_add(s, "litmus-observed", "Outcomes the GPU showed, per test", cols,
                                       sizeof cols / sizeof cols[0]);
    if (!t)
        return SL_ERR_NOMEM;
    for (size_t i = 0; i < n; i++) {
        const lit_row *r = &rows[i];
        char check[320] = "ok", skipped[200];
        if (r->gpu == -2)
            snprintf(check, sizeof check, "not judged: %s", r->verdict[0] ? "unsupported" : "the test did not run");
        else if (r->gpu == -1)
            snprintf(check, sizeof check, "FAIL: the document's states do not name what the condition names");
        else if (r->gpu == 0)
            snprintf(check, sizeof check, "not run on the GPU%s%s",
                     lit_observed_skipped(doc, r->name, skipped, sizeof skipped) ? ": " : "",
                     lit_observed_skipped(doc, r->name, skipped, sizeof skipped) ? skipped : "");
        else if (r->nforbidden && stated_gap(r))
            snprintf(check, sizeof check, "KNOWN GAP: %u outcome%s the model forbids and the PTX model allows "
                     "(stated in the test)", r->nforbidden, r->nforbidden == 1 ? "" : "s");
        else if (r->nforbidden)
            snprintf(check, sizeof check, "FAIL: %u outcome%s the model forbids", r->nforbidden,
                     r->nforbidden == 1 ? "" : "s");
        const bool ran = r->gpu == 1;
        if (report_cell(t, "%s", r->name[0] ? r->name : r->file) ||
            (ran ? report_cell(t, "%llu", (unsigned long long)r->runs) : report_cell(t, "%s", "")) ||
            (ran ? report_cell(t, "%u", r->nseen) : report_cell(t, "%s", "")) || report_cell(t, "%s", r->weak) ||
            report_cell(t, "%s", r->forbidden) || report_cell(t, "%s", check))
            return SL_ERR_NOMEM;
    }
    return SL_OK;
}

/* The GPU's document at path: its text, or NULL with the paragraph that
 * says why there is none in *why_none (malloc'ed); the section goes on
 * either way. */
static char *campaign(const char *path, const char *shown, bool given, char **why_none)
{
    char *doc = lit_observed_read(path);
    *why_none = NULL;
    if (doc && strstr(doc, "\"tests\""))
        return doc;
    struct stat sb;
    char buf[2 * REPORT_TEXT_LEN]; /* a paragraph's room: a path past 1 KiB is cut */
    if (doc)
        snprintf(buf, sizeof buf, "%.1024s is not a litmus campaign this report can read (it is damaged, or of "
                 "another format), so no outcome of a GPU is shown; 'tools/gpu-check.sh litmus' on a GPU host "
                 "writes it anew.", shown);
    else if (stat(path, &sb) != 0)
        snprintf(buf, sizeof buf, "The GPU campaign has not been recorded: %.1024s does not exist%s. "
                 "'tools/gpu-check.sh litmus', run on a GPU host, runs every test at least 10^6 times under "
                 "stress and writes it; this section then shows the outcomes the GPU showed, and one the model "
                 "forbids fails the report.", shown, given ? " any more" : "");
    else
        snprintf(buf, sizeof buf, "%.1024s exists but cannot be read, so no outcome of a GPU is shown.", shown);
    free(doc);
    *why_none = strdup(buf);
    return NULL;
}

sl_status report_run_litmus(report_section *s)
{
    const char *root = report_source_root();
    char dir[4096], obs_path[4096];
    snprintf(dir, sizeof dir, "%s/%s", root, LITMUS_DIR);
    const bool given = s->ctx->litmus_observed != NULL;
    if (given)
        snprintf(obs_path, sizeof obs_path, "%s", s->ctx->litmus_observed);
    else
        snprintf(obs_path, sizeof obs_path, "%s/%s", root, LITMUS_OBSERVED);
    const char *shown = given ? obs_path : report_repo_path(obs_path);
    char *why_none;
    char *doc = campaign(obs_path, shown, given, &why_none);
    if (!doc && !why_none)
        return report_fail(s, SL_ERR_NOMEM, "out of memory");
    char **names;
    size_t n;
    const int listed = list_tests(dir, &names, &n);
    sl_status st = memory_text(s);
    lit_row *rows = listed == 0 ? calloc(n + 1, sizeof *rows) : NULL;
    if (st == SL_OK && listed == -1)
        st = report_text(s, "The project's litmus tests are not here: %s cannot be read (a copy of scanlab "
                            "without its tests), so none was run.", report_repo_path(dir));
    else if (!rows)
        st = SL_ERR_NOMEM;
    for (size_t i = 0; rows && st == SL_OK && i < n; i++) {
        char path[4096 + 256];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        snprintf(rows[i].file, sizeof rows[i].file, "%s", names[i]);
        if (!run_test(path, doc, &rows[i]))
            st = SL_ERR_NOMEM;
    }
    if (rows && st == SL_OK)
        st = verdict_tables(s, rows, n, report_repo_path(dir));
    if (st == SL_OK)
        st = doc && rows ? gpu_table(s, rows, n, doc, shown)
             : doc       ? report_text(s, "%s holds a GPU campaign; without the tests none of it is judged.", shown)
                         : report_text(s, "%s", why_none);
    if (st == SL_OK)
        st = progress_text(s);
    if (st == SL_OK)
        st = report_progress_litmus(s);
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    free(rows);
    free(doc);
    free(why_none);
    return st == SL_OK ? SL_OK : report_fail(s, st, "out of memory");
}
