/* split-strong-no-reader-fence: Reader's fence removed with strong (relaxed)
 * value accesses: no data race, but the value's load may return a store
 * older than the one the flag announced. */
#define MUT_NAME mut_split_strong_no_reader_fence
#define MUT_SPLIT
#define MUT_SPLIT_FENCES
#define MUT_SPLIT_STRONG_VALUES
#define MUT_SPLIT_NO_READER_FENCE
#include "tests/mutants/chained_family.cuh"
