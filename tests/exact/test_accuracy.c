/* Accuracy statistics on hand-computed cases, the compensated scan, and the
 * float input generators (the condition number that illcond reaches). */
#include <inttypes.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>
#include "tap.h"

#include "verify/harness/accuracy.h"
#include "verify/harness/accuracy_inputs.h"
#include "verify/harness/compensated.h"
#include "verify/harness/ref_exact.h"
#include "verify/harness/rng.h"

static uint64_t seed;

static void test_ulp(void **state)
{
    (void)state;
    assert_true(verify_accuracy_ulp(SL_F32, 1.0) == 0x1p-23);
    assert_true(verify_accuracy_ulp(SL_F32, -1.75) == 0x1p-23);
    assert_true(verify_accuracy_ulp(SL_F32, 2.0) == 0x1p-22);
    assert_true(verify_accuracy_ulp(SL_F32, 0x1p-126) == 0x1p-149);
    assert_true(verify_accuracy_ulp(SL_F32, 0x1p-140) == 0x1p-149);
    assert_true(verify_accuracy_ulp(SL_F32, 0.0) == 0x1p-149);
    assert_true(verify_accuracy_ulp(SL_F32, 0x1.fffffep127) == 0x1p104);
    assert_true(verify_accuracy_ulp(SL_F64, 1.0) == 0x1p-52);
    assert_true(verify_accuracy_ulp(SL_F64, 0.0) == 0x1p-1074);
    assert_true(verify_accuracy_ulp(SL_F64, 0x1p-1022) == 0x1p-1074);
    assert_true(verify_accuracy_ulp(SL_F64, 1e300) == 0x1p944); /* 1e300 is in [2^996, 2^997) */
}

/* Four prefixes worked out by hand:
 *   exact 1, got 1:              0 ulps, eta 0
 *   exact 2, got 2 + 2^-22:      1 ulp (ulp(2) = 2^-22), eta 2^-22 / (2^-24 * 2) = 2
 *   exact 0, got 2^-149:         1 ulp (the smallest subnormal), eta 2^-149 / (2^-24 * 4) = 2^-127
 *   exact 4, got 4 - 2^-21:      1 ulp (ulp(4) = 2^-21), eta 2^-21 / (2^-24 * 8) = 1
 * max ulps 1, median ulps (1 + 1) / 2 = 1, max eta 2, median eta
 * (2^-127 + 1) / 2, rms eta sqrt((0 + 4 + 2^-254 + 1) / 4) = sqrt(5) / 2. */
static void test_stats_by_hand(void **state)
{
    (void)state;
    const float exact[] = {1.0f, 2.0f, 0.0f, 4.0f};
    const float got[] = {1.0f, 2.0f + 0x1p-22f, 0x1p-149f, 4.0f - 0x1p-21f};
    const double abs[] = {1.0, 2.0, 4.0, 8.0};
    double ulps[4], eta[4];
    verify_accuracy_errors(SL_F32, got, exact, abs, 4, ulps, eta);
    assert_true(ulps[0] == 0.0 && ulps[1] == 1.0 && ulps[2] == 1.0 && ulps[3] == 1.0);
    assert_true(eta[0] == 0.0 && eta[1] == 2.0 && eta[2] == 0x1p-127 && eta[3] == 1.0);
    verify_accuracy_stats s;
    verify_accuracy_summarize(ulps, eta, 4, &s);
    assert_true(s.max_ulps == 1.0);
    assert_true(s.median_ulps == 1.0);
    assert_true(s.max_eta == 2.0);
    assert_true(s.median_eta == (0x1p-127 + 1.0) / 2);
    assert_true(fabs(s.rms_eta - sqrt(5.0) / 2) < 1e-15);
    /* Odd count: the middle value. */
    double u3[] = {5.0, 1.0, 3.0}, e3[] = {0.5, 0.25, 0.125};
    verify_accuracy_summarize(u3, e3, 3, &s);
    assert_true(s.median_ulps == 3.0 && s.median_eta == 0.25 && s.max_eta == 0.5);
    /* Nothing to summarise. */
    verify_accuracy_summarize(u3, e3, 0, &s);
    assert_true(s.max_ulps == 0 && s.median_eta == 0 && s.rms_eta == 0);
}

static void test_errors_specials(void **state)
{
    (void)state;
    const double exact[] = {INFINITY, NAN, 1.0, 0.0, 0.0, -INFINITY};
    const double got[] = {INFINITY, NAN, NAN, 0.0, 0x1p-1074, INFINITY};
    const double abs[] = {INFINITY, NAN, 1.0, 0.0, 0.0, INFINITY};
    double ulps[6], eta[6];
    verify_accuracy_errors(SL_F64, got, exact, abs, 6, ulps, eta);
    assert_true(ulps[0] == 0 && eta[0] == 0);               /* the same infinity */
    assert_true(ulps[1] == 0 && eta[1] == 0);               /* NaN where NaN is right */
    assert_true(isinf(ulps[2]) && isinf(eta[2]));           /* NaN where 1 is right */
    assert_true(ulps[3] == 0 && eta[3] == 0);               /* 0 of nothing */
    assert_true(ulps[4] == 1.0 && isinf(eta[4]));           /* error on a zero scale */
    assert_true(isinf(ulps[5]) && isinf(eta[5]));           /* the wrong infinity */
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The selection-based median against a sort, on random arrays with many
 * repeated values, sorted and reversed arrays. */
static void test_median_vs_sort(void **state)
{
    (void)state;
    verify_rng r;
    verify_rng_seed(&r, seed);
    for (int trial = 0; trial < 300; trial++) {
        size_t m = 1 + verify_rng_below(&r, 200);
        double *a = malloc(m * sizeof *a), *b = malloc(m * sizeof *b), *c = malloc(m * sizeof *c);
        uint64_t distinct = 1 + verify_rng_below(&r, trial % 2 ? 5 : 1000);
        for (size_t i = 0; i < m; i++)
            a[i] = (double)verify_rng_below(&r, distinct);
        if (trial % 7 == 3)
            qsort(a, m, sizeof *a, cmp_double);
        if (trial % 7 == 4)
            for (size_t i = 0; i < m; i++)
                a[i] = (double)(m - i);
        memcpy(b, a, m * sizeof *a);
        memcpy(c, a, m * sizeof *a);
        qsort(b, m, sizeof *b, cmp_double);
        double want = m % 2 ? b[m / 2] : b[m / 2 - 1] / 2 + b[m / 2] / 2;
        verify_accuracy_stats s;
        verify_accuracy_summarize(a, c, m, &s);
        if (s.median_ulps != want || s.median_eta != want || s.max_ulps != b[m - 1])
            fail_msg("seed %" PRIu64 " trial %d: median %g, want %g", seed, trial, s.median_ulps,
                     want);
        free(a);
        free(b);
        free(c);
    }
}

static size_t log_depth(const sl_scan_args *a, size_t i)
{
    (void)a;
    size_t d = 0;
    while (((size_t)1 << d) < i + 1)
        d++;
    return d; /* ceil(log2(i + 1)), Kogge-Stone */
}

static void test_depth_and_bound(void **state)
{
    (void)state;
    verify_algo seq = {.name = "s", .kind = SL_KIND_SCAN};
    verify_algo ks = {.name = "k", .kind = SL_KIND_SCAN, .depth = log_depth};
    sl_scan_args args = {.type = SL_F32, .op = SL_ADD, .n = 5};
    assert_int_equal(verify_accuracy_depth_bound(&seq, &args), 4);
    args.exclusive = true;
    assert_int_equal(verify_accuracy_depth_bound(&seq, &args), 3);
    args.n = 1;
    assert_int_equal(verify_accuracy_depth_bound(&seq, &args), 0);
    args.n = 0;
    assert_int_equal(verify_accuracy_depth_bound(&seq, &args), 0);
    args.n = 9;
    args.exclusive = false;
    assert_int_equal(verify_accuracy_depth_bound(&ks, &args), 4);
    /* D = 10 in f32: gamma_10 / u + 1 = 10 / (1 - 10 * 2^-24) + 1 ~ 11.000006. */
    assert_true(verify_accuracy_within_bound(SL_F32, 11.0, 10));
    assert_true(verify_accuracy_within_bound(SL_F32, 11.000005, 10));
    assert_false(verify_accuracy_within_bound(SL_F32, 11.0001, 10));
    assert_false(verify_accuracy_within_bound(SL_F64, INFINITY, 10));
    assert_true(verify_accuracy_within_bound(SL_F32, 1e30, (size_t)1 << 24)); /* D u >= 1 */
}

/* The whole path on the smallest interesting input: [1, 2^-24, 2^-24] in
 * f32. Left to right, 1 + 2^-24 ties back to 1 twice; exactly, the third
 * prefix is 1 + 2^-23. So the sequential scan is 1 ulp off at prefix 2 with
 * eta = 2^-23 / (2^-24 (1 + 2^-23)) = 2 / (1 + 2^-23); the compensated scan
 * is exact. */
static void test_sequential_vs_compensated(void **state)
{
    (void)state;
    const float x[] = {1.0f, 0x1p-24f, 0x1p-24f};
    float exact[3], got[3];
    double abs[3], ulps[3], eta[3];
    assert_int_equal(verify_exact_scan(SL_F32, false, x, 3, exact, abs), SL_OK);
    assert_true(exact[2] == 1.0f + 0x1p-23f);
    const verify_algo *seq = verify_find_algo("sequential", false);
    const verify_algo *comp = verify_find_algo("compensated", false);
    assert_non_null(seq);
    assert_non_null(comp);
    sl_scan_args args = {.type = SL_F32, .op = SL_ADD, .in = x, .out = got, .n = 3};
    assert_int_equal(seq->run[SL_SEQ](&args), SL_OK);
    verify_accuracy_errors(SL_F32, got, exact, abs, 3, ulps, eta);
    assert_true(ulps[0] == 0 && ulps[1] == 0 && ulps[2] == 1.0);
    assert_true(eta[2] == 2.0 / (1.0 + 0x1p-23));
    assert_int_equal(comp->run[SL_SEQ](&args), SL_OK);
    assert_memory_equal(got, exact, sizeof got);
    /* Not float add: unsupported, never a wrong answer. */
    args.op = SL_MAX;
    assert_int_equal(comp->run[SL_SEQ](&args), SL_ERR_UNSUPPORTED);
    args.op = SL_ADD;
    args.type = SL_I32;
    assert_int_equal(comp->run[SL_SEQ](&args), SL_ERR_UNSUPPORTED);
}

static void test_compensated(void **state)
{
    (void)state;
    /* Past 2^24 the compensation carries what the float sum drops:
     * 2^24 + 1 ties to 2^24, 2^24 + 2 is exact, 2^24 + 3 ties to 2^24 + 4. */
    float x[] = {0x1p24f, 1.0f, 1.0f, 1.0f};
    float out[4];
    assert_int_equal(verify_compensated_scan(SL_F32, false, x, out, 4), SL_OK);
    assert_true(out[1] == 0x1p24f && out[2] == 0x1p24f + 2.0f && out[3] == 0x1p24f + 4.0f);
    assert_int_equal(verify_compensated_scan(SL_F32, true, x, x, 4), SL_OK); /* in place */
    assert_true(x[0] == 0.0f && x[1] == 0x1p24f && x[2] == 0x1p24f && x[3] == 0x1p24f + 2.0f);
    /* Infinities follow IEEE: the sum stays infinite, never NaN from c. */
    const double d[] = {1.0, INFINITY, 1.0, -INFINITY};
    double od[4];
    assert_int_equal(verify_compensated_scan(SL_F64, false, d, od, 4), SL_OK);
    assert_true(od[0] == 1.0 && isinf(od[1]) && isinf(od[2]) && isnan(od[3]));
    /* On random inputs it is within one ulp of the exact prefix (n small
     * enough that the compensation itself stays exact to first order). */
    enum { N = 4096 };
    double *in = malloc(N * sizeof *in), *got = malloc(N * sizeof *got), *ex = malloc(N * sizeof *ex);
    assert_int_equal(verify_accuracy_fill(SL_F64, ACC_DIST_NORMAL, 1.0, seed, N, in), SL_OK);
    assert_int_equal(verify_compensated_scan(SL_F64, false, in, got, N), SL_OK);
    assert_int_equal(verify_exact_scan(SL_F64, false, in, N, ex, NULL), SL_OK);
    for (size_t i = 0; i < N; i++)
        if (fabs(got[i] - ex[i]) > verify_accuracy_ulp(SL_F64, ex[i]))
            fail_msg("seed %" PRIu64 " prefix %zu: %a vs exact %a", seed, i, got[i], ex[i]);
    free(in);
    free(got);
    free(ex);
}

static void test_inputs(void **state)
{
    (void)state;
    enum { N = 2000 };
    float *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
    for (int d = 0; d < ACC_DIST_COUNT; d++) {
        assert_int_equal(verify_accuracy_fill(SL_F32, (accuracy_dist)d, 1e6, seed, N, a), SL_OK);
        assert_int_equal(verify_accuracy_fill(SL_F32, (accuracy_dist)d, 1e6, seed, N, b), SL_OK);
        assert_memory_equal(a, b, N * sizeof *a); /* a function of the seed */
        for (size_t i = 0; i < N; i++) {
            assert_true(isfinite(a[i]));
            if (d == ACC_DIST_UNIFORM01)
                assert_true(a[i] >= 0.0f && a[i] <= 1.0f);
            if (d == ACC_DIST_UNIFORM11)
                assert_true(a[i] >= -1.0f && a[i] <= 1.0f);
            if (d == ACC_DIST_LOGNORMAL)
                assert_true(a[i] > 0.0f);
            if (d == ACC_DIST_ONES)
                assert_true(a[i] == 1.0f);
        }
        accuracy_dist back;
        assert_int_equal(verify_accuracy_parse_dist(verify_accuracy_dist_name((accuracy_dist)d), &back, NULL, 0),
                         SL_OK);
        assert_int_equal(back, d);
    }
    accuracy_dist dd;
    char why[256];
    assert_int_equal(verify_accuracy_parse_dist("gauss", &dd, why, sizeof why), SL_ERR_ARG);
    assert_non_null(strstr(why, "unknown distribution 'gauss' (valid: uniform01"));
    assert_int_equal(verify_accuracy_fill(SL_I32, ACC_DIST_ONES, 1.0, seed, N, a), SL_ERR_ARG);
    assert_int_equal(verify_accuracy_fill(SL_F32, ACC_DIST_ILLCOND, 0.5, seed, N, a), SL_ERR_ARG);
    free(a);
    free(b);
}

/* The condition number sum|x| / |sum x| of the generated input, measured
 * exactly, lands within a factor of 4 of the one asked for. */
static void test_illcond_reaches_cond(void **state)
{
    (void)state;
    enum { N = 1000 };
    double *x = malloc(N * sizeof *x), *s = malloc(N * sizeof *s), *abs = malloc(N * sizeof *abs);
    const struct {
        sl_type t;
        double cond;
    } cases[] = {{SL_F64, 1e4}, {SL_F64, 1e12}, {SL_F64, 1e30}, {SL_F32, 1e5}, {SL_F32, 1e20}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (uint64_t k = 0; k < 5; k++) {
            assert_int_equal(verify_accuracy_fill(cases[c].t, ACC_DIST_ILLCOND, cases[c].cond,
                                                  seed + k, N, x),
                             SL_OK);
            assert_int_equal(verify_exact_scan(cases[c].t, false, x, N, s, abs), SL_OK);
            double total = cases[c].t == SL_F32 ? ((float *)s)[N - 1] : s[N - 1];
            double got = abs[N - 1] / fabs(total);
            double ratio = got / cases[c].cond;
            if (!(ratio > 0.25 && ratio < 4.0))
                fail_msg("seed %" PRIu64 " case %zu: cond %g asked, %g made", seed + k, c,
                         cases[c].cond, got);
        }
    free(x);
    free(s);
    free(abs);
}

int main(void)
{
    const char *env = getenv("SCANLAB_SEED");
    seed = env && *env ? strtoull(env, NULL, 10) : (uint64_t)time(NULL);
    printf("# seed %" PRIu64 " (set SCANLAB_SEED to replay)\n", seed);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ulp),
        cmocka_unit_test(test_stats_by_hand),
        cmocka_unit_test(test_errors_specials),
        cmocka_unit_test(test_median_vs_sort),
        cmocka_unit_test(test_depth_and_bound),
        cmocka_unit_test(test_sequential_vs_compensated),
        cmocka_unit_test(test_compensated),
        cmocka_unit_test(test_inputs),
        cmocka_unit_test(test_illcond_reaches_cond),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
