/* CPU scans: the sequential references and the OpenMP scans.
 *
 * Every function takes the element type and operator from the catalogue
 * (cuda/ops.h), works for every n >= 0, and allows in == out (in place).
 * Exclusive scans write the identity at index 0. */
#ifndef SCANLAB_CPU_H
#define SCANLAB_CPU_H

#include <stdbool.h>
#include <stddef.h>
#include "cuda/ops.h"
#include "cuda/status.h"

/* Sequential scan, left to right: the reference. */
sl_status cpu_scan_seq(sl_type t, sl_op op, bool exclusive, const void *in, void *out, size_t n);
/* Sequential reduction into *result (the identity for n = 0). */
sl_status cpu_reduce_seq(sl_type t, sl_op op, const void *in, size_t n, void *result);
/* Writes the operator's identity for type t into *out. */
sl_status cpu_identity(sl_type t, sl_op op, void *out);

/* OpenMP scans; threads = 0 uses the runtime's default. Without OpenMP in
 * the build they return SL_ERR_UNSUPPORTED. */
/* Reduce each contiguous chunk, scan the chunk sums, rescan each chunk from
 * its carry: reads the input twice, writes once. */
sl_status cpu_scan_omp_reduce_then_scan(sl_type t, sl_op op, bool exclusive, const void *in,
                                        void *out, size_t n, int threads);
/* Single pass: each chunk scans itself, publishes its aggregate, looks back
 * over its predecessors' published aggregates/prefixes and fixes up: reads
 * once, writes once. */
sl_status cpu_scan_omp_single_pass(sl_type t, sl_op op, bool exclusive, const void *in, void *out,
                                   size_t n, int threads);
/* The OpenMP 5 scan directive (reduction(inscan, ...) and #pragma omp scan). */
sl_status cpu_scan_omp_directive(sl_type t, sl_op op, bool exclusive, const void *in, void *out,
                                 size_t n, int threads);
/* Parallel reduction over contiguous chunks, combined in chunk order. */
sl_status cpu_reduce_omp(sl_type t, sl_op op, const void *in, size_t n, void *result, int threads);

/* A parallel copy of n elements of elem_size bytes: the bandwidth ceiling
 * that the benchmarks compare against. */
sl_status cpu_copy_omp(const void *in, void *out, size_t n, size_t elem_size, int threads);

/* The team size of the OpenMP scans called with threads = 0 (the runtime's
 * default until then); nothing without OpenMP in the build. */
void cpu_omp_set_default_threads(int threads);

#endif
