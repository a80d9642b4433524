/* Report section "banks": shared-memory wavefronts and bank conflicts
 * (docs/metrics.md: 32 banks of 4 bytes, conflicts = wavefronts - ideal)
 * of every simulated scan on one block, for 4-byte and 8-byte elements:
 * totals against n beside the closed forms, and the counts of every call
 * site, as a table and as a heat map. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "verify/harness/algos.h"
#include "verify/report/closed_form.h"
#include "verify/report/plot.h"
#include "verify/report/report.h"

#define BANKS_K_MIN 5
#define BANKS_K_MAX 11
#define BANKS_K_MAX_QUICK 8
#define BANKS_MAX_ALGOS 32
#define BANKS_POINTS (BANKS_K_MAX - BANKS_K_MIN + 1)
/* Call sites with shared accesses, over every algorithm and type. */
#define BANKS_MAX_SITES 1024
/* Characters of a site's line of code shown in the heat map (longer ones
 * are cut, with "..."). */
#define BANKS_CODE_CHARS 72

static const sl_type bank_types[] = {SL_I32, SL_F64};
#define BANK_TYPES (sizeof bank_types / sizeof bank_types[0])

typedef struct {
    char label[96];
    double n[BANKS_POINTS], conflicts[BANKS_POINTS];
    size_t count;
} series_data;

/* One call site of one algorithm and type, across the sizes. */
typedef struct {
    const verify_algo *algo;
    sl_type type;
    const char *file; /* repository-relative */
    int line;
    const char *what;
    double conflicts[BANKS_POINTS];
    uint64_t accesses, wavefronts, worst; /* at the largest n */
    uint64_t last_conflicts;
} site_row;

typedef struct {
    site_row *rows;
    size_t count;
} site_table;

static site_row *site_of(site_table *t, const verify_algo *a, sl_type type, const model_site *ms)
{
    const char *file = report_repo_path(ms->file);
    for (size_t i = 0; i < t->count; i++) {
        site_row *r = &t->rows[i];
        if (r->algo == a && r->type == type && r->line == ms->line && strcmp(r->file, file) == 0 &&
            strcmp(r->what, ms->what) == 0)
            return r;
    }
    if (t->count == BANKS_MAX_SITES)
        return NULL;
    site_row *r = &t->rows[t->count++];
    memset(r, 0, sizeof *r);
    *r = (site_row){.algo = a, .type = type, .file = file, .line = ms->line, .what = ms->what};
    return r;
}

/* Add the shared-memory sites of one run (size index k). */
static void add_sites(site_table *t, const verify_algo *a, sl_type type, const model_stats *ms, int k, bool last)
{
    for (size_t i = 0; i < ms->nsites; i++) {
        const model_site_stats *x = &ms->sites[i];
        if (!x->site || x->shared_accesses == 0)
            continue;
        site_row *r = site_of(t, a, type, x->site);
        if (!r)
            return;
        r->conflicts[k] += (double)x->bank_conflicts;
        if (last) {
            r->accesses += x->shared_accesses;
            r->wavefronts += x->shared_wavefronts;
            r->worst = x->worst_degree > r->worst ? x->worst_degree : r->worst;
            r->last_conflicts += x->bank_conflicts;
        }
    }
}

/* The figure: conflicts against n, small multiples by level. */
static bool any_conflict(const series_data *sd)
{
    for (size_t k = 0; k < sd->count; k++)
        if (sd->conflicts[k] > 0)
            return true;
    return false;
}

static sl_status draw_totals(report_section *s, series_data *d, const verify_algo **algos, size_t nalgos)
{
    static plot_series ser[BANK_TYPES * BANKS_MAX_ALGOS];
    const char *names[BANKS_MAX_ALGOS] = {0};
    size_t index[BANKS_MAX_ALGOS], shown = 0;
    int panel[BANKS_MAX_ALGOS];
    char none[REPORT_TEXT_LEN / 2] = "";
    for (size_t i = 0; i < nalgos; i++) {
        bool any = false;
        for (size_t ti = 0; ti < BANK_TYPES; ti++)
            any |= any_conflict(&d[i * BANK_TYPES + ti]);
        if (any) {
            index[shown] = i;
            names[shown++] = algos[i]->name;
        } else {
            size_t len = strlen(none);
            snprintf(none + len, sizeof none - len, "%s%s", len ? ", " : "", algos[i]->name);
        }
    }
    if (none[0])
        report_text(s, "Without a bank conflict at any n and type (not drawn): %s.", none);
    if (shown == 0)
        return SL_OK;
    report_panels panels;
    report_panels_make(&panels, names, shown, panel);
    size_t m = 0;
    for (size_t j = 0; j < shown; j++)
        for (size_t ti = 0; ti < BANK_TYPES; ti++) {
            series_data *sd = &d[index[j] * BANK_TYPES + ti];
            if (sd->count)
                ser[m++] = (plot_series){sd->label, sd->n, sd->conflicts, sd->count, NULL, PLOT_LINESPOINTS, (int)j,
                                         panel[j], (int)ti};
        }
    plot_spec p = {"Bank conflicts of one block (simulated, add)", "n (elements)",
                   "bank conflicts (extra wavefronts)", true, true, 0, 0, ser, m, panels.titles, panels.count};
    return report_plot(s, "banks",
                       "Bank conflicts against n on log-log axes, one panel per group of algorithms on shared "
                       "axes: 4-byte elements (solid, circles) and 8-byte elements (dash-dotted, squares), "
                       "same colour. A count of zero has no place on a logarithmic axis: a point missing "
                       "from a line is zero (the tables have every count).",
                       &p);
}

static int by_conflicts(const void *x, const void *y)
{
    const site_row *a = x, *b = y;
    if (a->last_conflicts != b->last_conflicts)
        return a->last_conflicts < b->last_conflicts ? 1 : -1;
    int c = strcmp(a->algo->name, b->algo->name);
    if (c)
        return c;
    c = strcmp(a->file, b->file);
    return c ? c : a->line - b->line;
}

/* The per-site table (sites with conflicts at the largest n), the data of
 * every site, and the heat map of 4-byte conflicts by site and n. */
static sl_status sites_out(report_section *s, site_table *t, int kmax)
{
    static const report_col cols[] = {
        {"algorithm", "algorithm"},     {"type", "type"},
        {"site", "call site"},          {"op", "access"},
        {"shared_accesses", "warp accesses"}, {"wavefronts", "wavefronts"},
        {"bank_conflicts", "bank conflicts"}, {"worst_degree", "worst degree"}};
    const size_t ncols = sizeof cols / sizeof cols[0];
    qsort(t->rows, t->count, sizeof t->rows[0], by_conflicts);
    char caption[200];
    snprintf(caption, sizeof caption, "Bank conflicts per call site at n = %zu (sites with conflicts, most "
             "first; degree = most wavefronts of one warp access)", (size_t)1 << kmax);
    report_table *top = report_table_add(s, "banks-sites", caption, cols, ncols);
    report_table *every = report_table_add(s, "banks-sites-all", "Shared-memory counts of every call site at "
                                           "the largest n", cols, ncols);
    if (!top || !every)
        return report_fail(s, SL_ERR_NOMEM, "out of memory");
    every->data_only = true;
    for (size_t i = 0; i < t->count; i++) {
        const site_row *r = &t->rows[i];
        for (int copy = 0; copy < (r->last_conflicts ? 2 : 1); copy++) {
            report_table *tb = copy ? top : every;
            if (report_cell(tb, "%s", r->algo->name) || report_cell(tb, "%s", verify_type_name(r->type)) ||
                report_cell(tb, "%s:%d", r->file, r->line) || report_cell(tb, "%s", r->what) ||
                report_cell(tb, "%llu", (unsigned long long)r->accesses) ||
                report_cell(tb, "%llu", (unsigned long long)r->wavefronts) ||
                report_cell(tb, "%llu", (unsigned long long)r->last_conflicts) ||
                report_cell(tb, "%llu", (unsigned long long)r->worst))
                return report_fail(s, SL_ERR_NOMEM, "out of memory");
        }
    }
    /* heat map rows: 4-byte sites with a conflict at some n */
    size_t ncol = (size_t)(kmax - BANKS_K_MIN + 1), nrow = 0;
    char (*labels)[128] = calloc(t->count + 1, sizeof *labels);
    char (*code)[BANKS_CODE_CHARS + 1] = calloc(t->count + 1, sizeof *code);
    const char **rows = calloc(t->count + 1, sizeof *rows), **notes = calloc(t->count + 1, sizeof *notes);
    double *z = calloc((t->count + 1) * ncol, sizeof *z);
    char col_text[BANKS_POINTS][24];
    const char *cols_l[BANKS_POINTS];
    if (!labels || !code || !rows || !notes || !z) {
        free(labels);
        free(code);
        free(rows);
        free(notes);
        free(z);
        return report_fail(s, SL_ERR_NOMEM, "out of memory");
    }
    for (size_t c = 0; c < ncol; c++) {
        snprintf(col_text[c], sizeof col_text[c], "%zu", (size_t)1 << (BANKS_K_MIN + (int)c));
        cols_l[c] = col_text[c];
    }
    for (size_t i = 0; i < t->count; i++) {
        const site_row *r = &t->rows[i];
        double any = 0;
        for (size_t c = 0; c < ncol; c++)
            any += r->conflicts[c];
        if (r->type != SL_I32 || any == 0)
            continue;
        const char *base = strrchr(r->file, '/');
        snprintf(labels[nrow], sizeof labels[nrow], "%s  %s:%d %s", r->algo->name, base ? base + 1 : r->file,
                 r->line, r->what);
        rows[nrow] = labels[nrow];
        /* the line's code beside its counts ("" where the source is not
         * at hand: the site's path:line still names it) */
        report_source_line(r->file, r->line, code[nrow], sizeof code[nrow]);
        notes[nrow] = code[nrow];
        memcpy(z + nrow * ncol, r->conflicts, ncol * sizeof *z);
        nrow++;
    }
    sl_status st = SL_OK;
    if (nrow) {
        plot_heatmap h = {"Bank conflicts per call site and n (simulated, i32 add, one block)", "n (elements)",
                          "call site", "bank conflicts", nrow, ncol, rows, cols_l, z, true, notes};
        st = report_heatmap(s, "banks-sites",
                            "Bank conflicts of every 4-byte call site that has any, against n (colour on a "
                            "logarithmic scale, viridis; blank: none), the site's line of code on the right. "
                            "Rows in the order of the table above.",
                            &h);
    } else {
        report_text(s, "No 4-byte call site has a bank conflict at any n.");
    }
    free(labels);
    free(code);
    free(rows);
    free(notes);
    free(z);
    return st;
}

sl_status report_run_banks(report_section *s)
{
    static const report_col cols[] = {
        {"algorithm", "algorithm"},
        {"type", "type"},
        {"n", "n"},
        {"block", "threads per block"},
        {"shared_accesses", "shared accesses (warp-level)"},
        {"wavefronts", "wavefronts"},
        {"bank_conflicts", "bank conflicts"},
        {"conflicts_closed_form", "closed form"},
        {"closed_form", "against the closed form"},
        {"conflicts_per_access", "conflicts per access"}};
    const size_t ncols = sizeof cols / sizeof cols[0];
    int kmax = s->ctx->quick ? BANKS_K_MAX_QUICK : BANKS_K_MAX;
    report_text(s, "Shared-memory traffic of one block as the simulator counts it, in the terms of Nsight "
                   "Compute on Hopper: a warp-level access needs as many wavefronts as the most distinct "
                   "4-byte words one of the %d banks must serve; the ideal is 1 for 4-byte and 2 for 8-byte "
                   "elements, and bank conflicts are wavefronts minus the ideal (loads and stores together). "
                   "Blocks as in the previous section. The closed forms (4-byte elements) sum, over each "
                   "phase of the kernel, C(lo, hi, d): for threads [lo, hi) touching words c + d t, every "
                   "warp of a active lanes costs ceil(a / (32 / gcd(d, 32))) - 1 (docs/algorithms.md).",
                MODEL_BANKS);
    char caption[160];
    snprintf(caption, sizeof caption, "Shared-memory accesses, wavefronts and bank conflicts of one block of "
             "n = %zu (simulated, add)", (size_t)1 << kmax);
    report_table *top = report_table_add(s, "banks", caption, cols, ncols);
    report_table *all = report_table_add(s, "banks-sizes", "Shared-memory counts at every n", cols, ncols);
    if (!top || !all)
        return report_fail(s, SL_ERR_NOMEM, "out of memory");
    all->data_only = true;
    static series_data d[BANK_TYPES * BANKS_MAX_ALGOS];
    const verify_algo *algos[BANKS_MAX_ALGOS];
    site_table sites = {calloc(BANKS_MAX_SITES, sizeof(site_row)), 0};
    if (!sites.rows)
        return report_fail(s, SL_ERR_NOMEM, "out of memory");
    size_t nalgos = 0;
    sl_status st = SL_OK;
    for (size_t i = 0; i < verify_algo_count && st == SL_OK; i++) {
        const verify_algo *a = &verify_algos[i];
        if (a->kind != SL_KIND_SCAN || !verify_algo_runs_on(a, SL_SIM) || nalgos == BANKS_MAX_ALGOS)
            continue;
        const closed_form *f = closed_form_of(a->name);
        for (size_t ti = 0; ti < BANK_TYPES && st == SL_OK; ti++) {
            series_data *sd = &d[nalgos * BANK_TYPES + ti];
            memset(sd, 0, sizeof *sd);
            snprintf(sd->label, sizeof sd->label, "%s, %s", a->name, verify_type_name(bank_types[ti]));
            for (int k = BANKS_K_MIN; k <= kmax && st == SL_OK; k++) {
                size_t n = (size_t)1 << k;
                model_stats ms;
                int block = 0;
                st = report_sim_block(a, bank_types[ti], n, s->ctx->seed, &ms, &block);
                if (st == SL_ERR_UNSUPPORTED) {
                    model_stats_free(&ms);
                    st = SL_OK;
                    break;
                }
                if (st != SL_OK) {
                    model_stats_free(&ms);
                    report_fail(s, st, "%s on sim, %s, n = %zu: %s", a->name, verify_type_name(bank_types[ti]),
                                n, sl_status_str(st));
                    break;
                }
                sd->n[sd->count] = (double)n;
                sd->conflicts[sd->count++] = (double)ms.bank_conflicts;
                add_sites(&sites, a, bank_types[ti], &ms, k - BANKS_K_MIN, k == kmax);
                char form[32] = "", verdict[200] = "none", why[160];
                if (f && bank_types[ti] != SL_I32) {
                    snprintf(verdict, sizeof verdict, "n/a: the form is for 4-byte elements");
                } else if (f && !closed_form_fits(f, n, (unsigned)block, ms.launches, ms.blocks, why, sizeof why)) {
                    snprintf(verdict, sizeof verdict, "n/a: %s", why);
                } else if (f) {
                    uint64_t want = f->conflicts(n);
                    snprintf(form, sizeof form, "%llu", (unsigned long long)want);
                    if (want == ms.bank_conflicts) {
                        snprintf(verdict, sizeof verdict, "equal");
                    } else {
                        snprintf(verdict, sizeof verdict, "FAIL: %llu, form %llu",
                                 (unsigned long long)ms.bank_conflicts, (unsigned long long)want);
                        s->failed_checks++;
                    }
                }
                double per = ms.shared_accesses ? (double)ms.bank_conflicts / (double)ms.shared_accesses : 0.0;
                bool bad = false;
                for (int copy = 0; copy < (k == kmax ? 2 : 1); copy++) {
                    report_table *t = copy ? top : all;
                    bad |= report_cell(t, "%s", a->name) || report_cell(t, "%s", verify_type_name(bank_types[ti])) ||
                           report_cell(t, "%zu", n) ||
                           (block ? report_cell(t, "%d", block) : report_cell(t, "%s", "default")) ||
                           report_cell(t, "%llu", (unsigned long long)ms.shared_accesses) ||
                           report_cell(t, "%llu", (unsigned long long)ms.shared_wavefronts) ||
                           report_cell(t, "%llu", (unsigned long long)ms.bank_conflicts) ||
                           report_cell(t, "%s", form) || report_cell(t, "%s", verdict) ||
                           report_cell(t, "%.2f", per);
                }
                model_stats_free(&ms);
                if (bad)
                    st = report_fail(s, SL_ERR_NOMEM, "out of memory");
            }
        }
        algos[nalgos++] = a;
    }
    if (st == SL_OK && nalgos == 0)
        report_text(s, "No scan in the algorithm table has a simulator backend.");
    else if (st == SL_OK)
        st = draw_totals(s, d, algos, nalgos);
    if (st == SL_OK && nalgos)
        st = sites_out(s, &sites, kmax);
    free(sites.rows);
    return st == SL_OK ? SL_OK : s->status != SL_OK ? s->status : report_fail(s, st, "%s", sl_status_str(st));
}
