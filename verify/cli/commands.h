/* The subcommands of scanlab. Each takes the arguments after its name
 * (argv[0] is the subcommand) and returns the exit status: 0 every check
 * passed, 1 a check failed, 2 the command was used wrongly. */
#ifndef SCANLAB_COMMANDS_H
#define SCANLAB_COMMANDS_H

#include <stddef.h>

int cmd_list(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_accuracy(int argc, char **argv);
int cmd_simulate(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_deadlock(int argc, char **argv);
int cmd_run(int argc, char **argv);
/* scanlab deadlock -- PROGRAM: cmd_deadlock hands a command line with a
 * program to it. */
int cmd_run_deadlock(int argc, char **argv);
int cmd_litmus(int argc, char **argv);

typedef struct {
    const char *name;    /* "verify" */
    const char *summary; /* one line for 'scanlab --help' */
    int (*run)(int argc, char **argv);
} cli_subcommand;

/* Every subcommand scanlab offers, in the order its --help lists them
 * (commands.c). The command line dispatches on it, and the fuzzing of the
 * command lines (tests/fuzz) walks it, so a command added here is fuzzed
 * too. */
extern const cli_subcommand cli_subcommands[];
extern const size_t cli_subcommand_count;

#endif
