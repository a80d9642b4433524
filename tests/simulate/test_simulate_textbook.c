/* The textbook numbers through the command a user runs: `scanlab simulate
 * --json` on one block of n = 2^k elements against the closed forms.
 *   kogge-stone  (n threads)     work n log2 n - (n - 1)   steps log2 n
 *   brent-kung   (n/2 threads)   work 2n - 2 - log2 n      steps 2 log2 n - 1
 *   blelloch     (n/2 threads)   work 2(n - 1)             steps 2 log2 n
 * Kogge-Stone stops at k = 10: one element per thread, at most 1024
 * threads per block. argv[1] is the scanlab executable. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "tap.h"

static const char *scanlab;

/* The unsigned value of "key": in a flat JSON document. */
static unsigned long long json_value(const char *doc, const char *key)
{
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\":", key);
    const char *p = strstr(doc, pattern);
    if (!p)
        fail_msg("key %s missing from: %.200s", key, doc);
    return strtoull(p + strlen(pattern), NULL, 10);
}

static void simulate(const char *algo, size_t n, size_t block, const char *extra,
                     unsigned long long *work, unsigned long long *steps)
{
    char cmd[512];
    static char doc[1 << 16];
    snprintf(cmd, sizeof cmd, "'%s' simulate --algo %s --n %zu --block %zu %s --json", scanlab, algo, n,
             block, extra);
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    size_t len = fread(doc, 1, sizeof doc - 1, f);
    doc[len] = '\0';
    int status = pclose(f);
    if (status != 0)
        fail_msg("'%s' exited with status %d", cmd, status);
    assert_true(strstr(doc, "\"correct\":true") != NULL);
    *work = json_value(doc, "work");
    *steps = json_value(doc, "steps");
}

static void test_kogge_stone(void **state)
{
    (void)state;
    for (unsigned k = 5; k <= 10; k++) {
        const size_t n = (size_t)1 << k;
        unsigned long long work, steps;
        simulate("kogge-stone", n, n, "", &work, &steps);
        assert_int_equal(work, n * k - (n - 1));
        assert_int_equal(steps, k);
    }
}

static void test_brent_kung(void **state)
{
    (void)state;
    for (unsigned k = 5; k <= 11; k++) {
        const size_t n = (size_t)1 << k;
        unsigned long long work, steps;
        simulate("brent-kung", n, n / 2, "", &work, &steps);
        assert_int_equal(work, 2 * n - 2 - k);
        assert_int_equal(steps, 2 * k - 1);
    }
}

static void test_blelloch(void **state)
{
    (void)state;
    for (unsigned k = 5; k <= 11; k++) {
        const size_t n = (size_t)1 << k;
        unsigned long long work, steps;
        simulate("blelloch", n, n / 2, "--exclusive", &work, &steps);
        assert_int_equal(work, 2 * (n - 1));
        assert_int_equal(steps, 2 * k);
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s SCANLAB\n", argv[0]);
        return 2;
    }
    scanlab = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kogge_stone),
        cmocka_unit_test(test_brent_kung),
        cmocka_unit_test(test_blelloch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
