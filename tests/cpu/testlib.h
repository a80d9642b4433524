/* Shared by the CPU scan tests: the seed, inputs chosen to hurt, a naive
 * scan written from the definition, and comparisons. */
#ifndef SCANLAB_TEST_CPU_TESTLIB_H
#define SCANLAB_TEST_CPU_TESTLIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuda/ops.h"
#include "verify/harness/rng.h"

/* Sizes every scan is tried on, besides random ones. */
extern const size_t testlib_sizes[];
extern const size_t testlib_size_count;

/* SCANLAB_SEED when set, else the clock; printed so a failure replays. */
uint64_t testlib_seed(void);

/* n random elements of type t suited to op: integers over their whole range
 * with extremes and runs of equal values, affine maps, floats in [-1, 1)
 * (signed zeros and repeats for max/min). */
void testlib_fill(verify_rng *r, sl_type t, sl_op op, void *x, size_t n);

/* The scan from its definition: y_i = x_0 op ... op x_i as a left fold
 * (a double loop up to TESTLIB_DOUBLE_LOOP_MAX elements, the recurrence
 * y_i = y_{i-1} op x_i beyond), and the exclusive scan as the inclusive one
 * shifted right with the identity in front. */
#define TESTLIB_DOUBLE_LOOP_MAX 1100
void testlib_naive_scan(sl_type t, sl_op op, bool exclusive, const void *x, void *y, size_t n);
/* The left fold of x[0..n), the identity for n = 0. */
void testlib_naive_reduce(sl_type t, sl_op op, const void *x, size_t n, void *result);

/* The first index where got and want differ: bit for bit for integers and
 * for float max/min, by value for float add. n when none. */
size_t testlib_first_diff(sl_type t, sl_op op, const void *got, const void *want, size_t n);

/* For float add: the first index i where |got_i - want_i| exceeds
 * depth * 2^-(mantissa bits) * sum_{j <= i} |x_j| (the exclusive form sums
 * j < i); n when none. */
size_t testlib_first_outside(sl_type t, bool exclusive, const void *x, const void *got,
                             const void *want, size_t n, double depth);

/* Element i of a buffer of type t, as a double (for messages). */
double testlib_value(sl_type t, const void *buf, size_t i);

#endif
