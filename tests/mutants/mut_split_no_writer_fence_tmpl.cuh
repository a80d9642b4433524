/* split-no-writer-fence: Writer's fence removed: nothing orders the plain
 * value store before the relaxed flag store. */
#define MUT_NAME mut_split_no_writer_fence
#define MUT_SPLIT
#define MUT_SPLIT_FENCES
#define MUT_SPLIT_NO_WRITER_FENCE
#include "tests/mutants/chained_family.cuh"
