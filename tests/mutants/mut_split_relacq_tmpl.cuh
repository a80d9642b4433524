/* split-relacq: the control of chained_family.cuh, the catalogue's kernel
 * unchanged. */
#define MUT_NAME mut_split_relacq
#define MUT_SPLIT
#include "tests/mutants/chained_family.cuh"
