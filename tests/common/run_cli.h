/* Running the scanlab executable from a cmocka test. */
#ifndef SCANLAB_TEST_RUN_CLI_H
#define SCANLAB_TEST_RUN_CLI_H

/* Run exe with args (NULL-terminated, at most 32); its stdout goes to *out
 * and its stderr to *err (each malloc'ed, when not NULL). Returns the exit
 * status; a child that did not exit normally fails the test. */
int test_run_cli(const char *exe, const char *const *args, char **out, char **err);

#endif
