/* `scanlab deadlock` finds by itself what docs/deadlock.md claims:
 * chained-static deadlocks under obe whenever G > R, with the shortest
 * trace (for G = 3, R = 2: d1 d2 r1 r2), and is free under lobe; the
 * ticketed scans are free under obe, lobe and fair, and chained-ticket
 * starves under hsa; every kernel that never polls global memory is
 * answered as such; a planted look-back that takes its tile from blockIdx.x
 * is caught under obe; a hang inside one block (barrier divergence) is
 * reported as that finding; bad usage exits 2 with one message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "tap.h"

#include "cuda/launch.h"
#include "json_valid.h"
#include "model/fiber.h"
#include "model/model.h"
#include "run_cli.h"
#include "verify/cli/deadlock.h"
#include "verify/harness/deadlock.h"
#include "verify/harness/algos.h"

/* The planted kernels: simulator only, i32 add (what the search runs). */
#define SL_KERNEL(file, level, kind, cli, depth, summary)                                       \
    sl_status file##_i32_add_sim(const sl_kargs *a);                                            \
    static sl_status file##_run(const sl_scan_args *a)                                          \
    {                                                                                           \
        if (a->type != SL_I32 || a->op != SL_ADD)                                               \
            return SL_ERR_UNSUPPORTED;                                                          \
        sl_kargs k = {a->in, a->out, a->n, a->exclusive, a->block, a->param, a->adversary};     \
        model_begin((model_stats *)a->sim);                                                     \
        return model_end(file##_i32_add_sim(&k));                                               \
    }
#include "tests/deadlock/kernels.def"
#undef SL_KERNEL

static const verify_algo planted[] = {
#define SL_KERNEL(file, level, kind, cli, depth, summary) \
    {cli, summary, SL_KIND_##kind, {[SL_SIM] = file##_run}, depth},
#include "tests/deadlock/kernels.def"
#undef SL_KERNEL
};

/* deadlock_main over the catalogue (ctx NULL) or the planted table. */
static int call_main(int argc, char **argv, void *ctx)
{
    if (ctx)
        return deadlock_main(argc, argv, planted, sizeof planted / sizeof planted[0]);
    return deadlock_main(argc, argv, verify_algos, verify_algo_count);
}

static int run(bool plant, const char *const *args, char **out, char **err)
{
    return test_run_main(call_main, plant ? (void *)planted : NULL, args, out, err);
}

/* The line of out that answers model m ("  obe   ..."), up to its end, in
 * buf; fails the test when there is none. */
static void model_line(const char *out, const char *m, char *buf, size_t size)
{
    char head[16];
    snprintf(head, sizeof head, "\n  %-5s ", m);
    const char *p = strstr(out, head);
    if (!p)
        fail_msg("no answer for %s in:\n%s", m, out);
    p += 3;
    const size_t len = strcspn(p, "\n");
    snprintf(buf, size, "%.*s", (int)len, p);
}

static bool starts(const char *s, const char *prefix) { return strncmp(s, prefix, strlen(prefix)) == 0; }

/* A run of `scanlab deadlock ... --model obe[,fair]` (exit 0) whose
 * output holds `config` and says deadlock-free under obe (and fair),
 * exhaustively. */
static void expect_free(const char *const *args, const char *config, const char *what, bool fair)
{
    char *out, line[512];
    assert_int_equal(run(false, args, &out, NULL), 0);
    if (!strstr(out, config))
        fail_msg("%s: not \"%s\": %s", what, config, out);
    model_line(out, "obe", line, sizeof line);
    if (!starts(line, "obe   deadlock-free (exhaustive: "))
        fail_msg("%s: %s", what, line);
    if (fair) {
        model_line(out, "fair", line, sizeof line);
        if (!starts(line, "fair  deadlock-free (exhaustive: "))
            fail_msg("%s: %s", what, line);
    }
    free(out);
}

/* The steps of the trace printed after the DEADLOCK line of model m:
 * counts of dispatches and turns, and whether block 0 was dispatched. */
static void trace_of(const char *out, const char *m, char *steps, size_t size)
{
    char head[32];
    snprintf(head, sizeof head, "\n  %-5s DEADLOCK", m);
    const char *p = strstr(out, head);
    assert_non_null(p);
    p = strstr(p, "trace: ");
    assert_non_null(p);
    p += 7;
    const char *end = strstr(p, "  (");
    assert_non_null(end);
    snprintf(steps, size, "%.*s", (int)(end - p), p);
}

static void test_chained_static_minimal_trace(void **state)
{
    (void)state;
    const char *args[] = {"deadlock", "--algo", "chained-static", "--blocks", "3", "--resident", "2", NULL};
    char *out, *err, line[512], steps[256];
    assert_int_equal(run(false, args, &out, &err), 1);
    assert_non_null(strstr(out, "n = 96 (3 tiles of 32 threads x 1 item), 3 blocks of 32 threads"));
    model_line(out, "obe", line, sizeof line);
    assert_true(starts(line, "obe   DEADLOCK (exhaustive: "));
    trace_of(out, "obe", steps, sizeof steps);
    assert_string_equal(steps, "d1 d2 r1 r2");
    assert_non_null(strstr(out, "dispatch order: 1 and 2\n"));
    assert_non_null(strstr(out, "resident: 1 and 2; never dispatched: 0\n"));
    /* block 1 waits on tile 0's word, block 2 on tile 1's, said in the
     * protocol's terms at the poll in its source */
    assert_non_null(strstr(out, "cuda/device/tile_status.cuh:"));
    assert_non_null(strstr(out, ": block 1 thread 0, waiting for tile 0's status\n"));
    assert_non_null(strstr(out, ": block 2 thread 0, waiting for tile 1's status\n"));
    assert_null(strstr(out, "waits at ST_"));
    /* the model of an NVIDIA GPU decides, and the output says so */
    assert_non_null(strstr(out, "\nexit status: decided by obe, the model of an NVIDIA GPU"));
    for (const char *m = "lobe"; m; m = strcmp(m, "lobe") == 0 ? "hsa" : strcmp(m, "hsa") == 0 ? "fair" : NULL) {
        model_line(out, m, line, sizeof line);
        if (!strstr(line, "deadlock-free (exhaustive: "))
            fail_msg("chained-static under %s: %s", m, line);
    }
    assert_string_equal(err, "");
    free(out);
    free(err);
}

/* G > R: a deadlock under obe, found with its shortest trace: R
 * dispatches, none of block 0, and one turn of each resident block. Free
 * under lobe. */
static void test_chained_static_obe_whenever_g_above_r(void **state)
{
    (void)state;
    for (unsigned g = 2; g <= 5; g++)
        for (unsigned r = 1; r < g; r++) {
            char gs[8], rs[8];
            snprintf(gs, sizeof gs, "%u", g);
            snprintf(rs, sizeof rs, "%u", r);
            const char *args[] = {"deadlock", "--algo", "chained-static", "--blocks", gs, "--resident", rs,
                                  "--model", "obe,lobe", "--exhaustive", NULL};
            char *out, line[512], steps[256];
            assert_int_equal(run(false, args, &out, NULL), 1);
            model_line(out, "obe", line, sizeof line);
            if (!starts(line, "obe   DEADLOCK (exhaustive: "))
                fail_msg("G = %u, R = %u: %s", g, r, line);
            trace_of(out, "obe", steps, sizeof steps);
            unsigned d = 0, t = 0;
            for (char *tok = strtok(steps, " "); tok; tok = strtok(NULL, " ")) {
                if (tok[0] == 'd')
                    d++;
                else
                    t++;
                if (strcmp(tok, "d0") == 0)
                    fail_msg("G = %u, R = %u: block 0 dispatched in the deadlock's trace", g, r);
            }
            if (d != r || t != r)
                fail_msg("G = %u, R = %u: trace of %u dispatches and %u turns, not %u of each", g, r, d, t, r);
            model_line(out, "lobe", line, sizeof line);
            if (!starts(line, "lobe  deadlock-free (exhaustive: "))
                fail_msg("G = %u, R = %u: %s", g, r, line);
            free(out);
        }
}

/* The ticketed scans: no schedule of obe, lobe or fair hangs them. */
static void test_ticketed_free_under_obe(void **state)
{
    (void)state;
    const char *algos[] = {"chained-ticket", "lookback", "lookback-det"};
    for (size_t i = 0; i < 3; i++)
        for (const char *r = "1"; r; r = strcmp(r, "1") == 0 ? "2" : NULL) {
            const char *args[] = {"deadlock", "--algo", algos[i], "--blocks", "3", "--resident", r,
                                  "--model", "obe,lobe", NULL};
            char *out, line[512];
            assert_int_equal(run(false, args, &out, NULL), 0);
            model_line(out, "obe", line, sizeof line);
            if (!starts(line, "obe   deadlock-free (exhaustive: "))
                fail_msg("%s, R = %s: %s", algos[i], r, line);
            model_line(out, "lobe", line, sizeof line);
            if (!starts(line, "lobe  deadlock-free (exhaustive: "))
                fail_msg("%s, R = %s: %s", algos[i], r, line);
            free(out);
        }
}

/* The bound the search is built for: exhaustive up to G = 8 for every R
 * below it. chained-static deadlocks under obe and is free under lobe;
 * the ticketed scans, compaction and partition are free under obe. With snapshots in one process
 * this takes seconds (docs/deadlock.md); a build that must fork for every
 * choice (AddressSanitizer's) checks G = 4 only. */
static void test_exhaustive_up_to_eight_blocks(void **state)
{
    (void)state;
    const unsigned g = model_fiber_can_snapshot() ? 8 : 4;
    char gs[8];
    snprintf(gs, sizeof gs, "%u", g);
    const char *algos[] = {"chained-static", "chained-ticket", "lookback", "lookback-det", "compact", "partition"};
    for (size_t i = 0; i < 6; i++)
        for (unsigned r = 1; r < g; r++) {
            char rs[8];
            snprintf(rs, sizeof rs, "%u", r);
            const bool by_id = i == 0;
            const char *args[] = {"deadlock", "--algo", algos[i], "--blocks", gs, "--resident", rs, "--model",
                                  by_id ? "obe,lobe" : "obe", "--exhaustive", NULL};
            char *out, line[512];
            assert_int_equal(run(false, args, &out, NULL), by_id ? 1 : 0);
            model_line(out, "obe", line, sizeof line);
            if (!starts(line, by_id ? "obe   DEADLOCK (exhaustive: " : "obe   deadlock-free (exhaustive: "))
                fail_msg("%s, G = %u, R = %u: %s", algos[i], g, r, line);
            if (by_id) {
                model_line(out, "lobe", line, sizeof line);
                if (!starts(line, "lobe  deadlock-free (exhaustive: "))
                    fail_msg("%s, G = %u, R = %u: %s", algos[i], g, r, line);
            }
            free(out);
        }
}

/* The search with snapshots in one process explores what the search with
 * a process per choice explores: the same verdicts, states, schedules and
 * shortest traces, for every waiting kernel, model and R at G = 4. */
static void test_snapshots_match_forks(void **state)
{
    (void)state;
    if (!model_fiber_can_snapshot())
        skip(); /* both would fork */
    const char *algos[] = {"chained-static", "chained-ticket", "lookback", "lookback-det"};
    for (size_t i = 0; i < 4; i++) {
        const verify_algo *al = verify_find_algo(algos[i], false);
        assert_non_null(al);
        for (unsigned r = 1; r < 4; r++) {
            verify_deadlock_config c;
            char why[256];
            assert_int_equal(verify_deadlock_configure(al, 4, r, 0, &c, why, sizeof why), SL_OK);
            for (int m = 0; m < MODEL_PROGRESS_COUNT; m++) {
                model_search_result a, b;
                model_search_cfg cfg = {.progress = (model_progress)m, .exhaustive = true};
                assert_int_equal(verify_deadlock_search(al, &c, &cfg, &a, NULL), SL_OK);
                cfg.fork_per_choice = true;
                assert_int_equal(verify_deadlock_search(al, &c, &cfg, &b, NULL), SL_OK);
                if (a.verdict != b.verdict || a.states != b.states || a.schedules != b.schedules ||
                    a.trace_len != b.trace_len || memcmp(a.trace, b.trace, a.trace_len * sizeof a.trace[0]) != 0)
                    fail_msg("%s, R = %u, %s: snapshots %s (%llu states, %llu schedules, trace of %u), "
                             "forks %s (%llu states, %llu schedules, trace of %u)",
                             algos[i], r, verify_progress_name((model_progress)m), verify_verdict_name(a.verdict),
                             (unsigned long long)a.states, (unsigned long long)a.schedules, a.trace_len,
                             verify_verdict_name(b.verdict), (unsigned long long)b.states,
                             (unsigned long long)b.schedules, b.trace_len);
                /* the search explored something, and both found the kernel's verdict */
                assert_true(a.states > 0);
            }
        }
    }
}

/* Persistent blocks: 5 tiles of 32 elements on 3 blocks, 2 slots. Blocks
 * draw further tickets after their tiles, and a late block's first draw
 * may already be past the last tile; no schedule of obe or fair hangs the
 * ticketed scans, and none reads or writes past the 5 status words (an
 * access there is a finding, reported instead of a verdict). */
static void test_persistent_blocks_free(void **state)
{
    (void)state;
    const char *algos[] = {"chained-ticket", "lookback", "lookback-det"};
    for (size_t i = 0; i < 3; i++) {
        const char *args[] = {"deadlock", "--algo", algos[i], "--blocks", "3", "--resident", "2", "--n", "160",
                              "--model", "obe,fair", NULL};
        expect_free(args, "5 tiles of 32 threads x 1 item), 3 blocks", algos[i], true);
    }
}

/* Pipelined blocks: 6 and 7 tiles of 32 elements on 3 blocks (two tiles a
 * block or more), 2 slots: lookback and lookback-det run in
 * sp_scan_pipe_items (the pipelined kernel of item counts other than the
 * default), two tiles in flight a block, and no schedule of obe or fair
 * hangs them. A build that must fork for every choice (AddressSanitizer's:
 * fair's 62180 states at 7 tiles take minutes) checks 6 tiles under obe.
 * lookback-det at 33 tiles: tile 31 ends a window, and its block waits for
 * the window's other tiles before it goes back to the tile it drew before
 * (lookback_det_tmpl.cuh); obe on 3 blocks and 2 slots with snapshots
 * (226159 states), on 2 blocks and 1 slot without. */
static void test_pipelined_blocks_free(void **state)
{
    (void)state;
    const bool snap = model_fiber_can_snapshot();
    const char *algos[] = {"lookback", "lookback-det"};
    const char *sizes[] = {"192", "224"};
    const char *tiles[] = {"6 tiles", "7 tiles"};
    for (size_t a = 0; a < 2; a++)
        for (size_t k = 0; k < (snap ? 2u : 1u); k++) {
            const char *args[] = {"deadlock", "--algo", algos[a], "--blocks", "3", "--resident", "2", "--n",
                                  sizes[k], "--model", snap ? "obe,fair" : "obe", NULL};
            char want[128];
            snprintf(want, sizeof want,
                     "(%s of 32 threads x 1 item), 3 blocks of 32 threads in sp_scan_pipe_items_i32_add_sim",
                     tiles[k]);
            expect_free(args, want, algos[a], snap);
        }
    const char *blocks = snap ? "3" : "2";
    const char *det[] = {"deadlock", "--algo", "lookback-det", "--blocks", blocks, "--resident", snap ? "2" : "1",
                         "--n", "1056", "--model", "obe", NULL};
    char want[128];
    snprintf(want, sizeof want,
             "(33 tiles of 32 threads x 1 item), %s blocks of 32 threads in sp_scan_pipe_items_i32_add_sim", blocks);
    expect_free(det, want, "lookback-det, a window's last tile", false);
}

/* hsa runs only the lowest-numbered unfinished block for sure: when block
 * 0 draws a later ticket than another block, it waits on that block, which
 * hsa need not run. Under fair every block runs, so no schedule hangs. By
 * default every model is answered and obe, the model of an NVIDIA GPU,
 * decides the exit status: 0 here (as `list` says: it cannot deadlock on
 * the GPU); --model all, or naming hsa, makes hsa's answer count. */
static void test_chained_ticket_starves_under_hsa(void **state)
{
    (void)state;
    const char *args[] = {"deadlock", "--algo", "chained-ticket", "--blocks", "3", "--resident", "2", "--json", NULL};
    char *out, *err;
    assert_int_equal(run(false, args, &out, &err), 0);
    assert_non_null(strstr(out, "\"target_model\":\"obe\",\"decisive_models\":[\"obe\"]"));
    assert_non_null(strstr(out, "\"model\":\"hsa\",\"verdict\":\"deadlock\",\"waiting\":true,\"exhaustive\":true,"
                                "\"decides_exit\":false"));
    size_t where = 0;
    if (!json_valid(out, &where))
        fail_msg("invalid JSON at %zu: %s", where, out);
    assert_non_null(strstr(out, "{\"algo\":\"chained-ticket\",\"model\":\"obe\",\"verdict\":\"free\","));
    assert_non_null(strstr(out, "{\"algo\":\"chained-ticket\",\"model\":\"lobe\",\"verdict\":\"free\","));
    assert_non_null(strstr(out, "{\"algo\":\"chained-ticket\",\"model\":\"hsa\",\"verdict\":\"deadlock\","));
    assert_non_null(strstr(out, "{\"algo\":\"chained-ticket\",\"model\":\"fair\",\"verdict\":\"free\","));
    /* the starving block is block 0, on tile 0's word; the others could go on */
    const char *hsa = strstr(out, "\"model\":\"hsa\"");
    assert_non_null(strstr(hsa, "\"waits\":[\"cuda/device/tile_status.cuh:"));
    assert_non_null(strstr(hsa, ": block 0 thread 0, waiting for tile 0's status\""));
    assert_non_null(strstr(hsa, "waits for nothing: it can go on from its "));
    free(out);
    free(err);
    const char *all[] = {"deadlock", "--algo", "chained-ticket", "--blocks", "3", "--resident", "2", "--model", "all",
                         NULL};
    assert_int_equal(run(false, all, &out, &err), 1);
    assert_non_null(strstr(out, "\nexit status: decided by the models --model names\n"));
    free(out);
    free(err);
    const char *hsa_only[] = {"deadlock", "--algo", "chained-ticket", "--blocks", "3", "--resident", "2", "--model",
                              "hsa", NULL};
    assert_int_equal(run(false, hsa_only, &out, &err), 1);
    free(out);
    free(err);
}

/* Names of the catalogue that wait between blocks, and some that never do
 * (a kernel added later is checked against the simulator's polls alone). */
static const char *const waiting[] = {"chained-static", "chained-ticket", "lookback", "lookback-det", "compact",
                                      "partition", "pack", "radix-sort"};
static const char *const not_waiting[] = {"brent-kung", "kogge-stone", "blelloch", "warp-shfl", "hierarchical",
                                          "reduce-then-scan", "two-level", "reduce-shfl", "compact-3phase",
                                          "radix-sort-3phase"};

static bool listed(const char *name, const char *const *names, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (strcmp(name, names[i]) == 0)
            return true;
    return false;
}

/* Whether a plain run of al at its defaults polls global memory. */
static bool polls(const verify_algo *al)
{
    const size_t n = 20000;
    int32_t *in = calloc(n, sizeof *in), *out = calloc(n + 1024, sizeof *out);
    assert_non_null(in);
    assert_non_null(out);
    model_stats s;
    model_stats_init(&s);
    s.cfg.quiet = true;
    sl_scan_args a = {.type = SL_I32, .op = SL_ADD, .in = in, .out = out, .n = n, .sim = &s};
    if (SL_KIND_IS_APP(al->kind)) {
        free(out);
        out = calloc(8 * n + 4096, 1);
        assert_non_null(out);
        a.out = out;
    }
    (void)al->run[SL_SIM](&a);
    const bool p = s.global_polls > 0;
    model_stats_free(&s);
    free(in);
    free(out);
    return p;
}

static void test_no_waiting_answered_as_such(void **state)
{
    (void)state;
    const char *args[] = {"deadlock", "--blocks", "3", "--resident", "2", "--model", "obe", "--json", NULL};
    char *out;
    run(false, args, &out, NULL);
    size_t where = 0;
    if (!json_valid(out, &where))
        fail_msg("invalid JSON at %zu", where);
    for (size_t i = 0; i < verify_algo_count; i++) {
        const verify_algo *al = &verify_algos[i];
        char key[128];
        snprintf(key, sizeof key, "{\"algo\":\"%s\",\"model\":\"obe\",\"verdict\":\"", al->name);
        const char *p = strstr(out, key);
        if (!al->run[SL_SIM]) {
            if (p)
                fail_msg("%s has no sim backend, yet was searched", al->name);
            continue;
        }
        if (!p)
            fail_msg("no answer for %s", al->name);
        const bool none = starts(p + strlen(key), "no_waiting\"");
        if (listed(al->name, waiting, 8) && none)
            fail_msg("%s waits between blocks, yet was answered as not waiting", al->name);
        if (listed(al->name, not_waiting, 10) && !none)
            fail_msg("%s never waits between blocks, yet was searched", al->name);
        if (none && polls(al))
            fail_msg("%s polls global memory at its defaults, yet was answered as not waiting", al->name);
    }
    free(out);
    /* the text says it in words, and exits 0 */
    const char *one[] = {"deadlock", "--algo", "kogge-stone", NULL};
    char *err;
    assert_int_equal(run(false, one, &out, &err), 0);
    assert_non_null(strstr(out, "\n  no inter-block waiting: "));
    assert_null(strstr(out, "DEADLOCK"));
    free(out);
    free(err);
}

/* The planted look-back with tile = blockIdx.x deadlocks under obe (the
 * blocks it dispatched wait on tile 0, whose block never starts); in id
 * order (lobe) it completes. */
static void test_mutant_caught_under_obe(void **state)
{
    (void)state;
    const char *args[] = {"deadlock", "--algo", "lookback-blockidx", "--blocks", "3", "--resident", "2",
                          "--model", "obe,lobe", NULL};
    char *out, line[512], steps[256];
    assert_int_equal(run(true, args, &out, NULL), 1);
    model_line(out, "obe", line, sizeof line);
    assert_true(starts(line, "obe   DEADLOCK (exhaustive: "));
    trace_of(out, "obe", steps, sizeof steps);
    assert_null(strstr(steps, "d0"));
    assert_non_null(strstr(out, "never dispatched: 0\n"));
    model_line(out, "lobe", line, sizeof line);
    assert_true(starts(line, "lobe  deadlock-free (exhaustive: "));
    free(out);
}

/* Half a block at a barrier the other half never reaches: the finding,
 * with its site, under every model; not an inter-block deadlock. */
static void test_barrier_divergence_reported_as_such(void **state)
{
    (void)state;
    const char *args[] = {"deadlock", "--algo", "flag-divergent", "--blocks", "3", "--resident", "2", NULL};
    char *out, *err, line[512];
    assert_int_equal(run(true, args, &out, &err), 1);
    assert_null(strstr(out, "DEADLOCK"));
    assert_null(strstr(out, "no inter-block waiting"));
    for (const char *m = "obe"; m;
         m = strcmp(m, "obe") == 0 ? "lobe" : strcmp(m, "lobe") == 0 ? "hsa" : strcmp(m, "hsa") == 0 ? "fair" : NULL) {
        model_line(out, m, line, sizeof line);
        if (!strstr(line, "another finding stopped the kernel (not an inter-block deadlock): "
                          "tests/deadlock/flag_divergent_tmpl.cuh:") ||
            !strstr(line, "barrier"))
            fail_msg("flag-divergent under %s: %s", m, line);
    }
    free(out);
    free(err);
    const char *json[] = {"deadlock", "--algo", "flag-divergent", "--blocks", "3", "--model", "obe", "--json", NULL};
    assert_int_equal(run(true, json, &out, NULL), 1);
    assert_non_null(strstr(out, "\"verdict\":\"finding\""));
    assert_non_null(strstr(out, "\"finding\":\"tests/deadlock/flag_divergent_tmpl.cuh:"));
    free(out);
}

/* Sampling: said as such, from a printed seed that replays it. */
static void test_sampling(void **state)
{
    (void)state;
    const char *args[] = {"deadlock", "--algo", "chained-static", "--blocks", "12", "--resident", "3",
                          "--model", "obe", "--samples", "40", "--seed", "5", NULL};
    char *out, *err, *out2, line[512];
    assert_int_equal(run(false, args, &out, &err), 1);
    assert_non_null(strstr(err, "seed 5 (replay with --seed 5)"));
    model_line(out, "obe", line, sizeof line);
    assert_true(starts(line, "obe   DEADLOCK (in sampled schedule "));
    assert_int_equal(run(false, args, &out2, NULL), 1);
    /* the same schedules, so the same deadlock; times aside */
    char steps[256], steps2[256];
    trace_of(out, "obe", steps, sizeof steps);
    trace_of(out2, "obe", steps2, sizeof steps2);
    assert_string_equal(steps, steps2);
    free(out);
    free(out2);
    free(err);
    /* every sample is independent of the ones before: chained-static
     * stays free under hsa and fair (as exhaustive search proves for
     * G <= 8), the later samples included */
    const char *hsa_args[] = {"deadlock", "--algo", "chained-static", "--blocks", "12", "--resident", "3",
                              "--model", "hsa,fair", "--samples", "20", "--seed", "5", NULL};
    assert_int_equal(run(false, hsa_args, &out, NULL), 0);
    model_line(out, "hsa", line, sizeof line);
    assert_true(starts(line, "hsa   deadlock-free in 20 sampled schedules (not a proof"));
    model_line(out, "fair", line, sizeof line);
    assert_true(starts(line, "fair  deadlock-free in 20 sampled schedules (not a proof"));
    free(out);
    const char *free_args[] = {"deadlock", "--algo", "chained-ticket", "--blocks", "10", "--resident", "3",
                               "--model", "obe", "--samples", "5", "--seed", "3", NULL};
    assert_int_equal(run(false, free_args, &out, NULL), 0);
    model_line(out, "obe", line, sizeof line);
    assert_true(starts(line, "obe   deadlock-free in 5 sampled schedules (not a proof"));
    free(out);
}

/* Each refusal: exit 2, nothing on stdout, one line on stderr naming why. */
static void test_bad_usage(void **state)
{
    (void)state;
    static const struct {
        const char *args[12];
        const char *says;
    } cases[] = {
        {{"deadlock", "--algo", "chained-static", "--blocks", "0", NULL}, "--blocks 0"},
        {{"deadlock", "--algo", "chained-static", "--blocks", "1", NULL}, "question is empty"},
        {{"deadlock", "--algo", "chained-static", "--resident", "0", NULL}, "--resident 0"},
        {{"deadlock", "--algo", "chained-static", "--blocks", "3", "--resident", "3", NULL}, "every block is resident"},
        {{"deadlock", "--algo", "chained-static", "--blocks", "13", "--exhaustive", NULL}, "--samples K"},
        {{"deadlock", "--algo", "chained-static", "--exhaustive", "--samples", "4", NULL}, "exclude each other"},
        {{"deadlock", "--algo", "sequential", NULL}, "has no sim backend"},
        {{"deadlock", "--algo", "no-such-scan", NULL}, "is not an algorithm"},
        {{"deadlock", "--algo", "lookback", "--model", "eventual", NULL}, "unknown --model"},
        {{"deadlock", "--algo", "lookback", "--n", "1,2", NULL}, "one size"},
        {{"deadlock", "--algo", "lookback", "--blocks", "3", "--samples", "0", NULL}, "--samples"},
        {{"deadlock", "--algo", "chained-static", "--n", "4096", "--exhaustive", NULL}, "exhaustive limit"},
        /* 257 tiles of 32: a grid beyond what the search holds */
        {{"deadlock", "--algo", "chained-static", "--n", "8224", "--samples", "1", NULL},
         "has 257 blocks, beyond the 256 the search takes"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *out, *err;
        const int rc = run(false, cases[i].args, &out, &err);
        if (rc != 2 || out[0] || !strstr(err, cases[i].says) || strchr(err, '\n') != err + strlen(err) - 1)
            fail_msg("case %zu: exit %d, stdout '%s', stderr '%s' (wanted 2 and one line with '%s')", i, rc, out,
                     err, cases[i].says);
        free(out);
        free(err);
    }
}

/* A launch beyond the blocks the search holds (MODEL_SEARCH_MAX_BLOCKS) is
 * answered with a finding that names the limit, whatever calls the search
 * (257 blocks overflowed its arrays of a state's choices); 256 are
 * searched. */
static void test_grid_beyond_the_search(void **state)
{
    (void)state;
    const verify_algo *al = verify_find_algo("chained-static", false);
    assert_non_null(al);
    verify_deadlock_config c;
    char why[256];
    assert_int_equal(verify_deadlock_configure(al, 3, 2, 8224, &c, why, sizeof why), SL_OK);
    assert_int_equal(c.blocks, 257);
    assert_int_equal(c.most_blocks, 257);
    model_search_result r;
    const model_search_cfg cfg = {.progress = MODEL_PROGRESS_OBE, .samples = 1, .seed = 1};
    assert_int_equal(verify_deadlock_search(al, &c, &cfg, &r, NULL), SL_OK);
    assert_int_equal(r.verdict, MODEL_VERDICT_FINDING);
    if (!strstr(r.finding, "at most 256 blocks; this launch has 257"))
        fail_msg("finding: %s", r.finding);
    assert_int_equal(verify_deadlock_configure(al, 3, 2, 8192, &c, why, sizeof why), SL_OK);
    assert_int_equal(c.blocks, MODEL_SEARCH_MAX_BLOCKS);
    assert_int_equal(verify_deadlock_search(al, &c, &cfg, &r, NULL), SL_OK);
    assert_int_equal(r.verdict, MODEL_VERDICT_DEADLOCK); /* chained-static under obe, R < G */
}

/* A size whose search cannot finish is refused at once (lookback --n 2^24
 * ran 600 s with no verdict); a search past its --budget stops without a
 * verdict and says so, and one that runs longer than 10 s says how far it
 * is on stderr. One sampled schedule of lookback at 2^16 takes about 16 s
 * on two cores (docs/deadlock.md): a budget of 25 s cuts one, with a line
 * of progress at 10 s and at 20 s. */
static void test_budget_and_size_bound(void **state)
{
    (void)state;
    char *out, *err;
    const char *huge[] = {"deadlock", "--algo", "lookback", "--n", "2^24", "--samples", "1", NULL};
    double t0 = model_search_now();
    int rc = run(false, huge, &out, &err);
    if (rc != 2 || out[0] || !strstr(err, "would not finish") || model_search_now() - t0 > 10)
        fail_msg("--n 2^24: exit %d in %.1f s, stdout '%s', stderr '%s'", rc, model_search_now() - t0, out, err);
    free(out);
    free(err);
    const char *cut[] = {"deadlock", "--algo", "lookback", "--n", "2^16", "--model", "obe", "--samples", "100",
                         "--budget", "25", "--seed", "1", NULL};
    t0 = model_search_now();
    rc = run(false, cut, &out, &err);
    const double took = model_search_now() - t0;
    char line[512];
    model_line(out, "obe", line, sizeof line);
    if (rc != 1 || !starts(line, "obe   INCOMPLETE: the search hit its time budget (--budget)") ||
        !strstr(err, "scanlab: deadlock: lookback under obe: 1") || !strstr(err, "schedules so far") || took > 120)
        fail_msg("--budget 25: exit %d in %.1f s, stdout '%s', stderr '%s'", rc, took, out, err);
    free(out);
    free(err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chained_static_minimal_trace),
        cmocka_unit_test(test_chained_static_obe_whenever_g_above_r),
        cmocka_unit_test(test_ticketed_free_under_obe),
        cmocka_unit_test(test_exhaustive_up_to_eight_blocks),
        cmocka_unit_test(test_snapshots_match_forks),
        cmocka_unit_test(test_persistent_blocks_free),
        cmocka_unit_test(test_pipelined_blocks_free),
        cmocka_unit_test(test_chained_ticket_starves_under_hsa),
        cmocka_unit_test(test_no_waiting_answered_as_such),
        cmocka_unit_test(test_mutant_caught_under_obe),
        cmocka_unit_test(test_barrier_divergence_reported_as_such),
        cmocka_unit_test(test_sampling),
        cmocka_unit_test(test_bad_usage),
        cmocka_unit_test(test_grid_beyond_the_search),
        cmocka_unit_test(test_budget_and_size_bound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
