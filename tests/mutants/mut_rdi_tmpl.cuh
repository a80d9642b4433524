/* rdi: the control of rdi_family.cuh, the catalogue's kernel unchanged. */
#define MUT_NAME mut_rdi
#include "tests/mutants/rdi_family.cuh"
