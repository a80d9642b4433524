/* The applications' side of the harness: the size of their output
 * (cuda/apps/app_defs.h: a count, then elements) and their reference. */
#ifndef SCANLAB_APP_REF_H
#define SCANLAB_APP_REF_H

#include <stddef.h>
#include "verify/harness/algos.h"

/* The element size and the capacity (elements after the header) of the
 * output of an application of this kind; SL_ERR_ARG for a bad parameter
 * or a kind that is not an application, SL_ERR_NOMEM if it overflows. */
sl_status verify_app_layout(sl_algo_kind kind, sl_type t, size_t n, int param, size_t *elem,
                            size_t *cap);
/* Bytes the out buffer of an application needs (header included), or 0
 * when verify_app_layout fails. */
size_t verify_app_out_bytes(sl_algo_kind kind, sl_type t, size_t n, int param);
/* The sequential reference of the application, written into out in the
 * output layout (out has verify_app_out_bytes bytes). */
sl_status verify_app_reference(sl_algo_kind kind, sl_type t, const void *in, size_t n, int param,
                               void *out);

/* How many of the defined outputs of got differ from ref (both in the
 * output layout of this param), plus one when the counts differ;
 * *first_bad gets the first differing element (0 when only the count
 * differs). */
size_t verify_app_mismatches(sl_algo_kind kind, sl_type t, size_t n, int param, const void *ref,
                             const void *got, size_t *first_bad);

#endif
