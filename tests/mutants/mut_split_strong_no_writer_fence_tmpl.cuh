/* split-strong-no-writer-fence: Writer's fence removed with strong (relaxed)
 * value accesses: no data race, but the value's store may become visible
 * after the flag's. */
#define MUT_NAME mut_split_strong_no_writer_fence
#define MUT_SPLIT
#define MUT_SPLIT_FENCES
#define MUT_SPLIT_STRONG_VALUES
#define MUT_SPLIT_NO_WRITER_FENCE
#include "tests/mutants/chained_family.cuh"
