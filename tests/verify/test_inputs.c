/* The generator, the input distributions and the default size set. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "tap.h"

#include "seed.h"
#include "verify/harness/inputs.h"
#include "verify/harness/rng.h"
#include "verify/harness/sizes.h"

static uint64_t seed;

enum { N = 4096 };

static void rng_is_reproducible_and_in_range(void **state)
{
    (void)state;
    verify_rng a, b, c;
    verify_rng_seed(&a, seed);
    verify_rng_seed(&b, seed);
    verify_rng_seed(&c, seed + 1);
    int same_as_other_seed = 0;
    double sum = 0.0, sum_sq = 0.0, usum = 0.0;
    for (int i = 0; i < N; i++) {
        uint64_t x = verify_rng_next(&a);
        assert_true(x == verify_rng_next(&b));
        same_as_other_seed += x == verify_rng_next(&c);
        uint64_t k = verify_rng_below(&a, 7);
        assert_true(k < 7);
        double u = verify_rng_unit(&a);
        assert_true(u >= 0.0 && u < 1.0);
        usum += u;
        double z = verify_rng_normal(&a);
        sum += z;
        sum_sq += z * z;
        (void)verify_rng_below(&b, 7), (void)verify_rng_unit(&b), (void)verify_rng_normal(&b);
    }
    assert_true(same_as_other_seed < 2);
    assert_true(verify_rng_below(&a, 0) == 0);
    /* Means within about 6 standard errors of 1/2, 0 and 1. */
    assert_true(fabs(usum / N - 0.5) < 6 * sqrt(1.0 / 12 / N));
    assert_true(fabs(sum / N) < 6 / sqrt(N));
    assert_true(fabs(sum_sq / N - 1.0) < 6 * sqrt(2.0 / N));
    /* Zero is a valid seed (splitmix never gives an all-zero state). */
    verify_rng z;
    verify_rng_seed(&z, 0);
    assert_true(verify_rng_next(&z) != 0 || verify_rng_next(&z) != 0);
}

static void inputs_depend_on_key_not_caller(void **state)
{
    (void)state;
    int32_t a[N], b[N], c[N];
    assert_int_equal(verify_fill_input(SL_I32, SL_ADD, VERIFY_DIST_UNIFORM, seed, N, a), SL_OK);
    /* max and add share inputs (only affine differs): the key has no algorithm in it */
    assert_int_equal(verify_fill_input(SL_I32, SL_MAX, VERIFY_DIST_UNIFORM, seed, N, b), SL_OK);
    assert_memory_equal(a, b, sizeof a);
    assert_int_equal(verify_fill_input(SL_I32, SL_ADD, VERIFY_DIST_UNIFORM, seed + 1, N, c), SL_OK);
    assert_memory_not_equal(a, c, sizeof a);
    /* Another size is another input. */
    assert_int_equal(verify_fill_input(SL_I32, SL_ADD, VERIFY_DIST_UNIFORM, seed, N - 1, c), SL_OK);
    assert_memory_not_equal(a, c, (N - 1) * sizeof a[0]);
}

static void integer_distributions(void **state)
{
    (void)state;
    static int64_t v[N];
    assert_int_equal(verify_fill_input(SL_I64, SL_ADD, VERIFY_DIST_SMALL, seed, N, v), SL_OK);
    int64_t lo = 0, hi = 0;
    for (int i = 0; i < N; i++) {
        lo = v[i] < lo ? v[i] : lo;
        hi = v[i] > hi ? v[i] : hi;
    }
    assert_true(lo >= -100 && hi <= 100);
    assert_true(lo < -90 && hi > 90); /* 4096 draws of 201 values reach near both ends */
    assert_int_equal(verify_fill_input(SL_I64, SL_ADD, VERIFY_DIST_UNIFORM, seed, N, v), SL_OK);
    int big = 0;
    for (int i = 0; i < N; i++)
        big += v[i] > INT64_MAX / 2 || v[i] < INT64_MIN / 2;
    assert_true(big > N / 4); /* the full range: sums wrap around */
}

static void affine_inputs_are_valid_maps(void **state)
{
    (void)state;
    static int32_t v32[N];
    static int64_t v64[N];
    assert_int_equal(verify_fill_input(SL_I32, SL_AFFINE, VERIFY_DIST_UNIFORM, seed, N, v32), SL_OK);
    assert_int_equal(verify_fill_input(SL_I64, SL_AFFINE, VERIFY_DIST_SMALL, seed, N, v64), SL_OK);
    for (int i = 0; i < N; i++) {
        assert_true(((uint32_t)v32[i] >> 16) & 1u); /* odd multiplier */
        uint64_t a = (uint64_t)v64[i] >> 32, b = (uint32_t)v64[i];
        assert_true((a & 1u) && a < 100 && b <= 100);
    }
}

static void float_distributions(void **state)
{
    (void)state;
    static double d[N];
    static float f[N];
    assert_int_equal(verify_fill_input(SL_F64, SL_ADD, VERIFY_DIST_UNIFORM01, seed, N, d), SL_OK);
    for (int i = 0; i < N; i++)
        assert_true(d[i] >= 0.0 && d[i] < 1.0);
    assert_int_equal(verify_fill_input(SL_F32, SL_ADD, VERIFY_DIST_UNIFORM11, seed, N, f), SL_OK);
    int negative = 0;
    for (int i = 0; i < N; i++) {
        assert_true(f[i] >= -1.0f && f[i] <= 1.0f);
        negative += f[i] < 0;
    }
    assert_true(negative > N / 4 && negative < 3 * N / 4);
    assert_int_equal(verify_fill_input(SL_F32, SL_MIN, VERIFY_DIST_ONES, seed, N, f), SL_OK);
    for (int i = 0; i < N; i++)
        assert_true(f[i] == 1.0f);
    assert_int_equal(verify_fill_input(SL_F64, SL_ADD, VERIFY_DIST_LOGNORMAL, seed, N, d), SL_OK);
    double lo = INFINITY, hi = 0.0;
    for (int i = 0; i < N; i++) {
        assert_true(d[i] > 0.0 && isfinite(d[i]));
        lo = fmin(lo, d[i]);
        hi = fmax(hi, d[i]);
    }
    assert_true(hi / lo > ldexp(1.0, 40)); /* a wide exponent range */
    /* illcond: each pair cancels to a residue below 1 although the
     * magnitudes reach 2^20. */
    assert_int_equal(verify_fill_input(SL_F64, SL_ADD, VERIFY_DIST_ILLCOND, seed, N, d), SL_OK);
    double mag = 0.0;
    for (int i = 0; i + 1 < N; i += 2) {
        assert_true(fabs(d[i] + d[i + 1]) <= 1.0 + ldexp(1.0, -20)); /* residue + rounding */
        mag = fmax(mag, fabs(d[i]));
    }
    assert_true(mag >= ldexp(1.0, 15));
}

static void distributions_apply_by_type(void **state)
{
    (void)state;
    assert_true(verify_dist_applies(VERIFY_DIST_UNIFORM, SL_I32));
    assert_false(verify_dist_applies(VERIFY_DIST_UNIFORM, SL_F32));
    assert_true(verify_dist_applies(VERIFY_DIST_ILLCOND, SL_F64));
    assert_false(verify_dist_applies(VERIFY_DIST_ONES, SL_I64));
    assert_int_equal(verify_default_dist(SL_I64), VERIFY_DIST_UNIFORM);
    assert_int_equal(verify_default_dist(SL_F32), VERIFY_DIST_UNIFORM11);
    int32_t x[1];
    assert_int_equal(verify_fill_input(SL_I32, SL_ADD, VERIFY_DIST_NORMAL, seed, 1, x), SL_ERR_ARG);
    assert_int_equal(verify_fill_input(SL_F32, SL_AFFINE, VERIFY_DIST_NORMAL, seed, 1, x), SL_ERR_ARG);
    unsigned mask;
    char why[256];
    assert_int_equal(verify_parse_dist_list("small,illcond", &mask, why, sizeof why), SL_OK);
    assert_int_equal(mask, (1u << VERIFY_DIST_SMALL) | (1u << VERIFY_DIST_ILLCOND));
    assert_int_equal(verify_parse_dist_list("all", &mask, NULL, 0), SL_OK);
    assert_int_equal(mask, (1u << VERIFY_DIST_COUNT) - 1);
    assert_int_equal(verify_parse_dist_list("gauss", &mask, why, sizeof why), SL_ERR_ARG);
    assert_string_equal(why, "unknown distribution 'gauss' (valid: all, uniform, small, uniform01, uniform11, "
                             "normal, lognormal, ones, illcond; uniform and small are for integers, the others "
                             "for floats)");
    assert_int_equal(verify_parse_dist_list(",", &mask, why, sizeof why), SL_ERR_ARG);
    assert_non_null(strstr(why, "unknown distribution ''"));
}

static bool contains(const size_t *v, size_t count, size_t x)
{
    for (size_t i = 0; i < count; i++)
        if (v[i] == x)
            return true;
    return false;
}

static void default_sizes_cover_the_edges(void **state)
{
    (void)state;
    size_t *v, count;
    assert_int_equal(verify_default_sizes(4096, seed, &v, &count), SL_OK);
    const size_t must[] = {0, 1, 2, 3, 31, 32, 33, 1000, 1023, 1024, 1025, 4095, 4096, 4097};
    for (size_t i = 0; i < sizeof must / sizeof must[0]; i++)
        assert_true(contains(v, count, must[i]));
    size_t others = 0;
    for (size_t i = 0; i < count; i++) {
        if (i)
            assert_true(v[i - 1] < v[i]); /* sorted, unique */
        bool pow_edge = false;
        for (size_t p = 1; p <= 4096; p <<= 1)
            pow_edge |= v[i] + 1 == p || v[i] == p || v[i] == p + 1;
        if (!pow_edge && !contains(must, sizeof must / sizeof must[0], v[i])) {
            others++;
            assert_true(v[i] >= 1 && v[i] <= 4096);
        }
    }
    assert_true(others <= VERIFY_RANDOM_SIZES);
    free(v);
    /* A small maximum leaves out the block edges but keeps 2^k + 1. */
    assert_int_equal(verify_default_sizes(64, seed, &v, &count), SL_OK);
    assert_false(contains(v, count, 1023));
    assert_false(contains(v, count, 1000));
    assert_true(contains(v, count, 65));
    assert_true(v[count - 1] == 65);
    free(v);
    assert_int_equal(verify_default_sizes(0, seed, &v, &count), SL_OK);
    assert_int_equal(count, 1);
    assert_int_equal(v[0], 0);
    free(v);
    size_t s[] = {5, 1, 5, 0, 1};
    assert_int_equal(verify_sort_sizes(s, 5), 3);
    assert_true(s[0] == 0 && s[1] == 1 && s[2] == 5);
}

int main(void)
{
    seed = test_seed();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rng_is_reproducible_and_in_range),
        cmocka_unit_test(inputs_depend_on_key_not_caller),
        cmocka_unit_test(integer_distributions),
        cmocka_unit_test(affine_inputs_are_valid_maps),
        cmocka_unit_test(float_distributions),
        cmocka_unit_test(distributions_apply_by_type),
        cmocka_unit_test(default_sizes_cover_the_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
