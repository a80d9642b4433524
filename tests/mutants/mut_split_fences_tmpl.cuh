/* split-fences: the control of chained_family.cuh, the catalogue's kernel
 * unchanged. */
#define MUT_NAME mut_split_fences
#define MUT_SPLIT
#define MUT_SPLIT_FENCES
#include "tests/mutants/chained_family.cuh"
