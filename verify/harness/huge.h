/* The pieces of a huge run (huge.c; `scanlab simulate --huge`, the huge
 * checks of verify and the report, huge_check.h): lazily mapped
 * buffers, the chosen elements, a sparse input and its checks. */
#ifndef SCANLAB_HUGE_H
#define SCANLAB_HUGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "verify/harness/catalog.h"

/* A zeroed buffer whose pages appear when first touched (NULL on failure). */
void *huge_buffer(size_t bytes);
void huge_buffer_free(void *p, size_t bytes);

/* The chosen elements of a run of n: 0, 2^31 and 2^32 where they exist,
 * n - 1; at[] holds at least 4. Returns how many. */
unsigned huge_positions(size_t n, uint64_t *at);

/* Small integers (1 to 7) in a window around every chosen element, zero
 * (add's identity) elsewhere; only the windows are written. */
void huge_fill(sl_type t, uint64_t seed, size_t n, void *in, const uint64_t *at, unsigned nat);

/* The outputs of every window (32 elements around each chosen element)
 * against the add scan of the windows' inputs; returns how many differ (the first: its index,
 * the expected and the actual value). */
size_t huge_check(sl_type t, bool exclusive, size_t n, const void *in, const void *out, const uint64_t *at,
                  unsigned nat, size_t *first_bad, long long *want, long long *got);

/* The sum of every input of the windows (a reduction's exact result). */
long long huge_window_sum(sl_type t, size_t n, const void *in, const uint64_t *at, unsigned nat);

#endif
