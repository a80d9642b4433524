#include "verify/harness/compare.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Significand bits (with the implicit one) and the smallest exponent of a
 * subnormal's unit, per float type. */
enum { F32_DIGITS = 24, F64_DIGITS = 53, F32_MIN_UNIT_EXP = -149, F64_MIN_UNIT_EXP = -1074 };

static double load_float(sl_type t, const void *p, size_t i)
{
    return t == SL_F32 ? (double)((const float *)p)[i] : ((const double *)p)[i];
}

static void record(verify_mismatch *m, sl_type t, const void *expected, const void *got, size_t i)
{
    if (!m)
        return;
    size_t es = SL_TYPE_SIZE(t);
    memset(m, 0, sizeof *m);
    m->found = true;
    m->index = i;
    memcpy(m->expected, (const unsigned char *)expected + i * es, es);
    memcpy(m->got, (const unsigned char *)got + i * es, es);
}

/* Whether element i of a float array is a NaN (any sign, payload, quiet
 * or signalling). */
static bool is_nan_at(sl_type t, const void *p, size_t i)
{
    return SL_TYPE_IS_FLOAT(t) && isnan(load_float(t, p, i));
}

bool verify_compare_exact(sl_type t, const void *expected, const void *got, size_t n,
                          verify_mismatch *m)
{
    size_t es = SL_TYPE_SIZE(t);
    if (m)
        m->found = false;
    if (n == 0 || memcmp(expected, got, n * es) == 0)
        return true;
    const unsigned char *e = expected, *g = got;
    for (size_t i = 0; i < n; i++)
        if (memcmp(e + i * es, g + i * es, es) != 0 &&
            !(is_nan_at(t, expected, i) && is_nan_at(t, got, i))) {
            record(m, t, expected, got, i);
            return false;
        }
    return true;
}

double verify_unit_roundoff(sl_type t) { return t == SL_F32 ? 0x1p-24 : 0x1p-53; }

double verify_half_ulp(sl_type t, double x)
{
    int digits = t == SL_F32 ? F32_DIGITS : F64_DIGITS;
    int min_exp = t == SL_F32 ? F32_MIN_UNIT_EXP : F64_MIN_UNIT_EXP;
    int e = 0;
    if (x != 0.0 && isfinite(x))
        frexp(x, &e); /* |x| in [2^(e-1), 2^e): the ulp is 2^(e - digits) */
    else
        e = min_exp + digits;
    int unit = e - digits < min_exp ? min_exp : e - digits;
    return ldexp(0.5, unit);
}

double verify_eta(sl_type t, double exact, double got, double abs_prefix)
{
    if (got == exact)
        return 0.0;
    double err = fabs(got - exact);
    if (!(err == err) || abs_prefix <= 0.0)
        return INFINITY;
    return err / (verify_unit_roundoff(t) * abs_prefix);
}

bool verify_compare_bound(sl_type t, const void *exact, const void *got, const double *abs_prefix,
                          const size_t *depth, size_t n, double *max_eta, verify_mismatch *m)
{
    double u = verify_unit_roundoff(t), worst = 0.0;
    bool ok = true;
    size_t es = SL_TYPE_SIZE(t);
    if (m)
        m->found = false;
    for (size_t i = 0; i < n; i++) {
        if (memcmp((const unsigned char *)exact + i * es, (const unsigned char *)got + i * es, es) == 0)
            continue;
        double x = load_float(t, exact, i), y = load_float(t, got, i);
        if (isnan(x) && isnan(y)) /* a NaN is a NaN, whatever its sign and payload */
            continue;
        double eta = verify_eta(t, x, y, abs_prefix[i]);
        if (eta > worst || eta != eta)
            worst = eta == eta ? eta : INFINITY;
        double du = (double)depth[i] * u;
        double gamma = du < 1.0 ? du / (1.0 - du) : INFINITY;
        double err = fabs(y - x);
        /* Written so that a NaN error fails. */
        if (!(err <= gamma * abs_prefix[i] + verify_half_ulp(t, x)) && ok) {
            ok = false;
            record(m, t, exact, got, i);
            if (m) {
                m->eta = eta;
                m->bound = (double)depth[i];
            }
        }
    }
    *max_eta = worst;
    return ok;
}

void verify_format_parts(sl_type t, const void *bits, char *dec, char *hex, size_t size)
{
    switch (t) {
    case SL_I32: {
        int32_t v;
        memcpy(&v, bits, sizeof v);
        snprintf(dec, size, "%" PRId32, v);
        snprintf(hex, size, "0x%08" PRIx32, (uint32_t)v);
        break;
    }
    case SL_I64: {
        int64_t v;
        memcpy(&v, bits, sizeof v);
        snprintf(dec, size, "%" PRId64, v);
        snprintf(hex, size, "0x%016" PRIx64, (uint64_t)v);
        break;
    }
    case SL_F32: {
        float v;
        memcpy(&v, bits, sizeof v);
        snprintf(dec, size, "%.9g", (double)v);
        snprintf(hex, size, "%a", (double)v);
        break;
    }
    case SL_F64: {
        double v;
        memcpy(&v, bits, sizeof v);
        snprintf(dec, size, "%.17g", v);
        snprintf(hex, size, "%a", v);
        break;
    }
    default:
        snprintf(dec, size, "?");
        snprintf(hex, size, "?");
    }
}

void verify_format_value(sl_type t, const void *bits, char *buf, size_t size)
{
    char dec[64], hex[64];
    verify_format_parts(t, bits, dec, hex, sizeof dec);
    snprintf(buf, size, "%s (%s)", dec, hex);
}
