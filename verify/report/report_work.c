/* Report section "work": work, steps and barriers (docs/metrics.md) of
 * every simulated scan on one block of n = 2^k elements, beside the closed
 * forms of closed_form.h; a row whose run does not fit a form's
 * assumptions is marked, a fitting row that differs from its form fails. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/model.h"
#include "verify/harness/algos.h"
#include "verify/report/closed_form.h"
#include "verify/report/kernel_files.h"
#include "verify/report/plot.h"
#include "verify/report/report.h"

#define WORK_K_MIN 5
#define WORK_K_MAX 11
#define WORK_K_MAX_QUICK 8
#define WORK_MAX_SERIES 64
#define WORK_POINTS (WORK_K_MAX - WORK_K_MIN + 1)

typedef struct {
    const verify_algo *algo;
    const closed_form *form;
    double n[WORK_POINTS], work[WORK_POINTS], steps[WORK_POINTS], per_elem[WORK_POINTS];
    size_t count;
    /* the points that ran on more than one block or launch */
    double mn[WORK_POINTS], mwork[WORK_POINTS], msteps[WORK_POINTS], mper[WORK_POINTS];
    size_t mcount;
    /* the closed forms where the run fits them */
    double fn[WORK_POINTS], fwork[WORK_POINTS], fsteps[WORK_POINTS];
    size_t fcount;
} series_data;

enum { DRAW_WORK, DRAW_STEPS, DRAW_PER_ELEMENT };

static sl_status draw(report_section *s, series_data *d, size_t nd, int what, double nmax)
{
    static plot_series ser[3 * WORK_MAX_SERIES];
    const bool steps = what == DRAW_STEPS, per = what == DRAW_PER_ELEMENT;
    const char *names[WORK_MAX_SERIES] = {0};
    int panel[WORK_MAX_SERIES];
    for (size_t i = 0; i < nd; i++)
        names[i] = d[i].algo->name;
    report_panels panels;
    report_panels_make(&panels, names, nd, panel);
    size_t m = 0;
    double all[WORK_MAX_SERIES * WORK_POINTS];
    size_t nall = 0;
    for (size_t i = 0; i < nd; i++) {
        const double *y = steps ? d[i].steps : per ? d[i].per_elem : d[i].work;
        ser[m++] = (plot_series){d[i].algo->name, d[i].n, y, d[i].count, NULL, PLOT_LINESPOINTS, (int)i, panel[i], 0};
        for (size_t k = 0; k < d[i].count; k++)
            all[nall++] = y[k];
        /* the points of more than one block: another point type over them */
        if (d[i].mcount)
            ser[m++] = (plot_series){NULL, d[i].mn, steps ? d[i].msteps : per ? d[i].mper : d[i].mwork,
                                     d[i].mcount, NULL, PLOT_POINTS, (int)i, panel[i], 1};
        if (per)
            continue;
        if (d[i].fcount)
            ser[m++] = (plot_series){NULL, d[i].fn,
                                     steps ? d[i].fsteps : d[i].fwork, d[i].fcount, NULL, PLOT_BAND, (int)i,
                                     panel[i], 0};
    }
    plot_spec p = {steps ? "Steps of one block (simulated, i32 add)"
                   : per ? "Work per element (simulated, i32 add)" : "Work of one block (simulated, i32 add)",
                   "n (elements)",
                   steps ? "steps (critical path)" : per ? "work / n" : "work (operator applications)",
                   true, steps ? plot_spans_decades(all, nall) : !per, (double)((size_t)1 << WORK_K_MIN), nmax,
                   ser, m, panels.titles, panels.count};
    if (per)
        return report_plot(s, "work-per-element",
                           "Work per element against n, on a linear axis: a work-efficient scan stays flat "
                           "(Brent-Kung and Blelloch about 2), Kogge-Stone grows by one per doubling of n "
                           "(log2 n). A second point type over a point marks a run on more than one block or "
                           "launch.", &p);
    return steps ? report_plot(s, "work-steps",
                               "Steps against n, one panel per group of algorithms on shared axes: measured in "
                               "the simulator (points) and the closed form (broad pale line, same colour) "
                               "where the run fits it; the forms are in the table below. A second point type "
                               "over a point marks a run on more than one block or launch, where the one-block "
                               "forms do not apply.", &p)
                 : report_plot(s, "work-work",
                               "Work against n on log-log axes, one panel per group of algorithms: measured in "
                               "the simulator (points) and the closed form (broad pale line, same colour) "
                               "where the run fits it; the forms are in the table below. A second point type "
                               "over a point marks a run on more than one block or launch.", &p);
}

/* Work against steps at the largest n, one point per block-level scan: the
 * trade-off between a short critical path and little work. */
static sl_status draw_tradeoff(report_section *s, series_data *d, size_t nd, size_t n)
{
    static plot_series ser[WORK_MAX_SERIES];
    static double x[WORK_MAX_SERIES], y[WORK_MAX_SERIES];
    const char *names[WORK_MAX_SERIES] = {0};
    size_t idx[WORK_MAX_SERIES], m = 0;
    for (size_t i = 0; i < nd; i++) {
        const report_kernel_files *kf = report_kernel_files_of(d[i].algo->name);
        if (!kf || strcmp(kf->level, "block") != 0 || d[i].count == 0)
            continue;
        idx[m] = i;
        names[m++] = d[i].algo->name;
    }
    if (m == 0)
        return SL_OK;
    int panel[WORK_MAX_SERIES];
    report_panels panels;
    report_panels_make(&panels, names, m, panel);
    for (size_t j = 0; j < m; j++) {
        const series_data *sd = &d[idx[j]];
        x[j] = sd->steps[sd->count - 1];
        y[j] = sd->work[sd->count - 1];
        ser[j] = (plot_series){sd->algo->name, &x[j], &y[j], 1, NULL, PLOT_POINTS, (int)j, panel[j], 0};
    }
    char title[96];
    snprintf(title, sizeof title, "Work against steps at n = %zu (simulated, i32 add)", n);
    plot_spec p = {title, "steps (critical path)", "work (operator applications)", false, false, 0, 0, ser, m,
                   panels.titles, panels.count};
    return report_plot(s, "work-tradeoff",
                       "Work against steps for every block-level scan at the largest n, one point each: "
                       "Kogge-Stone has the fewest steps (log2 n) and the most work (n log2 n), Brent-Kung and "
                       "Blelloch the least work (about 2n) for about twice the steps (2 log2 n), and the "
                       "hybrids (Sengupta's work-efficient passes around a Kogge-Stone core, the coarsened "
                       "scan) trade one for the other. The trade-off is the lesson: no scan has both at their "
                       "minimum.", &p);
}

/* Why the device-level scans' curves look as they do, from their runs. */
static void explain_device(report_section *s, const series_data *d, size_t nd)
{
    char list[1024] = "";
    size_t len = 0;
    for (size_t i = 0; i < nd && len < sizeof list; i++) {
        const report_kernel_files *kf = report_kernel_files_of(d[i].algo->name);
        if (!kf || strcmp(kf->level, "device") != 0 || d[i].count == 0)
            continue;
        const size_t last = d[i].count - 1;
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s: work %.0f to %.0f, steps %.0f to %.0f",
                                len ? "; " : "", d[i].algo->name, d[i].work[0], d[i].work[last], d[i].steps[0],
                                d[i].steps[last]);
    }
    if (len)
        report_text(s, "The device-level scans' panels: at these sizes each runs one register tile on one block "
                       "(a tile holds I items a thread, 24 for 4-byte types, so it is larger than n and padded "
                       "with the identity). A thread scans its I items in sequence, the warp's shuffles and the "
                       "block's warp totals combine the threads, and each thread applies its prefix to its "
                       "items: the critical path is about 2I steps plus the warp and block levels, a few dozen "
                       "steps that do not grow with n, and the work is about 2I a thread, which follows the "
                       "block size the run chose (at least a warp), not n, so that work per element stays flat "
                       "once the block is more than a warp. Measured here, n = %d to %g: %s.",
                    1 << WORK_K_MIN, d[0].n[d[0].count ? d[0].count - 1 : 0], list);
}

/* The cells of one form: its value where the run fits, and the verdict. */
static void judge(const closed_form *f, size_t n, int block, const model_stats *ms, char cells[3][32],
                  char *verdict, size_t size, bool *fits, unsigned *failed)
{
    cells[0][0] = cells[1][0] = cells[2][0] = '\0';
    *fits = false;
    if (!f) {
        snprintf(verdict, size, "none");
        return;
    }
    char why[160];
    if (!closed_form_fits(f, n, (unsigned)block, ms->launches, ms->blocks, why, sizeof why)) {
        snprintf(verdict, size, "n/a: %s", why);
        return;
    }
    *fits = true;
    const uint64_t want[3] = {f->work(n), f->steps(n), f->barriers(n)};
    const uint64_t got[3] = {ms->work, ms->steps, ms->barriers};
    static const char *const what[3] = {"work", "steps", "barriers"};
    snprintf(verdict, size, "equal");
    for (int k = 0; k < 3; k++) {
        snprintf(cells[k], sizeof cells[k], "%llu", (unsigned long long)want[k]);
        if (want[k] != got[k] && strcmp(verdict, "equal") == 0) {
            snprintf(verdict, size, "FAIL: %s %llu, form %llu", what[k], (unsigned long long)got[k],
                     (unsigned long long)want[k]);
            (*failed)++;
        }
    }
}

sl_status report_run_work(report_section *s)
{
    static const report_col cols[] = {
        {"algorithm", "algorithm"},
        {"n", "n"},
        {"block", "threads per block"},
        {"blocks", "blocks"},
        {"launches", "launches"},
        {"work", "work [ops]"},
        {"work_closed_form", "closed form work"},
        {"steps", "steps"},
        {"steps_closed_form", "closed form steps"},
        {"barriers", "barriers"},
        {"barriers_closed_form", "closed form barriers"},
        {"closed_form", "against the closed form"}};
    const size_t ncols = sizeof cols / sizeof cols[0];
    int kmax = s->ctx->quick ? WORK_K_MAX_QUICK : WORK_K_MAX;
    report_text(s, "Each scan with a simulator backend runs on n = 2^k elements, k = %d..%d (i32 add; counts do "
                   "not depend on the values), as one block with the block size its closed form assumes, else "
                   "the smallest that makes one block, else the algorithm's default. Work counts every "
                   "application of the scan operator by any thread; steps sum, over barrier intervals, the "
                   "largest number of applications by one thread; barriers count completed block-wide "
                   "barriers. The closed forms (docs/algorithms.md) are for one block scanning one full "
                   "section with the default parameter; a row marked n/a ran otherwise (several blocks, "
                   "another block size, or an n the form does not cover) and is not compared. A row that "
                   "fits and differs fails.",
                WORK_K_MIN, kmax);
    char caption[160];
    snprintf(caption, sizeof caption, "Work, steps and barriers of one block of n = %zu (simulated) against "
             "the closed forms", (size_t)1 << kmax);
    report_table *top = report_table_add(s, "work", caption, cols, ncols);
    report_table *all = report_table_add(s, "work-sizes", "Work, steps and barriers at every n", cols, ncols);
    report_table *forms = report_table_add(s, "work-forms", "The closed forms",
                                           (const report_col[]){{"algorithm", "algorithm"},
                                                                {"assumes", "for"},
                                                                {"work", "work"},
                                                                {"steps", "steps"},
                                                                {"barriers", "barriers"}},
                                           5);
    if (!top || !all || !forms)
        return report_fail(s, SL_ERR_NOMEM, "out of memory");
    all->data_only = true;
    static series_data d[WORK_MAX_SERIES];
    size_t nd = 0;
    for (size_t i = 0; i < verify_algo_count; i++) {
        const verify_algo *a = &verify_algos[i];
        if (a->kind != SL_KIND_SCAN || !verify_algo_runs_on(a, SL_SIM) || nd == WORK_MAX_SERIES)
            continue;
        series_data *sd = &d[nd++];
        memset(sd, 0, sizeof *sd);
        sd->algo = a;
        sd->form = closed_form_of(a->name);
        if (sd->form) {
            if (report_cell(forms, "%s", a->name) || report_cell(forms, "%s", sd->form->assumes) ||
                report_cell(forms, "%s", sd->form->work_text) || report_cell(forms, "%s", sd->form->steps_text) ||
                report_cell(forms, "%s", sd->form->barriers_text))
                return report_fail(s, SL_ERR_NOMEM, "out of memory");
        }
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
            sd->per_elem[sd->count] = (double)ms.work / (double)n;
            sd->steps[sd->count++] = (double)ms.steps;
            if (ms.blocks > 1 || ms.launches > 1) {
                sd->mn[sd->mcount] = (double)n;
                sd->mwork[sd->mcount] = (double)ms.work;
                sd->mper[sd->mcount] = (double)ms.work / (double)n;
                sd->msteps[sd->mcount++] = (double)ms.steps;
            }
            char cells[3][32], verdict[200];
            bool fits;
            judge(sd->form, n, block, &ms, cells, verdict, sizeof verdict, &fits, &s->failed_checks);
            if (fits) {
                sd->fn[sd->fcount] = (double)n;
                sd->fwork[sd->fcount] = (double)sd->form->work(n);
                sd->fsteps[sd->fcount++] = (double)sd->form->steps(n);
            }
            bool bad = false;
            for (int copy = 0; copy < (k == kmax ? 2 : 1); copy++) {
                report_table *t = copy ? top : all;
                bad |= report_cell(t, "%s", a->name) || report_cell(t, "%zu", n) ||
                       (block ? report_cell(t, "%d", block) : report_cell(t, "%s", "default")) ||
                       report_cell(t, "%llu", (unsigned long long)ms.blocks) ||
                       report_cell(t, "%llu", (unsigned long long)ms.launches) ||
                       report_cell(t, "%llu", (unsigned long long)ms.work) || report_cell(t, "%s", cells[0]) ||
                       report_cell(t, "%llu", (unsigned long long)ms.steps) || report_cell(t, "%s", cells[1]) ||
                       report_cell(t, "%llu", (unsigned long long)ms.barriers) ||
                       report_cell(t, "%s", cells[2]) || report_cell(t, "%s", verdict);
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
    if (draw(s, d, nd, DRAW_WORK, nmax) != SL_OK || draw(s, d, nd, DRAW_PER_ELEMENT, nmax) != SL_OK ||
        draw(s, d, nd, DRAW_STEPS, nmax) != SL_OK || draw_tradeoff(s, d, nd, (size_t)1 << kmax) != SL_OK)
        return s->status;
    explain_device(s, d, nd);
    return SL_OK;
}
