/* The simulator's memory model (docs/memory-model.md): races judged by
 * happens-before over every reader, plain against strong accesses, fences
 * and release/acquire between blocks, stale values of strong loads in
 * explored schedules, undefined warp operations, misaligned accesses, the
 * cross-block critical path in the step count, and what explored schedules
 * vary. Every expectation is worked out by hand in the comment above it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kernels_memory.h"
#include "model/model.h"

static model_stats st;

static void begin(uint64_t schedule, unsigned slots)
{
    model_stats_free(&st);
    model_stats_init(&st);
    st.cfg.schedule = schedule;
    st.cfg.slots = slots;
    st.cfg.quiet = true;
    model_begin(&st);
}

static void *dev(size_t bytes)
{
    void *p = NULL;
    assert_int_equal(model_dev_alloc(&p, bytes), SL_OK);
    memset(p, 0, bytes);
    return p;
}

/* Whether a race report names the kernel line `line` as one of its sites. */
static bool race_names(int line)
{
    for (uint64_t i = 0; i < st.races && i < MODEL_MAX_REPORTS; i++)
        for (int k = 0; k < 2; k++)
            if (st.race[i].site[k] && st.race[i].site[k]->line == line)
                return true;
    return false;
}

/* Thread t + 1 reads word t + 1 and then writes it; thread t read it
 * before, in the same interval: 63 write-after-read races (t = 0..62), one
 * per word 1..63, each naming the read at tm_line_reader and the write. */
static void test_every_reader_kept(void **state)
{
    (void)state;
    int32_t *out = dev(64 * sizeof *out);
    begin(0, 0);
    assert_int_equal(model_end(tm_readers(sl_launch_1d(1, 64, 0), out)), SL_OK);
    assert_int_equal(st.races, 63);
    assert_true(race_names(tm_line_reader));
    assert_true(race_names(tm_line_writer));
    model_dev_free(out);
}

typedef struct {
    int mode;
    bool race;
} mp_case;

/* Message passing between two blocks, in every schedule order: correct
 * synchronisation (fences on both sides, or release and acquire) orders the
 * plain data; a missing fence on either side, the flag before the data, a
 * relaxed flag without fences, or block-scope fences leave the plain data
 * store and load unordered: a race naming both. Relaxed (strong) data never
 * races. */
static void test_message_passing_races(void **state)
{
    (void)state;
    const mp_case cases[] = {
        {TM_MP_FENCES, false},        {TM_MP_NO_WRITER_FENCE, true}, {TM_MP_NO_READER_FENCE, true},
        {TM_MP_FLAG_FIRST, true},     {TM_MP_RELACQ, false},         {TM_MP_RELAXED, true},
        {TM_MP_BLOCK_FENCES, true},   {TM_MP_STRONG_NO_FENCE, false}, {TM_MP_STRONG_FENCES, false},
        {TM_MP_STRONG_RELACQ, false},
    };
    int32_t *data = dev(sizeof *data), *out = dev(sizeof *out);
    uint32_t *flag = dev(sizeof *flag);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (uint64_t sched = 0; sched < 8; sched++) {
            *data = 0;
            *flag = 0;
            begin(sched, 2);
            sl_status s = model_end(tm_mp(sl_launch_1d(2, 32, 0), data, flag, out, cases[c].mode));
            assert_int_equal(s, SL_OK);
            if (cases[c].race != (st.races > 0))
                fail_msg("mode %d schedule %llu: %llu races", cases[c].mode, (unsigned long long)sched,
                         (unsigned long long)st.races);
            if (cases[c].race) {
                assert_true(race_names(tm_line_data_store));
                assert_true(race_names(tm_line_data_load));
            }
        }
    model_dev_free(data);
    model_dev_free(flag);
    model_dev_free(out);
}

/* Relaxed data and flag with no fence: no race (both strong), but the
 * reader may see the flag and still the old data (0) in some explored
 * schedules; with fences, or release and acquire, never. The default
 * schedule always sees the newest store. */
static void test_stale_values(void **state)
{
    (void)state;
    int32_t *data = dev(sizeof *data), *out = dev(sizeof *out);
    uint32_t *flag = dev(sizeof *flag);
    const int modes[] = {TM_MP_STRONG_NO_FENCE, TM_MP_STRONG_FENCES, TM_MP_STRONG_RELACQ};
    for (int m = 0; m < 3; m++) {
        unsigned stale = 0;
        for (uint64_t sched = 0; sched < 64; sched++) {
            *data = 0;
            *flag = 0;
            *out = -1;
            begin(sched, 2);
            assert_int_equal(model_end(tm_mp(sl_launch_1d(2, 32, 0), data, flag, out, modes[m])), SL_OK);
            assert_int_equal(st.races, 0);
            assert_true(*out == 0 || *out == 42);
            stale += *out == 0;
            if (sched == 0)
                assert_int_equal(*out, 42);
        }
        if (m == 0)
            assert_true(stale > 0);
        else
            assert_int_equal(stale, 0);
    }
    model_dev_free(data);
    model_dev_free(flag);
    model_dev_free(out);
}

/* Two 4-byte volatile stores against one 8-byte volatile load: the
 * accesses are strong but not the same, hence not morally strong: races on
 * both words (each reported at least once). */
static void test_partial_overlap_races(void **state)
{
    (void)state;
    uint64_t *word = dev(sizeof *word);
    int32_t *out = dev(sizeof *out);
    begin(0, 2);
    assert_int_equal(model_end(tm_halves(sl_launch_1d(2, 32, 0), word, out)), SL_OK);
    assert_true(st.races >= 1);
    assert_true(race_names(tm_line_half) || race_names(tm_line_half + 1));
    model_dev_free(word);
    model_dev_free(out);
}

typedef struct {
    int mode;
    unsigned block;
    bool undefined;
} warp_case;

/* A full-mask shuffle names lanes that do not exist in a block of 48
 * threads (warp 1 has 16), or a lane that has exited; masks that differ
 * among the lanes of one shuffle; all undefined. A partial warp whose mask
 * names its own lanes only, or a full warp, is fine. */
static void test_undefined_warp_operations(void **state)
{
    (void)state;
    const warp_case cases[] = {
        {TM_WARP_FULL, 64, false},        {TM_WARP_FULL, 48, true},
        {TM_WARP_EXITED, 64, true},       {TM_WARP_MASKS_DIFFER, 64, true},
        {TM_WARP_PARTIAL_OK, 48, false},
    };
    int32_t *out = dev(64 * sizeof *out);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        begin(0, 0);
        sl_status s = model_end(tm_warp(sl_launch_1d(1, cases[c].block, 0), out, cases[c].mode));
        if (cases[c].undefined) {
            assert_int_equal(s, SL_ERR_SIM);
            assert_int_equal(st.warp_errors, 1);
            assert_int_equal(st.error.kind, MODEL_FIND_WARP);
            assert_true(model_findings(&st, true) >= 1);
        } else {
            assert_int_equal(s, SL_OK);
            assert_int_equal(model_findings(&st, false), 0);
        }
    }
    model_dev_free(out);
}

/* A 4-byte load at an address 1 byte past an allocation's start. */
static void test_misaligned(void **state)
{
    (void)state;
    int32_t *in = dev(64 * sizeof *in), *out = dev(32 * sizeof *out);
    begin(0, 0);
    assert_int_equal(model_end(tm_misaligned(sl_launch_1d(1, 32, 0), in, out)), SL_ERR_SIM);
    assert_int_equal(st.misaligned, 1);
    assert_int_equal(st.error.kind, MODEL_FIND_MISALIGNED);
    model_dev_free(in);
    model_dev_free(out);
}

/* Block b waits for block b - 1 and then applies the operator 3 times:
 * block b finishes at step 3 (b + 1), so 8 blocks take 24 steps, however
 * the blocks are dispatched, and the work is 3 per block. */
static void test_steps_follow_the_chain(void **state)
{
    (void)state;
    uint32_t *flag = dev(8 * sizeof *flag);
    for (uint64_t sched = 0; sched < 4; sched++) {
        memset(flag, 0, 8 * sizeof *flag);
        begin(sched, 8);
        assert_int_equal(model_end(tm_chain(sl_launch_1d(8, 32, 0), flag, 3)), SL_OK);
        assert_int_equal(st.work, 24);
        assert_int_equal(st.steps, 24);
        assert_int_equal(flag[7], 25);
    }
    model_dev_free(flag);
}

/* 64 lanes store their index to one word: 63 write-write races in every
 * schedule; the default schedule runs lanes in order (thread 63 last);
 * explored schedules end with other lanes too. */
static void test_explored_lane_orders(void **state)
{
    (void)state;
    int32_t *out = dev(sizeof *out);
    bool seen[64] = {false};
    unsigned distinct = 0;
    for (uint64_t sched = 0; sched < 32; sched++) {
        begin(sched, 0);
        assert_int_equal(model_end(tm_last_writer(sl_launch_1d(1, 64, 0), out)), SL_OK);
        if (st.races != 63)
            fail_msg("schedule %llu: %llu races", (unsigned long long)sched, (unsigned long long)st.races);
        if (sched == 0)
            assert_int_equal(*out, 63);
        assert_true(*out >= 0 && *out < 64);
        if (!seen[*out]) {
            seen[*out] = true;
            distinct++;
        }
    }
    assert_true(distinct >= 4);
    model_dev_free(out);
}

/* Tickets follow the order in which blocks reach the atomic: the default
 * schedule hands ticket k to block k; explored schedules to other blocks,
 * and every ticket is handed out once. */
static void test_explored_ticket_orders(void **state)
{
    (void)state;
    uint32_t *counter = dev(sizeof *counter);
    int32_t *out = dev(16 * sizeof *out);
    unsigned reordered = 0;
    for (uint64_t sched = 0; sched < 16; sched++) {
        *counter = 0;
        begin(sched, 4);
        assert_int_equal(model_end(tm_tickets(sl_launch_1d(16, 32, 0), counter, out)), SL_OK);
        assert_int_equal(*counter, 16);
        unsigned seen = 0;
        bool in_order = true;
        for (int k = 0; k < 16; k++) {
            seen |= 1u << out[k];
            in_order &= out[k] == k;
        }
        assert_int_equal(seen, 0xffffu);
        if (sched == 0)
            assert_true(in_order);
        reordered += !in_order;
    }
    assert_true(reordered >= 10);
    model_dev_free(counter);
    model_dev_free(out);
}

/* A huge grid: 2^32 + 256 elements (16 GiB, mapped lazily), 2^24 + 1
 * blocks of 256 of which the simulator runs those around elements 0,
 * 2^32 and the last. The 32-bit unsigned index is a finding at its
 * line (it reaches 2^32 elements of 2^32 + 256); the 64-bit one copies the
 * chosen blocks' elements, including the last, and touches little memory. */
static void test_huge_grid_index_width(void **state)
{
    (void)state;
    const size_t n = ((size_t)1 << 32) + 256;
    int32_t *in = NULL, *out = NULL;
    assert_int_equal(model_dev_alloc((void **)&in, n * sizeof *in), SL_OK);
    assert_int_equal(model_dev_alloc((void **)&out, n * sizeof *out), SL_OK);
    in[n - 1] = 7;
    in[(size_t)1 << 32] = 5;
    const sl_launch cfg = sl_launch_1d((unsigned)((n + 255) / 256), 256, 0);
    for (int wide = 0; wide < 2; wide++) {
        begin(0, 0);
        st.cfg.huge_n = n;
        st.cfg.huge_at[st.cfg.nhuge_at++] = (uint64_t)1 << 32;
        sl_status s = model_end(tm_index_copy(cfg, in, out, n, wide));
        if (!wide) {
            assert_int_equal(s, SL_ERR_SIM);
            assert_int_equal(st.narrow_index, 1);
            assert_int_equal(st.error.kind, MODEL_FIND_INDEX);
            assert_int_equal(st.error.site[0]->line, tm_line_narrow);
        } else {
            assert_int_equal(s, SL_OK);
            assert_int_equal(model_findings(&st, false), 0);
            assert_int_equal(out[n - 1], 7);
            assert_int_equal(out[(size_t)1 << 32], 5);
            assert_true(st.blocks <= 9);
            assert_int_equal(st.blocks + st.skipped_blocks, cfg.grid.x);
        }
    }
    model_dev_free(in);
    model_dev_free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_reader_kept),       cmocka_unit_test(test_message_passing_races),
        cmocka_unit_test(test_stale_values),            cmocka_unit_test(test_partial_overlap_races),
        cmocka_unit_test(test_undefined_warp_operations), cmocka_unit_test(test_misaligned),
        cmocka_unit_test(test_steps_follow_the_chain),  cmocka_unit_test(test_explored_lane_orders),
        cmocka_unit_test(test_explored_ticket_orders),  cmocka_unit_test(test_huge_grid_index_width),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    model_stats_free(&st);
    return rc;
}
