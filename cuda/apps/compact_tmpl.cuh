/* Stream compaction in one pass: keep the elements that satisfy the
 * predicate (cuda/apps/app_defs.h: odd integers, positive floats), in
 * input order, reading the input once and writing each kept element once
 * (cuda/apps/select_pass.cuh: per tile count, publish, look back,
 * scatter). compact-3phase is the textbook version (count, scan of the
 * counts, scatter: three launches, the input read twice).
 * Output: cuda/apps/app_defs.h (a count, then the kept elements).
 *
 * Template: compiled once per (T, TN, OPN) through cuda/inst_all.h. */
#define SL_SEL_PARTITION 0
#include "cuda/apps/select_pass.cuh"
#undef SL_SEL_PARTITION

/* Host driver: a->block threads (a multiple of 32, at most 512, default
 * 128), a->param items per thread (default 24 for 4-byte types, 12 for
 * 8-byte ones). */
SL_HOST sl_status SL_KN(compact)(const sl_kargs *a)
{
    return SL_KN(sel_host)(a);
}
