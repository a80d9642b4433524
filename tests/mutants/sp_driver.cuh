/* A copy of cuda/device/single_pass.cuh with the mutation point of the
 * mutant ct-block-id; with MUT_SP_BLOCK_ID undefined it is the catalogue's
 * driver. The catalogue's description follows.
 *
 * The kernel and host driver shared by the single-pass scans
 * (chained-static, chained-ticket, lookback, lookback-det): each block
 * scans tiles in registers (tile_scan.cuh) and gets every tile's prefix
 * from the tiles before it through the protocol of tile_status.cuh.
 *
 * Which tile a block scans:
 *   by ticket: persistent blocks (as many as the GPU holds at once) draw
 *     tiles from an atomic counter. A block draws its next ticket when it
 *     starts a tile, so the atomic's latency hides behind the tile's loads
 *     and the next tile's loads start as soon as this tile is stored. A
 *     block waits only for tiles drawn by blocks that are running, which
 *     wait only for lower tiles: no dispatch order can deadlock it.
 *   by block: tile = blockIdx.x, one block per tile (chained-static).
 *
 * The including template includes tile_scan.cuh and tile_status.cuh (once
 * per instantiation: they define per-type functions) and defines, before
 * including this file,
 *
 *   SL_DEVICE T SL_KN(tile_prefix)(sl_tile_status ts, size_t tile, T total, T *sh, int *have);
 *
 * called by every thread of the block after the tile's reduction (total =
 * the tile's aggregate): it publishes what the tile owes its successors,
 * returns the combination of every element before the tile (*have = 0 for
 * tile 0), and ends with a barrier. sh is a shared array of 2 elements. */
#ifndef MUT_SP_DRIVER_H
#define MUT_SP_DRIVER_H
/* A single-pass driver's settings. */
typedef struct {
    sl_tile_geom g;
    int by_block; /* tile = blockIdx.x (else tickets, persistent blocks) */
    int windows;  /* the protocol keeps window words (lookback-det) */
    int adversary; /* SL_ADVERSARY_* */
} sl_sp_cfg;
/* Back-off rounds of a block that emulates a late start (SL_ADVERSARY_LATE)
 * and the nanoseconds of each: about 0.6 ms on the GPU, long enough for
 * every other resident block to take its first tiles. */
#define SL_SP_LATE_ROUNDS 64
#define SL_SP_LATE_NS 10000
#endif

SL_GLOBAL_BOUNDED(SL_TILE_MAX_THREADS, 1)
SL_KN(sp_scan)(const T *in, T *out, size_t n, int exclusive, unsigned items, sl_tile_status ts, int by_block,
               int adversary)
{
    SHARED_DYN(T, stage_all);
    SHARED(T, wsum, SL_MAX_BLOCK_THREADS / SL_WARP_SIZE);
    SHARED(T, sh, 2);
    SHARED(uint32_t, next, 2);
    T *stage = stage_all + WARP_ID() * SL_TILE_STAGE_ELEMS(items, sizeof(T));
    const size_t tile_elems = (size_t)blockDim.x * items;
    const int first = threadIdx.x == 0;
    /* an adversarial dispatch, emulated: a block-numbered scan takes tiles
     * in the reverse of blockIdx (block b waits for block b + 1, which may
     * not be resident); ticketed blocks of the first half start late */
    size_t tile = by_block && adversary == SL_ADVERSARY_REVERSED ? gridDim.x - 1 - blockIdx.x : blockIdx.x;
    if (!by_block && adversary == SL_ADVERSARY_LATE && blockIdx.x < gridDim.x / 2)
        for (int k = 0; k < SL_SP_LATE_ROUNDS; k++)
            NANOSLEEP(SL_SP_LATE_NS);
    if (!by_block) {
        if (first) {
#if defined(MUT_SP_BLOCK_ID)
            ST(next, 0, blockIdx.x); /* mutated: the block id for the first ticket */
#else
            ST(next, 0, sl_tile_ticket(ts));
#endif
            if (blockIdx.x == 0)
                sl_tile_ticket_prepare_next(ts);
        }
        SYNCTHREADS();
        tile = LD(next, 0);
    }
    for (unsigned par = 1; tile < ts.tiles; par ^= 1) {
        T x[SL_TILE_MAXI];
        const size_t base = tile * tile_elems;
        /* the next ticket is drawn first and used only after this tile */
        uint32_t ticket = 0;
        if (!by_block && first)
#if defined(MUT_SP_BLOCK_ID)
            ticket = (uint32_t)(tile + gridDim.x); /* mutated: and a grid stride for the next ones */
#else
            ticket = sl_tile_ticket(ts);
#endif
        SL_KN(tile_load)(in, base, n, items, stage, x);
        if (!by_block && first)
            ST(next, par, ticket);
        const SL_FN(sl_tile_pos) pos = SL_KN(tile_block_reduce)(x, items, wsum);
        int have = 0;
        const T prefix = SL_KN(tile_prefix)(ts, tile, pos.total, sh, &have);
        SL_KN(tile_thread_scan)(x, x, items, exclusive, prefix, have, pos);
        SL_KN(tile_store)(out, base, n, items, stage, x);
        if (by_block)
            break;
        tile = LD(next, par);
    }
}
SL_DEFINE_LAUNCH(SL_KN(sp_scan), (const T *, in), (T *, out), (size_t, n), (int, exclusive), (unsigned, items),
                 (sl_tile_status, ts), (int, by_block), (int, adversary))

/* The launch on device buffers: protocol memory, a persistent grid (or one
 * block per tile), the bounded waits' verdict. ctx is the sl_sp_cfg. */
static sl_status SL_KN(sp_dev)(const void *d_in, void *d_out, const sl_kargs *a, const void *ctx)
{
    const sl_sp_cfg *c = (const sl_sp_cfg *)ctx;
    const size_t tiles = sl_dev_tiles(a->n, c->g.tile);
    sl_tile_status ts;
    sl_status st = SL_OK;
    unsigned grid;
    memset(&ts, 0, sizeof ts);
    if (c->by_block && tiles > SL_DEV_MAX_GRID_X)
        return SL_ERR_ARG;
    SL_TRY(sl_tile_status_alloc(&ts, tiles, sizeof(T), c->windows));
    grid = c->by_block ? (unsigned)tiles
                       : sl_dev_grid(tiles, SL_RESIDENT_BLOCKS(SL_KN(sp_scan), c->g.block, c->g.shmem));
    SL_TRY(SL_LAUNCH(sp_scan)(sl_launch_1d(grid, c->g.block, c->g.shmem), (const T *)d_in, (T *)d_out, a->n,
                              a->exclusive ? 1 : 0, c->g.items, ts, c->by_block, a->adversary));
    SL_TRY(sl_tile_status_check(&ts));
done:
    sl_tile_status_free(&ts);
    return st;
}

/* Host side of a single-pass scan: a->block threads (a multiple of 32, 0 =
 * default_block), a->param items per thread (0 = the type's default). */
static sl_status SL_KN(sp_host)(const sl_kargs *a, unsigned default_block, int by_block, int windows)
{
    sl_sp_cfg c;
    c.by_block = by_block;
    c.windows = windows;
    if (sl_tile_geom_of(a->block, a->param, sizeof(T), default_block, &c.g) != SL_OK)
        return SL_ERR_ARG;
    if (a->n == 0)
        return SL_OK;
    return sl_host_run(a, sizeof(T), a->n, SL_KN(sp_dev), &c);
}
