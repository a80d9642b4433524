/* Failure paths through the executable (argv[1]), each a regression test:
 * a full stdout fails every command; simulate sizes pack's output and
 * reference by the --param given; a run that cannot fit in memory is
 * refused before allocating, and the estimate holds against the measured
 * peak; outputs and inputs are checked before the run; an interrupted run
 * leaves no temporary file and no partial output; without a GPU the GPU
 * backend says so and skips. */
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include "tap.h"

#include "config.h"
#include "run_cli.h"
#include "verify/formats/npy.h"
#include "verify/formats/output.h"

static const char *scanlab;
static char dir[] = "/tmp/scanlab-hardening-XXXXXX";

static const char *path_of(const char *name)
{
    static char buf[4][PATH_MAX];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
    return buf[k];
}

static int run(const char *const *args, char **out, char **err)
{
    return test_run_cli(scanlab, args, out, err);
}

/* Run scanlab with stdout on the file at out_path; stderr to *err. Peak
 * resident memory (bytes) to *maxrss when not NULL. */
static int run_to(const char *out_path, const char *const *args, char **err, uint64_t *maxrss)
{
    char *argv[40];
    int argc = 0;
    argv[argc++] = (char *)scanlab;
    for (; args[argc - 1] && argc < 39; argc++)
        argv[argc] = (char *)args[argc - 1];
    argv[argc] = NULL;
    char errp[] = "/tmp/scanlab-hardening-err-XXXXXX";
    int fe = mkstemp(errp);
    assert_true(fe >= 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int fo = open(out_path, O_WRONLY);
        if (fo < 0)
            _exit(126);
        dup2(fo, STDOUT_FILENO);
        dup2(fe, STDERR_FILENO);
        execv(scanlab, argv);
        _exit(127);
    }
    int status;
    struct rusage ru;
    assert_int_equal(wait4(pid, &status, 0, &ru), pid);
    off_t size = lseek(fe, 0, SEEK_END);
    char *buf = calloc((size_t)size + 1, 1);
    assert_int_equal(pread(fe, buf, (size_t)size, 0), size);
    close(fe);
    unlink(errp);
    if (err)
        *err = buf;
    else
        free(buf);
    if (maxrss)
        *maxrss = (uint64_t)ru.ru_maxrss * 1024;
    assert_true(WIFEXITED(status));
    return WEXITSTATUS(status);
}

static int make_dir(void **state)
{
    (void)state;
    return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
    (void)state;
    DIR *d = opendir(dir);
    if (d) {
        for (struct dirent *e; (e = readdir(d));)
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
                unlink(path_of(e->d_name));
        closedir(d);
    }
    return rmdir(dir);
}

/* Every command whose output cannot be written exits 1 and says why. */
static void full_stdout_fails(void **state)
{
    (void)state;
    const char *cmds[][14] = {
        {"list", NULL},
        {"list", "--json", NULL},
        {"verify", "--algo", "sequential", "--type", "i32", "--op", "add", "--n", "5", "--json",
         "--seed", "1", NULL},
        {"verify", "--algo", "sequential", "--type", "i32", "--op", "add", "--n", "5", "--seed", "1",
         NULL},
        {"accuracy", "--backend", "seq", "--algo", "sequential", "--n", "10", "--seed", "1", NULL},
        {"simulate", "--algo", "brent-kung", "--n", "100", "--seed", "1", NULL},
        {"simulate", "--algo", "brent-kung", "--n", "100", "--seed", "1", "--json", NULL},
        {"verify", "--help", NULL},
    };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        char *err;
        int rc = run_to("/dev/full", cmds[i], &err, NULL);
        if (rc != 1 || !strstr(err, "cannot write to stdout"))
            fail_msg("%s %s > /dev/full: exit %d, stderr: %s", cmds[i][0], cmds[i][1] ? cmds[i][1] : "",
                     rc, err);
        free(err);
    }
}

/* Regression: pack's output and reference were sized for the default
 * parameter (a heap overflow for --param >= 8, wrong verdicts for 1, 2, 3
 * and 5). */
static void simulate_pack_uses_the_param(void **state)
{
    (void)state;
    const char *params[] = {"1", "2", "3", "5", "8", "16", "255"};
    for (size_t i = 0; i < sizeof params / sizeof params[0]; i++) {
        char *out, *err;
        const char *args[] = {"simulate", "--algo", "pack", "--n", "1000", "--param", params[i],
                              "--seed", "3", NULL};
        int rc = run(args, &out, &err);
        if (rc != 0 || !strstr(out, "result: correct\n"))
            fail_msg("pack --param %s: exit %d\n%s\n%s", params[i], rc, out, err);
        free(out);
        free(err);
    }
    char *out, *err;
    const char *verify[] = {"verify", "--algo", "pack", "--backend", "sim", "--param", "3", "--n",
                            "0,1,33,1000", "--seed", "3", NULL};
    assert_int_equal(run(verify, &out, &err), 0);
    free(out);
    free(err);
    const char *bad[] = {"simulate", "--algo", "pack", "--n", "1000", "--param", "256", NULL};
    assert_int_equal(run(bad, NULL, &err), 2);
    assert_non_null(strstr(err, "refused --param 256"));
    free(err);
}

/* Refused before allocating, with the size the user gave (no guard
 * elements added) and both amounts. */
static void too_large_is_refused_up_front(void **state)
{
    (void)state;
    char *err;
    const char *sim[] = {"simulate", "--algo", "lookback", "--n", "2^40", NULL};
    time_t t0 = time(NULL);
    assert_int_equal(run(sim, NULL, &err), 2);
    assert_true(time(NULL) - t0 < 10);
    assert_non_null(strstr(err, "n = 1099511627776 would need about"));
    assert_non_null(strstr(err, "refused before allocating"));
    free(err);
    const char *verify[] = {"verify", "--algo", "sequential", "--n", "2^40", NULL};
    assert_int_equal(run(verify, NULL, &err), 2);
    assert_non_null(strstr(err, "n = 1099511627776 would"));
    free(err);
    /* jobs beyond the cases of the largest size hold no buffers: one case
     * with 16 jobs is estimated as with one job, four cases four times */
    char *err1, *err16, *err4;
    const char *one[] = {"verify", "--algo", "sequential", "--backend", "seq", "--type", "i32", "--op", "add", "--n", "2^40",
                         "--jobs", "1", NULL};
    const char *sixteen[] = {"verify", "--algo", "sequential", "--backend", "seq", "--type", "i32", "--op", "add", "--n", "2^40",
                             "--jobs", "16", NULL};
    const char *four[] = {"verify", "--algo", "sequential,omp-single-pass", "--backend", "seq,omp", "--both",
                          "--type", "i32", "--op", "add", "--n", "2^40", "--jobs", "16", NULL};
    assert_int_equal(run(one, NULL, &err1), 2);
    assert_int_equal(run(sixteen, NULL, &err16), 2);
    assert_int_equal(run(four, NULL, &err4), 2);
    double gib1 = 0, gib16 = 0, gib4 = 0;
    assert_int_equal(sscanf(strstr(err1, "about "), "about %lf GiB", &gib1), 1);
    assert_int_equal(sscanf(strstr(err16, "about "), "about %lf GiB", &gib16), 1);
    assert_int_equal(sscanf(strstr(err4, "about "), "about %lf GiB", &gib4), 1);
    assert_true(gib16 == gib1);
    assert_true(gib4 > 3.9 * gib1 && gib4 < 4.1 * gib1);
    free(err1);
    free(err16);
    free(err4);
    const char *acc[] = {"accuracy", "--backend", "seq", "--n", "2^40", NULL};
    assert_int_equal(run(acc, NULL, &err), 2);
    assert_non_null(strstr(err, "n = 1099511627776 would"));
    free(err);
    const char *bench[] = {"bench", "--n", "2^50", NULL};
    assert_int_equal(run(bench, NULL, &err), 2);
    assert_non_null(strstr(err, "would need"));
    free(err);
}

/* The value of "key": in a JSON document. */
static uint64_t json_u64(const char *doc, const char *key)
{
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\":", key);
    const char *p = strstr(doc, pattern);
    if (!p)
        fail_msg("no %s in %.300s", key, doc);
    return strtoull(p + strlen(pattern), NULL, 10);
}

/* The estimate a command prints holds against the peak it reaches: never
 * below, and within a factor of 2 at sizes where the per-element cost
 * dominates. */
static void estimate_holds_against_measured_peak(void **state)
{
    (void)state;
#if defined(__SANITIZE_ADDRESS__)
    skip(); /* AddressSanitizer's shadow and redzones are not what the estimate counts */
#endif
    const char *cmds[][20] = {
        {"simulate", "--algo", "lookback", "--n", "2^21", "--seed", "1", "--json", NULL},
        {"simulate", "--algo", "brent-kung", "--type", "i64", "--n", "2^20", "--seed", "1", "--json",
         NULL},
        {"verify", "--algo", "sequential", "--backend", "seq", "--type", "i64", "--op", "add", "--n",
         "2^22", "--jobs", "1", "--seed", "1", "--json", NULL},
    };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        const char *out = path_of("doc.json");
        int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        assert_true(fd >= 0);
        close(fd);
        uint64_t peak;
        char *err;
        assert_int_equal(run_to(out, cmds[i], &err, &peak), 0);
        free(err);
        FILE *f = fopen(out, "r");
        assert_non_null(f);
        static char doc[1 << 20];
        size_t len = fread(doc, 1, sizeof doc - 1, f);
        doc[len] = '\0';
        fclose(f);
        uint64_t est = json_u64(doc, "memory_estimate_bytes");
        printf("# %s %s: estimate %llu bytes, measured peak %llu bytes\n", cmds[i][0], cmds[i][2],
               (unsigned long long)est, (unsigned long long)peak);
        if (!(peak <= est && est <= 2 * peak))
            fail_msg("%s %s: estimate %llu against a measured peak of %llu", cmds[i][0], cmds[i][2],
                     (unsigned long long)est, (unsigned long long)peak);
        unlink(out);
    }
}

static void write_i32_npy(const char *path, size_t n)
{
    int32_t *x = malloc(n * sizeof *x);
    for (size_t i = 0; i < n; i++)
        x[i] = (int32_t)(i % 11) - 5;
    char why[VERIFY_WHY_SIZE];
    assert_int_equal(verify_npy_write(path, SL_I32, x, n, why, sizeof why), SL_OK);
    free(x);
}

/* Outputs and inputs are checked before anything runs; an existing output
 * keeps its mode. */
static void outputs_and_inputs_checked_first(void **state)
{
    (void)state;
    char in[PATH_MAX], out[PATH_MAX], *err, *text;
    snprintf(in, sizeof in, "%s", path_of("in.npy"));
    write_i32_npy(in, 100);
    const char *bad_outputs[] = {dir, "/proc/scanlab-test.npy", path_of("no/such/out.npy")};
    for (size_t i = 0; i < 3; i++) {
        const char *args[] = {"verify", "--input", in, "--algo", "sequential", "--backend", "seq",
                              "--op", "add", "-o", bad_outputs[i], NULL};
        assert_int_equal(run(args, &text, &err), 2);
        assert_non_null(strstr(err, "--output"));
        assert_string_equal(text, ""); /* refused before the run */
        free(text);
        free(err);
        const char *sim[] = {"simulate", "--algo", "brent-kung", "--n", "100", "-o", bad_outputs[i],
                             NULL};
        assert_int_equal(run(sim, &text, &err), 2);
        assert_string_equal(text, "");
        free(text);
        free(err);
    }
    /* an existing private file stays private, and gets the scan */
    snprintf(out, sizeof out, "%s", path_of("out.npy"));
    int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "old", 3), 3);
    close(fd);
    chmod(out, 0600);
    const char *args[] = {"verify", "--input", in, "--algo", "sequential", "--backend", "seq",
                          "--op", "add", "-o", out, NULL};
    assert_int_equal(run(args, NULL, NULL), 0);
    struct stat sb;
    assert_int_equal(stat(out, &sb), 0);
    assert_int_equal(sb.st_mode & 0777, 0600);
    void *data;
    sl_type t;
    size_t n;
    char why[VERIFY_WHY_SIZE];
    assert_int_equal(verify_npy_read(out, &t, &data, &n, why, sizeof why), SL_OK);
    assert_int_equal(n, 100);
    free(data);
    /* a FIFO or a directory as input: refused at once */
    const char *fifo = path_of("in.fifo");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    const char *inputs[] = {fifo, dir};
    for (size_t i = 0; i < 2; i++) {
        const char *a[] = {"verify", "--input", inputs[i], "--type", "i32", NULL};
        assert_int_equal(run(a, NULL, &err), 2);
        assert_non_null(strstr(err, "not a regular file"));
        free(err);
        const char *b[] = {"accuracy", "--input", inputs[i], "--type", "f32", NULL};
        assert_int_equal(run(b, NULL, &err), 2);
        assert_non_null(strstr(err, "not a regular file"));
        free(err);
    }
    unlink(fifo);
    unlink(in);
    unlink(out);
    /* report -o onto '.' or a symbolic link: refused before any section */
    const char *link = path_of("link");
    assert_int_equal(symlink(dir, link), 0);
    const char *targets[] = {".", link};
    for (size_t i = 0; i < 2; i++) {
        const char *r[] = {"report", "--quick", "-o", targets[i], NULL};
        assert_int_equal(run(r, NULL, &err), 2);
        assert_non_null(strstr(err, "report: -o"));
        free(err);
    }
    unlink(link);
}

/* No entry of the folder is a temporary file (".tmp."), and out, if
 * there, is a whole .npy of n elements. */
static void nothing_half_written(const char *out, size_t n)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d));)
        if (strstr(e->d_name, ".tmp."))
            fail_msg("left behind: %s", e->d_name);
    closedir(d);
    if (access(out, F_OK) == 0) {
        void *data;
        sl_type t;
        size_t got;
        char why[VERIFY_WHY_SIZE];
        if (verify_npy_read(out, &t, &data, &got, why, sizeof why) != SL_OK)
            fail_msg("a partial output: %s", why);
        assert_int_equal(got, n);
        free(data);
        unlink(out);
    }
}

/* Interrupted at several points of a run that writes an output: nothing
 * temporary is left, and the output is whole or absent. */
static void interrupted_run_leaves_nothing(void **state)
{
    (void)state;
    const char *out = path_of("exact.npy");
    const long delays_ms[] = {50, 150, 300, 450, 600, 750, 900, 1200, 2000};
    for (size_t i = 0; i < sizeof delays_ms / sizeof delays_ms[0]; i++) {
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            int null = open("/dev/null", O_WRONLY);
            dup2(null, STDOUT_FILENO);
            dup2(null, STDERR_FILENO);
            execl(scanlab, scanlab, "accuracy", "--backend", "seq", "--algo", "sequential", "--type",
                  "f64", "--n", "2^22", "--inputs", "1", "--seed", "1", "-o", out, (char *)NULL);
            _exit(127);
        }
        struct timespec ts = {delays_ms[i] / 1000, (delays_ms[i] % 1000) * 1000000L};
        nanosleep(&ts, NULL);
        kill(pid, SIGINT);
        int status;
        assert_int_equal(waitpid(pid, &status, 0), pid);
        nothing_half_written(out, (size_t)1 << 22);
    }
}

/* Without a GPU the GPU backend says so: a skip, counted, that
 * --fail-on-skip turns into a failure; a build without CUDA refuses the
 * backend as not built. */
static void no_gpu_says_so(void **state)
{
    (void)state;
    char *out, *err;
    const char *args[] = {"verify", "--algo", "lookback", "--backend", "cuda", "--type", "i32", "--op",
                          "add", "--n", "100", "--seed", "1", NULL};
    int rc = run(args, &out, &err);
    if (!SCANLAB_HAVE_CUDA) {
        assert_int_equal(rc, 2);
        assert_non_null(strstr(err, "backend 'cuda' is not built"));
    } else if (strstr(out, "SKIPPED")) {
        assert_int_equal(rc, 0);
        assert_non_null(strstr(out, "skipped: 1 no GPU present"));
        const char *strict[] = {"verify", "--algo", "lookback", "--backend", "cuda", "--type", "i32",
                                "--op", "add", "--n", "100", "--seed", "1", "--fail-on-skip", NULL};
        free(out);
        free(err);
        assert_int_equal(run(strict, &out, &err), 1);
    } else {
        free(out);
        free(err);
        skip(); /* a GPU is present: the GPU suites run it */
    }
    free(out);
    free(err);
}

/* Sizes whose bytes do not fit in 64 bits are refused with exit status 2
 * before anything is allocated or mapped: n * sizeof(element) wrapped to a
 * small number, passed the memory check and sized a buffer of a few bytes
 * (simulate, accuracy), or a mapping of none (simulate --huge). */
static void sizes_whose_bytes_wrap_are_refused(void **state)
{
    (void)state;
    static const struct {
        const char *args[16];
        const char *says;
    } cases[] = {
        {{"simulate", "--algo", "brent-kung", "--n", "2^62", NULL}, "more than 2^64 bytes"},
        {{"simulate", "--algo", "brent-kung", "--n", "2^61", "--type", "i64", NULL}, "more than 2^64 bytes"},
        {{"simulate", "--algo", "pack", "--n", "2^62", NULL}, "more than 2^64 bytes"},
        {{"accuracy", "--backend", "seq", "--algo", "sequential", "--type", "f64", "--n", "2^62", "--inputs",
          "4", NULL},
         "more than 2^64 bytes"},
        {{"accuracy", "--backend", "seq,sim", "--algo", "sequential", "--type", "f64", "--n", "2^61", "--inputs",
          "1", NULL},
         "more than 2^64 bytes"},
        {{"verify", "--algo", "brent-kung", "--backend", "sim", "--type", "i64", "--n", "2^61", NULL},
         "more than 2^64 bytes"},
        {{"bench", "--n", "2^62", "--type", "i64", NULL}, "more than 2^64 bytes"},
        {{"simulate", "--algo", "lookback", "--huge", "--n", "2^62", NULL}, "more than 2^64 bytes"},
        {{"simulate", "--algo", "lookback", "--huge", "--n", "2^61", "--type", "i64", NULL},
         "more than 2^64 bytes"},
        /* 2^62 bytes: beyond any address space of today */
        {{"simulate", "--algo", "lookback", "--huge", "--n", "2^60", NULL}, "cannot map"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *out, *err;
        int rc = run(cases[i].args, &out, &err);
        if (rc != 2 || !strstr(err, cases[i].says) || strchr(err, '\n') != err + strlen(err) - 1 ||
            strcmp(out, "") != 0)
            fail_msg("case %zu (%s %s %s %s): exit %d, stdout %s, stderr: %s", i, cases[i].args[0],
                     cases[i].args[1], cases[i].args[2], cases[i].args[4], rc, out, err);
        free(out);
        free(err);
    }
}

/* An output that is the input file, under any name, is refused before the
 * run and the input is left as it was; simulate --huge writes no output,
 * so -o is refused there. */
static void output_onto_the_input_is_refused(void **state)
{
    (void)state;
    char in[PATH_MAX], alias[PATH_MAX], hard[PATH_MAX], dotted[PATH_MAX];
    snprintf(in, sizeof in, "%s", path_of("self.npy"));
    snprintf(alias, sizeof alias, "%s", path_of("self-link.npy"));
    snprintf(hard, sizeof hard, "%s", path_of("self-hard.npy"));
    snprintf(dotted, sizeof dotted, "%s/./self.npy", dir);
    write_i32_npy(in, 50);
    assert_int_equal(symlink(in, alias), 0);
    assert_int_equal(link(in, hard), 0);
    const char *outs[] = {in, alias, hard, dotted};
    for (size_t i = 0; i < sizeof outs / sizeof outs[0]; i++) {
        char *out, *err;
        const char *args[] = {"verify", "--input", in, "--algo", "sequential", "--backend", "seq", "--op", "add",
                              "-o", outs[i], NULL};
        int rc = run(args, &out, &err);
        if (rc != 2 || !strstr(err, "is the --input file"))
            fail_msg("-o %s: exit %d, stderr: %s", outs[i], rc, err);
        assert_string_equal(out, "");
        free(out);
        free(err);
        const char *acc[] = {"accuracy", "--input", in, "--type", "f32", "-o", outs[i], NULL};
        assert_int_equal(run(acc, NULL, &err), 2);
        free(err);
    }
    /* the input is still the input: 50 elements of i % 11 - 5 */
    void *data;
    sl_type t;
    size_t n;
    char why[VERIFY_WHY_SIZE];
    assert_int_equal(verify_npy_read(in, &t, &data, &n, why, sizeof why), SL_OK);
    assert_int_equal(n, 50);
    assert_int_equal(((int32_t *)data)[12], 12 % 11 - 5);
    free(data);
    unlink(alias);
    unlink(hard);
    unlink(in);
    char *err;
    const char *out = path_of("huge.npy");
    const char *huge[] = {"simulate", "--algo", "lookback", "--huge", "--n", "2^33", "-o", out, NULL};
    assert_int_equal(run(huge, NULL, &err), 2);
    assert_non_null(strstr(err, "--huge"));
    assert_int_equal(access(out, F_OK), -1);
    free(err);
}

/* A file of /proc (size 0, text made as it is read) as a raw input: said
 * for what it is, not "trailing bytes"; bench over memory refuses before
 * its seed line, as one line. */
static void unsized_input_and_bench_memory(void **state)
{
    (void)state;
    char *out, *err;
    const char *proc[] = {"verify", "--input", "/proc/self/status", "--type", "i32", "--algo", "sequential",
                          "--backend", "seq", "--op", "add", NULL};
    int rc = run(proc, &out, &err);
    if (rc != 2 || !strstr(err, "its size is 0 but it has bytes to read") || strstr(err, "trailing"))
        fail_msg("verify --input /proc/self/status: exit %d, stderr: %s", rc, err);
    assert_string_equal(out, "");
    free(out);
    free(err);
    const char *bench[] = {"bench", "--n", "2^44", "--algo", "sequential", "--backend", "seq", NULL};
    rc = run(bench, &out, &err);
    if (rc != 2 || strstr(err, "seed") || strchr(err, '\n') != err + strlen(err) - 1)
        fail_msg("bench --n 2^44: exit %d, stderr: %s", rc, err);
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
        cmocka_unit_test(full_stdout_fails),
        cmocka_unit_test(simulate_pack_uses_the_param),
        cmocka_unit_test(too_large_is_refused_up_front),
        cmocka_unit_test(estimate_holds_against_measured_peak),
        cmocka_unit_test(outputs_and_inputs_checked_first),
        cmocka_unit_test(interrupted_run_leaves_nothing),
        cmocka_unit_test(no_gpu_says_so),
        cmocka_unit_test(sizes_whose_bytes_wrap_are_refused),
        cmocka_unit_test(output_onto_the_input_is_refused),
        cmocka_unit_test(unsized_input_and_bench_memory),
    };
    return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
