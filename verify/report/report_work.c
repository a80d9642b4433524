/* Report section "work": work and steps (DESIGN.md, "The simulator's
 * model") of every simulated scan on one block of n = 2^k elements, drawn
 * against the closed forms of the textbook algorithms. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "verify/harness/algos.h"
#include "model/model.h"
#include "verify/report/plot.h"
#include "verify/report/report.h"

#define WORK_K_MIN 5
#define WORK_K_MAX 11
#define WORK_K_MAX_QUICK 8
#define WORK_MAX_SERIES 64

/* The closed forms for one block of n = 2^k elements, drawn for every
 * algorithm of the table with one of these names. */
typedef struct {
    const char *name;
    double (*work)(double n), (*steps)(double n);
    const char *work_expr, *steps_expr, *work_text, *steps_text;
} closed_form;

static double ks_work(double n) { return n * log2(n) - (n - 1); }
static double ks_steps(double n) { return log2(n); }
static double bk_work(double n) { return 2 * n - 2 - log2(n); }
static double bk_steps(double n) { return 2 * log2(n) - 1; }
static double bl_work(double n) { return 2 * (n - 1); }
static double bl_steps(double n) { return 2 * log2(n); }

static const closed_form forms[] = {
    {"kogge-stone", ks_work, ks_steps, "x*log(x)/log(2)-(x-1)", "log(x)/log(2)", "n log2 n - (n - 1)",
     "log2 n"},
    {"brent-kung", bk_work, bk_steps, "2*x-2-log(x)/log(2)", "2*log(x)/log(2)-1", "2n - 2 - log2 n",
     "2 log2 n - 1"},
    {"blelloch", bl_work, bl_steps, "2*(x-1)", "2*log(x)/log(2)", "2(n - 1)", "2 log2 n"},
};

static const closed_form *form_of(const char *name)
{
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++)
        if (strcmp(forms[i].name, name) == 0)
            return &forms[i];
    return NULL;
}

typedef struct {
    const verify_algo *algo;
    double n[WORK_K_MAX - WORK_K_MIN + 1], work[WORK_K_MAX - WORK_K_MIN + 1], steps[WORK_K_MAX - WORK_K_MIN + 1];
    size_t count;
} series_data;

static sl_status draw(report_section *s, series_data *d, size_t nd, bool steps, double nmax)
{
    plot_series ser[2 * WORK_MAX_SERIES];
    char labels[2 * WORK_MAX_SERIES][96];
    size_t m = 0;
    for (size_t i = 0; i < nd; i++) {
        ser[m] = (plot_series){d[i].algo->name, d[i].n, steps ? d[i].steps : d[i].work, d[i].count, NULL,
                               PLOT_LINESPOINTS, (int)i};
        m++;
        const closed_form *f = form_of(d[i].algo->name);
        if (f) {
            snprintf(labels[m], sizeof labels[m], "%s", steps ? f->steps_text : f->work_text);
            ser[m] = (plot_series){labels[m], NULL, NULL, 0, steps ? f->steps_expr : f->work_expr, PLOT_BAND,
                                   (int)i};
            m++;
        }
    }
    plot_spec p = {steps ? "Steps of one block (simulated, i32 add)" : "Work of one block (simulated, i32 add)",
                   "n (elements in the block)",
                   steps ? "steps (operator applications on the critical path)" : "work (operator applications)",
                   true, !steps, (double)((size_t)1 << WORK_K_MIN), nmax, ser, m};
    return steps ? report_plot(s, "work-steps",
                               "Steps against n: measured in the simulator (points) and the closed form "
                               "(broad pale line, same colour) where the algorithm has a textbook one.", &p)
                 : report_plot(s, "work-work",
                               "Work against n on log-log axes: measured in the simulator (points) and the "
                               "closed form (broad pale line, same colour) where the algorithm has a textbook one.", &p);
}

sl_status report_run_work(report_section *s)
{
    static const report_col cols[] = {
        {"algorithm", "algorithm"},   {"n", "n"},
        {"block", "threads per block"}, {"blocks", "blocks"},
        {"launches", "launches"},     {"work", "work [ops]"},
        {"work_closed_form", "closed form work"}, {"steps", "steps"},
        {"steps_closed_form", "closed form steps"}, {"barriers", "barriers"}};
    int kmax = s->ctx->quick ? WORK_K_MAX_QUICK : WORK_K_MAX;
    report_text(s, "Each scan with a simulator backend runs on n = 2^k elements, k = %d..%d, as one block "
                   "where a block size makes one (i32 add; counts do not depend on the values). Work counts "
                   "every application of the scan operator by any thread; steps sum, over barrier "
                   "intervals, the largest number of applications by one thread. The closed forms are "
                   "those of the textbook algorithms: Kogge-Stone n log2 n - (n - 1) and log2 n; "
                   "Brent-Kung 2n - 2 - log2 n and 2 log2 n - 1; Blelloch 2(n - 1) and 2 log2 n.",
                WORK_K_MIN, kmax);
    char caption[160];
    snprintf(caption, sizeof caption, "Work, steps and barriers of one block of n = %zu (simulated)", (size_t)1 << kmax);
    report_table *top = report_table_add(s, "work", caption, cols, 10);
    report_table *all = report_table_add(s, "work-sizes", "Work, steps and barriers at every n", cols, 10);
    if (!top || !all)
        return report_fail(s, SL_ERR_NOMEM, "out of memory");
    all->data_only = true;
    series_data d[WORK_MAX_SERIES];
    size_t nd = 0;
    for (size_t i = 0; i < verify_algo_count; i++) {
        const verify_algo *a = &verify_algos[i];
        if (a->kind != SL_KIND_SCAN || !verify_algo_runs_on(a, SL_SIM) || nd == WORK_MAX_SERIES)
            continue;
        series_data *sd = &d[nd++];
        sd->algo = a;
        sd->count = 0;
        const closed_form *f = form_of(a->name);
        for (int k = WORK_K_MIN; k <= kmax; k++) {
            size_t n = (size_t)1 << k;
            model_stats ms;
            int block = 0;
            sl_status st = report_sim_block(a, SL_I32, n, s->ctx->seed, &ms, &block);
            if (st != SL_OK) {
                model_stats_free(&ms);
                return report_fail(s, st, "%s on sim, n = %zu: %s", a->name, n, sl_status_str(st));
            }
            sd->n[sd->count] = (double)n;
            sd->work[sd->count] = (double)ms.work;
            sd->steps[sd->count] = (double)ms.steps;
            sd->count++;
            char wf[32] = "", sf[32] = "";
            if (f) {
                snprintf(wf, sizeof wf, "%.0f", f->work((double)n));
                snprintf(sf, sizeof sf, "%.0f", f->steps((double)n));
            }
            bool bad = false;
            for (int copy = 0; copy < (k == kmax ? 2 : 1); copy++) {
                report_table *t = copy ? top : all;
                bad |= report_cell(t, "%s", a->name) || report_cell(t, "%zu", n) ||
                       (block ? report_cell(t, "%d", block) : report_cell(t, "%s", "default")) ||
                       report_cell(t, "%llu", (unsigned long long)ms.blocks) ||
                       report_cell(t, "%llu", (unsigned long long)ms.launches) ||
                       report_cell(t, "%llu", (unsigned long long)ms.work) || report_cell(t, "%s", wf) ||
                       report_cell(t, "%llu", (unsigned long long)ms.steps) || report_cell(t, "%s", sf) ||
                       report_cell(t, "%llu", (unsigned long long)ms.barriers);
            }
            model_stats_free(&ms);
            if (bad)
                return report_fail(s, SL_ERR_NOMEM, "out of memory");
        }
    }
    if (nd == 0) {
        report_text(s, "No scan in the algorithm table has a simulator backend.");
        return SL_OK;
    }
    double nmax = (double)((size_t)1 << kmax);
    if (draw(s, d, nd, false, nmax) != SL_OK || draw(s, d, nd, true, nmax) != SL_OK)
        return s->status;
    return SL_OK;
}
