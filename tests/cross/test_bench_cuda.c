/* 'scanlab bench --backend cuda' through the executable (argv[1]).
 * Without a GPU (or without CUDA in the build) the command must say so on
 * stderr and exit 2; with one, a small run must time every default scan,
 * check it against CUB and print the JSON fields the docs are made from.
 * Each test skips on the machine where it cannot run. */
#include <math.h>
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
        {"bench", "--backend", "omp", "--timing", "call", NULL},
        {"bench", "--backend", "cuda", "--timing", "wall", NULL},
    };
    const char *hints[] = {"not a scan that runs on seq or omp", "not a scan that runs on cuda", "not a scan that runs on cuda",
                           "at least 1 element", "i16", "applies to --backend cuda only", "'wall' is not a timing"};
    for (size_t k = 0; k < sizeof hints / sizeof hints[0]; k++) {
        char *out = NULL, *err = NULL;
        const int rc = test_run_cli(scanlab, cases[k], &out, &err);
#if !SCANLAB_HAVE_CUDA
        if (k > 0 && strcmp(cases[k][2], "cuda") == 0) { /* without CUDA every cuda run stops at the first check */
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
                            "\"vs_cub\"", "\"bound\"", "\"predicted_ms\"", "\"lookback-det\"", "\"cub\"", "\"copy\"",
                            "\"timing\":\"gpu\""};
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
    /* timed as calls: said in the document, and no late runs counted (every
     * run begins before the host has queued it, by design) */
    const char *args3[] = {"bench", "--backend", "cuda", "--algo", "lookback", "--n", "65536", "--timing", "call",
                           "--reps", "3", "--json", NULL};
    assert_int_equal(test_run_cli(scanlab, args3, &out, &err), 0);
    const char *call_fields[] = {"\"timing\":\"call\"", "\"late_runs\":null", "\"algo\":\"lookback\""};
    for (size_t i = 0; i < sizeof call_fields / sizeof call_fields[0]; i++)
        if (!strstr(out, call_fields[i]))
            fail_msg("no %s in %s", call_fields[i], out);
    if (strstr(out, "\"late_runs\":0"))
        fail_msg("a late-run count under call timing: %s", out);
    free(out);
    free(err);
}

/* The number after "key": at or after from (NAN if absent or null). */
static double number_after(const char *from, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = from ? strstr(from, pat) : NULL;
    if (!p)
        return NAN;
    char *end = NULL;
    const double v = strtod(p + strlen(pat), &end);
    return end == p + strlen(pat) ? NAN : v;
}

/* The chained scans' latency model: a hand-off for each status word width,
 * measured in the run, and every chained row predicted as its tiles x the
 * hand-off of its elements' word (8 bytes for i32, 16 for i64). */
static void test_gpu_chained_model(void **state)
{
    (void)state;
    if (!have_gpu())
        skip();
    /* 384 x 12 elements a tile for both types: 22 tiles of n = 100000 */
    const char *args[] = {"bench", "--backend", "cuda", "--algo", "chained-static", "--n", "100000", "--type",
                          "i32,i64", "--block", "384", "--param", "12", "--reps", "3", "--json", NULL};
    char *out = NULL, *err = NULL;
    const int rc = test_run_cli(scanlab, args, &out, &err);
    if (rc != 0)
        fail_msg("exit %d: %s", rc, err);
    const double h8 = number_after(out, "handoff_us"), h16 = number_after(out, "handoff16_us");
    if (!(h8 > 0.01 && h8 < 100 && h16 > 0.01 && h16 < 100))
        fail_msg("hand-offs %g and %g us in %s", h8, h16, out);
    const char *types[] = {"\"i32\"", "\"i64\""};
    const double h[] = {h8, h16};
    const char *row = out;
    for (int k = 0; k < 2; k++) {
        row = strstr(row, "\"chained-static\"");
        assert_non_null(row);
        const char *type = strstr(row, "\"type\"");
        assert_non_null(type);
        if (strncmp(strchr(type, ':') + 1, types[k], strlen(types[k])) != 0)
            fail_msg("row %d is not %s: %.40s", k, types[k], type);
        const double want = 22.0 * h[k] * 1e-3, got = number_after(row, "predicted_ms");
        if (!(fabs(got - want) <= 1e-12 * want))
            fail_msg("%s: predicted %.17g ms, want 22 tiles x %g us", types[k], got, h[k]);
        /* the runs that began before the host had queued them: 0 .. 3 */
        const double late = number_after(row, "late_runs");
        if (!(late >= 0 && late <= 3 && late == floor(late)))
            fail_msg("%s: late_runs %g of 3 timed runs", types[k], late);
        row = type;
    }
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
                                       cmocka_unit_test(test_gpu_small), cmocka_unit_test(test_gpu_chained_model)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
