#include "verify/harness/accuracy_inputs.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "verify/harness/rng.h"

static const char *const dist_names[ACC_DIST_COUNT] = {
    [ACC_DIST_UNIFORM01] = "uniform01", [ACC_DIST_UNIFORM11] = "uniform11",
    [ACC_DIST_NORMAL] = "normal",       [ACC_DIST_LOGNORMAL] = "lognormal",
    [ACC_DIST_ONES] = "ones",           [ACC_DIST_ILLCOND] = "illcond",
};

/* lognormal: exp(LOGNORMAL_SIGMA * N(0, 1)) spans about 2^-35 .. 2^35 within
 * three standard deviations: many binades, yet no overflow in f32 sums of
 * 2^32 terms. */
#define LOGNORMAL_SIGMA 8.0
/* illcond: the largest exponent the generator uses, below overflow with
 * room for the growth of n terms. */
enum { ILLCOND_MAX_EXP_F32 = 100, ILLCOND_MAX_EXP_F64 = 1000, ILLCOND_PASSES = 4,
       ILLCOND_MIN_N = 4 };

const char *verify_accuracy_dist_name(accuracy_dist d)
{
    return d < ACC_DIST_COUNT ? dist_names[d] : "?";
}

sl_status verify_accuracy_parse_dist(const char *s, accuracy_dist *out, char *why, size_t size)
{
    for (int d = 0; d < ACC_DIST_COUNT; d++)
        if (strcmp(s, dist_names[d]) == 0) {
            *out = (accuracy_dist)d;
            return SL_OK;
        }
    char valid[160] = "";
    for (int d = 0, at = 0; d < ACC_DIST_COUNT && at < (int)sizeof valid; d++)
        at += snprintf(valid + at, sizeof valid - (size_t)at, " %s", dist_names[d]);
    if (why && size)
        snprintf(why, size, "unknown distribution '%s' (valid:%s)", s, valid);
    return SL_ERR_ARG;
}

/* Knuth's TwoSum, for the double-double running sum of illcond. */
static void two_sum(double a, double b, double *s, double *e)
{
    *s = a + b;
    double bb = *s - a;
    *e = (a - (*s - bb)) + (b - bb);
}

static double store(sl_type t, void *out, size_t i, double v)
{
    if (t == SL_F32) {
        ((float *)out)[i] = (float)v;
        return ((float *)out)[i];
    }
    ((double *)out)[i] = v;
    return v;
}

/* GenSum after Ogita, Rump and Oishi ("Accurate sum and dot product", 2005,
 * Algorithm 6.1 adapted from dot products to sums): the first half draws
 * r * 2^e with r uniform in [-1, 1) and e uniform in [0, b] (the first at
 * 2^b, the last at 2^0); the second half lets e fall linearly from b to 0
 * and subtracts the running sum, so the total ends near 2^0 while sum |x|
 * is about 2^b times a factor that grows with n / b. The total is the last
 * term's r: it is drawn with 0.5 <= |r| < 1, since an r near 0 would
 * multiply the condition number by up to 1/|r| whatever b is, beyond what
 * the correction of b can undo. Returns the condition number made, from a double-double
 * running sum (exact enough up to about 2^100). */
static double gen_sum(sl_type t, int b, uint64_t seed, size_t n, void *out)
{
    verify_rng r;
    verify_rng_seed(&r, seed);
    size_t half = n / 2;
    double hi = 0.0, lo = 0.0, abs_sum = 0.0;
    for (size_t i = 0; i < n; i++) {
        double x, unit = 2.0 * verify_rng_unit(&r) - 1.0;
        if (i + 1 == n && n > 1) /* the total: away from 0 */
            unit = copysign(0.5 + 0.5 * fabs(unit), unit);
        if (i < half) {
            int e = i == 0 ? b : i + 1 == half ? 0 : (int)verify_rng_below(&r, (uint64_t)b + 1);
            x = ldexp(unit, e);
        } else {
            size_t rest = n - half;
            int e = rest > 1 ? (int)lround((double)b * (double)(n - 1 - i) / (double)(rest - 1)) : 0;
            x = ldexp(unit, e) - (hi + lo);
        }
        x = store(t, out, i, x);
        abs_sum += fabs(x);
        double s, e1, e2;
        two_sum(hi, x, &s, &e1);
        two_sum(s, lo + e1, &hi, &e2);
        lo = e2;
    }
    double total = fabs(hi + lo);
    return total > 0.0 ? abs_sum / total : INFINITY;
}

/* The exponent b is first log2(cond), then corrected from the condition
 * number actually made (the factor from n / b), a few times. */
static void fill_illcond(sl_type t, double cond, uint64_t seed, size_t n, void *out)
{
    int max_exp = t == SL_F32 ? ILLCOND_MAX_EXP_F32 : ILLCOND_MAX_EXP_F64;
    double target = log2(cond);
    int b = (int)fmin(lround(target), max_exp);
    for (int pass = 0; pass < ILLCOND_PASSES; pass++) {
        double made = log2(gen_sum(t, b, seed, n, out));
        if (!isfinite(made) || n < ILLCOND_MIN_N)
            return; /* an exact zero sum, or too few terms to steer */
        int next = (int)fmax(0.0, fmin((double)max_exp, (double)b + (double)lround(target - made)));
        if (next == b)
            return;
        b = next;
    }
    gen_sum(t, b, seed, n, out);
}

sl_status verify_accuracy_fill(sl_type t, accuracy_dist d, double cond, uint64_t seed, size_t n,
                               void *out)
{
    if (!SL_TYPE_IS_FLOAT(t) || d >= ACC_DIST_COUNT || !(cond >= 1.0))
        return SL_ERR_ARG;
    seed = verify_derive_seed(seed, (uint64_t)d);
    if (d == ACC_DIST_ILLCOND) {
        fill_illcond(t, cond, seed, n, out);
        return SL_OK;
    }
    verify_rng r;
    verify_rng_seed(&r, seed);
    for (size_t i = 0; i < n; i++) {
        double v;
        switch (d) {
        case ACC_DIST_UNIFORM01: v = verify_rng_unit(&r); break;
        case ACC_DIST_UNIFORM11: v = 2.0 * verify_rng_unit(&r) - 1.0; break;
        case ACC_DIST_NORMAL: v = verify_rng_normal(&r); break;
        case ACC_DIST_LOGNORMAL: v = exp(LOGNORMAL_SIGMA * verify_rng_normal(&r)); break;
        default: v = 1.0; break;
        }
        store(t, out, i, v);
    }
    return SL_OK;
}
