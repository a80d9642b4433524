/* Test variant, planted race: thread 1 reads the word that thread 0 stores
 * in the same barrier interval. The value read is not used, so the result
 * is right in any order; the race alone must fail the verdict. */
#define KS_NAME ks_racy
#define KS_COMBINE(partner, mine) OP(partner, mine)
#define KS_PLANT    \
    if (t == 1) \
        (void)LD(buf, 0);
#include "tests/variant/ks_body.cuh"
#undef KS_PLANT
#undef KS_COMBINE
#undef KS_NAME
