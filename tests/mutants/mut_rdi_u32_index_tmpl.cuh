/* rdi-u32-index: 32-bit index arithmetic: the global index wraps at 2^32
 * elements. */
#define MUT_NAME mut_rdi_u32_index
#define MUT_RDI_U32_INDEX
#include "tests/mutants/rdi_family.cuh"
