/* The application kernels (compact-3phase, partition-3phase,
 * radix-sort-3phase, pack-3phase; the single-pass ones in test_apps_single_pass.c)
 * in the simulator: against the sequential references through the harness
 * on the standard sizes, on edge cases checked against hand-built
 * expectations, with odd block sizes and every parameter range, and their
 * simulator counts (work, steps, barriers) against closed forms. */
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

static const char *const apps[] = {"compact-3phase", "partition-3phase", "radix-sort-3phase", "pack", "compact",
                                   "partition", "radix-sort", "pack-3phase"};
enum { NAPPS = sizeof apps / sizeof apps[0] };

/* --- against the references, through the harness -------------------------- */

/* Every type, the default distribution and the standard sizes up to max_n
 * (edges around warps, tiles and powers of two, and random sizes). */
static void sweep(const char *name, size_t max_n)
{
    const verify_algo *al = verify_find_algo(name, false);
    size_t *sizes = NULL, count = 0;
    assert_non_null(al);
    assert_int_equal(verify_default_sizes(max_n, seed, &sizes, &count), SL_OK);
    for (int t = 0; t < SL_TYPE_COUNT; t++)
        for (size_t k = 0; k < count; k++) {
            verify_case c = {.algo = al, .backend = SL_SIM, .type = (sl_type)t, .op = SL_ADD,
                             .dist = verify_default_dist((sl_type)t), .n = sizes[k], .seed = seed,
                             .repeat = 1};
            verify_case_result r;
            if (verify_run_case(&c, &r) != SL_OK)
                fail_msg("%s type %d n=%zu: %s (where %d, index %zu)", name, t, sizes[k],
                         sl_status_str(r.status), (int)r.where, r.mismatch.index);
        }
    free(sizes);
}

static void test_compact_sizes(void **state) { (void)state; sweep("compact-3phase", 1100); }
static void test_partition_sizes(void **state) { (void)state; sweep("partition-3phase", 1100); }
static void test_sort_sizes(void **state) { (void)state; sweep("radix-sort-3phase", 300); }
static void test_pack_sizes(void **state) { (void)state; sweep("pack-3phase", 1100); }

/* Other operators are not applications' business: the harness skips them. */
static void test_other_ops_skip(void **state)
{
    (void)state;
    verify_case c = {.algo = verify_find_algo("compact", false), .backend = SL_SIM, .type = SL_I32,
                     .op = SL_MAX, .dist = VERIFY_DIST_SMALL, .n = 10, .seed = seed, .repeat = 1};
    verify_case_result r;
    assert_int_equal(verify_run_case(&c, &r), SL_ERR_UNSUPPORTED);
}

/* --- edge cases ------------------------------------------------------------- */

static void test_empty(void **state)
{
    (void)state;
    for (int a = 0; a < NAPPS; a++)
        for (int t = 0; t < SL_TYPE_COUNT; t++) {
            app_run r = apps_run(apps[a], SL_SIM, (sl_type)t, NULL, 0, 0, 0, NULL);
            assert_int_equal(r.status, SL_OK);
            assert_int_equal(apps_count(r.out), 0);
            free(r.out);
        }
}

/* No element kept, then every element kept: counts 0 and n, and the
 * outputs follow from the input alone. */
static void test_none_and_all_kept(void **state)
{
    (void)state;
    enum { N = 1000 };
    static int32_t even[N], odd[N];
    static float neg[N], pos[N];
    for (int i = 0; i < N; i++) {
        even[i] = 2 * (i - N / 2);
        odd[i] = 2 * (i - N / 2) + 1;
        neg[i] = i % 3 == 0 ? -0.0f : -(float)i;
        pos[i] = (float)i + 0.5f;
    }
    const int blocks[] = {0, 96, 17};
    for (size_t k = 0; k < sizeof blocks / sizeof blocks[0]; k++)
        for (int p = 0; p < 2; p++) {
            const char *name = p ? "partition-3phase" : "compact-3phase";
            app_run r = apps_run(name, SL_SIM, SL_I32, even, N, blocks[k], 0, NULL);
            assert_int_equal(r.status, SL_OK);
            assert_int_equal(apps_count(r.out), 0);
            if (p) /* nothing kept: the others are the input, in order */
                assert_memory_equal(r.out + SL_APP_HEADER_BYTES, even, sizeof even);
            free(r.out);
            r = apps_run(name, SL_SIM, SL_I32, odd, N, blocks[k], 0, NULL);
            assert_int_equal(apps_count(r.out), N);
            assert_memory_equal(r.out + SL_APP_HEADER_BYTES, odd, sizeof odd);
            free(r.out);
            r = apps_run(name, SL_SIM, SL_F32, neg, N, blocks[k], 0, NULL);
            assert_int_equal(apps_count(r.out), 0);
            if (p)
                assert_memory_equal(r.out + SL_APP_HEADER_BYTES, neg, sizeof neg);
            free(r.out);
            r = apps_run(name, SL_SIM, SL_F32, pos, N, blocks[k], 0, NULL);
            assert_int_equal(apps_count(r.out), N);
            assert_memory_equal(r.out + SL_APP_HEADER_BYTES, pos, sizeof pos);
            free(r.out);
        }
}

/* Partition by hand: kept (odd) first, then the rest, both in order. */
static void test_partition_by_hand(void **state)
{
    (void)state;
    const int64_t in[] = {4, -3, 7, 0, -8, 9, 9, 2};
    const int64_t want[] = {-3, 7, 9, 9, 4, 0, -8, 2};
    app_run r = apps_run("partition-3phase", SL_SIM, SL_I64, in, 8, 2, 0, NULL);
    assert_int_equal(r.status, SL_OK);
    assert_int_equal(apps_count(r.out), 4);
    assert_memory_equal(r.out + SL_APP_HEADER_BYTES, want, sizeof want);
    free(r.out);
}

/* Sorting keys with many duplicates, both zeros and the extremes: the
 * result is ascending in the total order (-0.0 before +0.0), and a
 * permutation of the input (it matches the reference, whose only freedom
 * would be the order of equal bit patterns). */
static void test_sort_duplicates_and_zeros(void **state)
{
    (void)state;
    enum { N = 300 };
    static float f[N];
    static int64_t q[N];
    const float fv[] = {-0.0f, 0.0f, -1.0f, 1.0f, 2.5f, -2.5f, -INFINITY, INFINITY, 1e-45f, -1e-45f};
    const int64_t qv[] = {INT64_MIN, INT64_MAX, -1, 0, 1, 42, -42};
    verify_rng g;
    verify_rng_seed(&g, seed);
    for (int i = 0; i < N; i++) {
        f[i] = fv[verify_rng_below(&g, sizeof fv / sizeof fv[0])];
        q[i] = qv[verify_rng_below(&g, sizeof qv / sizeof qv[0])];
    }
    /* block, bits; i64 (64-bit keys) runs the first two only */
    const int params[][2] = {{0, 0}, {96, 8}, {17, 3}, {64, 1}, {1024, 5}};
    for (size_t k = 0; k < sizeof params / sizeof params[0]; k++) {
        app_run r = apps_run("radix-sort-3phase", SL_SIM, SL_F32, f, N, params[k][0], params[k][1], NULL);
        assert_int_equal(r.status, SL_OK);
        assert_int_equal(apps_count(r.out), N);
        const float *y = (const float *)(const void *)(r.out + SL_APP_HEADER_BYTES);
        for (int i = 1; i < N; i++) {
            assert_true(y[i - 1] <= y[i]);
            if (y[i] == 0.0f && y[i - 1] == 0.0f) /* -0.0 never after +0.0 */
                assert_true(signbit(y[i - 1]) || !signbit(y[i]));
        }
        assert_true(apps_matches_reference("radix-sort-3phase", SL_F32, f, N, params[k][1], &r));
        free(r.out);
        if (k >= 2)
            continue;
        r = apps_run("radix-sort-3phase", SL_SIM, SL_I64, q, N, params[k][0], params[k][1], NULL);
        assert_int_equal(r.status, SL_OK);
        const int64_t *z = (const int64_t *)(const void *)(r.out + SL_APP_HEADER_BYTES);
        assert_true(z[0] == INT64_MIN || z[0] == -42);
        for (int i = 1; i < N; i++)
            assert_true(z[i - 1] <= z[i]);
        assert_true(apps_matches_reference("radix-sort-3phase", SL_I64, q, N, params[k][1], &r));
        free(r.out);
    }
}

/* pack with c_i = 0 everywhere (all zeros), then c_i = K everywhere: the
 * records are then (i, 0) .. (i, K-1) at K i .. K i + K - 1. */
static void test_pack_zero_and_full(void **state)
{
    (void)state;
    enum { N = 600 };
    static double zeros[N];
    static int32_t full[N];
    memset(zeros, 0, sizeof zeros);
    const int ks[] = {0, 1, 4, 7, 255};
    for (size_t k = 0; k < sizeof ks / sizeof ks[0]; k++) {
        const unsigned K = sl_app_pack_k(ks[k]);
        app_run r = apps_run("pack-3phase", SL_SIM, SL_F64, zeros, N, 96, ks[k], NULL);
        assert_int_equal(r.status, SL_OK);
        assert_int_equal(apps_count(r.out), 0);
        free(r.out);
        for (int i = 0; i < N; i++)
            full[i] = (int32_t)((K + 1) * (unsigned)i + K); /* bits mod (K + 1) = K */
        r = apps_run("pack-3phase", SL_SIM, SL_I32, full, N, 0, ks[k], NULL);
        assert_int_equal(r.status, SL_OK);
        assert_int_equal(apps_count(r.out), (uint64_t)N * K);
        const int64_t *rec = (const int64_t *)(const void *)(r.out + SL_APP_HEADER_BYTES);
        for (int i = 0; i < N; i++)
            for (unsigned j = 0; j < K; j++)
                assert_int_equal(rec[(size_t)i * K + j], ((int64_t)i << 8) | j);
        free(r.out);
    }
}

/* Blocks out of range and bad parameters are refused, never run. */
static void test_bad_arguments(void **state)
{
    (void)state;
    const int32_t x[4] = {1, 2, 3, 4};
    const int bad_blocks[] = {-1, 1025, 4096};
    for (int a = 0; a < NAPPS; a++)
        for (size_t k = 0; k < sizeof bad_blocks / sizeof bad_blocks[0]; k++) {
            app_run r = apps_run(apps[a], SL_SIM, SL_I32, x, 4, bad_blocks[k], 0, NULL);
            assert_int_equal(r.status, SL_ERR_ARG);
            free(r.out);
        }
    const int bad_bits[] = {-1, 9, 64}, bad_k[] = {-1, 256};
    for (size_t k = 0; k < sizeof bad_bits / sizeof bad_bits[0]; k++) {
        app_run r = apps_run("radix-sort", SL_SIM, SL_I32, x, 4, 0, bad_bits[k], NULL);
        assert_int_equal(r.status, SL_ERR_ARG);
        free(r.out);
    }
    for (size_t k = 0; k < sizeof bad_k / sizeof bad_k[0]; k++) {
        app_run r = apps_run("pack", SL_SIM, SL_I32, x, 4, 0, bad_k[k], NULL);
        assert_int_equal(r.status, SL_ERR_ARG);
        free(r.out);
    }
}

/* --- simulator counts against closed forms ------------------------------------ */

/* The counts of one application run on n random elements of type i32. */
static model_stats measure(const char *name, size_t n, int block, int param)
{
    int32_t *x = malloc((n ? n : 1) * sizeof *x);
    verify_rng g;
    verify_rng_seed(&g, seed);
    for (size_t i = 0; i < n; i++)
        x[i] = (int32_t)verify_rng_next(&g);
    model_stats s;
    model_stats_init(&s);
    app_run r = apps_run(name, SL_SIM, SL_I32, x, n, block, param, &s);
    assert_int_equal(r.status, SL_OK);
    assert_true(apps_matches_reference(name, SL_I32, x, n, param, &r));
    free(r.out);
    free(x);
    return s;
}

static uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

/* One Kogge-Stone block scan of B threads: r = ceil(log2 B) rounds, round
 * d = 1, 2, 4, ... adds into B - d threads: work r B - (2^r - 1), one step
 * and two barriers per round, plus the two barriers that close it. */
typedef struct {
    uint64_t r, work, barriers;
} scan_cost;

static scan_cost block_scan_cost(uint64_t b)
{
    scan_cost c = {0, 0, 0};
    while (((uint64_t)1 << c.r) < b)
        c.r++;
    c.work = c.r * b - (((uint64_t)1 << c.r) - 1);
    c.barriers = 2 * c.r + 2;
    return c;
}

/* The one-block scan of m counts: C = ceil(m / B) chunks, each a block
 * scan plus the carry add of the m written counts and the carry update
 * of all B threads; r + 2 steps per chunk (the two carry adds share an
 * interval). */
static void add_count_scan(uint64_t m, uint64_t b, uint64_t *work, uint64_t *steps, uint64_t *barriers)
{
    scan_cost c = block_scan_cost(b);
    uint64_t chunks = ceil_div(m, b);
    *work += chunks * c.work + m + chunks * b;
    *steps += chunks * (c.r + 2);
    *barriers += chunks * c.barriers;
}

/* compact, partition and pack: a count kernel and a scatter kernel of one
 * block scan per tile around the scan of T + 1 counts. */
static void check_three_phase(const char *name, size_t n, int block)
{
    const uint64_t b = (uint64_t)block, tiles = ceil_div(n, b);
    scan_cost c = block_scan_cost(b);
    uint64_t work = 2 * tiles * c.work, steps = 2 * c.r, barriers = 2 * tiles * c.barriers;
    add_count_scan(tiles + 1, b, &work, &steps, &barriers);
    model_stats s = measure(name, n, block, 0);
    assert_int_equal(s.races, 0);
    assert_int_equal(s.barrier_divergence, 0);
    assert_int_equal(s.work, work);
    assert_int_equal(s.steps, steps);
    assert_int_equal(s.barriers, barriers);
    assert_int_equal(s.launches, 3);
    model_stats_free(&s);
}

static void test_counts_three_phase(void **state)
{
    (void)state;
    check_three_phase("compact-3phase", 1000, 256);
    check_three_phase("partition-3phase", 1000, 256);
    check_three_phase("pack-3phase", 1000, 256);
    check_three_phase("compact-3phase", 5000, 64);  /* the count scan takes two chunks */
    check_three_phase("pack-3phase", 777, 96);      /* not a power of two */
}

/* radix-sort: per pass (32 / bits passes for i32) a histogram and a
 * scatter of ceil(R / 4) block scans per tile around the scan of R T + 1
 * counts. */
static void check_sort(size_t n, int block, int bits)
{
    const uint64_t b = (uint64_t)block, tiles = ceil_div(n, b), radix = (uint64_t)1 << bits;
    const uint64_t groups = ceil_div(radix, 4), passes = ceil_div(32, (uint64_t)bits);
    scan_cost c = block_scan_cost(b);
    uint64_t work = 0, steps = 0, barriers = 0;
    for (uint64_t p = 0; p < passes; p++) {
        work += 2 * tiles * groups * c.work;
        steps += 2 * groups * c.r;
        barriers += 2 * tiles * groups * c.barriers;
        add_count_scan(radix * tiles + 1, b, &work, &steps, &barriers);
    }
    model_stats s = measure("radix-sort-3phase", n, block, bits);
    assert_int_equal(s.races, 0);
    assert_int_equal(s.barrier_divergence, 0);
    assert_int_equal(s.work, work);
    assert_int_equal(s.steps, steps);
    assert_int_equal(s.barriers, barriers);
    assert_int_equal(s.launches, 3 * passes);
    model_stats_free(&s);
}

static void test_counts_sort(void **state)
{
    (void)state;
    check_sort(1000, 256, 4);
    check_sort(300, 64, 8);
    check_sort(200, 32, 1);
}

int main(void)
{
    seed = test_seed();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compact_sizes),
        cmocka_unit_test(test_partition_sizes),
        cmocka_unit_test(test_sort_sizes),
        cmocka_unit_test(test_pack_sizes),
        cmocka_unit_test(test_other_ops_skip),
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_none_and_all_kept),
        cmocka_unit_test(test_partition_by_hand),
        cmocka_unit_test(test_sort_duplicates_and_zeros),
        cmocka_unit_test(test_pack_zero_and_full),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_counts_three_phase),
        cmocka_unit_test(test_counts_sort),
    };
    return cmocka_run_group_tests_name("kernels_apps_sim", tests, NULL, NULL);
}
