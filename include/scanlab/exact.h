/* libscanlab, references: the sequential scan (every type and operator)
 * and the exact floating-point add-scan (each prefix computed without
 * rounding and rounded once). */
#ifndef SCANLAB_PUBLIC_EXACT_H
#define SCANLAB_PUBLIC_EXACT_H

#include <scanlab/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Sequential scan, left to right; in may equal out. */
sl_status cpu_scan_seq(sl_type t, sl_op op, bool exclusive, const void *in, void *out, size_t n);
/* Sequential reduction into *result (the identity for n = 0). */
sl_status cpu_reduce_seq(sl_type t, sl_op op, const void *in, size_t n, void *result);

/* Exact add-scan of floats (SL_F32, SL_F64), each prefix rounded once to
 * nearest; abs_prefix (may be NULL) receives the sum of |x_j| per prefix. */
sl_status verify_exact_scan(sl_type t, bool exclusive, const void *x, size_t n, void *out, double *abs_prefix);
/* The same through GNU MPFR (slow; the independent check). */
sl_status verify_exact_scan_mpfr(sl_type t, bool exclusive, const void *x, size_t n, void *out);

#ifdef __cplusplus
}
#endif

#endif
