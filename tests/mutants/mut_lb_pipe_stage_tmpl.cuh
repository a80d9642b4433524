/* lb-pipe-stage: a pipelined block scans tile a from the staging area of
 * tile b (stages[cur] for stages[cur ^ 1]): only the persistent grid's
 * pipelined path (sp_scan_pipe) reads it, never a grid of a block per
 * tile. */
#define MUT_NAME mut_lb_pipe_stage
#define MUT_SP_PIPE_STAGE
#include "tests/mutants/lb_family.cuh"
