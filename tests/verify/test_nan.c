/* One NaN semantics everywhere (cuda/ops.h): max and min propagate a NaN
 * operand, -inf / +inf stay identities, the operator stays associative; the
 * comparison takes any NaN for any NaN; and verify on arrays of infinities
 * and quiet, signalling, negative and payload NaNs passes every backend,
 * the sequential reference included (regressions: it used to fail itself
 * on [inf, -inf], and the kernels against it on max over NaNs). */
#include <math.h>
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
#include "cuda/ops.h"
#include "verify/cli/verify_plan.h"
#include "verify/harness/compare.h"

static float f32_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static double f64_bits(uint64_t u)
{
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

/* A quiet NaN, a signalling one, a negative one, one with a payload. */
static float nans32[4];
static double nans64[4];

static int make_nans(void **state)
{
    (void)state;
    nans32[0] = f32_bits(0x7fc00000u);
    nans32[1] = f32_bits(0x7fa00000u);
    nans32[2] = f32_bits(0xffc00001u);
    nans32[3] = f32_bits(0x7fc12345u);
    nans64[0] = f64_bits(0x7ff8000000000000u);
    nans64[1] = f64_bits(0x7ff4000000000000u);
    nans64[2] = f64_bits(0xfff8000000000001u);
    nans64[3] = f64_bits(0x7ff8000000abcdefu);
    return 0;
}

static void operators_propagate_nan(void **state)
{
    (void)state;
    for (int k = 0; k < 4; k++) {
        float q = nans32[k];
        double d = nans64[k];
        /* a NaN on either side, and against the identities */
        assert_true(isnan(sl_max_f32(q, 1.0f)) && isnan(sl_max_f32(1.0f, q)));
        assert_true(isnan(sl_min_f32(q, 1.0f)) && isnan(sl_min_f32(1.0f, q)));
        assert_true(isnan(sl_max_f32(sl_id_max_f32(), q)) && isnan(sl_min_f32(sl_id_min_f32(), q)));
        assert_true(isnan(sl_max_f64(d, -2.0)) && isnan(sl_max_f64(-2.0, d)));
        assert_true(isnan(sl_min_f64(d, -2.0)) && isnan(sl_min_f64(-2.0, d)));
        assert_true(isnan(sl_max_f64(sl_id_max_f64(), d)) && isnan(sl_min_f64(sl_id_min_f64(), d)));
    }
    /* the identities hold for the infinities and signed zeros too */
    assert_true(sl_max_f32(sl_id_max_f32(), -INFINITY) == -INFINITY);
    assert_true(sl_min_f64(sl_id_min_f64(), INFINITY) == INFINITY);
    assert_true(signbit(sl_max_f32(sl_id_max_f32(), -0.0f)));
    /* later operand wins ties: +0 after -0 */
    assert_false(signbit(sl_max_f64(-0.0, 0.0)));
}

/* NaN-ness of max over every grouping of three values from a set with
 * NaNs and infinities is the same: the operator is associative there. */
static void operators_associative_with_nan(void **state)
{
    (void)state;
    const float v[] = {1.0f, -1.0f, INFINITY, -INFINITY, 0.0f, -0.0f, nans32[0], nans32[1]};
    const size_t n = sizeof v / sizeof v[0];
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            for (size_t k = 0; k < n; k++) {
                float l = sl_max_f32(sl_max_f32(v[i], v[j]), v[k]);
                float r = sl_max_f32(v[i], sl_max_f32(v[j], v[k]));
                assert_true(isnan(l) == isnan(r));
                if (!isnan(l))
                    assert_memory_equal(&l, &r, sizeof l);
                float lm = sl_min_f32(sl_min_f32(v[i], v[j]), v[k]);
                float rm = sl_min_f32(v[i], sl_min_f32(v[j], v[k]));
                assert_true(isnan(lm) == isnan(rm));
                if (!isnan(lm))
                    assert_memory_equal(&lm, &rm, sizeof lm);
            }
}

/* The sequential reference: NaN from the first NaN element on. */
static void reference_scan_of_nans(void **state)
{
    (void)state;
    const float x[] = {1.0f, 3.0f, nans32[1], 2.0f, 5.0f};
    float out[5];
    assert_int_equal(cpu_scan_seq(SL_F32, SL_MAX, false, x, out, 5), SL_OK);
    assert_true(out[0] == 1.0f && out[1] == 3.0f);
    assert_true(isnan(out[2]) && isnan(out[3]) && isnan(out[4]));
    assert_int_equal(cpu_scan_seq(SL_F32, SL_MAX, true, x, out, 5), SL_OK);
    assert_true(out[0] == -INFINITY && out[1] == 1.0f && out[2] == 3.0f);
    assert_true(isnan(out[3]) && isnan(out[4]));
}

static void comparison_takes_nan_for_nan(void **state)
{
    (void)state;
    verify_mismatch m;
    const float a[] = {nans32[0], nans32[1], 1.0f};
    const float b[] = {nans32[2], nans32[3], 1.0f};
    assert_true(verify_compare_exact(SL_F32, a, b, 3, &m));
    const float c[] = {nans32[0], 2.0f, 1.0f};
    assert_false(verify_compare_exact(SL_F32, a, c, 3, &m));
    assert_int_equal(m.index, 1);
    /* integers keep comparing bits */
    const int32_t i1[] = {0x7fc00000}, i2[] = {0x7fc00001};
    assert_false(verify_compare_exact(SL_I32, i1, i2, 1, &m));
    /* the bound check: exact NaN (inf + -inf) against any NaN passes; a
     * NaN where the exact value is a number fails */
    const double exact[] = {nans64[0], 4.0}, got_ok[] = {nans64[2], 4.0}, got_bad[] = {nans64[0], nans64[1]};
    const double absp[] = {INFINITY, 4.0};
    const size_t depth[] = {1, 1};
    double eta;
    assert_true(verify_compare_bound(SL_F64, exact, got_ok, absp, depth, 2, &eta, &m));
    assert_false(verify_compare_bound(SL_F64, exact, got_bad, absp, depth, 2, &eta, &m));
    assert_int_equal(m.index, 1);
}

static char dir[] = "/tmp/scanlab-nan-XXXXXX";

static const char *path_of(const char *name)
{
    static char buf[256];
    snprintf(buf, sizeof buf, "%s/%s", dir, name);
    return buf;
}

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
    *text = buf;
    return rc;
}

/* Every backend built here, every operator, both kinds, on a raw file of
 * infinities and NaNs of every kind: no line fails. */
static void verify_passes_on_special_values(void **state)
{
    (void)state;
    assert_non_null(mkdtemp(dir));
    const float f[] = {INFINITY, -INFINITY, 1.0f,      nans32[1], 2.0f,      -0.0f,
                       nans32[2], 3.0f,     nans32[3], -INFINITY, nans32[0], 7.0f};
    const double d[] = {nans64[1], INFINITY, -INFINITY, 1.0, nans64[2], 2.0, nans64[3], 3.0};
    FILE *out = fopen(path_of("special.f32"), "wb");
    assert_non_null(out);
    assert_int_equal(fwrite(f, sizeof f, 1, out), 1);
    assert_int_equal(fclose(out), 0);
    out = fopen(path_of("special.f64"), "wb");
    assert_non_null(out);
    assert_int_equal(fwrite(d, sizeof d, 1, out), 1);
    assert_int_equal(fclose(out), 0);
    const char *types[] = {"f32", "f64"}, *files[] = {"special.f32", "special.f64"};
    for (int k = 0; k < 2; k++) {
        char *text;
        char file[256];
        snprintf(file, sizeof file, "%s", path_of(files[k]));
        const char *args[] = {"--input", file, "--type", types[k], "--both", NULL};
        int rc = verify(args, &text);
        if (rc != 0 || !strstr(text, " 0 FAILED,"))
            fail_msg("verify on %s: exit %d\n%s", files[k], rc, text);
        free(text);
        unlink(file);
    }
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(operators_propagate_nan),
        cmocka_unit_test(operators_associative_with_nan),
        cmocka_unit_test(reference_scan_of_nans),
        cmocka_unit_test(comparison_takes_nan_for_nan),
        cmocka_unit_test(verify_passes_on_special_values),
    };
    return cmocka_run_group_tests(tests, make_nans, NULL);
}
