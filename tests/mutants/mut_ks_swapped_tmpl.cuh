/* ks-swapped: Swapped operands: the later element becomes the left operand;
 * right for every commutative operator. */
#define MUT_NAME mut_ks_swapped
#define MUT_KS_SWAPPED
#include "tests/mutants/ks_family.cuh"
