/* The device-level scans and reductions of cuda/device and cuda/reduce in
 * the simulator: results against the sequential reference (integers,
 * every operator including the non-commutative affine, and odd tile
 * layouts), global element traffic against closed forms, bank conflicts of
 * the register tiles' staging, grid-stride grids, the inter-block progress
 * of the single-pass scans under chosen dispatch orders, and the exact bits
 * of the deterministic float scans against the same expressions computed
 * here.
 *
 * Tiles are B threads x I items, S = B I elements, T = ceil(n / S) tiles;
 * the grid-stride kernels run min(T, 4) blocks in the simulator, the
 * single-pass ones one block per tile. Closed forms
 * (inclusive, n elements, [T > 1] the recursion on the T tile totals):
 *   hierarchical     loads  L(n) = n + [T>1] (L(T) + (n - S) + (T - 1))
 *                    stores S(n) = n + [T>1] (T + S(T) + (n - S))
 *   reduce-then-scan loads  L(n) = n + [T>1] (n + (T - 1) + L(T))
 *                    stores S(n) = n + [T>1] (T + S(T))
 *   two-level (C ranges > 1): loads 2n + 2C - 1, stores n + 2C
 *   single pass, stores: chained-static n + T; chained-ticket n + T + 1
 *     (the next run's ticket counter); lookback n + 2T (A and P per tile,
 *     only P for tile 0, and the counter); lookback-det n + T + 2 floor(T /
 *     32) + 1 (A per tile, A and P per full window, the counter)
 *   single pass, loads: n, the tickets (T + blocks), and the polls: at
 *     least one round over the words a tile needs, more when it waits. */
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
#include "cuda/depth.h"
#include "cuda/kernels.h"
#include "cuda/device/tile_geom.h"
#define SL_TILE_STATUS_COMMON_ONLY
#include "cuda/device/tile_status.cuh"
#include "model/model.h"
#include "../verify/seed.h"

#define SIM_RESIDENT 4 /* SL_SIM_RESIDENT_BLOCKS of cuda/dialect.h */

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
    unsigned occupancy; /* blocks an occupancy query answers (0: the simulator's own) */
} run_cfg;

static run_cfg cfg_of(sl_type type, sl_op op, size_t n, int block, int param)
{
    run_cfg c = {type, op, false, n, block, param, 0, MODEL_ORDER_IN, 0, 0};
    return c;
}

/* Random input: integers of all bits, floats in [-1, 1). */
static void fill(sl_type type, void *in, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const uint64_t r = next_rand();
        const double u = (double)(r >> 11) * 0x1.0p-53 * 2.0 - 1.0;
        switch (type) {
        case SL_I32: ((int32_t *)in)[i] = (int32_t)r; break;
        case SL_I64: ((int64_t *)in)[i] = (int64_t)r; break;
        case SL_F32: ((float *)in)[i] = (float)u; break;
        default: ((double *)in)[i] = u; break;
        }
    }
}

/* Runs fn on in[] in the simulator into out[]; *stats receives the counts
 * (caller frees). */
static sl_status run_on(sl_scan_fn fn, const run_cfg *c, const void *in, void *out, model_stats *stats)
{
    model_stats_init(stats);
    stats->cfg.quiet = true;
    if (c->slots)
        stats->cfg.slots = c->slots;
    stats->cfg.occupancy = c->occupancy;
    stats->cfg.order = c->order;
    stats->cfg.seed = c->order_seed;
    sl_scan_args a = {c->type, c->op, c->exclusive, in, out, c->n, 0, c->block, c->param, stats, SL_ADVERSARY_NONE};
    return fn(&a);
}

/* Runs fn on random input; if SL_OK, checks the result against the
 * sequential scan or reduction bit for bit (integers, float max/min), and
 * that the run was free of races and barrier divergence. */
static sl_status run(sl_scan_fn fn, bool reduce, const run_cfg *c, model_stats *stats)
{
    const size_t es = SL_TYPE_SIZE(c->type), len = c->n ? c->n : 1;
    unsigned char *in = malloc(len * es), *out = malloc(len * es), *ref = malloc(len * es);
    assert_non_null(in);
    assert_non_null(out);
    assert_non_null(ref);
    fill(c->type, in, c->n);
    memset(out, 0xa5, len * es);
    sl_status st = run_on(fn, c, in, out, stats);
    if (st == SL_OK) {
        if (reduce)
            assert_int_equal(cpu_reduce_seq(c->type, c->op, in, c->n, ref), SL_OK);
        else
            assert_int_equal(cpu_scan_seq(c->type, c->op, c->exclusive, in, ref, c->n), SL_OK);
        if (!SL_TYPE_IS_FLOAT(c->type) || c->op != SL_ADD)
            assert_memory_equal(out, ref, (reduce ? 1 : c->n) * es);
        assert_int_equal(stats->races, 0);
        assert_int_equal(stats->barrier_divergence, 0);
    }
    free(in);
    free(out);
    free(ref);
    return st;
}

static size_t tiles(size_t n, size_t s) { return (n + s - 1) / s; }

static uint64_t hier_loads(size_t n, size_t s)
{
    size_t t = tiles(n, s);
    return t > 1 ? n + hier_loads(t, s) + (n - s) + (t - 1) : n;
}
static uint64_t hier_stores(size_t n, size_t s)
{
    size_t t = tiles(n, s);
    return t > 1 ? n + t + hier_stores(t, s) + (n - s) : n;
}
static uint64_t rts_loads(size_t n, size_t s)
{
    size_t t = tiles(n, s);
    return t > 1 ? n + n + (t - 1) + rts_loads(t, s) : n;
}
static uint64_t rts_stores(size_t n, size_t s)
{
    size_t t = tiles(n, s);
    return t > 1 ? n + t + rts_stores(t, s) : n;
}

static const sl_scan_fn scans[] = {hierarchical_sim, reduce_then_scan_sim, two_level_sim, chained_static_sim,
                                   chained_ticket_sim, lookback_sim, lookback_det_sim};
#define NSCANS (sizeof scans / sizeof scans[0])

/* Every operator and integer type, several sizes and tile layouts (the
 * default, and odd ones: 1 item per thread, 96 threads x 5 items),
 * inclusive and exclusive: exact against the reference (affine catches a
 * swapped operand anywhere, including the carries and look-backs). */
static void check_all_ops(sl_scan_fn fn, bool reduce, bool tile_layouts)
{
    const size_t sizes[] = {0, 1, 33, 1000, 4097};
    const int layouts[][2] = {{0, 0}, {32, 1}, {96, 5}};
    const sl_type types[] = {SL_I32, SL_I64};
    const size_t nlayouts = tile_layouts ? 3 : 1;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (size_t k = 0; k < nlayouts; k++)
            for (size_t ty = 0; ty < 2; ty++)
                for (int op = 0; op < SL_OP_COUNT; op++)
                    for (int ex = 0; ex <= (reduce ? 0 : 1); ex++) {
                        run_cfg c = cfg_of(types[ty], (sl_op)op, sizes[s], layouts[k][0], layouts[k][1]);
                        c.exclusive = ex;
                        model_stats st;
                        assert_int_equal(run(fn, reduce, &c, &st), SL_OK);
                        model_stats_free(&st);
                    }
}

static void test_results_scans(void **state)
{
    (void)state;
    for (size_t f = 0; f < NSCANS; f++)
        check_all_ops(scans[f], false, scans[f] != two_level_sim);
    check_all_ops(two_level_sim, false, false);
}

/* Many tiles: every scan over 2188 tiles of 32 (69 windows of 32 tiles:
 * look-backs that move several windows back), i32 affine inclusive and
 * f64 max exclusive, out-of-order dispatch. */
static void test_results_many_tiles(void **state)
{
    (void)state;
    const sl_type types[] = {SL_I32, SL_F64};
    for (size_t f = 0; f < NSCANS; f++)
        for (size_t ty = 0; ty < 2; ty++) {
            run_cfg c = cfg_of(types[ty], SL_TYPE_IS_FLOAT(types[ty]) ? SL_MAX : SL_AFFINE, 70001, 32,
                               scans[f] == two_level_sim ? 50 : 1);
            c.exclusive = ty % 2;
            c.order = scans[f] == chained_static_sim ? MODEL_ORDER_IN : MODEL_ORDER_RANDOM;
            c.order_seed = ty;
            c.slots = 3;
            model_stats st;
            assert_int_equal(run(scans[f], false, &c, &st), SL_OK);
            model_stats_free(&st);
        }
}

static void test_results_reductions(void **state)
{
    (void)state;
    check_all_ops(reduce_interleaved_sim, true, false);
    check_all_ops(reduce_contiguous_sim, true, false);
    check_all_ops(reduce_shfl_sim, true, false);
}

/* two-level with an explicit number of ranges, more ranges than tiles
 * (clamped), and ranges of several tiles (the carry loop). */
static void test_results_two_level_param(void **state)
{
    (void)state;
    const int params[] = {1, 2, 3, 7, 1000};
    for (size_t p = 0; p < sizeof params / sizeof params[0]; p++)
        for (int ex = 0; ex <= 1; ex++) {
            run_cfg c = cfg_of(SL_I64, SL_AFFINE, 3001, 32, params[p]);
            c.exclusive = ex;
            model_stats st;
            assert_int_equal(run(two_level_sim, false, &c, &st), SL_OK);
            model_stats_free(&st);
        }
}

/* Tile layouts the drivers refuse: blocks that are not a multiple of 32
 * or pass 512 threads, more items than a thread holds (24 of 4 bytes, 12
 * of 8), staging past 48 KiB; reductions: blocks not a power of two. */
static void test_bad_layouts(void **state)
{
    (void)state;
    const int bad[][3] = {{16, 0, SL_I32}, {48, 0, SL_I32}, {1024, 0, SL_I32}, {-1, 0, SL_I32},
                          {0, 25, SL_I32}, {0, 13, SL_I64}, {0, -1, SL_I32},  {512, 24, SL_I32}};
    for (size_t f = 0; f < NSCANS; f++)
        for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
            if (scans[f] == two_level_sim && bad[k][1] != 0)
                continue; /* its param is the range count */
            run_cfg c = cfg_of((sl_type)bad[k][2], SL_ADD, 100, bad[k][0], bad[k][1]);
            model_stats st;
            assert_int_equal(run(scans[f], false, &c, &st), SL_ERR_ARG);
            model_stats_free(&st);
        }
    sl_scan_fn reds[] = {reduce_interleaved_sim, reduce_contiguous_sim, reduce_shfl_sim};
    const int bad_blocks[] = {16, 48, 2048, -1};
    for (size_t f = 0; f < 3; f++)
        for (size_t k = 0; k < 4; k++) {
            run_cfg c = cfg_of(SL_I32, SL_ADD, 100, bad_blocks[k], 0);
            model_stats st;
            assert_int_equal(run(reds[f], true, &c, &st), SL_ERR_ARG);
            model_stats_free(&st);
        }
}

/* (n, B, I) cases: one tile, two levels, three levels; default layout. */
static const size_t count_cases[][3] = {{20, 32, 1}, {1000, 32, 1}, {4097, 64, 3}, {70001, 32, 1}, {70001, 0, 0}};
#define NCASES (sizeof count_cases / sizeof count_cases[0])
/* S of a case: the default layout is 128 x 24 for i32. */
static size_t case_tile(size_t k)
{
    return count_cases[k][1] ? count_cases[k][1] * count_cases[k][2] : 128 * 24;
}

static void test_counts_hierarchical(void **state)
{
    (void)state;
    for (size_t k = 0; k < NCASES; k++) {
        const size_t n = count_cases[k][0], s = case_tile(k);
        run_cfg c = cfg_of(SL_I32, SL_ADD, n, (int)count_cases[k][1], (int)count_cases[k][2]);
        model_stats st;
        assert_int_equal(run(hierarchical_sim, false, &c, &st), SL_OK);
        assert_int_equal(st.global_load_elems, hier_loads(n, s));
        assert_int_equal(st.global_store_elems, hier_stores(n, s));
        /* the literature's 4n, plus O(n / S) for the sums */
        assert_true(st.global_load_elems + st.global_store_elems <= 4 * n + 8 * tiles(n, s));
        model_stats_free(&st);
    }
}

static void test_counts_reduce_then_scan(void **state)
{
    (void)state;
    for (size_t k = 0; k < NCASES; k++) {
        const size_t n = count_cases[k][0], s = case_tile(k);
        run_cfg c = cfg_of(SL_I32, SL_ADD, n, (int)count_cases[k][1], (int)count_cases[k][2]);
        model_stats st;
        assert_int_equal(run(reduce_then_scan_sim, false, &c, &st), SL_OK);
        assert_int_equal(st.global_load_elems, rts_loads(n, s));
        assert_int_equal(st.global_store_elems, rts_stores(n, s));
        /* 2n reads and n writes, plus O(n / S) */
        assert_true(st.global_load_elems <= 2 * n + 4 * tiles(n, s));
        assert_true(st.global_store_elems <= n + 3 * tiles(n, s));
        /* grid-stride launches of min(tiles, 4) blocks at every level */
        assert_true(st.blocks <= st.launches * SIM_RESIDENT);
        model_stats_free(&st);
    }
}

static void test_counts_two_level(void **state)
{
    (void)state;
    /* default C = 8 in the simulator; tiles of 32 x 24: 70001 elements
     * are 92 tiles in 8 ranges of 12, 4097 are 6 tiles in 6 ranges, 20
     * elements one range (one launch, n reads) */
    const size_t ns[] = {70001, 4097, 20};
    const size_t cs[] = {8, 6, 1};
    for (size_t k = 0; k < 3; k++) {
        run_cfg c = cfg_of(SL_I32, SL_ADD, ns[k], 32, 0);
        model_stats st;
        assert_int_equal(run(two_level_sim, false, &c, &st), SL_OK);
        const size_t n = ns[k], cr = cs[k];
        assert_int_equal(st.global_load_elems, cr > 1 ? 2 * n + 2 * cr - 1 : n);
        assert_int_equal(st.global_store_elems, cr > 1 ? n + 2 * cr : n);
        assert_int_equal(st.launches, cr > 1 ? 3 : 1);
        model_stats_free(&st);
    }
}

/* The fewest status words a tile polls: what it needs, once. */
static uint64_t least_polls(sl_scan_fn fn, size_t t)
{
    if (fn == lookback_sim)
        return t < 32 ? t : 32;
    if (fn == lookback_det_sim) {
        const size_t j = t / 32;
        return t % 32 + (j < 32 ? j : 32);
    }
    return t > 0; /* chained: the tile before */
}

/* The single-pass stores of n elements in t tiles (the closed forms at
 * the top): the outputs, the status words, the next run's counter. */
static uint64_t single_pass_stores(sl_scan_fn fn, size_t n, size_t t)
{
    if (fn == chained_static_sim)
        return n + t;
    if (fn == lookback_sim)
        return n + 2 * t;
    if (fn == lookback_det_sim)
        return n + t + 2 * (t / 32) + 1;
    return n + t + 1; /* chained-ticket */
}

/* Single pass: stores exact, loads n + tickets + polls within bounds, one
 * launch, one block per tile (a ticketed block draws one ticket). */
static void test_counts_single_pass(void **state)
{
    (void)state;
    const sl_scan_fn fns[] = {chained_static_sim, chained_ticket_sim, lookback_sim, lookback_det_sim};
    const size_t ns[] = {1000, 4097, 70001};
    for (size_t f = 0; f < 4; f++)
        for (int w = 0; w < 2; w++)
            for (size_t k = 0; k < 3; k++) {
                const size_t n = ns[k], t = tiles(n, 32);
                const bool ticketed = fns[f] != chained_static_sim;
                run_cfg c = cfg_of(w ? SL_I64 : SL_I32, SL_ADD, n, 32, 1);
                model_stats st;
                assert_int_equal(run(fns[f], false, &c, &st), SL_OK);
                assert_int_equal(st.global_store_elems, single_pass_stores(fns[f], n, t));
                assert_int_equal(st.blocks, t);
                uint64_t least = n + (ticketed ? t : 0);
                for (size_t i = 0; i < t; i++)
                    least += least_polls(fns[f], i);
                assert_true(st.global_load_elems >= least);
                assert_true(st.global_load_elems <= least + 64 * t);
                assert_int_equal(st.launches, 1);
                model_stats_free(&st);
            }
}

/* The look-back's waits: a grid that covers its tiles polls at once and
 * backs off 32 .. 512 ns; a persistent grid (unless pipelined, whose next
 * tile's loads come first) first sleeps a third of a tile
 * period (its resident tiles read and written at 3000 bytes a ns, or 6000
 * where the scan's bytes come to at most 1.5 times the L2; at most 64 us),
 * then polls every 600 ns. On the H100's default lookback grid (1056
 * blocks of the default 4-byte tile) that is 2883 ns at 2^28, inside the
 * 2.5 .. 4 us where docs/performance.md measured the scan fastest, and
 * 1441 ns at 2^22, where 1.4 us beat 2.9 us. */
static void test_lookback_wait_timing(void **state)
{
    (void)state;
    const size_t h100_l2 = 50u << 20;
    sl_tile_geom g;
    assert_int_equal(sl_tile_geom_of(0, 0, 4, SL_TILE_THREADS, &g), SL_OK);
    assert_int_equal(g.tile, 3072); /* 128 x 24 */
    sl_tile_status ts;
    memset(&ts, 0, sizeof ts);
    ts.tiles = 87382; /* 2^28 / 3072, rounded up */
    sl_tile_status_timing(&ts, 1056, g.tile * 4, (size_t)8 << 28, h100_l2, 0);
    assert_int_equal(ts.first_ns, 2883); /* 2 x 1056 x 12288 / 3000 / 3 */
    assert_int_equal(ts.min_ns, 600);
    assert_int_equal(ts.max_ns, 600);
    /* pipelined blocks: no first sleep (the next tile's loads take its
     * place), the same polls */
    sl_tile_status_timing(&ts, 1056, g.tile * 4, (size_t)8 << 28, h100_l2, 1);
    assert_int_equal(ts.first_ns, 0);
    assert_int_equal(ts.min_ns, 600);
    assert_int_equal(ts.max_ns, 600);
    /* the L2's size unknown (0): the memory's rate */
    sl_tile_status_timing(&ts, 1056, g.tile * 4, 8, 0, 0);
    assert_int_equal(ts.first_ns, 2883);
    /* 2^22 i32 (32 MiB) and i64 (64 MiB, at most 1.5 x 50 MiB): the L2's
     * rate, 2 x 1056 x 12288 / 6000 / 3 */
    ts.tiles = 1366;
    sl_tile_status_timing(&ts, 1056, g.tile * 4, (size_t)8 << 22, h100_l2, 0);
    assert_int_equal(ts.first_ns, 1441);
    sl_tile_status_timing(&ts, 1056, 1536 * 8, (size_t)16 << 22, h100_l2, 0);
    assert_int_equal(ts.first_ns, 1441);
    /* just above 1.5 x the L2: the memory's rate again */
    sl_tile_status_timing(&ts, 1056, g.tile * 4, h100_l2 + h100_l2 / 2 + 1, h100_l2, 0);
    assert_int_equal(ts.first_ns, 2883);
    sl_tile_status_timing(&ts, 1056, g.tile * 4, h100_l2 + h100_l2 / 2, h100_l2, 0);
    assert_int_equal(ts.first_ns, 1441);
    /* four blocks an SM of 12 KiB tiles (the 4-byte affine maps): 1441 */
    ts.tiles = 87382;
    sl_tile_status_timing(&ts, 528, 1536 * 8, (size_t)16 << 28, h100_l2, 0);
    assert_int_equal(ts.first_ns, 1441);
    /* a geometry far beyond any GPU's: bounded */
    ts.tiles = 0xffffffffu;
    sl_tile_status_timing(&ts, 1u << 20, (size_t)1 << 30, (size_t)1 << 40, h100_l2, 0);
    assert_int_equal(ts.first_ns, 65536);
    /* a grid that covers its tiles does not sleep first */
    ts.tiles = 1056;
    sl_tile_status_timing(&ts, 1056, 3072 * 4, (size_t)1 << 20, h100_l2, 0);
    assert_int_equal(ts.first_ns, 0);
    assert_int_equal(ts.min_ns, 32);
    assert_int_equal(ts.max_ns, 512);
}

/* The staging of the default tiles meets no bank twice (4-byte elements:
 * one wavefront per warp access; 8-byte: two). */
static void test_staging_bank_conflicts(void **state)
{
    (void)state;
    const sl_type types[] = {SL_I32, SL_F64};
    for (size_t ty = 0; ty < 2; ty++)
        for (size_t f = 0; f < NSCANS; f++) {
            run_cfg c = cfg_of(types[ty], SL_ADD, 70001, 0, 0);
            model_stats st;
            assert_int_equal(run(scans[f], false, &c, &st), SL_OK);
            assert_true(st.shared_accesses > 0);
            assert_int_equal(st.bank_conflicts, 0);
            model_stats_free(&st);
        }
}

/* chained-static: 64 tiles on 4 slots in reversed order: the resident
 * blocks wait for blocks that are never dispatched, and the explorer
 * reports the deadlock; in order it completes, and so it does in reversed
 * order when every block fits the slots. */
static void test_chained_static_deadlock(void **state)
{
    (void)state;
    run_cfg c = cfg_of(SL_I32, SL_ADD, 64 * 32, 32, 1);
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

/* chained-ticket, lookback and lookback-det: every order tried completes
 * correctly, with one slot (blocks one after another) or a few. */
static void test_ticketed_no_deadlock(void **state)
{
    (void)state;
    const sl_scan_fn fns[] = {chained_ticket_sim, lookback_sim, lookback_det_sim};
    for (size_t f = 0; f < 3; f++)
        for (int o = 0; o < 8; o++) {
            run_cfg c = cfg_of(o % 4 < 2 ? SL_I64 : SL_I32, SL_AFFINE, 64 * 32 * 4 - 5, 32, 1);
            c.slots = o % 2 ? 1 : 3;
            c.order = o < 2 ? MODEL_ORDER_IN : o < 4 ? MODEL_ORDER_REVERSED : MODEL_ORDER_RANDOM;
            c.order_seed = (uint64_t)o;
            model_stats st;
            assert_int_equal(run(fns[f], false, &c, &st), SL_OK);
            assert_int_equal(st.deadlocks, 0);
            model_stats_free(&st);
        }
}

/* The name of the one launch of a run. */
static const char *launch_name(const model_stats *st)
{
    assert_int_equal(st->nlaunch_records, 1);
    assert_non_null(st->launch[0].name);
    return st->launch[0].name;
}

/* Persistent blocks, as the GPU runs them: the occupancy query answers 3
 * blocks. lookback and lookback-det pipeline where every block gets two
 * tiles or more (6 tiles and up: sp_scan_pipe for the default tile,
 * sp_scan_pipe_items for the others, two staging areas), and keep one
 * tile a block below that (5 tiles: sp_scan, sp_scan_items);
 * chained-ticket never pipelines. Results exact against the reference for
 * every operator and integer type, float max and min, inclusive and
 * exclusive, the general item counts and the default (a constant) alike,
 * dispatched in order, in reverse and at random on one to three slots;
 * 32 tiles include a window's last tile, which lookback-det's pipelined
 * block makes wait for its window before it goes back to the tile before.
 * Stores as in the closed forms above, loads the n elements, T + 3
 * tickets (a first one a block, one after each tile) and at least the
 * polls each tile needs. */
static void test_pipelined_results(void **state)
{
    (void)state;
    const int layouts[][2] = {{32, 1}, {96, 5}, {0, 0}};
    const sl_type types[] = {SL_I32, SL_I64, SL_F32, SL_F64};
    const char *const type_names[] = {"i32", "i64", "f32", "f64"};
    for (size_t k = 0; k < 3; k++)
        for (size_t ty = 0; ty < 4; ty++) {
            sl_tile_geom g;
            memset(&g, 0, sizeof g); /* set by the call, which gcc cannot see succeed */
            assert_int_equal(sl_tile_geom_of(layouts[k][0], layouts[k][1], SL_TYPE_SIZE(types[ty]),
                                             SL_TILE_THREADS, &g), SL_OK);
            /* 5 tiles, 6, 7 with a partial last one, 32 with a partial one */
            const size_t sizes[] = {5 * g.tile, 6 * g.tile, 6 * g.tile + 1, 31 * g.tile + 17};
            for (size_t z = 0; z < 4; z++)
                for (int op = 0; op < SL_OP_COUNT; op++) {
                    if (SL_TYPE_IS_FLOAT(types[ty]) && op != SL_MAX && op != SL_MIN)
                        continue;
                    /* the sizes of default tiles cost seconds each: two operators */
                    if (k == 2 && op != SL_AFFINE && op != SL_MAX)
                        continue;
                    run_cfg c = cfg_of(types[ty], (sl_op)op, sizes[z], layouts[k][0], layouts[k][1]);
                    c.exclusive = (z + (size_t)op) % 2;
                    c.occupancy = 3;
                    c.order = (model_order)((z + ty) % 3 == 0 ? MODEL_ORDER_IN
                                            : (z + ty) % 3 == 1 ? MODEL_ORDER_REVERSED : MODEL_ORDER_RANDOM);
                    c.order_seed = z;
                    c.slots = 1 + (unsigned)(z + (size_t)op) % 3;
                    for (size_t f = 0; f < 2; f++) {
                        const sl_scan_fn fn = f == 0 ? lookback_sim : lookback_det_sim;
                        model_stats st;
                        assert_int_equal(run(fn, false, &c, &st), SL_OK);
                        const size_t t = tiles(c.n, g.tile);
                        const char *name = launch_name(&st);
                        const char *want = t < 6 ? (k == 2 ? "sp_scan_" : "sp_scan_items_")
                                                 : (k == 2 ? "sp_scan_pipe_" : "sp_scan_pipe_items_");
                        char prefix[64];
                        snprintf(prefix, sizeof prefix, "%s%s_", want, type_names[ty]);
                        if (strncmp(name, prefix, strlen(prefix)) != 0)
                            fail_msg("%zu tiles of %u x %u on 3 blocks ran in %s, not %s...", t, g.block, g.items, name,
                                     prefix);
                        assert_int_equal(st.blocks, 3);
                        assert_int_equal(st.deadlocks, 0);
                        assert_int_equal(st.global_store_elems, single_pass_stores(fn, c.n, t));
                        uint64_t least = c.n + t + 3;
                        for (size_t i = 0; i < t; i++)
                            least += least_polls(fn, i);
                        assert_true(st.global_load_elems >= least);
                        model_stats_free(&st);
                    }
                }
        }
    run_cfg c = cfg_of(SL_I64, SL_AFFINE, 1000, 32, 1);
    c.occupancy = 3;
    model_stats st;
    assert_int_equal(run(chained_ticket_sim, false, &c, &st), SL_OK);
    assert_int_equal(strncmp(launch_name(&st), "sp_scan_items_i64_affine", 24), 0);
    model_stats_free(&st);
}

/* lookback's and lookback-det's default block: 128 threads, 192 from 64
 * MiB of input (tile_geom.h), and the depth bounds follow the same rule.
 * An output of tile t (I items, W warps): aggregate I + W + 3, output
 * max(prefix, I + W + 5) + 1 + I; the prefix lookback's aggregate + 7t,
 * lookback-det's aggregate + 5 + t / 32 (cuda/depth.h). */
static void test_lookback_default_block(void **state)
{
    (void)state;
    const size_t m24 = (size_t)1 << 24, m23 = (size_t)1 << 23;
    assert_int_equal(sl_lookback_threads(m24 - 1, 4), 128);
    assert_int_equal(sl_lookback_threads(m24, 4), 192);
    assert_int_equal(sl_lookback_threads(m23 - 1, 8), 128);
    assert_int_equal(sl_lookback_threads(m23, 8), 192);
    sl_scan_args a;
    memset(&a, 0, sizeof a);
    a.type = SL_I32;
    a.op = SL_ADD;
    const size_t i = 64 * 4608; /* tile 64 of 192 x 24 elements, tile 96 of 128 x 24 */
    a.n = m24;                  /* 192 x 24: aggregate 33 */
    assert_int_equal(sl_depth_lookback_det(&a, i), 33 + 5 + 2 + 1 + 24);
    assert_int_equal(sl_depth_lookback(&a, i), 33 + 7 * 64 + 1 + 24);
    a.n = m24 - 1;              /* 128 x 24: aggregate 31 */
    assert_int_equal(sl_depth_lookback_det(&a, i), 31 + 5 + 3 + 1 + 24);
    assert_int_equal(sl_depth_lookback(&a, i), 31 + 7 * 96 + 1 + 24);
}

/* ---- the exact bits of the float scans ------------------------------------- */

/* One tile of 32 threads x 1 item, f32 add, as tile_scan.cuh computes it:
 * the warp's Kogge-Stone scan ks[], the tile's aggregate ks[31]; output l
 * = (prefix + ks[l - 1]) + x[l], or prefix + x[0], or the scan alone. */
static void tile_ks(const float *x, float *ks)
{
    for (int l = 0; l < 32; l++)
        ks[l] = x[l];
    for (int d = 1; d < 32; d *= 2) {
        float prev[32];
        memcpy(prev, ks, sizeof prev);
        for (int l = d; l < 32; l++)
            ks[l] = prev[l - d] + prev[l];
    }
}

static void tile_out(const float *x, const float *ks, int have, float prefix, float *y, size_t len)
{
    for (size_t l = 0; l < len; l++) {
        float acc;
        if (l == 0)
            y[l] = have ? prefix + x[0] : x[0];
        else {
            acc = have ? prefix + ks[l - 1] : ks[l - 1];
            y[l] = acc + x[l];
        }
    }
}

/* Tile aggregates (f32 add, 32 x 1 tiles; the last tile padded with the
 * identity 0). */
static float *aggregates(const float *in, size_t n, size_t t)
{
    float *agg = malloc(t * sizeof *agg);
    assert_non_null(agg);
    for (size_t k = 0; k < t; k++) {
        float x[32] = {0}, ks[32];
        for (size_t l = 0; l < 32 && k * 32 + l < n; l++)
            x[l] = in[k * 32 + l];
        tile_ks(x, ks);
        agg[k] = ks[31];
    }
    return agg;
}

/* The outputs given each tile's prefix (have[t] = 0: none). */
static void outputs(const float *in, size_t n, const float *prefix, const int *have, float *y)
{
    for (size_t k = 0; k * 32 < n; k++) {
        float x[32] = {0}, ks[32];
        const size_t len = n - k * 32 < 32 ? n - k * 32 : 32;
        for (size_t l = 0; l < len; l++)
            x[l] = in[k * 32 + l];
        tile_ks(x, ks);
        tile_out(x, ks, have[k], prefix[k], y + k * 32, len);
    }
}

/* lookback-det's prefixes: S(t) the Kogge-Stone scan of the window's
 * aggregates at t's lane, W_j = S(32j + 31), the left fold of the W. */
static void det_prefixes(const float *agg, size_t t, float *prefix, int *have)
{
    float fold = 0;
    for (size_t j = 0; j * 32 < t; j++) {
        float a[32] = {0}, s[32];
        for (size_t l = 0; l < 32 && j * 32 + l < t; l++)
            a[l] = agg[j * 32 + l];
        tile_ks(a, s);
        for (size_t l = 0; l < 32 && j * 32 + l < t; l++) {
            const size_t k = j * 32 + l;
            have[k] = k > 0;
            prefix[k] = j == 0 ? (l > 0 ? s[l - 1] : 0) : (l > 0 ? fold + s[l - 1] : fold);
        }
        fold = j == 0 ? s[31] : fold + s[31];
    }
}

/* The chained prefixes: P(t) = P(t - 1) + A_t. */
static void chained_prefixes(const float *agg, size_t t, float *prefix, int *have)
{
    float p = 0;
    for (size_t k = 0; k < t; k++) {
        have[k] = k > 0;
        prefix[k] = p;
        p = k == 0 ? agg[0] : p + agg[k];
    }
}

/* lookback-det: the bits computed here, under every dispatch order and
 * slot count tried, a block per tile and pipelined on 3 persistent
 * blocks alike; the chained scans: theirs; lookback with one slot
 * (every predecessor has its inclusive prefix when a tile looks back, so
 * it takes P(t - 1) as the chained scan does): the chained bits. */
static void test_float_bits(void **state)
{
    (void)state;
    const size_t n = 70001, t = tiles(n, 32);
    float *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out), *ref = malloc(n * sizeof *ref);
    float *prefix = malloc(t * sizeof *prefix);
    int *have = malloc(t * sizeof *have);
    assert_non_null(in);
    assert_non_null(out);
    assert_non_null(ref);
    assert_non_null(prefix);
    assert_non_null(have);
    fill(SL_F32, in, n);
    float *agg = aggregates(in, n, t);

    det_prefixes(agg, t, prefix, have);
    outputs(in, n, prefix, have, ref);
    const model_order orders[] = {MODEL_ORDER_IN, MODEL_ORDER_REVERSED, MODEL_ORDER_RANDOM, MODEL_ORDER_RANDOM};
    const unsigned slots[] = {8, 1, 2, 3};
    for (size_t o = 0; o < 8; o++) {
        run_cfg c = cfg_of(SL_F32, SL_ADD, n, 32, 1);
        c.order = orders[o % 4];
        c.order_seed = o;
        c.slots = slots[o % 4];
        c.occupancy = o < 4 ? 0 : 3;
        model_stats st;
        memset(out, 0, n * sizeof *out);
        assert_int_equal(run_on(lookback_det_sim, &c, in, out, &st), SL_OK);
        if (o >= 4)
            assert_int_equal(strncmp(launch_name(&st), "sp_scan_pipe_items_f32_add", 26), 0);
        assert_memory_equal(out, ref, n * sizeof *out);
        model_stats_free(&st);
    }

    chained_prefixes(agg, t, prefix, have);
    outputs(in, n, prefix, have, ref);
    const sl_scan_fn chained[] = {chained_static_sim, chained_ticket_sim, lookback_sim};
    for (size_t f = 0; f < 3; f++) {
        run_cfg c = cfg_of(SL_F32, SL_ADD, n, 32, 1);
        c.slots = 1;
        model_stats st;
        memset(out, 0, n * sizeof *out);
        assert_int_equal(run_on(chained[f], &c, in, out, &st), SL_OK);
        assert_memory_equal(out, ref, n * sizeof *out);
        model_stats_free(&st);
    }
    free(agg);
    free(in);
    free(out);
    free(ref);
    free(prefix);
    free(have);
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
    run_cfg c = cfg_of(SL_I32, SL_ADD, 1024, 1024, 0);
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
    run_cfg c = cfg_of(SL_I32, SL_AFFINE, b, (int)b, 0);
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
        cmocka_unit_test(test_results_many_tiles),
        cmocka_unit_test(test_results_reductions),
        cmocka_unit_test(test_results_two_level_param),
        cmocka_unit_test(test_bad_layouts),
        cmocka_unit_test(test_counts_hierarchical),
        cmocka_unit_test(test_counts_reduce_then_scan),
        cmocka_unit_test(test_counts_two_level),
        cmocka_unit_test(test_counts_single_pass),
        cmocka_unit_test(test_lookback_wait_timing),
        cmocka_unit_test(test_pipelined_results),
        cmocka_unit_test(test_lookback_default_block),
        cmocka_unit_test(test_staging_bank_conflicts),
        cmocka_unit_test(test_chained_static_deadlock),
        cmocka_unit_test(test_ticketed_no_deadlock),
        cmocka_unit_test(test_float_bits),
        cmocka_unit_test(test_reduction_divergence),
        cmocka_unit_test(test_reduction_work),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
