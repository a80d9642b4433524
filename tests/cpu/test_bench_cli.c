/* scanlab bench through the executable: every kind of bad input exits 2
 * with a message naming the valid choices; a small run exits 0 with the
 * documented JSON rows. The executable's path is argv[1] (or $SCANLAB). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include "tap.h"

#define CAPTURE 65536

static const char *scanlab;

typedef struct {
    int status; /* exit status, or -1 if it did not exit normally */
    char out[CAPTURE];
    char err[CAPTURE];
} result;

static void drain(int fd, char *buf)
{
    size_t len = 0;
    ssize_t got;
    while ((got = read(fd, buf + len, CAPTURE - 1 - len)) > 0)
        len += (size_t)got;
    buf[len] = '\0';
    close(fd);
}

/* Runs "scanlab bench ARGS..." (NULL-terminated) and captures its output.
 * Outputs stay small here, so reading stdout then stderr cannot block. */
static void run_bench(result *res, const char *const *args)
{
    const char *argv[32] = {scanlab, "bench"};
    size_t argc = 2;
    for (; *args && argc < 31; args++)
        argv[argc++] = *args;
    argv[argc] = NULL;
    int out[2], err[2];
    assert_int_equal(pipe(out), 0);
    assert_int_equal(pipe(err), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(out[1], STDOUT_FILENO);
        dup2(err[1], STDERR_FILENO);
        close(out[0]);
        close(err[0]);
        execv(scanlab, (char *const *)argv);
        _exit(127);
    }
    close(out[1]);
    close(err[1]);
    drain(out[0], res->out);
    drain(err[0], res->err);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    res->status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Exit 2, and stderr contains hint. */
static void expect_usage(const char *hint, const char *const *args)
{
    static result res;
    run_bench(&res, args);
    if (res.status != 2 || !strstr(res.err, hint) || res.out[0])
        fail_msg("bench %s ...: exit %d, stderr '%s', stdout '%.80s' (want exit 2 and '%s')", args[0],
                 res.status, res.err, res.out, hint);
}

#define BAD(hint, ...) expect_usage(hint, (const char *const[]){__VA_ARGS__, NULL})

static void test_bad_backend(void **state)
{
    (void)state;
    BAD("valid: omp", "--backend", "cud");
    BAD("valid: omp", "--backend", "seq");
    BAD("valid: omp", "--backend", "gpu");
    BAD("scanlab: ", "--backend", "sim", "--n", "-5"); /* sim is refused, or its size is */
}

static void test_bad_size(void **state)
{
    (void)state;
    BAD("negative", "--n", "-1");
    BAD("not a size", "--n", "12abc");
    BAD("empty value", "--n", "");
    BAD("overflows", "--n", "123456789012345678901234567890");
    BAD("memory", "--n", "2^58");
    BAD("at least 1", "--n", "0");
}

static void test_bad_threads_reps(void **state)
{
    (void)state;
    BAD("--jobs", "--jobs", "0");
    BAD("--jobs", "--jobs", "100000");
    BAD("--jobs", "--jobs", "two");
    BAD("--repeat", "--repeat", "0");
    BAD("--repeat", "--repeat", "-3");
    /* the old spellings still work, with a note */
    BAD("--threads is an old spelling of --jobs", "--threads", "0");
    BAD("--reps is an old spelling of --repeat", "--reps", "0");
}

static void test_bad_type_op(void **state)
{
    (void)state;
    BAD("valid: i32, i64, f32, f64", "--type", "f16");
    BAD("valid: add, max, min, affine", "--op", "mul");
    BAD("integer types only", "--type", "f32", "--op", "affine");
}

static void test_bad_options(void **state)
{
    (void)state;
    BAD("unknown option", "--bogus");
    BAD("needs a value", "--n");
    BAD("unexpected argument", "extra");
}

static void test_help(void **state)
{
    (void)state;
    static result res;
    run_bench(&res, (const char *const[]){"--help", NULL});
    assert_int_equal(res.status, 0);
    assert_non_null(strstr(res.out, "--backend"));
}

/* A small run: exit 0, every documented key, and a row for the copy and for
 * each OpenMP scan (when OpenMP is built). */
static void test_small_run_json(void **state)
{
    (void)state;
    static result res;
    run_bench(&res, (const char *const[]){"--n", "5000", "--repeat", "1", "--jobs", "2", "--type", "i32",
                                           "--op", "affine", "--exclusive", "--json", NULL});
    if (res.status == 2 && strstr(res.err, "without OpenMP"))
        skip();
    if (res.status != 0)
        fail_msg("exit %d, stderr '%s'", res.status, res.err);
    assert_true(strncmp(res.out, "{\"results\":", 11) == 0);
    static const char *const keys[] = {"\"algo\"", "\"backend\"", "\"type\":\"i32\"", "\"op\":\"affine\"",
                                       "\"exclusive\":true", "\"n\":5000", "\"threads\":2",
                                       "\"median_ms\"", "\"gbps\"", "\"frac_of_copy\""};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (!strstr(res.out, keys[i]))
            fail_msg("no %s in %s", keys[i], res.out);
    static const char *const algos[] = {"\"copy\"", "\"sequential\"", "\"omp-reduce-then-scan\"",
                                        "\"omp-single-pass\"", "\"omp-scan-directive\""};
    for (size_t i = 0; i < sizeof algos / sizeof algos[0]; i++)
        if (!strstr(res.out, algos[i]))
            fail_msg("no row %s in %s", algos[i], res.out);
}

int main(int argc, char **argv)
{
    scanlab = argc > 1 ? argv[1] : getenv("SCANLAB");
    if (!scanlab || access(scanlab, X_OK) != 0) {
        fprintf(stderr, "usage: test_bench_cli PATH-TO-SCANLAB (or set SCANLAB)\n");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_backend),  cmocka_unit_test(test_bad_size),
        cmocka_unit_test(test_bad_threads_reps), cmocka_unit_test(test_bad_type_op),
        cmocka_unit_test(test_bad_options),  cmocka_unit_test(test_help),
        cmocka_unit_test(test_small_run_json),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
