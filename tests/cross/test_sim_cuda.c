/* The simulator and the GPU run the same kernel source; where the kernel
 * fixes the order of operations, the same IEEE operations in the same order
 * give the same bits (DESIGN.md). Every scan and reduction that runs on both
 * backends, float types with add, max and min, inclusive and exclusive, a few
 * sizes: the outputs must be bitwise equal. Skipped without a GPU.
 *
 * Excluded, because their order of operations depends on timing:
 *   lookback  a tile stops looking back at the first inclusive prefix it
 *             finds, which depends on which predecessors have finished
 *             (lookback-det, whose prefixes are fixed expressions, is in).
 * The grid-stride kernels run fewer blocks in the simulator than on the
 * GPU; their results do not depend on the grid.
 * Every difference is printed before the test fails. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "tap.h"

#include "config.h"
#include "cuda/kernels.h"
#include "verify/harness/algos.h"
#include "verify/harness/inputs.h"

static const char *const timing_dependent[] = {"lookback"};

/* Parameters that must be set so both backends run the same order of
 * operations: two-level's default block count fills the GPU on cuda and is
 * small in the simulator. */
static int same_param(const char *name)
{
    return strcmp(name, "two-level") == 0 ? 8 : 0;
}

static bool is_timing_dependent(const char *name)
{
    for (size_t i = 0; i < sizeof timing_dependent / sizeof timing_dependent[0]; i++)
        if (strcmp(name, timing_dependent[i]) == 0)
            return true;
    return false;
}

static void run_or_fail(const verify_algo *al, sl_backend b, sl_scan_args *a)
{
    sl_status st = al->run[b](a);
    if (st != SL_OK)
        fail_msg("%s on %s: %s", al->name, verify_backend_name(b), sl_status_str(st));
}

/* Names a difference: the first differing index, both values, and how many
 * outputs differ and by how many units in the last place at most. */
static void report_difference(const char *name, sl_type type, sl_op op, int ex, size_t n, const void *a,
                              const void *b, size_t count)
{
    const size_t es = SL_TYPE_SIZE(type);
    size_t first = count, ndiff = 0;
    uint64_t max_ulp = 0;
    for (size_t i = 0; i < count; i++) {
        uint64_t x = 0, y = 0;
        memcpy(&x, (const char *)a + i * es, es);
        memcpy(&y, (const char *)b + i * es, es);
        if (x == y)
            continue;
        if (first == count)
            first = i;
        ndiff++;
        const uint64_t d = x > y ? x - y : y - x; /* same sign: the ulp distance */
        if (d > max_ulp)
            max_ulp = d;
    }
    const double va = type == SL_F32 ? ((const float *)a)[first] : ((const double *)a)[first];
    const double vb = type == SL_F32 ? ((const float *)b)[first] : ((const double *)b)[first];
    print_error("%s %s %s %s n=%zu: sim and cuda differ at %zu of %zu outputs, first at %zu: sim %.17g, "
                "cuda %.17g; at most %llu ulp apart\n", name, verify_type_name(type), verify_op_name(op),
                ex ? "exclusive" : "inclusive", n, ndiff, count, first, va, vb, (unsigned long long)max_ulp);
    /* the first outputs of the first difference of each algorithm, in hex,
     * so that the order of operations each side used can be worked out */
    static const char *shown;
    if (shown != name) {
        shown = name;
        for (size_t i = 0; i < count && i < 12; i++) {
            uint64_t x = 0, y = 0;
            memcpy(&x, (const char *)a + i * es, es);
            memcpy(&y, (const char *)b + i * es, es);
            print_error("  [%zu] sim %#llx cuda %#llx\n", i, (unsigned long long)x, (unsigned long long)y);
        }
    }
}

static void test_sim_equals_cuda(void **state)
{
    (void)state;
#if SCANLAB_HAVE_CUDA
    if (sl_cuda_ready() != SL_OK)
        skip();
#else
    skip();
#endif
    static const size_t sizes[] = {1, 1000, 4097, 70001};
    static const sl_type types[] = {SL_F32, SL_F64};
    static const sl_op ops[] = {SL_ADD, SL_MAX, SL_MIN};
    size_t compared = 0, differ = 0;
    for (size_t k = 0; k < verify_algo_count; k++) {
        const verify_algo *al = &verify_algos[k];
        if (!verify_algo_runs_on(al, SL_SIM) || !verify_algo_runs_on(al, SL_CUDA) ||
            (al->kind != SL_KIND_SCAN && al->kind != SL_KIND_REDUCE) || is_timing_dependent(al->name))
            continue;
        for (size_t ti = 0; ti < 2; ti++)
            for (size_t oi = 0; oi < 3; oi++)
                for (int excl = 0; excl < 2; excl++)
                    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
                        const size_t n = sizes[si], es = SL_TYPE_SIZE(types[ti]);
                        const size_t outn = al->kind == SL_KIND_SCAN ? n : 1;
                        void *in = malloc(n * es), *o_sim = calloc(outn, es), *o_gpu = calloc(outn, es);
                        assert_non_null(in);
                        assert_non_null(o_sim);
                        assert_non_null(o_gpu);
                        assert_int_equal(verify_fill_input(types[ti], ops[oi], VERIFY_DIST_UNIFORM11,
                                                           1000 + si, n, in),
                                         SL_OK);
                        sl_scan_args a = {.type = types[ti], .op = ops[oi], .exclusive = excl,
                                          .in = in, .out = o_sim, .n = n,
                                          .param = same_param(al->name)};
                        run_or_fail(al, SL_SIM, &a);
                        a.out = o_gpu;
                        run_or_fail(al, SL_CUDA, &a);
                        if (memcmp(o_sim, o_gpu, outn * es) != 0) {
                            report_difference(al->name, types[ti], ops[oi], excl, n, o_sim, o_gpu, outn);
                            differ++;
                        }
                        compared++;
                        free(in);
                        free(o_sim);
                        free(o_gpu);
                    }
    }
    printf("compared %zu (algorithm, type, operator, kind, size) cases bit for bit\n", compared);
    assert_true(compared > 0);
    assert_int_equal(differ, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_sim_equals_cuda)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
