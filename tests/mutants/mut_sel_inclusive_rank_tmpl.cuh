/* sel-inclusive-rank: the scatter stages a thread's kept items from its
 * inclusive rank in the tile (its own count included) for the exclusive
 * one: every kept item lands one thread's count too far. */
#define MUT_NAME mut_sel_inclusive_rank
#define MUT_SEL_INCLUSIVE_RANK
#define SL_SEL_PARTITION 0
#include "tests/mutants/sel_family.cuh"

SL_HOST sl_status SL_KN(MUT_NAME)(const sl_kargs *a)
{
    return SL_KN(sel_host)(a);
}
