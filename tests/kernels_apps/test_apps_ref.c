/* The applications' definitions and sequential references, checked by
 * hand, and the harness's application checks against planted wrong
 * implementations (each must be caught, at the right place). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../verify/seed.h"
#include "cpu/apps.h"
#include "cuda/apps/app_defs.h"
#include "verify/harness/app_ref.h"
#include "verify/harness/harness.h"

static uint64_t seed;

static uint64_t f32_bits(float x)
{
    uint32_t b;
    memcpy(&b, &x, sizeof b);
    return b;
}

/* --- the definitions ---------------------------------------------------------- */

static void test_predicate(void **state)
{
    (void)state;
    assert_true(sl_app_keep((uint32_t)-3, false, 4)); /* odd, negative */
    assert_false(sl_app_keep((uint32_t)-4, false, 4));
    assert_true(sl_app_keep(UINT64_MAX, false, 8));   /* -1 */
    assert_true(sl_app_keep(f32_bits(1e-45f), true, 4));
    assert_false(sl_app_keep(f32_bits(0.0f), true, 4));
    assert_false(sl_app_keep(f32_bits(-0.0f), true, 4));
    assert_false(sl_app_keep(f32_bits(-2.0f), true, 4));
    assert_false(sl_app_keep(f32_bits(NAN), true, 4));
    assert_true(sl_app_keep(f32_bits(INFINITY), true, 4));
    double d = 3.0;
    uint64_t db;
    memcpy(&db, &d, sizeof db);
    assert_true(sl_app_keep(db, true, 8));
    assert_false(sl_app_keep(db | UINT64_C(0x8000000000000000), true, 8));
}

static void test_sort_key_order(void **state)
{
    (void)state;
    const float f[] = {-INFINITY, -2.5f, -1e-45f, -0.0f, 0.0f, 1e-45f, 1.0f, INFINITY};
    for (size_t i = 1; i < sizeof f / sizeof f[0]; i++)
        assert_true(sl_app_sort_key(f32_bits(f[i - 1]), true, 4) < sl_app_sort_key(f32_bits(f[i]), true, 4));
    const int32_t v[] = {INT32_MIN, -5, -1, 0, 1, INT32_MAX};
    for (size_t i = 1; i < sizeof v / sizeof v[0]; i++)
        assert_true(sl_app_sort_key((uint32_t)v[i - 1], false, 4) < sl_app_sort_key((uint32_t)v[i], false, 4));
    assert_int_equal(sl_app_sort_key((uint32_t)INT32_MIN, false, 4), 0);
    assert_int_equal(sl_app_sort_key(f32_bits(-0.0f), true, 4), 0x7fffffffu);
    assert_int_equal(sl_app_sort_key(f32_bits(0.0f), true, 4), 0x80000000u);
}

static void test_parameters(void **state)
{
    (void)state;
    assert_int_equal(sl_app_pack_k(0), SL_APP_PACK_DEFAULT_K);
    assert_int_equal(sl_app_pack_k(255), 255);
    assert_int_equal(sl_app_pack_k(256), 0);
    assert_int_equal(sl_app_pack_k(-1), 0);
    assert_int_equal(sl_app_radix_bits(0), SL_APP_RADIX_DEFAULT_BITS);
    assert_int_equal(sl_app_radix_bits(8), 8);
    assert_int_equal(sl_app_radix_bits(9), 0);
    assert_int_equal(sl_app_pack_count(14, 4), 4);
    assert_int_equal(sl_app_pack_count(15, 4), 0);
    assert_int_equal(sl_app_pack_record(3, 2), 3 * 256 + 2);
    size_t elem, cap;
    assert_int_equal(verify_app_layout(SL_KIND_PACK, SL_F32, 10, 3, &elem, &cap), SL_OK);
    assert_int_equal(elem, 8);
    assert_int_equal(cap, 30);
    assert_int_equal(verify_app_layout(SL_KIND_COMPACT, SL_F32, 10, 0, &elem, &cap), SL_OK);
    assert_int_equal(elem, 4);
    assert_int_equal(cap, 10);
    assert_int_equal(verify_app_layout(SL_KIND_SCAN, SL_F32, 10, 0, &elem, &cap), SL_ERR_ARG);
    assert_int_equal(verify_app_out_bytes(SL_KIND_SORT, SL_I64, 5, 9), 0);
    assert_int_equal(verify_app_out_bytes(SL_KIND_PACK, SL_I32, SIZE_MAX / 4, 0), 0);
}

/* --- the references, by hand ----------------------------------------------------- */

static void test_cpu_compact_partition(void **state)
{
    (void)state;
    const int32_t in[] = {1, 2, 3, -3, 4, 0, 7};
    int32_t out[7];
    size_t count = 99;
    assert_int_equal(cpu_compact(SL_I32, in, 7, out, &count), SL_OK);
    assert_int_equal(count, 4);
    const int32_t kept[] = {1, 3, -3, 7};
    assert_memory_equal(out, kept, sizeof kept);
    assert_int_equal(cpu_partition(SL_I32, in, 7, out, &count), SL_OK);
    const int32_t split[] = {1, 3, -3, 7, 2, 4, 0};
    assert_int_equal(count, 4);
    assert_memory_equal(out, split, sizeof split);
    const float f[] = {1.5f, -0.0f, 0.0f, -2.0f, 3.0f};
    float g[5];
    assert_int_equal(cpu_partition(SL_F32, f, 5, g, &count), SL_OK);
    assert_int_equal(count, 2);
    assert_true(g[0] == 1.5f && g[1] == 3.0f && g[4] == -2.0f);
    assert_true(signbit(g[2]) && !signbit(g[3])); /* -0.0 then +0.0, input order */
    assert_int_equal(cpu_compact(SL_I32, NULL, 0, NULL, &count), SL_OK);
    assert_int_equal(count, 0);
    assert_int_equal(cpu_compact(SL_I32, NULL, 3, out, &count), SL_ERR_ARG);
}

static void test_cpu_sort(void **state)
{
    (void)state;
    const float f[] = {1.0f, -0.0f, 0.0f, -1.0f, -INFINITY, INFINITY, 2.5f, -0.0f};
    float g[8];
    assert_int_equal(cpu_sort(SL_F32, f, 8, g), SL_OK);
    const float want[] = {-INFINITY, -1.0f, -0.0f, -0.0f, 0.0f, 1.0f, 2.5f, INFINITY};
    assert_memory_equal(g, want, sizeof want); /* bitwise: the zeros' signs too */
    const int64_t q[] = {5, INT64_MIN, -1, INT64_MAX, 0, -1};
    int64_t r[6];
    assert_int_equal(cpu_sort(SL_I64, q, 6, r), SL_OK);
    const int64_t qw[] = {INT64_MIN, -1, -1, 0, 5, INT64_MAX};
    assert_memory_equal(r, qw, sizeof qw);
}

static void test_cpu_pack(void **state)
{
    (void)state;
    /* K = 4: c = bits mod 5 = 0, 1, 4, 0, 4 */
    const int32_t in[] = {0, 1, 4, 5, 9};
    int64_t out[20];
    size_t count = 0;
    assert_int_equal(cpu_pack(SL_I32, in, 5, 4, out, 20, &count), SL_OK);
    const int64_t want[] = {(1 << 8) | 0, (2 << 8) | 0, (2 << 8) | 1, (2 << 8) | 2, (2 << 8) | 3,
                            (4 << 8) | 0, (4 << 8) | 1, (4 << 8) | 2, (4 << 8) | 3};
    assert_int_equal(count, 9);
    assert_memory_equal(out, want, sizeof want);
    assert_int_equal(cpu_pack(SL_I32, in, 5, 4, out, 8, &count), SL_ERR_NOMEM);
    assert_int_equal(cpu_pack(SL_I32, in, 5, 0, out, 20, &count), SL_ERR_ARG);
}

/* --- the harness against planted wrong applications ------------------------------ */

/* compact that forgets the last kept element. */
static sl_status drops_last(const sl_scan_args *a)
{
    size_t count = 0;
    sl_status st = cpu_compact(a->type, a->in, a->n, (unsigned char *)a->out + SL_APP_HEADER_BYTES, &count);
    uint64_t c = count ? count - 1 : 0;
    memcpy(a->out, &c, sizeof c);
    return st;
}

/* partition whose second group is in reverse order (unstable). */
static sl_status unstable(const sl_scan_args *a)
{
    size_t count = 0, es = SL_TYPE_SIZE(a->type);
    unsigned char *d = (unsigned char *)a->out + SL_APP_HEADER_BYTES, tmp[8];
    sl_status st = cpu_partition(a->type, a->in, a->n, d, &count);
    for (size_t i = count, j = a->n; i + 1 < j; i++, j--) {
        memcpy(tmp, d + i * es, es);
        memcpy(d + i * es, d + (j - 1) * es, es);
        memcpy(d + (j - 1) * es, tmp, es);
    }
    uint64_t c = count;
    memcpy(a->out, &c, sizeof c);
    return st;
}

/* pack that is right but also writes one record past its capacity (n K
 * records), into the guard zone. */
static sl_status pack_past_end(const sl_scan_args *a)
{
    size_t cap = a->n * SL_APP_PACK_DEFAULT_K, count = 0;
    int64_t *d = (int64_t *)(void *)((unsigned char *)a->out + SL_APP_HEADER_BYTES);
    sl_status st = cpu_pack(a->type, a->in, a->n, SL_APP_PACK_DEFAULT_K, d, cap, &count);
    uint64_t c = count;
    memcpy(a->out, &c, sizeof c);
    d[cap] = 0;
    return st;
}

static const verify_algo planted[] = {
    {"planted-drop", "", SL_KIND_COMPACT, {[SL_SEQ] = drops_last}, NULL},
    {"planted-unstable", "", SL_KIND_PARTITION, {[SL_SEQ] = unstable}, NULL},
    {"planted-past-end", "", SL_KIND_PACK, {[SL_SEQ] = pack_past_end}, NULL},
};

static verify_case_result run_planted(int k, size_t n)
{
    verify_case c = {.algo = &planted[k], .backend = SL_SEQ, .type = SL_I32, .op = SL_ADD,
                     .dist = VERIFY_DIST_SMALL, .n = n, .seed = seed, .repeat = 1};
    verify_case_result r;
    verify_run_case(&c, &r);
    return r;
}

static void test_planted(void **state)
{
    (void)state;
    verify_case_result r = run_planted(0, 500);
    assert_int_equal(r.status, SL_ERR_CHECK);
    assert_int_equal(r.where, VERIFY_WHERE_COUNT);
    r = run_planted(1, 500);
    assert_int_equal(r.status, SL_ERR_CHECK);
    assert_int_equal(r.where, VERIFY_WHERE_VALUE);
    r = run_planted(1, 1); /* one element: nothing to reverse */
    assert_int_equal(r.status, SL_OK);
    r = run_planted(2, 300);
    assert_int_equal(r.status, SL_ERR_CHECK);
    assert_int_equal(r.where, VERIFY_WHERE_AFTER);
}

int main(void)
{
    seed = test_seed();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_predicate),
        cmocka_unit_test(test_sort_key_order),
        cmocka_unit_test(test_parameters),
        cmocka_unit_test(test_cpu_compact_partition),
        cmocka_unit_test(test_cpu_sort),
        cmocka_unit_test(test_cpu_pack),
        cmocka_unit_test(test_planted),
    };
    return cmocka_run_group_tests_name("kernels_apps_ref", tests, NULL, NULL);
}
