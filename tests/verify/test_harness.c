/* The harness against planted wrong kernels: each must be caught, reported
 * at the right index, and replayable from the printed command. */
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
#include "seed.h"
#include "verify/cli/verify_plan.h"
#include "verify/formats/npy.h"

static uint64_t seed;

/* The tile of the planted off-by-one kernel. */
enum { TILE = 32 };

/* --- planted kernels ------------------------------------------------------ */

/* op(later, earlier): right for commutative operators only. i32 and i64
 * add and affine. */
static sl_status swapped_scan(const sl_scan_args *a)
{
    if (SL_TYPE_IS_FLOAT(a->type) || (a->op != SL_ADD && a->op != SL_AFFINE))
        return SL_ERR_UNSUPPORTED;
    bool affine = a->op == SL_AFFINE;
    if (a->type == SL_I32) {
        const int32_t *x = a->in;
        int32_t *y = a->out, acc = affine ? sl_id_affine_i32() : sl_id_add_i32();
        for (size_t i = 0; i < a->n; i++) {
            if (a->exclusive)
                y[i] = acc;
            acc = affine ? sl_affine_i32(x[i], acc) : sl_add_i32(x[i], acc);
            if (!a->exclusive)
                y[i] = acc;
        }
    } else {
        const int64_t *x = a->in;
        int64_t *y = a->out, acc = affine ? sl_id_affine_i64() : sl_id_add_i64();
        for (size_t i = 0; i < a->n; i++) {
            if (a->exclusive)
                y[i] = acc;
            acc = affine ? sl_affine_i64(x[i], acc) : sl_add_i64(x[i], acc);
            if (!a->exclusive)
                y[i] = acc;
        }
    }
    return SL_OK;
}

/* Inclusive i32 add scan over tiles whose carry forgets the last element
 * of the previous tile: right below TILE + 1 elements, wrong from there. */
static sl_status tile_off_by_one(const sl_scan_args *a)
{
    if (a->type != SL_I32 || a->op != SL_ADD || a->exclusive)
        return SL_ERR_UNSUPPORTED;
    const int32_t *x = a->in;
    int32_t *y = a->out, carry = 0;
    for (size_t s = 0; s < a->n; s += TILE) {
        int32_t acc = carry;
        for (size_t i = s; i < a->n && i < s + TILE; i++)
            y[i] = acc = sl_add_i32(acc, x[i]);
        if (s + TILE <= a->n)
            carry = y[s + TILE - 2]; /* should be s + TILE - 1 */
    }
    return SL_OK;
}

static sl_status no_gpu(const sl_scan_args *a)
{
    (void)a;
    return SL_ERR_NO_GPU;
}

/* A right scan that also writes one element past the end. */
static sl_status writes_past_end(const sl_scan_args *a)
{
    int32_t *y = a->out;
    const int32_t *x = a->in;
    int32_t acc = 0;
    for (size_t i = 0; i <= a->n; i++)
        y[i] = acc = sl_add_i32(acc, i < a->n ? x[i] : 0);
    return SL_OK;
}

static sl_status writes_before_start(const sl_scan_args *a)
{
    ((int32_t *)a->out)[-1] = 7;
    return cpu_scan_seq(a->type, a->op, a->exclusive, a->in, a->out, a->n);
}

static sl_status modifies_input(const sl_scan_args *a)
{
    sl_status st = cpu_scan_seq(a->type, a->op, a->exclusive, a->in, a->out, a->n);
    if (a->n > 3)
        ((int32_t *)a->in)[3] ^= 1;
    return st;
}

/* f32 add: every other call accumulates in double and rounds each prefix
 * once (within the bound, but different bits from the float loop). */
static sl_status alternating_f32(const sl_scan_args *a)
{
    static int calls;
    if (a->type != SL_F32 || a->op != SL_ADD || a->exclusive)
        return SL_ERR_UNSUPPORTED;
    if (calls++ % 2 == 0)
        return cpu_scan_seq(a->type, a->op, false, a->in, a->out, a->n);
    const float *x = a->in;
    float *y = a->out;
    double acc = 0.0;
    for (size_t i = 0; i < a->n; i++)
        y[i] = (float)(acc += x[i]);
    return SL_OK;
}

/* f64 add that counts the middle element twice. */
static sl_status double_counts_middle(const sl_scan_args *a)
{
    if (a->type != SL_F64 || a->op != SL_ADD || a->exclusive)
        return SL_ERR_UNSUPPORTED;
    const double *x = a->in;
    double *y = a->out, acc = 0.0;
    for (size_t i = 0; i < a->n; i++) {
        acc += x[i];
        if (i == a->n / 2)
            acc += x[i];
        y[i] = acc;
    }
    return SL_OK;
}

static const verify_algo planted[] = {
    {"planted-swap", "op(later, earlier)", SL_KIND_SCAN, {[SL_SEQ] = swapped_scan}, NULL},
    {"planted-tile", "carry off by one", SL_KIND_SCAN, {[SL_SEQ] = tile_off_by_one}, NULL},
    {"planted-nogpu", "no GPU", SL_KIND_SCAN, {[SL_SEQ] = no_gpu}, NULL},
    {"planted-past-end", "writes out[n]", SL_KIND_SCAN, {[SL_SEQ] = writes_past_end}, NULL},
    {"planted-before", "writes out[-1]", SL_KIND_SCAN, {[SL_SEQ] = writes_before_start}, NULL},
    {"planted-input", "modifies in[3]", SL_KIND_SCAN, {[SL_SEQ] = modifies_input}, NULL},
    {"planted-alternating", "two orders", SL_KIND_SCAN, {[SL_SEQ] = alternating_f32}, NULL},
    {"planted-double-count", "x[n/2] twice", SL_KIND_SCAN, {[SL_SEQ] = double_counts_middle}, NULL},
};
enum { PLANTED = sizeof planted / sizeof planted[0] };

static const verify_algo *planted_algo(const char *name)
{
    for (size_t i = 0; i < PLANTED; i++)
        if (strcmp(planted[i].name, name) == 0)
            return &planted[i];
    fail_msg("no planted algorithm %s", name);
    return NULL;
}

static verify_case make_case(const char *algo, sl_type t, sl_op op, bool exclusive, size_t n)
{
    verify_case c = {.algo = planted_algo(algo), .backend = SL_SEQ, .type = t, .op = op,
                     .exclusive = exclusive,
                     .dist = SL_TYPE_IS_FLOAT(t) ? VERIFY_DIST_UNIFORM11 : VERIFY_DIST_UNIFORM,
                     .n = n, .seed = seed, .repeat = 1};
    return c;
}

/* Run verify_main on the planted table with argv, capturing stdout. */
static int run_main(char **argv, int argc, char **text)
{
    size_t len;
    FILE *f = open_memstream(text, &len);
    assert_non_null(f);
    int rc = verify_main(argc, argv, planted, PLANTED, f);
    fclose(f);
    return rc;
}

/* --- tests ------------------------------------------------------------------ */

static void swapped_operands_pass_for_add(void **state)
{
    (void)state;
    for (int t = SL_I32; t <= SL_I64; t++)
        for (int excl = 0; excl < 2; excl++) {
            verify_case c = make_case("planted-swap", (sl_type)t, SL_ADD, excl, 1025);
            verify_case_result r;
            assert_int_equal(verify_run_case(&c, &r), SL_OK);
            assert_true(r.exact);
        }
}

/* First index where op(earlier, later) and op(later, earlier) prefixes
 * differ, computed by hand from the same input. */
static size_t first_swap_difference(sl_type t, const void *in, size_t n)
{
    if (t == SL_I32) {
        const int32_t *x = in;
        int32_t good = sl_id_affine_i32(), bad = good;
        for (size_t i = 0; i < n; i++) {
            good = sl_affine_i32(good, x[i]);
            bad = sl_affine_i32(x[i], bad);
            if (good != bad)
                return i;
        }
    } else {
        const int64_t *x = in;
        int64_t good = sl_id_affine_i64(), bad = good;
        for (size_t i = 0; i < n; i++) {
            good = sl_affine_i64(good, x[i]);
            bad = sl_affine_i64(x[i], bad);
            if (good != bad)
                return i;
        }
    }
    return n;
}

static void swapped_operands_are_caught_for_affine(void **state)
{
    (void)state;
    enum { N = 1000 };
    static int64_t in[N];
    for (int t = SL_I32; t <= SL_I64; t++) {
        verify_case c = make_case("planted-swap", (sl_type)t, SL_AFFINE, false, N);
        verify_case_result r;
        assert_int_equal(verify_run_case(&c, &r), SL_ERR_CHECK);
        assert_int_equal(r.where, VERIFY_WHERE_VALUE);
        assert_true(r.mismatch.found);
        assert_int_equal(verify_fill_input((sl_type)t, SL_AFFINE, c.dist, seed, N, in), SL_OK);
        size_t want = first_swap_difference((sl_type)t, in, N);
        assert_true(want < N);
        assert_int_equal(r.mismatch.index, want);
        /* A one-element scan has nothing to swap. */
        c.n = 1;
        assert_int_equal(verify_run_case(&c, &r), SL_OK);
    }
}

static const char *find_line(const char *text, const char *prefix)
{
    const char *p = strstr(text, prefix);
    return p ? p + strlen(prefix) : NULL;
}

static void off_by_one_is_caught_and_replayed(void **state)
{
    (void)state;
    char seed_s[32];
    snprintf(seed_s, sizeof seed_s, "%" PRIu64, seed);
    char *argv[] = {"verify", "--algo", "planted-tile", "--type", "i32", "--op", "add",
                    "--max-n", "100", "--seed", seed_s};
    char *text = NULL;
    assert_int_equal(run_main(argv, 11, &text), 1);
    /* The smallest failing size is TILE + 1, at the first element of the
     * second tile, which lacks x[TILE - 1]. */
    int32_t x[TILE + 1];
    assert_int_equal(verify_fill_input(SL_I32, SL_ADD, VERIFY_DIST_UNIFORM, seed, TILE + 1, x), SL_OK);
    int32_t want = 0;
    for (int i = 0; i <= TILE; i++)
        want = (int32_t)((uint32_t)want + (uint32_t)x[i]);
    int32_t got = (int32_t)((uint32_t)want - (uint32_t)x[TILE - 1]);
    char expect[160];
    snprintf(expect, sizeof expect, "first difference at index %d: expected %" PRId32 " (0x%08" PRIx32
             "), got %" PRId32 " (0x%08" PRIx32 ")", TILE, want, (uint32_t)want, got, (uint32_t)got);
    assert_non_null(strstr(text, expect));
    assert_non_null(strstr(text, "FAILED"));
    char replay[256];
    snprintf(replay, sizeof replay,
             "scanlab verify --algo planted-tile --backend seq --type i32 --op add --n %d "
             "--dist uniform --seed %s", TILE + 1, seed_s);
    const char *cmd = find_line(text, "replay: ");
    assert_non_null(cmd);
    assert_memory_equal(cmd, replay, strlen(replay));
    /* Run the printed command: same failure, same index. */
    char line[256];
    size_t len = strcspn(cmd, "\n");
    assert_true(len < sizeof line);
    memcpy(line, cmd, len);
    line[len] = '\0';
    char *rargv[32];
    int rargc = 0;
    char *save = NULL;
    for (char *tok = strtok_r(line, " ", &save); tok && rargc < 32; tok = strtok_r(NULL, " ", &save))
        rargv[rargc++] = tok;
    assert_string_equal(rargv[0], "scanlab");
    char *text2 = NULL;
    assert_int_equal(run_main(rargv + 1, rargc - 1, &text2), 1);
    assert_non_null(strstr(text2, expect));
    free(text2);
    free(text);
}

/* On user data (--input) the failure line names the file, and the replay
 * gives it instead of sizes, distribution and seed. x_i = i + 1, so the
 * expected value at index TILE is (TILE + 1)(TILE + 2) / 2 and the planted
 * kernel's misses x_{TILE-1} = TILE. */
static void user_data_failure_replays_with_input(void **state)
{
    (void)state;
    char path[] = "/tmp/scanlab-harness-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    int32_t x[TILE + 1];
    for (int i = 0; i <= TILE; i++)
        x[i] = i + 1;
    char why[256];
    assert_int_equal(verify_npy_write(path, SL_I32, x, TILE + 1, why, sizeof why), SL_OK);
    char *argv[] = {"verify", "--algo", "planted-tile", "--op", "add", "--input", path};
    char *text = NULL;
    assert_int_equal(run_main(argv, 7, &text), 1);
    int want = (TILE + 1) * (TILE + 2) / 2, got = want - TILE;
    char expect[160];
    snprintf(expect, sizeof expect, "n=%d dist=file: first difference at index %d: expected %d "
             "(0x%08x), got %d (0x%08x)", TILE + 1, TILE, want, want, got, got);
    assert_non_null(strstr(text, expect));
    char replay[256];
    snprintf(replay, sizeof replay,
             "scanlab verify --algo planted-tile --backend seq --type i32 --op add --input %s\n",
             path);
    const char *cmd = find_line(text, "replay: ");
    assert_non_null(cmd);
    assert_memory_equal(cmd, replay, strlen(replay));
    assert_null(strstr(text, "--seed"));
    /* the printed command replays the same failure */
    char *rargv[] = {"verify", "--algo", "planted-tile", "--backend", "seq", "--type", "i32",
                     "--op", "add", "--input", path};
    char *text2 = NULL;
    assert_int_equal(run_main(rargv, 11, &text2), 1);
    assert_non_null(strstr(text2, expect));
    free(text2);
    free(text);
    unlink(path);
}

static void json_reports_the_failure(void **state)
{
    (void)state;
    char *argv[] = {"verify", "--algo", "planted-tile,planted-nogpu", "--type", "i32", "--op", "add",
                    "--sizes", "32,33,64", "--seed", "7", "--json"};
    char *text = NULL;
    assert_int_equal(run_main(argv, 12, &text), 1);
    assert_non_null(strstr(text, "\"seed\":7"));
    assert_non_null(strstr(text, "\"algo\":\"planted-tile\""));
    assert_non_null(strstr(text, "\"status\":\"FAILED\""));
    assert_non_null(strstr(text, "\"index\":32"));
    assert_non_null(strstr(text, "\"replay\":\"scanlab verify --algo planted-tile"));
    assert_non_null(strstr(text, "\"status\":\"SKIPPED\""));
    assert_non_null(strstr(text, "\"skip_reason\":\"no GPU present\""));
    free(text);
}

static void no_gpu_is_skipped_not_failed(void **state)
{
    (void)state;
    verify_case c = make_case("planted-nogpu", SL_I32, SL_ADD, false, 10);
    verify_case_result r;
    assert_int_equal(verify_run_case(&c, &r), SL_ERR_NO_GPU);
    assert_true(verify_status_is_skip(r.status));
    char *argv[] = {"verify", "--algo", "planted-nogpu", "--type", "i32", "--op", "add,max",
                    "--max-n", "64"};
    char *text = NULL;
    assert_int_equal(run_main(argv, 9, &text), 0);
    /* One line per combination, each skipped once with the reason. */
    size_t lines = 0;
    for (const char *p = text; (p = strstr(p, "SKIPPED")) != NULL; p++)
        lines++;
    assert_int_equal(lines, 3); /* two lines and the summary */
    assert_non_null(strstr(text, "0 OK, 0 FAILED, 2 SKIPPED"));
    assert_non_null(strstr(text, "no GPU present"));
    free(text);
}

static void writes_outside_the_output_are_caught(void **state)
{
    (void)state;
    verify_case_result r;
    verify_case c = make_case("planted-past-end", SL_I32, SL_ADD, false, 100);
    assert_int_equal(verify_run_case(&c, &r), SL_ERR_CHECK);
    assert_int_equal(r.where, VERIFY_WHERE_AFTER);
    assert_int_equal(r.mismatch.index, 100);
    c.n = 0;
    assert_int_equal(verify_run_case(&c, &r), SL_ERR_CHECK);
    assert_int_equal(r.mismatch.index, 0);
    c = make_case("planted-before", SL_I32, SL_ADD, false, 5);
    assert_int_equal(verify_run_case(&c, &r), SL_ERR_CHECK);
    assert_int_equal(r.where, VERIFY_WHERE_BEFORE);
    assert_int_equal(r.mismatch.index, 1);
    c = make_case("planted-input", SL_I32, SL_ADD, false, 5);
    assert_int_equal(verify_run_case(&c, &r), SL_ERR_CHECK);
    assert_int_equal(r.where, VERIFY_WHERE_INPUT);
    assert_int_equal(r.mismatch.index, 3);
}

static void repeat_reports_nondeterminism(void **state)
{
    (void)state;
    verify_case c = make_case("planted-alternating", SL_F32, SL_ADD, false, 4096);
    c.repeat = 4;
    verify_case_result r;
    assert_int_equal(verify_run_case(&c, &r), SL_OK);
    assert_false(r.exact);
    assert_false(r.deterministic);
    /* One run cannot differ from itself. */
    c.repeat = 1;
    assert_int_equal(verify_run_case(&c, &r), SL_OK);
    assert_true(r.deterministic);
    /* The sequential scan is deterministic and its eta stays below its
     * depth n - 1. */
    const verify_algo *seq = verify_find_algo("sequential", false);
    assert_non_null(seq);
    c.algo = seq;
    c.repeat = 3;
    c.dist = VERIFY_DIST_ILLCOND;
    assert_int_equal(verify_run_case(&c, &r), SL_OK);
    assert_true(r.deterministic);
    /* Passing means eta <= gamma(4095) / u plus the half ulp, just above
     * the depth; cancellation guarantees some rounding shows. */
    assert_true(r.max_eta > 0.0 && r.max_eta <= 4096.0);
}

static void float_error_beyond_the_bound_is_caught(void **state)
{
    (void)state;
    verify_case c = make_case("planted-double-count", SL_F64, SL_ADD, false, 1001);
    c.dist = VERIFY_DIST_ONES;
    verify_case_result r;
    assert_int_equal(verify_run_case(&c, &r), SL_ERR_CHECK);
    /* ones: prefix 500 should be 501 and is 502; eta = 1 / (2^-53 * 501). */
    assert_int_equal(r.mismatch.index, 500);
    double e, g;
    memcpy(&e, r.mismatch.expected, sizeof e);
    memcpy(&g, r.mismatch.got, sizeof g);
    assert_true(e == 501.0 && g == 502.0);
    assert_true(r.mismatch.eta == ldexp(1.0, 53) / 501.0);
    assert_true(r.mismatch.bound == 500.0);
}

static void sequential_passes_every_pair(void **state)
{
    (void)state;
    const verify_algo *algos[] = {verify_find_algo("sequential", false),
                                  verify_find_algo("reduce-sequential", false)};
    for (size_t a = 0; a < 2; a++)
        for (int t = 0; t < SL_TYPE_COUNT; t++)
            for (int op = 0; op < SL_OP_COUNT; op++)
                for (int d = 0; d < VERIFY_DIST_COUNT; d++) {
                    if (!SL_OP_APPLIES(op, t) || !verify_dist_applies((verify_dist)d, (sl_type)t))
                        continue;
                    verify_case c = {.algo = algos[a], .backend = SL_SEQ, .type = (sl_type)t,
                                     .op = (sl_op)op, .exclusive = (d & 1) != 0,
                                     .dist = (verify_dist)d, .n = 1025, .seed = seed, .repeat = 1};
                    verify_case_result r;
                    assert_int_equal(verify_run_case(&c, &r), SL_OK);
                    assert_true(r.exact == !(SL_TYPE_IS_FLOAT(t) && op == SL_ADD));
                }
}

int main(void)
{
    seed = test_seed();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(swapped_operands_pass_for_add),
        cmocka_unit_test(swapped_operands_are_caught_for_affine),
        cmocka_unit_test(off_by_one_is_caught_and_replayed),
        cmocka_unit_test(user_data_failure_replays_with_input),
        cmocka_unit_test(json_reports_the_failure),
        cmocka_unit_test(no_gpu_is_skipped_not_failed),
        cmocka_unit_test(writes_outside_the_output_are_caught),
        cmocka_unit_test(repeat_reports_nondeterminism),
        cmocka_unit_test(float_error_beyond_the_bound_is_caught),
        cmocka_unit_test(sequential_passes_every_pair),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
