/* The kernel and host driver shared by the single-pass scans
 * (chained-static, chained-ticket, lookback, lookback-det): each block
 * scans tiles in registers (tile_scan.cuh) and gets every tile's prefix
 * from the tiles before it through the protocol of tile_status.cuh.
 *
 * Which tile a block scans:
 *   by ticket: tiles go to blocks in the order they ask, from an atomic
 *     counter: a block waits only for tiles drawn by blocks that are
 *     running, which wait only for lower tiles, and no dispatch order can
 *     deadlock it. The blocks are persistent on the GPU (as many as it
 *     holds at once, each scanning tiles until the counter passes the
 *     last): thread 0 draws the block's next tile as soon as the current
 *     one has its prefix, so the atomic's round trip overlaps the tile's
 *     scan and stores, and the tile drawn is started right after them. (A
 *     ticket drawn earlier, as the current tile starts, was measured
 *     slower on the H100: a tile then waited for a predecessor held by a
 *     block still busy with its previous tile; docs/performance.md.) A
 *     grid of a block per tile (up to as many tiles as the GPU holds
 *     blocks) draws one ticket a block. The simulator runs a block per
 *     tile unless the run sets its occupancy (the deadlock explorer's
 *     blocks): more blocks than resident slots is the harder case for the
 *     protocol.
 *   pipelined (persistent ticketed blocks of two tiles a block or more,
 *     of a protocol that defines SL_SP_PIPELINE, where two staging areas
 *     fit): a block keeps two tiles in flight. It loads and reduces its
 *     next tile b and publishes what b owes its successors before it waits
 *     for the prefix of the tile a drawn before b, whose items wait in the
 *     other staging area; then it scans and stores a. So a block moves
 *     data while its look-back's predecessors publish, where it slept
 *     before (on the H100: 0.85 -> 0.89 of a device copy at 2^28 for
 *     4-byte types; docs/performance.md). Deadlock-free as above: a drawn
 *     tile publishes its aggregate after its own loads alone, and a block
 *     waits before it goes back to tile a for nothing but such aggregates
 *     of tiles drawn before b.
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
 * tile 0), and ends with a barrier. sh is a shared array of 2 elements. A
 * protocol that can be pipelined splits it in two, defines SL_SP_PIPELINE
 * and tile_prefix to do what the one followed by the other does:
 *
 *   SL_DEVICE void SL_KN(tile_publish_own)(sl_tile_status ts, size_t tile, T total);
 *   SL_DEVICE T SL_KN(tile_resolve)(sl_tile_status ts, size_t tile, T total, T *sh, int *have);
 *
 * the first, as soon as the tile is reduced, its aggregate (before any
 * wait) and what needs no more than the aggregates of tiles drawn before
 * it (lookback-det's window aggregate); the second the rest, as
 * tile_prefix. */
#ifndef SCANLAB_SINGLE_PASS_H
#define SCANLAB_SINGLE_PASS_H
/* A single-pass driver's settings. */
typedef struct {
    sl_tile_geom g;
    int by_block; /* tile = blockIdx.x (else a ticket per block) */
    int windows;  /* the protocol keeps window words (lookback-det) */
    int adversary; /* SL_ADVERSARY_* */
    const void *carry; /* the protocol's carry (sl_tile_status.carry), or NULL */
} sl_sp_cfg;
/* Back-off rounds of a block that emulates a late start (SL_ADVERSARY_LATE)
 * and the nanoseconds of each: about 0.6 ms on the GPU, long enough for
 * every other resident block to take its first tiles. */
#define SL_SP_LATE_ROUNDS 64
#define SL_SP_LATE_NS 10000
#endif

/* Thread 0's ticket k to every thread of the block, through a shared
 * word and a barrier. Every warp reads it before the block's next barrier,
 * and thread 0 writes the next one only behind that barrier. */
SL_DEVICE uint32_t SL_KN(sp_share_ticket)(uint32_t *ticket, int first, uint32_t k)
{
    if (first)
        ST(ticket, 0, k);
    SYNCTHREADS();
    return LD(ticket, 0);
}

#if defined(SL_SP_PIPELINE)
/* A pipelined block's work from its first drawn tile b (above): stages
 * are the calling warp's two staging areas; wsum, sh and ticket the
 * block's shared arrays of sp_tile. Tile a is the one drawn before b,
 * reduced and published, its items in stages[cur ^ 1]. */
SL_DEVICE void SL_KN(sp_pipeline)(const T *in, T *out, size_t n, int exclusive, unsigned items, sl_tile_status ts,
                                  size_t b, T *const *stages, T *wsum, T *sh, uint32_t *ticket)
{
    const size_t tile_elems = (size_t)blockDim.x * items;
    const int first = threadIdx.x == 0;
    size_t a = 0;
    int have_a = 0;
    unsigned cur = 0;
    SL_FN(sl_tile_pos) pos_a;
    pos_a.excl = IDENTITY();
    pos_a.have = 0;
    pos_a.total = IDENTITY();
    /* one register tile for b, then a: set once, as the compilers cannot
     * see that no item past `items` is read */
    T x[SL_TILE_MAXI];
    SL_UNROLL
    for (unsigned k = 0; k < SL_TILE_MAXI; k++)
        x[k] = IDENTITY();
    for (;;) {
        /* b's loads, reduction and publication wait for no other block */
        const int have_b = b < ts.tiles;
        SL_FN(sl_tile_pos) pos_b = pos_a;
        if (have_b) {
            SL_KN(tile_load)(in, b * tile_elems, n, items, stages[cur], x);
            pos_b = SL_KN(tile_block_reduce)(x, items, wsum);
            SL_KN(tile_publish_own)(ts, b, pos_b.total);
        }
        /* the tile after b, drawn once a has its prefix (as in sp_tile) */
        uint32_t next = 0;
        if (have_a) {
            int have = 0;
            const T prefix = SL_KN(tile_resolve)(ts, a, pos_a.total, sh, &have);
            if (first && have_b)
                next = sl_tile_ticket(ts);
            SL_KN(tile_stage_read)(stages[cur ^ 1], items, x);
            SL_KN(tile_thread_scan)(x, x, items, exclusive, prefix, have, pos_a);
            SL_KN(tile_store)(out, a * tile_elems, n, items, stages[cur ^ 1], x);
        } else if (first && have_b) {
            next = sl_tile_ticket(ts);
        }
        if (!have_b)
            break;
        a = b;
        pos_a = pos_b;
        have_a = 1;
        cur ^= 1;
        b = SL_KN(sp_share_ticket)(ticket, first, next);
    }
}
#endif

/* A block's work: its tile, drawn or numbered, scanned. */
SL_DEVICE void SL_KN(sp_tile)(const T *in, T *out, size_t n, int exclusive, unsigned items, sl_tile_status ts,
                              int by_block, int adversary, int pipe)
{
    SHARED_DYN(T, stage_all);
    SHARED(T, wsum, SL_MAX_BLOCK_THREADS / SL_WARP_SIZE);
    SHARED(T, sh, 2);
    SHARED(uint32_t, ticket, 1);
    T *stage = stage_all + WARP_ID() * SL_TILE_STAGE_ELEMS(items, sizeof(T));
    (void)pipe;
    const size_t tile_elems = (size_t)blockDim.x * items;
    const int first = threadIdx.x == 0;
    /* an adversarial dispatch, emulated: a block-numbered scan takes tiles
     * in the reverse of blockIdx (block b waits for block b + 1, which may
     * not be resident); ticketed blocks of the first half start late */
    size_t tile = 0;
    if (by_block)
        tile = adversary == SL_ADVERSARY_REVERSED ? gridDim.x - 1 - blockIdx.x : blockIdx.x;
    else if (adversary == SL_ADVERSARY_LATE && blockIdx.x < gridDim.x / 2)
        for (int k = 0; k < SL_SP_LATE_ROUNDS; k++)
            NANOSLEEP(SL_SP_LATE_NS); /* not reached by verify: the GPU tests' emulated late start */
    /* a ticketed block reads no blockIdx (but to emulate a late start):
     * the simulator tells such grids from block-numbered ones */
    if (!by_block) {
        uint32_t k = 0;
        if (first) {
            k = sl_tile_ticket(ts);
            if (k == 0) /* one block, whichever draws the first tile */
                sl_tile_ticket_prepare_next(ts);
        }
        tile = SL_KN(sp_share_ticket)(ticket, first, k);
    }
    /* a ticketed grid of fewer blocks than tiles (persistent blocks):
     * each block scans tiles until the counter passes the last (which
     * may happen before a late block's first draw) */
#if defined(SL_SP_PIPELINE)
    if (pipe) {
        T *const stages[2] = {stage, stage + (blockDim.x / SL_WARP_SIZE) * SL_TILE_STAGE_ELEMS(items, sizeof(T))};
        SL_KN(sp_pipeline)(in, out, n, exclusive, items, ts, tile, stages, wsum, sh, ticket);
        return;
    }
#endif
    const int more = !by_block && gridDim.x < ts.tiles;
    while (by_block || tile < ts.tiles) {
        T x[SL_TILE_MAXI];
        const size_t base = tile * tile_elems;
        SL_KN(tile_load)(in, base, n, items, stage, x);
        const SL_FN(sl_tile_pos) pos = SL_KN(tile_block_reduce)(x, items, wsum);
        int have = 0;
        const T prefix = SL_KN(tile_prefix)(ts, tile, pos.total, sh, &have);
        /* the next tile, drawn now that this one waits for nothing more */
        uint32_t next = 0;
        if (more && first)
            next = sl_tile_ticket(ts);
        SL_KN(tile_thread_scan)(x, x, items, exclusive, prefix, have, pos);
        SL_KN(tile_store)(out, base, n, items, stage, x);
        if (!more)
            break;
        tile = SL_KN(sp_share_ticket)(ticket, first, next);
    }
}

/* At most 64 registers a thread (two blocks of 512 threads, eight of 128
 * on an SM); the default item count compiled as a constant, so that its
 * loops are unrolled without guards and its index arithmetic multiplies
 * and divides by constants (other counts take the general path). Measured
 * on the H100: 1.17 ms -> 1.04 ms at 2^28 i32 (docs/performance.md). The
 * 4-byte affine maps (multiplies and shifts per combination) spill at 64
 * registers: they get as many as one block of 512 allows.
 *
 * Each path is a kernel of its own: single-buffered blocks run sp_scan
 * (the default item count) or sp_scan_items (any other), pipelined ones
 * sp_scan_pipe or sp_scan_pipe_items. In one kernel the general path's
 * registers counted against the constant one's: the 4-byte add, max and
 * min spilled 56 to 80 bytes a thread. On the H100, split: 2^22 i32 0.97
 * to 1.03 of CUB's speed -> 1.11, lookback-det 2 to 5 % faster at 2^22
 * and 2^24, 1 to 2 % at 2^28; the pipelined path in one kernel with its
 * general path put 2^28 i32 affine at 0.80 of the copy against 0.89
 * (docs/performance.md). */
#define SL_SP_MIN_BLOCKS_add 2
#define SL_SP_MIN_BLOCKS_max 2
#define SL_SP_MIN_BLOCKS_min 2
#define SL_SP_MIN_BLOCKS_affine (sizeof(T) == 4 ? 1 : 2)
SL_GLOBAL_BOUNDED(SL_TILE_MAX_THREADS, SL_CAT2(SL_SP_MIN_BLOCKS_, OPN))
SL_KN(sp_scan)(const T *in, T *out, size_t n, int exclusive, sl_tile_status ts, int by_block, int adversary)
{
    SL_KN(sp_tile)(in, out, n, exclusive, SL_TILE_MAXI, ts, by_block, adversary, 0);
}
SL_DEFINE_LAUNCH(SL_KN(sp_scan), (const T *, in), (T *, out), (size_t, n), (int, exclusive), (sl_tile_status, ts),
                 (int, by_block), (int, adversary))

SL_GLOBAL_BOUNDED(SL_TILE_MAX_THREADS, SL_CAT2(SL_SP_MIN_BLOCKS_, OPN))
SL_KN(sp_scan_items)(const T *in, T *out, size_t n, int exclusive, unsigned items, sl_tile_status ts, int by_block,
                     int adversary)
{
    SL_KN(sp_tile)(in, out, n, exclusive, items, ts, by_block, adversary, 0);
}
SL_DEFINE_LAUNCH(SL_KN(sp_scan_items), (const T *, in), (T *, out), (size_t, n), (int, exclusive), (unsigned, items),
                 (sl_tile_status, ts), (int, by_block), (int, adversary))

#if defined(SL_SP_PIPELINE)
/* The pipelined blocks (ticketed) in kernels of their own: compiled into
 * sp_scan, their code made the other paths slower on the H100 (a 2^16
 * lookback 6.1 us against 5.8 without; docs/performance.md). */
SL_GLOBAL_BOUNDED(SL_TILE_MAX_THREADS, SL_CAT2(SL_SP_MIN_BLOCKS_, OPN))
SL_KN(sp_scan_pipe)(const T *in, T *out, size_t n, int exclusive, sl_tile_status ts, int adversary)
{
    SL_KN(sp_tile)(in, out, n, exclusive, SL_TILE_MAXI, ts, 0, adversary, 1);
}
SL_DEFINE_LAUNCH(SL_KN(sp_scan_pipe), (const T *, in), (T *, out), (size_t, n), (int, exclusive),
                 (sl_tile_status, ts), (int, adversary))

SL_GLOBAL_BOUNDED(SL_TILE_MAX_THREADS, SL_CAT2(SL_SP_MIN_BLOCKS_, OPN))
SL_KN(sp_scan_pipe_items)(const T *in, T *out, size_t n, int exclusive, unsigned items, sl_tile_status ts,
                          int adversary)
{
    SL_KN(sp_tile)(in, out, n, exclusive, items, ts, 0, adversary, 1);
}
SL_DEFINE_LAUNCH(SL_KN(sp_scan_pipe_items), (const T *, in), (T *, out), (size_t, n), (int, exclusive),
                 (unsigned, items), (sl_tile_status, ts), (int, adversary))
#endif

/* The launch on device buffers: protocol memory, the grid (one block per
 * tile, or as many as fit at once, pipelined where the protocol allows
 * and two staging areas fit), the bounded waits' verdict. ctx is the
 * sl_sp_cfg. */
static sl_status SL_KN(sp_dev)(const void *d_in, void *d_out, const sl_kargs *a, const void *ctx)
{
    const sl_sp_cfg *c = (const sl_sp_cfg *)ctx;
    const size_t tiles = sl_dev_tiles(a->n, c->g.tile);
    const int constant = c->g.items == SL_TILE_MAXI; /* the default item count */
    const int ex = a->exclusive ? 1 : 0;
    sl_tile_status ts;
    sl_status st = SL_OK;
    unsigned grid;
    size_t shmem = c->g.shmem;
    int pipe = 0;
    sl_launch lc;
    memset(&ts, 0, sizeof ts);
    if (c->by_block && tiles > SL_DEV_MAX_GRID_X)
        return SL_ERR_ARG;
    SL_TRY(sl_tile_status_alloc(&ts, tiles, sizeof(T), c->windows));
    ts.carry = c->carry;
    grid = c->by_block ? (unsigned)tiles
           : constant  ? sl_dev_grid(tiles, SL_RESIDENT_BLOCKS_OR(SL_KN(sp_scan), c->g.block, c->g.shmem,
                                                                 (unsigned)tiles))
                       : sl_dev_grid(tiles, SL_RESIDENT_BLOCKS_OR(SL_KN(sp_scan_items), c->g.block, c->g.shmem,
                                                                 (unsigned)tiles));
#if defined(SL_SP_PIPELINE)
    if (!c->by_block && grid < tiles && 2 * shmem <= SL_DEV_SHARED_LIMIT) {
        const unsigned g2 =
            sl_dev_grid(tiles, constant ? SL_RESIDENT_BLOCKS_OR(SL_KN(sp_scan_pipe), c->g.block, 2 * shmem,
                                                                (unsigned)tiles)
                                        : SL_RESIDENT_BLOCKS_OR(SL_KN(sp_scan_pipe_items), c->g.block, 2 * shmem,
                                                                (unsigned)tiles));
        /* at least two tiles a block: with fewer the stores wait behind
         * the second loads (on the H100, in one series of processes: 1366
         * tiles on 1056 blocks, 2^22 i32 and f32, 1.03 to 1.06 of CUB's
         * speed pipelined and 1.05 to 1.07 not; 2731 tiles, 2^22 i64 and
         * f64, 1.09 to 1.14 pipelined and 1.03 to 1.05 not) */
        if (g2 > 0 && tiles >= 2 * (size_t)g2) {
            pipe = 1;
            grid = g2;
            shmem *= 2;
        }
    }
#endif
    sl_tile_status_timing(&ts, grid, c->g.tile * sizeof(T), 2 * a->n * sizeof(T), SL_L2_BYTES(), pipe);
    lc = sl_launch_1d(grid, c->g.block, shmem);
#if defined(SL_SP_PIPELINE)
    if (pipe && constant)
        SL_TRY(SL_LAUNCH(sp_scan_pipe)(lc, (const T *)d_in, (T *)d_out, a->n, ex, ts, a->adversary));
    else if (pipe)
        SL_TRY(SL_LAUNCH(sp_scan_pipe_items)(lc, (const T *)d_in, (T *)d_out, a->n, ex, c->g.items, ts,
                                             a->adversary));
    else
#endif
    if (constant) /* (the else of the pipelined launches above) */
        SL_TRY(SL_LAUNCH(sp_scan)(lc, (const T *)d_in, (T *)d_out, a->n, ex, ts, c->by_block, a->adversary));
    else
        SL_TRY(SL_LAUNCH(sp_scan_items)(lc, (const T *)d_in, (T *)d_out, a->n, ex, c->g.items, ts, c->by_block,
                                        a->adversary));
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
    c.carry = NULL;
    if (sl_tile_geom_of(a->block, a->param, sizeof(T), default_block, &c.g) != SL_OK)
        return SL_ERR_ARG;
    if (a->n == 0)
        return SL_OK;
    return sl_host_run(a, sizeof(T), a->n, SL_KN(sp_dev), &c);
}
#undef SL_SP_PIPELINE
