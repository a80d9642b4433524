/* The exact float reference: hand-computed prefixes (cancellation, ties,
 * subnormals, stagnation, overflow, specials), and the fast superaccumulator
 * against the MPFR accumulator bit for bit on random and adversarial inputs.
 * SCANLAB_SEED replays a random run. */
#include <float.h>
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

#include "verify/harness/ref_exact.h"
#include "verify/harness/rng.h"

static uint64_t seed;

static uint32_t fbits(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}
static uint64_t dbits(double d)
{
    uint64_t b;
    memcpy(&b, &d, 8);
    return b;
}
static float bits_f(uint32_t b)
{
    float f;
    memcpy(&f, &b, 4);
    return f;
}
static double bits_d(uint64_t b)
{
    double d;
    memcpy(&d, &b, 8);
    return d;
}

/* Both paths must give exactly want[] (bit for bit: the sign of zero
 * counts); NaN matches any NaN. */
static void expect_f32(const float *x, size_t n, bool exclusive, const float *want)
{
    float *fast = malloc(4 * n + 4), *ref = malloc(4 * n + 4);
    assert_int_equal(verify_exact_scan(SL_F32, exclusive, x, n, fast, NULL), SL_OK);
    assert_int_equal(verify_exact_scan_mpfr(SL_F32, exclusive, x, n, ref), SL_OK);
    for (size_t i = 0; i < n; i++) {
        if (isnan(want[i])) {
            assert_true(isnan(fast[i]));
            assert_true(isnan(ref[i]));
            continue;
        }
        if (fbits(fast[i]) != fbits(want[i]) || fbits(ref[i]) != fbits(want[i]))
            fail_msg("prefix %zu: want %a, fast %a, mpfr %a", i, (double)want[i], (double)fast[i],
                     (double)ref[i]);
    }
    free(fast);
    free(ref);
}

static void expect_f64(const double *x, size_t n, bool exclusive, const double *want)
{
    double *fast = malloc(8 * n + 8), *ref = malloc(8 * n + 8);
    assert_int_equal(verify_exact_scan(SL_F64, exclusive, x, n, fast, NULL), SL_OK);
    assert_int_equal(verify_exact_scan_mpfr(SL_F64, exclusive, x, n, ref), SL_OK);
    for (size_t i = 0; i < n; i++) {
        if (isnan(want[i])) {
            assert_true(isnan(fast[i]));
            assert_true(isnan(ref[i]));
            continue;
        }
        if (dbits(fast[i]) != dbits(want[i]) || dbits(ref[i]) != dbits(want[i]))
            fail_msg("prefix %zu: want %a, fast %a, mpfr %a", i, want[i], fast[i], ref[i]);
    }
    free(fast);
    free(ref);
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void test_cancellation(void **state)
{
    (void)state;
    /* 1e8 is exact in float (390625 * 2^8); its ulp is 8, so 1e8 + 1 rounds
     * back to 1e8, yet the exact prefix still holds the 1. */
    const float x[] = {1e8f, 1.0f, -1e8f, -1.0f};
    const float want[] = {1e8f, 1e8f, 1.0f, 0.0f};
    expect_f32(x, N(x), false, want);
    const float wantx[] = {0.0f, 1e8f, 1e8f, 1.0f};
    expect_f32(x, N(x), true, wantx);

    const double xd[] = {1e300, 1.0, -1e300, -1.0, 0x1p-1074};
    const double wantd[] = {1e300, 1e300, 1.0, 0.0, 0x1p-1074};
    expect_f64(xd, N(xd), false, wantd);
}

static void test_ties_to_even(void **state)
{
    (void)state;
    /* 1 + 2^-24 is halfway between 1 and 1 + 2^-23: to the even 1. Any bit
     * below (however far: 2^-149) breaks the tie upwards. */
    const float x[] = {1.0f, 0x1p-24f, 0x1p-149f, -0x1p-149f};
    const float want[] = {1.0f, 1.0f, 1.0f + 0x1p-23f, 1.0f};
    expect_f32(x, N(x), false, want);
    /* 1 + 2^-23 + 2^-24: halfway, the even neighbour is above. */
    const float y[] = {1.0f + 0x1p-23f, 0x1p-24f};
    const float wanty[] = {1.0f + 0x1p-23f, 1.0f + 0x1p-22f};
    expect_f32(y, N(y), false, wanty);
    /* The same below zero: symmetric rounding. */
    const float z[] = {-1.0f, -0x1p-24f, -0x1p-149f};
    const float wantz[] = {-1.0f, -1.0f, -1.0f - 0x1p-23f};
    expect_f32(z, N(z), false, wantz);
    /* Double: 1 + 2^-53 ties to 1; + 2^-1074 goes up. */
    const double d[] = {1.0, 0x1p-53, 0x1p-1074};
    const double wantd[] = {1.0, 1.0, 1.0 + 0x1p-52};
    expect_f64(d, N(d), false, wantd);
}

static void test_subnormals(void **state)
{
    (void)state;
    enum { K = 1000 };
    float x[K], want[K];
    for (size_t i = 0; i < K; i++) {
        x[i] = 0x1p-149f;
        want[i] = bits_f((uint32_t)(i + 1)); /* (i + 1) * 2^-149 */
    }
    expect_f32(x, K, false, want);
    /* The smallest normal less the smallest subnormal is the largest
     * subnormal; adding it back crosses into the normals. */
    const float y[] = {FLT_MIN, -0x1p-149f, 0x1p-149f, -FLT_MIN};
    const float wanty[] = {FLT_MIN, bits_f(0x007fffffu), FLT_MIN, 0.0f};
    expect_f32(y, N(y), false, wanty);
    double xd[K], wantd[K];
    for (size_t i = 0; i < K; i++) {
        xd[i] = 0x1p-1074;
        wantd[i] = bits_d(i + 1);
    }
    expect_f64(xd, K, false, wantd);
    const double yd[] = {DBL_MIN, -0x1p-1074};
    const double wantyd[] = {DBL_MIN, bits_d(UINT64_C(0x000fffffffffffff))};
    expect_f64(yd, N(yd), false, wantyd);
}

static void test_ones_stagnation(void **state)
{
    (void)state;
    /* 2^24 + 4 ones: the exact prefix i is i + 1; float holds it while
     * i + 1 <= 2^24, then 2^24 + 1 ties to even (2^24), 2^24 + 2 is exact,
     * 2^24 + 3 ties to 2^24 + 4. A naive float sum stays at 2^24. */
    const size_t n = ((size_t)1 << 24) + 4;
    float *x = malloc(n * sizeof *x), *out = malloc(n * sizeof *out);
    assert_non_null(x);
    assert_non_null(out);
    for (size_t i = 0; i < n; i++)
        x[i] = 1.0f;
    assert_int_equal(verify_exact_scan(SL_F32, false, x, n, out, NULL), SL_OK);
    const size_t two24 = (size_t)1 << 24;
    assert_true(out[0] == 1.0f);
    assert_true(out[12345] == 12346.0f);
    assert_true(out[two24 - 1] == 16777216.0f);
    assert_true(out[two24] == 16777216.0f);     /* 2^24 + 1 */
    assert_true(out[two24 + 1] == 16777218.0f); /* 2^24 + 2 */
    assert_true(out[two24 + 2] == 16777220.0f); /* 2^24 + 3 */
    assert_true(out[two24 + 3] == 16777220.0f); /* 2^24 + 4 */
    float naive = 0.0f;
    for (size_t i = 0; i < n; i++)
        naive += x[i];
    assert_true(naive == 16777216.0f);
    free(x);
    free(out);
}

static void test_overflow(void **state)
{
    (void)state;
    /* Half an ulp of FLT_MAX is 2^103: FLT_MAX + 2^103 ties, and the even
     * neighbour is 2^128, which is infinity. A bit far below breaks the tie
     * downwards. Overflow is of the prefix only: subtracting brings the
     * exact sum back into range. */
    const float x[] = {FLT_MAX, 0x1p103f, -0x1p-149f, FLT_MAX, -FLT_MAX, -FLT_MAX, -FLT_MAX};
    /* Then 2^103 - 2^-149 rounds to 2^103; minus FLT_MAX it is just beyond
     * the midpoint 2^128 - 2^104 - 2^103 in magnitude, so -FLT_MAX. */
    const float want[] = {FLT_MAX, INFINITY, FLT_MAX, INFINITY, FLT_MAX, 0x1p103f, -FLT_MAX};
    expect_f32(x, N(x), false, want);
    const float y[] = {-FLT_MAX, -0x1p103f};
    const float wanty[] = {-FLT_MAX, -INFINITY};
    expect_f32(y, N(y), false, wanty);
    const double d[] = {DBL_MAX, 0x1p970, -0x1p-1074, DBL_MAX};
    const double wantd[] = {DBL_MAX, INFINITY, DBL_MAX, INFINITY};
    expect_f64(d, N(d), false, wantd);
}

static void test_large_small(void **state)
{
    (void)state;
    const float x[] = {0x1p100f, 1.0f, -0x1p100f, 0x1p-149f, -1.0f};
    const float want[] = {0x1p100f, 0x1p100f, 1.0f, 1.0f, 0x1p-149f};
    expect_f32(x, N(x), false, want);
    const double d[] = {0x1p1000, 0x1p-1000, 3.0, -0x1p1000, -3.0};
    const double wantd[] = {0x1p1000, 0x1p1000, 0x1p1000, 3.0 + 0x1p-1000, 0x1p-1000};
    expect_f64(d, N(d), false, wantd);
}

/* The accumulator's limbs are 64 bits of units of the smallest subnormal:
 * 2^14 = 2^(64*17 - 1074) starts limb 17 for f64, 2^-21 = 2^(128 - 149)
 * starts limb 2 for f32. Crossing zero there borrows through whole limbs,
 * and -2^14 alone is the carry-out case of the negation. */
static void test_limb_boundaries(void **state)
{
    (void)state;
    const double d[] = {-0x1p14, 0x1p15, -0x1p15, 0x1p14, -0x1p-1074, 0x1p-1074, 0x1p14, -0x1p78};
    const double wantd[] = {-0x1p14, 0x1p14, -0x1p14, 0.0, -0x1p-1074, 0.0, 0x1p14, -0x1p78 + 0x1p14};
    expect_f64(d, sizeof d / sizeof d[0], false, wantd);
    const float f[] = {-0x1p-21f, 0x1p-20f, -0x1p-149f, -0x1p-21f, -0x1p43f, 0x1p43f};
    const float wantf[] = {-0x1p-21f, 0x1p-21f, 0x1p-21f, -0x1p-149f, -0x1p43f, -0x1p-149f};
    expect_f32(f, sizeof f / sizeof f[0], false, wantf);
}

static void test_specials(void **state)
{
    (void)state;
    const float a[] = {1.0f, INFINITY, -5.0f, -INFINITY, 1.0f};
    const float wanta[] = {1.0f, INFINITY, INFINITY, NAN, NAN};
    expect_f32(a, N(a), false, wanta);
    const float b[] = {-INFINITY, 1.0f};
    const float wantb[] = {-INFINITY, -INFINITY};
    expect_f32(b, N(b), false, wantb);
    const double c[] = {2.0, NAN, 1.0};
    const double wantc[] = {2.0, NAN, NAN};
    expect_f64(c, N(c), false, wantc);
    /* Exclusive: the special shows one position later. */
    const double wantcx[] = {0.0, 2.0, NAN};
    expect_f64(c, N(c), true, wantcx);
}

static void test_signed_zero(void **state)
{
    (void)state;
    /* -0 + -0 = -0; anything else that is exactly zero is +0. */
    const float a[] = {-0.0f, -0.0f, 0.0f, -0.0f};
    const float wanta[] = {-0.0f, -0.0f, 0.0f, 0.0f};
    expect_f32(a, N(a), false, wanta);
    const float wantax[] = {0.0f, -0.0f, -0.0f, 0.0f};
    expect_f32(a, N(a), true, wantax);
    const double b[] = {1.0, -1.0, -0.0};
    const double wantb[] = {1.0, 0.0, 0.0};
    expect_f64(b, N(b), false, wantb);
}

static void test_abs_prefix(void **state)
{
    (void)state;
    /* A double sum of |x| loses 2^-53 twice (ties to even); the exact sum
     * is 1 + 2^-52. */
    const double x[] = {1.0, -0x1p-53, 0x1p-53};
    double out[3], abs[3];
    assert_int_equal(verify_exact_scan(SL_F64, false, x, 3, out, abs), SL_OK);
    assert_true(abs[0] == 1.0);
    assert_true(abs[1] == 1.0);
    assert_true(abs[2] == 1.0 + 0x1p-52);
    assert_true(out[2] == 1.0);
    assert_int_equal(verify_exact_scan(SL_F64, true, x, 3, out, abs), SL_OK);
    assert_true(abs[0] == 0.0 && abs[1] == 1.0 && abs[2] == 1.0);
    /* f32 magnitudes summed exactly, rounded to double: 2^60 + 2 is a
     * double, 2^60 + 2 + 2^-149 rounds back to it. */
    const float f[] = {0x1p60f, -1.0f, 1.0f, -0x1p-149f};
    float fo[4];
    double fa[4];
    assert_int_equal(verify_exact_scan(SL_F32, false, f, 4, fo, fa), SL_OK);
    assert_true(fa[0] == 0x1p60);
    assert_true(fa[1] == 0x1p60 + 1.0);
    assert_true(fa[2] == 0x1p60 + 2.0);
    assert_true(fa[3] == 0x1p60 + 2.0); /* + 2^-149 is far below half an ulp */
    /* Specials: |NaN| is NaN, |inf| is inf. */
    const float g[] = {-1.0f, -INFINITY, NAN};
    assert_int_equal(verify_exact_scan(SL_F32, false, g, 3, fo, fa), SL_OK);
    assert_true(fa[0] == 1.0 && isinf(fa[1]) && isnan(fa[2]));
    /* Subnormal magnitudes of f32 are normal doubles: 3 * 2^-149. */
    const float h[] = {0x1p-149f, -0x1p-148f};
    assert_int_equal(verify_exact_scan(SL_F32, false, h, 2, fo, fa), SL_OK);
    assert_true(fa[1] == 3 * 0x1p-149);
    assert_true(fo[1] == -0x1p-149f);
}

static void test_in_place_and_args(void **state)
{
    (void)state;
    float x[] = {1.0f, 2.0f, 0x1p-30f, -3.0f};
    assert_int_equal(verify_exact_scan(SL_F32, true, x, 4, x, NULL), SL_OK);
    assert_true(x[0] == 0.0f && x[1] == 1.0f && x[2] == 3.0f && x[3] == 3.0f);
    int32_t i[2] = {1, 2};
    assert_int_equal(verify_exact_scan(SL_I32, false, i, 2, i, NULL), SL_ERR_ARG);
    assert_int_equal(verify_exact_scan_mpfr(SL_I64, false, i, 1, i), SL_ERR_ARG);
    assert_int_equal(verify_exact_scan(SL_F32, false, NULL, 0, NULL, NULL), SL_OK);
}

/* A random finite float of the kind given: 0 any bit pattern, 1 exponents
 * near the subnormal end, 2 near overflow, 3 a mixture of the ends, 4 x
 * followed by nearly -x (deep cancellation), 5 ties: powers of two around
 * half an ulp of the running magnitude, 6 limb boundaries. */
static uint64_t random_bits(verify_rng *r, int kind, bool dbl, uint64_t prev)
{
    int mbits = dbl ? 52 : 23, ebits = dbl ? 11 : 8;
    uint64_t emax = (UINT64_C(1) << ebits) - 2; /* largest finite exponent field */
    uint64_t sign = verify_rng_below(r, 2) << (mbits + ebits);
    uint64_t frac = verify_rng_next(r) & ((UINT64_C(1) << mbits) - 1);
    uint64_t e;
    switch (kind) {
    case 1:
        e = verify_rng_below(r, 4);
        break;
    case 2:
        e = emax - verify_rng_below(r, 4);
        break;
    case 3:
        e = verify_rng_below(r, 2) ? verify_rng_below(r, 3) : emax - verify_rng_below(r, 3);
        break;
    case 4:
        if (verify_rng_below(r, 2))
            return (prev ^ (UINT64_C(1) << (mbits + ebits))) ^ verify_rng_below(r, 4);
        e = verify_rng_below(r, emax + 1);
        break;
    case 6: {
        /* Powers of two (and neighbours) whose lowest bit sits on a limb
         * boundary of the accumulator: sums of +-2^(64k) carry and borrow
         * across whole limbs and reach -2^(64k) exactly. */
        uint64_t eb = 1 + 64 * verify_rng_below(r, (emax - 1) / 64 + 1) - mbits;
        if (eb < 1 || eb > emax)
            eb = 1 + 64 * (verify_rng_below(r, 2) + 1);
        return sign | (eb << mbits) | (verify_rng_below(r, 4) ? 0 : verify_rng_below(r, 3));
    }
    case 5: {
        uint64_t pe = (prev >> mbits) & ((UINT64_C(1) << ebits) - 1);
        uint64_t d = (uint64_t)mbits + 1 - verify_rng_below(r, 3);
        return sign | ((pe > d ? pe - d : 1) << mbits) | (verify_rng_below(r, 2) ? 0 : 1);
    }
    default:
        e = verify_rng_below(r, emax + 1);
        break;
    }
    return sign | (e << mbits) | frac;
}

static void test_fast_vs_mpfr(void **state)
{
    (void)state;
    verify_rng r;
    verify_rng_seed(&r, seed);
    enum { TRIALS = 1400, MAXN = 300 };
    for (int trial = 0; trial < TRIALS; trial++) {
        bool dbl = trial & 1, exclusive = (trial >> 1) & 1;
        int kind = (trial >> 2) % 7;
        size_t n = 1 + verify_rng_below(&r, MAXN);
        uint64_t in[MAXN], fast[MAXN], ref[MAXN], prev = 0;
        for (size_t i = 0; i < n; i++) {
            uint64_t b = random_bits(&r, kind, dbl, prev);
            prev = b;
            if (dbl)
                in[i] = b;
            else
                ((uint32_t *)in)[i] = (uint32_t)b;
        }
        sl_type t = dbl ? SL_F64 : SL_F32;
        assert_int_equal(verify_exact_scan(t, exclusive, in, n, fast, NULL), SL_OK);
        assert_int_equal(verify_exact_scan_mpfr(t, exclusive, in, n, ref), SL_OK);
        if (memcmp(fast, ref, n * (dbl ? 8 : 4)) != 0) {
            for (size_t i = 0; i < n; i++) {
                double a = dbl ? bits_d(fast[i]) : ((float *)fast)[i];
                double b = dbl ? bits_d(ref[i]) : ((float *)ref)[i];
                if (memcmp((char *)fast + i * (dbl ? 8 : 4), (char *)ref + i * (dbl ? 8 : 4),
                           dbl ? 8 : 4))
                    fail_msg("seed %" PRIu64 " trial %d kind %d prefix %zu: fast %a, mpfr %a",
                             seed, trial, kind, i, a, b);
            }
        }
    }
}

int main(void)
{
    const char *env = getenv("SCANLAB_SEED");
    seed = env ? strtoull(env, NULL, 0) : (uint64_t)time(NULL);
    printf("# SCANLAB_SEED=%" PRIu64 "\n", seed);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cancellation),    cmocka_unit_test(test_ties_to_even),
        cmocka_unit_test(test_subnormals),      cmocka_unit_test(test_ones_stagnation),
        cmocka_unit_test(test_overflow),        cmocka_unit_test(test_large_small),
        cmocka_unit_test(test_limb_boundaries), cmocka_unit_test(test_specials),        cmocka_unit_test(test_signed_zero),
        cmocka_unit_test(test_abs_prefix),      cmocka_unit_test(test_in_place_and_args),
        cmocka_unit_test(test_fast_vs_mpfr),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
