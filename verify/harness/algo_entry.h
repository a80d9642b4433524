/* How one line of a kernels.def file becomes an algorithm-table entry.
 * verify/algos.c expands cuda/kernels.def with these; a test (or a user's
 * own table) can expand a kernels.def of its own the same way. */
#ifndef SCANLAB_ALGO_ENTRY_H
#define SCANLAB_ALGO_ENTRY_H

#include "config.h"
#include "verify/harness/algos.h"

#if SCANLAB_HAVE_CUDA
#define SL_CUDA_RUN_(fn) fn
#else
#define SL_CUDA_RUN_(fn) NULL
#endif

/* The run functions that the generated <file>_dispatch.c defines. */
#define SL_KERNEL_DECL(file, level, kind, cli, depth, summary) \
    sl_status file##_sim(const sl_scan_args *a);               \
    sl_status file##_cuda(const sl_scan_args *a);

/* The table entry: backend sim always, cuda where the build has CUDA. */
#define SL_KERNEL_ENTRY(file, level, kind, cli, depth, summary) \
    {cli, summary, SL_KIND_##kind, {[SL_SIM] = file##_sim, [SL_CUDA] = SL_CUDA_RUN_(file##_cuda)}, depth},

#endif
