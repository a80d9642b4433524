/* compact-no-reuse-barrier: Missing barrier: the block scan of the counts no
 * longer ends with a barrier, so its next call's stores to the shared array
 * race with this call's last reads (app_scan_copy.cuh holds the change). */
#define MUT_NAME mut_compact_no_reuse_barrier
#define MUT_APP_NO_REUSE_BARRIER
#include "tests/mutants/compact_family.cuh"
