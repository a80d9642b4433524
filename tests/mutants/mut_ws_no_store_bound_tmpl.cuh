/* ws-no-store-bound: Missing bounds check: every thread stores out[i], also
 * past n in the last section. */
#define MUT_NAME mut_ws_no_store_bound
#define MUT_WS_NO_STORE_BOUND
#include "tests/mutants/ws_family.cuh"
