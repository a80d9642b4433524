/* Helpers shared by the subcommands: exit codes, parsing of numbers and
 * sizes with clear messages (memory.h holds the memory guard, options.h
 * the option table). */
#ifndef SCANLAB_CLI_H
#define SCANLAB_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuda/status.h"

enum { CLI_EXIT_OK = 0, CLI_EXIT_FAILED = 1, CLI_EXIT_USAGE = 2 };

/* Print "scanlab: <message>" on stderr, its control characters as \xNN
 * (one line whatever the values it echoes); returns CLI_EXIT_USAGE. */
int cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A user's value for a message printed otherwise: the first len bytes of
 * s (len < 0: all of it), control characters as \xNN, into buf (cut short
 * to size); returns buf. */
const char *cli_printable(const char *s, int len, char *buf, size_t size);

/* The command whose command line is parsed (cli_parse sets it): the
 * parsers here name it in their messages, "scanlab: verify: --n: ...". */
void cli_set_command(const char *name);
/* "<command>: ", or "" before any command line was parsed. */
const char *cli_command_prefix(void);

/* Map a status to an exit code: SL_OK -> 0, SL_ERR_ARG -> 2, else 1. */
int cli_exit_code(sl_status st);

/* A size: a decimal number, or 2^K (K <= 62). Refuses signs, junk and
 * overflow with a message naming the option. */
sl_status cli_parse_size(const char *opt, const char *s, size_t *out);
/* A comma-separated list of sizes; *out is malloc'ed. */
sl_status cli_parse_size_list(const char *opt, const char *s, size_t **out, size_t *count);
/* An unsigned 64-bit number (seeds). */
sl_status cli_parse_u64(const char *opt, const char *s, uint64_t *out);
/* An int in [lo, hi]. */
sl_status cli_parse_int(const char *opt, const char *s, int lo, int hi, int *out);

/* Whether paths a and b name one existing file (the same device and inode
 * once links are followed), whatever their spelling. */
bool cli_same_file(const char *a, const char *b);

/* Whether stderr is a terminal (progress is shown only then). */
bool cli_stderr_is_tty(void);

#endif
