/* ks-off-by-one: Off by one: thread t == stride skips its partner xy[0] at
 * every step. */
#define MUT_NAME mut_ks_off_by_one
#define MUT_KS_OFF_BY_ONE
#include "tests/mutants/ks_family.cuh"
