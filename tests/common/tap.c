#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
#include <cmocka.h>

#include "tap.h"

static bool skipped;

void test_tap_skip(const char *file, int line)
{
    skipped = true;
    _skip(file, line);
}

int test_tap_run_group(const char *name, const struct CMUnitTest *tests, size_t count,
                       CMFixtureFunction setup, CMFixtureFunction teardown)
{
    void *state = NULL;
    int failed = 0;
    printf("1..%zu\n", count);
    fflush(stdout);
    /* cmocka prints its messages on stdout: send them to stderr, so that
     * stdout is the TAP stream alone. */
    int tap = dup(STDOUT_FILENO);
    dup2(STDERR_FILENO, STDOUT_FILENO);
    bool setup_ok = !setup || setup(&state) == 0;
    for (size_t i = 0; i < count; i++) {
        struct CMUnitTest one = tests[i];
        if (!one.initial_state)
            one.initial_state = state;
        skipped = false;
        int f = setup_ok ? _cmocka_run_group_tests(name, &one, 1, NULL, NULL) : 1;
        failed += f != 0;
        fflush(stdout);
        dprintf(tap, "%s %zu - %s%s\n", f ? "not ok" : "ok", i + 1, tests[i].name,
                !f && skipped ? " # SKIP" : "");
    }
    if (teardown && teardown(&state) != 0)
        failed++;
    fflush(stdout);
    dup2(tap, STDOUT_FILENO);
    close(tap);
    return failed;
}
