/* `scanlab simulate --huge` through the executable (its path is argv[1]):
 * every block-level and multi-pass scan of the catalogue is checked exactly
 * beyond 2^32 elements (2^33 for one 8-byte case), with most of its blocks
 * skipped; the single-pass scans say that their outputs were not checked
 * instead of judging them; what --huge cannot run is refused with exit 2. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "tap.h"

#include "run_cli.h"

static const char *scanlab;

/* The simulated scans of `scanlab list`: names of rows of kind "scan" whose
 * backends include sim, written into names (space-separated). */
static size_t sim_scans(char names[][32], size_t cap)
{
    const char *args[] = {"list", NULL};
    char *out = NULL;
    assert_int_equal(test_run_cli(scanlab, args, &out, NULL), 0);
    size_t k = 0;
    for (char *line = strtok(out, "\n"); line && k < cap; line = strtok(NULL, "\n")) {
        char name[32], kind[16], backends[64];
        if (sscanf(line, "%31s %15s %63s", name, kind, backends) == 3 && strcmp(kind, "scan") == 0 &&
            strstr(backends, "sim"))
            snprintf(names[k++], sizeof names[0], "%s", name);
    }
    free(out);
    return k;
}

static bool single_pass(const char *name)
{
    return strncmp(name, "chained-", 8) == 0 || strncmp(name, "lookback", 8) == 0;
}

/* 2^32 + 1000 i32 elements: chosen blocks around 0, 2^31, 2^32 and n - 1. */
static void every_scan_beyond_2_32(void **state)
{
    (void)state;
    char names[64][32];
    const size_t k = sim_scans(names, 64);
    assert_true(k >= 15);
    size_t exact = 0, unchecked = 0, refused = 0;
    for (size_t i = 0; i < k; i++) {
        const char *args[] = {"simulate", "--algo", names[i], "--huge", "--n", "4294968296", "--seed", "3", NULL};
        char *out = NULL, *err = NULL;
        const int rc = test_run_cli(scanlab, args, &out, &err);
        if (strcmp(names[i], "multi-gpu") == 0) {
            /* its reduction gives each block a whole range of a shard (a
             * fixed grid), which the huge mode cannot run in part: it must
             * say so, not crash or pass (its 64-bit indices are checked on
             * GPUs above 2^31 elements: tools/gpu-check.sh multigpu) */
            if (rc != 2 || !strstr(err, "cover too much of the input to be simulated in part"))
                fail_msg("%s: exit %d, expected the huge mode's refusal\n%s", names[i], rc, err);
            refused++;
            free(out);
            free(err);
            continue;
        }
        if (rc != 0)
            fail_msg("%s: exit %d\n%s\n%s", names[i], rc, out, err);
        if (!strstr(out, "skipped") || strstr(out, " 0 skipped"))
            fail_msg("%s: no block was skipped\n%s", names[i], out);
        if (single_pass(names[i])) {
            if (!strstr(out, "result: index widths clean; outputs not checked"))
                fail_msg("%s: a single-pass scan judged on skipped tiles\n%s", names[i], out);
            unchecked++;
        } else {
            if (!strstr(out, "result: correct"))
                fail_msg("%s: not checked exactly\n%s", names[i], out);
            exact++;
        }
        free(out);
        free(err);
    }
    assert_int_equal(unchecked, 4);
    assert_int_equal(refused, 1);
    assert_int_equal(exact, k - 4 - refused);
}

/* 2^33 + 5 elements of f64, exclusive: 64 GiB of buffers, mapped lazily. */
static void an_8_byte_exclusive_scan_at_2_33(void **state)
{
    (void)state;
    const char *args[] = {"simulate", "--algo", "reduce-then-scan", "--huge", "--n", "8589934597",
                          "--type", "f64", "--exclusive", "--json", NULL};
    char *out = NULL;
    assert_int_equal(test_run_cli(scanlab, args, &out, NULL), 0);
    assert_non_null(strstr(out, "\"passed\":true"));
    assert_non_null(strstr(out, "\"outputs_checked\":true"));
    assert_null(strstr(out, "\"skipped_blocks\":0,"));
    free(out);
}

/* The check is exact: a different seed puts other values in the windows,
 * and the same seed replays the same outputs. */
static void the_seed_replays(void **state)
{
    (void)state;
    const char *a1[] = {"simulate", "--algo", "kogge-stone", "--huge", "--n", "2147483713", "--seed", "9",
                        "--json", NULL};
    char *o1 = NULL, *o2 = NULL;
    assert_int_equal(test_run_cli(scanlab, a1, &o1, NULL), 0);
    assert_int_equal(test_run_cli(scanlab, a1, &o2, NULL), 0);
    assert_string_equal(o1, o2);
    free(o1);
    free(o2);
}

static void what_huge_cannot_run_exits_2(void **state)
{
    (void)state;
    static const struct {
        const char *args[10];
        const char *says;
    } cases[] = {
        {{"simulate", "--algo", "kogge-stone", "--huge", "--op", "max", "--n", "4294968296"}, "add scans"},
        {{"simulate", "--algo", "compact", "--huge", "--n", "4294968296"}, "add scans"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *out = NULL, *err = NULL;
        const int rc = test_run_cli(scanlab, cases[i].args, &out, &err);
        if (rc != 2 || !strstr(err, cases[i].says))
            fail_msg("case %zu: exit %d, stderr: %s", i, rc, err);
        free(out);
        free(err);
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s PATH-TO-SCANLAB\n", argv[0]);
        return 2;
    }
    scanlab = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_scan_beyond_2_32),
        cmocka_unit_test(an_8_byte_exclusive_scan_at_2_33),
        cmocka_unit_test(the_seed_replays),
        cmocka_unit_test(what_huge_cannot_run_exits_2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
