/* scanlab: verify and analyse parallel prefix-sum algorithms. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "verify/cli/cli.h"
#include "verify/cli/commands.h"
#include "verify/campaign/ranks.h"
#include "verify/formats/output.h"
#include "config.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: scanlab <command> [options]\n       scanlab --help | --version\n\ncommands:\n");
    for (size_t i = 0; i < cli_subcommand_count; i++)
        fprintf(f, "  %-10s %s\n", cli_subcommands[i].name, cli_subcommands[i].summary);
    fprintf(f, "\n'scanlab <command> --help' describes a command's options.\n"
               "exit status: 0 every check passed, 1 a check failed, 2 the command was used "
               "wrongly\n");
}

/* Whether everything written to stdout got there: a full disk or a closed
 * pipe shows only when the buffer is flushed, and in the close. */
static bool stdout_failed(int *err)
{
    errno = 0;
    bool bad = fflush(stdout) != 0 || ferror(stdout);
    *err = errno;
    if (fclose(stdout) != 0 && !bad) {
        bad = true;
        *err = errno;
    }
    return bad;
}

/* The command's status, made 1 when its output did not reach stdout. */
static int finish(const char *cmd, int rc)
{
    int err = 0;
    if (stdout_failed(&err)) {
        fprintf(stderr, "scanlab: %s: cannot write to stdout: %s\n", cmd,
                err ? strerror(err) : "an earlier write failed");
        if (rc == CLI_EXIT_OK)
            rc = CLI_EXIT_FAILED;
    }
    return rc;
}

/* The command's status, the same at every rank of a campaign (the worst
 * of theirs), its output flushed. */
static int finish_all(const char *cmd, int rc) { return ranks_finish(finish(cmd, rc)); }

int main(int argc, char **argv)
{
    verify_output_handle_signals();
    const int started = ranks_start(&argc, &argv);
    if (started != 0)
        return started;
    if (argc < 2) {
        usage(stderr);
        return ranks_finish(CLI_EXIT_USAGE);
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return finish_all("help", CLI_EXIT_OK);
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("scanlab %s (cuda %s, openmp %s, mpi %s)\n", SCANLAB_VERSION, SCANLAB_HAVE_CUDA ? "yes" : "no",
               SCANLAB_HAVE_OPENMP ? "yes" : "no", SCANLAB_HAVE_MPI ? "yes" : "no");
        return finish_all("version", CLI_EXIT_OK);
    }
    for (size_t i = 0; i < cli_subcommand_count; i++)
        if (strcmp(argv[1], cli_subcommands[i].name) == 0) {
            cli_set_command(cli_subcommands[i].name); /* for messages before its cli_parse too */
            return finish_all(cli_subcommands[i].name, cli_subcommands[i].run(argc - 1, argv + 1));
        }
    char shown[256];
    fprintf(stderr, "scanlab: unknown command '%s' (valid:", cli_printable(argv[1], -1, shown, sizeof shown));
    for (size_t i = 0; i < cli_subcommand_count; i++)
        fprintf(stderr, " %s", cli_subcommands[i].name);
    fprintf(stderr, ")\n");
    return ranks_finish(CLI_EXIT_USAGE);
}
