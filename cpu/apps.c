#include "apps.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/apps/app_defs.h"

/* Element i of in as a bit pattern (low bytes of a uint64_t). */
static uint64_t bits_at(const void *in, size_t i, unsigned es)
{
    uint64_t b = 0;
    memcpy(&b, (const unsigned char *)in + i * es, es);
    return b;
}

static bool valid(sl_type t, const void *in, size_t n, const void *out)
{
    return t < SL_TYPE_COUNT && (n == 0 || (in != NULL && out != NULL));
}

/* Copies the elements with keep == want, in order, to out; returns how many. */
static size_t select_kept(sl_type t, const void *in, size_t n, bool want, unsigned char *out)
{
    const unsigned es = SL_TYPE_SIZE(t);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (sl_app_keep(bits_at(in, i, es), SL_TYPE_IS_FLOAT(t), es) == want)
            memcpy(out + es * m++, (const unsigned char *)in + i * es, es);
    return m;
}

sl_status cpu_compact(sl_type t, const void *in, size_t n, void *out, size_t *count)
{
    if (!valid(t, in, n, out) || !count)
        return SL_ERR_ARG;
    *count = select_kept(t, in, n, true, out);
    return SL_OK;
}

sl_status cpu_partition(sl_type t, const void *in, size_t n, void *out, size_t *count)
{
    if (!valid(t, in, n, out) || !count)
        return SL_ERR_ARG;
    *count = select_kept(t, in, n, true, out);
    select_kept(t, in, n, false, (unsigned char *)out + *count * SL_TYPE_SIZE(t));
    return SL_OK;
}

/* qsort comparators on the total-order key; equal keys are equal bit
 * patterns (the key is a bijection), so stability cannot be observed. */
#define KEY_CMP(name, U, IS_FLOAT)                                      \
    static int name(const void *a, const void *b)                       \
    {                                                                   \
        U x, y;                                                         \
        memcpy(&x, a, sizeof x);                                        \
        memcpy(&y, b, sizeof y);                                        \
        uint64_t kx = sl_app_sort_key(x, IS_FLOAT, sizeof x);           \
        uint64_t ky = sl_app_sort_key(y, IS_FLOAT, sizeof y);           \
        return (kx > ky) - (kx < ky);                                   \
    }
KEY_CMP(cmp_i32, uint32_t, false)
KEY_CMP(cmp_i64, uint64_t, false)
KEY_CMP(cmp_f32, uint32_t, true)
KEY_CMP(cmp_f64, uint64_t, true)

sl_status cpu_sort(sl_type t, const void *in, size_t n, void *out)
{
    static int (*const cmp[SL_TYPE_COUNT])(const void *, const void *) = {
        [SL_I32] = cmp_i32, [SL_I64] = cmp_i64, [SL_F32] = cmp_f32, [SL_F64] = cmp_f64};
    if (!valid(t, in, n, out))
        return SL_ERR_ARG;
    if (n == 0)
        return SL_OK;
    memmove(out, in, n * SL_TYPE_SIZE(t));
    qsort(out, n, SL_TYPE_SIZE(t), cmp[t]);
    return SL_OK;
}

sl_status cpu_pack(sl_type t, const void *in, size_t n, unsigned k, int64_t *out, size_t cap,
                   size_t *count)
{
    if (t >= SL_TYPE_COUNT || (n && !in) || !count || k < 1 || k > SL_APP_PACK_MAX_K)
        return SL_ERR_ARG;
    const unsigned es = SL_TYPE_SIZE(t);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned c = sl_app_pack_count(bits_at(in, i, es), k);
        if (c > cap - m)
            return SL_ERR_NOMEM;
        for (unsigned j = 0; j < c; j++)
            out[m++] = sl_app_pack_record(i, j);
    }
    *count = m;
    return SL_OK;
}
