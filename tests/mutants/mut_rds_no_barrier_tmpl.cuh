/* rds-no-barrier: Missing barrier: warp 0 reads the warp totals with no
 * barrier after the other warps' lanes 0 stored them. */
#define MUT_NAME mut_rds_no_barrier
#define MUT_RDS_NO_BARRIER
#include "tests/mutants/rds_family.cuh"
