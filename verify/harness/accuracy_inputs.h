/* Float inputs for `scanlab accuracy`: each a function of (distribution,
 * type, seed, n, condition number) only, so a printed seed replays it. */
#ifndef SCANLAB_ACCURACY_INPUTS_H
#define SCANLAB_ACCURACY_INPUTS_H

#include <stddef.h>
#include <stdint.h>
#include "cuda/ops.h"
#include "cuda/status.h"

typedef enum {
    ACC_DIST_UNIFORM01, /* [0, 1): no cancellation, sums grow like n/2 */
    ACC_DIST_UNIFORM11, /* [-1, 1): cancellation, prefixes wander like sqrt(n) */
    ACC_DIST_NORMAL,    /* standard normal */
    ACC_DIST_LOGNORMAL, /* positive, exponents spread over about 2^-35 .. 2^35 */
    ACC_DIST_ONES,      /* every element 1: f32 prefixes stagnate at 2^24 */
    ACC_DIST_ILLCOND,   /* a sum with a chosen condition number (GenSum-style) */
    ACC_DIST_COUNT
} accuracy_dist;

/* The name as --dist spells it. */
const char *verify_accuracy_dist_name(accuracy_dist d);
/* Parse one name; on failure SL_ERR_ARG with the reason, naming the valid
 * names, in why (size bytes; NULL: none). */
sl_status verify_accuracy_parse_dist(const char *s, accuracy_dist *out, char *why, size_t size);

/* Fill out[0..n) (f32 or f64) from distribution d. cond is the condition
 * number sum |x_j| / |sum x_j| of the whole input that ACC_DIST_ILLCOND aims
 * at (>= 1): reached within a factor of about 2 for cond between about n
 * and 1e30. The construction cannot make less than about n (the second
 * half cancels a running sum), nor much more than 1e31 (the precision of
 * its running sum). Other distributions ignore cond. */
sl_status verify_accuracy_fill(sl_type t, accuracy_dist d, double cond, uint64_t seed, size_t n,
                               void *out);

#endif
