/* lb-two-stores: Packed status word written as two stores: the value half,
 * then the status half, as two strong stores instead of one (sp_status.cuh
 * holds the change); a reader's single load of the whole word is not ordered
 * with either. */
#define MUT_NAME mut_lb_two_stores
#define MUT_SP_TWO_STORES
#include "tests/mutants/lb_family.cuh"
