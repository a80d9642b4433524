/* The checks of the differential harness: bitwise equality (integers, and
 * float max/min, whose results are exact), and the accuracy bound of a float
 * sum against its exact reference (DESIGN.md, "Floating-point accuracy"). */
#ifndef SCANLAB_COMPARE_H
#define SCANLAB_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include "cuda/ops.h"

/* The largest element, in bytes: room for one value of any catalogue type. */
#define VERIFY_MAX_ELEM 8

/* Where a check first failed. Values are kept as raw element bits. */
typedef struct {
    bool found;                               /* false: the check passed */
    size_t index;                             /* first differing output */
    unsigned char expected[VERIFY_MAX_ELEM];  /* the reference's value */
    unsigned char got[VERIFY_MAX_ELEM];       /* the algorithm's value */
    double eta;                               /* float bound checks: the error in units of u * abs_prefix */
    double bound;                             /* ... and the allowed eta there (the depth) */
} verify_mismatch;

/* Compare n elements of type t bit for bit. Returns true when equal;
 * otherwise fills *m (when not NULL) with the first differing index. A NaN
 * equals any NaN, whatever its sign, payload, quiet or signalling: which
 * NaN an operation makes is not promised by IEEE 754 (nor the same on
 * every backend). */
bool verify_compare_exact(sl_type t, const void *expected, const void *got, size_t n,
                          verify_mismatch *m);

/* The unit roundoff of float type t: 2^-24 (f32) or 2^-53 (f64). */
double verify_unit_roundoff(sl_type t);

/* Half the spacing of type-t numbers at x (half an ulp of x). */
double verify_half_ulp(sl_type t, double x);

/* eta of one output: |got - exact| / (u * abs_prefix); 0 when got equals
 * exact, infinity for any other result when abs_prefix is 0 or got is not
 * a number. */
double verify_eta(sl_type t, double exact, double got, double abs_prefix);

/* Check a float add result against its exact reference: output i passes when
 * |got_i - exact_i| <= gamma(D_i) * abs_prefix_i + half an ulp of exact_i,
 * with gamma(D) = D u / (1 - D u) (the classical bound for D roundings; D u
 * to first order) and D_i = depth[i]. *max_eta receives the largest eta
 * seen (0 for n = 0). Returns true when every output passes; otherwise
 * fills *m with the first failing index. A NaN result passes where the
 * exact result is a NaN too (inf + -inf, a NaN input), and fails
 * elsewhere. */
bool verify_compare_bound(sl_type t, const void *exact, const void *got, const double *abs_prefix,
                          const size_t *depth, size_t n, double *max_eta, verify_mismatch *m);

/* Print the element at bits (type t) in full precision: integers in decimal
 * and hex, floats with %.9g or %.17g and %a. */
void verify_format_value(sl_type t, const void *bits, char *buf, size_t size);
/* The two halves of verify_format_value, each into its own buffer of size
 * bytes: decimal (%.9g / %.17g for floats) and hex (%a for floats). */
void verify_format_parts(sl_type t, const void *bits, char *dec, char *hex, size_t size);

#endif
