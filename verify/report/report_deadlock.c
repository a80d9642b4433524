/* Report section "deadlock": every algorithm with a sim backend that waits
 * between blocks, searched under every progress model (docs/deadlock.md)
 * as `scanlab deadlock` does: the verdict, states and schedules, and the
 * trace of each deadlock. The algorithms that never poll global memory are
 * named as such. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify/campaign/ranks.h"
#include "verify/campaign/share.h"
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

/* One search of the section: its status, result and time, computed by
 * the rank ranks_mine names and gathered at rank 0 as it is. */
typedef struct {
    sl_status st;
    double sec;
    model_search_result res;
} search_item;

/* Every rank's searches at rank 0 (a collective); false at rank 0 when
 * out of memory. */
static bool gather_items(search_item *items, size_t n)
{
    share sh;
    share_init(&sh, n);
    for (size_t i = 0; i < n; i++)
        if (ranks_mine(i) && !share_put(&sh, &items[i], sizeof *items, "report"))
            break;
    const bool ok = share_collect(&sh, "report");
    for (size_t i = 0; ok && ranks_rank() == 0 && i < n; i++) {
        size_t len;
        const void *rec = share_get(&sh, i, &len);
        if (len != sizeof *items)
            ranks_abort(1, "report: deadlock: rank %d's result %zu is malformed", (int)(i % (size_t)ranks_count()), i);
        memcpy(&items[i], rec, len);
    }
    share_free(&sh);
    return ok;
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
        return report_fail_shared(s, SL_ERR_NOMEM, "out of memory");
    /* every algorithm configured at every rank (in table order, as one
     * process does); the searches, (algorithm, model) in page order, dealt
     * over the ranks of a campaign (docs/scaling.md) */
    char none[2048] = "";
    size_t nlen = 0, nitems = 0;
    verify_deadlock_config *conf = calloc(verify_algo_count + 1, sizeof *conf);
    if (!conf)
        return report_fail_shared(s, SL_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < verify_algo_count; i++) {
        const verify_algo *al = &verify_algos[i];
        if (!al->run[SL_SIM])
            continue;
        char why[256];
        sl_status st = verify_deadlock_configure(al, g, r, 0, &conf[i], why, sizeof why);
        if (st != SL_OK) {
            free(conf);
            return report_fail_shared(s, st, "%s", why);
        }
        if (!conf[i].waiting) {
            if (nlen < sizeof none)
                nlen += (size_t)snprintf(none + nlen, sizeof none - nlen, "%s%s", nlen ? ", " : "", al->name);
            continue;
        }
        nitems += MODEL_PROGRESS_COUNT;
    }
    search_item *items = calloc(nitems + 1, sizeof *items);
    if (!items) {
        free(conf);
        return report_fail_shared(s, SL_ERR_NOMEM, "out of memory");
    }
    size_t k = 0;
    for (size_t i = 0; i < verify_algo_count; i++)
        for (int m = 0; m < MODEL_PROGRESS_COUNT && verify_algos[i].run[SL_SIM] && conf[i].waiting; m++, k++)
            if (ranks_mine(k)) {
                const model_search_cfg cfg = {.progress = (model_progress)m,
                                              .exhaustive = conf[i].blocks <= VERIFY_DEADLOCK_AUTO_EXHAUSTIVE,
                                              .samples = VERIFY_DEADLOCK_DEFAULT_SAMPLES, .seed = s->ctx->seed};
                items[k].st = verify_deadlock_search(&verify_algos[i], &conf[i], &cfg, &items[k].res, &items[k].sec);
            }
    if (ranks_many() && !gather_items(items, nitems)) {
        free(conf);
        free(items);
        return report_fail(s, SL_ERR_NOMEM, "out of memory gathering the ranks' results");
    }
    if (ranks_rank() != 0) { /* rank 0 alone writes the report */
        free(conf);
        free(items);
        return SL_OK;
    }
    k = 0;
    for (size_t i = 0; i < verify_algo_count; i++) {
        const verify_algo *al = &verify_algos[i];
        if (!al->run[SL_SIM] || !conf[i].waiting)
            continue;
        const verify_deadlock_config c = conf[i];
        const bool exhaustive = c.blocks <= VERIFY_DEADLOCK_AUTO_EXHAUSTIVE;
        for (int m = 0; m < MODEL_PROGRESS_COUNT; m++, k++) {
            const sl_status st = items[k].st;
            const model_search_result res = items[k].res;
            const double sec = items[k].sec;
            sl_status bad = SL_OK;
            if (st != SL_OK)
                bad = report_fail(s, st, "%s under %s: %s", al->name, verify_progress_name((model_progress)m),
                                  sl_status_str(st));
            /* a finding that stopped the kernel, or a search that gave no
             * verdict, fails a check; a deadlock is the section's result */
            if (bad == SL_OK && (res.verdict == MODEL_VERDICT_FINDING || res.verdict == MODEL_VERDICT_INCOMPLETE))
                s->failed_checks++;
            char trace[4 * MODEL_TRACE_MAX + 8] = "";
            size_t len = 0;
            for (unsigned x = 0; res.verdict == MODEL_VERDICT_DEADLOCK && x < res.trace_len && len < sizeof trace; x++)
                len += (size_t)snprintf(trace + len, sizeof trace - len, "%s%c%u", x ? " " : "", res.trace[x].what,
                                        res.trace[x].block);
            const char *verdict = res.verdict == MODEL_VERDICT_FINDING ? res.finding
                                                                       : verify_verdict_name(res.verdict);
            if (bad == SL_OK &&
                (report_cell(t, "%s", al->name) || report_cell(t, "%s", verify_progress_name((model_progress)m)) ||
                 report_cell(t, "%s", verdict) || report_cell(t, "%s", exhaustive ? "exhaustive" : "sampled") ||
                 report_cell(t, "%llu", (unsigned long long)res.states) ||
                 report_cell(t, "%llu", (unsigned long long)res.schedules) || report_cell(t, "%.2f", sec) ||
                 report_cell(t, "%zu", c.n) || report_cell(t, "%u", c.blocks) || report_cell(t, "%u", c.resident) ||
                 report_cell(t, "%s", trace)))
                bad = report_fail(s, SL_ERR_NOMEM, "out of memory");
            if (bad == SL_OK && res.verdict == MODEL_VERDICT_DEADLOCK &&
                trace_cells(tr, al, (model_progress)m, &c, &res) != SL_OK)
                bad = report_fail(s, SL_ERR_NOMEM, "out of memory");
            if (bad != SL_OK) {
                free(conf);
                free(items);
                return bad;
            }
        }
    }
    free(conf);
    free(items);
    if (nlen)
        report_text(s, "No inter-block waiting (no thread polls global memory, so no schedule can make a block "
                       "wait for another; nothing to search): %s.",
                    none);
    return SL_OK;
}
