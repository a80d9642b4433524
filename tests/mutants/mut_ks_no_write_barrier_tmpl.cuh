/* ks-no-write-barrier: Missing barrier: a step's writes follow its reads
 * with no barrier between, so thread t reads xy[t - stride] while thread t -
 * stride writes it. */
#define MUT_NAME mut_ks_no_write_barrier
#define MUT_KS_NO_WRITE_BARRIER
#include "tests/mutants/ks_family.cuh"
