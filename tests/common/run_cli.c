#include "run_cli.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

enum { MAX_ARGS = 32, OUT_LIMIT = 1 << 22 };

typedef struct {
    const char *exe;           /* exec this, or */
    test_main_fn fn;           /* call this in the child */
    void *ctx;
} child_job;

/* The child's output goes to unlinked temporary files rather than pipes,
 * so a large output cannot block the child while the parent waits. */
static int run_child(const child_job *job, const char *argv0, const char *const *args, char **out,
                     char **err)
{
    char *argv[MAX_ARGS + 2];
    int argc = 0;
    argv[argc++] = (char *)argv0;
    for (; args[argc - 1] && argc <= MAX_ARGS; argc++)
        argv[argc] = (char *)args[argc - 1];
    argv[argc] = NULL;
    char outp[] = "/tmp/scanlab-cli-out-XXXXXX", errp[] = "/tmp/scanlab-cli-err-XXXXXX";
    int fo = mkstemp(outp), fe = mkstemp(errp);
    assert_true(fo >= 0 && fe >= 0);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fo, STDOUT_FILENO);
        dup2(fe, STDERR_FILENO);
        if (job->exe) {
            execv(job->exe, argv);
            _exit(127);
        }
        int rc = job->fn(argc, argv, job->ctx);
        fflush(stdout);
        fflush(stderr);
        _exit(rc);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    char *bufs[2] = {NULL, NULL};
    int fds[2] = {fo, fe};
    for (int k = 0; k < 2; k++) {
        off_t size = lseek(fds[k], 0, SEEK_END);
        assert_true(size >= 0 && size < OUT_LIMIT);
        bufs[k] = calloc((size_t)size + 1, 1);
        assert_int_equal(pread(fds[k], bufs[k], (size_t)size, 0), size);
        close(fds[k]);
    }
    unlink(outp);
    unlink(errp);
    if (out)
        *out = bufs[0];
    else
        free(bufs[0]);
    if (err)
        *err = bufs[1];
    else
        free(bufs[1]);
    assert_true(WIFEXITED(status));
    return WEXITSTATUS(status);
}

int test_run_cli(const char *exe, const char *const *args, char **out, char **err)
{
    child_job job = {exe, NULL, NULL};
    return run_child(&job, exe, args, out, err);
}

int test_run_main(test_main_fn fn, void *ctx, const char *const *args, char **out, char **err)
{
    child_job job = {NULL, fn, ctx};
    return run_child(&job, args[0], args + 1, out, err);
}
