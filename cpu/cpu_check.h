/* Argument checks shared by the CPU scans (internal to cpu/). */
#ifndef SCANLAB_CPU_CHECK_H
#define SCANLAB_CPU_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include "cuda/ops.h"
#include "cuda/status.h"

/* Whether (t, op) is a pair of the catalogue. */
static inline bool cpu_pair_valid(sl_type t, sl_op op)
{
    return (unsigned)t < SL_TYPE_COUNT && (unsigned)op < SL_OP_COUNT && SL_OP_APPLIES(op, t);
}

/* A valid pair, and buffers wherever there are elements to touch. */
static inline sl_status cpu_check_args(sl_type t, sl_op op, const void *in, const void *out, size_t n)
{
    if (!cpu_pair_valid(t, op) || (n > 0 && (!in || !out)))
        return SL_ERR_ARG;
    return SL_OK;
}

#endif
