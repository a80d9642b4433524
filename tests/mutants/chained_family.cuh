/* A copy of cuda/device/chained_prefix.cuh with the host driver of
 * cuda/device/chained_ticket_tmpl.cuh: the chained scan on persistent
 * blocks that draw their tiles from an atomic ticket, over copies of the
 * catalogue's tile (tile_scan_copy.cuh) and driver (sp_driver.cuh). Its
 * protocol is the copy of the packed tile-status words (sp_status.cuh: the
 * control ct and the mutants ct-*) or, with MUT_SPLIT, the split layout of
 * split_status.cuh (a flag word and a separate value per tile: the
 * controls and mutants split-*). Its one mutation point is ct-carry-swapped's. */
#include "tests/mutants/tile_scan_copy.cuh"
#if defined(MUT_SPLIT)
#include "tests/mutants/split_status.cuh"
#else
#include "tests/mutants/sp_status.cuh"
#endif

SL_DEVICE T SL_KN(tile_prefix)(sl_tile_status ts, size_t tile, T total, T *sh, int *have)
{
    *have = tile > 0;
    if (threadIdx.x == 0) {
        if (tile == 0) {
            SL_KN(tile_publish)(ts, ts.word, 0, SL_TILE_P, total);
        } else {
            const T prefix = SL_KN(tile_wait_prefix)(ts, ts.word, tile - 1);
#if defined(MUT_CT_CARRY_SWAPPED)
            SL_KN(tile_publish)(ts, ts.word, tile, SL_TILE_P, OP(total, prefix)); /* mutated: operands swapped */
#else
            SL_KN(tile_publish)(ts, ts.word, tile, SL_TILE_P, OP(prefix, total));
#endif
            ST(sh, 0, prefix);
        }
    }
    SYNCTHREADS();
    return *have ? LD(sh, 0) : total;
}

#include "tests/mutants/sp_driver.cuh"

SL_HOST sl_status SL_KN(MUT_NAME)(const sl_kargs *a)
{
    return SL_KN(sp_host)(a, SL_CHAINED_THREADS, 0, 0);
}
