/* chained-ticket: the chained scan (chained_prefix.cuh) with each block's
 * tile drawn from an atomic counter (single_pass.cuh): a block waits only
 * for tiles drawn by blocks that are running, so no dispatch order can
 * deadlock it.
 *
 * Template: compiled once per (T, TN, OPN) through cuda/inst_all.h. */
#include "cuda/device/chained_prefix.cuh"

/* Host driver: a->block threads (a multiple of 32, default 384), a->param
 * items per thread (default 24 for 4-byte types, 12 for 8-byte types). */
SL_HOST sl_status SL_KN(chained_ticket)(const sl_kargs *a)
{
    return SL_KN(sp_host)(a, SL_CHAINED_THREADS, 0, 0);
}
