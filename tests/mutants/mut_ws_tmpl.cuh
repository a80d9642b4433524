/* ws: the control of ws_family.cuh, the catalogue's kernel unchanged. */
#define MUT_NAME mut_ws
#include "tests/mutants/ws_family.cuh"
