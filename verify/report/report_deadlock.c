/* Report section "deadlock": every algorithm with a sim backend that waits
 * between blocks, searched under every progress model (docs/deadlock.md)
 * as `scanlab deadlock` does: the verdict, states and schedules, and the
 * trace of each deadlock. The algorithms that never poll global memory are
 * named as such. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify/harness/algos.h"
#include "verify/harness/deadlock.h"
#include "verify/report/report.h"

/* A grid small enough for exhaustive search of every model in seconds
 * (docs/deadlock.md measures the explorer), large enough that a block may
 * wait for one that is not resident. */
#define REPORT_DL_BLOCKS 3
#define REPORT_DL_RESIDENT 2
#define REPORT_DL_QUICK_BLOCKS 2
#define REPORT_DL_QUICK_RESIDENT 1

static sl_status trace_cells(report_table *t, const verify_algo *al, model_progress m,
                             const verify_deadlock_config *c, const model_search_result *r)
{
    char steps[4 * MODEL_TRACE_MAX + 8] = "", list[512] = "", res[128] = "", pend[512] = "", waits[8 * 260] = "";
    size_t len = 0;
    for (unsigned i = 0; i < r->trace_len && len < sizeof steps; i++)
        len += (size_t)snprintf(steps + len, sizeof steps - len, "%s%c%u", i ? " " : "", r->trace[i].what,
                                r->trace[i].block);
    len = 0;
    for (unsigned i = 0; i < r->ndispatch && len < sizeof list; i++)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%u", i ? " " : "", r->dispatch[i]);
    unsigned rb[8];
    const unsigned nr = verify_deadlock_resident(r, rb, 8);
    len = 0;
    for (unsigned i = 0; i < nr && len < sizeof res; i++)
        len += (size_t)snprintf(res + len, sizeof res - len, "%s%u", i ? " " : "", rb[i]);
    len = 0;
    for (unsigned b = 0; b < c->blocks && len < sizeof pend; b++) {
        bool seen = false;
        for (unsigned i = 0; i < r->ndispatch && !seen; i++)
            seen = r->dispatch[i] == b;
        if (!seen)
            len += (size_t)snprintf(pend + len, sizeof pend - len, "%s%u", len ? " " : "", b);
    }
    len = 0;
    for (unsigned i = 0; i < r->nwaits && len < sizeof waits; i++)
        len += (size_t)snprintf(waits + len, sizeof waits - len, "%s%s", i ? "; " : "", r->waits[i]);
    return report_cell(t, "%s", al->name) || report_cell(t, "%s", verify_progress_name(m)) ||
                   report_cell(t, "%s", steps) || report_cell(t, "%s", list) || report_cell(t, "%s", res) ||
                   report_cell(t, "%s", pend) || report_cell(t, "%s", waits)
               ? SL_ERR_NOMEM
               : SL_OK;
}

sl_status report_run_deadlock(report_section *s)
{
    static const report_col cols[] = {
        {"algorithm", "algorithm"}, {"model", "progress model"}, {"verdict", "verdict"},
        {"search", "search"},       {"states", "states"},        {"schedules", "schedules"},
        {"seconds", "time (s)"},    {"n", "n"},                  {"blocks", "blocks"},
        {"resident", "resident slots"}, {"trace", "shortest deadlock (d: dispatch, r: run)"}};
    static const report_col tcols[] = {
        {"algorithm", "algorithm"}, {"model", "progress model"}, {"steps", "steps"},
        {"dispatch", "dispatch order"}, {"resident", "resident"}, {"never_dispatched", "never dispatched"},
        {"waits", "where each resident block waits"}};
    const unsigned g = s->ctx->quick ? REPORT_DL_QUICK_BLOCKS : REPORT_DL_BLOCKS;
    const unsigned r = s->ctx->quick ? REPORT_DL_QUICK_RESIDENT : REPORT_DL_RESIDENT;
    report_text(s, "Every algorithm whose kernels wait on other blocks, searched under the four progress models "
                   "of docs/deadlock.md (obe: a started block keeps being scheduled, a pending one may wait "
                   "while the slots are full; lobe: obe with blocks started in id order; hsa: only the "
                   "lowest-numbered unfinished block is sure to run; fair: every block eventually runs): the "
                   "launch that waits has %u blocks and %u residency slot%s (obe and lobe), with 32-element "
                   "tiles for the single-pass scans. Exhaustive search explores every schedule the model "
                   "allows, so deadlock-free is a proof for this configuration; DEADLOCK gives the shortest "
                   "schedule found that ends with nothing allowed to progress. Replay one row with 'scanlab "
                   "deadlock --algo A --blocks %u --resident %u --model M'.",
                g, r, r == 1 ? "" : "s", g, r);
    report_text(s, "Which verdict holds on the GPU: obe. CUDA promises a device thread parallel forward progress "
                   "(once it has started it keeps running; one that has not started may never start) and no "
                   "order of dispatch, which is the obe model; 'scanlab deadlock' takes its exit status from obe "
                   "for that reason. A DEADLOCK under hsa is a schedule that starves a block that has started, "
                   "which CUDA rules out: it matters for a port to a platform that promises only hsa "
                   "(docs/deadlock.md, 'Which model describes an NVIDIA GPU').");
    report_table *t = report_table_add(s, "deadlock", "Verdicts per algorithm and progress model", cols, 11);
    report_table *tr = report_table_add(s, "deadlock-traces", "The shortest deadlock found, per algorithm and "
                                        "model", tcols, 7);
    if (!t || !tr)
        return report_fail(s, SL_ERR_NOMEM, "out of memory");
    char none[2048] = "";
    size_t nlen = 0;
    for (size_t i = 0; i < verify_algo_count; i++) {
        const verify_algo *al = &verify_algos[i];
        if (!al->run[SL_SIM])
            continue;
        verify_deadlock_config c;
        char why[256];
        sl_status st = verify_deadlock_configure(al, g, r, 0, &c, why, sizeof why);
        if (st != SL_OK)
            return report_fail(s, st, "%s", why);
        if (!c.waiting) {
            if (nlen < sizeof none)
                nlen += (size_t)snprintf(none + nlen, sizeof none - nlen, "%s%s", nlen ? ", " : "", al->name);
            continue;
        }
        const bool exhaustive = c.blocks <= VERIFY_DEADLOCK_AUTO_EXHAUSTIVE;
        for (int m = 0; m < MODEL_PROGRESS_COUNT; m++) {
            const model_search_cfg cfg = {.progress = (model_progress)m, .exhaustive = exhaustive,
                                          .samples = VERIFY_DEADLOCK_DEFAULT_SAMPLES, .seed = s->ctx->seed};
            model_search_result res;
            double sec = 0;
            st = verify_deadlock_search(al, &c, &cfg, &res, &sec);
            if (st != SL_OK)
                return report_fail(s, st, "%s under %s: %s", al->name, verify_progress_name((model_progress)m),
                                   sl_status_str(st));
            /* a finding that stopped the kernel, or a search that gave no
             * verdict, fails a check; a deadlock is the section's result */
            if (res.verdict == MODEL_VERDICT_FINDING || res.verdict == MODEL_VERDICT_INCOMPLETE)
                s->failed_checks++;
            char trace[4 * MODEL_TRACE_MAX + 8] = "";
            size_t len = 0;
            for (unsigned k = 0; res.verdict == MODEL_VERDICT_DEADLOCK && k < res.trace_len && len < sizeof trace; k++)
                len += (size_t)snprintf(trace + len, sizeof trace - len, "%s%c%u", k ? " " : "", res.trace[k].what,
                                        res.trace[k].block);
            const char *verdict = res.verdict == MODEL_VERDICT_FINDING ? res.finding
                                                                       : verify_verdict_name(res.verdict);
            if (report_cell(t, "%s", al->name) || report_cell(t, "%s", verify_progress_name((model_progress)m)) ||
                report_cell(t, "%s", verdict) || report_cell(t, "%s", exhaustive ? "exhaustive" : "sampled") ||
                report_cell(t, "%llu", (unsigned long long)res.states) ||
                report_cell(t, "%llu", (unsigned long long)res.schedules) || report_cell(t, "%.2f", sec) ||
                report_cell(t, "%zu", c.n) || report_cell(t, "%u", c.blocks) || report_cell(t, "%u", c.resident) ||
                report_cell(t, "%s", trace))
                return report_fail(s, SL_ERR_NOMEM, "out of memory");
            if (res.verdict == MODEL_VERDICT_DEADLOCK && trace_cells(tr, al, (model_progress)m, &c, &res) != SL_OK)
                return report_fail(s, SL_ERR_NOMEM, "out of memory");
        }
    }
    if (nlen)
        report_text(s, "No inter-block waiting (no thread polls global memory, so no schedule can make a block "
                       "wait for another; nothing to search): %s.",
                    none);
    return SL_OK;
}
