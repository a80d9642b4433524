/* The time model (model/timemodel.h) on launches priced by hand, and the
 * "key = value" file of its constants. */
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "model/timemodel.h"

/* A made-up GPU with round numbers (not a measurement). */
static const model_device gpu = {
    .name = "test", .gpu = "test GPU", .measured = "by hand", .sms = 4, .threads_per_sm = 2048,
    .blocks_per_sm = 32, .copy_bytes_per_ns = 100, .dram_rtt_ns = 500, .l2_rtt_ns = 200,
    .chain_link_ns = 1000, .smem_wavefronts_per_ns = 2, .smem_rtt_ns = 10, .launch_ns = 2000,
    .barrier_ns = 20, .barrier_ns_per_warp = 1,
};

/* 1000 sectors loaded in one load round, 500 stored, 400 wavefronts */
static model_launch_stats launch(unsigned blocks, unsigned threads, uint64_t steps, uint64_t barriers)
{
    model_launch_stats l;
    memset(&l, 0, sizeof l);
    l.name = "k";
    l.blocks = blocks;
    l.threads_per_block = threads;
    l.steps = steps;
    l.barriers = barriers;
    l.c.global_ld_sectors = 1000;
    l.c.global_st_sectors = 500;
    l.c.shared_ld_wavefronts = 300;
    l.c.shared_st_wavefronts = 100;
    l.c.load_rounds = 1;
    l.c.own_steps = steps; /* no waits for other blocks */
    return l;
}

/* The same launch without global traffic (and so no load round). */
static model_launch_stats launch_on_chip(unsigned blocks, unsigned threads, uint64_t steps, uint64_t barriers,
                                         uint64_t wavefronts)
{
    model_launch_stats l = launch(blocks, threads, steps, barriers);
    l.c.global_ld_sectors = l.c.global_st_sectors = 0;
    l.c.load_rounds = 0;
    l.c.shared_ld_wavefronts = wavefronts * 3 / 4;
    l.c.shared_st_wavefronts = wavefronts - l.c.shared_ld_wavefronts;
    return l;
}

static bool near(double a, double b) { return a - b < 1e-6 && b - a < 1e-6; }

/* l's predicted time on the test GPU, asserted to be `total` ns and bound
 * by `bound`; the caller checks the terms. */
static model_time predict(const model_launch_stats *l, const char *bound, double total)
{
    model_time t = model_time_predict(&gpu, l);
    assert_string_equal(t.bound, bound);
    assert_true(near(t.total, total));
    return t;
}

/* Resident blocks per SM: threads, the block limit and shared memory
 * (228 KiB per SM, 1 KiB reserved per block). */
static void test_blocks_per_sm(void **state)
{
    (void)state;
    assert_int_equal(model_time_blocks_per_sm(&gpu, 256, 0), 8);    /* 2048 / 256 */
    assert_int_equal(model_time_blocks_per_sm(&gpu, 32, 0), 32);    /* the block limit */
    assert_int_equal(model_time_blocks_per_sm(&gpu, 48, 0), 32);    /* 2 warps: 2048 / 64 */
    assert_int_equal(model_time_blocks_per_sm(&gpu, 1024, 0), 2);
    assert_int_equal(model_time_blocks_per_sm(&gpu, 64, 56 * 1024), 4); /* 233472 / 58368 */
}

/* 8 blocks of 256 (8 warps) on 4 SMs: 2 on each, one wave. Each block
 * loads 1000 * 32 / 8 = 4000 bytes in its one load round, all 8 at once:
 * 32000 bytes over a loaded round trip of 2 * 500 ns, 32 bytes/ns, below
 * the copy's 100: memory 32 * 1500 / 32 = 1500 (streaming: 480); shared
 * 400 / (2 * 4) = 50; 2 intervals a block, a lone block's 20 + 8 = 28 ns
 * (the SM's 16 warps: 16 ns, less): barrier 2 * 28 = 56; latency 1000 +
 * 110 * 10 + 2 * 28 = 2156, the largest: total 2000 + 2156. */
static void test_latency_bound(void **state)
{
    (void)state;
    model_launch_stats l = launch(8, 256, 110, 16);
    model_time t = predict(&l, "latency", 4156);
    assert_true(near(t.memory, 1500) && near(t.shared, 50) && near(t.barrier, 56) && near(t.latency, 2156));
    assert_true(t.chain == 0);
}

/* The same with 10 steps: latency 1156, below what the blocks keep in
 * flight allows (1500): memory-bound, 2000 + 1500. */
static void test_memory_in_flight(void **state)
{
    (void)state;
    model_launch_stats l = launch(8, 256, 10, 16);
    model_time t = predict(&l, "memory", 3500);
    assert_true(near(t.memory, 1500) && near(t.latency, 1156));
}

/* 2 blocks, each loading 10000 sectors: 2 of 4 SMs, half the copy's
 * bandwidth, 50 bytes/ns; in flight 2 * 320000 bytes / 1000 ns = 640,
 * more: memory 32 * 10500 / 50 = 6720 at streaming speed. One block on an
 * SM hides nothing: work = 6720 + shared 400 / (2 * 2) + barrier 2 * 28
 * = 6876, over latency 1156: 2000 + 6876. */
static void test_memory_bound_few_sms(void **state)
{
    (void)state;
    model_launch_stats l = launch(2, 256, 10, 4);
    l.c.global_ld_sectors = 10000;
    model_time t = predict(&l, "memory", 8876);
    assert_true(near(t.memory, 6720) && near(t.shared, 100) && near(t.barrier, 56) && near(t.latency, 1156));
}

/* 100 blocks of 1024 (32 warps) and no global traffic: 2 per SM, 8 at
 * once, 13 waves, and 13 rounds of 2 on each SM. One interval a block:
 * a lone block's 20 + 32 = 52 ns, the SM's 64 warps 64 ns: barrier 13 *
 * 64 = 832. 40000 wavefronts: shared 40000 / 8 = 5000. Latency 13 * (4 *
 * 10 + 52) = 1196, no load round. Shared-bound: 2000 + 5832. */
static void test_waves_and_shared(void **state)
{
    (void)state;
    model_launch_stats l = launch_on_chip(100, 1024, 4, 100, 40000);
    model_time t = predict(&l, "shared", 7832);
    assert_true(near(t.latency, 1196) && near(t.shared, 5000) && near(t.barrier, 832) && t.memory == 0);
}

/* 8 blocks of 1024, 200 intervals each and nothing else: 2 per SM, one
 * round; every interval the SM's 64 warps' 64 ns: barrier 12800, over
 * one block's own path of 200 * 52 = 10400. */
static void test_barrier_bound(void **state)
{
    (void)state;
    model_launch_stats l = launch_on_chip(8, 1024, 0, 1600, 0);
    model_time t = predict(&l, "barrier", 14800);
    assert_true(near(t.barrier, 12800) && near(t.latency, 10400));
}

/* A tile loop: 4 blocks of 128, one per SM, each loading its 32000 bytes
 * in 10 rounds of 3200. In flight 4 * 3200 / 1000 ns = 12.8 bytes/ns:
 * memory 128000 / 12.8 = 10000; latency 10 * 1000 + 10 * (20 + 4) =
 * 10240, the bound. The same loads in one round: in flight 128 bytes/ns,
 * more than the copy: memory 1280 at streaming speed, latency 1000 + 240,
 * work 1280 + barrier 240: 2000 + 1520. */
static void test_load_rounds(void **state)
{
    (void)state;
    model_launch_stats l = launch(4, 128, 0, 40);
    l.c.global_ld_sectors = 4000;
    l.c.global_st_sectors = 0;
    l.c.shared_ld_wavefronts = l.c.shared_st_wavefronts = 0;
    l.c.load_rounds = 10;
    model_time t = predict(&l, "latency", 12240);
    assert_true(near(t.memory, 10000) && near(t.latency, 10240) && near(t.barrier, 240));
    l.c.load_rounds = 1;
    t = predict(&l, "memory", 3520);
    assert_true(near(t.memory, 1280) && near(t.latency, 1240));
}

/* A chain of 63 waits (64 tiles): 63 * 1000 ns, then the last block's own
 * path; its 128 steps are the chain's, 2 per block of its own. 64 blocks of
 * 128, 16 on each SM, all resident, 500 bytes each in flight: 32 bytes/ns,
 * memory 1500; own path 1000 + 2 * 10 + 3 * 24 = 1092 (one wave: the
 * latency too); total 2000 + 63000 + 1092. */
static void test_chain(void **state)
{
    (void)state;
    model_launch_stats l = launch(64, 128, 128, 192);
    l.c.chain = 63;
    l.c.own_steps = 2;
    model_time t = predict(&l, "chain", 66092);
    assert_true(t.chain == 63000 && near(t.latency, 1092) && near(t.memory, 1500));
}

/* A chain of 3 links beside a launch that streams 20000 sectors loaded in
 * one round and 500 stored (656000 bytes at 100 bytes/ns: 6560; in flight
 * 640 bytes/ns, more than the copy's): 3000 + 1092 is hidden under the
 * work, 6560 + (shared 50 + barrier 3 intervals * 64) / 16 = 6575.125. */
static void test_short_chain(void **state)
{
    (void)state;
    model_launch_stats l = launch(64, 128, 128, 192);
    l.c.global_ld_sectors = 20000;
    l.c.chain = 3;
    l.c.own_steps = 2;
    model_time t = predict(&l, "memory", 8575.125);
    assert_true(t.chain == 3000 && near(t.latency, 1092) && near(t.memory, 6560) && near(t.barrier, 192));
}

static const char good[] = "# a comment\n"
                           "name = h100\n"
                           "gpu = NVIDIA H100 80GB HBM3\n"
                           "measured = 2026-11-22, tools/gpu-check.sh fidelity\n"
                           "sms = 132\nthreads_per_sm = 2048\nblocks_per_sm = 32\n"
                           "copy_bytes_per_ns = 3000.5   # trailing comment\n"
                           "dram_rtt_ns = 600\nl2_rtt_ns = 250\nchain_link_ns = 900\n"
                           "smem_wavefronts_per_ns = 1.98\nsmem_rtt_ns = 15\nlaunch_ns = 2100\n"
                           "barrier_ns = 30.5\nbarrier_ns_per_warp = 1.2\n";

static void test_parse(void **state)
{
    (void)state;
    char buf[sizeof good + 64];
    model_device d;
    memcpy(buf, good, sizeof good);
    assert_int_equal(model_device_parse(buf, &d), 0);
    assert_string_equal(d.name, "h100");
    assert_string_equal(d.gpu, "NVIDIA H100 80GB HBM3");
    assert_string_equal(d.measured, "2026-11-22, tools/gpu-check.sh fidelity");
    assert_int_equal(d.sms, 132);
    assert_true(d.copy_bytes_per_ns == 3000.5 && d.smem_wavefronts_per_ns == 1.98 && d.launch_ns == 2100);
    assert_true(d.barrier_ns == 30.5 && d.barrier_ns_per_warp == 1.2);
    /* a key missing */
    memcpy(buf, good, sizeof good);
    *strstr(buf, "launch_ns") = '#';
    assert_int_equal(model_device_parse(buf, &d), -1);
    /* a value not positive */
    memcpy(buf, good, sizeof good);
    memcpy(strstr(buf, "= 600"), "= -60", 5);
    assert_int_equal(model_device_parse(buf, &d), -1);
    /* an unknown key, a line without '=', a value that is not a number:
     * the line's number */
    snprintf(buf, sizeof buf, "name = x\nspeed = 3\n");
    assert_int_equal(model_device_parse(buf, &d), 2);
    snprintf(buf, sizeof buf, "\n\nname x\n");
    assert_int_equal(model_device_parse(buf, &d), 3);
    snprintf(buf, sizeof buf, "sms = 13x2\n");
    assert_int_equal(model_device_parse(buf, &d), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_blocks_per_sm),        cmocka_unit_test(test_latency_bound), cmocka_unit_test(test_memory_in_flight),
        cmocka_unit_test(test_memory_bound_few_sms), cmocka_unit_test(test_waves_and_shared),
        cmocka_unit_test(test_barrier_bound),        cmocka_unit_test(test_load_rounds),
        cmocka_unit_test(test_chain),                cmocka_unit_test(test_short_chain),
        cmocka_unit_test(test_parse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
