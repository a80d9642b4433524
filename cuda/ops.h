/* The catalogue of element types and scan operators, shared by every backend.
 *
 * Compiled by the C compiler (cpu/, model/, verify/) and by nvcc (kernels), so
 * everything here is a header-only inline function marked SL_HD.
 *
 * Operators are applied as op(earlier, later): a scan computes
 * y_i = x_0 op x_1 op ... op x_i, and a kernel that swaps the operands is
 * wrong for a non-commutative operator even when it passes for add.
 *
 * Integer add wraps around (two's complement), computed in unsigned
 * arithmetic so that overflow is defined behaviour in C.
 *
 * affine: an integer element of W bits holds the affine map x -> a*x + b over
 * the integers modulo 2^(W/2), with a in the high half and b in the low half
 * (i64 elements carry uint32 pairs, i32 elements uint16 pairs). op(f, g) is
 * "f, then g": (g.a*f.a, g.a*f.b + g.b). Associative, not commutative, exact
 * with wrap-around; identity is a = 1, b = 0.
 */
#ifndef SCANLAB_OPS_H
#define SCANLAB_OPS_H

#include <stdint.h>
#include <stddef.h>

#ifdef __CUDACC__
#define SL_HD __host__ __device__ __forceinline__
#else
#define SL_HD static inline
#endif

#define SL_CAT2_(a, b) a##b
#define SL_CAT2(a, b) SL_CAT2_(a, b)
#define SL_CAT4_(a, b, c, d) a##b##c##d
#define SL_CAT4(a, b, c, d) SL_CAT4_(a, b, c, d)

typedef enum { SL_I32, SL_I64, SL_F32, SL_F64, SL_TYPE_COUNT } sl_type;
typedef enum { SL_ADD, SL_MAX, SL_MIN, SL_AFFINE, SL_OP_COUNT } sl_op;

/* --- add ---------------------------------------------------------------- */
SL_HD int32_t sl_add_i32(int32_t a, int32_t b) { return (int32_t)((uint32_t)a + (uint32_t)b); }
SL_HD int64_t sl_add_i64(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
SL_HD float sl_add_f32(float a, float b) { return a + b; }
SL_HD double sl_add_f64(double a, double b) { return a + b; }
SL_HD int32_t sl_id_add_i32(void) { return 0; }
SL_HD int64_t sl_id_add_i64(void) { return 0; }
SL_HD float sl_id_add_f32(void) { return 0.0f; }
SL_HD double sl_id_add_f64(void) { return 0.0; }

/* --- max / min: the later operand wins ties, so the result never depends on
 * which of two equal values came first. Floats propagate NaN, as IEEE
 * 754-2019 maximum/minimum do: a NaN operand (quiet or signalling, any sign
 * or payload) makes the result a NaN. A scan of max is therefore NaN from
 * the first NaN element on. Unlike maxNum (the GPU's fmaxf, which ignores a
 * NaN operand), this keeps -inf an identity for every element, NaN
 * included, and the operator associative: every backend and association
 * order gives a NaN at the same outputs. Which NaN (its payload and sign)
 * is not promised; scanlab compares any NaN equal to any NaN. ----------- */
SL_HD int32_t sl_max_i32(int32_t a, int32_t b) { return b >= a ? b : a; }
SL_HD int64_t sl_max_i64(int64_t a, int64_t b) { return b >= a ? b : a; }
SL_HD float sl_max_f32(float a, float b) { return b >= a || b != b ? b : a; }
SL_HD double sl_max_f64(double a, double b) { return b >= a || b != b ? b : a; }
SL_HD int32_t sl_min_i32(int32_t a, int32_t b) { return b <= a ? b : a; }
SL_HD int64_t sl_min_i64(int64_t a, int64_t b) { return b <= a ? b : a; }
SL_HD float sl_min_f32(float a, float b) { return b <= a || b != b ? b : a; }
SL_HD double sl_min_f64(double a, double b) { return b <= a || b != b ? b : a; }
SL_HD int32_t sl_id_max_i32(void) { return INT32_MIN; }
SL_HD int64_t sl_id_max_i64(void) { return INT64_MIN; }
SL_HD float sl_id_max_f32(void) { return -__builtin_inff(); }
SL_HD double sl_id_max_f64(void) { return -__builtin_inf(); }
SL_HD int32_t sl_id_min_i32(void) { return INT32_MAX; }
SL_HD int64_t sl_id_min_i64(void) { return INT64_MAX; }
SL_HD float sl_id_min_f32(void) { return __builtin_inff(); }
SL_HD double sl_id_min_f64(void) { return __builtin_inf(); }

/* --- affine ------------------------------------------------------------- */
SL_HD int64_t sl_affine_i64(int64_t f, int64_t g)
{
    uint32_t fa = (uint32_t)((uint64_t)f >> 32), fb = (uint32_t)f;
    uint32_t ga = (uint32_t)((uint64_t)g >> 32), gb = (uint32_t)g;
    uint32_t a = ga * fa, b = ga * fb + gb;
    return (int64_t)(((uint64_t)a << 32) | b);
}
SL_HD int32_t sl_affine_i32(int32_t f, int32_t g)
{
    uint32_t fa = (uint32_t)f >> 16, fb = (uint32_t)f & 0xffffu;
    uint32_t ga = (uint32_t)g >> 16, gb = (uint32_t)g & 0xffffu;
    uint32_t a = (ga * fa) & 0xffffu, b = (ga * fb + gb) & 0xffffu;
    return (int32_t)((a << 16) | b);
}
SL_HD int32_t sl_id_affine_i32(void) { return (int32_t)(1u << 16); }
SL_HD int64_t sl_id_affine_i64(void) { return (int64_t)(UINT64_C(1) << 32); }

/* Element sizes, indexed by sl_type. */
#define SL_TYPE_SIZE(t) ((t) == SL_I32 || (t) == SL_F32 ? 4u : 8u)
#define SL_TYPE_IS_FLOAT(t) ((t) == SL_F32 || (t) == SL_F64)
/* affine is defined on the integer types only. */
#define SL_OP_APPLIES(op, t) ((op) != SL_AFFINE || !SL_TYPE_IS_FLOAT(t))

/* Every (type, operator) pair of the catalogue, as X(C type, type token, op
 * token, sl_type, sl_op). Code that instantiates templates or builds dispatch
 * tables walks this list, so a new pair is added here only. */
#define SL_FOR_EACH_TYPE_OP(X)                                 \
    X(int32_t, i32, add, SL_I32, SL_ADD)                       \
    X(int32_t, i32, max, SL_I32, SL_MAX)                       \
    X(int32_t, i32, min, SL_I32, SL_MIN)                       \
    X(int32_t, i32, affine, SL_I32, SL_AFFINE)                 \
    X(int64_t, i64, add, SL_I64, SL_ADD)                       \
    X(int64_t, i64, max, SL_I64, SL_MAX)                       \
    X(int64_t, i64, min, SL_I64, SL_MIN)                       \
    X(int64_t, i64, affine, SL_I64, SL_AFFINE)                 \
    X(float, f32, add, SL_F32, SL_ADD)                         \
    X(float, f32, max, SL_F32, SL_MAX)                         \
    X(float, f32, min, SL_F32, SL_MIN)                         \
    X(double, f64, add, SL_F64, SL_ADD)                        \
    X(double, f64, max, SL_F64, SL_MAX)                        \
    X(double, f64, min, SL_F64, SL_MIN)

/* Inside a template (*_tmpl.c / *_tmpl.cuh) compiled with T, TN and OPN
 * defined: the operator, its identity, and a name suffixed by the
 * instantiation (SL_FN(scan) -> scan_i32_add). */
#define SL_APPLY(a, b) SL_CAT4(sl_, OPN, _, TN)(a, b)
#define SL_IDENTITY() SL_CAT4(sl_id_, OPN, _, TN)()
#define SL_FN(name) SL_CAT4(name, _, TN, SL_CAT2(_, OPN))

#endif
