/* Test variant: reduce4 with its warp's steps ordered by __syncwarp (the
 * fix of rd4-volatile). */
#define RD4_NAME rd4_syncwarp
#define RD4_SYNCWARP 1
#include "tests/variant/rd4_body.cuh"
#undef RD4_SYNCWARP
#undef RD4_NAME
