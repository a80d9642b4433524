/* 'scanlab verify --input/--output' on the real algorithm table: a user's
 * array round trips through a kernel, malformed files and a type that
 * disagrees with the file are usage errors that write nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "tap.h"

#include "cpu/cpu.h"
#include "seed.h"
#include "verify/cli/verify_plan.h"
#include "verify/formats/npy.h"
#include "verify/harness/rng.h"

static uint64_t seed;
static char dir[] = "/tmp/scanlab-input-XXXXXX";

/* A path in the test's temporary folder. */
static const char *path_of(const char *name)
{
    static char buf[4][128];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
    return buf[k];
}

static void write_bytes(const char *name, const void *bytes, size_t len)
{
    FILE *f = fopen(path_of(name), "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(bytes, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

/* A version 1.0 .npy file with the given header dict and payload. */
static void write_npy(const char *name, const char *dict, const void *data, size_t len)
{
    unsigned char buf[512];
    size_t hlen = strlen(dict) + 1;
    assert_true(10 + hlen + len <= sizeof buf);
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    buf[8] = (unsigned char)(hlen & 0xff);
    buf[9] = (unsigned char)(hlen >> 8);
    memcpy(buf + 10, dict, hlen - 1);
    buf[10 + hlen - 1] = '\n';
    memcpy(buf + 10 + hlen, data, len);
    write_bytes(name, buf, 10 + hlen + len);
}

/* verify_main on the real table with args (NULL-terminated), its table in
 * *text (may be NULL). Returns the exit status. */
static int verify(const char *const *args, char **text)
{
    char *argv[32];
    int argc = 0;
    argv[argc++] = "verify";
    for (; args[argc - 1] && argc < 32; argc++)
        argv[argc] = (char *)args[argc - 1];
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    int rc = verify_main(argc, argv, verify_algos, verify_algo_count, f);
    fclose(f);
    if (text)
        *text = buf;
    else
        free(buf);
    return rc;
}

/* Read name (written by scanlab) and check it is the scan of x by the
 * sequential reference. */
static void expect_scan_of(const char *name, sl_type t, sl_op op, bool exclusive, const void *x,
                           size_t n)
{
    void *got = NULL, *want = malloc(n ? n * 8 : 1);
    sl_type gt;
    size_t gn = 0;
    char why[256];
    assert_int_equal(verify_npy_read(path_of(name), &gt, &got, &gn, why, sizeof why), SL_OK);
    assert_int_equal(gt, t);
    assert_int_equal(gn, n);
    assert_int_equal(cpu_scan_seq(t, op, exclusive, x, want, n), SL_OK);
    assert_memory_equal(got, want, n * SL_TYPE_SIZE(t));
    free(got);
    free(want);
}

/* --- tests ------------------------------------------------------------------ */

/* A random i32 array through a simulated kernel and back as .npy: the
 * sequential scan of the same data; a not-so-round size. */
static void round_trip_matches_the_sequential_scan(void **state)
{
    (void)state;
    size_t n = 1000 + (size_t)(seed % 97);
    int32_t *x = malloc(n * sizeof *x);
    verify_rng r;
    verify_rng_seed(&r, seed);
    for (size_t i = 0; i < n; i++)
        x[i] = (int32_t)verify_rng_next(&r);
    char why[256];
    assert_int_equal(verify_npy_write(path_of("x.npy"), SL_I32, x, n, why, sizeof why), SL_OK);
    const char *args[] = {"--input", path_of("x.npy"), "--algo", "kogge-stone", "--backend", "sim",
                          "--op", "add", "--output", path_of("y.npy"), NULL};
    char *text = NULL;
    assert_int_equal(verify(args, &text), 0);
    assert_non_null(strstr(text, "kogge-stone  sim      i32   add     inclusive  OK"));
    expect_scan_of("y.npy", SL_I32, SL_ADD, false, x, n);
    free(text);
    /* affine (not commutative), exclusive, i64, through a second kernel */
    int64_t *w = malloc(n * sizeof *w);
    for (size_t i = 0; i < n; i++)
        w[i] = (int64_t)verify_rng_next(&r);
    assert_int_equal(verify_npy_write(path_of("w.npy"), SL_I64, w, n, why, sizeof why), SL_OK);
    const char *args2[] = {"--input", path_of("w.npy"), "--algo", "brent-kung", "--backend", "sim",
                           "--op", "affine", "--exclusive", "--output", path_of("v.npy"), NULL};
    assert_int_equal(verify(args2, NULL), 0);
    expect_scan_of("v.npy", SL_I64, SL_AFFINE, true, w, n);
    free(w);
    free(x);
}

/* Closed forms: ones give out[i] = i + 1 (inclusive add); a raw f64 file
 * read with --type; a reduction writes one element, the sum n. */
static void raw_input_and_reduction_closed_forms(void **state)
{
    (void)state;
    enum { N = 777 };
    double ones[N];
    for (int i = 0; i < N; i++)
        ones[i] = 1.0;
    write_bytes("ones.f64", ones, sizeof ones);
    const char *args[] = {"--input", path_of("ones.f64"), "--type", "f64", "--algo", "sequential",
                          "--backend", "seq", "--op", "add", "--output", path_of("o.npy"), NULL};
    assert_int_equal(verify(args, NULL), 0);
    double *got = NULL;
    sl_type t;
    size_t n = 0;
    char why[256];
    assert_int_equal(verify_npy_read(path_of("o.npy"), &t, (void **)&got, &n, why, sizeof why), SL_OK);
    assert_int_equal(t, SL_F64);
    assert_int_equal(n, N);
    for (int i = 0; i < N; i++)
        assert_true(got[i] == (double)(i + 1));
    free(got);
    const char *args2[] = {"--input", path_of("ones.f64"), "--type", "f64", "--algo",
                           "reduce-sequential", "--op", "add", "--output", path_of("r.npy"), NULL};
    assert_int_equal(verify(args2, NULL), 0);
    assert_int_equal(verify_npy_read(path_of("r.npy"), &t, (void **)&got, &n, why, sizeof why), SL_OK);
    assert_int_equal(n, 1);
    assert_true(got[0] == (double)N);
    free(got);
    /* a raw file without --type cannot be read */
    const char *args3[] = {"--input", path_of("ones.f64"), "--algo", "sequential", NULL};
    assert_int_equal(verify(args3, NULL), 2);
}

/* Every malformed kind: exit 2, and --output leaves no file behind. */
static void malformed_files_exit_2_and_write_nothing(void **state)
{
    (void)state;
    const int32_t three[3] = {1, 2, 3};
    const int32_t five[5] = {1, 2, 3, 4, 5};
    write_bytes("magic.npy", "\x93NUMPX\x01\x00\x10\x00{}", 12);
    write_npy("unparsable.npy", "{'descr': '<i4', 'fortran_order': False, 'shape': (3,), ", three,
              sizeof three);
    write_npy("dtype.npy", "{'descr': '<u2', 'fortran_order': False, 'shape': (3,), }", three, 6);
    write_npy("bigendian.npy", "{'descr': '>i4', 'fortran_order': False, 'shape': (3,), }", three,
              sizeof three);
    write_npy("fortran.npy", "{'descr': '<i4', 'fortran_order': True, 'shape': (3,), }", three,
              sizeof three);
    write_npy("twod.npy", "{'descr': '<i4', 'fortran_order': False, 'shape': (1, 3), }", three,
              sizeof three);
    write_npy("short.npy", "{'descr': '<i4', 'fortran_order': False, 'shape': (5,), }", three,
              sizeof three);
    write_npy("long.npy", "{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }", five,
              sizeof five);
    write_bytes("cut.npy", "\x93NUMPY\x01\x00\x40\x00{'descr'", 17);
    write_bytes("odd.i32", five, 7);
    static const struct {
        const char *file, *type, *says;
    } cases[] = {
        {"magic.npy", NULL, "bad magic"},
        {"unparsable.npy", NULL, "header"},
        {"dtype.npy", NULL, "unsupported dtype"},
        {"bigendian.npy", NULL, "big-endian"},
        {"fortran.npy", NULL, "fortran_order"},
        {"twod.npy", NULL, "dimensions"},
        {"short.npy", NULL, "truncated"},
        {"long.npy", NULL, "trailing bytes"},
        {"cut.npy", NULL, "truncated"},
        {"odd.i32", "i32", "whole number"},
        {"missing.npy", NULL, "No such file"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *args[] = {"--input", path_of(cases[i].file), "--algo", "sequential",
                              "--op", "add", "--output", path_of("none.npy"),
                              cases[i].type ? "--type" : NULL, cases[i].type, NULL};
        /* the reason goes to stderr; the reader gives the same one here */
        char *text = NULL;
        int rc = verify(args, &text);
        if (rc != 2)
            fail_msg("case %s: exit %d", cases[i].file, rc);
        assert_string_equal(text, ""); /* no table at all */
        free(text);
        assert_int_equal(access(path_of("none.npy"), F_OK), -1);
        void *data = NULL;
        sl_type t;
        size_t n;
        char why[256] = "";
        sl_type raw = cases[i].type ? SL_I32 : SL_TYPE_COUNT;
        assert_int_not_equal(verify_array_read(path_of(cases[i].file), raw, &t, &data, &n, why,
                                               sizeof why), SL_OK);
        if (!strstr(why, cases[i].says))
            fail_msg("case %s: reason '%s', expected '%s'", cases[i].file, why, cases[i].says);
    }
}

/* An explicit --type must agree with the .npy file; other usage errors of
 * --input and --output. */
static void type_mismatch_and_usage_exit_2(void **state)
{
    (void)state;
    const int32_t x[4] = {4, 3, 2, 1};
    char why[256];
    assert_int_equal(verify_npy_write(path_of("i32.npy"), SL_I32, x, 4, why, sizeof why), SL_OK);
    const char *in = path_of("i32.npy"), *out = path_of("never.npy");
    const char *const cases[][12] = {
        {"--input", in, "--type", "f32", NULL},
        {"--input", in, "--type", "i64", "--algo", "sequential", "--op", "add", "--output", out, NULL},
        {"--input", in, "--type", "i32,i64", NULL},
        {"--input", in, "--type", "all", NULL},
        {"--input", in, "--sizes", "10", NULL},
        {"--input", in, "--dist", "small", NULL},
        {"--input", in, "--seed", "3", NULL},
        {"--algo", "sequential", "--op", "add", "--output", out, NULL},
        {"--input", in, "--op", "add", "--output", out, NULL},
        {"--input", in, "--algo", "sequential", "--output", out, NULL},
        {"--input", in, "--algo", "sequential", "--op", "add", "--both", "--output", out, NULL},
        {"--input", in, "--algo", "compact", "--op", "add", "--output", out, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc = verify(cases[i], NULL);
        if (rc != 2)
            fail_msg("case %zu: exit %d", i, rc);
        assert_int_equal(access(out, F_OK), -1);
    }
    /* f32 affine never applies: the file's type is as explicit as --type */
    const char *affine[] = {"--input", in, "--op", "affine", "--type", "i32", NULL};
    assert_int_equal(verify(affine, NULL), 0);
    float f[2] = {1.0f, 2.0f};
    assert_int_equal(verify_npy_write(path_of("f32.npy"), SL_F32, f, 2, why, sizeof why), SL_OK);
    const char *affine_f[] = {"--input", path_of("f32.npy"), "--op", "affine", NULL};
    assert_int_equal(verify(affine_f, NULL), 2);
}

/* An empty array is a valid input: every line passes with one size (0). */
static void empty_array_is_checked(void **state)
{
    (void)state;
    char why[256];
    assert_int_equal(verify_npy_write(path_of("empty.npy"), SL_F32, NULL, 0, why, sizeof why), SL_OK);
    const char *args[] = {"--input", path_of("empty.npy"), "--backend", "seq", "--both",
                          "--output", path_of("e.npy"), "--algo", "sequential", "--op", "max",
                          "--exclusive", NULL};
    /* --both and --exclusive together are refused before anything runs */
    assert_int_equal(verify(args, NULL), 2);
    args[4] = "--json";
    char *text = NULL;
    assert_int_equal(verify(args, &text), 0);
    assert_non_null(strstr(text, "\"seed\":null,\"input\":\""));
    assert_non_null(strstr(text, "\"sizes_checked\":1"));
    free(text);
    expect_scan_of("e.npy", SL_F32, SL_MAX, true, NULL, 0);
}

static int make_dir(void **state)
{
    (void)state;
    return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
    (void)state;
    static const char *const names[] = {
        "x.npy", "y.npy", "w.npy", "v.npy", "ones.f64", "o.npy", "r.npy", "magic.npy",
        "unparsable.npy", "dtype.npy", "bigendian.npy", "fortran.npy", "twod.npy", "short.npy",
        "long.npy", "cut.npy", "odd.i32", "i32.npy", "f32.npy", "empty.npy", "e.npy"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        unlink(path_of(names[i]));
    return rmdir(dir);
}

int main(void)
{
    seed = test_seed();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(round_trip_matches_the_sequential_scan),
        cmocka_unit_test(raw_input_and_reduction_closed_forms),
        cmocka_unit_test(malformed_files_exit_2_and_write_nothing),
        cmocka_unit_test(type_mismatch_and_usage_exit_2),
        cmocka_unit_test(empty_array_is_checked),
    };
    return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
