/* split-strong: the control of chained_family.cuh, the catalogue's kernel
 * unchanged. */
#define MUT_NAME mut_split_strong
#define MUT_SPLIT
#define MUT_SPLIT_FENCES
#define MUT_SPLIT_STRONG_VALUES
#include "tests/mutants/chained_family.cuh"
