/* split-publish-relaxed: Writer's ordering removed: the flag is published by
 * a relaxed store instead of a release, so the plain value store before it
 * is not ordered with the reader. */
#define MUT_NAME mut_split_publish_relaxed
#define MUT_SPLIT
#define MUT_SPLIT_PUBLISH_RELAXED
#include "tests/mutants/chained_family.cuh"
