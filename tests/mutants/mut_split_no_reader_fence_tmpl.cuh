/* split-no-reader-fence: Reader's fence removed: nothing orders the plain
 * value load after the relaxed flag load. */
#define MUT_NAME mut_split_no_reader_fence
#define MUT_SPLIT
#define MUT_SPLIT_FENCES
#define MUT_SPLIT_NO_READER_FENCE
#include "tests/mutants/chained_family.cuh"
