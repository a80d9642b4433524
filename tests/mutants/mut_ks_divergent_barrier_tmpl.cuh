/* ks-divergent-barrier: Barrier in divergent code: the barrier between reads
 * and writes moved inside if (t >= stride), which threads t < stride skip. */
#define MUT_NAME mut_ks_divergent_barrier
#define MUT_KS_DIVERGENT_BARRIER
#include "tests/mutants/ks_family.cuh"
