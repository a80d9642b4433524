/* cmocka groups reported as TAP, so that meson (protocol: 'tap') counts
 * each case and reports a skipped case as a skip: cmocka 1.1's own TAP
 * output prints a skip as "not ok ... # SKIP", which TAP readers count as
 * a failure. Include after <cmocka.h>: cmocka_run_group_tests() and
 * skip() then go through here. cmocka's own messages go to stderr, and
 * stdout carries the plan and one "ok N - name[ # SKIP]" line per case. */
#ifndef SCANLAB_TEST_TAP_H
#define SCANLAB_TEST_TAP_H

#include <stddef.h>

/* Run tests[0..count) one by one (group setup and teardown around them,
 * the group's state as each test's initial state); returns the number of
 * failed cases. */
int test_tap_run_group(const char *name, const struct CMUnitTest *tests, size_t count,
                       CMFixtureFunction setup, CMFixtureFunction teardown);
/* Mark the running case skipped, then skip it as cmocka does. */
void test_tap_skip(const char *file, int line);

#undef cmocka_run_group_tests
#define cmocka_run_group_tests(tests, setup, teardown) \
    test_tap_run_group(#tests, tests, sizeof(tests) / sizeof((tests)[0]), setup, teardown)
#undef cmocka_run_group_tests_name
#define cmocka_run_group_tests_name(name, tests, setup, teardown) \
    test_tap_run_group(name, tests, sizeof(tests) / sizeof((tests)[0]), setup, teardown)
#undef skip
#define skip() test_tap_skip(__FILE__, __LINE__)

#endif
