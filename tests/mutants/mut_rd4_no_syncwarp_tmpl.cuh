/* rd4-no-syncwarp: the CUDA 5 samples' warp-synchronous reduction,
 * volatile shared memory and no __syncwarp. */
#define MUT_NAME mut_rd4_no_syncwarp
#define MUT_RD4_NO_SYNCWARP
#include "tests/mutants/rd4_family.cuh"
