/* split-wait-relaxed: Reader's ordering removed: the flag is polled by a
 * relaxed load instead of an acquire, so the plain value load after it is
 * not ordered with the writer. */
#define MUT_NAME mut_split_wait_relaxed
#define MUT_SPLIT
#define MUT_SPLIT_WAIT_RELAXED
#include "tests/mutants/chained_family.cuh"
