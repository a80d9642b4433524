/* sel-publish-early: a tile publishes its count before counting: the
 * status word says 0 (tile 0: an inclusive prefix of 0), so the tiles
 * after it take too few outputs before them. */
#define MUT_NAME mut_sel_publish_early
#define MUT_SEL_PUBLISH_EARLY
#define SL_SEL_PARTITION 0
#include "tests/mutants/sel_family.cuh"

SL_HOST sl_status SL_KN(MUT_NAME)(const sl_kargs *a)
{
    return SL_KN(sel_host)(a);
}
