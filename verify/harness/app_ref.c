#include "verify/harness/app_ref.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "cpu/apps.h"
#include "cuda/apps/app_defs.h"

sl_status verify_app_layout(sl_algo_kind kind, sl_type t, size_t n, int param, size_t *elem,
                            size_t *cap)
{
    if (!SL_KIND_IS_APP(kind) || t >= SL_TYPE_COUNT)
        return SL_ERR_ARG;
    *elem = SL_TYPE_SIZE(t);
    *cap = n;
    if (kind == SL_KIND_SORT && sl_app_radix_bits(param) == 0)
        return SL_ERR_ARG;
    if (kind == SL_KIND_PACK) {
        unsigned k = sl_app_pack_k(param);
        if (k == 0)
            return SL_ERR_ARG;
        *elem = sizeof(int64_t);
        if (n > (SIZE_MAX - SL_APP_HEADER_BYTES) / sizeof(int64_t) / k)
            return SL_ERR_NOMEM;
        *cap = n * k;
    }
    if (*cap > (SIZE_MAX - SL_APP_HEADER_BYTES) / *elem)
        return SL_ERR_NOMEM;
    return SL_OK;
}

size_t verify_app_out_bytes(sl_algo_kind kind, sl_type t, size_t n, int param)
{
    size_t elem = 0, cap = 0;
    if (verify_app_layout(kind, t, n, param, &elem, &cap) != SL_OK)
        return 0;
    return SL_APP_HEADER_BYTES + cap * elem;
}

/* Reverses count elements of elem bytes in place. */
static void reverse_elements(unsigned char *p, size_t count, size_t elem)
{
    unsigned char tmp[8];
    for (size_t i = 0, j = count; i + 1 < j; i++, j--) {
        memcpy(tmp, p + i * elem, elem);
        memcpy(p + i * elem, p + (j - 1) * elem, elem);
        memcpy(p + (j - 1) * elem, tmp, elem);
    }
}

sl_status verify_app_reference(sl_algo_kind kind, sl_type t, const void *in, size_t n, int param,
                               void *out)
{
    size_t elem = 0, cap = 0, count = 0;
    sl_status st = verify_app_layout(kind, t, n, param, &elem, &cap);
    if (st != SL_OK)
        return st;
    unsigned char *data = (unsigned char *)out + SL_APP_HEADER_BYTES;
    switch (kind) {
    case SL_KIND_COMPACT:
        st = cpu_compact(t, in, n, data, &count);
        break;
    case SL_KIND_PARTITION:
        st = cpu_partition(t, in, n, data, &count);
        break;
    case SL_KIND_PARTITION_REV:
        st = cpu_partition(t, in, n, data, &count);
        if (st == SL_OK)
            reverse_elements(data + count * elem, n - count, elem);
        break;
    case SL_KIND_SORT:
        st = cpu_sort(t, in, n, data);
        count = n;
        break;
    default:
        st = cpu_pack(t, in, n, sl_app_pack_k(param), (int64_t *)(void *)data, cap, &count);
        break;
    }
    uint64_t c = count;
    memcpy(out, &c, sizeof c);
    return st;
}

size_t verify_app_mismatches(sl_algo_kind kind, sl_type t, size_t n, int param, const void *ref,
                             const void *got, size_t *first_bad)
{
    size_t elem = 0, cap = 0, bad = 0;
    uint64_t want, have;
    if (verify_app_layout(kind, t, n, param, &elem, &cap) != SL_OK)
        return 0;
    memcpy(&want, ref, sizeof want);
    memcpy(&have, got, sizeof have);
    *first_bad = 0;
    if (want != have)
        bad++;
    size_t defined = sl_app_defines_all(kind) ? n : (size_t)(want < have ? want : have);
    const unsigned char *r = (const unsigned char *)ref + SL_APP_HEADER_BYTES;
    const unsigned char *g = (const unsigned char *)got + SL_APP_HEADER_BYTES;
    bool seen = false;
    for (size_t i = 0; i < defined && i < cap; i++)
        if (memcmp(r + i * elem, g + i * elem, elem) != 0) {
            if (!seen)
                *first_bad = i;
            seen = true;
            bad++;
        }
    return bad;
}
