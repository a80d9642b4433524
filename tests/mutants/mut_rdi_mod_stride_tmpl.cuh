/* rdi-mod-stride: In-place race: the active threads of step s are the
 * multiples of s instead of 2s, so thread t updates x[t] in place while
 * thread t - s reads it as its partner in the same step. */
#define MUT_NAME mut_rdi_mod_stride
#define MUT_RDI_MOD_STRIDE
#include "tests/mutants/rdi_family.cuh"
