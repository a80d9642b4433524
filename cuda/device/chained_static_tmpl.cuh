/* chained-static: the chained scan with tile = blockIdx.x (see
 * chained_body.cuh): block b waits for block b - 1, so it deadlocks when
 * blocks are dispatched out of order with fewer slots than blocks; the
 * wait is bounded (SL_ERR_TIMEOUT on the GPU).
 *
 * Template: compiled once per (T, TN, OPN) through cuda/inst_all.h. */
#include "cuda/device/chained_body.cuh"

/* Host driver: a->block threads per block (power of two, 32..1024,
 * default 256), one tile of a->block elements per block. */
SL_HOST sl_status SL_KN(chained_static)(const sl_kargs *a)
{
    return SL_KN(chained_host)(a, 0);
}
