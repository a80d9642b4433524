/* ks: the control of ks_family.cuh, the catalogue's kernel unchanged. */
#define MUT_NAME mut_ks
#include "tests/mutants/ks_family.cuh"
