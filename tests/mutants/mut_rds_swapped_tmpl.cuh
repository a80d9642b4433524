/* rds-swapped: Swapped operands: the warp reduction puts lane l + d's range
 * before lane l's. */
#define MUT_NAME mut_rds_swapped
#define MUT_RDS_SWAPPED
#include "tests/mutants/rds_family.cuh"
