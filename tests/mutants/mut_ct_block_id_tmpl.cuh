/* ct-block-id: Block id instead of ticket: a block takes tile blockIdx.x
 * instead of drawing a ticket, so a resident block may wait for the tile of
 * a block that has not started (sp_driver.cuh holds the change). */
#define MUT_NAME mut_ct_block_id
#define MUT_SP_BLOCK_ID
#include "tests/mutants/chained_family.cuh"
