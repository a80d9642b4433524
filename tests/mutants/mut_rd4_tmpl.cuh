/* rd4: the control of rd4_family.cuh, the warp's steps ordered by
 * __syncwarp. */
#define MUT_NAME mut_rd4
#include "tests/mutants/rd4_family.cuh"
