/* split-flag-first: Flag published before the value: the release store of
 * the flag comes first, the value's store after it, unordered with a reader
 * that saw the flag. */
#define MUT_NAME mut_split_flag_first
#define MUT_SPLIT
#define MUT_SPLIT_FLAG_FIRST
#include "tests/mutants/chained_family.cuh"
