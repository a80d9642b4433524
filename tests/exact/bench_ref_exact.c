/* Timing of the exact reference (not a test): 2^24 uniform [-1, 1) f32 and
 * f64 values, one core, with and without the sum of magnitudes. Run with
 * `meson test -C BUILD --benchmark --suite exact -v`, or directly with an
 * optional log2 of the size. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "verify/harness/accuracy_inputs.h"
#include "verify/harness/ref_exact.h"

enum { DEFAULT_LOG2_N = 24, MAX_LOG2_N = 30 };

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    int lg = argc > 1 ? atoi(argv[1]) : DEFAULT_LOG2_N;
    if (lg < 0 || lg > MAX_LOG2_N) {
        fprintf(stderr, "usage: bench_ref_exact [LOG2_N <= %d]\n", MAX_LOG2_N);
        return 2;
    }
    size_t n = (size_t)1 << lg;
    void *x = malloc(n * 8), *out = malloc(n * 8);
    double *abs = malloc(n * sizeof *abs);
    if (!x || !out || !abs) {
        fprintf(stderr, "bench_ref_exact: out of memory\n");
        return 1;
    }
    const sl_type types[] = {SL_F32, SL_F64};
    for (int k = 0; k < 2; k++) {
        verify_accuracy_fill(types[k], ACC_DIST_UNIFORM11, 1.0, 1, n, x);
        for (int with_abs = 0; with_abs < 2; with_abs++) {
            double t0 = now();
            sl_status st = verify_exact_scan(types[k], false, x, n, out, with_abs ? abs : NULL);
            double t1 = now();
            printf("exact scan %s n = 2^%d %-16s %.3f s%s\n", types[k] == SL_F32 ? "f32" : "f64", lg,
                   with_abs ? "with abs_prefix" : "", t1 - t0, st == SL_OK ? "" : " (failed)");
        }
    }
    free(x);
    free(out);
    free(abs);
    return 0;
}
