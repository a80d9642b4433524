#include "testlib.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const size_t testlib_sizes[] = {0, 1, 2, 3, 31, 32, 33, 1000, 4097};
const size_t testlib_size_count = sizeof testlib_sizes / sizeof testlib_sizes[0];

uint64_t testlib_seed(void)
{
    const char *env = getenv("SCANLAB_SEED");
    uint64_t seed = env && *env ? strtoull(env, NULL, 10) : (uint64_t)time(NULL);
    printf("# seed %" PRIu64 " (set SCANLAB_SEED to replay)\n", seed);
    return seed;
}

/* Integers: one in eight an extreme, one in four from a small set (ties). */
static int64_t pick_int(verify_rng *r, int64_t lo, int64_t hi)
{
    uint64_t k = verify_rng_below(r, 8);
    if (k == 0)
        return verify_rng_below(r, 2) ? lo : hi;
    if (k <= 2)
        return (int64_t)verify_rng_below(r, 5) - 2;
    return (int64_t)verify_rng_next(r);
}

static double pick_float(verify_rng *r, sl_op op)
{
    if (op != SL_ADD && verify_rng_below(r, 4) == 0) {
        static const double repeats[] = {0.0, -0.0, 0.5, -0.5};
        return repeats[verify_rng_below(r, 4)];
    }
    return 2.0 * verify_rng_unit(r) - 1.0;
}

void testlib_fill(verify_rng *r, sl_type t, sl_op op, void *x, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        switch (t) {
        case SL_I32: ((int32_t *)x)[i] = (int32_t)pick_int(r, INT32_MIN, INT32_MAX); break;
        case SL_I64: ((int64_t *)x)[i] = pick_int(r, INT64_MIN, INT64_MAX); break;
        case SL_F32: ((float *)x)[i] = (float)pick_float(r, op); break;
        default: ((double *)x)[i] = pick_float(r, op); break;
        }
    }
}

/* One naive scan and fold per (type, operator), from the catalogue's list. */
#define NAIVE(C, TN, OPN, TYPE, OP)                                                        \
    static void naive_scan_##TN##_##OPN(bool exclusive, const void *vx, void *vy, size_t n) \
    {                                                                                      \
        const C *x = vx;                                                                   \
        C *y = vy;                                                                         \
        if (n == 0)                                                                        \
            return;                                                                        \
        C *incl = malloc(n * sizeof *incl);                                                \
        if (!incl)                                                                         \
            abort();                                                                       \
        if (n <= TESTLIB_DOUBLE_LOOP_MAX) {                                                \
            for (size_t i = 0; i < n; i++) {                                               \
                C f = x[0];                                                                \
                for (size_t j = 1; j <= i; j++)                                            \
                    f = sl_##OPN##_##TN(f, x[j]);                                          \
                incl[i] = f;                                                               \
            }                                                                              \
        } else {                                                                           \
            incl[0] = x[0];                                                                \
            for (size_t i = 1; i < n; i++)                                                 \
                incl[i] = sl_##OPN##_##TN(incl[i - 1], x[i]);                              \
        }                                                                                  \
        if (exclusive) {                                                                   \
            y[0] = sl_id_##OPN##_##TN();                                                   \
            memcpy(y + 1, incl, (n - 1) * sizeof *y);                                      \
        } else {                                                                           \
            memcpy(y, incl, n * sizeof *y);                                                \
        }                                                                                  \
        free(incl);                                                                        \
    }                                                                                      \
    static void naive_reduce_##TN##_##OPN(const void *vx, size_t n, void *result)          \
    {                                                                                      \
        const C *x = vx;                                                                   \
        C f = n ? x[0] : sl_id_##OPN##_##TN();                                             \
        for (size_t i = 1; i < n; i++)                                                     \
            f = sl_##OPN##_##TN(f, x[i]);                                                  \
        *(C *)result = f;                                                                  \
    }
SL_FOR_EACH_TYPE_OP(NAIVE)
#undef NAIVE

typedef struct {
    void (*scan)(bool, const void *, void *, size_t);
    void (*reduce)(const void *, size_t, void *);
} naive_entry;
#define ENTRY(C, TN, OPN, TYPE, OP) [TYPE][OP] = {naive_scan_##TN##_##OPN, naive_reduce_##TN##_##OPN},
static const naive_entry naive[SL_TYPE_COUNT][SL_OP_COUNT] = {SL_FOR_EACH_TYPE_OP(ENTRY)};
#undef ENTRY

void testlib_naive_scan(sl_type t, sl_op op, bool exclusive, const void *x, void *y, size_t n)
{
    naive[t][op].scan(exclusive, x, y, n);
}

void testlib_naive_reduce(sl_type t, sl_op op, const void *x, size_t n, void *result)
{
    naive[t][op].reduce(x, n, result);
}

double testlib_value(sl_type t, const void *buf, size_t i)
{
    switch (t) {
    case SL_I32: return ((const int32_t *)buf)[i];
    case SL_I64: return (double)((const int64_t *)buf)[i];
    case SL_F32: return ((const float *)buf)[i];
    default: return ((const double *)buf)[i];
    }
}

size_t testlib_first_diff(sl_type t, sl_op op, const void *got, const void *want, size_t n)
{
    size_t size = SL_TYPE_SIZE(t);
    for (size_t i = 0; i < n; i++) {
        if (SL_TYPE_IS_FLOAT(t) && op == SL_ADD) {
            if (testlib_value(t, got, i) != testlib_value(t, want, i))
                return i;
        } else if (memcmp((const char *)got + i * size, (const char *)want + i * size, size)) {
            return i;
        }
    }
    return n;
}

size_t testlib_first_outside(sl_type t, bool exclusive, const void *x, const void *got,
                             const void *want, size_t n, double depth)
{
    double unit = t == SL_F32 ? 0x1p-23 : 0x1p-52, abs_sum = 0.0;
    for (size_t i = 0; i < n; i++) {
        if (!exclusive)
            abs_sum += fabs(testlib_value(t, x, i));
        double diff = fabs(testlib_value(t, got, i) - testlib_value(t, want, i));
        if (!(diff <= depth * unit * abs_sum))
            return i;
        if (exclusive)
            abs_sum += fabs(testlib_value(t, x, i));
    }
    return n;
}
