/* The single-pass applications (compact, partition, pack, the one-sweep
 * radix-sort) in the simulator:
 * against the references on the standard sizes with tiles small enough
 * that every look-back runs (many tiles, windows of 32 crossed), outputs
 * built by hand across tiles, and the pass's shape in the simulator's
 * counts (one launch, the input read once, no race). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../verify/seed.h"
#include "apps_testlib.h"
#include "verify/harness/harness.h"
#include "verify/harness/rng.h"
#include "verify/harness/sizes.h"

static uint64_t seed;

/* Every type on the standard sizes up to max_n, block threads and the
 * parameter (compact, partition: items per thread, tiles of block * items
 * elements; radix-sort: digit bits; pack: K). */
static void sweep(const char *name, size_t max_n, int block, int param)
{
    const verify_algo *al = verify_find_algo(name, false);
    size_t *sizes = NULL, count = 0;
    assert_non_null(al);
    assert_int_equal(verify_default_sizes(max_n, seed, &sizes, &count), SL_OK);
    for (int t = 0; t < SL_TYPE_COUNT; t++)
        for (size_t k = 0; k < count; k++) {
            verify_case c = {.algo = al, .backend = SL_SIM, .type = (sl_type)t, .op = SL_ADD,
                             .dist = verify_default_dist((sl_type)t), .n = sizes[k], .seed = seed,
                             .repeat = 1, .block = block, .param = param};
            verify_case_result r;
            if (verify_run_case(&c, &r) != SL_OK)
                fail_msg("%s type %d n=%zu block %d param %d: %s (where %d, index %zu)", name, t, sizes[k],
                         block, param, sl_status_str(r.status), (int)r.where, r.mismatch.index);
        }
    free(sizes);
}

/* 32-element tiles up to 1100: up to 35 tiles, past one look-back window */
static void test_compact_sizes(void **state) { (void)state; sweep("compact", 1100, 32, 1); }
static void test_partition_sizes(void **state) { (void)state; sweep("partition", 1100, 64, 3); }
/* the default tile (one tile up to 3072 4-byte elements) */
static void test_default_tile(void **state)
{
    (void)state;
    sweep("compact", 300, 0, 0);
    sweep("partition", 300, 0, 0);
}

/* i32 values 0 .. n-1 with tiles of 32: compact keeps the odd ones in
 * order; partition puts them first, then the even ones from the last down
 * to 0. */
static void test_by_hand(void **state)
{
    (void)state;
    enum { N = 1001 };
    static int32_t in[N], want_c[N], want_p[N];
    size_t kept = 0;
    for (int i = 0; i < N; i++) {
        in[i] = i;
        if (i % 2)
            want_c[kept++] = i;
    }
    memcpy(want_p, want_c, kept * sizeof *want_p);
    for (size_t j = kept; j < N; j++) /* the even values, largest first */
        want_p[j] = (int32_t)(2 * (N - 1 - j));
    const int geoms[][2] = {{32, 1}, {96, 5}, {0, 0}};
    for (size_t g = 0; g < sizeof geoms / sizeof geoms[0]; g++) {
        app_run r = apps_run("compact", SL_SIM, SL_I32, in, N, geoms[g][0], geoms[g][1], NULL);
        assert_int_equal(r.status, SL_OK);
        assert_int_equal(apps_count(r.out), kept);
        assert_memory_equal(r.out + SL_APP_HEADER_BYTES, want_c, kept * sizeof *want_c);
        free(r.out);
        r = apps_run("partition", SL_SIM, SL_I32, in, N, geoms[g][0], geoms[g][1], NULL);
        assert_int_equal(r.status, SL_OK);
        assert_int_equal(apps_count(r.out), kept);
        assert_memory_equal(r.out + SL_APP_HEADER_BYTES, want_p, sizeof want_p);
        free(r.out);
    }
}

/* Nothing kept, then everything kept, over many tiles: f64 (8-byte
 * status words and elements). */
static void test_none_and_all(void **state)
{
    (void)state;
    enum { N = 777 };
    static double neg[N], pos[N], rev[N];
    for (int i = 0; i < N; i++) {
        neg[i] = i % 3 == 0 ? -0.0 : -(double)i;
        pos[i] = (double)i + 0.25;
    }
    for (int i = 0; i < N; i++)
        rev[i] = neg[N - 1 - i];
    for (int p = 0; p < 2; p++) {
        const char *name = p ? "partition" : "compact";
        app_run r = apps_run(name, SL_SIM, SL_F64, neg, N, 32, 2, NULL);
        assert_int_equal(r.status, SL_OK);
        assert_int_equal(apps_count(r.out), 0);
        if (p) /* nothing kept: the input reversed */
            assert_memory_equal(r.out + SL_APP_HEADER_BYTES, rev, sizeof rev);
        free(r.out);
        r = apps_run(name, SL_SIM, SL_F64, pos, N, 32, 2, NULL);
        assert_int_equal(apps_count(r.out), N);
        assert_memory_equal(r.out + SL_APP_HEADER_BYTES, pos, sizeof pos);
        free(r.out);
    }
}

/* Blocks that are not a multiple of 32 or pass 512 threads, and item
 * counts past the type's register tile, are refused. */
static void test_bad_geometry(void **state)
{
    (void)state;
    const int32_t x[4] = {1, 2, 3, 4};
    const int bad[][2] = {{17, 0}, {544, 0}, {1024, 0}, {32, 25}, {-32, 0}, {32, -1}};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
        for (int p = 0; p < 2; p++) {
            app_run r = apps_run(p ? "partition" : "compact", SL_SIM, SL_I32, x, 4, bad[k][0], bad[k][1], NULL);
            assert_int_equal(r.status, SL_ERR_ARG);
            free(r.out);
        }
}

/* The pass's shape: one launch of one block per tile, the input loaded
 * once (n element loads, no more), the outputs stored once, no race or
 * barrier divergence; the tiles' look-backs read status words (strong
 * loads). */
static void test_one_pass(void **state)
{
    (void)state;
    enum { N = 2000, BLOCK = 32, ITEMS = 2 };
    static int32_t x[N];
    verify_rng g;
    verify_rng_seed(&g, seed);
    for (int i = 0; i < N; i++)
        x[i] = (int32_t)verify_rng_next(&g);
    for (int p = 0; p < 2; p++) {
        const char *name = p ? "partition" : "compact";
        model_stats s;
        model_stats_init(&s);
        app_run r = apps_run(name, SL_SIM, SL_I32, x, N, BLOCK, ITEMS, &s);
        assert_int_equal(r.status, SL_OK);
        assert_true(apps_matches_reference(name, SL_I32, x, N, 0, &r));
        const uint64_t kept = apps_count(r.out), tiles = (N + BLOCK * ITEMS - 1) / (BLOCK * ITEMS);
        assert_int_equal(s.launches, 1);
        assert_int_equal(s.blocks, tiles);
        assert_int_equal(s.races, 0);
        assert_int_equal(s.barrier_divergence, 0);
        assert_int_equal(s.deadlocks, 0);
        assert_true(s.global_polls > 0);
        /* element loads: the input, plus the status words' polls and the tickets */
        assert_true(s.global_load_elems >= N);
        assert_true(s.global_load_elems - N <= s.global_polls + tiles);
        /* element stores: each output once, the count once, each tile's A and P words, the
         * ticket reset */
        const uint64_t outs = p ? N : kept;
        assert_true(s.global_store_elems >= outs + 1);
        assert_true(s.global_store_elems <= outs + 1 + 2 * tiles + 1);
        free(r.out);
        model_stats_free(&s);
    }
}

/* radix-sort: 4-bit digits over tiles of 32 threads (512 keys of 4 bytes,
 * 256 of 8), 3-bit digits (a last digit of 2 bits for 32-bit keys, 1 for
 * 64-bit ones), and the default (256 threads, 8-bit digits) over three
 * tiles. */
static void test_sort_sizes(void **state) { (void)state; sweep("radix-sort", 700, 32, 4); }

static void test_sort_digits(void **state)
{
    (void)state;
    enum { N = 9000 };
    static float f[N];
    static int64_t q[N];
    const float fv[] = {-0.0f, 0.0f, -1.0f, 1.0f, 2.5f, -2.5f, -INFINITY, INFINITY, 1e-45f, -1e-45f};
    verify_rng g;
    verify_rng_seed(&g, seed);
    for (int i = 0; i < N; i++) {
        f[i] = fv[verify_rng_below(&g, sizeof fv / sizeof fv[0])];
        q[i] = (int64_t)verify_rng_next(&g) >> (i % 40);
    }
    const int geoms[][3] = {{32, 3, 1000}, {64, 5, 2000}, {0, 0, N}}; /* block, bits, n */
    for (size_t k = 0; k < sizeof geoms / sizeof geoms[0]; k++) {
        const size_t n = (size_t)geoms[k][2];
        app_run r = apps_run("radix-sort", SL_SIM, SL_F32, f, n, geoms[k][0], geoms[k][1], NULL);
        assert_int_equal(r.status, SL_OK);
        assert_int_equal(apps_count(r.out), n);
        assert_true(apps_matches_reference("radix-sort", SL_F32, f, n, geoms[k][1], &r));
        free(r.out);
        if (k == 2)
            continue; /* 64-bit keys at the default: 8 passes of 3 tiles, slow to simulate */
        r = apps_run("radix-sort", SL_SIM, SL_I64, q, n, geoms[k][0], geoms[k][1], NULL);
        assert_int_equal(r.status, SL_OK);
        assert_true(apps_matches_reference("radix-sort", SL_I64, q, n, geoms[k][1], &r));
        free(r.out);
    }
    /* a block must hold a thread per digit value */
    app_run r = apps_run("radix-sort", SL_SIM, SL_I32, q, 100, 32, 8, NULL);
    assert_int_equal(r.status, SL_ERR_ARG);
    free(r.out);
}

/* pack over tiles of 32 x 24 (4-byte) or 32 x 12 (8-byte) items, K = 4
 * and K = 255 (up to 255 records an item). */
static void test_pack_sizes(void **state)
{
    (void)state;
    sweep("pack", 1100, 32, 0);
    sweep("pack", 300, 64, 255);
}

int main(void)
{
    seed = test_seed();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compact_sizes), cmocka_unit_test(test_partition_sizes),
        cmocka_unit_test(test_default_tile),  cmocka_unit_test(test_by_hand),
        cmocka_unit_test(test_none_and_all),  cmocka_unit_test(test_bad_geometry),
        cmocka_unit_test(test_one_pass),      cmocka_unit_test(test_sort_sizes),
        cmocka_unit_test(test_sort_digits),   cmocka_unit_test(test_pack_sizes),
    };
    return cmocka_run_group_tests_name("kernels_apps_single_pass", tests, NULL, NULL);
}
