/* The exact floating-point reference (DESIGN.md, "Floating-point accuracy"):
 * an accumulator wide enough that every addition is exact, rounded once per
 * prefix to the element type (round to nearest, ties to even). The fast path
 * is a fixed-point superaccumulator; the MPFR one checks it in the tests.
 * NaN and infinities follow IEEE addition (docs/accuracy.md). */
#ifndef SCANLAB_REF_EXACT_H
#define SCANLAB_REF_EXACT_H

#include <stdbool.h>
#include <stddef.h>
#include "cuda/ops.h"
#include "cuda/status.h"

/* Exact add-scan of x[0..n) of float type t (SL_F32 or SL_F64), inclusive or
 * exclusive, each prefix rounded once into out (same type as x). When
 * abs_prefix is not NULL it receives, per output, the sum of |x_j| over the
 * same prefix (rounded to double), the scale of the accuracy bound. */
sl_status verify_exact_scan(sl_type t, bool exclusive, const void *x, size_t n, void *out,
                            double *abs_prefix);

/* The same scan (without abs_prefix) through an MPFR accumulator of
 * 277 + ceil(log2 n) bits (f32) or 2098 + ceil(log2 n) bits (f64): slow, the
 * independent check of the fast path. SL_ERR_CHECK if an addition was not
 * exact, which would be a bug in the precision bound. */
sl_status verify_exact_scan_mpfr(sl_type t, bool exclusive, const void *x, size_t n, void *out);

#endif
