/* The OpenMP scans, reduction and copy against the definition (integers and
 * float max/min bit for bit) and against the sequential scan within the
 * rounding bound of their addition trees (float add), with 1, 2, 3 and 7
 * threads, every (type, operator), inclusive and exclusive, in place and
 * not, on sizes that cross tile and round boundaries. SCANLAB_SEED replays
 * a run. */
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
#include "cpu/cpu.h"
#include "cpu/omp_internal.h"
#include "testlib.h"

#define GUARD 4
#define GUARD_BYTE 0x5a
#define RANDOM_SIZES 3
#define RANDOM_SIZE_MAX 20000
/* The thread count that also runs sizes of several rounds of full tiles. */
#define ROUNDS_THREADS 3
#define ROUNDS 2

static uint64_t seed;
static const int thread_counts[] = {1, 2, 3, 7};
#define THREAD_COUNTS (sizeof thread_counts / sizeof thread_counts[0])

typedef sl_status (*scan_fn)(sl_type, sl_op, bool, const void *, void *, size_t, int);
static const struct {
    const char *name;
    scan_fn fn;
} scans[] = {
    {"reduce-then-scan", cpu_scan_omp_reduce_then_scan},
    {"single-pass", cpu_scan_omp_single_pass},
    {"directive", cpu_scan_omp_directive},
};
#define SCANS (sizeof scans / sizeof scans[0])

static const sl_type pair_types[] = {
#define X(C, TN, OPN, TYPE, OP) TYPE,
    SL_FOR_EACH_TYPE_OP(X)
#undef X
};
static const sl_op pair_ops[] = {
#define X(C, TN, OPN, TYPE, OP) OP,
    SL_FOR_EACH_TYPE_OP(X)
#undef X
};
#define PAIRS (sizeof pair_types / sizeof pair_types[0])

/* Roundings behind one output of a tiled scan or a chunked reduction: at
 * most a tile (or chunk) of them, one per tile before it, one per thread. */
static double depth_bound(size_t n, int threads, size_t size)
{
    size_t c = cpu_omp_tile_len(n, threads, size), per_thread = n / (size_t)threads + 1;
    if (c < per_thread)
        c = per_thread;
    return (double)(c + n / c + 1 + (size_t)threads);
}

static bool guards_intact(const unsigned char *buf, size_t n, size_t size)
{
    for (size_t i = 0; i < GUARD * size; i++)
        if (buf[i] != GUARD_BYTE || buf[(GUARD + n) * size + i] != GUARD_BYTE)
            return false;
    return true;
}

/* Every scan, thread count and placement on one input of n elements. */
static void check_case(verify_rng *r, sl_type t, sl_op op, size_t n, const int *threads,
                       size_t thread_count)
{
    size_t size = SL_TYPE_SIZE(t);
    unsigned char *x = malloc(n * size + 1), *want = malloc(n * size + 1);
    unsigned char *seq = malloc(n * size + 1), *buf = malloc((n + 2 * GUARD) * size);
    assert_true(x && want && seq && buf);
    unsigned char *out = buf + GUARD * size;
    bool float_add = SL_TYPE_IS_FLOAT(t) && op == SL_ADD;
    testlib_fill(r, t, op, x, n);
    for (int exclusive = 0; exclusive < 2; exclusive++) {
        testlib_naive_scan(t, op, exclusive, x, want, n);
        assert_int_equal(cpu_scan_seq(t, op, exclusive, x, seq, n), SL_OK);
        for (size_t a = 0; a < SCANS; a++)
            for (size_t k = 0; k < thread_count; k++)
                for (int in_place = 0; in_place < 2; in_place++) {
                    memset(buf, GUARD_BYTE, (n + 2 * GUARD) * size);
                    if (in_place)
                        memcpy(out, x, n * size);
                    sl_status st = scans[a].fn(t, op, exclusive, in_place ? out : x, out, n, threads[k]);
                    assert_int_equal(st, SL_OK);
                    size_t i = float_add ? testlib_first_outside(t, exclusive, x, out, seq, n,
                                                                 depth_bound(n, threads[k], size))
                                         : testlib_first_diff(t, op, out, want, n);
                    bool guards = guards_intact(buf, n, size);
                    if (i < n || !guards)
                        fail_msg("%s pair (%d,%d) n=%zu threads=%d %s %s: index %zu got %g want %g "
                                 "(guards %s)",
                                 scans[a].name, t, op, n, threads[k],
                                 exclusive ? "exclusive" : "inclusive",
                                 in_place ? "in place" : "out of place", i,
                                 i < n ? testlib_value(t, out, i) : 0,
                                 i < n ? testlib_value(t, float_add ? seq : want, i) : 0,
                                 guards ? "ok" : "hit");
                }
    }
    free(x);
    free(want);
    free(seq);
    free(buf);
}

static void test_omp_scans(void **state)
{
    (void)state;
    verify_rng r;
    verify_rng_seed(&r, seed);
    for (size_t p = 0; p < PAIRS; p++) {
        sl_type t = pair_types[p];
        sl_op op = pair_ops[p];
        for (size_t s = 0; s < testlib_size_count; s++)
            check_case(&r, t, op, testlib_sizes[s], thread_counts, THREAD_COUNTS);
        for (int k = 0; k < RANDOM_SIZES; k++)
            check_case(&r, t, op, 1 + verify_rng_below(&r, RANDOM_SIZE_MAX), thread_counts,
                       THREAD_COUNTS);
        /* Several rounds of full tiles, and a ragged last round. */
        size_t tile = CPU_TILE_BYTES / SL_TYPE_SIZE(t);
        static const int rounds_threads[] = {ROUNDS_THREADS};
        check_case(&r, t, op, ROUNDS * ROUNDS_THREADS * tile + 1 + verify_rng_below(&r, tile),
                   rounds_threads, 1);
    }
}

/* Outputs large enough to be written with streaming stores. */
static void test_omp_streamed_output(void **state)
{
    (void)state;
    verify_rng r;
    verify_rng_seed(&r, seed ^ 3);
    static const int two[] = {2};
    check_case(&r, SL_I64, SL_AFFINE, CPU_STREAM_MIN_BYTES / 8 + 13, two, 1);
}

static void test_omp_reduce(void **state)
{
    (void)state;
    verify_rng r;
    verify_rng_seed(&r, seed ^ 1);
    for (size_t p = 0; p < PAIRS; p++) {
        sl_type t = pair_types[p];
        sl_op op = pair_ops[p];
        size_t size = SL_TYPE_SIZE(t);
        for (size_t s = 0; s <= testlib_size_count; s++) {
            size_t n = s < testlib_size_count ? testlib_sizes[s] : 1 + verify_rng_below(&r, RANDOM_SIZE_MAX);
            unsigned char *x = malloc(n * size + 1), got[8], want[8], seqv[8];
            assert_non_null(x);
            testlib_fill(&r, t, op, x, n);
            testlib_naive_reduce(t, op, x, n, want);
            assert_int_equal(cpu_reduce_seq(t, op, x, n, seqv), SL_OK);
            for (size_t k = 0; k < THREAD_COUNTS; k++) {
                assert_int_equal(cpu_reduce_omp(t, op, x, n, got, thread_counts[k]), SL_OK);
                if (SL_TYPE_IS_FLOAT(t) && op == SL_ADD) {
                    /* The bound on the last prefix bounds the total. */
                    double d = testlib_value(t, got, 0) - testlib_value(t, seqv, 0), sum = 0;
                    for (size_t i = 0; i < n; i++)
                        sum += testlib_value(t, x, i) < 0 ? -testlib_value(t, x, i) : testlib_value(t, x, i);
                    double bound = depth_bound(n, thread_counts[k], size) *
                                   (t == SL_F32 ? 0x1p-23 : 0x1p-52) * sum;
                    if (!(d <= bound && -d <= bound))
                        fail_msg("reduce f%d n=%zu threads=%d: off by %g > %g", t == SL_F32 ? 32 : 64,
                                 n, thread_counts[k], d, bound);
                } else if (testlib_first_diff(t, op, got, want, 1) != 1) {
                    fail_msg("reduce pair (%d,%d) n=%zu threads=%d: got %g want %g", t, op, n,
                             thread_counts[k], testlib_value(t, got, 0), testlib_value(t, want, 0));
                }
            }
            free(x);
        }
    }
}

static void test_omp_copy(void **state)
{
    (void)state;
    verify_rng r;
    verify_rng_seed(&r, seed ^ 2);
    static const size_t elem_sizes[] = {1, 3, 8};
    static const size_t counts[] = {0, 1, 63, 64, 65, 100003};
    for (size_t e = 0; e < 3; e++)
        for (size_t c = 0; c < 6; c++)
            for (size_t k = 0; k < THREAD_COUNTS; k++) {
                size_t bytes = elem_sizes[e] * counts[c];
                unsigned char *src = malloc(bytes + 1), *dst = malloc(bytes + 2 * GUARD);
                assert_true(src && dst);
                for (size_t i = 0; i < bytes; i++)
                    src[i] = (unsigned char)verify_rng_next(&r);
                memset(dst, GUARD_BYTE, bytes + 2 * GUARD);
                assert_int_equal(cpu_copy_omp(src, dst + GUARD, counts[c], elem_sizes[e], thread_counts[k]),
                                 SL_OK);
                assert_memory_equal(dst + GUARD, src, bytes);
                for (size_t i = 0; i < GUARD; i++)
                    assert_true(dst[i] == GUARD_BYTE && dst[GUARD + bytes + i] == GUARD_BYTE);
                free(src);
                free(dst);
            }
}

static void test_omp_arguments(void **state)
{
    (void)state;
    int64_t x[3] = {1, 2, 3}, y[3], r;
    for (size_t a = 0; a < SCANS; a++) {
        assert_int_equal(scans[a].fn(SL_I64, SL_ADD, false, x, y, 3, -1), SL_ERR_ARG);
        assert_int_equal(scans[a].fn(SL_F64, SL_AFFINE, false, x, y, 3, 2), SL_ERR_ARG);
        assert_int_equal(scans[a].fn(SL_I64, SL_ADD, false, NULL, y, 3, 2), SL_ERR_ARG);
        /* threads = 0: the runtime's default. */
        sl_status st = scans[a].fn(SL_I64, SL_ADD, false, x, y, 3, 0);
        if (SCANLAB_HAVE_OPENMP) {
            assert_int_equal(st, SL_OK);
            assert_true(y[0] == 1 && y[1] == 3 && y[2] == 6);
        } else {
            assert_int_equal(st, SL_ERR_UNSUPPORTED);
        }
    }
    assert_int_equal(cpu_reduce_omp(SL_I64, SL_ADD, x, 3, NULL, 2), SL_ERR_ARG);
    assert_int_equal(cpu_reduce_omp(SL_I64, SL_ADD, x, 3, &r, 0),
                     SCANLAB_HAVE_OPENMP ? SL_OK : SL_ERR_UNSUPPORTED);
    assert_int_equal(cpu_copy_omp(x, y, 3, 0, 2), SL_ERR_ARG);
    assert_int_equal(cpu_copy_omp(NULL, y, 3, 8, 2), SL_ERR_ARG);
    assert_int_equal(cpu_copy_omp(x, y, 3, 8, -2), SL_ERR_ARG);
}

int main(void)
{
    seed = testlib_seed();
    const struct CMUnitTest all[] = {
        cmocka_unit_test(test_omp_arguments),
        cmocka_unit_test(test_omp_scans),
        cmocka_unit_test(test_omp_streamed_output),
        cmocka_unit_test(test_omp_reduce),
        cmocka_unit_test(test_omp_copy),
    };
    const struct CMUnitTest without_openmp[] = {cmocka_unit_test(test_omp_arguments)};
    if (!SCANLAB_HAVE_OPENMP)
        return cmocka_run_group_tests(without_openmp, NULL, NULL);
    return cmocka_run_group_tests(all, NULL, NULL);
}
