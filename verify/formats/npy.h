/* Arrays from and to files: NumPy .npy (format versions 1.0, 2.0 and 3.0;
 * 1-D, C order, little-endian <i4 <i8 <f4 <f8) and raw little-endian binary
 * of a given element type.
 *
 * Every function that can fail writes the reason (one line, no trailing
 * newline) into why[0..why_size) and returns SL_ERR_ARG when the file's
 * contents are not acceptable (bad magic, unparsable header, unsupported
 * dtype, Fortran order, shape not 1-D or not matching the data, truncated,
 * trailing bytes, not a regular file: a FIFO, a directory, a device, which
 * are never opened blocking) or SL_ERR_IO when the operating system
 * refused (open, read, write). */
#ifndef SCANLAB_NPY_H
#define SCANLAB_NPY_H

#include <stddef.h>
#include "cuda/ops.h"
#include "cuda/status.h"

/* Read a .npy file: *data (malloc'ed, free with free(); never NULL on
 * success, even for n = 0), its element type and length. */
sl_status verify_npy_read(const char *path, sl_type *type, void **data, size_t *n, char *why,
                          size_t why_size);

/* Read a raw file of elements of type t: its size must be a multiple of
 * the element size. */
sl_status verify_raw_read(const char *path, sl_type t, void **data, size_t *n, char *why,
                          size_t why_size);

/* Read path as .npy when it starts with the .npy magic; otherwise as raw
 * elements of type raw_type, or refuse when raw_type is not a type
 * (SL_TYPE_COUNT): a raw file does not say what it holds. */
sl_status verify_array_read(const char *path, sl_type raw_type, sl_type *type, void **data,
                            size_t *n, char *why, size_t why_size);

/* Write data[0..n) of type t as a version 1.0 .npy file, through
 * verify_output_write (verify/formats/output.h): an existing file is
 * written in place (its mode and links kept), a new one appears whole or
 * not at all, a character device or a FIFO with a reader is a stream. */
sl_status verify_npy_write(const char *path, sl_type t, const void *data, size_t n, char *why,
                           size_t why_size);

#endif
