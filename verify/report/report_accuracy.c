/* Report section "accuracy": eta (|error| / (u sum|x_j|)) of every float
 * add-scan against n on log-log axes, with the worst-case bound D of each
 * addition-tree depth (docs/accuracy.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify/campaign/ranks.h"
#include "verify/campaign/share.h"
#include "verify/harness/accuracy.h"
#include "verify/harness/algos.h"
#include "verify/harness/harness.h"
#include "verify/report/plot.h"
#include "verify/report/report.h"
#include "verify/harness/rng.h"

#define ACC_K_MIN 6
#define ACC_K_MAX 16
#define ACC_K_MAX_QUICK 10
#define ACC_K_STEP 2
#define ACC_POINTS ((ACC_K_MAX - ACC_K_MIN) / ACC_K_STEP + 1)
#define ACC_SEEDS 3
#define ACC_MAX_SERIES 64
#define ACC_TYPE SL_F32

typedef struct {
    const verify_algo *algo;
    sl_backend backend;
    char label[96];
    double n[ACC_POINTS], max_eta[ACC_POINTS], depth[ACC_POINTS];
    size_t count;
} series_data;

/* One series' measurements, as the rank that made them sends them: every
 * size up to the first that failed (status). */
typedef struct {
    sl_status status; /* SL_OK, or the failure after count sizes */
    size_t count;
    double max_eta[ACC_POINTS], rms_eta[ACC_POINTS], max_ulps[ACC_POINTS];
} series_points;

/* Measure one (algorithm, backend) at every size; SL_ERR_UNSUPPORTED or
 * SL_ERR_NO_GPU: the series does not exist here. */
static void measure(const report_section *s, const verify_algo *algo, sl_backend backend, int kmax, int seeds,
                    series_points *p)
{
    p->status = SL_OK;
    p->count = 0;
    for (int k = ACC_K_MIN; k <= kmax; k += ACC_K_STEP) {
        size_t n = (size_t)1 << k, m = n * (size_t)seeds;
        double *ulps = malloc(m * sizeof *ulps), *eta = malloc(m * sizeof *eta);
        sl_status st = ulps && eta ? SL_OK : SL_ERR_NOMEM;
        for (int r = 0; r < seeds && st == SL_OK; r++) {
            report_float_input in;
            st = report_float_input_make(ACC_TYPE, n, verify_derive_seed(verify_derive_seed(s->ctx->seed, (uint64_t)r), n), &in);
            if (st == SL_OK)
                st = report_float_errors(algo, backend, &in, ulps + (size_t)r * n, eta + (size_t)r * n);
            report_float_input_free(&in);
        }
        verify_accuracy_stats stats = {0};
        if (st == SL_OK)
            verify_accuracy_summarize(ulps, eta, m, &stats);
        free(ulps);
        free(eta);
        if (st != SL_OK) {
            p->status = st;
            return;
        }
        p->max_eta[p->count] = stats.max_eta;
        p->rms_eta[p->count] = stats.rms_eta;
        p->max_ulps[p->count++] = stats.max_ulps;
    }
}

/* The rows and the series of measured points p (rank 0). */
static sl_status series_rows(report_section *s, report_table *top, report_table *all, series_data *d, int kmax,
                             int seeds, const series_points *p)
{
    int k = ACC_K_MIN;
    for (size_t i = 0; i < p->count; i++, k += ACC_K_STEP) {
        size_t n = (size_t)1 << k;
        sl_scan_args args = {.type = ACC_TYPE, .op = SL_ADD, .n = n};
        size_t depth = verify_accuracy_depth_bound(d->algo, &args);
        bool within = verify_accuracy_within_bound(ACC_TYPE, p->max_eta[i], depth);
        if (!within)
            s->failed_checks++;
        d->n[d->count] = (double)n;
        d->max_eta[d->count] = p->max_eta[i];
        d->depth[d->count++] = (double)depth;
        for (int copy = 0; copy < (k + ACC_K_STEP > kmax ? 2 : 1); copy++) {
            report_table *t = copy ? top : all;
            if (report_cell(t, "%s", d->algo->name) || report_cell(t, "%s", verify_backend_name(d->backend)) ||
                report_cell(t, "%zu", n) || report_cell(t, "%d", seeds) || report_cell(t, "%.4g", p->max_eta[i]) ||
                report_cell(t, "%.4g", p->rms_eta[i]) || report_cell(t, "%.4g", p->max_ulps[i]) ||
                report_cell(t, "%zu", depth) || report_cell(t, "%s", within ? "yes" : "FAIL"))
                return SL_ERR_NOMEM;
        }
    }
    return p->status;
}

/* The series of the section, (algorithm, backend) in page order: every
 * rank lists them alike and measures those ranks_mine names; at rank 0
 * every series' points after the gather (docs/scaling.md). */
static sl_status measure_all(const report_section *s, int kmax, int seeds, series_points **out, size_t *count)
{
    size_t n = 0;
    for (size_t i = 0; i < verify_algo_count; i++)
        for (int b = 0; b < SL_BACKEND_COUNT; b++)
            n += verify_algos[i].kind == SL_KIND_SCAN && verify_algo_runs_on(&verify_algos[i], (sl_backend)b);
    series_points *p = calloc(n + 1, sizeof *p);
    if (!p)
        return SL_ERR_NOMEM;
    size_t k = 0;
    for (size_t i = 0; i < verify_algo_count; i++)
        for (int b = 0; b < SL_BACKEND_COUNT; b++)
            if (verify_algos[i].kind == SL_KIND_SCAN && verify_algo_runs_on(&verify_algos[i], (sl_backend)b) &&
                ranks_mine(k++))
                measure(s, &verify_algos[i], (sl_backend)b, kmax, seeds, &p[k - 1]);
    *out = p;
    *count = n;
    if (!ranks_many())
        return SL_OK;
    share sh;
    share_init(&sh, n);
    for (size_t i = 0; i < n; i++)
        if (ranks_mine(i) && !share_put(&sh, &p[i], sizeof *p, "report"))
            break;
    const bool ok = share_collect(&sh, "report");
    for (size_t i = 0; ok && ranks_rank() == 0 && i < n; i++) {
        size_t len;
        const void *rec = share_get(&sh, i, &len);
        if (len != sizeof *p)
            ranks_abort(1, "report: accuracy: rank %d's result %zu is malformed", (int)(i % (size_t)ranks_count()), i);
        memcpy(&p[i], rec, len);
    }
    share_free(&sh);
    return ok ? SL_OK : SL_ERR_NOMEM;
}

sl_status report_run_accuracy(report_section *s)
{
    static const report_col cols[] = {
        {"algorithm", "algorithm"}, {"backend", "backend"}, {"n", "n"}, {"seeds", "inputs"},
        {"max_eta", "max eta"}, {"rms_eta", "RMS eta"}, {"max_ulps", "max error [ulp]"},
        {"depth_bound", "depth bound D"}, {"within_bound", "within bound"}};
    int kmax = s->ctx->quick ? ACC_K_MAX_QUICK : ACC_K_MAX, seeds = s->ctx->quick ? 1 : ACC_SEEDS;
    report_text(s, "Inclusive f32 add-scans of inputs uniform in [0, 1) (%d input%s per size), against the "
                   "exact prefix sums (an MPFR accumulator, each prefix rounded once). For prefix i, "
                   "eta = |computed - exact| / (u sum_{j<=i} |x_j|) with u = 2^-24; the largest over all "
                   "prefixes and inputs is shown. An addition tree of depth D guarantees eta <= D (to first "
                   "order, plus one for rounding the reference); the typical error grows like sqrt(D).",
                seeds, seeds == 1 ? "" : "s");
    char caption[160];
    snprintf(caption, sizeof caption, "Float error (f32 add, uniform [0, 1)) at n = %zu", (size_t)1 << kmax);
    report_table *top = report_table_add(s, "accuracy", caption, cols, 9);
    report_table *all = report_table_add(s, "accuracy-sizes", "Float error at every n", cols, 9);
    if (!top || !all)
        return report_fail_shared(s, SL_ERR_NOMEM, "out of memory");
    all->data_only = true;
    series_points *pts = NULL;
    size_t npts = 0, k = 0;
    sl_status st = measure_all(s, kmax, seeds, &pts, &npts);
    if (st != SL_OK)
        return report_fail_shared(s, st, "%s", sl_status_str(st));
    if (ranks_rank() != 0) { /* rank 0 alone writes the report */
        free(pts);
        return SL_OK;
    }
    series_data *d = calloc(ACC_MAX_SERIES, sizeof *d);
    plot_series *ser = calloc(2 * ACC_MAX_SERIES, sizeof *ser);
    report_err_series *e = calloc(ACC_MAX_SERIES, sizeof *e);
    size_t nd = 0, m = 0;
    st = d && ser && e ? SL_OK : SL_ERR_NOMEM;
    for (size_t i = 0; i < verify_algo_count && st == SL_OK; i++)
        for (int b = 0; b < SL_BACKEND_COUNT && st == SL_OK && nd < ACC_MAX_SERIES; b++) {
            const verify_algo *a = &verify_algos[i];
            if (a->kind != SL_KIND_SCAN || !verify_algo_runs_on(a, (sl_backend)b))
                continue;
            series_data *sd = &d[nd];
            *sd = (series_data){.algo = a, .backend = (sl_backend)b};
            snprintf(sd->label, sizeof sd->label, "%s (%s)", a->name, verify_backend_name((sl_backend)b));
            st = series_rows(s, top, all, sd, kmax, seeds, &pts[k++]);
            if (verify_status_is_skip(st)) {
                st = SL_OK;
                continue;
            }
            if (st != SL_OK)
                break;
            e[nd] = (report_err_series){.algo = a->name, .backend = b, .label = sd->label, .x = sd->n,
                                        .y = sd->max_eta, .bound = sd->depth, .n = sd->count};
            nd++;
        }
    if (st == SL_OK && nd) {
        report_panels panels;
        m = report_error_series(e, nd, PLOT_LINESPOINTS, ser, &panels);
        plot_spec p = {"Float error against n (f32 add, uniform [0, 1))", "n (elements)",
                       "max eta = |error| / (u sum|x|)", true, true, 0, 0, ser, m, panels.titles, panels.count};
        report_plot(s, "accuracy", "Largest eta against n on log-log axes for every algorithm and backend "
                    "(points; the backend sets the point shape), one panel per group of algorithms on shared "
                    "axes, with the worst-case bound D of each addition-tree depth (dashed, in the colour of "
                    "the first algorithm with that depth). A zero error has no place on the logarithmic axis: "
                    "an algorithm exact at every n (such as compensated summation here) is in the table only.", &p);
    }
    free(d);
    free(ser);
    free(e);
    free(pts);
    if (st != SL_OK)
        return report_fail(s, st, "%s", sl_status_str(st));
    return s->status;
}
