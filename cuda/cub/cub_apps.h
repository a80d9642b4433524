/* CUB's versions of the applications built on scan, the baselines of
 * `scanlab bench --backend cuda` for compact, partition and radix-sort:
 * cub::DeviceSelect::If, cub::DevicePartition::If and
 * cub::DeviceRadixSort::SortKeys on device buffers, with the predicate and
 * key order of cuda/apps/app_defs.h. Built only with CUDA. */
#ifndef SCANLAB_CUB_APPS_H
#define SCANLAB_CUB_APPS_H

#include <stddef.h>
#include "cuda/ops.h"
#include "cuda/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Which of CUB's device algorithms. */
typedef enum { SL_CUB_SELECT, SL_CUB_PARTITION, SL_CUB_SORT } sl_cub_app;

/* Runs app on the n elements of type at in (asynchronously), writing the
 * layout of cuda/apps/app_defs.h at out: select and partition write the
 * count (the number kept) and the elements (partition: kept ones in
 * order, then the others in reverse order); sort writes the sorted
 * elements only, not the count. With tmp NULL only stores the temporary
 * bytes CUB needs in *tmp_bytes. */
sl_status cub_app_dev(sl_cub_app app, sl_type type, const void *in, void *out, size_t n, void *tmp,
                      size_t *tmp_bytes);
sl_status cub_app_dev_i32(sl_cub_app app, const void *in, void *out, size_t n, void *tmp, size_t *tmp_bytes);
sl_status cub_app_dev_i64(sl_cub_app app, const void *in, void *out, size_t n, void *tmp, size_t *tmp_bytes);
sl_status cub_app_dev_f32(sl_cub_app app, const void *in, void *out, size_t n, void *tmp, size_t *tmp_bytes);
sl_status cub_app_dev_f64(sl_cub_app app, const void *in, void *out, size_t n, void *tmp, size_t *tmp_bytes);

#ifdef __cplusplus
}
#endif

#endif
