/* The compensated add-scan: a running TwoSum pair (s, c) carries the sum and
 * the exact rounding errors accumulated so far, and every output is s + c
 * rounded once. Its error is about one rounding of the prefix whatever n
 * (eta ~ |prefix| / sum |x| <= 1), which makes it the reference point of
 * `scanlab accuracy`. */
#ifndef SCANLAB_COMPENSATED_H
#define SCANLAB_COMPENSATED_H

#include <stdbool.h>
#include <stddef.h>
#include "cuda/ops.h"
#include "cuda/status.h"

/* Compensated inclusive or exclusive add-scan of in[0..n) of type t into out
 * (in == out allowed). Floats only: SL_ERR_UNSUPPORTED for integer types.
 * Once the running sum is infinite or NaN the outputs follow it (IEEE). */
sl_status verify_compensated_scan(sl_type t, bool exclusive, const void *in, void *out, size_t n);

#endif
