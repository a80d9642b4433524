/* Report section "kernel": a user's kernel from outside the tree (report
 * --kernel FILE --entry NAME), run from its PTX on the simulator: per size,
 * the harness's verdict against the reference with every finding, and the
 * simulator's counts of the same run's configuration. Without --kernel the
 * section has nothing to show and the report leaves it out. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "verify/harness/harness.h"
#include "verify/harness/inputs.h"
#include "verify/harness/sizes.h"
#include "verify/report/report.h"

/* The default sizes: the harness's edges up to four blocks of 1024. */
#define KERNEL_REPORT_MAX_N ((size_t)4096)

/* The simulator's counts of one run (the harness's own run keeps none). */
static sl_status counts_of(const report_user_kernel *k, size_t n, uint64_t seed, model_stats *ms)
{
    const size_t es = SL_TYPE_SIZE(k->type);
    void *in = malloc(n ? n * es : 1), *out = malloc(n ? n * es : 1);
    sl_status st = in && out ? verify_fill_input(k->type, k->op, verify_default_dist(k->type), seed, n, in)
                             : SL_ERR_NOMEM;
    model_stats_init(ms);
    ms->cfg.quiet = true;
    if (st == SL_OK) {
        sl_scan_args args = {.type = k->type, .op = k->op, .exclusive = k->exclusive, .in = in, .out = out,
                             .n = n, .block = k->block, .sim = ms};
        st = k->algo->run[SL_SIM](&args);
    }
    free(in);
    free(out);
    return st;
}

/* The first line of the findings' text. */
static void first_line(const char *text, char *buf, size_t size)
{
    const size_t len = strcspn(text, "\n");
    snprintf(buf, size, "%.*s", (int)(len < size ? len : size - 1), text);
}

sl_status report_run_kernel(report_section *s)
{
    const report_user_kernel *k = s->ctx->kernel;
    if (!k)
        return SL_OK;
    static const report_col cols[] = {
        {"n", "n"},           {"verdict", "verdict"},   {"findings", "findings"}, {"first", "first finding or failure"},
        {"launches", "launches"}, {"blocks", "blocks"}, {"work", "work"},         {"steps", "steps"},
        {"barriers", "barriers"}, {"bank_conflicts", "bank conflicts"},
        {"global_sectors", "global sectors"}};
    size_t *sizes = NULL, count = 0;
    sl_status st = SL_OK;
    if (k->sizes) {
        count = k->nsizes;
        sizes = malloc(count * sizeof *sizes);
        if (sizes)
            memcpy(sizes, k->sizes, count * sizeof *sizes);
        else
            st = SL_ERR_NOMEM;
    } else {
        st = verify_default_sizes(KERNEL_REPORT_MAX_N, s->ctx->seed, &sizes, &count);
    }
    if (st != SL_OK)
        return report_fail(s, st, "cannot make the sizes: %s", sl_status_str(st));
    report_text(s, "The kernel %s, run from its PTX on the simulator as %s %s %s scan, on %zu sizes from %zu to "
                   "%zu (%s). Each size is checked against the reference and fails on any finding of the "
                   "simulator (races under the PTX memory model, out-of-bounds accesses, barrier divergence, "
                   "undefined warp operations, deadlock); the counts are the simulator's for the same "
                   "configuration. Replay a size with 'scanlab verify --kernel ... --n N --seed %llu'.",
                k->algo->name, verify_type_name(k->type), verify_op_name(k->op),
                k->exclusive ? "exclusive" : "inclusive", count, sizes[0], sizes[count - 1],
                k->sizes ? "--n" : "the harness's edge sizes", (unsigned long long)s->ctx->seed);
    report_table *t = report_table_add(s, "kernel", "The kernel's verdict and counts per size", cols,
                                       sizeof cols / sizeof cols[0]);
    if (!t) {
        free(sizes);
        return report_fail(s, SL_ERR_NOMEM, "out of memory");
    }
    for (size_t i = 0; i < count && st == SL_OK; i++) {
        verify_case c = {.algo = k->algo, .backend = SL_SIM, .type = k->type, .op = k->op,
                         .exclusive = k->exclusive, .dist = verify_default_dist(k->type), .seed = s->ctx->seed,
                         .repeat = 1, .n = sizes[i], .block = k->block};
        verify_case_result r;
        const sl_status v = verify_run_case(&c, &r);
        const char *verdict = v == SL_OK ? "pass" : verify_status_is_skip(v) ? "skip" : "FAIL";
        char first[256] = "";
        if (r.findings_text[0])
            first_line(r.findings_text, first, sizeof first);
        else if (v != SL_OK)
            snprintf(first, sizeof first, "%s", sl_status_str(v));
        if (v != SL_OK && !verify_status_is_skip(v))
            s->failed_checks++;
        model_stats ms;
        const sl_status cs = counts_of(k, sizes[i], s->ctx->seed, &ms);
        char cnt[7][32];
        const uint64_t vals[7] = {ms.launches, ms.blocks, ms.work, ms.steps, ms.barriers, ms.bank_conflicts,
                                  ms.global_load_sectors + ms.global_store_sectors};
        for (int j = 0; j < 7; j++)
            snprintf(cnt[j], sizeof cnt[j], cs == SL_OK || cs == SL_ERR_SIM ? "%llu" : "",
                     (unsigned long long)vals[j]);
        model_stats_free(&ms);
        if (report_cell(t, "%zu", sizes[i]) || report_cell(t, "%s", verdict) ||
            report_cell(t, "%llu", (unsigned long long)r.findings) || report_cell(t, "%s", first) ||
            report_cell(t, "%s", cnt[0]) || report_cell(t, "%s", cnt[1]) || report_cell(t, "%s", cnt[2]) ||
            report_cell(t, "%s", cnt[3]) || report_cell(t, "%s", cnt[4]) || report_cell(t, "%s", cnt[5]) ||
            report_cell(t, "%s", cnt[6]))
            st = SL_ERR_NOMEM;
    }
    free(sizes);
    if (st != SL_OK)
        return report_fail(s, st, "%s", sl_status_str(st));
    return SL_OK;
}
