/* The checks of the harness on hand-made arrays. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "tap.h"

#include "verify/harness/compare.h"

static void exact_equal_arrays_pass(void **state)
{
    (void)state;
    int32_t a[] = {1, -2, 3, INT32_MIN, INT32_MAX};
    int32_t b[] = {1, -2, 3, INT32_MIN, INT32_MAX};
    verify_mismatch m;
    assert_true(verify_compare_exact(SL_I32, a, b, 5, &m));
    assert_false(m.found);
    assert_true(verify_compare_exact(SL_I32, a, b, 0, &m));
}

static void exact_one_element_off_is_reported(void **state)
{
    (void)state;
    int64_t want[] = {10, 20, 30, 40};
    int64_t got[] = {10, 20, 31, 41};
    verify_mismatch m;
    assert_false(verify_compare_exact(SL_I64, want, got, 4, &m));
    assert_true(m.found);
    assert_int_equal(m.index, 2);
    int64_t e, g;
    memcpy(&e, m.expected, sizeof e);
    memcpy(&g, m.got, sizeof g);
    assert_int_equal(e, 30);
    assert_int_equal(g, 31);
    /* Only the first n elements count. */
    assert_true(verify_compare_exact(SL_I64, want, got, 2, &m));
}

static void exact_floats_compare_bits(void **state)
{
    (void)state;
    float a[] = {0.0f, 1.0f}, b[] = {-0.0f, 1.0f};
    verify_mismatch m;
    /* +0 and -0 are equal numbers but not equal results of max/min. */
    assert_false(verify_compare_exact(SL_F32, a, b, 2, &m));
    assert_int_equal(m.index, 0);
}

/* Any NaN equals any NaN (IEEE 754 promises no payload), and nothing
 * else. */
static void exact_nan_equals_any_nan(void **state)
{
    (void)state;
    double q = NAN;
    uint64_t bits;
    memcpy(&bits, &q, sizeof bits);
    bits ^= 1; /* another payload */
    double other;
    memcpy(&other, &bits, sizeof other);
    double a[] = {1.0, q}, same[] = {1.0, q}, payload[] = {1.0, other}, num[] = {1.0, 2.0};
    assert_true(verify_compare_exact(SL_F64, a, same, 2, NULL));
    assert_true(verify_compare_exact(SL_F64, a, payload, 2, NULL));
    verify_mismatch m;
    assert_false(verify_compare_exact(SL_F64, a, num, 2, &m));
    assert_int_equal(m.index, 1);
    assert_false(verify_compare_exact(SL_F64, num, a, 2, &m));
    assert_int_equal(m.index, 1);
}

static void unit_roundoff_and_half_ulp(void **state)
{
    (void)state;
    assert_true(verify_unit_roundoff(SL_F32) == ldexp(1.0, -24));
    assert_true(verify_unit_roundoff(SL_F64) == ldexp(1.0, -53));
    /* ulp(1) = 2^-23 for float, 2^-52 for double; just below 1 half that. */
    assert_true(verify_half_ulp(SL_F32, 1.0) == ldexp(1.0, -24));
    assert_true(verify_half_ulp(SL_F64, 1.0) == ldexp(1.0, -53));
    assert_true(verify_half_ulp(SL_F64, 0.75) == ldexp(1.0, -54));
    assert_true(verify_half_ulp(SL_F64, -3.0) == ldexp(1.0, -52));
    /* Zero and subnormals: the smallest spacing. */
    assert_true(verify_half_ulp(SL_F32, 0.0) == ldexp(1.0, -150));
    assert_true(verify_half_ulp(SL_F64, 0.0) == ldexp(1.0, -1075));
    assert_true(verify_half_ulp(SL_F64, ldexp(1.0, -1060)) == ldexp(1.0, -1075));
}

static void eta_closed_forms(void **state)
{
    (void)state;
    assert_true(verify_eta(SL_F64, 1.0, 1.0, 0.0) == 0.0);
    assert_true(isinf(verify_eta(SL_F64, 1.0, 1.5, 0.0)));
    assert_true(isinf(verify_eta(SL_F64, 1.0, NAN, 4.0)));
    /* error 2^-50 over u * 2 = 2^-52: eta 4 */
    assert_true(verify_eta(SL_F64, 2.0, 2.0 + ldexp(1.0, -50), 2.0) == 4.0);
    /* float: error 2^-22 over 2^-24 * 1: eta 4 */
    assert_true(verify_eta(SL_F32, 1.0, 1.0 + ldexp(1.0, -22), 1.0) == 4.0);
}

static void bound_passes_within_and_fails_beyond(void **state)
{
    (void)state;
    double exact[] = {1.0, 2.0};
    double abs_prefix[] = {1.0, 2.0};
    size_t depth[] = {0, 1};
    double max_eta = -1.0;
    verify_mismatch m;
    /* Output 1 may be off by 2^-52 (gamma(1) * 2) + 2^-52 (half an ulp of
     * 2): one ulp of 2 (2^-51) passes with eta 2^-51 / 2^-52 = 2. */
    double one_ulp[] = {1.0, 2.0 + ldexp(1.0, -51)};
    assert_true(verify_compare_bound(SL_F64, exact, one_ulp, abs_prefix, depth, 2, &max_eta, &m));
    assert_false(m.found);
    assert_true(max_eta == 2.0);
    /* Two ulps: eta 4 > 1, caught at index 1. */
    double two_ulps[] = {1.0, 2.0 + ldexp(1.0, -50)};
    assert_false(verify_compare_bound(SL_F64, exact, two_ulps, abs_prefix, depth, 2, &max_eta, &m));
    assert_true(m.found);
    assert_int_equal(m.index, 1);
    assert_true(m.eta == 4.0);
    assert_true(m.bound == 1.0);
    assert_true(max_eta == 4.0);
    /* Depth 0 allows no rounding: one ulp off at index 0 fails there. */
    double first_off[] = {1.0 + ldexp(1.0, -52), 2.0};
    assert_false(verify_compare_bound(SL_F64, exact, first_off, abs_prefix, depth, 2, &max_eta, &m));
    assert_int_equal(m.index, 0);
}

static void bound_nan_fails_where_exact_is_a_number(void **state)
{
    (void)state;
    float exact[] = {1.0f, 2.0f, 3.0f};
    float got[] = {1.0f, NAN, 3.0f};
    double abs_prefix[] = {1.0, 2.0, 3.0};
    size_t depth[] = {1000, 1000, 1000};
    double max_eta;
    verify_mismatch m;
    assert_false(verify_compare_bound(SL_F32, exact, got, abs_prefix, depth, 3, &max_eta, &m));
    assert_int_equal(m.index, 1);
    assert_true(isinf(max_eta));
    /* n = 0: nothing to check, worst eta 0. */
    assert_true(verify_compare_bound(SL_F32, exact, got, abs_prefix, depth, 0, &max_eta, &m));
    assert_true(max_eta == 0.0);
}

static void values_print_in_full_precision(void **state)
{
    (void)state;
    char buf[128];
    int32_t i = -1;
    verify_format_value(SL_I32, &i, buf, sizeof buf);
    assert_string_equal(buf, "-1 (0xffffffff)");
    int64_t j = INT64_MIN;
    verify_format_value(SL_I64, &j, buf, sizeof buf);
    assert_string_equal(buf, "-9223372036854775808 (0x8000000000000000)");
    double d = 0.1;
    verify_format_value(SL_F64, &d, buf, sizeof buf);
    assert_string_equal(buf, "0.10000000000000001 (0x1.999999999999ap-4)");
    float f = 0.1f;
    verify_format_value(SL_F32, &f, buf, sizeof buf);
    assert_string_equal(buf, "0.100000001 (0x1.99999ap-4)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(exact_equal_arrays_pass),
        cmocka_unit_test(exact_one_element_off_is_reported),
        cmocka_unit_test(exact_floats_compare_bits),
        cmocka_unit_test(exact_nan_equals_any_nan),
        cmocka_unit_test(unit_roundoff_and_half_ulp),
        cmocka_unit_test(eta_closed_forms),
        cmocka_unit_test(bound_passes_within_and_fails_beyond),
        cmocka_unit_test(bound_nan_fails_where_exact_is_a_number),
        cmocka_unit_test(values_print_in_full_precision),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
