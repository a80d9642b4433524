/* rds: the control of rds_family.cuh, the catalogue's kernel unchanged. */
#define MUT_NAME mut_rds
#include "tests/mutants/rds_family.cuh"
