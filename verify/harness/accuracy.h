/* Accuracy of float add-scans against the exact reference (DESIGN.md,
 * "Floating-point accuracy"): per prefix, the error in ulps and
 * eta = |error| / (u * sum |x_j|); per algorithm, their statistics and the
 * addition-tree depth that bounds them. */
#ifndef SCANLAB_ACCURACY_H
#define SCANLAB_ACCURACY_H

#include <stdbool.h>
#include <stddef.h>
#include "verify/harness/algos.h"
#include "verify/harness/compare.h" /* verify_unit_roundoff */

typedef struct {
    double max_ulps, median_ulps;
    double max_eta, median_eta, rms_eta;
} verify_accuracy_stats;

/* The spacing of type t at v (finite): 2^(e - p + 1) for v in [2^e, 2^(e+1)),
 * the smallest subnormal for v in the subnormal range or zero. */
double verify_accuracy_ulp(sl_type t, double v);

/* For each prefix i, the error of got[i] against the correctly rounded exact
 * prefix exact[i]: ulps[i] = |got - exact| / ulp(exact) and
 * eta[i] = |got - exact| / (u * abs_prefix[i]) (0 when the error is 0, also
 * when abs_prefix is 0). Equal infinities or two NaNs are no error; any
 * other disagreement involving a non-finite value is an infinite error. */
void verify_accuracy_errors(sl_type t, const void *got, const void *exact, const double *abs_prefix,
                            size_t n, double *ulps, double *eta);

/* Max, median (the mean of the two middle values for an even count) and,
 * for eta, root mean square over ulps[0..m) and eta[0..m); all 0 for m = 0.
 * Reorders both arrays. */
void verify_accuracy_summarize(double *ulps, double *eta, size_t m, verify_accuracy_stats *out);

/* The largest addition depth over the outputs of a scan with these
 * arguments: max over i of algo->depth(args, i), or the sequential depth
 * (n - 1; n - 2 for an exclusive scan) when the algorithm has no depth
 * function. 0 for n <= 1. */
size_t verify_accuracy_depth_bound(const verify_algo *a, const sl_scan_args *args);

/* Whether max_eta respects the worst-case bound of an addition tree of
 * depth D: |got - S| <= gamma_D sum|x_j| with gamma_D = D u / (1 - D u),
 * and the rounded reference lies within u |S| <= u sum|x_j| of the exact S,
 * so eta <= gamma_D / u + 1. Vacuous (true) when D u >= 1. */
bool verify_accuracy_within_bound(sl_type t, double max_eta, size_t depth);

#endif
