/* Sequential references of the applications built on scan (compact,
 * partition, radix-sort, pack), as defined in cuda/apps/app_defs.h. Plain
 * loops, independent of the kernels' multi-block schemes; every n >= 0. */
#ifndef SCANLAB_CPU_APPS_H
#define SCANLAB_CPU_APPS_H

#include <stddef.h>
#include <stdint.h>
#include "cuda/ops.h"
#include "cuda/status.h"

/* The kept elements of in[0..n) in order into out (room for n); their
 * number into *count. */
sl_status cpu_compact(sl_type t, const void *in, size_t n, void *out, size_t *count);
/* The kept elements, then the others, both in input order, into out[0..n);
 * the number kept into *count. */
sl_status cpu_partition(sl_type t, const void *in, size_t n, void *out, size_t *count);
/* in[0..n) in ascending total order (sl_app_sort_key) into out[0..n). */
sl_status cpu_sort(sl_type t, const void *in, size_t n, void *out);
/* Records of pack with at most k per item (1 <= k <= SL_APP_PACK_MAX_K) into
 * out (room for cap records); their number into *count. SL_ERR_ARG when k
 * is invalid, SL_ERR_NOMEM when cap is too small. */
sl_status cpu_pack(sl_type t, const void *in, size_t n, unsigned k, int64_t *out, size_t cap,
                   size_t *count);

#endif
