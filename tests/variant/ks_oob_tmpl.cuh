/* Test variant, planted out-of-bounds read: thread 0 reads one element past
 * the end of the input. The value read is not used, so the result would be
 * right; the simulator stops the kernel at that read. */
#define KS_NAME ks_oob
#define KS_COMBINE(partner, mine) OP(partner, mine)
#define KS_PLANT    \
    if (t == 0) \
        (void)LD(in, n);
#include "tests/variant/ks_body.cuh"
#undef KS_PLANT
#undef KS_COMBINE
#undef KS_NAME
