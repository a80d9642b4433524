/* Includes the template named by SL_TMPL once for every (type, operator) pair
 * of the catalogue (the list in ops.h), with T, TN and OPN defined. A file
 * that wants only one type defines SL_ONLY_TN to that type's token number:
 * 1 i32, 2 i64, 3 f32, 4 f64. Generated to match SL_FOR_EACH_TYPE_OP. */
#include "ops.h"

#if !defined(SL_ONLY_TN) || SL_ONLY_TN == 1
#define T int32_t
#define TN i32
#define OPN add
#include SL_TMPL
#undef T
#undef TN
#undef OPN
#endif
#if !defined(SL_ONLY_TN) || SL_ONLY_TN == 1
#define T int32_t
#define TN i32
#define OPN max
#include SL_TMPL
#undef T
#undef TN
#undef OPN
#endif
#if !defined(SL_ONLY_TN) || SL_ONLY_TN == 1
#define T int32_t
#define TN i32
#define OPN min
#include SL_TMPL
#undef T
#undef TN
#undef OPN
#endif
#if !defined(SL_ONLY_TN) || SL_ONLY_TN == 1
#define T int32_t
#define TN i32
#define OPN affine
#include SL_TMPL
#undef T
#undef TN
#undef OPN
#endif
#if !defined(SL_ONLY_TN) || SL_ONLY_TN == 2
#define T int64_t
#define TN i64
#define OPN add
#include SL_TMPL
#undef T
#undef TN
#undef OPN
#endif
#if !defined(SL_ONLY_TN) || SL_ONLY_TN == 2
#define T int64_t
#define TN i64
#define OPN max
#include SL_TMPL
#undef T
#undef TN
#undef OPN
#endif
#if !defined(SL_ONLY_TN) || SL_ONLY_TN == 2
#define T int64_t
#define TN i64
#define OPN min
#include SL_TMPL
#undef T
#undef TN
#undef OPN
#endif
#if !defined(SL_ONLY_TN) || SL_ONLY_TN == 2
#define T int64_t
#define TN i64
#define OPN affine
#include SL_TMPL
#undef T
#undef TN
#undef OPN
#endif
#if !defined(SL_ONLY_TN) || SL_ONLY_TN == 3
#define T float
#define TN f32
#define OPN add
#include SL_TMPL
#undef T
#undef TN
#undef OPN
#endif
#if !defined(SL_ONLY_TN) || SL_ONLY_TN == 3
#define T float
#define TN f32
#define OPN max
#include SL_TMPL
#undef T
#undef TN
#undef OPN
#endif
#if !defined(SL_ONLY_TN) || SL_ONLY_TN == 3
#define T float
#define TN f32
#define OPN min
#include SL_TMPL
#undef T
#undef TN
#undef OPN
#endif
#if !defined(SL_ONLY_TN) || SL_ONLY_TN == 4
#define T double
#define TN f64
#define OPN add
#include SL_TMPL
#undef T
#undef TN
#undef OPN
#endif
#if !defined(SL_ONLY_TN) || SL_ONLY_TN == 4
#define T double
#define TN f64
#define OPN max
#include SL_TMPL
#undef T
#undef TN
#undef OPN
#endif
#if !defined(SL_ONLY_TN) || SL_ONLY_TN == 4
#define T double
#define TN f64
#define OPN min
#include SL_TMPL
#undef T
#undef TN
#undef OPN
#endif
