/* ksdb-in-place: In-place race: the double-buffered step writes its result
 * into the buffer it reads, so thread t writes buf[pin][t] while thread t +
 * stride reads it in the same step. */
#define MUT_NAME mut_ksdb_in_place
#define MUT_KSDB_IN_PLACE
#include "tests/mutants/ksdb_family.cuh"
