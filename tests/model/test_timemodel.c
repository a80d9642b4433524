/* The time model (model/timemodel.h) on launches priced by hand, and the
 * "key = value" file of its constants. */
#include <setjmp.h>
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
};

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
    return l;
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

/* 8 blocks of 256 on 4 SMs: 8 per SM fit, one wave, every SM busy. Each
 * block loads 1000 * 32 / 8 = 4000 bytes, all 8 at once: 32000 bytes in
 * flight over a loaded round trip of 2 * 500 ns, 32 bytes/ns, below the
 * copy's 100: memory 32 * 1500 / 32 = 1500; shared 400 / (2 * 4) = 50;
 * latency 500 + (110 steps + 16 / 8 barriers) * 10 = 1620 > 1550:
 * latency-bound, total 2000 + 1620. */
static void test_latency_bound(void **state)
{
    (void)state;
    model_launch_stats l = launch(8, 256, 110, 16);
    model_time t = model_time_predict(&gpu, &l);
    assert_true(t.memory == 1500 && t.shared == 50 && t.latency == 1620 && t.chain == 0);
    assert_string_equal(t.bound, "latency");
    assert_true(t.total == 3620);
}

/* The same with 10 steps: latency 620, below memory + shared = 1550,
 * which add (a block's loads and its shared work are apart, between
 * barriers): memory-bound, bounded by what is in flight, 2000 + 1550. */
static void test_memory_in_flight(void **state)
{
    (void)state;
    model_launch_stats l = launch(8, 256, 10, 16);
    model_time t = model_time_predict(&gpu, &l);
    assert_true(t.memory == 1500 && t.shared == 50 && t.latency == 620);
    assert_string_equal(t.bound, "memory");
    assert_true(t.total == 3550);
}

/* 2 blocks, each loading 10000 sectors: 2 of 4 SMs, half the copy's
 * bandwidth, 50 bytes/ns; in flight 2 * 320000 bytes / 1000 ns = 640,
 * more: memory 32 * 10500 / 50 = 6720; shared 400 / (2 * 2) = 100;
 * latency 620: memory-bound, 2000 + 6820. */
static void test_memory_bound_few_sms(void **state)
{
    (void)state;
    model_launch_stats l = launch(2, 256, 10, 4);
    l.c.global_ld_sectors = 10000;
    model_time t = model_time_predict(&gpu, &l);
    assert_true(t.memory == 6720 && t.shared == 100 && t.latency == 620);
    assert_string_equal(t.bound, "memory");
    assert_true(t.total == 8820);
}

/* 100 blocks of 1024 and no global traffic: 2 per SM, 8 at once, 13
 * waves; 100 barriers, 1 per block: latency 13 * (500 + (4 + 1) * 10) =
 * 7150. 40000 wavefronts: shared 40000 / 8 = 5000. */
static void test_waves_and_shared(void **state)
{
    (void)state;
    model_launch_stats l = launch(100, 1024, 4, 100);
    l.c.global_ld_sectors = l.c.global_st_sectors = 0;
    l.c.shared_ld_wavefronts = 30000;
    l.c.shared_st_wavefronts = 10000;
    model_time t = model_time_predict(&gpu, &l);
    assert_true(t.latency == 7150 && t.shared == 5000 && t.memory == 0);
    assert_string_equal(t.bound, "latency");
    assert_true(t.total == 9150);
}

/* A chain of 63 waits (64 tiles): 63 * 1000 ns on top; its 128 steps are
 * the chain's, 2 per block: latency 500 + (2 + 3) * 10 = 550. 64 blocks of
 * 128, all resident, 500 bytes each in flight: 32 bytes/ns, memory 1500,
 * shared 50; total 2000 + 1550 + 63000. */
static void test_chain(void **state)
{
    (void)state;
    model_launch_stats l = launch(64, 128, 128, 192);
    l.c.chain = 63;
    model_time t = model_time_predict(&gpu, &l);
    assert_true(t.chain == 63000 && t.latency == 550 && t.memory == 1500);
    assert_true(t.total == 66550);
}

static const char good[] = "# a comment\n"
                           "name = h100\n"
                           "gpu = NVIDIA H100 80GB HBM3\n"
                           "measured = 2026-11-22, tools/gpu-check.sh fidelity\n"
                           "sms = 132\nthreads_per_sm = 2048\nblocks_per_sm = 32\n"
                           "copy_bytes_per_ns = 3000.5   # trailing comment\n"
                           "dram_rtt_ns = 600\nl2_rtt_ns = 250\nchain_link_ns = 900\n"
                           "smem_wavefronts_per_ns = 1.98\nsmem_rtt_ns = 15\nlaunch_ns = 2100\n";

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
        cmocka_unit_test(test_chain),                cmocka_unit_test(test_parse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
