/* Test variant, planted bug: the operands are swapped. Every commutative
 * operator still gives the right answer; affine must not. */
#define KS_NAME ks_swapped
#define KS_COMBINE(partner, mine) OP(mine, partner)
#include "tests/variant/ks_body.cuh"
#undef KS_COMBINE
#undef KS_NAME
