/* libscanlab, PTX: a kernel as nvcc compiled it, run on the step-level
 * simulator with the counts and findings of include/scanlab/simulator.h.
 *
 *     char err[512];
 *     sl_ptx *m = sl_ptx_load_file("scan.ptx", err, sizeof err);  // nvcc -ptx -lineinfo
 *     int32_t *in = sl_ptx_dev_alloc(n * 4), *out = sl_ptx_dev_alloc(n * 4);
 *     sl_ptx_copy(in, host_in, n * 4);
 *     const void *args[] = {&in, &out, &n};
 *     sl_sim *sim = sl_sim_new();
 *     int rc = sl_ptx_launch(m, "scan", (sl_ptx_dim3){blocks, 1, 1}, (sl_ptx_dim3){256, 1, 1}, 0, args,
 *                            sim, err, sizeof err);
 *     // rc 0: it ran without a finding; 1: a finding (sl_sim_print_findings); 2: err says why not
 *
 * Device memory is the simulator's (host memory it watches): a kernel's
 * pointer arguments must come from sl_ptx_dev_alloc. This header stands
 * alone, beside simulator.h. */
#ifndef SCANLAB_PUBLIC_PTX_H
#define SCANLAB_PUBLIC_PTX_H

#include <stddef.h>
#include <scanlab/simulator.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sl_ptx sl_ptx;

typedef struct {
    unsigned x, y, z;
} sl_ptx_dim3;

/* A module from a .ptx file, or from PTX text of len bytes named name in
 * messages; NULL with one "path:line: error: ..." message in err. */
sl_ptx *sl_ptx_load_file(const char *path, char *err, size_t errlen);
sl_ptx *sl_ptx_load_text(const char *text, size_t len, const char *name, char *err, size_t errlen);
void sl_ptx_free(sl_ptx *m);

/* The module's kernels: how many, and the k-th one's name (mangled as in
 * the PTX unless it was declared extern "C"). */
unsigned sl_ptx_kernel_count(const sl_ptx *m);
const char *sl_ptx_kernel_name(const sl_ptx *m, unsigned k);

/* Simulator memory for kernel arguments (zeroed), freed with
 * sl_ptx_dev_free; NULL when out of memory. */
void *sl_ptx_dev_alloc(size_t bytes);
void sl_ptx_dev_free(void *p);
/* Copies between host and simulator memory (either way). */
void sl_ptx_copy(void *dst, const void *src, size_t bytes);

/* Launches kernel entry on grid x block threads with shared bytes of
 * dynamic shared memory; args[k] points at its k-th parameter's bytes (as
 * cudaLaunchKernel takes them). The counts and findings go to sim (NULL:
 * none kept). Returns 0 when the launch ran without a finding, 1 when the
 * simulator found an error in the kernel (see sl_sim_print_findings), 2
 * when the launch could not be made (err says why: no such kernel, a
 * block the kernel does not allow, too much shared memory). */
int sl_ptx_launch(sl_ptx *m, const char *entry, sl_ptx_dim3 grid, sl_ptx_dim3 block, size_t shared,
                  const void *const *args, sl_sim *sim, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
