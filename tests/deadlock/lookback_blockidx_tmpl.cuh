/* Planted mutant for the deadlock tests: the decoupled look-back scan of
 * cuda/device/lookback_tmpl.cuh, except that each block scans the tile
 * numbered blockIdx.x (one block per tile) instead of drawing its tile
 * from the atomic ticket. Block b then waits for the aggregates of tiles
 * below b, whose blocks CUDA need not have dispatched: with fewer
 * residency slots than blocks, obe allows a schedule where every resident
 * block waits on a block that never starts. `scanlab deadlock` must find
 * it.
 *
 * Template: compiled once per (T, TN, OPN) through cuda/inst_all.h. */

/* The original's host driver comes along under another name (unused: the
 * catalogue's lookback defines its own). */
#define lookback lookback_original
#include "cuda/device/lookback_tmpl.cuh"
#undef lookback

SL_HOST sl_status SL_KN(lookback_blockidx)(const sl_kargs *a)
{
    /* the planted bug: by_block = 1, tile = blockIdx.x */
    return SL_KN(sp_host)(a, SL_TILE_THREADS, 1, 0);
}
