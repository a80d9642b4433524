/* Adversarial dispatch, emulated by the single-pass scans themselves
 * (cuda/device/single_pass.cuh), on the simulator and on the GPU:
 *
 *   reversed: chained-static takes its tiles in the reverse of blockIdx, so
 *     block b waits for block b + 1; with more blocks than can be resident
 *     the first resident blocks wait for one that never starts. The
 *     simulator reports the deadlock (residency slots < blocks); on the GPU
 *     every wait is bounded and the scan ends with SL_ERR_TIMEOUT, never a
 *     hang;
 *   late: the first half of the blocks of a ticketed scan (chained-ticket,
 *     lookback, lookback-det) start late; tickets go to the blocks that run,
 *     so every one completes with the right result.
 *
 * An ordinary chained-static launch with far more blocks than the GPU holds
 * at once completes too (blocks are dispatched in order in practice). The
 * GPU part is skipped without a GPU; the whole test is bounded by alarm(). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include "tap.h"

#include "config.h"
#include "cpu/cpu.h"
#include "cuda/kernels.h"
#include "model/model.h"
#include "verify/harness/algos.h"

/* Tiles of 32 threads x 1 item in the simulator: 12 tiles, 4 slots. */
#define SIM_TILES 12
#define SIM_BLOCK 32
/* On the GPU: 4096 tiles of the default geometry, far more blocks than
 * an H100 holds at once. */
#define GPU_N ((size_t)4096 * 384 * 24)
#define TEST_SECONDS 240

static sl_status run(const char *name, sl_backend be, size_t n, int block, int param, int adversary,
                     model_stats *st, int32_t **out_ret)
{
    const verify_algo *al = verify_find_algo(name, false);
    assert_non_null(al);
    int32_t *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out), *ref = malloc(n * sizeof *ref);
    assert_true(in && out && ref);
    for (size_t i = 0; i < n; i++)
        in[i] = (int32_t)(i % 13) - 6;
    sl_scan_args a = {SL_I32, SL_ADD, false, in, out, n, 0, block, param, st, adversary};
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    sl_status s = al->run[be](&a);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (be == SL_CUDA)
        printf("# %s on cuda, n = %zu, adversary %d: %s in %.3f s\n", name, n, adversary, sl_status_str(s),
               (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
    if (s == SL_OK) {
        assert_int_equal(cpu_scan_seq(SL_I32, SL_ADD, false, in, ref, n), SL_OK);
        if (memcmp(out, ref, n * sizeof *out) != 0)
            fail_msg("%s on %s with adversary %d: wrong result", name, verify_backend_name(be), adversary);
    }
    free(in);
    free(ref);
    if (out_ret)
        *out_ret = out;
    else
        free(out);
    return s;
}

static void test_reversed_deadlocks_in_the_simulator(void **state)
{
    (void)state;
    model_stats st;
    model_stats_init(&st);
    st.cfg.slots = 4;
    st.cfg.quiet = true;
    sl_status s = run("chained-static", SL_SIM, SIM_TILES * SIM_BLOCK, SIM_BLOCK, 1, SL_ADVERSARY_REVERSED, &st, NULL);
    assert_int_equal(s, SL_ERR_SIM);
    assert_int_equal(st.deadlocks, 1);
    assert_int_equal(st.error.kind, MODEL_FIND_DEADLOCK);
    model_stats_free(&st);
    /* with a slot for every block, reversed tiles are only slower */
    model_stats_init(&st);
    st.cfg.slots = SIM_TILES;
    st.cfg.quiet = true;
    assert_int_equal(run("chained-static", SL_SIM, SIM_TILES * SIM_BLOCK, SIM_BLOCK, 1, SL_ADVERSARY_REVERSED, &st, NULL),
                     SL_OK);
    model_stats_free(&st);
}

static void test_late_blocks_complete_in_the_simulator(void **state)
{
    (void)state;
    const char *ticketed[] = {"chained-ticket", "lookback", "lookback-det"};
    for (int k = 0; k < 3; k++) {
        model_stats st;
        model_stats_init(&st);
        st.cfg.slots = 4;
        st.cfg.quiet = true;
        sl_status s = run(ticketed[k], SL_SIM, SIM_TILES * SIM_BLOCK, SIM_BLOCK, 1, SL_ADVERSARY_LATE, &st, NULL);
        if (s != SL_OK)
            fail_msg("%s with late blocks: %s: %s", ticketed[k], sl_status_str(s), st.has_error ? st.error.text : "");
        assert_int_equal(model_findings(&st, false), 0);
        model_stats_free(&st);
    }
}

static void test_on_the_gpu(void **state)
{
    (void)state;
#if SCANLAB_HAVE_CUDA
    if (sl_cuda_ready() != SL_OK)
        skip();
    /* an ordinary launch of far more blocks than can be resident */
    assert_int_equal(run("chained-static", SL_CUDA, GPU_N, 0, 0, SL_ADVERSARY_NONE, NULL, NULL), SL_OK);
    /* the emulated out-of-order dispatch: the bounded waits give up */
    assert_int_equal(run("chained-static", SL_CUDA, GPU_N, 0, 0, SL_ADVERSARY_REVERSED, NULL, NULL), SL_ERR_TIMEOUT);
    const char *ticketed[] = {"chained-ticket", "lookback", "lookback-det"};
    for (int k = 0; k < 3; k++) {
        sl_status s = run(ticketed[k], SL_CUDA, GPU_N, 0, 0, SL_ADVERSARY_LATE, NULL, NULL);
        if (s != SL_OK)
            fail_msg("%s with late blocks on the GPU: %s", ticketed[k], sl_status_str(s));
    }
    printf("# on the GPU: chained-static completes ordinarily and times out reversed; "
           "chained-ticket, lookback and lookback-det complete with late blocks\n");
#else
    skip();
#endif
}

int main(void)
{
    alarm(TEST_SECONDS); /* a hang fails the test instead of stalling CI */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reversed_deadlocks_in_the_simulator),
        cmocka_unit_test(test_late_blocks_complete_in_the_simulator),
        cmocka_unit_test(test_on_the_gpu),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
