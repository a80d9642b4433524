/* rds-zero-pad: Wrong identity: warp 0's lanes past the block's warps reduce
 * 0 instead of the operator's identity (right for add only). */
#define MUT_NAME mut_rds_zero_pad
#define MUT_RDS_ZERO_PAD
#include "tests/mutants/rds_family.cuh"
