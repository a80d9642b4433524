/* The huge check (huge_check.h), on the pieces of huge.c. */
#include "verify/harness/huge_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "verify/harness/huge.h"

bool verify_huge_applies(const verify_algo *a)
{
    return a->run[SL_SIM] && (a->kind == SL_KIND_SCAN || a->kind == SL_KIND_REDUCE);
}

/* The first line of the findings of s. */
static void first_finding(const model_stats *s, char *buf, size_t size)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    buf[0] = '\0';
    if (!f)
        return;
    model_print_findings(f, s);
    if (fclose(f) == 0 && text)
        snprintf(buf, size, "%.*s", (int)strcspn(text, "\n"), text);
    free(text);
}

/* The verdict of a run that completed: the findings, then the outputs
 * where the run could compute them. */
static sl_status judge(const verify_algo *a, const model_stats *s, uint64_t found, const int32_t *in,
                       const int32_t *out, const uint64_t *at, unsigned nat, verify_huge_result *r)
{
    const size_t n = VERIFY_HUGE_N;
    if (found) {
        first_finding(s, r->what, sizeof r->what);
        return SL_ERR_SIM;
    }
    if (s->huge_unchecked) {
        snprintf(r->what, sizeof r->what, "index widths clean; outputs not checked: %s",
                 s->huge_unchecked & MODEL_HUGE_DYNAMIC_IDS ? "its blocks take their tiles from a counter"
                                                            : "its blocks wait for skipped tiles");
        return SL_OK;
    }
    r->outputs_checked = true;
    if (a->kind == SL_KIND_REDUCE) {
        const long long want = huge_window_sum(SL_I32, n, in, at, nat);
        if (*out != want) {
            snprintf(r->what, sizeof r->what, "the reduction is %d, expected %lld", *out, want);
            return SL_ERR_CHECK;
        }
    } else {
        size_t first = 0;
        long long want = 0, got = 0;
        const size_t bad = huge_check(SL_I32, false, n, in, out, at, nat, &first, &want, &got);
        if (bad) {
            snprintf(r->what, sizeof r->what, "%zu outputs wrong, the first out[%zu] = %lld, expected %lld", bad,
                     first, got, want);
            return SL_ERR_CHECK;
        }
    }
    snprintf(r->what, sizeof r->what, "index widths clean; outputs around 0, 2^31, 2^32 and n - 1 exact");
    return SL_OK;
}

sl_status verify_huge_check(const verify_algo *a, int block, int param, uint64_t seed, bool allow_races,
                            verify_huge_result *r)
{
    const size_t n = VERIFY_HUGE_N, bytes = n * sizeof(int32_t);
    memset(r, 0, sizeof *r);
    if (!verify_huge_applies(a))
        return r->status = SL_ERR_UNSUPPORTED;
    int32_t *in = huge_buffer(bytes), *out = a->kind == SL_KIND_REDUCE ? calloc(1, sizeof *out) : huge_buffer(bytes);
    if (!in || !out) {
        huge_buffer_free(in, bytes);
        if (a->kind == SL_KIND_REDUCE)
            free(out);
        else
            huge_buffer_free(out, bytes);
        snprintf(r->what, sizeof r->what, "cannot map 2 x %zu bytes of address space here", bytes);
        return r->status = SL_ERR_UNSUPPORTED;
    }
    uint64_t at[4];
    const unsigned nat = huge_positions(n, at);
    huge_fill(SL_I32, seed, n, in, at, nat);
    model_stats s;
    model_stats_init(&s);
    s.cfg.quiet = true;
    s.cfg.huge_n = n;
    for (unsigned k = 1; k + 1 < nat; k++)
        s.cfg.huge_at[s.cfg.nhuge_at++] = at[k];
    sl_scan_args args = {.type = SL_I32, .op = SL_ADD, .in = in, .out = out, .n = n, .block = block,
                         .param = param, .sim = &s};
    sl_status st = a->run[SL_SIM](&args);
    const uint64_t found = model_findings(&s, allow_races);
    r->blocks = s.blocks;
    r->skipped = s.skipped_blocks;
    if (s.has_error && s.error.kind == MODEL_FIND_LIMIT && st == SL_ERR_ARG) {
        /* blocks that each cover a large share of n: not to be run in part */
        snprintf(r->what, sizeof r->what, "cannot be run in part: %.280s", s.error.text);
        st = SL_ERR_UNSUPPORTED;
    } else if (found || st == SL_OK || st == SL_ERR_SIM ||
               (st == SL_ERR_UNSUPPORTED && (s.huge_unchecked & MODEL_HUGE_WAITS))) {
        /* blocks that waited for skipped ones stopped where the run can
         * check no further: not an error of the kernel */
        st = judge(a, &s, found, in, out, at, nat, r);
    } else {
        snprintf(r->what, sizeof r->what, "stopped with an error: %s", sl_status_str(st));
    }
    model_stats_free(&s);
    huge_buffer_free(in, bytes);
    if (a->kind == SL_KIND_REDUCE)
        free(out);
    else
        huge_buffer_free(out, bytes);
    return r->status = st;
}
