/* The step-level simulator: bank conflicts, races, barrier divergence,
 * shuffles, work and steps, launch limits, bounds and deadlock, each on a
 * small kernel whose numbers are worked out by hand in the comments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "cuda/launch.h"
#include "kernels.h"
#include "model/model.h"

sl_status brent_kung_i32_add_sim(const sl_kargs *a);
sl_status brent_kung_i32_affine_sim(const sl_kargs *a);

static uint64_t seed;

static model_stats run_stats;
static void begin(void)
{
    model_stats_free(&run_stats);
    model_stats_init(&run_stats);
    model_begin(&run_stats);
}

static void *dev(size_t bytes)
{
    void *p = NULL;
    assert_int_equal(model_dev_alloc(&p, bytes), SL_OK);
    memset(p, 0, bytes);
    return p;
}

static sl_launch warp1(void) { return sl_launch_1d(1, 32, 0); }

/* Floats at stride s: lane l reads word l*s, bank (l*s) mod 32. Stride 1:
 * 32 banks once, 1 wavefront; stride 2: 16 banks twice, 2; stride 32: bank
 * 0 32 times, 32. Conflicts = wavefronts - 1. */
static void test_bank_stride(void **state)
{
    (void)state;
    const int stride[] = {1, 2, 32}, conflicts[] = {0, 1, 31};
    float *out = dev(32 * sizeof(float));
    for (int k = 0; k < 3; k++) {
        begin();
        assert_int_equal(model_end(tk_stride(warp1(), out, stride[k])), SL_OK);
        assert_int_equal(run_stats.shared_accesses, 1);
        assert_int_equal(run_stats.shared_wavefronts, conflicts[k] + 1);
        assert_int_equal(run_stats.bank_conflicts, conflicts[k]);
        /* 32 consecutive floats: 128 bytes, 4 sectors */
        assert_int_equal(run_stats.global_store_sectors, 4);
    }
    model_dev_free(out);
}

/* 8-byte elements: 64 words over 32 banks, two each: 2 wavefronts, ideal
 * 2, no conflict. 16-byte: 128 words, four per bank: 4, ideal 4. */
static void test_bank_wide(void **state)
{
    (void)state;
    float *out = dev(32 * sizeof(float));
    for (int wide = 2; wide <= 4; wide += 2) {
        begin();
        assert_int_equal(model_end(tk_wide(warp1(), out, wide)), SL_OK);
        assert_int_equal(run_stats.shared_accesses, 1);
        assert_int_equal(run_stats.shared_wavefronts, wide);
        assert_int_equal(run_stats.bank_conflicts, 0);
    }
    model_dev_free(out);
}

/* 8-byte accesses are served a half-warp at a time (16 lanes, 128 bytes),
 * each half costed on its own; the ideal Nsight Compute subtracts is, for
 * a store, one wavefront per half with an active lane, and for a load the
 * fewest its bytes fill (ceil(lanes * 8 / 128)). Held against the H100's
 * counters in docs/model-fidelity.md.
 *   0: load, doubles d and d + 16 (same banks) in each half: 2 + 2 = 4
 *      wavefronts (the whole warp, two words a bank, would need only 2),
 *      ideal 2, 2 conflicts;
 *   1: load by the 16 even lanes, stride 16 bytes: 1 + 1 = 2, ideal 1, 1;
 *   2: the same as a store: 2, ideal 2 (two halves), 0;
 *   3: one double read by every lane: 1 (broadcast), 0;
 *   4: store by lanes 0 and 16 to doubles 0 and 16 (same banks): 1 + 1,
 *      ideal 2, 0. */
static void test_bank_half_warps(void **state)
{
    (void)state;
    const unsigned wf[] = {4, 2, 2, 1, 2}, conflicts[] = {2, 1, 0, 0, 0};
    float *out = dev(32 * sizeof(float));
    for (int mode = 0; mode < 5; mode++) {
        begin();
        assert_int_equal(model_end(tk_wide_halves(warp1(), out, mode)), SL_OK);
        assert_int_equal(run_stats.shared_accesses, 1);
        if (run_stats.shared_wavefronts != wf[mode] || run_stats.bank_conflicts != conflicts[mode])
            fail_msg("mode %d: %llu wavefronts, %llu conflicts; expected %u and %u", mode,
                     (unsigned long long)run_stats.shared_wavefronts, (unsigned long long)run_stats.bank_conflicts,
                     wf[mode], conflicts[mode]);
    }
    model_dev_free(out);
}

/* Loads whose words the banks serve in one wavefront but whose data takes
 * more to return (a wavefront returns 4 bytes to each of 32 lanes; lanes
 * reading in pairs share), as the H100 counts an LDS.128 read by the whole
 * warp at one address (lookback-det's tile prefix) and an LDS.64 read so.
 *   0: one 16-byte word, every lane: 512 bytes back, in pairs: 2, ideal 2;
 *   1: lanes 0-15 one 16-byte word, 16-31 another: 2, ideal 2;
 *   2: one lane, 16 bytes: 1;
 *   3: doubles, lanes 2k and 2k + 1 one each (16 words, 128 bytes): 1. */
static void test_bank_wide_return(void **state)
{
    (void)state;
    const unsigned wf[] = {2, 2, 1, 1};
    float *out = dev(32 * sizeof(float));
    for (int mode = 0; mode < 4; mode++) {
        begin();
        assert_int_equal(model_end(tk_wide_return(warp1(), out, mode)), SL_OK);
        assert_int_equal(run_stats.shared_accesses, 1);
        if (run_stats.shared_wavefronts != wf[mode] || run_stats.bank_conflicts != 0)
            fail_msg("mode %d: %llu wavefronts, %llu conflicts; expected %u and 0", mode,
                     (unsigned long long)run_stats.shared_wavefronts, (unsigned long long)run_stats.bank_conflicts,
                     wf[mode]);
    }
    model_dev_free(out);
}

/* One word read by all lanes: broadcast, one wavefront. */
static void test_bank_broadcast(void **state)
{
    (void)state;
    float *out = dev(32 * sizeof(float));
    begin();
    assert_int_equal(model_end(tk_broadcast(warp1(), out)), SL_OK);
    assert_int_equal(run_stats.shared_wavefronts, 1);
    assert_int_equal(run_stats.bank_conflicts, 0);
    model_dev_free(out);
}

static void expect_race(int reader, int sync, bool race)
{
    int32_t *out = dev(sizeof(int32_t));
    begin();
    assert_int_equal(model_end(tk_race(sl_launch_1d(1, 64, 0), out, reader, sync)), SL_OK);
    if (!race) {
        assert_int_equal(run_stats.races, 0);
    } else {
        assert_int_equal(run_stats.races, 1);
        const model_finding *f = &run_stats.race[0];
        assert_non_null(f->site[0]);
        assert_non_null(f->site[1]);
        assert_int_equal(f->site[0]->line, tk_race_read_line);
        assert_int_equal(f->site[1]->line, tk_race_write_line);
        assert_int_equal(f->thread[0], reader);
        assert_int_equal(f->thread[1], 0);
    }
    model_dev_free(out);
}

/* A race names the word by its array and element, not a host address:
 * SHARED's name, the host's pointer (cast and '&' dropped), and elements
 * counted from the pointer a name was given at. */
static void test_race_names_array_and_element(void **state)
{
    (void)state;
    void *p = NULL;
    assert_int_equal(model_dev_alloc_named(&p, 64 * sizeof(int32_t), "(void **)&d_out"), SL_OK);
    int32_t *out = p;
    static const struct {
        int k, global;
        const char *names;
    } cases[] = {{37, 0, "race on shared s[37] in barrier interval"},
                 {5, 1, "race on global d_out[5] in barrier interval"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        begin();
        assert_int_equal(model_end(tk_race_at(warp1(), out, cases[i].k, cases[i].global)), SL_OK);
        assert_true(run_stats.races >= 1);
        if (!strstr(run_stats.race[0].text, cases[i].names) || strstr(run_stats.race[0].text, "0x"))
            fail_msg("finding '%s', expected '%s'", run_stats.race[0].text, cases[i].names);
    }
    /* a PTX kernel's pointer parameter into the middle of the array */
    model_dev_name(out + 8, "param_1");
    begin();
    assert_int_equal(model_end(tk_race_at(warp1(), out, 12, 1)), SL_OK);
    if (!strstr(run_stats.race[0].text, "race on global param_1[4] "))
        fail_msg("finding '%s'", run_stats.race[0].text);
    model_dev_free(out);
}

/* Lane orders that are not increasing. Mode 0: words 62, 60, ..., 0 are
 * in banks 30, 28, ..., 0 and again (words 32 apart): 2 per bank, 2
 * wavefronts. Mode 1: words 0, 2, ..., 30 twice: each read by two lanes
 * (broadcast), one per bank, 1 wavefront. Mode 2: words 0, 32, ..., 480
 * twice: 16 distinct words in bank 0, 16 wavefronts. The store covers
 * out[0..31] backwards: 128 bytes, 4 sectors. */
static void test_bank_scrambled(void **state)
{
    (void)state;
    const unsigned wf[] = {2, 1, 16};
    float *out = dev(32 * sizeof(float));
    for (int mode = 0; mode < 3; mode++) {
        begin();
        assert_int_equal(model_end(tk_pattern(warp1(), out, mode)), SL_OK);
        assert_int_equal(run_stats.shared_accesses, 1);
        assert_int_equal(run_stats.shared_wavefronts, wf[mode]);
        assert_int_equal(run_stats.bank_conflicts, wf[mode] - 1);
        assert_int_equal(run_stats.global_store_sectors, 4);
        assert_int_equal(run_stats.global_store_elems, 32);
    }
    model_dev_free(out);
}

/* Shadow entries left by an earlier launch, also in memory freed and
 * allocated again, order before every later access. Two blocks of 32
 * write buf[0..63]; then one block of 32 reads buf[32..63], written by
 * threads of another block with no release between them: a race if the
 * writes were of the same launch, none across launches. */
static void test_race_stale_shadow(void **state)
{
    (void)state;
    int32_t *buf = dev(64 * sizeof(int32_t)), *out = dev(64 * sizeof(int32_t));
    for (int realloc_buf = 0; realloc_buf < 2; realloc_buf++) {
        begin();
        assert_int_equal(model_end(tk_copy(sl_launch_1d(2, 32, 0), out, buf)), SL_OK);
        assert_int_equal(run_stats.races, 0);
        if (realloc_buf) {
            model_dev_free(buf);
            buf = dev(64 * sizeof(int32_t));
        }
        begin();
        assert_int_equal(model_end(tk_oob(warp1(), buf, out, 32)), SL_OK);
        assert_int_equal(run_stats.races, 0);
    }
    model_dev_free(buf);
    model_dev_free(out);
}

/* Thread 40 (warp 1) reads what thread 0 wrote, no barrier: a race. */
static void test_race_shared(void **state)
{
    (void)state;
    expect_race(40, 0, true);
}

/* Lane 1 reads what lane 0 wrote: a race without __syncwarp (independent
 * thread scheduling), none with it. */
static void test_race_intra_warp(void **state)
{
    (void)state;
    expect_race(1, 0, true);
    expect_race(1, 1, false);
}

/* Half the block at one barrier, half at another: reported with both
 * sites, the launch stops. */
static void test_barrier_divergence(void **state)
{
    (void)state;
    int32_t *out = dev(32 * sizeof(int32_t));
    begin();
    assert_int_equal(model_end(tk_barrier_div(warp1(), out)), SL_ERR_SIM);
    assert_true(run_stats.has_error);
    assert_int_equal(run_stats.error.kind, MODEL_FIND_BARRIER_DIVERGENCE);
    assert_int_equal(run_stats.barrier_divergence, 1);
    int a = run_stats.error.site[0]->line, b = run_stats.error.site[1]->line;
    assert_true((a == tk_bar_a_line && b == tk_bar_b_line) || (a == tk_bar_b_line && b == tk_bar_a_line));
    model_dev_free(out);
}

/* Kogge-Stone over a warp with shuffles: lane l ends with 1 + ... + (l+1). */
static void test_shuffle_scan(void **state)
{
    (void)state;
    int32_t *out = dev(32 * sizeof(int32_t));
    begin();
    assert_int_equal(model_end(tk_shfl_scan(warp1(), out)), SL_OK);
    for (int l = 0; l < 32; l++)
        assert_int_equal(out[l], (l + 1) * (l + 2) / 2);
    /* 5 shuffle rounds, all 32 lanes: 5 warp issues, none divergent */
    assert_int_equal(run_stats.races, 0);
    model_dev_free(out);
}

/* 8 threads: thread t applies OP t times, then once after the barrier.
 * work = (0 + ... + 7) + 8 = 36; steps = max_t t + 1 = 8; one barrier. */
static void test_work_steps(void **state)
{
    (void)state;
    int32_t *out = dev(8 * sizeof(int32_t));
    begin();
    assert_int_equal(model_end(tk_work(sl_launch_1d(1, 8, 0), out)), SL_OK);
    assert_int_equal(run_stats.work, 36);
    assert_int_equal(run_stats.steps, 8);
    assert_int_equal(run_stats.barriers, 1);
    for (int t = 0; t < 8; t++)
        assert_int_equal(out[t], t + 1);
    model_dev_free(out);
}

/* One block of n/2 threads on n = 2^k elements: work 2n - 2 - k, steps
 * 2k - 1 (the textbook numbers), and the scan is right, for add and for
 * the non-commutative affine operator. */
static void test_brent_kung_one_block(void **state)
{
    (void)state;
    for (int k = 5; k <= 11; k++) {
        size_t n = (size_t)1 << k;
        int32_t *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
        assert_non_null(in);
        assert_non_null(out);
        uint64_t x = seed + (uint64_t)k;
        for (size_t i = 0; i < n; i++) {
            x = x * 6364136223846793005u + 1442695040888963407u;
            in[i] = (int32_t)(x >> 33);
        }
        sl_kargs a = {in, out, n, false, (int)(n / 2), 0, SL_ADVERSARY_NONE};
        begin();
        assert_int_equal(model_end(brent_kung_i32_add_sim(&a)), SL_OK);
        assert_int_equal(run_stats.launches, 1);
        assert_int_equal(run_stats.work, 2 * n - 2 - (size_t)k);
        assert_int_equal(run_stats.steps, 2 * (size_t)k - 1);
        assert_int_equal(run_stats.races, 0);
        uint32_t acc = 0;
        for (size_t i = 0; i < n; i++) {
            acc += (uint32_t)in[i];
            assert_int_equal(out[i], (int32_t)acc);
        }
        /* affine: composition in order, "earlier then later" */
        begin();
        assert_int_equal(model_end(brent_kung_i32_affine_sim(&a)), SL_OK);
        uint32_t fa = 1, fb = 0;
        for (size_t i = 0; i < n; i++) {
            uint32_t ga = (uint32_t)in[i] >> 16, gb = (uint32_t)in[i] & 0xffffu;
            uint32_t na = (ga * fa) & 0xffffu, nb = (ga * fb + gb) & 0xffffu;
            fa = na;
            fb = nb;
            assert_int_equal((uint32_t)out[i], (fa << 16) | fb);
        }
        free(in);
        free(out);
    }
}

/* Thread t reads in[t + 1] of a 32-element allocation: thread 31 reads
 * index 32, reported with site, thread and index; the launch fails. */
static void test_out_of_bounds(void **state)
{
    (void)state;
    int32_t *in = dev(32 * sizeof(int32_t)), *out = dev(32 * sizeof(int32_t));
    begin();
    run_stats.cfg.quiet = true;
    assert_int_equal(model_end(tk_oob(warp1(), in, out, 1)), SL_ERR_SIM);
    assert_true(run_stats.has_error);
    assert_int_equal(run_stats.error.kind, MODEL_FIND_OOB);
    assert_int_equal(run_stats.error.site[0]->line, tk_oob_line);
    assert_int_equal(run_stats.error.thread[0], 31);
    assert_int_equal(run_stats.error.index, 32);
    assert_non_null(strstr(run_stats.error.text, "index 32"));
    /* in bounds: fine, and the simulator is usable after the failure */
    begin();
    assert_int_equal(model_end(tk_oob(warp1(), in, out, 0)), SL_OK);
    model_dev_free(in);
    model_dev_free(out);
}

/* 1025 threads per block is over the limit: refused before running. */
static void test_launch_limit(void **state)
{
    (void)state;
    int32_t *out = dev(2048 * sizeof(int32_t));
    begin();
    assert_int_equal(model_end(tk_work(sl_launch_1d(1, 1025, 0), out)), SL_ERR_ARG);
    assert_int_equal(run_stats.launches, 0);
    assert_int_equal(run_stats.error.kind, MODEL_FIND_LIMIT);
    begin();
    sl_launch c = sl_launch_1d(1, 32, MODEL_DEFAULT_SHARED_LIMIT + 1);
    assert_int_equal(model_end(tk_work(c, out)), SL_ERR_ARG);
    model_dev_free(out);
}

/* 6 chained blocks, 2 slots. In order, block b's predecessor was
 * dispatched earlier: it always finishes. Reversed, blocks 5 and 4 take
 * both slots and wait for blocks that can never be dispatched. */
static void test_deadlock(void **state)
{
    (void)state;
    int32_t *flag = dev(6 * sizeof(int32_t));
    begin();
    run_stats.cfg.slots = 2;
    assert_int_equal(model_end(tk_chain(sl_launch_1d(6, 32, 0), flag)), SL_OK);
    for (int b = 0; b < 6; b++)
        assert_int_equal(flag[b], 1);
    assert_int_equal(run_stats.races, 0);
    memset(flag, 0, 6 * sizeof(int32_t));
    begin();
    run_stats.cfg.slots = 2;
    run_stats.cfg.order = MODEL_ORDER_REVERSED;
    assert_int_equal(model_end(tk_chain(sl_launch_1d(6, 32, 0), flag)), SL_ERR_SIM);
    assert_int_equal(run_stats.error.kind, MODEL_FIND_DEADLOCK);
    assert_int_equal(run_stats.deadlocks, 1);
    assert_non_null(strstr(run_stats.error.text, "dispatch order 5,4,3,2,1,0"));
    /* with as many slots as blocks, reversed order completes too */
    memset(flag, 0, 6 * sizeof(int32_t));
    begin();
    run_stats.cfg.slots = 6;
    run_stats.cfg.order = MODEL_ORDER_REVERSED;
    assert_int_equal(model_end(tk_chain(sl_launch_1d(6, 32, 0), flag)), SL_OK);
    model_dev_free(flag);
}

int main(void)
{
    const char *env = getenv("SCANLAB_SEED");
    seed = env ? strtoull(env, NULL, 0) : (uint64_t)time(NULL);
    printf("# SCANLAB_SEED=%llu\n", (unsigned long long)seed);
    model_stats_init(&run_stats);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bank_stride),       cmocka_unit_test(test_bank_wide),
        cmocka_unit_test(test_bank_broadcast),    cmocka_unit_test(test_bank_half_warps),
        cmocka_unit_test(test_bank_wide_return),
        cmocka_unit_test(test_race_names_array_and_element),
        cmocka_unit_test(test_race_shared),
        cmocka_unit_test(test_race_intra_warp),   cmocka_unit_test(test_barrier_divergence),
        cmocka_unit_test(test_shuffle_scan),      cmocka_unit_test(test_work_steps),
        cmocka_unit_test(test_brent_kung_one_block), cmocka_unit_test(test_out_of_bounds),
        cmocka_unit_test(test_launch_limit),      cmocka_unit_test(test_deadlock),
        cmocka_unit_test(test_bank_scrambled),    cmocka_unit_test(test_race_stale_shadow),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    model_stats_free(&run_stats);
    return rc;
}
