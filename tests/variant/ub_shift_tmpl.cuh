/* Test variant: the CUDA samples' lane mask (1 << 32) - 1. */
#define UB_NAME ub_shift
#define UB_SHIFT 1
#include "tests/variant/ub_body.cuh"
#undef UB_SHIFT
#undef UB_NAME
