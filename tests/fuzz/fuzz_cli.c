/* Fuzz target: the command line of every scanlab command, in a dry run
 * (verify/cli/options.h): cli_parse against the command's option table,
 * then, for the commands that support it, the command's own checks of the
 * selection, sizes, files and memory, stopping before any work.
 *
 * An input is a command line, one argument a line. When its first line
 * names a command (cli_subcommands, so a new command is fuzzed with no
 * change here), that command runs it; otherwise every command runs the
 * whole input. What must hold, beyond no sanitizer report or leak:
 *  - the exit status is 0 or 2 (a dry run checks nothing that could fail
 *    with 1), and a 2 comes with a message "scanlab: ..." on stderr;
 *  - the same command line run again gives the same status and messages
 *    (nothing of one parse leaks into the next).
 * The commands run in a folder of their own (the process's working folder
 * is left as it was between inputs), which holds a small .npy file (in.npy),
 * a raw file (in.raw) and a folder (dir), named by the seeds. With the
 * environment variable FUZZ_SHOW set, each run's status and messages are
 * printed (to see what a corpus input does). */
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "verify/cli/commands.h"
#include "verify/cli/options.h"
#include "verify/formats/npy.h"

static const char NAME[] = "cli";

enum { MAX_ARGS = 64 };

static char work_dir[4096];
static int home_fd = -1; /* the working folder the process was started in */

static void cleanup(void)
{
    static const char *const made[] = {"in.npy", "in.raw", "dir"};
    for (size_t i = 0; i < sizeof made / sizeof made[0]; i++) {
        char path[sizeof work_dir + 16];
        snprintf(path, sizeof path, "%s/%s", work_dir, made[i]);
        if (unlink(path) != 0)
            rmdir(path);
    }
    rmdir(work_dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *tmp = getenv("TMPDIR");
    snprintf(work_dir, sizeof work_dir, "%s/fuzz_cli.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    home_fd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (home_fd < 0 || !mkdtemp(work_dir) || chdir(work_dir) != 0)
        fuzz_fail(NAME, "cannot make a folder to work in");
    const int32_t x[5] = {3, -1, 4, 1, -5};
    char why[256];
    if (verify_npy_write("in.npy", SL_I32, x, 5, why, sizeof why) != SL_OK)
        fuzz_fail(NAME, "cannot write in.npy: %s", why);
    FILE *f = fopen("in.raw", "wb");
    if (!f || fwrite(x, sizeof x[0], 4, f) != 4 || fclose(f) != 0)
        fuzz_fail(NAME, "cannot write in.raw");
    if (mkdir("dir", 0755) != 0)
        fuzz_fail(NAME, "cannot make dir");
    atexit(cleanup);
    /* every random choice of a command (the edge sizes) from one seed */
    setenv("SCANLAB_SEED", "1", 1);
    unsetenv("SCANLAB_REPORT_HOLD");
    unsetenv("SCANLAB_REPORT_FAIL");
    cli_set_dry_run(true);
    if (fchdir(home_fd) != 0)
        fuzz_fail(NAME, "cannot go back to the working folder");
    return 0;
}

typedef struct {
    int rc;
    char *err; /* what the command wrote on stderr */
    size_t err_len;
} outcome;

/* Run one command on argv with stdout thrown away and stderr kept. The
 * streams are swapped, not the descriptors: a sanitizer's report still
 * reaches the real stderr. */
static outcome run(const cli_subcommand *c, int argc, char **argv)
{
    outcome o = {0, NULL, 0};
    FILE *out = stdout, *err = stderr;
    stdout = fopen("/dev/null", "w");
    stderr = open_memstream(&o.err, &o.err_len);
    if (!stdout || !stderr || chdir(work_dir) != 0)
        fuzz_fail(NAME, "cannot set the streams aside or go to %s", work_dir);
    o.rc = c->run(argc, argv);
    fclose(stdout);
    fclose(stderr);
    stdout = out;
    stderr = err;
    if (fchdir(home_fd) != 0)
        fuzz_fail(NAME, "cannot go back to the working folder");
    return o;
}

/* argv (a fresh copy: getopt permutes it) for one run of c. */
static void check_command(const cli_subcommand *c, char *const *args, int nargs)
{
    char *argv[2][MAX_ARGS + 2];
    outcome o[2];
    for (int k = 0; k < 2; k++) {
        argv[k][0] = (char *)c->name;
        memcpy(&argv[k][1], args, (size_t)nargs * sizeof *args);
        argv[k][nargs + 1] = NULL;
        o[k] = run(c, nargs + 1, argv[k]);
    }
    if (getenv("FUZZ_SHOW"))
        dprintf(STDERR_FILENO, "%s: exit %d\n%s", c->name, o[0].rc, o[0].err);
    if (o[0].rc != 0 && o[0].rc != 2)
        fuzz_fail(NAME, "%s: exit status %d in a dry run: %s", c->name, o[0].rc, o[0].err);
    if (o[0].rc == 2 && !strstr(o[0].err, "scanlab: "))
        fuzz_fail(NAME, "%s: exit status 2 without a message", c->name);
    if (o[1].rc != o[0].rc || o[1].err_len != o[0].err_len || memcmp(o[1].err, o[0].err, o[0].err_len))
        fuzz_fail(NAME, "%s: a second run of the same command line differs: status %d then %d, "
                  "stderr:\n%s\nthen:\n%s", c->name, o[0].rc, o[1].rc, o[0].err, o[1].err);
    free(o[0].err);
    free(o[1].err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    char *args[MAX_ARGS];
    int nargs = 0;
    for (char *p = text; nargs < MAX_ARGS;) {
        args[nargs++] = p;
        char *nl = memchr(p, '\n', (size_t)(text + size - p));
        if (!nl)
            break;
        *nl = '\0';
        p = nl + 1;
        if (p == text + size) /* a final newline ends the last line */
            break;
    }
    const cli_subcommand *named = NULL;
    for (size_t i = 0; i < cli_subcommand_count && nargs && size; i++)
        if (strcmp(args[0], cli_subcommands[i].name) == 0)
            named = &cli_subcommands[i];
    if (named)
        check_command(named, args + 1, nargs - 1);
    else
        for (size_t i = 0; i < cli_subcommand_count; i++)
            check_command(&cli_subcommands[i], args, size ? nargs : 0);
    free(text);
    return 0;
}
