/* Report section "gpu": every algorithm with a cuda backend, run on the
 * GPU: the harness's verdict against the reference, the time of its
 * kernels alone (gpu_time.h) and of the whole call from host memory to
 * host memory. Without a GPU (or without CUDA in the build) the section
 * says so and completes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "verify/harness/algos.h"
#include "verify/harness/harness.h"
#include "verify/harness/rng.h"
#include "verify/report/gpu_time.h"
#include "verify/report/report.h"

#define GPU_REPS 5
#define GPU_MAX_SIZES 3

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct {
    double host_ms;   /* median of the calls, host memory to host memory */
    double kernel_ms; /* median of the kernels' time (< 0: not measured) */
    unsigned kernels;
} gpu_times;

/* GPU_REPS calls after one warm-up call: the median host-to-host time and
 * the median time of the kernels alone. */
static sl_status time_calls(const verify_algo *a, sl_type t, size_t n, uint64_t seed, bool kernels, gpu_times *g)
{
    size_t es = SL_TYPE_SIZE(t);
    void *in = malloc(n * es), *out = malloc(n * es);
    sl_status st = in && out ? verify_fill_input(t, SL_ADD, verify_default_dist(t), seed, n, in) : SL_ERR_NOMEM;
    sl_scan_args args = {.type = t, .op = SL_ADD, .in = in, .out = out, .n = n};
    double host[GPU_REPS], kern[GPU_REPS];
    size_t nk = 0;
    g->kernels = 0;
    if (st == SL_OK)
        st = a->run[SL_CUDA](&args);
    for (int r = 0; r < GPU_REPS && st == SL_OK; r++) {
        double t0 = now_s();
        st = a->run[SL_CUDA](&args);
        host[r] = 1e3 * (now_s() - t0);
        if (st != SL_OK || !kernels)
            continue;
        report_gpu_time kt;
        sl_status ks = report_gpu_timed(a->run[SL_CUDA], &args, &kt);
        if (ks == SL_OK) {
            kern[nk++] = kt.kernel_ms;
            g->kernels = kt.kernels;
        } else if (ks != SL_ERR_UNSUPPORTED) {
            st = ks;
        }
    }
    if (st == SL_OK) {
        qsort(host, GPU_REPS, sizeof host[0], cmp_double);
        g->host_ms = host[GPU_REPS / 2];
        g->kernel_ms = -1;
        if (nk) {
            qsort(kern, nk, sizeof kern[0], cmp_double);
            g->kernel_ms = kern[nk / 2];
        }
    }
    free(in);
    free(out);
    return st;
}

sl_status report_run_gpu(report_section *s)
{
    if (!verify_backend_built(SL_CUDA)) {
        report_text(s, "This scanlab was built without CUDA, so no GPU runs were made (configure with "
                       "-Dcuda=enabled on a machine with nvcc).");
        return SL_OK;
    }
    static const report_col cols[] = {{"algorithm", "algorithm"},
                                      {"type", "type"},
                                      {"n", "n"},
                                      {"verdict", "verdict"},
                                      {"kernel_ms", "kernels [ms]"},
                                      {"kernels", "kernels a call"},
                                      {"kernel_gb_per_s", "kernels [GB/s]"},
                                      {"host_ms", "host to host [ms]"},
                                      {"host_gb_per_s", "host to host [GB/s]"}};
    const size_t ncols = sizeof cols / sizeof cols[0];
    const size_t sizes_full[GPU_MAX_SIZES] = {(size_t)1 << 16, (size_t)1 << 20, (size_t)1 << 24};
    size_t nsizes = s->ctx->quick ? 1 : GPU_MAX_SIZES;
    const sl_type types[] = {SL_I32, SL_F32};
    char why[256];
    bool kernels = report_gpu_timing_ready(why, sizeof why);
    report_table *t = NULL;
    for (size_t i = 0; i < verify_algo_count; i++) {
        const verify_algo *a = &verify_algos[i];
        if (a->kind != SL_KIND_SCAN || !verify_algo_runs_on(a, SL_CUDA))
            continue;
        for (size_t k = 0; k < sizeof types / sizeof types[0]; k++)
            for (size_t z = 0; z < nsizes; z++) {
                size_t n = sizes_full[z];
                uint64_t seed = verify_derive_seed(s->ctx->seed, n);
                verify_case c = {.algo = a, .backend = SL_CUDA, .type = types[k], .op = SL_ADD,
                                 .dist = verify_default_dist(types[k]), .n = n, .seed = seed, .repeat = 1};
                verify_case_result r;
                sl_status st = verify_run_case(&c, &r);
                if (st == SL_ERR_NO_GPU) {
                    report_text(s, "No GPU present: the cuda backend is built but found no device, so "
                                   "no GPU runs were made.");
                    return SL_OK;
                }
                gpu_times g = {0, -1, 0};
                if (st == SL_OK)
                    st = time_calls(a, types[k], n, seed, kernels, &g);
                if (!t) {
                    report_text(s, "Add-scans on the GPU: the harness's verdict, then the median of %d calls "
                                   "after a warm-up. \"kernels\" is the time of the kernels alone, the sum "
                                   "of the durations of the kernels a call launches as CUPTI's activity "
                                   "records give them (what Nsight Systems shows), and its bandwidth counts "
                                   "one read and one write of every element; \"host to host\" times the "
                                   "whole call: allocation, copies both ways and the kernels.%s%s",
                                GPU_REPS, kernels ? "" : " Kernel times are missing here: ", kernels ? "" : why);
                    t = report_table_add(s, "gpu", "GPU runs (add), medians of 5 calls", cols, ncols);
                    if (!t)
                        return report_fail(s, SL_ERR_NOMEM, "out of memory");
                }
                const char *verdict = st == SL_OK ? "pass" : verify_status_is_skip(st) ? "skip" : "FAIL";
                if (st != SL_OK && !verify_status_is_skip(st))
                    s->failed_checks++;
                double bytes = 2.0 * (double)n * (double)SL_TYPE_SIZE(types[k]);
                bool timed = st == SL_OK, ktimed = timed && g.kernel_ms > 0;
                if (report_cell(t, "%s", a->name) || report_cell(t, "%s", verify_type_name(types[k])) ||
                    report_cell(t, "%zu", n) || report_cell(t, "%s", verdict) ||
                    (ktimed ? report_cell(t, "%.4f", g.kernel_ms) : report_cell(t, "%s", "")) ||
                    (ktimed ? report_cell(t, "%u", g.kernels) : report_cell(t, "%s", "")) ||
                    (ktimed ? report_cell(t, "%.1f", bytes / (g.kernel_ms * 1e6)) : report_cell(t, "%s", "")) ||
                    (timed ? report_cell(t, "%.3f", g.host_ms) : report_cell(t, "%s", "")) ||
                    (timed ? report_cell(t, "%.2f", bytes / (g.host_ms * 1e6)) : report_cell(t, "%s", "")))
                    return report_fail(s, SL_ERR_NOMEM, "out of memory");
            }
    }
    if (!t)
        report_text(s, "No algorithm of the table has a cuda backend in this build.");
    return SL_OK;
}
