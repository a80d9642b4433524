/* rdi-no-bound: Missing bounds check: every thread loads in[i], also past n
 * in the last block. */
#define MUT_NAME mut_rdi_no_bound
#define MUT_RDI_NO_BOUND
#include "tests/mutants/rdi_family.cuh"
