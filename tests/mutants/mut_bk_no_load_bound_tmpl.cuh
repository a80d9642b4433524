/* bk-no-load-bound: Missing bounds check: the section's load drops i < n and
 * reads past the input whenever n is not a multiple of the section (2 x
 * block). */
#define MUT_NAME mut_bk_no_load_bound
#define MUT_BK_NO_LOAD_BOUND
#include "tests/mutants/bk_family.cuh"
