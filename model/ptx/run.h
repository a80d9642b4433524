/* Running a PTX module on the simulator: load, launch an entry with its
 * arguments, unload. Launches add to the run opened by model_begin, with
 * the same counters and findings as the dialect's kernels
 * (docs/ptx.md). */
#ifndef SCANLAB_PTX_RUN_H
#define SCANLAB_PTX_RUN_H

#include <stddef.h>
#include "cuda/launch.h"
#include "cuda/status.h"
#include "model/ptx/ptx.h"

/* Parses PTX text; NULL with one "path:line: error: ..." message in err. */
ptx_module *model_ptx_load(const char *text, size_t len, const char *path, char *err, size_t errlen);
/* Reads a .ptx file and parses it. */
ptx_module *model_ptx_load_file(const char *path, char *err, size_t errlen);
/* Frees the module and its device variables. */
void model_ptx_unload(ptx_module *m);

/* The kernel (.entry) named name: its index, or -1 with a message in err
 * (no such function, or a .func, or one without a body). */
int model_ptx_entry(const ptx_module *m, const char *name, char *err, size_t errlen);
/* Its parameters: count, and each one's size in bytes. */
unsigned model_ptx_nparams(const ptx_module *m, int entry);
size_t model_ptx_param_size(const ptx_module *m, int entry, unsigned k);

/* Launches the kernel: args[k] points at parameter k's bytes, as
 * cudaLaunchKernel takes them. SL_ERR_ARG with a message in err for a
 * launch CUDA would refuse (block size against .reqntid or .maxntid);
 * SL_ERR_SIM or SL_ERR_UNSUPPORTED when the launch stopped (the finding is
 * in the run's stats). */
sl_status model_ptx_launch(ptx_module *m, int entry, const sl_launch *cfg, const void *const *args, char *err,
                           size_t errlen);
/* The same, recorded in the run's launch list under name (a string that
 * outlives the run) instead of the entry's. */
sl_status model_ptx_launch_named(ptx_module *m, int entry, const sl_launch *cfg, const void *const *args,
                                 const char *name, char *err, size_t errlen);

/* The device address of a module variable (__device__, __constant__), and
 * its size; NULL when there is none of that name. */
void *model_ptx_symbol(ptx_module *m, const char *name, size_t *bytes);

/* Lane-instructions executed by PTX launches since the process started. */
unsigned long long model_ptx_instructions(void);

#endif
