/* The per-launch counts (model_launch_counts, docs/metrics.md "Per
 * launch"): loads and stores apart, polls and atomics apart, divergent
 * branches and cross-block wait chains, each launch of a run recorded on
 * its own. Every number is worked out in the comments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "launch_kernels.h"
#include "model/model.h"

static void *dev(size_t bytes)
{
    void *p = NULL;
    assert_int_equal(model_dev_alloc(&p, bytes), SL_OK);
    memset(p, 0, bytes);
    return p;
}

/* lk_shared, 2 blocks of 64 threads (2 warps each), then lk_poll:
 * - shared stores sh[2t]: stride 2 words, 2 wavefronts per warp access
 *   (ideal 1): 4 accesses, 8 wavefronts, 4 conflicts;
 * - loads sh[t]: 4 accesses, 1 wavefront each; sh[0] by lanes 0-7 of each
 *   warp, a broadcast: 4 more accesses of 1 wavefront;
 * - global: each warp reads and writes 32 consecutive i32, 4 sectors each:
 *   16 load and 16 store sectors;
 * - the branch (lanes 0-7 load sh[0]) splits every warp once: 4.
 * lk_poll, 1 block of 32: thread 0's atomic (1 sector, apart from loads),
 * its volatile load (1 load sector, a poll) and store (1 sector); lanes
 * 1-31 ran in the first sweep and recorded nothing: 1 divergent branch. */
static void test_loads_stores_apart(void **state)
{
    (void)state;
    int32_t *in = dev(128 * sizeof(int32_t)), *out = dev(128 * sizeof(int32_t)), *flag = dev(sizeof(int32_t));
    uint32_t *counter = dev(sizeof(uint32_t));
    flag[0] = 7;
    model_stats s;
    model_stats_init(&s);
    model_begin(&s);
    assert_int_equal(lk_shared(sl_launch_1d(2, 64, 0), in, out), SL_OK);
    assert_int_equal(lk_poll(sl_launch_1d(1, 32, 0), counter, flag, out), SL_OK);
    assert_int_equal(model_end(SL_OK), SL_OK);
    assert_int_equal(s.nlaunch_records, 2);
    const model_launch_counts *a = &s.launch[0].c, *p = &s.launch[1].c;
    assert_int_equal(a->shared_st, 4);
    assert_int_equal(a->shared_st_wavefronts, 8);
    assert_int_equal(a->shared_st_conflicts, 4);
    assert_int_equal(a->shared_ld, 8);
    assert_int_equal(a->shared_ld_wavefronts, 8);
    assert_int_equal(a->shared_ld_conflicts, 0);
    assert_int_equal(a->global_ld_sectors, 16);
    assert_int_equal(a->global_st_sectors, 16);
    assert_int_equal(a->global_poll_sectors, 0);
    assert_int_equal(a->global_atom_sectors, 0);
    assert_int_equal(a->divergent_branches, 4);
    assert_int_equal(a->chain, 0);
    assert_int_equal(a->load_rounds, 1); /* one interval loads */
    assert_int_equal(p->shared_ld + p->shared_st, 0);
    assert_int_equal(p->load_rounds, 0); /* an atomic and a poll only */
    assert_int_equal(p->global_atom_sectors, 1);
    assert_int_equal(p->global_ld_sectors, 1);
    assert_int_equal(p->global_poll_sectors, 1);
    assert_int_equal(p->global_st_sectors, 1);
    assert_int_equal(p->divergent_branches, 1);
    /* the run's totals are the sums (atomics among the loads there) */
    assert_int_equal(s.bank_conflicts, 4);
    assert_int_equal(s.global_load_sectors, 16 + 1 + 1);
    assert_int_equal(s.divergent_branches, 5);
    assert_int_equal(out[0], 7);
    assert_int_equal(*counter, 1);
    model_stats_free(&s);
    model_dev_free(in);
    model_dev_free(out);
    model_dev_free(flag);
    model_dev_free(counter);
}

/* 6 blocks, block b waiting for b - 1: 5 waits in series, and the steps
 * along them add up (each block's own steps do not). When every block
 * publishes before it waits (early), whatever a reader saw, the first value
 * of each flag was published without waiting: a chain of 1. Both hold for
 * every dispatch order and number of slots. */
static void test_chain(void **state)
{
    (void)state;
    const model_order orders[] = {MODEL_ORDER_IN, MODEL_ORDER_REVERSED, MODEL_ORDER_RANDOM};
    for (int early = 0; early <= 1; early++)
        for (int o = 0; o < 3; o++)
            for (unsigned slots = 6; slots <= 8; slots += 2) {
                int32_t *flag = dev(6 * sizeof(int32_t));
                model_stats s;
                model_stats_init(&s);
                s.cfg.order = orders[o];
                s.cfg.slots = slots;
                s.cfg.seed = 3;
                model_begin(&s);
                assert_int_equal(model_end(lk_chain(sl_launch_1d(6, 32, 0), flag, early)), SL_OK);
                assert_int_equal(s.nlaunch_records, 1);
                assert_int_equal(s.launch[0].c.chain, early ? 1 : 5);
                /* each block's own 3 steps; waiting for its predecessor's
                 * 2, the last block's path holds all 6 blocks' steps */
                assert_int_equal(s.launch[0].c.own_steps, 3);
                if (!early)
                    assert_int_equal(s.launch[0].steps, 6 * 3);
                for (int b = 0; b < 6; b++)
                    assert_int_equal(flag[b], 2);
                model_stats_free(&s);
                model_dev_free(flag);
            }
}

/* lk_rounds, 3 blocks of 64 and 2 tiles: block b loads in 2 + b
 * intervals, the polling one not counted; the launch keeps its slowest
 * block's 4. Each launch starts again from 0: 1 tile, 2 blocks: 2. */
static void test_load_rounds(void **state)
{
    (void)state;
    int32_t *in = dev(4 * 64 * sizeof(int32_t)), *out = dev(3 * 64 * sizeof(int32_t));
    model_stats s;
    model_stats_init(&s);
    model_begin(&s);
    assert_int_equal(lk_rounds(sl_launch_1d(3, 64, 0), in, out, 2), SL_OK);
    assert_int_equal(lk_rounds(sl_launch_1d(2, 64, 0), in, out, 1), SL_OK);
    assert_int_equal(model_end(SL_OK), SL_OK);
    assert_int_equal(s.nlaunch_records, 2);
    assert_int_equal(s.launch[0].c.load_rounds, 4);
    assert_int_equal(s.launch[1].c.load_rounds, 2);
    assert_int_equal(s.launch[0].barriers, 3 * 1 + (2 + 3 + 4));
    model_stats_free(&s);
    model_dev_free(in);
    model_dev_free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_loads_stores_apart),
        cmocka_unit_test(test_chain),
        cmocka_unit_test(test_load_rounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
