/* Report section "verify": the differential harness over the whole
 * catalogue (every algorithm, backend, type, operator and kind of scan) on
 * the harness's edge sizes up to a modest n and the sizes of each kernel's
 * geometry, the small ones under an explored schedule too, and a huge
 * check of every device-level kernel: one line per algorithm and backend,
 * one data line per group, one line per huge check. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify/campaign/ranks.h"
#include "verify/campaign/share.h"
#include "verify/harness/algos.h"
#include "verify/harness/geometry.h"
#include "verify/harness/harness.h"
#include "verify/harness/huge_check.h"
#include "verify/report/kernel_coverage.h"
#include "verify/report/report.h"
#include "verify/harness/sizes.h"

#define VERIFY_REPORT_MAX_N ((size_t)1 << 10)
/* --quick: the edges that break kernels most often (empty, one element,
 * a warp and one past it, several warps and a partial one), two types. */
static const size_t quick_sizes[] = {0, 1, 33, 129};
static const unsigned quick_types = 1u << SL_I32 | 1u << SL_F32;

typedef struct {
    unsigned cases, pass, skip, fail;
    double max_eta;
    bool has_eta;
    char first_failure[REPORT_TEXT_LEN / 2];
} tally;

static void describe_failure(const verify_case *c, const verify_case_result *r, char *buf, size_t size)
{
    if (r->status != SL_ERR_CHECK) {
        snprintf(buf, size, "%s %s n=%zu: %s", verify_type_name(c->type), verify_op_name(c->op), c->n,
                 sl_status_str(r->status));
        return;
    }
    char want[96], got[96];
    verify_format_value(c->type, r->mismatch.expected, want, sizeof want);
    verify_format_value(c->type, r->mismatch.got, got, sizeof got);
    snprintf(buf, size, "%s %s%s n=%zu: out[%zu] = %s, expected %s", verify_type_name(c->type),
             verify_op_name(c->op), c->exclusive ? " exclusive" : "", c->n, r->mismatch.index, got, want);
}

/* Run the group (algo, backend, type, op, kind) over every size. */
static void run_group(verify_case c, const size_t *sizes, size_t count, tally *g)
{
    memset(g, 0, sizeof *g);
    for (size_t i = 0; i < count; i++) {
        c.n = sizes[i];
        /* as verify explores by default: the small sizes under one
         * explored schedule besides the default one */
        c.schedules = c.backend == SL_SIM && c.n <= VERIFY_EXPLORE_MAX_N ? 2 : 0;
        verify_case_result r;
        sl_status st = verify_run_case(&c, &r);
        g->cases++;
        if (st == SL_OK) {
            g->pass++;
            if (!r.exact) {
                g->has_eta = true;
                g->max_eta = fmax(g->max_eta, r.max_eta);
            }
        } else if (verify_status_is_skip(st)) {
            g->skip++;
        } else {
            if (!g->fail)
                describe_failure(&c, &r, g->first_failure, sizeof g->first_failure);
            g->fail++;
        }
    }
}

static const char *verdict(const tally *g)
{
    return g->fail ? "FAIL" : g->pass ? "pass" : "skip";
}

static sl_status add_group_row(report_table *t, const verify_case *c, const tally *g)
{
    const char *kind = c->algo->kind == SL_KIND_SCAN ? (c->exclusive ? "exclusive" : "inclusive")
                                                     : c->algo->kind == SL_KIND_REDUCE ? "reduce" : "app";
    char eta[32] = "";
    if (g->has_eta)
        snprintf(eta, sizeof eta, "%.3g", g->max_eta);
    return report_cell(t, "%s", c->algo->name) || report_cell(t, "%s", verify_backend_name(c->backend)) ||
                   report_cell(t, "%s", verify_type_name(c->type)) || report_cell(t, "%s", verify_op_name(c->op)) ||
                   report_cell(t, "%s", kind) || report_cell(t, "%u", g->cases) || report_cell(t, "%u", g->pass) ||
                   report_cell(t, "%u", g->skip) || report_cell(t, "%u", g->fail) || report_cell(t, "%s", eta) ||
                   report_cell(t, "%s", verdict(g)) || report_cell(t, "%s", g->first_failure)
               ? SL_ERR_NOMEM
               : SL_OK;
}

/* The sizes of the groups of algorithm a on backend b for type t: the
 * section's, and (but in --quick) those of the kernel's geometry. *geo
 * memoises the probe per element size (index 0: 4 bytes, 1: 8). */
static size_t group_sizes(const report_section *s, const verify_algo *a, sl_backend b, sl_type t, const size_t *base,
                          size_t count, verify_geometry geo[2], bool probed[2], size_t *out)
{
    memcpy(out, base, count * sizeof *out);
    if (s->ctx->quick || (b != SL_SIM && b != SL_CUDA) || !a->run[SL_SIM])
        return count;
    const int k = SL_TYPE_SIZE(t) == 4 ? 0 : 1;
    if (!probed[k] && verify_probe_geometry(a, t, 0, 0, &geo[k]) != SL_OK)
        geo[k].section = 0;
    probed[k] = true;
    const size_t extra = verify_geometry_sizes(&geo[k], out + count);
    return verify_sort_sizes(out, count + extra);
}

/* The groups of the section, in page order: every rank lists them alike
 * and runs those ranks_mine names (docs/scaling.md). */
typedef struct {
    const verify_algo *algo;
    sl_backend backend;
    sl_type type;
    sl_op op;
    bool exclusive;
    bool last; /* the last group of its algorithm and backend */
} group_item;

/* Every event of the kernel coverage tracker, by ordinal: the algorithm
 * whose runs report_kcov_attribute credited, as every rank calls it. */
typedef struct {
    const char **names;
    size_t count;
} events;

static const char *event_name(uint64_t event, const void *ctx)
{
    const events *e = ctx;
    return event < e->count ? e->names[event] : NULL;
}

static void attribute(report_section *s, events *e, const char *name)
{
    report_kcov_attribute(s->ctx->kcov, name);
    if (e->names)
        e->names[e->count++] = name;
}

static size_t list_groups(unsigned types, group_item *out)
{
    size_t n = 0;
    for (size_t i = 0; i < verify_algo_count; i++)
        for (int b = 0; b < SL_BACKEND_COUNT; b++) {
            const verify_algo *a = &verify_algos[i];
            if (!verify_algo_runs_on(a, (sl_backend)b))
                continue;
            const size_t first = n;
            for (int t = 0; t < SL_TYPE_COUNT; t++)
                for (int op = 0; op < SL_OP_COUNT; op++) {
                    if (!(types >> t & 1u) || !SL_OP_APPLIES(op, t) || (SL_KIND_IS_APP(a->kind) && op != SL_ADD))
                        continue;
                    for (int excl = 0; excl < (a->kind == SL_KIND_SCAN ? 2 : 1); excl++) {
                        if (out)
                            out[n] = (group_item){a, (sl_backend)b, (sl_type)t, (sl_op)op, excl, false};
                        n++;
                    }
                }
            if (out && n > first)
                out[n - 1].last = true;
        }
    return n;
}

/* The huge checks: one per device-level kernel (not in --quick), this
 * rank's run into r[] (verify_algo_count entries, in table order); the
 * coverage attributed as in one process. */
static void run_huge(report_section *s, size_t first_item, verify_huge_result *r, events *e)
{
    size_t h = 0;
    for (size_t i = 0; i < verify_algo_count && !s->ctx->quick; i++) {
        const verify_algo *a = &verify_algos[i];
        if (!verify_huge_applies(a))
            continue;
        if (ranks_mine(first_item + h))
            verify_huge_check(a, 0, 0, s->ctx->seed, false, &r[h]);
        h++;
        attribute(s, e, a->name);
    }
}

/* The huge checks' table (rank 0): one line per device-level kernel. */
static sl_status huge_table(report_section *s, const verify_huge_result *res)
{
    static const report_col cols[] = {{"algorithm", "algorithm"}, {"n", "n"},       {"blocks", "blocks run"},
                                      {"skipped", "blocks skipped"}, {"verdict", "verdict"}, {"what", "what"}};
    if (s->ctx->quick) {
        report_text(s, "Huge checks: not in --quick (each device-level kernel over 2^32 + 1024 elements takes "
                       "about a second).");
        return SL_OK;
    }
    report_text(s, "Huge checks: every device-level kernel (scans and reductions) in the simulator's huge mode over "
                   "2^32 + 1024 i32 elements: only the blocks around elements 0, 2^31, 2^32 and n - 1 run, the "
                   "input is zero but for small integers around them, and every access's index expression is "
                   "checked against the width of the array it indexes, so 32-bit index arithmetic fails here "
                   "whatever sizes the other checks ran (docs/memory-model.md). Where the blocks run can compute "
                   "their outputs, they are checked exactly.");
    report_table *t = report_table_add(s, "verify-huge", "Huge checks (index widths past 2^31 and 2^32)", cols, 6);
    if (!t)
        return report_fail(s, SL_ERR_NOMEM, "out of memory");
    size_t h = 0;
    for (size_t i = 0; i < verify_algo_count; i++) {
        const verify_algo *a = &verify_algos[i];
        if (!verify_huge_applies(a))
            continue;
        const verify_huge_result *r = &res[h++];
        const sl_status st = r->status;
        const char *v = st == SL_OK ? "pass" : verify_status_is_skip(st) ? "skip" : "FAIL";
        s->failed_checks += st != SL_OK && !verify_status_is_skip(st);
        if (report_cell(t, "%s", a->name) || report_cell(t, "%zu", (size_t)VERIFY_HUGE_N) ||
            report_cell(t, "%llu", r->blocks) || report_cell(t, "%llu", r->skipped) || report_cell(t, "%s", v) ||
            report_cell(t, "%s", r->what))
            return report_fail(s, SL_ERR_NOMEM, "out of memory");
    }
    return SL_OK;
}

/* Every rank's tallies and huge checks at rank 0, and the coverage merged
 * (collectives); false at rank 0 when out of memory. */
static bool gather(report_section *s, tally *tallies, size_t ngroups, verify_huge_result *huge, size_t nhuge,
                   const events *e)
{
    share sh;
    share_init(&sh, ngroups + nhuge);
    for (size_t i = 0; i < ngroups + nhuge; i++)
        if (ranks_mine(i) && !(i < ngroups ? share_put(&sh, &tallies[i], sizeof *tallies, "report")
                                           : share_put(&sh, &huge[i - ngroups], sizeof *huge, "report")))
            break;
    bool ok = share_collect(&sh, "report");
    for (size_t i = 0; ok && ranks_rank() == 0 && i < ngroups + nhuge; i++) {
        size_t len;
        const void *rec = share_get(&sh, i, &len);
        if (i < ngroups && len == sizeof *tallies)
            memcpy(&tallies[i], rec, len);
        else if (i >= ngroups && len == sizeof *huge)
            memcpy(&huge[i - ngroups], rec, len);
        else
            ranks_abort(1, "report: verify: rank %d's result %zu is malformed", (int)(i % (size_t)ranks_count()), i);
    }
    share_free(&sh);
    return report_kcov_share(s->ctx->kcov, event_name, e, "report") == SL_OK && ok;
}

sl_status report_run_verify(report_section *s)
{
    static const report_col sum_cols[] = {
        {"algorithm", "algorithm"}, {"backend", "backend"}, {"groups", "groups"}, {"cases", "cases"},
        {"pass", "passed"},         {"skip", "skipped"},    {"fail", "failed"},   {"max_eta", "max eta"},
        {"verdict", "verdict"},     {"first_failure", "first failure"}};
    static const report_col grp_cols[] = {
        {"algorithm", "algorithm"}, {"backend", "backend"}, {"type", "type"},     {"op", "operator"},
        {"kind", "kind"},           {"cases", "cases"},     {"pass", "passed"},   {"skip", "skipped"},
        {"fail", "failed"},         {"max_eta", "max eta"}, {"verdict", "verdict"}, {"first_failure", "first failure"}};
    size_t *sizes, count, *gsizes;
    unsigned types = s->ctx->quick ? quick_types : (1u << SL_TYPE_COUNT) - 1;
    sl_status st = SL_OK;
    if (s->ctx->quick) {
        count = sizeof quick_sizes / sizeof quick_sizes[0];
        sizes = malloc(sizeof quick_sizes);
        if (!sizes)
            return report_fail_shared(s, SL_ERR_NOMEM, "out of memory");
        memcpy(sizes, quick_sizes, sizeof quick_sizes);
    } else if ((st = verify_default_sizes(VERIFY_REPORT_MAX_N, s->ctx->seed, &sizes, &count)) != SL_OK) {
        return report_fail_shared(s, st, "cannot make the sizes: %s", sl_status_str(st));
    }
    const size_t ngroups = list_groups(types, NULL), nhuge_max = verify_algo_count;
    /* room for the geometry's sizes (geometry.h: 8 at most) */
    gsizes = malloc((count + 8) * sizeof *gsizes);
    group_item *groups = malloc((ngroups + 1) * sizeof *groups);
    tally *tallies = calloc(ngroups + 1, sizeof *tallies);
    verify_huge_result *huge = calloc(nhuge_max + 1, sizeof *huge);
    events ev = {calloc(ngroups + nhuge_max + 1, sizeof *ev.names), 0};
    if (!gsizes || !groups || !tallies || !huge || !ev.names)
        goto out_of_memory;
    list_groups(types, groups);
    report_text(s, "Every algorithm of the table on every backend built here, for %s and every operator "
                   "(affine on integers only), inclusive and exclusive, on %zu sizes from 0 to %zu (%s)%s. "
                   "Sizes up to %zu run on the simulator under one explored schedule besides the default one "
                   "(docs/memory-model.md), and a kernel whose grid an occupancy query sizes runs on a "
                   "persistent grid too, as the GPU runs large inputs. "
                   "Integers and "
                   "float max/min are compared bit for bit with the sequential reference; float sums "
                   "against the exact MPFR reference, each output within its addition-depth bound "
                   "(max eta is the largest error in units of u sum|x_j|). A skip is a combination "
                   "the backend does not run here (no GPU, or a type the kernel does not support). "
                   "Replay a line with 'scanlab verify --algo A --backend B --seed %llu'.",
                s->ctx->quick ? "types i32 and f32" : "every type", count, sizes[count - 1],
                s->ctx->quick ? "the quick selection: empty, one element, one past a warp, one past four warps"
                              : "the harness's edge sizes: empty, one element, a warp and a block and their "
                                "neighbours, powers of two and their neighbours, and random sizes from the seed",
                s->ctx->quick ? ""
                              : "; each kernel on the simulator also on the sizes of its own geometry, probed "
                                "from its launches: two full sections and a partial third, and for a scan whose "
                                "blocks wait for each other 34 tiles (up to 2^17 elements)",
                (size_t)VERIFY_EXPLORE_MAX_N, (unsigned long long)s->ctx->seed);
    report_table *sum = report_table_add(s, "verify", "Verdicts per algorithm and backend", sum_cols, 10);
    report_table *grp = report_table_add(s, "verify-groups", "Verdicts per algorithm, backend, type, "
                                         "operator and kind", grp_cols, 12);
    if (!sum || !grp)
        goto out_of_memory;
    grp->data_only = true;
    /* this rank's groups; the probes memoised per algorithm and backend,
     * and the coverage attributed after each algorithm's simulator runs,
     * at every rank alike */
    verify_geometry geo[2];
    bool probed[2] = {false, false};
    for (size_t g = 0; g < ngroups; g++) {
        const group_item *it = &groups[g];
        if (ranks_mine(g)) {
            verify_case c = {.algo = it->algo, .backend = it->backend, .type = it->type, .op = it->op,
                             .exclusive = it->exclusive, .dist = verify_default_dist(it->type),
                             .seed = s->ctx->seed, .repeat = 1};
            const size_t gcount = group_sizes(s, it->algo, it->backend, it->type, sizes, count, geo, probed, gsizes);
            run_group(c, gsizes, gcount, &tallies[g]);
        }
        if (it->last) {
            probed[0] = probed[1] = false;
            if (it->backend == SL_SIM)
                attribute(s, &ev, it->algo->name);
        }
    }
    size_t nhuge = 0;
    for (size_t i = 0; i < verify_algo_count && !s->ctx->quick; i++)
        nhuge += verify_huge_applies(&verify_algos[i]);
    run_huge(s, ngroups, huge, &ev);
    free(sizes);
    free(gsizes);
    const bool gathered = !ranks_many() || gather(s, tallies, ngroups, huge, nhuge, &ev);
    free(ev.names);
    if (ranks_rank() != 0 || !gathered) { /* rank 0 alone writes the report */
        free(groups);
        free(tallies);
        free(huge);
        return gathered ? SL_OK : report_fail(s, SL_ERR_NOMEM, "out of memory gathering the ranks' results");
    }
    tally all = {0};
    unsigned ngroup_rows = 0;
    for (size_t g = 0; g < ngroups && st == SL_OK; g++) {
        const group_item *it = &groups[g];
        const tally *tg = &tallies[g];
        verify_case c = {.algo = it->algo, .backend = it->backend, .type = it->type, .op = it->op,
                         .exclusive = it->exclusive};
        ngroup_rows++;
        st = add_group_row(grp, &c, tg);
        all.cases += tg->cases;
        all.pass += tg->pass;
        all.skip += tg->skip;
        all.fail += tg->fail;
        all.has_eta |= tg->has_eta;
        all.max_eta = fmax(all.max_eta, tg->max_eta);
        if (tg->fail && !all.first_failure[0])
            memcpy(all.first_failure, tg->first_failure, sizeof tg->first_failure);
        if (!it->last)
            continue;
        s->failed_checks += all.fail;
        char eta[32] = "";
        if (all.has_eta)
            snprintf(eta, sizeof eta, "%.3g", all.max_eta);
        if (st == SL_OK &&
            (report_cell(sum, "%s", it->algo->name) || report_cell(sum, "%s", verify_backend_name(it->backend)) ||
             report_cell(sum, "%u", ngroup_rows) || report_cell(sum, "%u", all.cases) ||
             report_cell(sum, "%u", all.pass) || report_cell(sum, "%u", all.skip) ||
             report_cell(sum, "%u", all.fail) || report_cell(sum, "%s", eta) ||
             report_cell(sum, "%s", verdict(&all)) || report_cell(sum, "%s", all.first_failure)))
            st = SL_ERR_NOMEM;
        all = (tally){0};
        ngroup_rows = 0;
    }
    free(groups);
    free(tallies);
    if (st == SL_OK)
        st = huge_table(s, huge);
    else
        st = report_fail(s, st, "%s", sl_status_str(st));
    free(huge);
    return st;
out_of_memory:
    free(sizes);
    free(gsizes);
    free(groups);
    free(tallies);
    free(huge);
    free(ev.names);
    return report_fail_shared(s, SL_ERR_NOMEM, "out of memory");
}
