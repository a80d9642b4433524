/* Kernel coverage (verify/report/kernel_coverage.h): through the C API,
 * lines of a shared header counted per kernel when the runs are attributed
 * and by any kernel when they are not; through the command (argv[1]),
 * 'scanlab verify --coverage' reaches more call sites with inputs that
 * exercise more of a kernel, and names every one it did not reach. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "run_cli.h"
#include "verify/harness/algos.h"
#include "verify/harness/inputs.h"
#include "verify/report/kernel_coverage.h"

#define SHARED_HEADER "cuda/block/hier_driver.cuh"

static const char *scanlab;

static void run_sim(const verify_algo *a, size_t n)
{
    int32_t *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
    assert_non_null(in);
    assert_non_null(out);
    assert_int_equal(verify_fill_input(SL_I32, SL_ADD, VERIFY_DIST_SMALL, 1, n, in), SL_OK);
    sl_scan_args args = {.type = SL_I32, .op = SL_ADD, .in = in, .out = out, .n = n};
    assert_int_equal(a->run[SL_SIM](&args), SL_OK);
    free(in);
    free(out);
}

static const report_kcov_kernel *kernel(const report_kcov_result *r, const char *name)
{
    for (size_t i = 0; i < r->count; i++)
        if (strcmp(r->kernels[i].name, name) == 0)
            return &r->kernels[i];
    fail_msg("no coverage for %s", name);
    return NULL;
}

static const report_kcov_line *line_at(const report_kcov_kernel *k, const char *file, int line)
{
    for (size_t i = 0; i < k->sites; i++)
        if (strcmp(k->lines[i].file, file) == 0 && k->lines[i].line == line)
            return &k->lines[i];
    return NULL;
}

/* kogge-stone on 3000 elements needs the add-back of the shared driver
 * (three sections of 1024); blelloch on 100 (one section of 2048) does not. */
static void test_attribution(void **state)
{
    (void)state;
    const verify_algo *ks = verify_find_algo("kogge-stone", false), *bl = verify_find_algo("blelloch", false);
    assert_non_null(ks);
    assert_non_null(bl);
    report_kcov *c = report_kcov_new();
    assert_non_null(c);
    run_sim(ks, 3000);
    report_kcov_attribute(c, ks->name);
    run_sim(bl, 100);
    report_kcov_attribute(c, bl->name);
    const verify_algo *both[] = {ks, bl};

    report_kcov_result own, any;
    assert_int_equal(report_kcov_compute(c, both, 2, &own), SL_OK);
    assert_int_equal(report_kcov_compute(NULL, both, 2, &any), SL_OK);
    assert_true(own.attributed);
    assert_false(any.attributed);
    const report_kcov_kernel *k_own = kernel(&own, "kogge-stone"), *b_own = kernel(&own, "blelloch");
    const report_kcov_kernel *b_any = kernel(&any, "blelloch");
    assert_true(k_own->sites > 0 && b_own->sites > 0);
    /* a line of the shared driver that kogge-stone's copy ran and
     * blelloch's did not */
    size_t shared = 0;
    for (size_t i = 0; i < k_own->sites; i++) {
        const report_kcov_line *x = &k_own->lines[i];
        if (strcmp(x->file, SHARED_HEADER) != 0 || !x->reached)
            continue;
        const report_kcov_line *y = line_at(b_own, x->file, x->line), *z = line_at(b_any, x->file, x->line);
        if (!y || y->reached)
            continue;
        assert_non_null(y->by);
        assert_string_equal(y->by, "kogge-stone");
        assert_non_null(z);
        assert_true(z->reached); /* without attribution: reached by some kernel */
        shared++;
    }
    assert_true(shared > 0);
    assert_true(b_own->reached < b_any->reached);
    assert_true(b_own->reached > 0);
    report_kcov_result_free(&own);
    report_kcov_result_free(&any);
    report_kcov_free(c);
}

/* The reached count and the notes of 'verify --coverage' for one kernel. */
static size_t cli_reached(const char *sizes, char **out)
{
    const char *args[] = {"verify", "--algo", "kogge-stone", "--backend", "sim", "--type", "i32", "--op", "add",
                          "--sizes", sizes, "--seed", "1", "--coverage", NULL};
    char *err = NULL;
    int rc = test_run_cli(scanlab, args, out, &err);
    if (rc != 0)
        fail_msg("verify --coverage --sizes %s: exit %d: %s", sizes, rc, err);
    free(err);
    const char *row = strstr(*out, "\nkogge-stone ");
    const char *table = strstr(*out, "kernel coverage");
    assert_non_null(table);
    row = strstr(table, "\nkogge-stone ");
    assert_non_null(row);
    unsigned long sites = 0, reached = 0;
    assert_int_equal(sscanf(row, "\nkogge-stone %lu %lu", &sites, &reached), 2);
    assert_true(reached <= sites && sites > 0);
    return reached;
}

static void test_verify_coverage(void **state)
{
    (void)state;
    char *one, *three;
    size_t r1 = cli_reached("100", &one), r3 = cli_reached("100,3000", &three);
    assert_true(r3 > r1);
    /* the add-back of the driver: named unreached with one section only */
    assert_non_null(strstr(one, SHARED_HEADER ":"));
    assert_non_null(strstr(one, ": note: kogge-stone: call site not reached by these inputs ("));
    assert_null(strstr(three, SHARED_HEADER ":"));
    free(one);
    free(three);
    /* the table goes after the verdicts; JSON has no room for it */
    const char *json[] = {"verify", "--algo", "kogge-stone", "--coverage", "--json", NULL};
    char *err = NULL;
    assert_int_equal(test_run_cli(scanlab, json, NULL, &err), 2);
    assert_non_null(strstr(err, "--coverage"));
    free(err);
    /* no sim backend selected: said so */
    const char *seq[] = {"verify", "--algo", "sequential", "--backend", "seq", "--type", "i32", "--op", "add",
                         "--sizes", "5", "--coverage", NULL};
    char *out = NULL;
    assert_int_equal(test_run_cli(scanlab, seq, &out, NULL), 0);
    assert_non_null(strstr(out, "no selected kernel ran in the simulator"));
    free(out);
}

/* Which unreached lines fail a check (report_kcov_line_fails): blelloch on
 * one section (n = 100) leaves the hierarchical driver's add-back
 * unreached by every kernel. That line fails the check when every kernel
 * that compiles the driver is selected (the report, verify's default over
 * the catalogue), and is only listed with blelloch alone (the driver's
 * line could be a function blelloch never calls). lookback on one tile
 * leaves the protocol's give-up unreached, which its source marks exempt:
 * never a failure. */
static void test_unreached_fails(void **state)
{
    (void)state;
    const verify_algo *bl = verify_find_algo("blelloch", false), *lb = verify_find_algo("lookback", false);
    assert_non_null(bl);
    assert_non_null(lb);
    report_kcov *c = report_kcov_new();
    assert_non_null(c);
    run_sim(bl, 100);
    report_kcov_attribute(c, bl->name);
    run_sim(lb, 100);
    report_kcov_attribute(c, lb->name);
    const verify_algo **all = calloc(verify_algo_count, sizeof *all);
    assert_non_null(all);
    for (size_t i = 0; i < verify_algo_count; i++)
        all[i] = &verify_algos[i];
    const verify_algo *alone[] = {bl};
    report_kcov_result r;
    assert_int_equal(report_kcov_compute(c, all, verify_algo_count, &r), SL_OK);
    const report_kcov_kernel *k = kernel(&r, "blelloch"), *l = kernel(&r, "lookback");
    size_t failing = 0, listed = 0, exempt = 0;
    for (size_t i = 0; i < k->sites; i++) {
        const report_kcov_line *x = &k->lines[i];
        if (strcmp(x->file, SHARED_HEADER) != 0 || x->reached || x->by)
            continue;
        failing += report_kcov_line_fails(k, x, all, verify_algo_count);
        listed += !report_kcov_line_fails(k, x, alone, 1);
    }
    assert_true(failing > 0);
    assert_int_equal(listed, failing);
    for (size_t i = 0; i < l->sites; i++) {
        const report_kcov_line *x = &l->lines[i];
        if (x->reached || !strstr(x->exempt, "gives up"))
            continue;
        assert_false(report_kcov_line_fails(l, x, all, verify_algo_count));
        exempt++;
    }
    assert_int_equal(exempt, 1);
    report_kcov_result_free(&r);
    report_kcov_free(c);
    free(all);
}

/* verify's default checks (no --n): blelloch's sizes from its geometry
 * reach the add-back of its second level, its huge check passes, and no
 * site is left unreached; --allow-unreached is refused with --n. */
static void test_verify_defaults(void **state)
{
    (void)state;
    const char *args[] = {"verify", "--algo", "blelloch", "--backend", "sim", "--type", "i32", "--op", "add",
                          "--seed", "1", "--json", NULL};
    char *out = NULL, *err = NULL;
    const int rc = test_run_cli(scanlab, args, &out, &err);
    if (rc != 0)
        fail_msg("verify's default checks of blelloch: exit %d:\n%s\n%s", rc, out, err);
    assert_non_null(strstr(out, "\"kind\":\"huge\",\"exclusive\":false,\"status\":\"OK\""));
    assert_non_null(strstr(out, "\"unreached\":[]"));
    assert_non_null(strstr(out, "\"unreached\":0,"));
    free(out);
    free(err);
    const char *refused[] = {"verify", "--algo", "blelloch", "--n", "5", "--allow-unreached", NULL};
    err = NULL;
    assert_int_equal(test_run_cli(scanlab, refused, NULL, &err), 2);
    assert_non_null(strstr(err, "--allow-unreached applies to the default checks"));
    free(err);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s path/to/scanlab\n", argv[0]);
        return 2;
    }
    scanlab = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_attribution),
        cmocka_unit_test(test_verify_coverage),
        cmocka_unit_test(test_unreached_fails),
        cmocka_unit_test(test_verify_defaults),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
