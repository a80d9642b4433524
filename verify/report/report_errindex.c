/* Report section "errindex": the error of every float add-scan against the
 * output index at one n, as the envelope (largest eta per bin of indices)
 * with the bound D(i) of the algorithm's addition-tree depth. */
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

#define ERRIDX_N ((size_t)1 << 12)
#define ERRIDX_N_QUICK ((size_t)1 << 10)
#define ERRIDX_BINS 128
#define ERRIDX_MAX_SERIES 64
#define ERRIDX_TYPE SL_F32

typedef struct {
    const verify_algo *algo;
    char label[96], bound[128];
    double x[ERRIDX_BINS], eta[ERRIDX_BINS], depth[ERRIDX_BINS];
} series_data;

/* The depth of output i: the algorithm's own function, or the sequential
 * order's i. */
static double depth_at(const verify_algo *a, size_t n, size_t i)
{
    sl_scan_args args = {.type = ERRIDX_TYPE, .op = SL_ADD, .n = n};
    return a->depth ? (double)a->depth(&args, i) : (double)i;
}

static sl_status add_rows(report_table *sum, report_table *all, const verify_algo *a, sl_backend b,
                          size_t n, double *ulps, double *eta)
{
    for (size_t i = 0; i < n; i++)
        if (report_cell(all, "%s", a->name) || report_cell(all, "%s", verify_backend_name(b)) ||
            report_cell(all, "%zu", i) || report_cell(all, "%.4g", ulps[i]) || report_cell(all, "%.4g", eta[i]) ||
            report_cell(all, "%.0f", depth_at(a, n, i)))
            return SL_ERR_NOMEM;
    verify_accuracy_stats st;
    sl_scan_args args = {.type = ERRIDX_TYPE, .op = SL_ADD, .n = n};
    size_t depth = verify_accuracy_depth_bound(a, &args);
    verify_accuracy_summarize(ulps, eta, n, &st); /* reorders: after the per-index rows */
    return report_cell(sum, "%s", a->name) || report_cell(sum, "%s", verify_backend_name(b)) ||
                   report_cell(sum, "%zu", n) || report_cell(sum, "%.4g", st.max_eta) ||
                   report_cell(sum, "%.4g", st.median_eta) || report_cell(sum, "%.4g", st.max_ulps) ||
                   report_cell(sum, "%.4g", st.median_ulps) || report_cell(sum, "%zu", depth)
               ? SL_ERR_NOMEM
               : SL_OK;
}

/* The envelope: per bin of indices, the largest eta and the largest depth. */
static void envelope(const verify_algo *a, size_t n, const double *eta, series_data *d)
{
    for (size_t k = 0; k < ERRIDX_BINS; k++) {
        size_t lo = k * n / ERRIDX_BINS, hi = (k + 1) * n / ERRIDX_BINS;
        d->x[k] = (double)(hi - 1);
        d->eta[k] = 0;
        d->depth[k] = 0;
        for (size_t i = lo; i < hi; i++) {
            d->eta[k] = fmax(d->eta[k], eta[i]);
            d->depth[k] = fmax(d->depth[k], depth_at(a, n, i));
        }
    }
}

/* Every measurement, then one bound curve per distinct D(i). */
static size_t bound_series(series_data *d, size_t nd, plot_series *ser)
{
    size_t m = 0;
    for (size_t i = 0; i < nd; i++)
        ser[m++] = (plot_series){d[i].label, d[i].x, d[i].eta, ERRIDX_BINS, NULL, PLOT_LINES, (int)i};
    for (size_t i = 0; i < nd; i++) {
        bool seen = false;
        size_t others = 0;
        for (size_t j = 0; j < nd; j++) {
            bool same = memcmp(d[j].depth, d[i].depth, sizeof d[i].depth) == 0;
            seen |= j < i && same;
            others += j > i && same;
        }
        if (seen)
            continue;
        if (others)
            snprintf(d[i].bound, sizeof d[i].bound, "D(i): %s and %zu more", d[i].algo->name, others);
        else
            snprintf(d[i].bound, sizeof d[i].bound, "D(i): %s", d[i].algo->name);
        ser[m++] = (plot_series){d[i].bound, d[i].x, d[i].depth, ERRIDX_BINS, NULL, PLOT_DASHED, (int)i};
    }
    return m;
}

sl_status report_run_errindex(report_section *s)
{
    static const report_col sum_cols[] = {
        {"algorithm", "algorithm"}, {"backend", "backend"}, {"n", "n"}, {"max_eta", "max eta"},
        {"median_eta", "median eta"}, {"max_ulps", "max error [ulp]"}, {"median_ulps", "median error [ulp]"},
        {"depth_bound", "depth bound D"}};
    static const report_col idx_cols[] = {{"algorithm", "algorithm"}, {"backend", "backend"}, {"index", "index"},
                                          {"ulps", "error [ulp]"}, {"eta", "eta"}, {"depth", "depth D(i)"}};
    size_t n = s->ctx->quick ? ERRIDX_N_QUICK : ERRIDX_N;
    report_text(s, "One input of n = %zu f32 values uniform in [0, 1) (seed %llu), scanned by every float "
                   "add-scan; eta of each prefix as in the previous section. The figure shows, per bin of "
                   "%zu consecutive indices, the largest eta and the largest depth D(i) (the bound).",
                n, (unsigned long long)s->ctx->seed, n / ERRIDX_BINS);
    report_table *sum = report_table_add(s, "errindex", "Float error over the indices of one input "
                                         "(f32 add, uniform [0, 1))", sum_cols, 8);
    report_table *all = report_table_add(s, "errindex-per-index", "The error of every prefix", idx_cols, 6);
    if (!sum || !all)
        return report_fail(s, SL_ERR_NOMEM, "out of memory");
    all->data_only = true;
    report_float_input in;
    sl_status st = report_float_input_make(ERRIDX_TYPE, n, verify_derive_seed(s->ctx->seed, n), &in);
    if (st != SL_OK)
        return report_fail(s, st, "cannot make the input: %s", sl_status_str(st));
    series_data *d = calloc(ERRIDX_MAX_SERIES, sizeof *d);
    plot_series *ser = calloc(2 * ERRIDX_MAX_SERIES, sizeof *ser);
    double *ulps = malloc(n * sizeof *ulps), *eta = malloc(n * sizeof *eta);
    size_t nd = 0, m = 0;
    if (!d || !ser || !ulps || !eta)
        st = SL_ERR_NOMEM;
    for (size_t i = 0; i < verify_algo_count && st == SL_OK; i++)
        for (int b = 0; b < SL_BACKEND_COUNT && st == SL_OK && nd < ERRIDX_MAX_SERIES; b++) {
            const verify_algo *a = &verify_algos[i];
            if (a->kind != SL_KIND_SCAN || !verify_algo_runs_on(a, (sl_backend)b))
                continue;
            st = report_float_errors(a, b, &in, ulps, eta);
            if (verify_status_is_skip(st)) {
                st = SL_OK;
                continue;
            }
            if (st != SL_OK)
                break;
            series_data *sd = &d[nd];
            sd->algo = a;
            snprintf(sd->label, sizeof sd->label, "%s (%s)", a->name, verify_backend_name((sl_backend)b));
            envelope(a, n, eta, sd);
            st = add_rows(sum, all, a, (sl_backend)b, n, ulps, eta);
            nd++;
        }
    if (st == SL_OK && nd) {
        m = bound_series(d, nd, ser);
        char title[128];
        snprintf(title, sizeof title, "Float error against index (f32 add, n = %zu)", n);
        plot_spec p = {title, "index i", "max eta per bin of indices", false, true, 0, (double)n, ser, m};
        report_plot(s, "errindex", "Largest eta per bin of indices for every algorithm and backend (solid), "
                    "with the bound D(i) of its addition-tree depth (dashed, same colour).", &p);
    }
    free(d);
    free(ser);
    free(ulps);
    free(eta);
    report_float_input_free(&in);
    if (st != SL_OK)
        return report_fail(s, st, "%s", sl_status_str(st));
    return s->status;
}
