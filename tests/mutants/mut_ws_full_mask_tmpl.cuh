/* ws-full-mask: Full-mask shuffle in a partial warp: the warp scan names all
 * 32 lanes, also in the last warp of a block whose size is not a multiple of
 * 32 (undefined on the GPU). */
#define MUT_NAME mut_ws_full_mask
#define MUT_WS_FULL_MASK
#include "tests/mutants/ws_family.cuh"
