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

/* The huge checks: one line per device-level kernel (not in --quick). */
static sl_status run_huge(report_section *s)
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
    for (size_t i = 0; i < verify_algo_count; i++) {
        const verify_algo *a = &verify_algos[i];
        if (!verify_huge_applies(a))
            continue;
        verify_huge_result r;
        sl_status st = verify_huge_check(a, 0, 0, s->ctx->seed, false, &r);
        const char *v = st == SL_OK ? "pass" : verify_status_is_skip(st) ? "skip" : "FAIL";
        s->failed_checks += st != SL_OK && !verify_status_is_skip(st);
        report_kcov_attribute(s->ctx->kcov, a->name);
        if (report_cell(t, "%s", a->name) || report_cell(t, "%zu", (size_t)VERIFY_HUGE_N) ||
            report_cell(t, "%llu", r.blocks) || report_cell(t, "%llu", r.skipped) || report_cell(t, "%s", v) ||
            report_cell(t, "%s", r.what))
            return report_fail(s, SL_ERR_NOMEM, "out of memory");
    }
    return SL_OK;
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
            return report_fail(s, SL_ERR_NOMEM, "out of memory");
        memcpy(sizes, quick_sizes, sizeof quick_sizes);
    } else if ((st = verify_default_sizes(VERIFY_REPORT_MAX_N, s->ctx->seed, &sizes, &count)) != SL_OK) {
        return report_fail(s, st, "cannot make the sizes: %s", sl_status_str(st));
    }
    /* room for the geometry's sizes (geometry.h: 8 at most) */
    gsizes = malloc((count + 8) * sizeof *gsizes);
    if (!gsizes) {
        free(sizes);
        return report_fail(s, SL_ERR_NOMEM, "out of memory");
    }
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
    if (!sum || !grp) {
        free(sizes);
        free(gsizes);
        return report_fail(s, SL_ERR_NOMEM, "out of memory");
    }
    grp->data_only = true;
    for (size_t i = 0; i < verify_algo_count && st == SL_OK; i++)
        for (int b = 0; b < SL_BACKEND_COUNT && st == SL_OK; b++) {
            const verify_algo *a = &verify_algos[i];
            if (!verify_algo_runs_on(a, (sl_backend)b))
                continue;
            tally all = {0};
            unsigned groups = 0;
            verify_geometry geo[2];
            bool probed[2] = {false, false};
            for (int t = 0; t < SL_TYPE_COUNT && st == SL_OK; t++)
                for (int op = 0; op < SL_OP_COUNT && st == SL_OK; op++) {
                    if (!(types >> t & 1u) || !SL_OP_APPLIES(op, t) || (SL_KIND_IS_APP(a->kind) && op != SL_ADD))
                        continue;
                    for (int excl = 0; excl < (a->kind == SL_KIND_SCAN ? 2 : 1) && st == SL_OK; excl++) {
                        verify_case c = {.algo = a, .backend = (sl_backend)b, .type = (sl_type)t,
                                         .op = (sl_op)op, .exclusive = excl, .dist = verify_default_dist((sl_type)t),
                                         .seed = s->ctx->seed, .repeat = 1};
                        tally g;
                        const size_t gcount = group_sizes(s, a, (sl_backend)b, (sl_type)t, sizes, count, geo,
                                                          probed, gsizes);
                        run_group(c, gsizes, gcount, &g);
                        groups++;
                        st = add_group_row(grp, &c, &g);
                        all.cases += g.cases;
                        all.pass += g.pass;
                        all.skip += g.skip;
                        all.fail += g.fail;
                        all.has_eta |= g.has_eta;
                        all.max_eta = fmax(all.max_eta, g.max_eta);
                        if (g.fail && !all.first_failure[0])
                            memcpy(all.first_failure, g.first_failure, sizeof g.first_failure);
                    }
                }
            s->failed_checks += all.fail;
            if (b == SL_SIM)
                report_kcov_attribute(s->ctx->kcov, a->name);
            char eta[32] = "";
            if (all.has_eta)
                snprintf(eta, sizeof eta, "%.3g", all.max_eta);
            if (st == SL_OK &&
                (report_cell(sum, "%s", a->name) || report_cell(sum, "%s", verify_backend_name((sl_backend)b)) ||
                 report_cell(sum, "%u", groups) || report_cell(sum, "%u", all.cases) ||
                 report_cell(sum, "%u", all.pass) || report_cell(sum, "%u", all.skip) ||
                 report_cell(sum, "%u", all.fail) || report_cell(sum, "%s", eta) ||
                 report_cell(sum, "%s", verdict(&all)) || report_cell(sum, "%s", all.first_failure)))
                st = SL_ERR_NOMEM;
        }
    free(sizes);
    free(gsizes);
    if (st != SL_OK)
        return report_fail(s, st, "%s", sl_status_str(st));
    return run_huge(s);
}
