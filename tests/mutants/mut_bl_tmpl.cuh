/* bl: the control of bl_family.cuh, the catalogue's kernel unchanged. */
#define MUT_NAME mut_bl
#include "tests/mutants/bl_family.cuh"
