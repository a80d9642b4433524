/* The device-level scans and reductions of cuda/device and cuda/reduce in
 * the simulator: results against the sequential reference (integers,
 * every operator including the non-commutative affine), global element
 * traffic against closed forms derived from each algorithm, divergence of
 * the tree reductions per call site, and the inter-block progress of the
 * chained scans under chosen dispatch orders.
 *
 * Closed forms (inclusive scan, n elements, block B, T = ceil(n / B)
 * tiles, [T > 1] the recursion on the T tile totals):
 *   hierarchical     loads  L(n) = n + [T>1] (L(T) + (n - B) + (T - 1))
 *                    stores S(n) = n + [T>1] (T + S(T) + (n - B))
 *   reduce-then-scan loads  L(n) = n + [T>1] (n + (T - 1) + L(T))
 *                    stores S(n) = n + [T>1] (T + S(T))
 *   two-level (C ranges > 1): loads 2n + 2C - 1, stores n + 2C
 *   chained (4-byte T): stores n + T; lookback: n + 2T - 1
 *   chained (8-byte T): stores n + 2T; lookback: n + 4T - 2
 * Loads of the single-pass scans include the polls of the waits, which
 * depend on the schedule: asserted between the fewest possible (one poll
 * per wait) and that plus O(T). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cpu/cpu.h"
#include "cuda/kernels.h"
#include "model/model.h"
#include "../verify/seed.h"

static uint64_t seed_state;

/* splitmix64: the inputs' generator, seeded from the printed seed. */
static uint64_t next_rand(void)
{
    uint64_t z = (seed_state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

typedef struct {
    sl_type type;
    sl_op op;
    bool exclusive;
    size_t n;
    int block, param;
    unsigned slots;
    model_order order;
    uint64_t order_seed;
} run_cfg;

static run_cfg cfg_of(sl_type type, sl_op op, size_t n, int block)
{
    run_cfg c = {type, op, false, n, block, 0, 0, MODEL_ORDER_IN, 0};
    return c;
}

/* Runs fn on random integers in the simulator; *stats receives the counts
 * (caller frees); returns the status and, if SL_OK, checks the result
 * against the sequential scan or reduction, bit for bit. */
static sl_status run(sl_scan_fn fn, bool reduce, const run_cfg *c, model_stats *stats)
{
    const size_t es = SL_TYPE_SIZE(c->type), len = c->n ? c->n : 1;
    unsigned char *in = malloc(len * es), *out = malloc(len * es), *ref = malloc(len * es);
    assert_non_null(in);
    assert_non_null(out);
    assert_non_null(ref);
    for (size_t i = 0; i < c->n * es; i += 4) {
        uint32_t r = (uint32_t)next_rand();
        memcpy(in + i, &r, 4);
    }
    memset(out, 0xa5, len * es);
    model_stats_init(stats);
    stats->cfg.quiet = true;
    if (c->slots)
        stats->cfg.slots = c->slots;
    stats->cfg.order = c->order;
    stats->cfg.seed = c->order_seed;
    sl_scan_args a = {c->type, c->op, c->exclusive, in, out, c->n, 0, c->block, c->param, stats};
    sl_status st = fn(&a);
    if (st == SL_OK) {
        if (reduce)
            assert_int_equal(cpu_reduce_seq(c->type, c->op, in, c->n, ref), SL_OK);
        else
            assert_int_equal(cpu_scan_seq(c->type, c->op, c->exclusive, in, ref, c->n), SL_OK);
        assert_memory_equal(out, ref, (reduce ? 1 : c->n) * es);
        assert_int_equal(stats->races, 0);
        assert_int_equal(stats->barrier_divergence, 0);
    }
    free(in);
    free(out);
    free(ref);
    return st;
}

static size_t tiles(size_t n, size_t b) { return (n + b - 1) / b; }

static uint64_t hier_loads(size_t n, size_t b)
{
    size_t t = tiles(n, b);
    return t > 1 ? n + hier_loads(t, b) + (n - b) + (t - 1) : n;
}
static uint64_t hier_stores(size_t n, size_t b)
{
    size_t t = tiles(n, b);
    return t > 1 ? n + t + hier_stores(t, b) + (n - b) : n;
}
static uint64_t rts_loads(size_t n, size_t b)
{
    size_t t = tiles(n, b);
    return t > 1 ? n + n + (t - 1) + rts_loads(t, b) : n;
}
static uint64_t rts_stores(size_t n, size_t b)
{
    size_t t = tiles(n, b);
    return t > 1 ? n + t + rts_stores(t, b) : n;
}

/* (n, B) pairs: one tile, two levels, three and four levels. */
static const size_t count_cases[][2] = {{20, 32}, {1000, 32}, {4097, 256}, {70001, 32}, {5000, 1024}};
#define NCASES (sizeof count_cases / sizeof count_cases[0])

/* Every operator and integer type, several sizes and blocks, inclusive
 * and exclusive: exact against the reference (affine catches a swapped
 * operand anywhere, including the carries). */
static void check_all_ops(sl_scan_fn fn, bool reduce)
{
    const size_t sizes[] = {0, 1, 33, 1000, 4097};
    const int blocks[] = {0, 32};
    const sl_type types[] = {SL_I32, SL_I64};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (size_t k = 0; k < sizeof blocks / sizeof blocks[0]; k++)
            for (size_t ty = 0; ty < 2; ty++)
                for (int op = 0; op < SL_OP_COUNT; op++)
                    for (int ex = 0; ex <= (reduce ? 0 : 1); ex++) {
                        run_cfg c = cfg_of(types[ty], (sl_op)op, sizes[s], blocks[k]);
                        c.exclusive = ex;
                        model_stats st;
                        assert_int_equal(run(fn, reduce, &c, &st), SL_OK);
                        model_stats_free(&st);
                    }
}

static void test_results_scans(void **state)
{
    (void)state;
    check_all_ops(hierarchical_sim, false);
    check_all_ops(reduce_then_scan_sim, false);
    check_all_ops(two_level_sim, false);
    check_all_ops(chained_static_sim, false);
    check_all_ops(chained_ticket_sim, false);
    check_all_ops(lookback_sim, false);
}

static void test_results_reductions(void **state)
{
    (void)state;
    check_all_ops(reduce_interleaved_sim, true);
    check_all_ops(reduce_contiguous_sim, true);
    check_all_ops(reduce_shfl_sim, true);
}

/* two-level with an explicit number of ranges, more ranges than tiles
 * (clamped), and ranges of several tiles (the carry loop). */
static void test_results_two_level_param(void **state)
{
    (void)state;
    const int params[] = {1, 2, 3, 7, 1000};
    for (size_t p = 0; p < sizeof params / sizeof params[0]; p++)
        for (int ex = 0; ex <= 1; ex++) {
            run_cfg c = cfg_of(SL_I64, SL_AFFINE, 3001, 32);
            c.param = params[p];
            c.exclusive = ex;
            model_stats st;
            assert_int_equal(run(two_level_sim, false, &c, &st), SL_OK);
            model_stats_free(&st);
        }
}

static void test_bad_blocks(void **state)
{
    (void)state;
    const int bad[] = {16, 48, 2048, -1};
    sl_scan_fn fns[] = {hierarchical_sim, reduce_then_scan_sim, two_level_sim, chained_static_sim,
                        chained_ticket_sim, lookback_sim, reduce_interleaved_sim, reduce_contiguous_sim,
                        reduce_shfl_sim};
    for (size_t f = 0; f < sizeof fns / sizeof fns[0]; f++)
        for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
            run_cfg c = cfg_of(SL_I32, SL_ADD, 100, bad[k]);
            model_stats st;
            assert_int_equal(run(fns[f], f >= 6, &c, &st), SL_ERR_ARG);
            model_stats_free(&st);
        }
}

static void test_counts_hierarchical(void **state)
{
    (void)state;
    for (size_t k = 0; k < NCASES; k++) {
        const size_t n = count_cases[k][0], b = count_cases[k][1];
        run_cfg c = cfg_of(SL_I32, SL_ADD, n, (int)b);
        model_stats st;
        assert_int_equal(run(hierarchical_sim, false, &c, &st), SL_OK);
        assert_int_equal(st.global_load_elems, hier_loads(n, b));
        assert_int_equal(st.global_store_elems, hier_stores(n, b));
        /* the literature's 4n, plus O(n / B) for the sums (about 6T + 4T/B + ...) */
        assert_true(st.global_load_elems + st.global_store_elems <= 4 * n + 8 * tiles(n, b));
        model_stats_free(&st);
    }
}

static void test_counts_reduce_then_scan(void **state)
{
    (void)state;
    for (size_t k = 0; k < NCASES; k++) {
        const size_t n = count_cases[k][0], b = count_cases[k][1];
        run_cfg c = cfg_of(SL_I32, SL_ADD, n, (int)b);
        model_stats st;
        assert_int_equal(run(reduce_then_scan_sim, false, &c, &st), SL_OK);
        assert_int_equal(st.global_load_elems, rts_loads(n, b));
        assert_int_equal(st.global_store_elems, rts_stores(n, b));
        /* 2n reads and n writes, plus O(n / B) */
        assert_true(st.global_load_elems <= 2 * n + 4 * tiles(n, b));
        assert_true(st.global_store_elems <= n + 3 * tiles(n, b));
        model_stats_free(&st);
    }
}

static void test_counts_two_level(void **state)
{
    (void)state;
    /* default C = 8 in the simulator: 2188 tiles of 32 give 8 ranges of
     * 274 tiles; 20 elements give one range (one launch, n reads) */
    const size_t ns[] = {70001, 4097, 20};
    const size_t cs[] = {8, 8, 1};
    for (size_t k = 0; k < 3; k++) {
        run_cfg c = cfg_of(SL_I32, SL_ADD, ns[k], 32);
        model_stats st;
        assert_int_equal(run(two_level_sim, false, &c, &st), SL_OK);
        const size_t n = ns[k], cr = cs[k];
        assert_int_equal(st.global_load_elems, cr > 1 ? 2 * n + 2 * cr - 1 : n);
        assert_int_equal(st.global_store_elems, cr > 1 ? n + 2 * cr : n);
        assert_int_equal(st.launches, cr > 1 ? 3 : 1);
        model_stats_free(&st);
    }
}

/* Single pass: stores exact, loads n + polls (+ tickets). */
static void check_single_pass(sl_scan_fn fn, bool ticket, bool lookback, sl_type type)
{
    const size_t ns[] = {1000, 4097, 70001};
    for (size_t k = 0; k < 3; k++) {
        const size_t n = ns[k], b = 32, t = tiles(n, b);
        const bool wide = SL_TYPE_SIZE(type) == 8;
        run_cfg c = cfg_of(type, SL_ADD, n, (int)b);
        model_stats st;
        assert_int_equal(run(fn, false, &c, &st), SL_OK);
        uint64_t stores = lookback ? (wide ? n + 4 * t - 2 : n + 2 * t - 1) : (wide ? n + 2 * t : n + t);
        assert_int_equal(st.global_store_elems, stores);
        /* at least one poll per wait (two loads, status and value, for
         * 8-byte types) and one ticket per tile */
        uint64_t least = n + (t - 1) * (wide ? 2 : 1) + (ticket ? t : 0);
        assert_true(st.global_load_elems >= least);
        assert_true(st.global_load_elems <= least + 8 * t);
        assert_int_equal(st.launches, 1);
        model_stats_free(&st);
    }
}

static void test_counts_single_pass(void **state)
{
    (void)state;
    for (int w = 0; w < 2; w++) {
        sl_type ty = w ? SL_I64 : SL_I32;
        check_single_pass(chained_static_sim, false, false, ty);
        check_single_pass(chained_ticket_sim, true, false, ty);
        check_single_pass(lookback_sim, true, true, ty);
    }
}

/* chained-static: 64 blocks on 4 slots in reversed (or shuffled) order:
 * the resident blocks wait for blocks that are never dispatched, and the
 * explorer reports the deadlock; in order it completes, and so it does in
 * reversed order when every block fits the slots. */
static void test_chained_static_deadlock(void **state)
{
    (void)state;
    run_cfg c = cfg_of(SL_I32, SL_ADD, 64 * 32, 32);
    c.slots = 4;
    model_stats st;
    c.order = MODEL_ORDER_IN;
    assert_int_equal(run(chained_static_sim, false, &c, &st), SL_OK);
    assert_int_equal(st.deadlocks, 0);
    model_stats_free(&st);

    c.order = MODEL_ORDER_REVERSED;
    assert_int_equal(run(chained_static_sim, false, &c, &st), SL_ERR_SIM);
    assert_int_equal(st.deadlocks, 1);
    assert_true(st.has_error);
    assert_int_equal(st.error.kind, MODEL_FIND_DEADLOCK);
    assert_non_null(strstr(st.error.text, "tile_status.cuh"));
    model_stats_free(&st);

    c.n = 4 * 32; /* 4 blocks, 4 slots */
    assert_int_equal(run(chained_static_sim, false, &c, &st), SL_OK);
    assert_int_equal(st.deadlocks, 0);
    model_stats_free(&st);
}

/* chained-ticket and lookback: every order tried completes correctly. */
static void test_ticketed_no_deadlock(void **state)
{
    (void)state;
    sl_scan_fn fns[] = {chained_ticket_sim, lookback_sim};
    for (size_t f = 0; f < 2; f++)
        for (int o = 0; o < 8; o++) {
            run_cfg c = cfg_of(f ? SL_I64 : SL_I32, SL_AFFINE, 64 * 32 - 5, 32);
            c.slots = o % 2 ? 1 : 4;
            c.order = o < 2 ? MODEL_ORDER_IN : o < 4 ? MODEL_ORDER_REVERSED : MODEL_ORDER_RANDOM;
            c.order_seed = (uint64_t)o;
            model_stats st;
            assert_int_equal(run(fns[f], false, &c, &st), SL_OK);
            assert_int_equal(st.deadlocks, 0);
            model_stats_free(&st);
        }
}

/* The shared-memory store site of a reduction's tree loop: the one ST to
 * shared memory in `file` whose issues diverge at all (the load into
 * shared memory at the top is a full-warp store). */
static const model_site_stats *loop_store_site(const model_stats *s, const char *file)
{
    const model_site_stats *found = NULL;
    for (size_t i = 0; i < s->nsites; i++) {
        const model_site_stats *ss = &s->sites[i];
        if (!ss->site || !strstr(ss->site->file, file) || strcmp(ss->site->what, "ST") != 0)
            continue;
        if (ss->shared_accesses == 0 || ss->divergent_issues == 0)
            continue;
        assert_null(found);
        found = ss;
    }
    assert_non_null(found);
    return found;
}

/* One block of 1024 threads (32 warps), 10 tree steps s = 1 .. 512.
 * Interleaved: at step s the active threads are t = 0 mod 2s; for s <= 16
 * every warp holds some (16, 8, 4, 2, 1 active lanes: all partial), for
 * s = 32 .. 512 the warps 0 mod 2s/32 hold one: 5 * 32 + 16 + 8 + 4 + 2 + 1
 * = 191 warp issues, every one divergent: every step diverges.
 * Contiguous: at step s the threads t < 512 / s are active: 16, 8, 4, 2, 1
 * full warps, then one partial warp of 16, 8, 4, 2, 1 lanes: 36 issues, 5
 * divergent, one in each of the last five steps. */
static void test_reduction_divergence(void **state)
{
    (void)state;
    run_cfg c = cfg_of(SL_I32, SL_ADD, 1024, 1024);
    model_stats st;
    assert_int_equal(run(reduce_interleaved_sim, true, &c, &st), SL_OK);
    const model_site_stats *ss = loop_store_site(&st, "reduce_interleaved_tmpl.cuh");
    assert_int_equal(ss->issues, 191);
    assert_int_equal(ss->divergent_issues, 191);
    assert_int_equal(st.barriers, 10);
    model_stats_free(&st);

    assert_int_equal(run(reduce_contiguous_sim, true, &c, &st), SL_OK);
    ss = loop_store_site(&st, "reduce_contiguous_tmpl.cuh");
    assert_int_equal(ss->issues, 36);
    assert_int_equal(ss->divergent_issues, 5);
    assert_int_equal(st.barriers, 10);
    model_stats_free(&st);
}

/* Work of the tree reductions on one full block: B - 1 operator
 * applications for the trees; the shuffle reduction applies 5 per lane in
 * both phases: 5 * B + 5 * 32. */
static void test_reduction_work(void **state)
{
    (void)state;
    const size_t b = 256;
    run_cfg c = cfg_of(SL_I32, SL_AFFINE, b, (int)b);
    model_stats st;
    assert_int_equal(run(reduce_interleaved_sim, true, &c, &st), SL_OK);
    assert_int_equal(st.work, b - 1);
    model_stats_free(&st);
    assert_int_equal(run(reduce_contiguous_sim, true, &c, &st), SL_OK);
    assert_int_equal(st.work, b - 1);
    model_stats_free(&st);
    assert_int_equal(run(reduce_shfl_sim, true, &c, &st), SL_OK);
    assert_int_equal(st.work, 5 * b + 5 * 32);
    assert_int_equal(st.barriers, 1);
    model_stats_free(&st);
}

int main(void)
{
    seed_state = test_seed();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_results_scans),
        cmocka_unit_test(test_results_reductions),
        cmocka_unit_test(test_results_two_level_param),
        cmocka_unit_test(test_bad_blocks),
        cmocka_unit_test(test_counts_hierarchical),
        cmocka_unit_test(test_counts_reduce_then_scan),
        cmocka_unit_test(test_counts_two_level),
        cmocka_unit_test(test_counts_single_pass),
        cmocka_unit_test(test_chained_static_deadlock),
        cmocka_unit_test(test_ticketed_no_deadlock),
        cmocka_unit_test(test_reduction_divergence),
        cmocka_unit_test(test_reduction_work),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
