/* The fair-cycle analysis of progress litmus tests (model/litmus/
 * progress_graph.c, progress_cycles.c, progress_strong.c) on graphs written
 * by hand, where the answer of each model follows from its definition: the
 * fair sets, a spin found under obe and not under the models that must
 * schedule the thread it waits for, a cycle that changes the state (missed
 * by the weakened analysis) on which weak and strong fairness disagree, and
 * a trap that strong fairness cannot leave; then the project's progress
 * tests explored with snapshots and with processes.
 *
 *   test_progress_graph TESTS_DIR */
#include <glob.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "model/litmus/progress.h"
#include "tap.h"

static const char *tests_dir;

static void test_fair_sets(void **state)
{
    (void)state;
    /* 3 threads; 1 started (thread 1), none finished */
    assert_int_equal(lit_pmodel_fair_set(LIT_PM_OBE, 2u, 0u, 3), 2u);
    assert_int_equal(lit_pmodel_fair_set(LIT_PM_LOBE, 2u, 0u, 3), 3u);
    assert_int_equal(lit_pmodel_fair_set(LIT_PM_HSA, 2u, 0u, 3), 1u);
    assert_int_equal(lit_pmodel_fair_set(LIT_PM_HSA_OBE, 2u, 0u, 3), 3u);
    assert_int_equal(lit_pmodel_fair_set(LIT_PM_FAIR, 2u, 0u, 3), 7u);
    /* nothing started: obe and lobe promise nothing, hsa the lowest */
    assert_int_equal(lit_pmodel_fair_set(LIT_PM_OBE, 0u, 0u, 3), 0u);
    assert_int_equal(lit_pmodel_fair_set(LIT_PM_LOBE, 0u, 0u, 3), 0u);
    assert_int_equal(lit_pmodel_fair_set(LIT_PM_HSA, 0u, 0u, 3), 1u);
    /* thread 0 finished: hsa's thread is 1 */
    assert_int_equal(lit_pmodel_fair_set(LIT_PM_HSA, 5u, 1u, 3), 2u);
    assert_int_equal(lit_pmodel_fair_set(LIT_PM_LOBE, 4u, 1u, 3), 6u);
    assert_int_equal(lit_pmodel_parse("hsa+obe"), LIT_PM_HSA_OBE);
    assert_int_equal(lit_pmodel_parse("unfair"), -1);
}

static void build(lit_pgraph *g, unsigned nthreads, lit_praw *raw, size_t n)
{
    assert_int_equal(lit_pgraph_build(g, nthreads, 100, raw, n), 0);
}

/* Thread 1 spins until thread 0 has run: states 100 (start), 101 (1
 * spinning), 102 (0 done), 103 (both done). */
static void test_spin_on_later(void **state)
{
    (void)state;
    lit_praw raw[] = {
        {100, 101, 1, 0}, {101, 101, 1, 0}, {101, 102, 0, 1}, {100, 102, 0, 1}, {102, 103, 1, 3},
        {101, 101, 1, 0}, /* a repeat, as the search hands over */
    };
    lit_pgraph g;
    build(&g, 2, raw, sizeof raw / sizeof raw[0]);
    assert_int_equal(g.nnodes, 4);
    assert_int_equal(g.nedges, 5);
    lit_lasso l;
    for (int strong = 0; strong < 2; strong++) {
        assert_int_equal(lit_pgraph_nonterm(&g, LIT_PM_OBE, strong, &l), 1);
        assert_int_equal(l.nprefix, 1);
        assert_int_equal(l.prefix[0], 1);
        assert_int_equal(l.ncycle, 1);
        assert_int_equal(l.cycle[0], 1);
        assert_int_equal(l.started, 2u);
        assert_int_equal(lit_pgraph_nonterm(&g, LIT_PM_LOBE, strong, &l), 0);
        assert_int_equal(lit_pgraph_nonterm(&g, LIT_PM_HSA, strong, &l), 0);
        assert_int_equal(lit_pgraph_nonterm(&g, LIT_PM_HSA_OBE, strong, &l), 0);
        assert_int_equal(lit_pgraph_nonterm(&g, LIT_PM_FAIR, strong, &l), 0);
        /* fairness ignored: the spin is taken as allowed under every model */
        lit_pgraph_weaken(LIT_WEAKEN_FAIRNESS);
        assert_int_equal(lit_pgraph_nonterm(&g, LIT_PM_FAIR, strong, &l), 1);
        lit_pgraph_weaken(0);
    }
    lit_pgraph_free(&g);
}

/* Two threads that hand a value back and forth for ever (100 -0-> 101
 * -1-> 100), and may each leave (to 102, 103) and then end (104): a fair
 * cycle that changes the state, so it does not terminate under weak
 * fairness; the weakened analysis, which counts only turns that change
 * nothing, misses it. Under strong fairness it terminates: the turns that
 * leave are possible at states the cycle visits for ever, so they are
 * taken. */
static void test_livelock(void **state)
{
    (void)state;
    lit_praw raw[] = {
        {100, 101, 0, 0}, {101, 100, 1, 0}, {100, 102, 1, 2}, {101, 103, 0, 1}, {102, 104, 0, 3}, {103, 104, 1, 3},
    };
    lit_pgraph g;
    build(&g, 2, raw, sizeof raw / sizeof raw[0]);
    lit_lasso l;
    assert_int_equal(lit_pgraph_nonterm(&g, LIT_PM_FAIR, false, &l), 1);
    assert_int_equal(l.nprefix, 0);
    assert_int_equal(l.ncycle, 2);
    assert_int_equal(lit_pgraph_nonterm(&g, LIT_PM_FAIR, true, &l), 0);
    lit_pgraph_weaken(LIT_WEAKEN_CYCLES);
    assert_int_equal(lit_pgraph_nonterm(&g, LIT_PM_FAIR, false, &l), 0);
    lit_pgraph_weaken(LIT_WEAKEN_FAIRNESS); /* every cycle allowed, under strong fairness too */
    assert_int_equal(lit_pgraph_nonterm(&g, LIT_PM_FAIR, true, &l), 1);
    lit_pgraph_weaken(0);
    lit_pgraph_free(&g);
}

/* From the start, thread 1 can end the test with thread 0 (100 -1-> 105
 * -0-> 106); thread 0 first leads into states 101 and 102 that the two
 * threads change for ever with no way out: a trap, where a strongly fair
 * execution stays, taking every turn of every state in it. The lasso: the
 * turn into it, then a cycle through all four of its turns. */
static void test_strong_trap(void **state)
{
    (void)state;
    lit_praw raw[] = {
        {100, 101, 0, 0}, {101, 102, 0, 0}, {102, 101, 1, 0}, {101, 101, 1, 0}, {102, 102, 0, 0},
        {100, 105, 1, 2}, {105, 106, 0, 3},
    };
    lit_pgraph g;
    build(&g, 2, raw, sizeof raw / sizeof raw[0]);
    lit_lasso l;
    for (int strong = 0; strong < 2; strong++) {
        assert_int_equal(lit_pgraph_nonterm(&g, LIT_PM_FAIR, strong, &l), 1);
        assert_int_equal(l.nprefix, 1);
        assert_int_equal(l.prefix[0], 0);
    }
    assert_int_equal(l.ncycle, 4);
    const int8_t cycle[4] = {0, 0, 1, 1};
    assert_memory_equal(l.cycle, cycle, 4);
    /* hsa schedules thread 0 alone: from 101 and 102 its turns stay there */
    assert_int_equal(lit_pgraph_nonterm(&g, LIT_PM_HSA, true, &l), 1);
    lit_pgraph_free(&g);
}

/* A graph with no cycle terminates under every model. */
static void test_acyclic(void **state)
{
    (void)state;
    lit_praw raw[] = {{100, 101, -1, 0}, {101, 102, 0, 1}, {102, 103, 1, 3}, {101, 104, 1, 2}, {104, 103, 0, 3}};
    lit_pgraph g;
    build(&g, 2, raw, sizeof raw / sizeof raw[0]);
    lit_lasso l;
    for (int m = 0; m < LIT_PM_COUNT; m++)
        for (int strong = 0; strong < 2; strong++)
            assert_int_equal(lit_pgraph_nonterm(&g, (lit_pmodel)m, strong, &l), 0);
    lit_pgraph_free(&g);
}

/* Every project progress test explored with a snapshot at each choice and
 * with a process at each (what builds with AddressSanitizer do, the
 * transitions then handed over from many processes): the same states,
 * transitions, verdicts and traces. */
static void test_fork_and_snapshot(void **state)
{
    (void)state;
    char pattern[1200];
    snprintf(pattern, sizeof pattern, "%s/*.litmus", tests_dir);
    glob_t g;
    assert_int_equal(glob(pattern, 0, NULL, &g), 0);
    assert_true(g.gl_pathc >= 10);
    static lit_test t;
    for (size_t i = 0; i < g.gl_pathc; i++) {
        char err[600];
        if (lit_parse_file(g.gl_pathv[i], &t, err, sizeof err) < 0)
            fail_msg("%s", err);
        lit_presult r[2];
        for (int fork = 0; fork < 2; fork++) {
            const lit_popts o = {200000, 120.0, fork == 1, false};
            if (lit_progress_run(&t, &o, &r[fork], err, sizeof err) < 0)
                fail_msg("%s", err);
            assert_true(r[fork].answered);
        }
        assert_int_equal(r[0].states, r[1].states);
        assert_int_equal(r[0].edges, r[1].edges);
        for (int m = 0; m < LIT_PM_COUNT; m++)
            for (int f = 0; f < 2; f++) {
                assert_int_equal(r[0].v[m][f].terminates, r[1].v[m][f].terminates);
                const lit_lasso *a = &r[0].v[m][f].lasso, *b = &r[1].v[m][f].lasso;
                assert_int_equal(a->nprefix, b->nprefix);
                assert_int_equal(a->ncycle, b->ncycle);
                assert_memory_equal(a->prefix, b->prefix, a->nprefix);
                assert_memory_equal(a->cycle, b->cycle, a->ncycle);
            }
        lit_free(&t);
    }
    globfree(&g);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_progress_graph TESTS_DIR (tests/litmus/progress)\n");
        return 1;
    }
    tests_dir = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fair_sets),       cmocka_unit_test(test_spin_on_later),
        cmocka_unit_test(test_livelock),        cmocka_unit_test(test_strong_trap),
        cmocka_unit_test(test_acyclic),         cmocka_unit_test(test_fork_and_snapshot),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
