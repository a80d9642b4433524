/* bl-zero-identity: Wrong identity: the tree's root is cleared to 0 instead
 * of the operator's identity (right for add only). */
#define MUT_NAME mut_bl_zero_identity
#define MUT_BL_ZERO_IDENTITY
#include "tests/mutants/bl_family.cuh"
