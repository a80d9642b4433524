#include "verify/harness/compensated.h"

#include <math.h>

/* Knuth's TwoSum: s + e == a + b exactly, s = fl(a + b), with no assumption
 * on the magnitudes of a and b. Needs strict IEEE evaluation (no
 * -ffast-math, FLT_EVAL_METHOD 0). */
#define TWO_SUM(T, a, b, s, e)              \
    do {                                    \
        s = (a) + (b);                      \
        T bb_ = s - (a);                    \
        e = ((a) - (s - bb_)) + ((b) - bb_); \
    } while (0)

/* The rounded s + c; a non-finite s stands alone (c is then meaningless),
 * and c == 0 leaves s untouched so that a -0 sum stays -0. */
#define OUT(s, c) (!isfinite(s) || (c) == 0 ? (s) : (s) + (c))

/* One instantiation per float type; exclusive outputs come before the term
 * is read into the sum so that in == out works. */
#define COMPENSATED_SCAN(T, NAME)                                          \
    static void NAME(bool exclusive, const T *in, T *out, size_t n)        \
    {                                                                      \
        T s = 0, c = 0;                                                    \
        for (size_t i = 0; i < n; i++) {                                   \
            T x = in[i];                                                   \
            if (exclusive)                                                 \
                out[i] = i == 0 ? (T)0 : OUT(s, c);                           \
            if (i == 0) {                                                  \
                s = x; /* keeps -0 as IEEE x_0 + nothing does */           \
            } else {                                                       \
                T e, t;                                                    \
                TWO_SUM(T, s, x, t, e);                                    \
                s = t;                                                     \
                c += e;                                                    \
            }                                                              \
            if (!exclusive)                                                \
                out[i] = OUT(s, c);                                        \
        }                                                                  \
    }

COMPENSATED_SCAN(float, scan_f32)
COMPENSATED_SCAN(double, scan_f64)

sl_status verify_compensated_scan(sl_type t, bool exclusive, const void *in, void *out, size_t n)
{
    if (t == SL_F32)
        scan_f32(exclusive, in, out, n);
    else if (t == SL_F64)
        scan_f64(exclusive, in, out, n);
    else
        return SL_ERR_UNSUPPORTED;
    return SL_OK;
}
