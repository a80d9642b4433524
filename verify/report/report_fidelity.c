/* Report section "fidelity": the latest recorded comparison of the
 * simulator with a GPU (docs/data/fidelity-h100.json, which
 * tools/gpu-check.sh fidelity writes on a GPU host; model/fidelity.h reads
 * it): per metric the launches predicted exactly, the goals of
 * docs/model-fidelity.md, and the predicted against the measured time of
 * the whole scans. Nothing runs on a GPU here. Without the file the
 * section says how one is made; a file it cannot read is named, and the
 * section still completes. SCANLAB_FIDELITY_FILE names another file (the
 * tests use it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "model/fidelity.h"
#include "verify/report/report.h"

#define FIDELITY_FILE "docs/data/fidelity-h100.json"

static const char *fidelity_path(void)
{
    const char *env = getenv("SCANLAB_FIDELITY_FILE");
    return env && *env ? env : SCANLAB_SOURCE_ROOT "/" FIDELITY_FILE;
}

static const char *pct(char *buf, size_t size, size_t part, size_t whole)
{
    if (whole == 0)
        return "-";
    snprintf(buf, size, "%.1f%%", 100.0 * (double)part / (double)whole);
    return buf;
}

/* A metric's short name, as tools/fidelity_data.py's short():
 * l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum -> conflicts ld. */
static void short_name(const char *metric, char *buf, size_t size)
{
    static const char *const names[][2] = {{"bank_conflicts", "conflicts"}, {"wavefronts", "wavefronts"},
                                           {"inst_executed", "shared inst"}, {"t_sectors", "global sectors"},
                                           {"branch_targets", "div branches"}, {"time_duration", "time"}};
    const char *word = metric;
    for (size_t i = 0; i < sizeof names / sizeof names[0] && word == metric; i++)
        if (strstr(metric, names[i][0]))
            word = names[i][1];
    const char *side = strstr(metric, "_ld.sum") ? " ld" : strstr(metric, "_st.sum") ? " st" : "";
    /* the wavefronts of the kernel's own shared instructions */
    const char *own = strncmp(metric, "smsp__sass_l1tex_", 17) == 0 ? "own " : "";
    snprintf(buf, size, "%s%s%s", own, word, side);
}

static sl_status metric_table(report_section *s, const model_fid_summary *sum)
{
    static const report_col cols[] = {{"metric", "Nsight Compute metric"},
                                      {"counts", "counts"},
                                      {"launches", "launches"},
                                      {"exact", "exact"},
                                      {"exact_percent", "exact [%]"},
                                      {"own_launches", "launches, own instructions"},
                                      {"own_exact", "exact, own instructions"}};
    report_table *t = report_table_add(s, "fidelity", "Launches predicted exactly, per metric", cols,
                                       sizeof cols / sizeof cols[0]);
    if (!t)
        return SL_ERR_NOMEM;
    for (size_t i = 0; i < sum->nmetrics; i++) {
        const model_fid_metric *m = &sum->metric[i];
        char name[64];
        short_name(m->metric, name, sizeof name);
        bool own = m->own_total > 0;
        if (report_cell(t, "%s", m->metric) || report_cell(t, "%s", name) || report_cell(t, "%zu", m->total) ||
            report_cell(t, "%zu", m->exact) ||
            (m->total ? report_cell(t, "%.1f", 100.0 * (double)m->exact / (double)m->total)
                      : report_cell(t, "%s", "")) ||
            (own ? report_cell(t, "%zu", m->own_total) : report_cell(t, "%s", "")) ||
            (own ? report_cell(t, "%zu", m->own_exact) : report_cell(t, "%s", "")))
            return SL_ERR_NOMEM;
    }
    return SL_OK;
}

/* The shared goal: on the kernel's own instructions where the run
 * measured them, else on the l1tex counters, which also count what other
 * traffic through the L1 data banks cost the shared instructions. */
static size_t shared_goal(char *buf, size_t size, const model_fid_summary *g)
{
    char a[16], b[16];
    if (g->own_total)
        return (size_t)snprintf(buf, size,
                                "Shared wavefronts and bank conflicts of the kernel's own shared instructions "
                                "(loads and stores: the SASS-attributed wavefronts, and the conflicts less the "
                                "wavefronts that other traffic through the L1 data banks added) all exact: %zu of "
                                "%zu launches (%s) over %zu kernels (goal: 95%% over at least 15); as the l1tex "
                                "counters give them: %zu of %zu (%s).",
                                g->own_exact, g->own_total, pct(a, sizeof a, g->own_exact, g->own_total),
                                g->own_kernels, g->shared_exact, g->shared_total,
                                pct(b, sizeof b, g->shared_exact, g->shared_total));
    return (size_t)snprintf(buf, size,
                            "Shared wavefronts and bank conflicts as the l1tex counters give them (loads and "
                            "stores; they also count what other traffic through the L1 data banks cost the shared "
                            "instructions, and this run did not measure the kernel's own) all exact: %zu of %zu "
                            "launches (%s) over %zu kernels (goal: 95%% over at least 15).",
                            g->shared_exact, g->shared_total, pct(a, sizeof a, g->shared_exact, g->shared_total),
                            g->shared_kernels);
}

static sl_status goals_text(report_section *s, const model_fid_summary *g)
{
    char text[2 * REPORT_TEXT_LEN], a[16], median[48] = "";
    size_t len = shared_goal(text, sizeof text, g);
    if (g->time_big)
        snprintf(median, sizeof median, ", median error %.1f%%", 100.0 * g->time_median_error);
    if (len < sizeof text)
        len += (size_t)snprintf(text + len, sizeof text - len,
                                " Time model: %zu of %zu launches moving more than 1 MB within 25%% (%s; goal "
                                "80%%)%s. Pairs of whole i32 scans in the right order:",
                                g->time_within, g->time_big, pct(a, sizeof a, g->time_within, g->time_big), median);
    for (size_t i = 0; i < g->npairs_n && len < sizeof text; i++)
        len += (size_t)snprintf(text + len, sizeof text - len, "%s n = %llu: %zu of %zu (%s)", i ? ";" : "",
                                (unsigned long long)g->pairs_n[i].n, g->pairs_n[i].right, g->pairs_n[i].pairs,
                                pct(a, sizeof a, g->pairs_n[i].right, g->pairs_n[i].pairs));
    if (len < sizeof text)
        snprintf(text + len, sizeof text - len, "%s (goal 90%%).",
                 g->npairs_n ? "" : " none measured at 2^24 or above");
    return report_text(s, "%s", text);
}

/* The six counts per launch (model_fid_summary.six_*); nothing when the
 * run measured no launch's six. */
static sl_status six_text(report_section *s, const model_fid_summary *g)
{
    char a[16], b[16];
    if (!g->six_total)
        return SL_OK;
    return report_text(s,
                       "All six of shared load and store wavefronts and bank conflicts (as the l1tex counters give "
                       "them) and global load and store sectors exact: %zu of %zu launches (%s). Of the others, %zu "
                       "differ only where the GPU's count depends on timing (other traffic through the L1 data "
                       "banks beside exact own counts; a polling kernel's load sectors) and %zu in the kernel's "
                       "own counts; with each shared count held to the kernel's own instructions' (polls still "
                       "differences), %zu of %zu (%s).",
                       g->six_equal, g->six_total, pct(a, sizeof a, g->six_equal, g->six_total), g->six_timing,
                       g->six_code, g->six_own_equal, g->six_total,
                       pct(b, sizeof b, g->six_own_equal, g->six_total));
}

static sl_status time_table(report_section *s, const model_fid *f)
{
    model_fid_scan *scans;
    size_t n;
    sl_status st = model_fid_scans(f, &scans, &n);
    if (st != SL_OK || n == 0)
        return st;
    static const report_col cols[] = {{"algorithm", "algorithm"},
                                      {"n", "n"},
                                      {"predicted_ms", "predicted [ms]"},
                                      {"measured_ms", "measured [ms]"},
                                      {"ratio", "predicted / measured"}};
    report_table *t = report_table_add(s, "fidelity-time",
                                       "Predicted against measured time of the whole i32 scans at n >= 2^24 (all "
                                       "launches of a call), by n and measured time",
                                       cols, sizeof cols / sizeof cols[0]);
    for (size_t i = 0; t && i < n && st == SL_OK; i++) {
        const model_fid_scan *x = &scans[i];
        /* a scan with a launch the simulator did not predict has no total */
        bool pred = x->complete, ratio = pred && x->measured > 0;
        if (report_cell(t, "%s", x->algo) || report_cell(t, "%llu", (unsigned long long)x->n) ||
            (pred ? report_cell(t, "%.4f", x->predicted / 1e6) : report_cell(t, "%s", "")) ||
            report_cell(t, "%.4f", x->measured / 1e6) ||
            (ratio ? report_cell(t, "%.2f", x->predicted / x->measured) : report_cell(t, "%s", "")))
            st = SL_ERR_NOMEM;
    }
    free(scans);
    return t ? st : SL_ERR_NOMEM;
}

/* No file, or one that cannot be used: one paragraph, and the section
 * completes (a missing comparison is no failure of the report). */
static sl_status nothing_to_show(report_section *s, const char *path, sl_status load)
{
    struct stat sb;
    const char *shown = report_repo_path(path);
    if (load == SL_ERR_IO && stat(path, &sb) != 0)
        return report_text(s, "No comparison of the simulator with a GPU has been recorded: %s does not exist. "
                              "'tools/gpu-check.sh fidelity', run on a GPU host, runs every compared launch in "
                              "the simulator and under Nsight Compute and writes that file; this section then "
                              "shows how many counts the simulator predicted exactly and the time model's error "
                              "(docs/model-fidelity.md describes the method).",
                           shown);
    if (load == SL_ERR_IO)
        return report_text(s, "%s exists but cannot be read, so no comparison with a GPU is shown.", shown);
    if (load == SL_OK)
        return report_text(s, "%s holds no compared launch, so no comparison with a GPU is shown.", shown);
    return report_text(s, "%s is not a fidelity file that this report can read (it is damaged, or of another "
                          "format), so no comparison with a GPU is shown; 'tools/gpu-check.sh fidelity' on a GPU "
                          "host writes it anew.",
                       shown);
}

static sl_status show(report_section *s, const char *path, const model_fid *f)
{
    model_fid_summary g;
    sl_status st = model_fid_summarise(f, &g);
    if (st == SL_OK)
        st = report_text(s, "The latest recorded comparison of the simulator with a GPU: %s, %s (%s, written by "
                            "'tools/gpu-check.sh fidelity' on a GPU host; nothing here ran on a GPU now). Every "
                            "launch ran in the simulator and under Nsight Compute; a count is exact when the "
                            "simulator predicted the hardware counter's value. Where the run measured them, the "
                            "conflicts of the kernel's own shared instructions are the counter less the "
                            "wavefronts that other traffic through the L1 data banks added.",
                         f->device[0] ? f->device : "an unnamed GPU", f->date[0] ? f->date : "undated",
                         report_repo_path(path));
    if (st == SL_OK)
        st = metric_table(s, &g);
    if (st == SL_OK)
        st = goals_text(s, &g);
    if (st == SL_OK)
        st = six_text(s, &g);
    if (st == SL_OK)
        st = time_table(s, f);
    if (st == SL_OK)
        st = report_text(s, "Every difference between a predicted and a measured count, with its cause, and the "
                            "method are in docs/model-fidelity.md, which tools/fidelity_doc.py writes from the "
                            "same file.");
    return st;
}

sl_status report_run_fidelity(report_section *s)
{
    const char *path = fidelity_path();
    model_fid f;
    sl_status st = model_fid_load(path, &f);
    if (st == SL_ERR_NOMEM)
        return report_fail(s, st, "out of memory");
    if (st != SL_OK || f.nrows == 0) {
        if (st == SL_OK)
            model_fid_free(&f);
        st = nothing_to_show(s, path, st);
    } else {
        st = show(s, path, &f);
        model_fid_free(&f);
    }
    return st == SL_OK ? SL_OK : report_fail(s, st, "out of memory");
}
