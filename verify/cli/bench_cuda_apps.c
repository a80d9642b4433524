/* The applications in `scanlab bench --backend cuda` (bench_cuda_apps.h). */
#include "verify/cli/bench_cuda_apps.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "verify/harness/app_ref.h"
#if SCANLAB_HAVE_CUDA
#include "cuda/cub/cub_apps.h"
#endif

sl_algo_kind cb_app_family(sl_algo_kind kind)
{
    if (kind == SL_KIND_PARTITION_REV)
        return SL_KIND_PARTITION;
    return kind == SL_KIND_REDUCE ? SL_KIND_SCAN : kind;
}

const char *cb_app_family_name(sl_algo_kind family)
{
    switch (family) {
    case SL_KIND_COMPACT: return "compact";
    case SL_KIND_PARTITION: return "partition";
    case SL_KIND_SORT: return "sort";
    case SL_KIND_PACK: return "pack";
    default: return "scan";
    }
}

const char *cb_app_cub_name(sl_algo_kind family)
{
    switch (family) {
    case SL_KIND_COMPACT: return "cub-select";
    case SL_KIND_PARTITION: return "cub-partition";
    case SL_KIND_SORT: return "cub-sort";
    default: return NULL;
    }
}

sl_algo_kind cb_app_cub_kind(sl_algo_kind family)
{
    return family == SL_KIND_PARTITION ? SL_KIND_PARTITION_REV : family;
}

sl_status cb_app_cub(sl_algo_kind family, sl_type type, const void *in, void *out, size_t n, void *tmp,
                     size_t *tmp_bytes)
{
#if SCANLAB_HAVE_CUDA
    switch (family) {
    case SL_KIND_COMPACT: return cub_app_dev(SL_CUB_SELECT, type, in, out, n, tmp, tmp_bytes);
    case SL_KIND_PARTITION: return cub_app_dev(SL_CUB_PARTITION, type, in, out, n, tmp, tmp_bytes);
    case SL_KIND_SORT: return cub_app_dev(SL_CUB_SORT, type, in, out, n, tmp, tmp_bytes);
    default: return SL_ERR_UNSUPPORTED;
    }
#else
    (void)family, (void)type, (void)in, (void)out, (void)n, (void)tmp, (void)tmp_bytes;
    return SL_ERR_UNSUPPORTED;
#endif
}

size_t cb_app_out_bytes(sl_algo_kind family, sl_type type, size_t n, int param)
{
    /* the partitions' outputs have one size; the textbook sort's param
     * (digit bits) does not change it */
    return verify_app_out_bytes(family, type, n, family == SL_KIND_SORT ? 0 : param);
}

void cb_app_refs_free(cb_app_refs *r)
{
    free(r->ref[0]);
    free(r->ref[1]);
    memset(r, 0, sizeof *r);
}

/* The reference of kind, made on first use; NULL when it cannot be made. */
static const unsigned char *reference(cb_app_refs *r, sl_algo_kind kind, sl_type type, size_t n, int param,
                                      const void *in)
{
    const int p = kind == SL_KIND_SORT ? 0 : param;
    int slot = 0;
    for (; slot < 2 && r->ref[slot]; slot++)
        if (r->kind[slot] == kind)
            return r->ref[slot];
    const size_t bytes = verify_app_out_bytes(kind, type, n, p);
    unsigned char *ref = slot < 2 && bytes ? malloc(bytes) : NULL;
    if (!ref || verify_app_reference(kind, type, in, n, p, ref) != SL_OK) {
        free(ref);
        return NULL;
    }
    r->kind[slot] = kind;
    r->ref[slot] = ref;
    return ref;
}

bool cb_app_output_ok(cb_app_refs *r, sl_algo_kind kind, sl_type type, size_t n, int param, const void *in,
                      void *out, bool sort_count, const char *who)
{
    const unsigned char *ref = reference(r, kind, type, n, param, in);
    size_t first = 0, bad = 1;
    if (!ref) {
        fprintf(stderr, "scanlab: bench: %s: no reference (memory)\n", who);
        return false;
    }
    if (sort_count) {
        const uint64_t c = n;
        memcpy(out, &c, sizeof c);
    }
    bad = verify_app_mismatches(kind, type, n, kind == SL_KIND_SORT ? 0 : param, ref, out, &first);
    if (bad)
        fprintf(stderr, "scanlab: bench: %s %s n=%zu: %zu outputs differ from the reference (the first at %zu); "
                "not timed\n", who, verify_type_name(type), n, bad, first);
    return bad == 0;
}

double cb_app_bound(sl_algo_kind family, sl_type type, size_t n, uint64_t count)
{
    const double elem = SL_TYPE_SIZE(type), nn = n ? (double)n : 1.0;
    switch (family) {
    case SL_KIND_COMPACT: return 1.0 + (double)count / nn;
    case SL_KIND_SORT: return 1.0 + 2.0 * elem; /* 8-bit digits: elem passes */
    case SL_KIND_PACK: return 1.0 + (double)count * (double)sizeof(int64_t) / (nn * elem);
    default: return 2.0;
    }
}

sl_status cb_app_count(cb_app_refs *r, sl_algo_kind family, sl_type type, size_t n, int param, const void *in,
                       uint64_t *count)
{
    const unsigned char *ref = reference(r, cb_app_cub_kind(family), type, n, param, in);
    if (!ref)
        return SL_ERR_NOMEM;
    memcpy(count, ref, sizeof *count);
    return SL_OK;
}

size_t cb_app_defined_bytes(sl_algo_kind family, sl_type type, size_t n, uint64_t count)
{
    switch (family) {
    case SL_KIND_COMPACT: return (size_t)count * SL_TYPE_SIZE(type);
    case SL_KIND_PACK: return (size_t)count * sizeof(int64_t);
    default: return n * SL_TYPE_SIZE(type);
    }
}
