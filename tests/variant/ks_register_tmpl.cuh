/* Test variant: a correct Kogge-Stone, earlier operand first. */
#define KS_NAME ks_register
#define KS_COMBINE(partner, mine) OP(partner, mine)
#include "tests/variant/ks_body.cuh"
#undef KS_COMBINE
#undef KS_NAME
