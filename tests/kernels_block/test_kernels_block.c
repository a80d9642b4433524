/* The block-level scans of cuda/block/ in the simulator, through the C API
 * (the algorithm table's sim entries): for one block of n = 2^k elements
 * the work, steps, barriers and bank conflicts against closed forms derived
 * in the comments (and in docs/algorithms.md); then every algorithm
 * against a sequential scan on awkward sizes, block sizes, types and
 * operators, under the hierarchical driver. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cuda/kernels.h"
#include "cuda/ops.h"
#include "model/model.h"
#include "../verify/seed.h"

static uint64_t seed;

/* xorshift64*: the test's own generator, from the printed seed. */
static uint64_t rnd(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * UINT64_C(2685821657736338717);
}

static size_t log2z(size_t n)
{
    size_t l = 0;
    while (((size_t)1 << l) < n)
        l++;
    return l;
}

/* One simulated run of fn on n i32 elements; the stats stay in *st for the
 * caller (model_stats_free after use). Checks the result against a
 * sequential add scan and that the run is race- and divergence-free. */
static void run_i32(sl_scan_fn fn, size_t n, int block, int param, bool exclusive, model_stats *st)
{
    int32_t *in = malloc((n + 1) * sizeof *in), *out = malloc((n + 1) * sizeof *out);
    assert_non_null(in);
    assert_non_null(out);
    uint64_t s = seed | 1;
    for (size_t i = 0; i < n; i++)
        in[i] = (int32_t)(rnd(&s) % 201) - 100;
    model_stats_init(st);
    st->cfg.quiet = true;
    sl_scan_args a = {SL_I32, SL_ADD, exclusive, in, out, n, 0, block, param, st, SL_ADVERSARY_NONE};
    assert_int_equal(fn(&a), SL_OK);
    int32_t acc = 0;
    for (size_t i = 0; i < n; i++) {
        if (exclusive) {
            assert_int_equal(out[i], acc);
            acc += in[i];
        } else {
            acc += in[i];
            assert_int_equal(out[i], acc);
        }
    }
    assert_int_equal(st->races, 0);
    assert_int_equal(st->barrier_divergence, 0);
    free(in);
    free(out);
}

/* Kogge-Stone, one block of n = 2^k threads (k = 5..10; 2^11 threads are
 * more than a block may have): at stride s the n - s threads t >= s apply
 * the operator once, sum_{s=1,2,..,n/2} (n - s) = n k - (n - 1); one
 * operation per thread per step, k steps. The in-place kernel has two
 * barriers per step (read, then write), the double-buffered one one. */
static void test_kogge_stone_counts(void **state)
{
    (void)state;
    for (size_t k = 5; k <= 10; k++) {
        const size_t n = (size_t)1 << k;
        model_stats st;
        run_i32(kogge_stone_sim, n, (int)n, 0, false, &st);
        assert_int_equal(st.work, n * k - (n - 1));
        assert_int_equal(st.steps, k);
        assert_int_equal(st.barriers, 2 * k);
        assert_int_equal(st.launches, 1);
        model_stats_free(&st);
        run_i32(kogge_stone_db_sim, n, (int)n, 0, false, &st);
        assert_int_equal(st.work, n * k - (n - 1));
        assert_int_equal(st.steps, k);
        assert_int_equal(st.barriers, k);
        /* warp-level shared accesses, as the H100 counts them: W = n/32
         * warps; per step every warp loads its own element and stores, and
         * the warps with a lane t >= stride load the earlier operand (all W
         * for strides below 32, W - stride/32 above), so the loads are
         * W + 2 W k - (W - 1) + ... = 2 W k + 1 with the final load of the
         * output, the stores W (k + 1) with the first */
        const size_t w = n / 32;
        assert_int_equal(st.launch[0].c.shared_ld, 2 * w * k + 1);
        assert_int_equal(st.launch[0].c.shared_st, w * (k + 1));
        model_stats_free(&st);
        /* exclusive by the shifted load: the same tree */
        run_i32(kogge_stone_sim, n, (int)n, 0, true, &st);
        assert_int_equal(st.work, n * k - (n - 1));
        model_stats_free(&st);
    }
}

/* Blelloch, one block of n/2 threads: up-sweep n/2 + n/4 + ... + 1 = n - 1
 * operations, down-sweep 1 + 2 + ... + n/2 = n - 1; one per thread per
 * level: 2 log2 n steps; barriers: log2 n + log2 n + 1 (before the store).
 * The inclusive result is read one slot later (the total is kept in slot
 * n), so it costs the same. */
static void test_blelloch_counts(void **state)
{
    (void)state;
    for (size_t k = 5; k <= 11; k++) {
        const size_t n = (size_t)1 << k;
        for (int ex = 1; ex >= 0; ex--) {
            sl_scan_fn fns[] = {blelloch_sim, blelloch_cf_sim};
            for (int f = 0; f < 2; f++) {
                model_stats st;
                run_i32(fns[f], n, (int)n / 2, 0, ex, &st);
                assert_int_equal(st.work, 2 * (n - 1));
                assert_int_equal(st.steps, 2 * k);
                assert_int_equal(st.barriers, 2 * k + 1);
                model_stats_free(&st);
            }
        }
    }
}

/* Blelloch's bank conflicts, 4-byte elements, one block of n = 2^k. At the
 * tree level with offset o = 2^l (l = 0..k-1) A = n / 2o threads are active
 * and lane t touches word o(2t+1) - 1 (and o(2t+2) - 1): stride 2o words,
 * which cycles through max(1, 16/o) banks, so a warp of a active lanes
 * needs deg(l) = ceil(a / max(1, 16/o)) wavefronts: 2, 4, 8, 16, 32 as the
 * tree is climbed while warps are full, then A when fewer than a warp's
 * worth of threads remain. Each level makes 3 accesses of that shape in the
 * up-sweep (LD ai, LD bi, ST bi) and 4 in the down-sweep; the loads and
 * stores of the section are contiguous. So
 *   conflicts = 7 sum_l warps(l) (deg(l) - 1),  worst degree = max_l deg(l).
 * The simulator counts per call site, not per level: the per-level growth is
 * asserted through this sum of per-level terms and the worst degree (the
 * top of the growth). */
static void blelloch_model(size_t n, uint64_t *conflicts, uint64_t *worst)
{
    *conflicts = 0;
    *worst = 0;
    for (size_t o = 1; o < n; o *= 2) {
        const size_t active = n / (2 * o), banks = o >= 16 ? 1 : 16 / o;
        const size_t lanes = active < 32 ? active : 32, warps = (active + 31) / 32;
        const size_t deg = (lanes + banks - 1) / banks;
        *conflicts += 7 * warps * (deg - 1);
        if (deg > *worst)
            *worst = deg;
    }
}

static uint64_t worst_site_degree(const model_stats *st)
{
    uint64_t w = 0;
    for (size_t i = 0; i < st->nsites; i++)
        if (st->sites[i].site != NULL && st->sites[i].shared_accesses > 0 && st->sites[i].worst_degree > w)
            w = st->sites[i].worst_degree;
    return w;
}

static void test_blelloch_conflicts(void **state)
{
    (void)state;
    uint64_t previous = 0;
    for (size_t k = 5; k <= 11; k++) {
        const size_t n = (size_t)1 << k;
        uint64_t conflicts, worst;
        blelloch_model(n, &conflicts, &worst);
        model_stats st, cf;
        run_i32(blelloch_sim, n, (int)n / 2, 0, true, &st);
        assert_int_equal(st.bank_conflicts, conflicts);
        assert_int_equal(worst_site_degree(&st), worst);
        assert_int_equal(st.shared_wavefronts, st.shared_accesses + conflicts);
        assert_true(k == 5 || st.bank_conflicts > previous);
        previous = st.bank_conflicts;
        /* padding removes at least 90% of them, exclusive and inclusive */
        for (int ex = 1; ex >= 0; ex--) {
            run_i32(blelloch_cf_sim, n, (int)n / 2, 0, ex, &cf);
            assert_true(10 * cf.bank_conflicts <= st.bank_conflicts);
            model_stats_free(&cf);
        }
        model_stats_free(&st);
    }
}

/* Brent-Kung by levels, one block of n/2 threads: the up-sweep makes the
 * n - 1 tree nodes; the down-sweep level of m nodes combines its m/2 - 1
 * even nodes after the first: sum (m/2 - 1) over m = 2..n = n - 1 - log2 n.
 * Work 2n - 2 - log2 n, steps log2 n + (log2 n - 1) (the level of 2 has no
 * operation). Every warp access is at stride 1 or 2 words: degree <= 2. */
static void test_brent_kung_levels(void **state)
{
    (void)state;
    for (size_t k = 5; k <= 11; k++) {
        const size_t n = (size_t)1 << k;
        model_stats st;
        run_i32(brent_kung_levels_sim, n, (int)n / 2, 0, false, &st);
        assert_int_equal(st.work, 2 * n - 2 - k);
        assert_int_equal(st.steps, 2 * k - 1);
        assert_true(worst_site_degree(&st) <= 2);
        assert_true(st.shared_wavefronts <= 2 * st.shared_accesses);
        model_stats_free(&st);
    }
}

/* Radix-k Brent-Kung on one section of S = k^M: the up-sweep scans S/k +
 * S/k^2 + ... + 1 groups with k - 1 operations each (S - 1 in all); the
 * down-sweep gives the groups after the first at strides S/k^2 .. 1 k - 1
 * operations each: (k-1)(k + ... + k^(M-1) - (M-1)) = S - k - (k-1)(M-1).
 * One thread per group: steps M(k-1) + (M-1)(k-1). k = 2 is Brent-Kung. */
static void test_brent_kung_radix(void **state)
{
    (void)state;
    const struct { size_t k, m; int block; } c[] = {{2, 10, 512}, {3, 6, 243}, {4, 5, 256}, {8, 3, 64}};
    for (size_t j = 0; j < sizeof c / sizeof c[0]; j++) {
        size_t s = 1;
        for (size_t i = 0; i < c[j].m; i++)
            s *= c[j].k;
        model_stats st;
        run_i32(brent_kung_radix_sim, s, c[j].block, (int)c[j].k, false, &st);
        assert_int_equal(st.launches, 1);
        assert_int_equal(st.work, 2 * s - 1 - c[j].k - (c[j].k - 1) * (c[j].m - 1));
        assert_int_equal(st.steps, (2 * c[j].m - 1) * (c[j].k - 1));
        model_stats_free(&st);
    }
}

/* Sengupta-Lefohn-Owens, B threads, p passes, S = B 2^p: reduce S/2 + ... +
 * S/2^p = S - B, Hillis-Steele over B nodes B log2 B - (B - 1), down-sweep
 * S - B - p. A thread does 2^(p-1)/s nodes at stride s: steps 2(2^p - 1) +
 * log2 B. */
static void test_sengupta(void **state)
{
    (void)state;
    for (unsigned p = 1; p <= 3; p++) {
        for (size_t b = 32; b <= 256; b *= 8) {
            const size_t s = b << p;
            model_stats st;
            run_i32(sengupta_sim, s, (int)b, (int)p, false, &st);
            assert_int_equal(st.launches, 1);
            assert_int_equal(st.work, 2 * (s - b) - p + b * log2z(b) - (b - 1));
            assert_int_equal(st.steps, 2 * (((size_t)1 << p) - 1) + log2z(b));
            model_stats_free(&st);
        }
    }
}

/* Coarsened, B threads (a power of two), C per thread: phase 1 B(C - 1),
 * phase 2 Kogge-Stone over B totals B log2 B - (B - 1), phase 3 (B-1)(C-1);
 * steps (C - 1) + log2 B + (C - 1). */
static void test_coarsened(void **state)
{
    (void)state;
    const struct { size_t b, c; } v[] = {{32, 1}, {32, 4}, {64, 8}, {256, 8}, {128, 3}};
    for (size_t j = 0; j < sizeof v / sizeof v[0]; j++) {
        const size_t b = v[j].b, c = v[j].c;
        model_stats st;
        run_i32(coarsened_sim, b * c, (int)b, (int)c, false, &st);
        assert_int_equal(st.launches, 1);
        assert_int_equal(st.work, b * (c - 1) + b * log2z(b) - (b - 1) + (b - 1) * (c - 1));
        assert_int_equal(st.steps, 2 * (c - 1) + log2z(b));
        /* warp-level shared loads (W = b/32 warps, k = log2 b): C in phase
         * 1 (the running value stays in a register), 2 per Kogge-Stone
         * step in the warps with a lane t >= stride (W k - W + 1 warp-steps
         * in all), C in phase 3 (the carry and C - 1 elements) and C for the
         * output; stores: C loaded in, C - 1 in phases 1 and 3 each, one
         * per warp-step of phase 2 */
        if (b >= 32) {
            const size_t w = b / 32, k = log2z(b), wsteps = w * k - w + 1;
            assert_int_equal(st.launch[0].c.shared_ld, 3 * w * c + 2 * wsteps);
            assert_int_equal(st.launch[0].c.shared_st, w * (3 * c - 2) + wsteps);
        }
        model_stats_free(&st);
    }
}

/* Warp shuffles. A warp of a lanes applies sum_{d < a, d = 2^i} (a - d)
 * operations (32 lanes: 160 - 31 = 129); warp 0 scans W warp totals with
 * all its lanes over L = ceil(log2 W) strides: 32 L - (2^L - 1); the B - 32
 * threads of warps 1.. add one total each.
 *   B = 1024: 32 * 129 + 129 + 992 = 5249, steps 5 + 5 + 1.
 *   B = 48 (warp 1 has 16 lanes: 64 - 15 = 49): 129 + 49 + 31 + 16 = 225,
 *   steps 5 + 1 + 1. */
static void test_warp_shfl(void **state)
{
    (void)state;
    model_stats st;
    run_i32(warp_shfl_sim, 1024, 1024, 0, false, &st);
    assert_int_equal(st.work, 5249);
    assert_int_equal(st.steps, 11);
    assert_int_equal(st.barriers, 2);
    assert_int_equal(st.bank_conflicts, 0);
    model_stats_free(&st);
    run_i32(warp_shfl_sim, 48, 48, 0, false, &st);
    assert_int_equal(st.work, 225);
    assert_int_equal(st.steps, 7);
    model_stats_free(&st);
}

/* Every algorithm, every (type, operator), inclusive and exclusive, on
 * sizes around the section boundaries and with small blocks (several
 * levels of sections), against a sequential scan with the same operator.
 * Float inputs are small integers, so every sum is exact and any order of
 * additions gives the same bits. */
typedef struct {
    const char *name;
    sl_scan_fn fn;
    int small_block, param;
} algo_case;

static const algo_case algos[] = {
    {"kogge-stone", kogge_stone_sim, 3, 0},       {"kogge-stone-db", kogge_stone_db_sim, 5, 0},
    {"blelloch", blelloch_sim, 2, 0},             {"blelloch-cf", blelloch_cf_sim, 4, 0},
    {"brent-kung-levels", brent_kung_levels_sim, 2, 0}, {"brent-kung-radix", brent_kung_radix_sim, 3, 3},
    {"sengupta", sengupta_sim, 4, 1},             {"coarsened", coarsened_sim, 3, 3},
    {"warp-shfl", warp_shfl_sim, 40, 0},
};

#define X(T_, tn, opn, st_, so)                                                             \
    static void ref_##tn##_##opn(const T_ *in, T_ *out, size_t n, bool ex)                  \
    {                                                                                       \
        T_ acc = sl_id_##opn##_##tn();                                                      \
        for (size_t i = 0; i < n; i++) {                                                    \
            T_ next = sl_##opn##_##tn(acc, in[i]);                                          \
            out[i] = ex ? acc : next;                                                       \
            acc = next;                                                                     \
        }                                                                                   \
    }                                                                                       \
    static void fill_##tn##_##opn(T_ *in, size_t n, uint64_t *s)                            \
    {                                                                                       \
        for (size_t i = 0; i < n; i++)                                                      \
            in[i] = (T_)((int64_t)(rnd(s) % 201) - 100);                                    \
        if (st_ <= SL_I64 && so == SL_AFFINE)                                               \
            for (size_t i = 0; i < n; i++)                                                  \
                in[i] = (T_)rnd(s);                                                         \
    }                                                                                       \
    static void check_##tn##_##opn(const algo_case *c, size_t n, int block, bool ex)        \
    {                                                                                       \
        T_ *in = malloc((n + 1) * sizeof(T_)), *got = malloc((n + 1) * sizeof(T_));         \
        T_ *want = malloc((n + 1) * sizeof(T_));                                            \
        uint64_t s = seed ^ (n * 0x9e3779b97f4a7c15u) ^ (uint64_t)block;                    \
        assert_true(in && got && want);                                                     \
        fill_##tn##_##opn(in, n, &s);                                                       \
        ref_##tn##_##opn(in, want, n, ex);                                                  \
        sl_scan_args a = {st_, so, ex, in, got, n, 0, block, c->param, NULL, 0};             \
        model_stats ms;                                                                     \
        model_stats_init(&ms);                                                              \
        ms.cfg.quiet = true;                                                                \
        a.sim = &ms;                                                                        \
        sl_status r = c->fn(&a);                                                            \
        if (r != SL_OK || memcmp(got, want, n * sizeof(T_)) != 0 || ms.races != 0)          \
            fail_msg("%s %s %s n=%zu block=%d %s: status %d races %llu", c->name, #tn,      \
                     #opn, n, block, ex ? "exclusive" : "inclusive", (int)r,                \
                     (unsigned long long)ms.races);                                         \
        model_stats_free(&ms);                                                              \
        free(in);                                                                           \
        free(got);                                                                          \
        free(want);                                                                         \
    }
SL_FOR_EACH_TYPE_OP(X)
#undef X

static void test_all_correct(void **state)
{
    (void)state;
    const size_t sizes[] = {0, 1, 2, 3, 31, 33, 100, 257, 1025, 2500};
    for (size_t c = 0; c < sizeof algos / sizeof algos[0]; c++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
            for (int ex = 0; ex <= 1; ex++)
                for (int blk = 0; blk < 2; blk++) {
                    const int block = blk ? algos[c].small_block : 0;
#define X(T_, tn, opn, st_, so) check_##tn##_##opn(&algos[c], sizes[i], block, ex);
                    SL_FOR_EACH_TYPE_OP(X)
#undef X
                }
}

/* Refused settings: blocks that are not powers of two where the tree needs
 * one, more than 1024 threads, one-element sections, radix 1 (param 1 is
 * also sections-only elsewhere), shared memory past 48 KiB. */
static void test_bad_args(void **state)
{
    (void)state;
    int32_t x[4] = {1, 2, 3, 4}, y[4];
    const struct { sl_scan_fn fn; int block, param; } bad[] = {
        {blelloch_sim, 3, 0},          {blelloch_cf_sim, 96, 0},   {brent_kung_levels_sim, 6, 0},
        {sengupta_sim, 12, 0},         {kogge_stone_sim, 2048, 0}, {kogge_stone_sim, 1, 0},
        {warp_shfl_sim, 1025, 0},      {brent_kung_radix_sim, 0, 1}, {coarsened_sim, 1024, 64},
        {sengupta_sim, 1024, 4},       {kogge_stone_db_sim, -1, 0},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        for (size_t n = 0; n <= 4; n += 4) {
            sl_scan_args a = {SL_I32, SL_ADD, false, x, y, n, 0, bad[i].block, bad[i].param, NULL, SL_ADVERSARY_NONE};
            model_stats ms;
            model_stats_init(&ms);
            ms.cfg.quiet = true;
            a.sim = &ms;
            assert_int_equal(bad[i].fn(&a), SL_ERR_ARG);
            model_stats_free(&ms);
        }
    }
}

int main(void)
{
    seed = test_seed();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kogge_stone_counts), cmocka_unit_test(test_blelloch_counts),
        cmocka_unit_test(test_blelloch_conflicts), cmocka_unit_test(test_brent_kung_levels),
        cmocka_unit_test(test_brent_kung_radix),   cmocka_unit_test(test_sengupta),
        cmocka_unit_test(test_coarsened),          cmocka_unit_test(test_warp_shfl),
        cmocka_unit_test(test_all_correct),        cmocka_unit_test(test_bad_args),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
