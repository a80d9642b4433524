/* ct: the control of chained_family.cuh, the catalogue's kernel unchanged. */
#define MUT_NAME mut_ct
#include "tests/mutants/chained_family.cuh"
