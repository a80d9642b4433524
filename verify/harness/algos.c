#include "verify/harness/algos.h"

#include <stdio.h>
#include <string.h>

#include "config.h"
#include "cpu/cpu.h"
#include "verify/harness/algo_entry.h"
#include "cuda/kernels.h"
#include "verify/harness/compensated.h"
#if SCANLAB_HAVE_CUDA
#include "cuda/cub/cub_scan.h"
#endif

/* Adapters from the table's argument block to the cpu/ functions. */
static sl_status cpu_algo_seq(const sl_scan_args *a)
{
    return cpu_scan_seq(a->type, a->op, a->exclusive, a->in, a->out, a->n);
}
/* Float add only: every other (type, operator) is SL_ERR_UNSUPPORTED, which
 * the commands report as a skip. */
static sl_status verify_algo_compensated(const sl_scan_args *a)
{
    if (a->op != SL_ADD || !SL_TYPE_IS_FLOAT(a->type))
        return SL_ERR_UNSUPPORTED;
    return verify_compensated_scan(a->type, a->exclusive, a->in, a->out, a->n);
}
static sl_status cpu_algo_reduce_seq(const sl_scan_args *a)
{
    return cpu_reduce_seq(a->type, a->op, a->in, a->n, a->out);
}
#if SCANLAB_HAVE_OPENMP
static sl_status cpu_algo_omp_reduce_then_scan(const sl_scan_args *a)
{
    return cpu_scan_omp_reduce_then_scan(a->type, a->op, a->exclusive, a->in, a->out, a->n, a->threads);
}
static sl_status cpu_algo_omp_single_pass(const sl_scan_args *a)
{
    return cpu_scan_omp_single_pass(a->type, a->op, a->exclusive, a->in, a->out, a->n, a->threads);
}
static sl_status cpu_algo_omp_directive(const sl_scan_args *a)
{
    return cpu_scan_omp_directive(a->type, a->op, a->exclusive, a->in, a->out, a->n, a->threads);
}
static sl_status cpu_algo_omp_reduce(const sl_scan_args *a)
{
    return cpu_reduce_omp(a->type, a->op, a->in, a->n, a->out, a->threads);
}
/* Chunked OpenMP orders: output i of chunk k passes through at most the
 * chunk's own prefix, the k chunk carries and the chunk sums before it,
 * which never exceeds the sequential depth i + 1. */
static size_t omp_depth(const sl_scan_args *a, size_t i)
{
    (void)a;
    return i + 1;
}
#endif
#if SCANLAB_HAVE_CUDA
/* CUB's decoupled look-back adds tile partials in an order that depends on
 * timing; whatever the order, a tree over the i + 1 inputs of output i has
 * depth <= i, so i + 1 is safe for inclusive and exclusive scans. */
static size_t cub_depth(const sl_scan_args *a, size_t i)
{
    (void)a;
    return i + 1;
}
#endif

const verify_algo verify_algos[] = {
    {"sequential", "one thread, left to right: the reference every backend is judged against",
     SL_KIND_SCAN, {[SL_SEQ] = cpu_algo_seq}, NULL},
    {"compensated", "TwoSum pairs (seq: one thread; cuda: pairs scanned by CUB): about one rounding per prefix whatever n (float add only)",
     SL_KIND_SCAN, {[SL_SEQ] = verify_algo_compensated, [SL_CUDA] = SL_CUDA_RUN_(compensated_cuda)}, NULL},
    {"reduce-sequential", "one thread, left to right: the reference reduction", SL_KIND_REDUCE,
     {[SL_SEQ] = cpu_algo_reduce_seq}, NULL},
#if SCANLAB_HAVE_OPENMP
    {"omp-reduce-then-scan",
     "OpenMP: reduce contiguous chunks, scan the chunk sums, rescan each chunk from its carry (reads 2n, writes n)",
     SL_KIND_SCAN, {[SL_OMP] = cpu_algo_omp_reduce_then_scan}, omp_depth},
    {"omp-single-pass",
     "OpenMP: each chunk publishes its aggregate and looks back for its predecessors' (reads n, writes n)",
     SL_KIND_SCAN, {[SL_OMP] = cpu_algo_omp_single_pass}, omp_depth},
    {"omp-scan-directive", "OpenMP 5 'reduction(inscan)' with '#pragma omp scan': the baseline",
     SL_KIND_SCAN, {[SL_OMP] = cpu_algo_omp_directive}, omp_depth},
    {"omp-reduce", "OpenMP: a reduction over contiguous chunks", SL_KIND_REDUCE,
     {[SL_OMP] = cpu_algo_omp_reduce}, omp_depth},
#endif
    /* GPU kernels, one line each in cuda/kernels.def: simulated always, on the
     * GPU where the build has CUDA */
#define SL_KERNEL SL_KERNEL_ENTRY
#include "cuda/kernels.def"
#undef SL_KERNEL
#if SCANLAB_HAVE_CUDA
    {"cub", "CUB's cub::DeviceScan (decoupled look-back): the vendor baseline; GPU only",
     SL_KIND_SCAN, {[SL_CUDA] = cub_scan_cuda}, cub_depth},
#endif
};
const size_t verify_algo_count = sizeof verify_algos / sizeof verify_algos[0];

const verify_algo *verify_find_algo(const char *name, bool complain)
{
    for (size_t i = 0; i < verify_algo_count; i++)
        if (strcmp(verify_algos[i].name, name) == 0)
            return &verify_algos[i];
    if (complain) {
        fprintf(stderr, "scanlab: unknown algorithm '%s' (valid: all", name);
        for (size_t i = 0; i < verify_algo_count; i++)
            fprintf(stderr, ", %s", verify_algos[i].name);
        fprintf(stderr, ")\n");
    }
    return NULL;
}

bool verify_algo_runs_on(const verify_algo *a, sl_backend b)
{
    return b < SL_BACKEND_COUNT && a->run[b] != NULL && verify_backend_built(b);
}
