/* sel: the control of sel_family.cuh, the catalogue's compact unchanged. */
#define MUT_NAME mut_sel
#define SL_SEL_PARTITION 0
#include "tests/mutants/sel_family.cuh"

SL_HOST sl_status SL_KN(MUT_NAME)(const sl_kargs *a)
{
    return SL_KN(sel_host)(a);
}
