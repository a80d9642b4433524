/* The applications built on scan (compact, partition, radix-sort, pack):
 * their definitions and output contract, shared by the CPU references
 * (cpu/apps.c), the kernels (cuda/apps/) and the harness. Header-only and
 * compiled by nvcc and the C compiler alike.
 *
 * Output contract (sl_scan_args.out for an application): a uint64_t count
 * followed, at byte offset SL_APP_HEADER_BYTES, by the output elements:
 *   compact    count = kept elements; then the kept elements, in order
 *   partition  count = kept elements; then all n elements: the kept ones,
 *              then the others, each group in input order (stable)
 *   radix-sort count = n; then the n elements in ascending total order
 *   pack       count = sum of c_i; then the records as int64_t
 * The caller provides room for sl_app_capacity() elements of
 * sl_app_elem_size() bytes after the header.
 *
 * Elements are handled as bit patterns (the low 4 or 8 bytes of a uint64_t)
 * so that one definition serves every type. */
#ifndef SCANLAB_APP_DEFS_H
#define SCANLAB_APP_DEFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuda/ops.h"

/* Bytes before the first output element: the uint64_t count. */
#define SL_APP_HEADER_BYTES 8u
/* pack: default and largest number of records per item (c_i in [0, K]). */
#define SL_APP_PACK_DEFAULT_K 4
#define SL_APP_PACK_MAX_K 255
/* pack: record j of item i is (i << SL_APP_PACK_SHIFT) | j. */
#define SL_APP_PACK_SHIFT 8
/* radix-sort: default and largest digit width in bits. */
#define SL_APP_RADIX_DEFAULT_BITS 4
#define SL_APP_RADIX_MAX_BITS 8

/* Sign bit of an element of `bytes` bytes (4 or 8). */
SL_HD uint64_t sl_app_sign_bit(unsigned bytes) { return (uint64_t)1 << (8 * bytes - 1); }
/* All value bits of an element of `bytes` bytes. */
SL_HD uint64_t sl_app_mask(unsigned bytes) { return bytes == 8 ? ~(uint64_t)0 : 0xffffffffu; }

/* The predicate of compact and partition: integers are kept when odd
 * (two's complement, so -3 is odd); floats when x > 0 (so -0.0, +0.0,
 * negatives and NaN are not kept). */
SL_HD bool sl_app_keep(uint64_t bits, bool is_float, unsigned bytes)
{
    if (!is_float)
        return (bits & 1u) != 0;
    const uint64_t sign = sl_app_sign_bit(bytes), mag = bits & (sign - 1);
    const uint64_t inf = bytes == 8 ? UINT64_C(0x7ff0000000000000) : UINT64_C(0x7f800000);
    return (bits & sign) == 0 && mag != 0 && mag <= inf;
}

/* The unsigned key whose ascending order is the ascending order of the
 * element: integers flip the sign bit; floats flip every bit of a negative
 * and the sign bit of a positive (the IEEE total order, -0.0 < +0.0). */
SL_HD uint64_t sl_app_sort_key(uint64_t bits, bool is_float, unsigned bytes)
{
    const uint64_t sign = sl_app_sign_bit(bytes);
    if (!is_float)
        return bits ^ sign;
    return (bits & sign) ? ~bits & sl_app_mask(bytes) : bits | sign;
}

/* pack: the number of records item i emits, c_i = bits mod (K + 1). */
SL_HD unsigned sl_app_pack_count(uint64_t bits, unsigned k) { return (unsigned)(bits % (k + 1u)); }

/* pack: record j of item i. */
SL_HD int64_t sl_app_pack_record(size_t i, unsigned j)
{
    return (int64_t)(((uint64_t)i << SL_APP_PACK_SHIFT) | j);
}

/* pack: K from the algorithm parameter (0 = default); 0 when invalid. */
SL_HD unsigned sl_app_pack_k(int param)
{
    if (param == 0)
        return SL_APP_PACK_DEFAULT_K;
    return param > 0 && param <= SL_APP_PACK_MAX_K ? (unsigned)param : 0;
}

/* radix-sort: digit width from the parameter (0 = default); 0 when invalid. */
SL_HD unsigned sl_app_radix_bits(int param)
{
    if (param == 0)
        return SL_APP_RADIX_DEFAULT_BITS;
    return param > 0 && param <= SL_APP_RADIX_MAX_BITS ? (unsigned)param : 0;
}

#endif
