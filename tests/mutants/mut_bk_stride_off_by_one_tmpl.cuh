/* bk-stride-off-by-one: Off-by-one stride: the reduction tree's loop ends
 * one level early (stride < B for stride <= B), so the section's last
 * element never receives its first half. */
#define MUT_NAME mut_bk_stride_off_by_one
#define MUT_BK_STRIDE_OFF_BY_ONE
#include "tests/mutants/bk_family.cuh"
