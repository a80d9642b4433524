/* Report section "banks": shared-memory wavefronts and bank conflicts
 * (DESIGN.md: 32 banks of 4 bytes, conflicts = wavefronts - ideal) of every
 * simulated scan on one block, for 4-byte and 8-byte elements. */
#include <stdio.h>
#include <string.h>

#include "verify/harness/algos.h"
#include "model/model.h"
#include "verify/report/plot.h"
#include "verify/report/report.h"

#define BANKS_K_MIN 5
#define BANKS_K_MAX 11
#define BANKS_K_MAX_QUICK 8
#define BANKS_MAX_SERIES 64
#define BANKS_POINTS (BANKS_K_MAX - BANKS_K_MIN + 1)

static const sl_type bank_types[] = {SL_I32, SL_F64};
#define BANK_TYPES (sizeof bank_types / sizeof bank_types[0])

typedef struct {
    char label[96];
    double n[BANKS_POINTS], conflicts[BANKS_POINTS];
    size_t count;
} series_data;

sl_status report_run_banks(report_section *s)
{
    static const report_col cols[] = {
        {"algorithm", "algorithm"}, {"type", "type"}, {"n", "n"}, {"shared_accesses", "shared accesses (warp-level)"},
        {"wavefronts", "wavefronts"}, {"bank_conflicts", "bank conflicts"},
        {"conflicts_per_access", "conflicts per access"}};
    int kmax = s->ctx->quick ? BANKS_K_MAX_QUICK : BANKS_K_MAX;
    report_text(s, "Shared-memory traffic of one block as the simulator counts it, in the terms of Nsight "
                   "Compute on Hopper: a warp-level access needs as many wavefronts as the most distinct "
                   "4-byte words one of the %d banks must serve; the ideal is 1 for 4-byte and 2 for 8-byte "
                   "elements, and bank conflicts are wavefronts minus the ideal (loads and stores together).",
                MODEL_BANKS);
    char caption[160];
    snprintf(caption, sizeof caption, "Shared-memory accesses, wavefronts and bank conflicts of one block of "
             "n = %zu (simulated, add)", (size_t)1 << kmax);
    report_table *top = report_table_add(s, "banks", caption, cols, 7);
    report_table *all = report_table_add(s, "banks-sizes", "Shared-memory counts at every n", cols, 7);
    if (!top || !all)
        return report_fail(s, SL_ERR_NOMEM, "out of memory");
    all->data_only = true;
    series_data d[BANKS_MAX_SERIES];
    plot_series ser[BANKS_MAX_SERIES];
    size_t nd = 0, algos = 0;
    for (size_t i = 0; i < verify_algo_count; i++) {
        const verify_algo *a = &verify_algos[i];
        if (a->kind != SL_KIND_SCAN || !verify_algo_runs_on(a, SL_SIM) || nd + BANK_TYPES > BANKS_MAX_SERIES)
            continue;
        for (size_t ti = 0; ti < BANK_TYPES; ti++) {
            series_data *sd = &d[nd];
            snprintf(sd->label, sizeof sd->label, "%s, %s", a->name, verify_type_name(bank_types[ti]));
            sd->count = 0;
            for (int k = BANKS_K_MIN; k <= kmax; k++) {
                size_t n = (size_t)1 << k;
                model_stats ms;
                int block = 0;
                sl_status st = report_sim_block(a, bank_types[ti], n, s->ctx->seed, &ms, &block);
                if (st == SL_ERR_UNSUPPORTED) {
                    model_stats_free(&ms);
                    break;
                }
                if (st != SL_OK) {
                    model_stats_free(&ms);
                    return report_fail(s, st, "%s on sim, %s, n = %zu: %s", a->name,
                                       verify_type_name(bank_types[ti]), n, sl_status_str(st));
                }
                sd->n[sd->count] = (double)n;
                sd->conflicts[sd->count++] = (double)ms.bank_conflicts;
                double per = ms.shared_accesses ? (double)ms.bank_conflicts / (double)ms.shared_accesses : 0.0;
                bool bad = false;
                for (int copy = 0; copy < (k == kmax ? 2 : 1); copy++) {
                    report_table *t = copy ? top : all;
                    bad |= report_cell(t, "%s", a->name) || report_cell(t, "%s", verify_type_name(bank_types[ti])) ||
                           report_cell(t, "%zu", n) || report_cell(t, "%llu", (unsigned long long)ms.shared_accesses) ||
                           report_cell(t, "%llu", (unsigned long long)ms.shared_wavefronts) ||
                           report_cell(t, "%llu", (unsigned long long)ms.bank_conflicts) ||
                           report_cell(t, "%.2f", per);
                }
                model_stats_free(&ms);
                if (bad)
                    return report_fail(s, SL_ERR_NOMEM, "out of memory");
            }
            ser[nd] = (plot_series){sd->label, sd->n, sd->conflicts, sd->count, NULL,
                                    ti == 0 ? PLOT_LINESPOINTS : PLOT_DASHED, (int)algos};
            nd++;
        }
        algos++;
    }
    if (nd == 0) {
        report_text(s, "No scan in the algorithm table has a simulator backend.");
        return SL_OK;
    }
    plot_spec p = {"Bank conflicts of one block (simulated, add)", "n (elements in the block)",
                   "bank conflicts (extra wavefronts)", true, false, 0, 0, ser, nd};
    return report_plot(s, "banks", "Bank conflicts against n per algorithm: 4-byte elements (solid) and "
                       "8-byte elements (dashed, same colour).", &p);
}
