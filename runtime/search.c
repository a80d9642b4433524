/* The schedule search of one launch (scanlab deadlock -- PROGRAM, or
 * scanlab run --model M): a launch whose threads wait on other blocks is
 * run again under every block schedule a progress model allows (or
 * sampled ones), each from the device memory the launch started with, and
 * the verdict is added to its record. The launch the program sees runs
 * afterwards, from that memory, under the default schedule. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/internal.h"
#include "runtime/rt.h"

typedef struct {
    ptx_module *m;
    int entry;
    const sl_launch *cfg;
    void **args;
    const model_snap *snap;
    model_stats *s;
} search_ctx;

static sl_status run_from_snapshot(void *p)
{
    search_ctx *c = p;
    const unsigned char *cur = c->snap->p;
    model_mem_restore(&cur);
    char err[256];
    model_begin(c->s);
    return model_end(model_ptx_launch(c->m, c->entry, c->cfg, (const void *const *)c->args, err, sizeof err));
}

static const char *const model_names[MODEL_PROGRESS_COUNT] = {"obe", "lobe", "hsa", "fair"};

static void set_model(model_stats *s, model_progress p, unsigned blocks)
{
    model_stats_init(s);
    s->cfg.quiet = true;
    s->cfg.slots = p == MODEL_PROGRESS_HSA || p == MODEL_PROGRESS_FAIR ? blocks : rt_cfg.resident;
    s->cfg.shared_limit = MODEL_MAX_SHARED_LIMIT;
}

static void append(char **dst, const char *text)
{
    const size_t a = *dst ? strlen(*dst) : 0, b = strlen(text);
    char *n = realloc(*dst, a + b + 1);
    if (!n)
        return;
    memcpy(n + a, text, b + 1);
    *dst = n;
}

/* One model's search; its verdict line (and a deadlock's trace) in out. */
static bool exhaustive(unsigned blocks) { return rt_cfg.exhaustive > 0 || (rt_cfg.exhaustive < 0 && blocks <= 3); }

static model_verdict search_one(search_ctx *c, model_progress p, unsigned blocks, model_search_result *res)
{
    model_search_cfg cfg = {.progress = p, .exhaustive = exhaustive(blocks), .samples = 1, .seed = rt_cfg.seed};
    model_stats s;
    c->s = &s;
    if (cfg.exhaustive) {
        set_model(&s, p, blocks);
        model_search_run(&cfg, run_from_snapshot, c, &s, res);
        model_stats_free(&s);
        c->s = NULL;
        return res->verdict;
    }
    /* each sample from fresh counts (as scanlab deadlock samples) */
    for (uint64_t k = 0; k < rt_cfg.samples; k++) {
        cfg.seed = rt_cfg.seed * UINT64_C(0x9e3779b97f4a7c15) + k;
        set_model(&s, p, blocks);
        model_search_run(&cfg, run_from_snapshot, c, &s, res);
        model_stats_free(&s);
        res->schedules = k + 1;
        if (res->verdict != MODEL_VERDICT_FREE || !res->waiting)
            break;
    }
    c->s = NULL;
    return res->verdict;
}

void rt_search_launch(ptx_module *m, int entry, const sl_launch *cfg, void **args, rt_launch_rec *r)
{
    const unsigned long long blocks = (unsigned long long)cfg->grid.x * cfg->grid.y * cfg->grid.z;
    char line[640];
    model_snap snap = {0};
    model_mem_save(&snap);
    if (snap.failed) {
        model_snap_free(&snap);
        append(&r->search, "note: out of memory for a copy of device memory: the launch's schedules are not "
                           "searched\n");
        return;
    }
    search_ctx c = {m, entry, cfg, args, &snap, NULL};
    for (int p = 0; p < MODEL_PROGRESS_COUNT; p++) {
        if (!(rt_cfg.models & (1u << p)))
            continue;
        if (blocks > rt_cfg.max_search_blocks || blocks < 2) {
            /* the plain run says whether it waits at all; only then is the size worth a note */
            model_stats s;
            set_model(&s, MODEL_PROGRESS_FAIR, (unsigned)(blocks < 1u << 20 ? blocks : 1u << 20));
            c.s = &s;
            run_from_snapshot(&c);
            if (s.global_polls > 0 && blocks >= 2) {
                snprintf(line, sizeof line, "  search: not searched: it waits between blocks, but its %llu blocks "
                                            "are more than %u (scanlab deadlock --blocks)\n",
                         blocks, rt_cfg.max_search_blocks);
                append(&r->search, line);
            }
            model_stats_free(&s);
            c.s = NULL;
            break;
        }
        model_search_result res;
        const model_verdict v = search_one(&c, (model_progress)p, (unsigned)blocks, &res);
        if (!res.waiting)
            break; /* no thread waits on another block: nothing to search under any model */
        const char *vn = v == MODEL_VERDICT_FREE ? "deadlock-free" : v == MODEL_VERDICT_DEADLOCK ? "DEADLOCK"
                         : v == MODEL_VERDICT_FINDING ? "FINDING" : "INCOMPLETE";
        snprintf(line, sizeof line, "  search %s, %llu blocks, %u resident, %s: %s (%llu schedule%s%s)\n",
                 model_names[p], blocks, p == MODEL_PROGRESS_HSA || p == MODEL_PROGRESS_FAIR ? (unsigned)blocks
                                                                                              : rt_cfg.resident,
                 exhaustive((unsigned)blocks) ? "exhaustive" : "sampled", vn, (unsigned long long)res.schedules,
                 res.schedules == 1 ? "" : "s",
                 exhaustive((unsigned)blocks) || v != MODEL_VERDICT_FREE ? "" : ", not a proof");
        append(&r->search, line);
        if (v == MODEL_VERDICT_DEADLOCK) {
            for (unsigned i = 0; i < res.nwaits && i < 8; i++) {
                snprintf(line, sizeof line, "    %s\n", res.waits[i]);
                append(&r->search, line);
            }
            r->findings++;
        } else if (v == MODEL_VERDICT_FINDING) {
            snprintf(line, sizeof line, "    %s\n", res.finding);
            append(&r->search, line);
            r->findings++;
        } else if (v == MODEL_VERDICT_INCOMPLETE) {
            r->findings++;
        }
    }
    const unsigned char *cur = snap.p;
    model_mem_restore(&cur);
    model_snap_free(&snap);
}
