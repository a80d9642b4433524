/* Result files of the scanlab commands (-o/--output): checked before a run,
 * written so that nothing the user had is lost and nothing half-written is
 * presented as whole.
 *
 *  - An existing regular file is written in place: the same inode, so its
 *    mode (0600 stays 0600), owner, hard links and, through a symbolic
 *    link, the link's target are kept. Its space is reserved first
 *    (posix_fallocate), so a full disk is found before its contents change;
 *    a write that fails later leaves it empty, never partly new.
 *  - A new file is written to a temporary file beside it and linked into
 *    place when complete: it appears whole or not at all.
 *  - A character device (/dev/stdout, /dev/null) or a FIFO with a reader
 *    (/dev/stdout on a pipe) is written as a stream.
 *  - Anything else (a directory, a socket, a FIFO nobody reads) is refused.
 *
 * Every write and close is checked. A temporary file, and a new file being
 * created, are removed when the process is interrupted (SIGINT, SIGTERM,
 * SIGHUP, SIGQUIT, SIGPIPE), once verify_output_handle_signals has run.
 *
 * Functions that can fail write one line (no newline) into why and return
 * SL_ERR_ARG when the path cannot be used (the caller's mistake) or
 * SL_ERR_IO when the system refused a write. */
#ifndef SCANLAB_OUTPUT_H
#define SCANLAB_OUTPUT_H

#include <limits.h>
#include <stddef.h>
#include "cuda/status.h"

/* Room for a message that names a path: the longest path and its reason. */
#define VERIFY_WHY_SIZE (PATH_MAX + 512)

/* Whether path can take a result file, before the run that makes it: an
 * existing regular file or character device that can be opened for
 * writing, a FIFO, or a new name in a directory that can be written. */
sl_status verify_output_check(const char *path, char *why, size_t why_size);

/* Whether path can be a new directory for a report: refused when it is a
 * symbolic link, '.', '..' or '/', or ends in one of them, or when its
 * parent cannot be written. It may exist (a directory) or not. */
sl_status verify_output_check_dir(const char *path, char *why, size_t why_size);

/* Write the concatenation of parts[0..count) (sizes[i] bytes each) to path
 * as described above. */
sl_status verify_output_write(const char *path, const void *const *parts, const size_t *sizes,
                              size_t count, char *why, size_t why_size);

/* Remove path if the process is interrupted, until verify_output_forget.
 * Returns SL_ERR_NOMEM when too many are registered. */
sl_status verify_output_remember(const char *path);
void verify_output_forget(const char *path);

/* Install the handlers that remove the remembered files on SIGINT,
 * SIGTERM, SIGHUP, SIGQUIT and SIGPIPE, then die of the signal. */
void verify_output_handle_signals(void);

#endif
