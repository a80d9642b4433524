/* Names of the catalogue (types, operators, backends) as the command line
 * spells them, and parsing from those names. */
#ifndef SCANLAB_CATALOG_H
#define SCANLAB_CATALOG_H

#include <stdbool.h>
#include <stddef.h>
#include "cuda/ops.h"
#include "cuda/status.h"

typedef enum { SL_SEQ, SL_OMP, SL_SIM, SL_CUDA, SL_BACKEND_COUNT } sl_backend;

const char *verify_type_name(sl_type t);      /* "i32", ... */
const char *verify_op_name(sl_op op);         /* "add", ... */
const char *verify_backend_name(sl_backend b); /* "seq", ... */

/* Parse one name; on failure return SL_ERR_ARG with the reason, naming
 * the valid names, in why (size bytes; NULL: none). */
sl_status verify_parse_type(const char *s, sl_type *out, char *why, size_t size);
sl_status verify_parse_op(const char *s, sl_op *out, char *why, size_t size);
sl_status verify_parse_backend(const char *s, sl_backend *out, char *why, size_t size);

/* Parse a comma-separated list into a bit mask (1u << value). "all" selects
 * every entry. Refusals as above. */
sl_status verify_parse_type_list(const char *s, unsigned *mask, char *why, size_t size);
sl_status verify_parse_op_list(const char *s, unsigned *mask, char *why, size_t size);
sl_status verify_parse_backend_list(const char *s, unsigned *mask, char *why, size_t size);

/* Whether the backend was compiled into this build (cuda may be absent). */
bool verify_backend_built(sl_backend b);

#endif
