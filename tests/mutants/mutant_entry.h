/* How a line of tests/mutants/kernels.def becomes an algorithm-table entry:
 * as verify/harness/algo_entry.h does for the catalogue, with the sim
 * backend only (the mutants have no nvcc wrappers). */
#ifndef MUTANT_ENTRY_H
#define MUTANT_ENTRY_H

#include "verify/harness/algos.h"

#define MUT_KERNEL_DECL(file, level, kind, cli, depth, summary) sl_status file##_sim(const sl_scan_args *a);
#define MUT_KERNEL_ENTRY(file, level, kind, cli, depth, summary) \
    {cli, summary, SL_KIND_##kind, {[SL_SIM] = file##_sim}, depth},

#endif
