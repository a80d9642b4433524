/* The sizes the harness checks by default: the edges where scan kernels
 * break (empty, one element, a warp, a block, powers of two and their
 * neighbours) plus a few random sizes from the seed. */
#ifndef SCANLAB_SIZES_H
#define SCANLAB_SIZES_H

#include <stddef.h>
#include <stdint.h>
#include "cuda/status.h"

/* The largest size of the default set unless --max-n says otherwise. */
#define VERIFY_DEFAULT_MAX_N ((size_t)1 << 12)
/* How many random sizes in [1, max_n] the default set adds. */
#define VERIFY_RANDOM_SIZES 3

/* The default set for max_n, sorted ascending without duplicates, in a
 * malloc'ed array: 0..3, warp size +-1, block size +-1, 1000, every 2^k
 * <= max_n with 2^k - 1 and 2^k + 1, and VERIFY_RANDOM_SIZES sizes drawn
 * from seed. Sizes above max_n are left out except 2^k + 1. */
sl_status verify_default_sizes(size_t max_n, uint64_t seed, size_t **sizes, size_t *count);

/* Sort sizes ascending and drop duplicates in place; returns the new count. */
size_t verify_sort_sizes(size_t *sizes, size_t count);

#endif
