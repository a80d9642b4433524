/* Test variant: a signed overflow whose result is unused (right scan). */
#define UB_NAME ub_overflow
#include "tests/variant/ub_body.cuh"
#undef UB_NAME
