/* Report section "accuracy": eta (|error| / (u sum|x_j|)) of every float
 * add-scan against n on log-log axes, with the worst-case bound D of each
 * addition-tree depth (docs/accuracy.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Measure one (algorithm, backend) at every size; SL_ERR_UNSUPPORTED or
 * SL_ERR_NO_GPU: the series does not exist here. */
static sl_status measure(report_section *s, report_table *top, report_table *all, series_data *d, int kmax,
                         int seeds)
{
    for (int k = ACC_K_MIN; k <= kmax; k += ACC_K_STEP) {
        size_t n = (size_t)1 << k, m = n * (size_t)seeds;
        double *ulps = malloc(m * sizeof *ulps), *eta = malloc(m * sizeof *eta);
        sl_status st = ulps && eta ? SL_OK : SL_ERR_NOMEM;
        for (int r = 0; r < seeds && st == SL_OK; r++) {
            report_float_input in;
            st = report_float_input_make(ACC_TYPE, n, verify_derive_seed(verify_derive_seed(s->ctx->seed, (uint64_t)r), n), &in);
            if (st == SL_OK)
                st = report_float_errors(d->algo, d->backend, &in, ulps + (size_t)r * n, eta + (size_t)r * n);
            report_float_input_free(&in);
        }
        verify_accuracy_stats stats = {0};
        if (st == SL_OK)
            verify_accuracy_summarize(ulps, eta, m, &stats);
        free(ulps);
        free(eta);
        if (st != SL_OK)
            return st;
        sl_scan_args args = {.type = ACC_TYPE, .op = SL_ADD, .n = n};
        size_t depth = verify_accuracy_depth_bound(d->algo, &args);
        bool within = verify_accuracy_within_bound(ACC_TYPE, stats.max_eta, depth);
        if (!within)
            s->failed_checks++;
        d->n[d->count] = (double)n;
        d->max_eta[d->count] = stats.max_eta;
        d->depth[d->count++] = (double)depth;
        for (int copy = 0; copy < (k + ACC_K_STEP > kmax ? 2 : 1); copy++) {
            report_table *t = copy ? top : all;
            if (report_cell(t, "%s", d->algo->name) || report_cell(t, "%s", verify_backend_name(d->backend)) ||
                report_cell(t, "%zu", n) || report_cell(t, "%d", seeds) || report_cell(t, "%.4g", stats.max_eta) ||
                report_cell(t, "%.4g", stats.rms_eta) || report_cell(t, "%.4g", stats.max_ulps) ||
                report_cell(t, "%zu", depth) || report_cell(t, "%s", within ? "yes" : "FAIL"))
                return SL_ERR_NOMEM;
        }
    }
    return SL_OK;
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
        return report_fail(s, SL_ERR_NOMEM, "out of memory");
    all->data_only = true;
    series_data *d = calloc(ACC_MAX_SERIES, sizeof *d);
    plot_series *ser = calloc(2 * ACC_MAX_SERIES, sizeof *ser);
    report_err_series *e = calloc(ACC_MAX_SERIES, sizeof *e);
    size_t nd = 0, m = 0;
    sl_status st = d && ser && e ? SL_OK : SL_ERR_NOMEM;
    for (size_t i = 0; i < verify_algo_count && st == SL_OK; i++)
        for (int b = 0; b < SL_BACKEND_COUNT && st == SL_OK && nd < ACC_MAX_SERIES; b++) {
            const verify_algo *a = &verify_algos[i];
            if (a->kind != SL_KIND_SCAN || !verify_algo_runs_on(a, (sl_backend)b))
                continue;
            series_data *sd = &d[nd];
            *sd = (series_data){.algo = a, .backend = (sl_backend)b};
            snprintf(sd->label, sizeof sd->label, "%s (%s)", a->name, verify_backend_name((sl_backend)b));
            st = measure(s, top, all, sd, kmax, seeds);
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
    if (st != SL_OK)
        return report_fail(s, st, "%s", sl_status_str(st));
    return s->status;
}
