/* lb: the control of lb_family.cuh, the catalogue's kernel unchanged. */
#define MUT_NAME mut_lb
#include "tests/mutants/lb_family.cuh"
