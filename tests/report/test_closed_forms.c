/* The closed forms of verify/report/closed_form.c against the simulator's
 * exact counts: every block-level scan with a form, on one block of
 * n = 2^5 .. 2^11 wherever the form has a block size (i32 add, inclusive,
 * default parameter): work, steps, barriers and bank conflicts equal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/model.h"
#include "verify/harness/algos.h"
#include "verify/harness/inputs.h"
#include "verify/report/closed_form.h"

#define K_MIN 5
#define K_MAX 11

/* The bank model itself, on cases worked by hand. */
static void test_strided_model(void **state)
{
    (void)state;
    assert_int_equal(closed_form_strided(0, 32, 1), 0);  /* consecutive words */
    assert_int_equal(closed_form_strided(0, 32, 2), 1);  /* 2-way */
    assert_int_equal(closed_form_strided(0, 32, 32), 31); /* one bank */
    assert_int_equal(closed_form_strided(0, 32, 8), 7);  /* 8-way */
    assert_int_equal(closed_form_strided(1, 32, 8), 7);  /* 31 lanes still need 8 */
    assert_int_equal(closed_form_strided(8, 32, 8), 5);  /* 24 lanes: 6 */
    assert_int_equal(closed_form_strided(0, 64, 4), 6);  /* two warps, 4-way */
    assert_int_equal(closed_form_strided(0, 16, 2), 0);  /* half a warp fits the banks */
    assert_int_equal(closed_form_strided(0, 32, 3), 0);  /* an odd stride visits every bank */
    assert_int_equal(closed_form_strided(5, 5, 2), 0);   /* no thread */
}

static void test_against_simulator(void **state)
{
    (void)state;
    size_t forms = 0, checked = 0;
    for (size_t i = 0; i < verify_algo_count; i++) {
        const verify_algo *a = &verify_algos[i];
        const closed_form *f = closed_form_of(a->name);
        if (!f)
            continue;
        assert_true(verify_algo_runs_on(a, SL_SIM));
        forms++;
        size_t here = 0;
        for (int k = K_MIN; k <= K_MAX; k++) {
            size_t n = (size_t)1 << k;
            const char *why = NULL;
            unsigned block = f->block_for(n, &why);
            if (!block) {
                assert_non_null(why);
                continue;
            }
            int32_t *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
            assert_non_null(in);
            assert_non_null(out);
            assert_int_equal(verify_fill_input(SL_I32, SL_ADD, VERIFY_DIST_SMALL, 1, n, in), SL_OK);
            model_stats ms;
            model_stats_init(&ms);
            ms.cfg.quiet = true;
            sl_scan_args args = {.type = SL_I32, .op = SL_ADD, .in = in, .out = out, .n = n,
                                 .block = (int)block, .sim = &ms};
            assert_int_equal(a->run[SL_SIM](&args), SL_OK);
            char fit[160];
            if (!closed_form_fits(f, n, block, ms.launches, ms.blocks, fit, sizeof fit))
                fail_msg("%s, n = %zu, block %u: %s", a->name, n, block, fit);
            const struct {
                const char *what;
                uint64_t measured, form;
            } c[] = {{"work", ms.work, f->work(n)},
                     {"steps", ms.steps, f->steps(n)},
                     {"barriers", ms.barriers, f->barriers(n)},
                     {"bank conflicts", ms.bank_conflicts, f->conflicts(n)}};
            for (size_t j = 0; j < sizeof c / sizeof c[0]; j++)
                if (c[j].measured != c[j].form)
                    fail_msg("%s, n = %zu, block %u: %s %llu, closed form %llu", a->name, n, block, c[j].what,
                             (unsigned long long)c[j].measured, (unsigned long long)c[j].form);
            model_stats_free(&ms);
            free(in);
            free(out);
            here++;
        }
        if (here == 0)
            fail_msg("%s: no n from 2^%d to 2^%d fits its closed form", a->name, K_MIN, K_MAX);
        checked += here;
    }
    print_message("%zu algorithms with closed forms, %zu sizes checked\n", forms, checked);
    assert_true(forms >= 10);
}

/* A run that does not fit is named with the reason. */
static void test_misfit_named(void **state)
{
    (void)state;
    const closed_form *ks = closed_form_of("kogge-stone");
    assert_non_null(ks);
    char why[160];
    assert_false(closed_form_fits(ks, 2048, 1024, 3, 3, why, sizeof why));
    assert_non_null(strstr(why, "1024 threads"));
    assert_false(closed_form_fits(ks, 512, 512, 2, 3, why, sizeof why));
    assert_non_null(strstr(why, "3 blocks"));
    assert_false(closed_form_fits(ks, 512, 256, 1, 1, why, sizeof why));
    assert_non_null(strstr(why, "256 threads"));
    assert_true(closed_form_fits(ks, 512, 512, 1, 1, why, sizeof why));
    const closed_form *rx = closed_form_of("brent-kung-radix");
    assert_non_null(rx);
    assert_false(closed_form_fits(rx, 512, 128, 1, 1, why, sizeof why));
    assert_non_null(strstr(why, "power of the radix"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_strided_model),
        cmocka_unit_test(test_against_simulator),
        cmocka_unit_test(test_misfit_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
