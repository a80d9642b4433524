/* The applications in `scanlab bench --backend cuda` (bench_cuda.c): which
 * algorithms are timed together (a family: one output layout, one CUB
 * baseline), CUB's run, the output's size and check, and the traffic a
 * family cannot do without. Built only with CUDA. */
#ifndef SCANLAB_BENCH_CUDA_APPS_H
#define SCANLAB_BENCH_CUDA_APPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "verify/harness/algos.h"

/* The family of an algorithm kind: SL_KIND_SCAN for scans (and
 * reductions, which are not benched), SL_KIND_COMPACT, SL_KIND_PARTITION
 * for both partitions (stable and CUB's order), SL_KIND_SORT, SL_KIND_PACK. */
sl_algo_kind cb_app_family(sl_algo_kind kind);
/* The name of the family ("scan", "compact", "partition", "sort", "pack"). */
const char *cb_app_family_name(sl_algo_kind family);
/* The name of CUB's baseline of an application family, or NULL (pack). */
const char *cb_app_cub_name(sl_algo_kind family);
/* CUB's baseline on device buffers (out in the layout of
 * cuda/apps/app_defs.h; sort writes no count); tmp NULL: sizes *tmp_bytes.
 * SL_ERR_UNSUPPORTED for pack. */
sl_status cb_app_cub(sl_algo_kind family, sl_type type, const void *in, void *out, size_t n, void *tmp,
                     size_t *tmp_bytes);
/* The kind whose reference CUB's output matches. */
sl_algo_kind cb_app_cub_kind(sl_algo_kind family);
/* The bytes of an output of the family (the largest of its kinds), 0 on a
 * bad parameter. */
size_t cb_app_out_bytes(sl_algo_kind family, sl_type type, size_t n, int param);
/* The references of one configuration, made once for each kind that
 * needs one (a family has at most two: the partitions). */
typedef struct {
    sl_algo_kind kind[2];
    unsigned char *ref[2];
} cb_app_refs;
/* Releases the references. */
void cb_app_refs_free(cb_app_refs *r);
/* Whether out (host, the layout of app_defs.h) is the reference of kind
 * for in (made on first use); says why not on stderr, naming who.
 * sort_count: set the count (n) first, for CUB's sort, which writes none. */
bool cb_app_output_ok(cb_app_refs *r, sl_algo_kind kind, sl_type type, size_t n, int param, const void *in,
                      void *out, bool sort_count, const char *who);
/* The count of the family's reference output for in (n elements). */
sl_status cb_app_count(cb_app_refs *r, sl_algo_kind family, sl_type type, size_t n, int param, const void *in,
                       uint64_t *count);
/* The bytes after the header that an output of the family defines, for
 * the reference's count. */
size_t cb_app_defined_bytes(sl_algo_kind family, sl_type type, size_t n, uint64_t count);
/* Global traffic of the family in units of n elements, the least any
 * algorithm of it moves: compact 1 + kept / n, partition 2, sort with
 * 8-bit digits 1 + 2 x passes (an upsweep read, then a read and a write
 * per pass), pack 1 + the records' bytes over n elements' bytes. count:
 * the reference's count. */
double cb_app_bound(sl_algo_kind family, sl_type type, size_t n, uint64_t count);

#endif
