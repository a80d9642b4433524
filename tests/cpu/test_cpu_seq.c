/* The sequential references against the definition of a scan, for every
 * (type, operator), size, inclusive and exclusive, in place and not; the
 * identities against their closed forms. SCANLAB_SEED replays a run. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include "tap.h"

#include "cpu/cpu.h"
#include "testlib.h"

/* Guard elements on each side of an output buffer: nothing may touch them. */
#define GUARD 4
#define GUARD_BYTE 0xa5
#define RANDOM_SIZES 4
#define RANDOM_SIZE_MAX 5000

static uint64_t seed;

static const sl_type pair_types[] = {
#define X(C, TN, OPN, TYPE, OP) TYPE,
    SL_FOR_EACH_TYPE_OP(X)
#undef X
};
static const sl_op pair_ops[] = {
#define X(C, TN, OPN, TYPE, OP) OP,
    SL_FOR_EACH_TYPE_OP(X)
#undef X
};
#define PAIRS (sizeof pair_types / sizeof pair_types[0])

static bool guards_intact(const unsigned char *buf, size_t n, size_t size)
{
    for (size_t i = 0; i < GUARD * size; i++)
        if (buf[i] != GUARD_BYTE || buf[(GUARD + n) * size + i] != GUARD_BYTE)
            return false;
    return true;
}

static void check_scan(verify_rng *r, sl_type t, sl_op op, size_t n)
{
    size_t size = SL_TYPE_SIZE(t);
    unsigned char *x = malloc(n * size + 1), *want = malloc(n * size + 1);
    unsigned char *buf = malloc((n + 2 * GUARD) * size);
    assert_non_null(x);
    assert_non_null(want);
    assert_non_null(buf);
    unsigned char *out = buf + GUARD * size;
    testlib_fill(r, t, op, x, n);
    for (int exclusive = 0; exclusive < 2; exclusive++) {
        testlib_naive_scan(t, op, exclusive, x, want, n);
        for (int in_place = 0; in_place < 2; in_place++) {
            memset(buf, GUARD_BYTE, (n + 2 * GUARD) * size);
            if (in_place)
                memcpy(out, x, n * size);
            assert_int_equal(cpu_scan_seq(t, op, exclusive, in_place ? out : x, out, n), SL_OK);
            size_t i = testlib_first_diff(t, op, out, want, n);
            if (i < n || !guards_intact(buf, n, size))
                fail_msg("seq %s pair (%d,%d) n=%zu %s: index %zu got %g want %g (guards %s)",
                         exclusive ? "exclusive" : "inclusive", t, op, n,
                         in_place ? "in place" : "out of place", i, i < n ? testlib_value(t, out, i) : 0,
                         i < n ? testlib_value(t, want, i) : 0, guards_intact(buf, n, size) ? "ok" : "hit");
        }
    }
    free(x);
    free(want);
    free(buf);
}

static void test_seq_scan_matches_definition(void **state)
{
    (void)state;
    verify_rng r;
    verify_rng_seed(&r, seed);
    for (size_t p = 0; p < PAIRS; p++) {
        for (size_t s = 0; s < testlib_size_count; s++)
            check_scan(&r, pair_types[p], pair_ops[p], testlib_sizes[s]);
        for (int k = 0; k < RANDOM_SIZES; k++)
            check_scan(&r, pair_types[p], pair_ops[p], 1 + verify_rng_below(&r, RANDOM_SIZE_MAX));
    }
}

static void test_seq_reduce_matches_definition(void **state)
{
    (void)state;
    verify_rng r;
    verify_rng_seed(&r, seed ^ 1);
    for (size_t p = 0; p < PAIRS; p++) {
        sl_type t = pair_types[p];
        sl_op op = pair_ops[p];
        for (size_t s = 0; s < testlib_size_count; s++) {
            size_t n = testlib_sizes[s], size = SL_TYPE_SIZE(t);
            unsigned char *x = malloc(n * size + 1), got[8], want[8];
            assert_non_null(x);
            testlib_fill(&r, t, op, x, n);
            testlib_naive_reduce(t, op, x, n, want);
            assert_int_equal(cpu_reduce_seq(t, op, x, n, got), SL_OK);
            assert_int_equal(testlib_first_diff(t, op, got, want, 1), 1);
            free(x);
        }
    }
}

/* Closed forms: 1 + 2 + ... + n, and the running maximum of a rising then
 * falling sequence. */
static void test_seq_closed_forms(void **state)
{
    (void)state;
    enum { N = 3000 };
    int64_t x[N], y[N];
    for (int64_t i = 0; i < N; i++)
        x[i] = i + 1;
    assert_int_equal(cpu_scan_seq(SL_I64, SL_ADD, false, x, y, N), SL_OK);
    for (int64_t i = 0; i < N; i++)
        assert_int_equal(y[i], (i + 1) * (i + 2) / 2);
    assert_int_equal(cpu_scan_seq(SL_I64, SL_ADD, true, x, y, N), SL_OK);
    for (int64_t i = 0; i < N; i++)
        assert_int_equal(y[i], i * (i + 1) / 2);
    for (int64_t i = 0; i < N; i++)
        x[i] = i < N / 2 ? i : N - i;
    assert_int_equal(cpu_scan_seq(SL_I64, SL_MAX, false, x, y, N), SL_OK);
    for (int64_t i = 0; i < N; i++)
        assert_int_equal(y[i], i < N / 2 ? i : N / 2);
    double d[4] = {1.5, -0.25, 2.0, 0.125}, e[4];
    assert_int_equal(cpu_scan_seq(SL_F64, SL_ADD, false, d, e, 4), SL_OK);
    assert_true(e[0] == 1.5 && e[1] == 1.25 && e[2] == 3.25 && e[3] == 3.375);
}

/* affine: f0 = x -> 2x + 1, f1 = x -> 3x + 5; f0 then f1 is x -> 6x + 8,
 * while the swapped order would give x -> 6x + 11. */
static void test_seq_affine_order(void **state)
{
    (void)state;
    int64_t f[2] = {(int64_t)((UINT64_C(2) << 32) | 1), (int64_t)((UINT64_C(3) << 32) | 5)}, y[2];
    assert_int_equal(cpu_scan_seq(SL_I64, SL_AFFINE, false, f, y, 2), SL_OK);
    assert_int_equal((uint64_t)y[1], (UINT64_C(6) << 32) | 8);
    int32_t g[2] = {(int32_t)((2u << 16) | 1), (int32_t)((3u << 16) | 5)}, z[2];
    assert_int_equal(cpu_scan_seq(SL_I32, SL_AFFINE, true, g, z, 2), SL_OK);
    assert_int_equal((uint32_t)z[0], 1u << 16);
    assert_int_equal((uint32_t)z[1], (2u << 16) | 1);
    int32_t red;
    assert_int_equal(cpu_reduce_seq(SL_I32, SL_AFFINE, g, 2, &red), SL_OK);
    assert_int_equal((uint32_t)red, (6u << 16) | 8);
}

static void test_identity_closed_forms(void **state)
{
    (void)state;
    int32_t i32;
    int64_t i64;
    float f32;
    double f64;
    assert_int_equal(cpu_identity(SL_I32, SL_ADD, &i32), SL_OK);
    assert_int_equal(i32, 0);
    assert_int_equal(cpu_identity(SL_I32, SL_MAX, &i32), SL_OK);
    assert_int_equal(i32, INT32_MIN);
    assert_int_equal(cpu_identity(SL_I64, SL_MIN, &i64), SL_OK);
    assert_int_equal(i64, INT64_MAX);
    assert_int_equal(cpu_identity(SL_I64, SL_AFFINE, &i64), SL_OK);
    assert_int_equal((uint64_t)i64, UINT64_C(1) << 32);
    assert_int_equal(cpu_identity(SL_I32, SL_AFFINE, &i32), SL_OK);
    assert_int_equal((uint32_t)i32, 1u << 16);
    assert_int_equal(cpu_identity(SL_F32, SL_MAX, &f32), SL_OK);
    assert_true(isinf(f32) && f32 < 0);
    assert_int_equal(cpu_identity(SL_F64, SL_MIN, &f64), SL_OK);
    assert_true(isinf(f64) && f64 > 0);
    assert_int_equal(cpu_identity(SL_F64, SL_ADD, &f64), SL_OK);
    assert_true(f64 == 0.0);
}

/* The identity is neutral on both sides: a scan of {id, x} and {x, id}
 * ends in x for random x. */
static void test_identity_is_neutral(void **state)
{
    (void)state;
    verify_rng r;
    verify_rng_seed(&r, seed ^ 2);
    for (size_t p = 0; p < PAIRS; p++) {
        sl_type t = pair_types[p];
        sl_op op = pair_ops[p];
        size_t size = SL_TYPE_SIZE(t);
        unsigned char v[16], y[16], x[8];
        for (int k = 0; k < 100; k++) {
            testlib_fill(&r, t, op, x, 1);
            assert_int_equal(cpu_identity(t, op, v), SL_OK);
            memcpy(v + size, x, size);
            assert_int_equal(cpu_scan_seq(t, op, false, v, y, 2), SL_OK);
            assert_int_equal(testlib_first_diff(t, op, y + size, x, 1), 1);
            memcpy(v, x, size);
            assert_int_equal(cpu_identity(t, op, v + size), SL_OK);
            assert_int_equal(cpu_scan_seq(t, op, false, v, y, 2), SL_OK);
            assert_int_equal(testlib_first_diff(t, op, y + size, x, 1), 1);
        }
    }
}

static void test_seq_bad_arguments(void **state)
{
    (void)state;
    float x[2] = {1, 2}, y[2];
    int64_t r;
    assert_int_equal(cpu_scan_seq(SL_F32, SL_AFFINE, false, x, y, 2), SL_ERR_ARG);
    assert_int_equal(cpu_scan_seq(SL_TYPE_COUNT, SL_ADD, false, x, y, 2), SL_ERR_ARG);
    assert_int_equal(cpu_scan_seq(SL_F32, SL_OP_COUNT, false, x, y, 2), SL_ERR_ARG);
    assert_int_equal(cpu_scan_seq(SL_F32, SL_ADD, false, NULL, y, 2), SL_ERR_ARG);
    assert_int_equal(cpu_scan_seq(SL_F32, SL_ADD, false, x, NULL, 2), SL_ERR_ARG);
    assert_int_equal(cpu_scan_seq(SL_F32, SL_ADD, false, NULL, NULL, 0), SL_OK);
    assert_int_equal(cpu_reduce_seq(SL_I64, SL_ADD, NULL, 0, &r), SL_OK);
    assert_int_equal(r, 0);
    assert_int_equal(cpu_reduce_seq(SL_I64, SL_ADD, x, 2, NULL), SL_ERR_ARG);
    assert_int_equal(cpu_identity(SL_F64, SL_AFFINE, &r), SL_ERR_ARG);
    assert_int_equal(cpu_identity(SL_F64, SL_ADD, NULL), SL_ERR_ARG);
}

int main(void)
{
    seed = testlib_seed();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seq_scan_matches_definition),
        cmocka_unit_test(test_seq_reduce_matches_definition),
        cmocka_unit_test(test_seq_closed_forms),
        cmocka_unit_test(test_seq_affine_order),
        cmocka_unit_test(test_identity_closed_forms),
        cmocka_unit_test(test_identity_is_neutral),
        cmocka_unit_test(test_seq_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
