/* Test variant: the CUDA 5 samples' reduce4, its warp's last six steps
 * through volatile shared memory without __syncwarp (wrong under
 * independent thread scheduling). */
#define RD4_NAME rd4_volatile
#define RD4_SYNCWARP 0
#include "tests/variant/rd4_body.cuh"
#undef RD4_SYNCWARP
#undef RD4_NAME
