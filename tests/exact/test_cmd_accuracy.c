/* 'scanlab accuracy' through the executable (its path is argv[1]): bad
 * usage and bad files exit 2 with a message; a tiny input gives the
 * hand-computed statistics; --output writes the exact prefixes. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include "tap.h"

#include "config.h"
#include "run_cli.h"
#include "verify/formats/npy.h"
#include "verify/harness/ref_exact.h"

static const char *scanlab;
static char dir[64];

/* Run scanlab with args (NULL-terminated): see test_run_cli. */
static int run(const char *const *args, char **out, char **err)
{
    return test_run_cli(scanlab, args, out, err);
}

static char *in_dir(const char *name)
{
    static char paths[8][128];
    static int next;
    char *p = paths[next++ % 8];
    snprintf(p, 128, "%s/%s", dir, name);
    return p;
}

/* The number after "key": in the k-th object of a JSON document. */
static double json_number(const char *doc, const char *key, int k)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = doc;
    for (int i = 0; i <= k; i++) {
        p = strstr(p, pat);
        if (!p)
            fail_msg("no %s number %d in: %s", key, k, doc);
        p += strlen(pat);
    }
    return strtod(p, NULL);
}

static void bad_usage_exits_2(void **state)
{
    (void)state;
    char *npy_i32 = in_dir("i32.npy"), *npy_f64 = in_dir("f64.npy"), *junk = in_dir("junk.bin");
    char why[256];
    const int32_t iv[] = {1, 2, 3};
    const double dv[] = {1.0, 2.0};
    assert_int_equal(verify_npy_write(npy_i32, SL_I32, iv, 3, why, sizeof why), SL_OK);
    assert_int_equal(verify_npy_write(npy_f64, SL_F64, dv, 2, why, sizeof why), SL_OK);
    FILE *f = fopen(junk, "wb");
    assert_non_null(f);
    fputs("hello", f);
    fclose(f);
    const struct {
        const char *args[10];
        const char *says;
    } cases[] = {
        {{"accuracy", "--bogus"}, "unknown option"},
        {{"accuracy", "--n"}, "needs a value"},
        {{"accuracy", "extra"}, "unexpected argument"},
        {{"accuracy", "--type", "i32"}, "not a float type"},
        {{"accuracy", "--type", "f16"}, "f32"},
        {{"accuracy", "--dist", "gauss"}, "unknown distribution"},
        {{"accuracy", "--algo", "nope"}, "unknown algorithm"},
        {{"accuracy", "--algo", "reduce-sequential"}, "reduction"},
        {{"accuracy", "--cond", "1e8"}, "illcond only"},
        {{"accuracy", "--dist", "illcond", "--cond", "0.5"}, "condition number"},
        {{"accuracy", "--dist", "illcond", "--cond", "1e8x"}, "condition number"},
        {{"accuracy", "--n", "10,20", "--output", in_dir("o.npy")}, "--output"},
        {{"accuracy", "--n", "-1"}, "negative"},
        {{"accuracy", "--seeds", "0"}, "--seeds"},
        {{"accuracy", "--input", in_dir("missing.npy")}, "missing.npy"},
        {{"accuracy", "--input", junk}, "--type"},
        {{"accuracy", "--input", junk, "--type", "f32"}, "whole number"},
        {{"accuracy", "--input", npy_i32}, "f32 and f64"},
        {{"accuracy", "--input", npy_f64, "--type", "f32"}, "--type says f32"},
        {{"accuracy", "--input", npy_f64, "--n", "5"}, "does not apply"},
#if !SCANLAB_HAVE_CUDA
        {{"accuracy", "--backend", "cuda"}, "not built"},
#endif
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char *out, *err;
        int rc = run(cases[c].args, &out, &err);
        if (rc != 2 || !strstr(err, cases[c].says))
            fail_msg("case %zu (%s %s): exit %d, stderr '%s' (want '%s')", c, cases[c].args[1],
                     cases[c].args[2] ? cases[c].args[2] : "", rc, err, cases[c].says);
        assert_string_equal(out, ""); /* nothing on stdout: no half-made table */
        free(out);
        free(err);
    }
    unlink(npy_i32);
    unlink(npy_f64);
    unlink(junk);
}

static void help_exits_0(void **state)
{
    (void)state;
    char *out;
    assert_int_equal(run((const char *const[]){"accuracy", "--help", NULL}, &out, NULL), 0);
    assert_non_null(strstr(out, "usage: scanlab accuracy"));
    assert_non_null(strstr(out, "--cond"));
    free(out);
}

/* [1, 2^-24, 2^-24] in f32: the sequential scan rounds 1 + 2^-24 back to 1
 * twice while the exact third prefix is 1 + 2^-23. Per prefix: ulps 0, 0,
 * 1; eta 0, 0, 2 / (1 + 2^-23). So max ulps 1, median ulps 0, max eta
 * 2 / (1 + 2^-23), median eta 0, rms eta (2 / (1 + 2^-23)) / sqrt(3), and
 * depth 2. The compensated scan is exact: all zero. */
static void tiny_input_by_hand(void **state)
{
    (void)state;
    const float x[] = {1.0f, 0x1p-24f, 0x1p-24f};
    char *in = in_dir("tiny.npy"), why[256];
    assert_int_equal(verify_npy_write(in, SL_F32, x, 3, why, sizeof why), SL_OK);
    char *out, *err;
    int rc = run((const char *const[]){"accuracy", "--input", in, "--algo", "sequential,compensated",
                                       "--backend", "seq", "--json", NULL},
                 &out, &err);
    if (rc != 0)
        fail_msg("exit %d: %s", rc, err);
    double eta = 2.0 / (1.0 + 0x1p-23);
    assert_non_null(strstr(out, "\"results\""));
    assert_non_null(strstr(out, "\"algo\":\"sequential\""));
    assert_non_null(strstr(out, "\"dist\":\"file\""));
    assert_non_null(strstr(out, "\"type\":\"f32\""));
    assert_true(json_number(out, "n", 0) == 3);
    assert_true(json_number(out, "max_ulps", 0) == 1.0);
    assert_true(json_number(out, "median_ulps", 0) == 0.0);
    assert_true(json_number(out, "max_eta", 0) == eta);
    assert_true(json_number(out, "median_eta", 0) == 0.0);
    assert_true(fabs(json_number(out, "rms_eta", 0) - eta / sqrt(3.0)) < 1e-15);
    assert_true(json_number(out, "depth_bound", 0) == 2);
    assert_non_null(strstr(out, "\"algo\":\"compensated\""));
    assert_true(json_number(out, "max_ulps", 1) == 0.0);
    assert_true(json_number(out, "max_eta", 1) == 0.0);
    free(out);
    free(err);
    unlink(in);
}

/* --output: the exact prefixes of the input, inclusive or exclusive, bit
 * for bit what verify_exact_scan makes; raw input with --type. */
static void output_is_exact_reference(void **state)
{
    (void)state;
    enum { N = 500 };
    double x[N], want[N];
    for (int i = 0; i < N; i++)
        x[i] = (i % 3 ? 1.0 : -1.0) * ldexp(1.0 + i / 7.0, (i * 37) % 120 - 60);
    char *in = in_dir("in.bin"), *ref = in_dir("ref.npy"), why[256];
    FILE *f = fopen(in, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(x, sizeof x[0], N, f), N);
    fclose(f);
    for (int excl = 0; excl < 2; excl++) {
        const char *args[] = {"accuracy", "--input", in, "--type", "f64", "--output", ref,
                              "--algo", "sequential", excl ? "--exclusive" : NULL, NULL};
        char *err;
        int rc = run(args, NULL, &err);
        if (rc != 0)
            fail_msg("exit %d: %s", rc, err);
        free(err);
        sl_type t;
        void *got;
        size_t n;
        assert_int_equal(verify_npy_read(ref, &t, &got, &n, why, sizeof why), SL_OK);
        assert_int_equal(t, SL_F64);
        assert_int_equal(n, N);
        assert_int_equal(verify_exact_scan(SL_F64, excl, x, N, want, NULL), SL_OK);
        assert_memory_equal(got, want, sizeof want);
        free(got);
    }
    unlink(ref);
    /* A place that cannot be written: refused before the run, exit 2, and
     * no file. */
    char *bad = in_dir("no/such/ref.npy");
    char *err;
    assert_int_equal(run((const char *const[]){"accuracy", "--input", in, "--type", "f64",
                                               "--output", bad, "--algo", "sequential", NULL},
                         NULL, &err),
                     2);
    assert_non_null(strstr(err, "cannot"));
    free(err);
    unlink(in);
}

/* Generated inputs: every selected row appears; the compensated scan stays
 * near one rounding while the sequential one grows with n. */
static void generated_inputs(void **state)
{
    (void)state;
    char *out, *err;
    int rc = run((const char *const[]){"accuracy", "--n", "4096", "--seeds", "2", "--dist",
                                       "uniform01,illcond", "--cond", "1e6", "--algo",
                                       "sequential,compensated", "--backend", "seq", "--json",
                                       "--seed", "7", NULL},
                 &out, &err);
    if (rc != 0)
        fail_msg("exit %d: %s", rc, err);
    assert_non_null(strstr(err, "seed 7"));
    /* Rows: (uniform01: sequential, compensated), (illcond: sequential,
     * compensated). */
    assert_true(json_number(out, "max_eta", 1) <= 2.0);
    assert_true(json_number(out, "max_eta", 0) > json_number(out, "max_eta", 1));
    assert_true(json_number(out, "depth_bound", 0) == 4095);
    assert_non_null(strstr(out, "\"dist\":\"illcond\""));
    free(out);
    free(err);
    /* The table: a header and one line per row. */
    rc = run((const char *const[]){"accuracy", "--n", "100", "--seeds", "1", "--algo", "sequential",
                                   "--backend", "seq", "--dist", "ones", NULL},
             &out, &err);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "algorithm"));
    assert_non_null(strstr(out, "sequential"));
    assert_non_null(strstr(out, "ones"));
    free(out);
    free(err);
}

int main(int argc, char **argv)
{
    scanlab = argc > 1 ? argv[1] : getenv("SCANLAB");
    if (!scanlab) {
        fprintf(stderr, "usage: test_cmd_accuracy PATH-TO-SCANLAB\n");
        return 1;
    }
    snprintf(dir, sizeof dir, "/tmp/scanlab-acc-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bad_usage_exits_2),   cmocka_unit_test(help_exits_0),
        cmocka_unit_test(tiny_input_by_hand),  cmocka_unit_test(output_is_exact_reference),
        cmocka_unit_test(generated_inputs),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    rmdir(dir);
    return failed;
}
