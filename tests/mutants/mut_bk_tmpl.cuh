/* bk: the control of bk_family.cuh, the catalogue's kernel unchanged. */
#define MUT_NAME mut_bk
#include "tests/mutants/bk_family.cuh"
