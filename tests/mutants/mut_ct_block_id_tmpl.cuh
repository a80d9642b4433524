/* ct-block-id: Block id instead of ticket: persistent blocks take tiles
 * blockIdx.x, blockIdx.x + gridDim.x, ... instead of drawing tickets, so a
 * resident block may wait for a tile of a block that has not started
 * (sp_driver.cuh holds the change). */
#define MUT_NAME mut_ct_block_id
#define MUT_SP_BLOCK_ID
#include "tests/mutants/chained_family.cuh"
