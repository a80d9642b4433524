/* lb-swapped: Swapped operands: the look-back's window reduction puts the
 * later tiles' values in front of the earlier ones'. */
#define MUT_NAME mut_lb_swapped
#define MUT_LB_SWAPPED
#include "tests/mutants/lb_family.cuh"
