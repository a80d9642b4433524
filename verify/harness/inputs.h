/* Input generators for the differential harness. An input is a function of
 * (seed, type, operator class, distribution, n) only, never of the algorithm
 * or backend, so every backend is judged on the same numbers and a printed
 * seed replays any case. */
#ifndef SCANLAB_INPUTS_H
#define SCANLAB_INPUTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuda/ops.h"
#include "cuda/status.h"

typedef enum {
    VERIFY_DIST_UNIFORM,   /* integers: the full range, so sums wrap around */
    VERIFY_DIST_SMALL,     /* integers: values in [-100, 100] */
    VERIFY_DIST_UNIFORM01, /* floats: [0, 1) */
    VERIFY_DIST_UNIFORM11, /* floats: [-1, 1) */
    VERIFY_DIST_NORMAL,    /* floats: standard normal */
    VERIFY_DIST_LOGNORMAL, /* floats: positive, exponents spread over a wide range */
    VERIFY_DIST_ONES,      /* floats: every element 1 */
    VERIFY_DIST_ILLCOND,   /* floats: large values cancelled by their negations */
    VERIFY_DIST_COUNT
} verify_dist;

/* The name of a distribution as --dist spells it. */
const char *verify_dist_name(verify_dist d);
/* Whether distribution d makes inputs of type t. */
bool verify_dist_applies(verify_dist d, sl_type t);
/* The distribution used for type t when --dist is not given. */
verify_dist verify_default_dist(sl_type t);
/* Parse a comma-separated list of names (or "all") into a mask
 * (1u << dist); on failure return SL_ERR_ARG with the reason, naming the
 * valid names, in why (size bytes; NULL: none). */
sl_status verify_parse_dist_list(const char *s, unsigned *mask, char *why, size_t size);

/* Fill out[0..n) with elements of type t for operator op drawn from
 * distribution d. affine gets valid map encodings (odd multipliers, so the
 * composed maps do not collapse to constants). Returns SL_ERR_ARG when d
 * does not apply to t. */
sl_status verify_fill_input(sl_type t, sl_op op, verify_dist d, uint64_t seed, size_t n, void *out);

#endif
