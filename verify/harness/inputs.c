#include "verify/harness/inputs.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "verify/harness/rng.h"

static const char *const dist_names[VERIFY_DIST_COUNT] = {
    "uniform", "small", "uniform01", "uniform11", "normal", "lognormal", "ones", "illcond"};

/* Bounds of the "small" integer distribution. */
enum { SMALL_MAX = 100 };
/* lognormal: exp(LOGNORMAL_SIGMA * N(0, 1)) spans about 2^-35 .. 2^35 within
 * three standard deviations, far enough to stress rounding yet finite in
 * float sums. */
#define LOGNORMAL_SIGMA 8.0
/* illcond: magnitudes up to 2^ILLCOND_MAX_EXP, each cancelled by the next
 * element up to a residue of at most 1, so prefix sums are tiny next to the
 * sum of magnitudes (condition numbers near 2^ILLCOND_MAX_EXP). */
enum { ILLCOND_MAX_EXP = 20 };

const char *verify_dist_name(verify_dist d) { return d < VERIFY_DIST_COUNT ? dist_names[d] : "?"; }

bool verify_dist_applies(verify_dist d, sl_type t)
{
    bool int_dist = d == VERIFY_DIST_UNIFORM || d == VERIFY_DIST_SMALL;
    return d < VERIFY_DIST_COUNT && int_dist != SL_TYPE_IS_FLOAT(t);
}

verify_dist verify_default_dist(sl_type t)
{
    return SL_TYPE_IS_FLOAT(t) ? VERIFY_DIST_UNIFORM11 : VERIFY_DIST_UNIFORM;
}

sl_status verify_parse_dist_list(const char *s, unsigned *mask, char *why, size_t size)
{
    if (!why)
        size = 0;
    *mask = 0;
    if (strcmp(s, "all") == 0) {
        *mask = (1u << VERIFY_DIST_COUNT) - 1;
        return SL_OK;
    }
    const char *p = s;
    while (*p) {
        size_t len = strcspn(p, ",");
        int found = -1;
        for (int d = 0; d < VERIFY_DIST_COUNT; d++)
            if (strlen(dist_names[d]) == len && strncmp(p, dist_names[d], len) == 0)
                found = d;
        if (found < 0) {
            char valid[160] = "all";
            for (int d = 0, at = 3; d < VERIFY_DIST_COUNT && at < (int)sizeof valid; d++)
                at += snprintf(valid + at, sizeof valid - (size_t)at, ", %s", dist_names[d]);
            snprintf(why, size, "unknown distribution '%.*s' (valid: %s; uniform and small are for "
                     "integers, the others for floats)", (int)len, p, valid);
            return SL_ERR_ARG;
        }
        *mask |= 1u << found;
        p += len;
        if (*p == ',')
            p++;
    }
    if (*mask == 0) {
        snprintf(why, size, "empty distribution list");
        return SL_ERR_ARG;
    }
    return SL_OK;
}

/* A signed integer in [-SMALL_MAX, SMALL_MAX]. */
static int64_t small_int(verify_rng *r)
{
    return (int64_t)verify_rng_below(r, 2 * SMALL_MAX + 1) - SMALL_MAX;
}

/* One affine map with an odd multiplier, encoded as cuda/ops.h says:
 * a in the high half of the element, b in the low half. */
static uint64_t affine_element(verify_rng *r, sl_type t, verify_dist d)
{
    unsigned half = t == SL_I32 ? 16 : 32;
    uint64_t mask = (UINT64_C(1) << half) - 1;
    uint64_t a, b;
    if (d == VERIFY_DIST_SMALL) {
        a = 2 * verify_rng_below(r, SMALL_MAX / 2) + 1;
        b = verify_rng_below(r, SMALL_MAX + 1);
    } else {
        a = verify_rng_next(r) | 1;
        b = verify_rng_next(r);
    }
    return ((a & mask) << half) | (b & mask);
}

static void fill_int(sl_type t, sl_op op, verify_dist d, verify_rng *r, size_t n, void *out)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t v;
        if (op == SL_AFFINE)
            v = affine_element(r, t, d);
        else if (d == VERIFY_DIST_SMALL)
            v = (uint64_t)small_int(r);
        else
            v = verify_rng_next(r);
        if (t == SL_I32)
            ((int32_t *)out)[i] = (int32_t)(uint32_t)v;
        else
            ((int64_t *)out)[i] = (int64_t)v;
    }
}

/* The illcond sequence: a random large value, then its negation plus a
 * residue in [-1, 1), and so on. */
static double illcond_value(verify_rng *r, size_t i, double previous)
{
    if (i % 2 == 1)
        return -previous + (2.0 * verify_rng_unit(r) - 1.0);
    double sign = (verify_rng_next(r) & 1) ? -1.0 : 1.0;
    int e = (int)verify_rng_below(r, ILLCOND_MAX_EXP + 1);
    return sign * ldexp(1.0 + verify_rng_unit(r), e);
}

static void fill_float(sl_type t, verify_dist d, verify_rng *r, size_t n, void *out)
{
    double previous = 0.0;
    for (size_t i = 0; i < n; i++) {
        double v;
        switch (d) {
        case VERIFY_DIST_UNIFORM01: v = verify_rng_unit(r); break;
        case VERIFY_DIST_UNIFORM11: v = 2.0 * verify_rng_unit(r) - 1.0; break;
        case VERIFY_DIST_NORMAL: v = verify_rng_normal(r); break;
        case VERIFY_DIST_LOGNORMAL: v = exp(LOGNORMAL_SIGMA * verify_rng_normal(r)); break;
        case VERIFY_DIST_ILLCOND: v = illcond_value(r, i, previous); break;
        default: v = 1.0; break;
        }
        /* The residue is relative to the element as stored, so round the
         * previous value to the element type first. */
        if (t == SL_F32) {
            ((float *)out)[i] = (float)v;
            previous = ((float *)out)[i];
        } else {
            ((double *)out)[i] = v;
            previous = v;
        }
    }
}

sl_status verify_fill_input(sl_type t, sl_op op, verify_dist d, uint64_t seed, size_t n, void *out)
{
    if (t >= SL_TYPE_COUNT || op >= SL_OP_COUNT || !verify_dist_applies(d, t) || !SL_OP_APPLIES(op, t))
        return SL_ERR_ARG;
    /* The key names the input, not the algorithm: every backend sees it. */
    uint64_t key = verify_derive_seed(seed, (uint64_t)t);
    key = verify_derive_seed(key, (uint64_t)d);
    key = verify_derive_seed(key, op == SL_AFFINE);
    key = verify_derive_seed(key, (uint64_t)n);
    verify_rng r;
    verify_rng_seed(&r, key);
    if (SL_TYPE_IS_FLOAT(t))
        fill_float(t, d, &r, n, out);
    else
        fill_int(t, op, d, &r, n, out);
    return SL_OK;
}
