/* chained-ticket: the chained scan with tiles handed out by an atomic
 * counter (see chained_body.cuh): a block waits only for tiles taken by
 * blocks already running, so no dispatch order can deadlock it.
 *
 * Template: compiled once per (T, TN, OPN) through cuda/inst_all.h. */
#include "cuda/device/chained_body.cuh"

/* Host driver: a->block threads per block (power of two, 32..1024,
 * default 256), one tile of a->block elements per block. */
SL_HOST sl_status SL_KN(chained_ticket)(const sl_kargs *a)
{
    return SL_KN(chained_host)(a, 1);
}
