/* Helpers shared by the subcommands: exit codes, parsing of numbers and
 * sizes with clear messages, and the memory guard. */
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

/* Refuse, before allocating, a working set of n elements of elem_size bytes
 * times copies that cannot fit in this machine's physical memory. */
sl_status cli_check_memory(const char *what, size_t n, size_t elem_size, unsigned copies);

/* Whether stderr is a terminal (progress is shown only then). */
bool cli_stderr_is_tty(void);

#endif
