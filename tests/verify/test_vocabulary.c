/* One vocabulary across the commands, through the executable (argv[1]):
 * every help states the exit statuses; --n takes one value, a list or a
 * range everywhere; every command with random inputs prints its seed and
 * --seed replays it; the JSON documents name the algorithm "algo"; old
 * spellings work with a note; --block and --param reach the kernels from
 * verify as from simulate. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "tap.h"

#include "config.h"
#include "run_cli.h"

static const char *scanlab;

static int run(const char *const *args, char **out, char **err)
{
    return test_run_cli(scanlab, args, out, err);
}

/* How many times needle occurs in hay. */
static size_t count_of(const char *hay, const char *needle)
{
    size_t k = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        k++;
    return k;
}

static void every_help_states_exit_codes(void **state)
{
    (void)state;
    const char *cmds[] = {"list", "verify", "simulate", "bench", "accuracy", "report"};
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        const char *args[] = {cmds[i], "--help", NULL};
        char *out, *err;
        assert_int_equal(run(args, &out, &err), 0);
        if (!strstr(out, "exit status:\n  0  ") || !strstr(out, "\n  1  ") || !strstr(out, "\n  2  "))
            fail_msg("%s --help states no exit codes:\n%s", cmds[i], out);
        free(out);
        free(err);
    }
}

/* The same option name, for the same thing, on every command that takes it. */
static void options_of_the_table(void **state)
{
    (void)state;
    static const struct {
        const char *cmd, *opts[12];
    } take[] = {
        {"verify", {"--n", "--block", "--param", "--jobs", "--seed", "--output", "--json",
                    "--exclusive", "--both", "--allow-races", "--fail-on-skip", "--allow-unreached"}},
        {"simulate", {"--n", "--block", "--param", "--seed", "--output", "--json", "--exclusive",
                      "--both", "--allow-races"}},
        {"bench", {"--n", "--block", "--param", "--jobs", "--seed", "--json", "--exclusive",
                   "--both", "--repeat"}},
        {"accuracy", {"--n", "--block", "--param", "--jobs", "--seed", "--output", "--json",
                      "--exclusive", "--both", "--fail-on-skip"}},
        {"report", {"--output", "--seed", "--jobs", "--allow-races", "--allow-unreached"}},
    };
    for (size_t i = 0; i < sizeof take / sizeof take[0]; i++) {
        const char *args[] = {take[i].cmd, "--help", NULL};
        char *out;
        assert_int_equal(run(args, &out, NULL), 0);
        for (size_t k = 0; k < 12 && take[i].opts[k]; k++) {
            char word[64];
            snprintf(word, sizeof word, "  %s ", take[i].opts[k]);
            char flag[64];
            snprintf(flag, sizeof flag, "  %s\n", take[i].opts[k]);
            char shrt[64];
            snprintf(shrt, sizeof shrt, ", %s ", take[i].opts[k]);
            if (!strstr(out, word) && !strstr(out, flag) && !strstr(out, shrt))
                fail_msg("%s --help lacks %s", take[i].cmd, take[i].opts[k]);
        }
        free(out);
    }
}

/* The help entry of opt in a command's help text: from "  --opt " to the
 * next option, into buf. */
static void help_entry(const char *help, const char *opt, char *buf, size_t size)
{
    char head[64];
    snprintf(head, sizeof head, "\n  %s ", opt);
    const char *p = strstr(help, head);
    if (!p)
        fail_msg("no entry %s in:\n%s", opt, help);
    const char *end = strstr(p + 1, "\n  -");
    snprintf(buf, size, "%.*s", (int)(end ? end - p : (long)strlen(p)), p);
}

/* An option whose command has a default of its own states that one alone:
 * simulate --help said "(default all). Here one type, default i32". */
static void one_default_an_option(void **state)
{
    (void)state;
    const char *args[] = {"simulate", "--help", NULL};
    char *out;
    assert_int_equal(run(args, &out, NULL), 0);
    static const char *const opts[][2] = {{"--type", "default i32"}, {"--op", "default add"}};
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++) {
        char entry[2048];
        help_entry(out, opts[i][0], entry, sizeof entry);
        if (!strstr(entry, opts[i][1]) || count_of(entry, "default") != 1)
            fail_msg("simulate --help, %s: one default, '%s', expected:%s", opts[i][0], opts[i][1], entry);
    }
    free(out);
    /* where the command says nothing of a default, the table's stays */
    const char *verify[] = {"verify", "--help", NULL};
    assert_int_equal(run(verify, &out, NULL), 0);
    char entry[2048];
    help_entry(out, "--type", entry, sizeof entry);
    assert_non_null(strstr(entry, "(default"));
    free(out);
}

/* simulate's launch table says threads per block and names each launch of
 * a hierarchical driver by its role, in the order they run. */
static void launch_table_names_roles(void **state)
{
    (void)state;
    static const char *const algos[] = {"kogge-stone", "brent-kung"};
    for (size_t i = 0; i < sizeof algos / sizeof algos[0]; i++) {
        const char *args[] = {"simulate", "--algo", algos[i], "--n", "5000", "--block", "64", "--seed", "3", NULL};
        char *out, *err;
        assert_int_equal(run(args, &out, &err), 0);
        const char *head = strstr(out, "threads/block");
        const char *sec = strstr(out, " section scan\n"), *tot = strstr(out, " totals scan\n"),
                   *add = strstr(out, " add-back\n");
        if (!head || !sec || !tot || !add || !(head < sec && sec < tot && tot < add))
            fail_msg("simulate --algo %s: launch table without its roles in order:\n%s", algos[i], out);
        free(out);
        free(err);
        const char *json[] = {"simulate", "--algo", algos[i], "--n", "5000", "--block", "64", "--seed", "3",
                              "--json", NULL};
        assert_int_equal(run(json, &out, &err), 0);
        assert_non_null(strstr(out, "\"role\":\"section scan\""));
        assert_non_null(strstr(out, "\"role\":\"add-back\""));
        free(out);
        free(err);
    }
}

/* A list and a range in --n: simulate and bench run each size. */
static void sizes_list_and_range_everywhere(void **state)
{
    (void)state;
    char *out, *err;
    const char *sim[] = {"simulate", "--algo", "kogge-stone", "--n", "32..128", "--json",
                         "--seed", "3", NULL};
    assert_int_equal(run(sim, &out, &err), 0);
    assert_int_equal(count_of(out, "\"algo\":\"kogge-stone\""), 3); /* 32, 64, 128 */
    assert_non_null(strstr(out, "\"n\":64,"));
    free(out);
    free(err);
    if (SCANLAB_HAVE_OPENMP) {
        const char *bench[] = {"bench", "--n", "1000,3000", "--repeat", "1", "--algo", "sequential",
                               "--json", "--seed", "3", NULL};
        assert_int_equal(run(bench, &out, &err), 0);
        assert_int_equal(count_of(out, "\"algo\":\"sequential\""), 2);
        assert_non_null(strstr(out, "\"n\":3000"));
        free(out);
        free(err);
    }
    const char *acc[] = {"accuracy", "--n", "2^4..2^6", "--backend", "seq", "--algo", "sequential",
                         "--type", "f32", "--json", "--seed", "3", NULL};
    assert_int_equal(run(acc, &out, &err), 0);
    assert_int_equal(count_of(out, "\"algo\":\"sequential\""), 3);
    free(out);
    free(err);
    const char *verify[] = {"verify", "--algo", "sequential", "--type", "i32", "--op", "add",
                            "--n", "1,33,1000", "--json", "--seed", "3", NULL};
    assert_int_equal(run(verify, &out, &err), 0);
    assert_non_null(strstr(out, "\"sizes_checked\":3"));
    free(out);
    free(err);
    const char *backwards[] = {"verify", "--n", "100..10", NULL};
    assert_int_equal(run(backwards, NULL, &err), 2);
    assert_non_null(strstr(err, "backwards"));
    free(err);
}

/* Every command with random inputs prints "seed S (replay with --seed S)"
 * and takes SCANLAB_SEED; the same seed gives the same output. */
static void one_seed_policy(void **state)
{
    (void)state;
    char *out1, *out2, *err;
    const char *sim[] = {"simulate", "--algo", "compact", "--n", "500", "--seed", "77", "--json", NULL};
    assert_int_equal(run(sim, &out1, &err), 0);
    assert_non_null(strstr(err, "seed 77 (replay with --seed 77)"));
    free(err);
    setenv("SCANLAB_SEED", "77", 1);
    const char *sim_env[] = {"simulate", "--algo", "compact", "--n", "500", "--json", NULL};
    assert_int_equal(run(sim_env, &out2, &err), 0);
    unsetenv("SCANLAB_SEED");
    assert_string_equal(out1, out2);
    free(out1);
    free(out2);
    free(err);
    const char *cmds[][12] = {
        {"verify", "--algo", "sequential", "--type", "i32", "--op", "add", "--n", "5", NULL},
        {"simulate", "--algo", "kogge-stone", "--n", "64", NULL},
        {"accuracy", "--backend", "seq", "--algo", "sequential", "--n", "10", NULL},
        {"bench", "--n", "1000", "--repeat", "1", "--algo", "sequential", NULL},
    };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        if (!SCANLAB_HAVE_OPENMP && strcmp(cmds[i][0], "bench") == 0)
            continue;
        assert_int_equal(run(cmds[i], &out1, &err), 0);
        char want[64];
        snprintf(want, sizeof want, "scanlab: %s: seed ", cmds[i][0]);
        if (!strstr(err, want) || !strstr(err, "(replay with --seed "))
            fail_msg("%s prints no seed: %s", cmds[i][0], err);
        free(out1);
        free(err);
    }
}

static void json_names_the_algorithm_algo(void **state)
{
    (void)state;
    char *out;
    const char *list[] = {"list", "--json", NULL};
    assert_int_equal(run(list, &out, NULL), 0);
    assert_non_null(strstr(out, "{\"algo\":\"sequential\""));
    assert_null(strstr(out, "\"name\""));
    free(out);
    const char *sim[] = {"simulate", "--algo", "brent-kung", "--n", "100", "--json", NULL};
    assert_int_equal(run(sim, &out, NULL), 0);
    assert_non_null(strstr(out, "\"algo\":\"brent-kung\""));
    assert_non_null(strstr(out, "\"status\":\"OK\""));
    free(out);
}

static void old_spellings_with_a_note(void **state)
{
    (void)state;
    char *out, *err;
    const char *args[] = {"verify", "--algo", "sequential", "--type", "i32", "--op", "add",
                          "--sizes", "7", "--threads", "1", "--seed", "1", NULL};
    assert_int_equal(run(args, &out, &err), 0);
    assert_non_null(strstr(err, "--sizes is an old spelling of --n"));
    assert_non_null(strstr(err, "--threads is an old spelling of --jobs"));
    assert_non_null(strstr(out, "1 OK, 0 FAILED"));
    free(out);
    free(err);
    const char *acc[] = {"accuracy", "--backend", "seq", "--algo", "sequential", "--n", "10",
                         "--seeds", "2", "--seed", "1", NULL};
    assert_int_equal(run(acc, &out, &err), 0);
    assert_non_null(strstr(err, "--seeds is an old spelling of --inputs"));
    free(out);
    free(err);
    /* an option of another command is named as such */
    const char *other[] = {"list", "--quick", NULL};
    assert_int_equal(run(other, NULL, &err), 2);
    assert_non_null(strstr(err, "--quick does not apply to list"));
    free(err);
}

/* --block and --param reach the kernels from verify: a block size the
 * algorithm refuses fails the check, one it takes passes. */
static void block_and_param_on_verify(void **state)
{
    (void)state;
    char *out, *err;
    const char *good[] = {"verify", "--algo", "brent-kung", "--backend", "sim", "--type", "i32",
                          "--op", "add", "--n", "100,300", "--block", "64", "--seed", "1", NULL};
    assert_int_equal(run(good, &out, &err), 0);
    free(out);
    free(err);
    const char *bad[] = {"verify", "--algo", "brent-kung", "--backend", "sim", "--type", "i32",
                         "--op", "add", "--n", "100", "--block", "48", "--seed", "1", NULL};
    assert_int_equal(run(bad, &out, &err), 1);
    assert_non_null(strstr(out, "refused its settings"));
    assert_non_null(strstr(out, "--block 48")); /* the replay line keeps it */
    free(out);
    free(err);
}

/* Progress lines reach a pipe too (here with every update shown), and a
 * short run with the default interval prints none. */
static void progress_on_a_pipe(void **state)
{
    (void)state;
    char *out, *err;
    const char *args[] = {"verify", "--algo", "sequential,brent-kung", "--backend", "seq,sim",
                          "--type", "i32", "--op", "add", "--n", "1,2,3,4", "--seed", "1",
                          "--jobs", "1", NULL};
    setenv("SCANLAB_PROGRESS_SECONDS", "0", 1);
    assert_int_equal(run(args, &out, &err), 0);
    unsetenv("SCANLAB_PROGRESS_SECONDS");
    assert_non_null(strstr(err, "scanlab: verify: 8/8 cases, "));
    assert_non_null(strstr(err, "s, brent-kung on sim\n"));
    assert_null(strchr(err, '\r')); /* whole lines, not a redrawn one */
    free(out);
    free(err);
    assert_int_equal(run(args, &out, &err), 0);
    assert_null(strstr(err, "cases, "));
    free(out);
    free(err);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s PATH-TO-SCANLAB\n", argv[0]);
        return 2;
    }
    scanlab = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_help_states_exit_codes),
        cmocka_unit_test(options_of_the_table),
        cmocka_unit_test(one_default_an_option),
        cmocka_unit_test(launch_table_names_roles),
        cmocka_unit_test(sizes_list_and_range_everywhere),
        cmocka_unit_test(one_seed_policy),
        cmocka_unit_test(json_names_the_algorithm_algo),
        cmocka_unit_test(old_spellings_with_a_note),
        cmocka_unit_test(block_and_param_on_verify),
        cmocka_unit_test(progress_on_a_pipe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
