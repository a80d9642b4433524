/* Report section "errindex": the error of every float add-scan against the
 * output index at one n, as the envelope (largest eta per bin of indices)
 * with the bound D(i) of the algorithm's addition-tree depth. The figure's
 * data is kept column by column; the error of every single prefix is not
 * written (the bins are what the figure shows). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify/harness/accuracy.h"
#include "verify/harness/algos.h"
#include "verify/harness/harness.h"
#include "verify/harness/rng.h"
#include "verify/report/plot.h"
#include "verify/report/report.h"

#define ERRIDX_N ((size_t)1 << 12)
#define ERRIDX_N_QUICK ((size_t)1 << 10)
#define ERRIDX_BINS 128
#define ERRIDX_MAX_SERIES 64
#define ERRIDX_TYPE SL_F32
/* Significant digits of the binned data: eta is a ratio of roundings. */
#define ERRIDX_DIGITS 4

typedef struct {
    const verify_algo *algo;
    sl_backend backend;
    char label[96];
    double eta[ERRIDX_BINS], depth[ERRIDX_BINS];
} series_data;

/* The depth of output i: the algorithm's own function, or the sequential
 * order's i. */
static double depth_at(const verify_algo *a, size_t n, size_t i)
{
    sl_scan_args args = {.type = ERRIDX_TYPE, .op = SL_ADD, .n = n};
    return a->depth ? (double)a->depth(&args, i) : (double)i;
}

static sl_status add_row(report_table *sum, const verify_algo *a, sl_backend b, size_t n, double *ulps,
                         double *eta)
{
    verify_accuracy_stats st;
    sl_scan_args args = {.type = ERRIDX_TYPE, .op = SL_ADD, .n = n};
    size_t depth = verify_accuracy_depth_bound(a, &args);
    verify_accuracy_summarize(ulps, eta, n, &st); /* reorders ulps and eta */
    return report_cell(sum, "%s", a->name) || report_cell(sum, "%s", verify_backend_name(b)) ||
                   report_cell(sum, "%zu", n) || report_cell(sum, "%.4g", st.max_eta) ||
                   report_cell(sum, "%.4g", st.median_eta) || report_cell(sum, "%.4g", st.max_ulps) ||
                   report_cell(sum, "%.4g", st.median_ulps) || report_cell(sum, "%zu", depth)
               ? SL_ERR_NOMEM
               : SL_OK;
}

/* The envelope: per bin of indices, the largest eta and the largest depth. */
static void envelope(const verify_algo *a, size_t n, const double *eta, series_data *d, double *x)
{
    for (size_t k = 0; k < ERRIDX_BINS; k++) {
        size_t lo = k * n / ERRIDX_BINS, hi = (k + 1) * n / ERRIDX_BINS;
        x[k] = (double)(hi - 1);
        d->eta[k] = 0;
        d->depth[k] = 0;
        for (size_t i = lo; i < hi; i++) {
            d->eta[k] = fmax(d->eta[k], eta[i]);
            d->depth[k] = fmax(d->depth[k], depth_at(a, n, i));
        }
    }
}

/* The figure's data, one column a series. */
static sl_status bins_out(report_section *s, const series_data *d, size_t nd, const double *x, size_t n)
{
    char caption[200];
    snprintf(caption, sizeof caption, "The figure's data: the last index of each of the %d bins of %zu indices, "
             "then per algorithm and backend the largest eta and the largest depth D(i) of each bin",
             ERRIDX_BINS, n / ERRIDX_BINS);
    report_columns *c = report_columns_add(s, "errindex-bins", caption, ERRIDX_BINS, ERRIDX_DIGITS);
    if (!c || report_column(c, "index", "last index of the bin", x) != SL_OK)
        return SL_ERR_NOMEM;
    for (size_t i = 0; i < nd; i++) {
        char key[128], label[160];
        const char *b = verify_backend_name(d[i].backend);
        snprintf(key, sizeof key, "%s.%s.max_eta", d[i].algo->name, b);
        snprintf(label, sizeof label, "%s (%s): max eta", d[i].algo->name, b);
        if (report_column(c, key, label, d[i].eta) != SL_OK)
            return SL_ERR_NOMEM;
        snprintf(key, sizeof key, "%s.%s.depth", d[i].algo->name, b);
        snprintf(label, sizeof label, "%s (%s): depth D(i)", d[i].algo->name, b);
        if (report_column(c, key, label, d[i].depth) != SL_OK)
            return SL_ERR_NOMEM;
    }
    return SL_OK;
}

sl_status report_run_errindex(report_section *s)
{
    static const report_col sum_cols[] = {
        {"algorithm", "algorithm"}, {"backend", "backend"}, {"n", "n"}, {"max_eta", "max eta"},
        {"median_eta", "median eta"}, {"max_ulps", "max error [ulp]"}, {"median_ulps", "median error [ulp]"},
        {"depth_bound", "depth bound D"}};
    size_t n = s->ctx->quick ? ERRIDX_N_QUICK : ERRIDX_N;
    report_text(s, "One input of n = %zu f32 values uniform in [0, 1) (seed %llu), scanned by every float "
                   "add-scan; eta of each prefix as in the previous section. The figure shows, per bin of "
                   "%zu consecutive indices, the largest eta and the largest depth D(i) (the bound).",
                n, (unsigned long long)s->ctx->seed, n / ERRIDX_BINS);
    report_table *sum = report_table_add(s, "errindex", "Float error over the indices of one input "
                                         "(f32 add, uniform [0, 1))", sum_cols, 8);
    if (!sum)
        return report_fail(s, SL_ERR_NOMEM, "out of memory");
    report_float_input in;
    sl_status st = report_float_input_make(ERRIDX_TYPE, n, verify_derive_seed(s->ctx->seed, n), &in);
    if (st != SL_OK)
        return report_fail(s, st, "cannot make the input: %s", sl_status_str(st));
    series_data *d = calloc(ERRIDX_MAX_SERIES, sizeof *d);
    plot_series *ser = calloc(2 * ERRIDX_MAX_SERIES, sizeof *ser);
    report_err_series *e = calloc(ERRIDX_MAX_SERIES, sizeof *e);
    double *ulps = malloc(n * sizeof *ulps), *eta = malloc(n * sizeof *eta);
    static double x[ERRIDX_BINS];
    size_t nd = 0;
    if (!d || !ser || !e || !ulps || !eta)
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
            sd->backend = (sl_backend)b;
            snprintf(sd->label, sizeof sd->label, "%s (%s)", a->name, verify_backend_name((sl_backend)b));
            envelope(a, n, eta, sd, x);
            st = add_row(sum, a, (sl_backend)b, n, ulps, eta);
            e[nd] = (report_err_series){.algo = a->name, .backend = b, .label = sd->label, .x = x, .y = sd->eta,
                                        .bound = sd->depth, .n = ERRIDX_BINS};
            nd++;
        }
    if (st == SL_OK && nd) {
        report_panels panels;
        size_t m = report_error_series(e, nd, PLOT_LINES, ser, &panels);
        char title[128];
        snprintf(title, sizeof title, "Float error against index (f32 add, n = %zu)", n);
        plot_spec p = {title, "index i", "max eta per bin of indices", false, true, 0, (double)n, ser, m,
                       panels.titles, panels.count};
        report_plot(s, "errindex", "Largest eta per bin of indices for every algorithm and backend (solid; "
                    "the backend sets the dash), one panel per group of algorithms on shared axes, with the "
                    "bound D(i) of its addition-tree depth (dashed, same colour).", &p);
        if (bins_out(s, d, nd, x, n) != SL_OK)
            st = SL_ERR_NOMEM;
    }
    free(d);
    free(ser);
    free(e);
    free(ulps);
    free(eta);
    report_float_input_free(&in);
    if (st != SL_OK)
        return report_fail(s, st, "%s", sl_status_str(st));
    return s->status;
}
