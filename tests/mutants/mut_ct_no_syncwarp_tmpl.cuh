/* ct-no-syncwarp: Missing barrier (warp level): the __syncwarp between the
 * warp's striped stores to its staging area and its blocked loads from it
 * removed (tile_scan_copy.cuh holds the change); under independent thread
 * scheduling a lane may read a word another lane has not yet stored. */
#define MUT_NAME mut_ct_no_syncwarp
#define MUT_TILE_NO_SYNCWARP
#include "tests/mutants/chained_family.cuh"
