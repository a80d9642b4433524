/* compact: the control of compact_family.cuh, the catalogue's kernel
 * unchanged. */
#define MUT_NAME mut_compact
#include "tests/mutants/compact_family.cuh"
