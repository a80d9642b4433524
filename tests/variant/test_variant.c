/* A kernel variant added the way a user adds one (a template file plus one
 * line in a kernels.def) gets the harness and the simulator's counts with no
 * other code: the correct variant passes `verify` on every type, operator
 * and kind, its counts match Kogge-Stone's closed forms, and the planted
 * variant with swapped operands passes add but is caught by affine. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "cuda/kernels.h"
#include "model/model.h"
#include "verify/harness/algo_entry.h"
#include "verify/cli/verify_plan.h"

#define SL_KERNEL SL_KERNEL_DECL
#include "tests/variant/kernels.def"
#undef SL_KERNEL

static const verify_algo table[] = {
#define SL_KERNEL SL_KERNEL_ENTRY
#include "tests/variant/kernels.def"
#undef SL_KERNEL
};
static const size_t table_count = sizeof table / sizeof table[0];

/* scanlab verify over the test's own table; output discarded. */
static int run_verify(const char *algo, const char *backend, const char *op)
{
    char *argv[] = {"verify", "--algo", (char *)algo, "--backend", (char *)backend, "--op", (char *)op,
                    "--both", "--sizes", "0,1,2,3,31,32,33,100,511,1000,1024", "--seed", "11", NULL};
    FILE *sink = fopen("/dev/null", "w");
    assert_non_null(sink);
    int rc = verify_main(sizeof argv / sizeof argv[0] - 1, argv, table, table_count, sink);
    fclose(sink);
    return rc;
}

static void test_variant_in_table(void **state)
{
    (void)state;
    assert_int_equal(table_count, 2);
    assert_string_equal(table[0].name, "ks-register");
    assert_true(verify_algo_runs_on(&table[0], SL_SIM));
    assert_false(verify_algo_runs_on(&table[0], SL_SEQ));
}

static void test_correct_variant_passes(void **state)
{
    (void)state;
    assert_int_equal(run_verify("ks-register", "sim", "all"), 0);
}

static void test_swapped_variant_caught_by_affine(void **state)
{
    (void)state;
    assert_int_equal(run_verify("ks-swapped", "sim", "add,max,min"), 0);
    assert_int_equal(run_verify("ks-swapped", "sim", "affine"), 1);
}

/* One block of n = 2^k threads: work n log2 n - (n - 1), steps log2 n, one
 * barrier before the loop's first read and one between read and write per
 * stride. */
static void test_counts_match_kogge_stone(void **state)
{
    (void)state;
    for (unsigned k = 5; k <= 10; k++) {
        const size_t n = (size_t)1 << k;
        int32_t *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
        assert_non_null(in);
        assert_non_null(out);
        for (size_t i = 0; i < n; i++)
            in[i] = (int32_t)(i % 7) - 3;
        model_stats stats;
        model_stats_init(&stats);
        sl_scan_args a = {.type = SL_I32, .op = SL_ADD, .in = in, .out = out, .n = n, .sim = &stats};
        assert_int_equal(table[0].run[SL_SIM](&a), SL_OK);
        int32_t sum = 0;
        for (size_t i = 0; i < n; i++) {
            sum += in[i];
            assert_int_equal(out[i], sum);
        }
        assert_int_equal(stats.work, n * k - (n - 1));
        assert_int_equal(stats.steps, k);
        assert_int_equal(stats.barriers, 2 * k);
        assert_int_equal(stats.races, 0);
        assert_int_equal(stats.barrier_divergence, 0);
        model_stats_free(&stats);
        free(in);
        free(out);
    }
}

/* On the GPU where one is present; skipped without one. */
static void test_variant_on_gpu(void **state)
{
    (void)state;
#if SCANLAB_HAVE_CUDA
    if (sl_cuda_ready() != SL_OK)
        skip();
#else
    skip();
#endif
    assert_int_equal(run_verify("ks-register", "cuda", "all"), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_variant_in_table),
        cmocka_unit_test(test_correct_variant_passes),
        cmocka_unit_test(test_swapped_variant_caught_by_affine),
        cmocka_unit_test(test_counts_match_kogge_stone),
        cmocka_unit_test(test_variant_on_gpu),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
