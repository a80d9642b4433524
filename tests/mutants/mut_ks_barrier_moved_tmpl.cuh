/* ks-barrier-moved: Moved barrier: the barrier at the top of the step loop
 * moved to its end; every later step is still ordered, but the first step
 * reads xy[t - 1] with no barrier after thread t - 1 stored its loaded
 * element. */
#define MUT_NAME mut_ks_barrier_moved
#define MUT_KS_BARRIER_MOVED
#include "tests/mutants/ks_family.cuh"
