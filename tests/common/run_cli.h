/* Running the scanlab executable, or a command's entry point, from a
 * cmocka test with its output captured. */
#ifndef SCANLAB_TEST_RUN_CLI_H
#define SCANLAB_TEST_RUN_CLI_H

/* Run exe with args (NULL-terminated, at most 32); its stdout goes to *out
 * and its stderr to *err (each malloc'ed, when not NULL). Returns the exit
 * status; a child that did not exit normally fails the test. */
int test_run_cli(const char *exe, const char *const *args, char **out, char **err);

/* A command's entry point: argv[0] is the command name. */
typedef int (*test_main_fn)(int argc, char **argv, void *ctx);

/* Call fn(argc, argv, ctx) in a child process, argv being args (args[0]
 * the command name, NULL-terminated), with stdout and stderr captured as
 * test_run_cli does. Returns fn's value as the exit status. */
int test_run_main(test_main_fn fn, void *ctx, const char *const *args, char **out, char **err);

#endif
