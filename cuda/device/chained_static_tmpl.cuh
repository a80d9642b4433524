/* chained-static: the chained scan (chained_prefix.cuh) with tile =
 * blockIdx.x, one block per tile. Block b waits for block b - 1, which
 * CUDA does not promise to have been dispatched: with fewer residency
 * slots than blocks and an adverse dispatch order every resident block
 * waits for one that never starts (the simulator's explorer shows it). The
 * wait is bounded (SL_ERR_TIMEOUT on the GPU).
 *
 * Template: compiled once per (T, TN, OPN) through cuda/inst_all.h. */
#include "cuda/device/chained_prefix.cuh"

/* Host driver: a->block threads (a multiple of 32, default 384), a->param
 * items per thread (default 24 for 4-byte types, 12 for 8-byte types). */
SL_HOST sl_status SL_KN(chained_static)(const sl_kargs *a)
{
    return SL_KN(sp_host)(a, SL_CHAINED_THREADS, 1, 0);
}
