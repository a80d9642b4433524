/* The subcommands of scanlab. Each takes the arguments after its name
 * (argv[0] is the subcommand) and returns the exit status: 0 every check
 * passed, 1 a check failed, 2 the command was used wrongly. */
#ifndef SCANLAB_COMMANDS_H
#define SCANLAB_COMMANDS_H

int cmd_list(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_accuracy(int argc, char **argv);
int cmd_simulate(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_deadlock(int argc, char **argv);

#endif
