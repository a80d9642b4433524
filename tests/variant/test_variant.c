/* A kernel variant added the way a user adds one (a template file plus one
 * line in a kernels.def) gets the harness and the simulator's counts with no
 * other code: the correct variant passes `verify` on every type, operator
 * and kind, its counts match Kogge-Stone's closed forms, and the planted
 * variant with swapped operands passes add but is caught by affine. Planted
 * findings with a right result (a race, an out-of-bounds read) fail
 * `simulate`, `verify` on sim and the harness's verdict, each naming the
 * site as path:line: error:; --allow-races passes the race alone. Undefined
 * behaviour in a kernel's source (the CUDA samples' (1 << 32) - 1 mask, a
 * signed overflow) is a finding at its line, not what the CPU made of it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "tap.h"

#include "cuda/kernels.h"
#include "model/model.h"
#include "run_cli.h"
#include "verify/harness/algo_entry.h"
#include "verify/cli/simulate.h"
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
    assert_int_equal(table_count, 8);
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

static const verify_algo *algo_named(const char *name)
{
    for (size_t i = 0; i < table_count; i++)
        if (strcmp(table[i].name, name) == 0)
            return &table[i];
    fail_msg("no algorithm %s in the test table", name);
    return NULL;
}

/* The line of the k-th (from 1; 0: the last) line of tests/variant/<file>
 * that holds marker and no '#': the site the simulator must name. */
static int marked_line(const char *file, const char *marker, int k)
{
    const char *root = getenv("SCANLAB_SOURCE_ROOT");
    assert_non_null(root);
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/variant/%s", root, file);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char text[512];
    int line = 0, found = 0, seen = 0;
    while (fgets(text, sizeof text, f)) {
        line++;
        if (strstr(text, marker) && !strchr(text, '#') && (++seen == k || k == 0))
            found = line;
    }
    fclose(f);
    assert_true(found > 0);
    return found;
}

/* The line of tests/variant/ks_body.cuh where the plant is expanded. */
static int plant_line(void) { return marked_line("ks_body.cuh", "KS_PLANT", 0); }

/* Whether text holds a line that starts "tests/variant/<file>:L: error: "
 * followed by what. */
static bool names_site_in(const char *text, const char *file, int line, const char *what)
{
    char head[256];
    snprintf(head, sizeof head, "tests/variant/%s:%d: error: %s", file, line, what);
    for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
        if (strncmp(p, head, strlen(head)) == 0)
            return true;
    return false;
}

static bool names_site(const char *text, int line, const char *what)
{
    return names_site_in(text, "ks_body.cuh", line, what);
}

static int verify_entry(int argc, char **argv, void *ctx)
{
    (void)ctx;
    return verify_main(argc, argv, table, table_count, stdout);
}

static int simulate_entry(int argc, char **argv, void *ctx)
{
    (void)ctx;
    return simulate_main(argc, argv, table, table_count);
}

/* The harness's verdict (what verify and the report's sections use). */
static void test_harness_fails_findings(void **state)
{
    (void)state;
    const int line = plant_line();
    verify_case c = {.algo = algo_named("ks-racy"), .backend = SL_SIM, .type = SL_I32,
                     .op = SL_ADD, .dist = VERIFY_DIST_UNIFORM, .n = 100, .seed = 3, .repeat = 1};
    verify_case_result r;
    assert_int_equal(verify_run_case(&c, &r), SL_ERR_SIM);
    assert_int_equal(r.where, VERIFY_WHERE_FINDING);
    assert_true(r.races > 0 && r.findings == r.races);
    assert_true(names_site(r.findings_text, line, "race"));
    /* the race alone, allowed: the right result passes */
    c.allow_races = true;
    assert_int_equal(verify_run_case(&c, &r), SL_OK);
    assert_true(r.races > 0);
    assert_int_equal(r.findings, 0);
    /* the process-wide switch (report --allow-races) does the same */
    c.allow_races = false;
    verify_set_allow_races(true);
    assert_int_equal(verify_run_case(&c, &r), SL_OK);
    /* an out-of-bounds read fails whatever races are allowed */
    c.algo = algo_named("ks-oob");
    assert_int_equal(verify_run_case(&c, &r), SL_ERR_SIM);
    verify_set_allow_races(false);
    assert_int_equal(r.where, VERIFY_WHERE_FINDING);
    assert_true(names_site(r.findings_text, line, ""));
    assert_non_null(strstr(r.findings_text, "out of bounds"));
    /* the correct variant has nothing to report */
    c.algo = algo_named("ks-register");
    assert_int_equal(verify_run_case(&c, &r), SL_OK);
    assert_int_equal(r.races, 0);
    assert_string_equal(r.findings_text, "");
}

static void test_verify_fails_findings(void **state)
{
    (void)state;
    const int line = plant_line();
    char *out, *err;
    const char *racy[] = {"verify", "--algo", "ks-racy", "--backend", "sim", "--type", "i32",
                          "--op", "add", "--sizes", "64", "--seed", "5", NULL};
    assert_int_equal(test_run_main(verify_entry, NULL, racy, &out, &err), 1);
    assert_non_null(strstr(out, "0 OK, 1 FAILED, 0 SKIPPED"));
    assert_non_null(strstr(out, "the simulator found"));
    assert_true(names_site(err, line, "race"));
    free(out);
    free(err);
    const char *allowed[] = {"verify", "--algo", "ks-racy", "--backend", "sim", "--type", "i32",
                             "--op", "add", "--sizes", "64", "--seed", "5", "--allow-races", NULL};
    assert_int_equal(test_run_main(verify_entry, NULL, allowed, &out, &err), 0);
    assert_non_null(strstr(out, "1 OK, 0 FAILED, 0 SKIPPED"));
    free(out);
    free(err);
    const char *oob[] = {"verify", "--algo", "ks-oob", "--backend", "sim", "--type", "i32",
                         "--op", "add", "--sizes", "64", "--seed", "5", "--allow-races", NULL};
    assert_int_equal(test_run_main(verify_entry, NULL, oob, &out, &err), 1);
    assert_true(names_site(err, line, ""));
    free(out);
    free(err);
}

static void test_simulate_fails_findings(void **state)
{
    (void)state;
    const int line = plant_line();
    char *out, *err;
    const char *racy[] = {"simulate", "--algo", "ks-racy", "--n", "64", NULL};
    assert_int_equal(test_run_main(simulate_entry, NULL, racy, &out, &err), 1);
    assert_non_null(strstr(out, "result: correct, but the simulator found errors"));
    assert_true(names_site(err, line, "race"));
    free(out);
    free(err);
    const char *allowed[] = {"simulate", "--algo", "ks-racy", "--n", "64", "--allow-races", NULL};
    assert_int_equal(test_run_main(simulate_entry, NULL, allowed, &out, &err), 0);
    assert_non_null(strstr(out, "result: correct\n"));
    assert_non_null(strstr(err, "races allowed"));
    free(out);
    free(err);
    const char *oob[] = {"simulate", "--algo", "ks-oob", "--n", "64", "--allow-races", NULL};
    assert_int_equal(test_run_main(simulate_entry, NULL, oob, &out, &err), 1);
    assert_true(names_site(err, line, ""));
    free(out);
    free(err);
    const char *json[] = {"simulate", "--algo", "ks-racy", "--n", "64", "--json", NULL};
    assert_int_equal(test_run_main(simulate_entry, NULL, json, &out, &err), 1);
    assert_non_null(strstr(out, "\"passed\":false"));
    assert_non_null(strstr(out, "\"file\":\"tests/variant/ks_body.cuh\""));
    free(out);
    free(err);
}

/* Undefined behaviour in kernel source: the shift and the overflow are
 * findings at their lines (ub_body.cuh's UB_SITE lines, the shift's first),
 * the launch stops there: never the zero mask's "undefined warp
 * operation", never a pass for the overflow's right result. */
static void test_undefined_behaviour_found(void **state)
{
    (void)state;
    const int shift_line = marked_line("ub_body.cuh", "/* UB_SITE */", 1);
    const int overflow_line = marked_line("ub_body.cuh", "/* UB_SITE */", 2);
    verify_case c = {.algo = algo_named("ub-shift"), .backend = SL_SIM, .type = SL_I32,
                     .op = SL_ADD, .dist = VERIFY_DIST_UNIFORM, .n = 32, .seed = 3, .repeat = 1};
    verify_case_result r;
    assert_int_equal(verify_run_case(&c, &r), SL_ERR_SIM);
    assert_int_equal(r.where, VERIFY_WHERE_FINDING);
    assert_true(names_site_in(r.findings_text, "ub_body.cuh", shift_line,
                              "undefined behaviour: shift exponent 32 is too large for 32-bit type 'int'"));
    assert_null(strstr(r.findings_text, "undefined warp operation"));
    c.algo = algo_named("ub-overflow");
    c.allow_races = true; /* nothing else to allow: the finding still fails */
    assert_int_equal(verify_run_case(&c, &r), SL_ERR_SIM);
    assert_int_equal(r.where, VERIFY_WHERE_FINDING);
    /* the operands' order is the compiler's (it may put the constant last) */
    assert_true(names_site_in(r.findings_text, "ub_body.cuh", overflow_line,
                              "undefined behaviour: signed integer overflow: "));
    assert_true(strstr(r.findings_text, "2147483616 + 32 cannot be represented in type 'int'") ||
                strstr(r.findings_text, "32 + 2147483616 cannot be represented in type 'int'"));

    char *out, *err;
    const char *json[] = {"simulate", "--algo", "ub-shift", "--n", "32", "--json", NULL};
    assert_int_equal(test_run_main(simulate_entry, NULL, json, &out, &err), 1);
    assert_non_null(strstr(out, "\"kind\":\"undefined_behaviour\""));
    assert_non_null(strstr(out, "\"file\":\"tests/variant/ub_body.cuh\""));
    assert_null(strstr(err, "undefined warp operation"));
    free(out);
    free(err);
    const char *ver[] = {"verify", "--algo", "ub-shift", "--backend", "sim", "--type", "i32",
                         "--op", "add", "--sizes", "32", "--seed", "5", NULL};
    assert_int_equal(test_run_main(verify_entry, NULL, ver, &out, &err), 1);
    assert_true(names_site_in(err, "ub_body.cuh", shift_line, "undefined behaviour: shift exponent 32"));
    free(out);
    free(err);
}

/* rd4-volatile's sum at n under schedule sched (0: the default one):
 * whether it was right; the simulator finds nothing in it either way
 * (volatile accesses are strong: no data race). */
static bool rd4_right(const char *name, size_t n, uint64_t sched)
{
    int32_t *in = malloc(n * sizeof *in), out = 0, sum = 0;
    assert_non_null(in);
    for (size_t i = 0; i < n; i++) {
        in[i] = (int32_t)((i * 7919) % 201) - 100;
        sum += in[i];
    }
    model_stats stats;
    model_stats_init(&stats);
    stats.cfg.quiet = true;
    stats.cfg.schedule = sched;
    sl_scan_args a = {.type = SL_I32, .op = SL_ADD, .in = in, .out = &out, .n = n, .sim = &stats};
    assert_int_equal(algo_named(name)->run[SL_SIM](&a), SL_OK);
    assert_int_equal(model_findings(&stats, false), 0);
    model_stats_free(&stats);
    free(in);
    return out == sum;
}

/* The CUDA 5 samples' reduce4 (volatile shared memory, no __syncwarp) is
 * right only while the lanes of its last warp run in step: the default
 * schedule keeps them so, and the explored schedules let them drift apart
 * between volatile accesses, as independent thread scheduling does, and
 * get a wrong sum. verify's default run (one explored schedule besides
 * the default one up to 1025 elements) fails it; the form with __syncwarp
 * passes every schedule and verify. (Both combine x[t] with x[t + s], as
 * the samples do: commutative operators only, affine is not run.) */
static void test_reduce4_needs_syncwarp(void **state)
{
    (void)state;
    static const size_t sizes[] = {64, 256, 1000};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        assert_true(rd4_right("rd4-volatile", sizes[i], 0));
        unsigned wrong = 0;
        for (uint64_t sched = 1; sched <= 8; sched++) {
            wrong += !rd4_right("rd4-volatile", sizes[i], sched);
            assert_true(rd4_right("rd4-syncwarp", sizes[i], sched));
        }
        if (wrong < 8)
            fail_msg("rd4-volatile at n = %zu: right in %u of 8 explored schedules", sizes[i], 8 - wrong);
    }
    char *out, *err;
    const char *bad[] = {"verify", "--algo", "rd4-volatile", "--backend", "sim", "--op", "add,max,min",
                         "--seed", "5", NULL};
    assert_int_equal(test_run_main(verify_entry, NULL, bad, &out, &err), 1);
    assert_non_null(strstr(out, "FAIL"));
    free(out);
    free(err);
    const char *good[] = {"verify", "--algo", "rd4-syncwarp", "--backend", "sim", "--op", "add,max,min",
                          "--seed", "5", NULL};
    assert_int_equal(test_run_main(verify_entry, NULL, good, &out, &err), 0);
    assert_non_null(strstr(out, " 0 FAILED, 0 SKIPPED"));
    free(out);
    free(err);
    /* the default schedule alone keeps the lanes in step: blind */
    const char *blind[] = {"verify", "--algo", "rd4-volatile", "--backend", "sim", "--op", "add,max,min",
                           "--seed", "5", "--schedules", "1", NULL};
    assert_int_equal(test_run_main(verify_entry, NULL, blind, &out, &err), 0);
    free(out);
    free(err);
}

/* A case the variant cannot run (more than one block: not supported) is
 * a skip: counted in the summary with its reason, passing unless
 * --fail-on-skip. */
static void test_skips_counted(void **state)
{
    (void)state;
    char *out, *err;
    const char *args[] = {"verify", "--algo", "ks-register", "--backend", "sim", "--type", "i32",
                          "--op", "add", "--n", "2000", "--seed", "5", NULL};
    assert_int_equal(test_run_main(verify_entry, NULL, args, &out, &err), 0);
    assert_non_null(strstr(out, "0 OK, 0 FAILED, 1 SKIPPED"));
    assert_non_null(strstr(out, "skipped: 1 not supported\n"));
    free(out);
    free(err);
    const char *strict[] = {"verify", "--algo", "ks-register", "--backend", "sim", "--type", "i32",
                            "--op", "add", "--n", "2000", "--seed", "5", "--fail-on-skip", NULL};
    assert_int_equal(test_run_main(verify_entry, NULL, strict, &out, &err), 1);
    assert_non_null(strstr(out, "skipped: 1 not supported (--fail-on-skip: they fail the run)"));
    free(out);
    free(err);
    const char *json[] = {"verify", "--algo", "ks-register", "--backend", "sim", "--type", "i32",
                          "--op", "add", "--n", "2000", "--seed", "5", "--json", NULL};
    assert_int_equal(test_run_main(verify_entry, NULL, json, &out, &err), 0);
    assert_non_null(strstr(out, "\"skipped\":1,\"skip_reasons\":{\"not supported\":1}"));
    free(out);
    free(err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_variant_in_table),
        cmocka_unit_test(test_harness_fails_findings),
        cmocka_unit_test(test_verify_fails_findings),
        cmocka_unit_test(test_simulate_fails_findings),
        cmocka_unit_test(test_skips_counted),
        cmocka_unit_test(test_undefined_behaviour_found),
        cmocka_unit_test(test_reduce4_needs_syncwarp),
        cmocka_unit_test(test_correct_variant_passes),
        cmocka_unit_test(test_swapped_variant_caught_by_affine),
        cmocka_unit_test(test_counts_match_kogge_stone),
        cmocka_unit_test(test_variant_on_gpu),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
