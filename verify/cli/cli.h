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

/* Print "scanlab: <message>" on stderr; returns CLI_EXIT_USAGE. */
int cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

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

/* Whether stderr is a terminal (progress is shown only then). */
bool cli_stderr_is_tty(void);

#endif
