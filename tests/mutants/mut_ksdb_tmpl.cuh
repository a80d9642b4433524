/* ksdb: the control of ksdb_family.cuh, the catalogue's kernel unchanged. */
#define MUT_NAME mut_ksdb
#include "tests/mutants/ksdb_family.cuh"
