/* 'scanlab bench --backend cuda' through the executable (argv[1]).
 * Without a GPU (or without CUDA in the build) the command must say so on
 * stderr and exit 2; with one, a small run must time every default scan,
 * check it against CUB and print the JSON fields the docs are made from.
 * Each test skips on the machine where it cannot run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <cmocka.h>
#include "tap.h"

#include "config.h"
#include "run_cli.h"
#if SCANLAB_HAVE_CUDA
#include "cuda/kernels.h"
#endif

static const char *scanlab;

static int have_gpu(void)
{
#if SCANLAB_HAVE_CUDA
    return sl_cuda_ready() == SL_OK;
#else
    return 0;
#endif
}

static void test_no_gpu(void **state)
{
    (void)state;
    if (have_gpu())
        skip();
    const char *args[] = {"bench", "--backend", "cuda", "--n", "1000", NULL};
    char *out = NULL, *err = NULL;
    assert_int_equal(test_run_cli(scanlab, args, &out, &err), 2);
    assert_string_equal(out, "");
#if SCANLAB_HAVE_CUDA
    assert_non_null(strstr(err, "no GPU present"));
#else
    assert_non_null(strstr(err, "built without CUDA"));
#endif
    free(out);
    free(err);
}

/* The options of the cuda benchmark are refused elsewhere, and its lists
 * are checked before any GPU is looked for. */
static void test_usage(void **state)
{
    (void)state;
    const char *const cases[][8] = {
        {"bench", "--backend", "omp", "--algo", "lookback", NULL},
        {"bench", "--backend", "cuda", "--algo", "sequential", NULL},
        {"bench", "--backend", "cuda", "--algo", "reduce-shfl", NULL},
        {"bench", "--backend", "cuda", "--n", "0", NULL},
        {"bench", "--backend", "cuda", "--type", "i16", NULL},
    };
    const char *hints[] = {"not a scan that runs on seq or omp", "not a scan that runs on cuda", "not a scan that runs on cuda",
                           "at least 1 element", "i16"};
    for (size_t k = 0; k < sizeof hints / sizeof hints[0]; k++) {
        char *out = NULL, *err = NULL;
        const int rc = test_run_cli(scanlab, cases[k], &out, &err);
#if !SCANLAB_HAVE_CUDA
        if (k > 0) { /* without CUDA every cuda run stops at the first check */
            assert_int_equal(rc, 2);
            free(out);
            free(err);
            continue;
        }
#endif
        if (rc != 2 || !strstr(err, hints[k]))
            fail_msg("case %zu: exit %d, stderr '%s' (want 2 and '%s')", k, rc, err, hints[k]);
        free(out);
        free(err);
    }
}

static void test_gpu_small(void **state)
{
    (void)state;
    if (!have_gpu())
        skip();
    const char *args[] = {"bench", "--backend", "cuda", "--n", "1000,65536", "--type", "i32,f32", "--reps", "3",
                          "--json", NULL};
    char *out = NULL, *err = NULL;
    const int rc = test_run_cli(scanlab, args, &out, &err);
    if (rc != 0)
        fail_msg("exit %d: %s", rc, err);
    const char *fields[] = {"\"device\"", "\"date\"", "\"results\"", "\"median_ms\"", "\"gbps\"", "\"frac_of_copy\"",
                            "\"vs_cub\"", "\"bound\"", "\"predicted_ms\"", "\"lookback-det\"", "\"cub\"", "\"copy\""};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (!strstr(out, fields[i]))
            fail_msg("no %s in %s", fields[i], out);
    free(out);
    free(err);
    const char *args2[] = {"bench", "--backend", "cuda", "--algo", "lookback,reduce-then-scan", "--n", "100001",
                           "--type", "i64", "--op", "affine", "--exclusive", "--reps", "3", NULL};
    assert_int_equal(test_run_cli(scanlab, args2, &out, &err), 0);
    assert_non_null(strstr(out, "lookback"));
    free(out);
    free(err);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_bench_cuda path/to/scanlab\n");
        return 2;
    }
    scanlab = argv[1];
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_no_gpu), cmocka_unit_test(test_usage),
                                       cmocka_unit_test(test_gpu_small)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
