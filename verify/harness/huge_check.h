/* The huge check of verify and the report: a device-level kernel (a scan
 * or a reduction) run in the simulator's huge mode over VERIFY_HUGE_N
 * elements, so that only the blocks around elements 0, 2^31, 2^32 and
 * n - 1 run and every access's index width is checked against the array
 * it indexes (docs/memory-model.md): a 32-bit index computation fails it
 * whatever the sizes the other checks ran. */
#ifndef SCANLAB_HUGE_CHECK_H
#define SCANLAB_HUGE_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include "verify/harness/algos.h"

/* Past 2^32 elements, so that both 2^31 and 2^32 are chosen elements. */
#define VERIFY_HUGE_N (((size_t)1 << 32) + 1024)

typedef struct {
    /* SL_OK passed; SL_ERR_CHECK a wrong output in a window; SL_ERR_SIM a
     * finding (an index too narrow, ...); SL_ERR_UNSUPPORTED: the kernel
     * cannot be run in part (a skip, with the reason in what); anything
     * else: the run failed */
    sl_status status;
    bool outputs_checked; /* the windows' outputs were checked (else the index widths alone) */
    unsigned long long blocks, skipped;
    char what[320];       /* one line: the verdict's reason, or the first finding */
} verify_huge_result;

/* Whether algorithm a gets a huge check: a scan or a reduction with a sim
 * backend (applications allocate per element on the host). */
bool verify_huge_applies(const verify_algo *a);

/* Run a's huge check for i32 add (inclusive), with block and param (0:
 * its defaults) and the input windows from seed; races fail it unless
 * allow_races. Returns r->status. */
sl_status verify_huge_check(const verify_algo *a, int block, int param, uint64_t seed, bool allow_races,
                            verify_huge_result *r);

#endif
