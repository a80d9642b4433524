/* A copy of cuda/apps/select_pass.cuh, the single-pass selection of
 * compact and partition, with the mutation points of sel-publish-early
 * and sel-inclusive-rank; with no MUT_* macro defined it is the
 * catalogue's compact (the control, sel). The catalogue's description
 * follows.
 *
 * Single-pass selection, the kernel and driver of compact and partition:
 * each tile counts what it keeps, publishes the count, looks back for its
 * offset and scatters, reading the input once and writing each output
 * once (Merrill & Garland's decoupled look-back applied to selection, as
 * CUB's DeviceSelect::If and DevicePartition::If do).
 *
 * A tile is B threads x `items` elements in registers (tile_scan.cuh's
 * load: warp-striped, through the warp's staging area, into the blocked
 * arrangement); a block draws its tile from a ticket, so that it waits
 * only for tiles drawn before it, whose blocks are running: no dispatch
 * order can deadlock it. Per tile:
 *   1. count:   each thread flags its kept items; an exclusive add scan of
 *               the per-thread counts across the block gives each kept
 *               item its rank in the tile, and the tile's count;
 *   2. publish: the count (status A; P for tile 0) on count_status.cuh;
 *   3. look back: warp 0 sums the counts of the tiles before (nearest P
 *               first, cuda/apps/count_status.cuh) and publishes P;
 *   4. scatter: the kept items go to shared memory at their ranks (for
 *               partition, the others after them, in order), and the block
 *               writes the staged outputs to consecutive addresses:
 *               coalesced stores whatever the selection.
 * Partition writes the elements it does not keep from the end of the
 * output backwards, as CUB's DevicePartition::If does: element i not kept,
 * with r elements not kept before it, goes to out[n - 1 - r]. The kept
 * elements come first in input order, the others after them in reverse
 * input order (kind PARTITION_REV), which is what a single pass can do: the
 * place of the first element not kept depends on the total kept.
 *
 * The including template defines SL_SEL_PARTITION (0 or 1) and its host
 * driver. */
#include "cuda/apps/app_pass.cuh"
#include "cuda/apps/count_status.cuh"

/* The predicate of cuda/apps/app_defs.h on an element of type T. */
SL_DEVICE bool SL_KN(sel_keep)(T x)
{
    return sl_app_keep(SL_KN(pass_bits)(x), SL_APP_IS_FLOAT, (unsigned)sizeof(T));
}

#if defined(MUT_SEL_PUBLISH_EARLY)
/* sl_cnt_tile_prefix without its first publication (made earlier) */
SL_DEVICE int64_t SL_KN(mut_tile_prefix_published)(sl_tile_status ts, size_t tile, int64_t count, int64_t *sh)
{
    if (WARP_ID() == 0 && tile > 0) {
        const int64_t before = sl_cnt_look_back(ts, tile);
        if (LANE_ID() == 0) {
            SL_CNT(tile_publish)(ts, ts.word, tile, SL_TILE_P, SL_APP_ADD(before, count));
            ST(sh, 0, before);
        }
    }
    SYNCTHREADS();
    const int64_t p = LD(sh, 0);
    return tile > 0 ? p : 0;
}
#endif
#if SL_APP_PASS_COMPILED
/* A block's tile (items per thread: at most SL_TILE_MAXI, so that the
 * kept items' flags fit one 32-bit word). */
SL_DEVICE void SL_KN(sel_tile)(const T *in, T *out, uint64_t *count_out, size_t n, unsigned items,
                               sl_tile_status ts)
{
    SHARED_DYN(T, stage_all);
    SHARED(uint32_t, wsum, SL_MAX_BLOCK_THREADS / SL_WARP_SIZE);
    SHARED(int64_t, sh, 1);
    SHARED(uint32_t, ticket, 1);
    T *stage = stage_all + WARP_ID() * SL_TILE_STAGE_ELEMS(items, sizeof(T));
    const size_t tile_elems = (size_t)blockDim.x * items;
    if (threadIdx.x == 0) {
        const uint32_t k = sl_tile_ticket(ts);
        if (k == 0) /* one block, whichever draws the first tile */
            sl_tile_ticket_prepare_next(ts);
        ST(ticket, 0, k);
    }
    SYNCTHREADS();
    const size_t tile = LD(ticket, 0), base = tile * tile_elems;
#if defined(MUT_SEL_PUBLISH_EARLY)
    /* mutation: the tile's count published before it is counted (0) */
    if (threadIdx.x == 0)
        SL_CNT(tile_publish)(ts, ts.word, tile, tile == 0 ? SL_TILE_P : SL_TILE_A, (int64_t)0);
#endif
    T x[SL_TILE_MAXI];
    SL_KN(tile_load)(in, base, n, items, stage, x);
    /* 1. thread t holds elements first + k for k < have: all its items
     * but in the last tile. The bound is taken once, in 32 bits: a 64-bit
     * test of first + k < n on every item cost a quarter of the pass's
     * instructions for 8-byte types (docs/performance.md). */
    const size_t first = base + (size_t)threadIdx.x * items;
    const unsigned have = first >= n ? 0u : n - first < items ? (unsigned)(n - first) : items;
    uint32_t flags = 0, c = 0;
    SL_UNROLL
    for (unsigned k = 0; k < SL_TILE_MAXI; k++)
        if (k < have && SL_KN(sel_keep)(x[k])) {
            flags |= 1u << k;
            c++;
        }
    uint32_t total = 0;
    const uint32_t rank = SL_KN(pass_block_scan)(c, wsum, &total);
    /* 2, 3 (a barrier at the end: every warp is past its staging area) */
#if defined(MUT_SEL_PUBLISH_EARLY)
    const int64_t before = SL_KN(mut_tile_prefix_published)(ts, tile, total, sh);
#else
    const int64_t before = sl_cnt_tile_prefix(ts, tile, total, sh);
#endif
    /* 4. the tile's outputs in output order, over the staging areas */
    T *buf = stage_all;
#if defined(MUT_SEL_INCLUSIVE_RANK)
    /* mutation: the kept items staged from the thread's inclusive rank */
    uint32_t r = rank + c, o = threadIdx.x * items - rank;
#else
    uint32_t r = rank, o = threadIdx.x * items - rank; /* kept and not kept before the thread's items */
#endif
    SL_UNROLL
    for (unsigned k = 0; k < SL_TILE_MAXI; k++)
        if (k < have) {
            if ((flags >> k) & 1u)
                ST(buf, r++, x[k]);
            else if (SL_SEL_PARTITION)
                ST(buf, total + o++, x[k]);
        }
    SYNCTHREADS();
    /* the outputs in 32-bit tile positions from two bases: the kept from
     * out + before up, the others (partition) from the last place not
     * taken by the tiles before down */
    const uint32_t valid = n - base < tile_elems ? (uint32_t)(n - base) : (uint32_t)tile_elems;
    const uint32_t outs = SL_SEL_PARTITION ? valid : total;
    const size_t kept_at = (size_t)before;
    const size_t others_at = n - 1 - (base - (size_t)before); /* base - before: not kept, in the tiles before */
    for (uint32_t q = threadIdx.x; q < outs; q += blockDim.x) {
        const T v = LD(buf, q);
        if (q < total)
            ST(out, kept_at + q, v);
        else
            ST(out, others_at - (q - total), v);
    }
    if (threadIdx.x == 0 && tile + 1 == ts.tiles)
        ST(count_out, 0, (uint64_t)before + total);
}

/* The default item count compiled as a constant (unrolled loops without
 * guards, constant index arithmetic), and any other count. */
SL_GLOBAL_BOUNDED(SL_TILE_MAX_THREADS, SL_APP_PASS_MIN_BLOCKS)
SL_KN(sel_pass)(const T *in, T *out, uint64_t *count_out, size_t n, sl_tile_status ts)
{
    SL_KN(sel_tile)(in, out, count_out, n, SL_TILE_MAXI, ts);
}
SL_DEFINE_LAUNCH(SL_KN(sel_pass), (const T *, in), (T *, out), (uint64_t *, count_out), (size_t, n),
                 (sl_tile_status, ts))

SL_GLOBAL_BOUNDED(SL_TILE_MAX_THREADS, SL_APP_PASS_MIN_BLOCKS)
SL_KN(sel_pass_items)(const T *in, T *out, uint64_t *count_out, size_t n, unsigned items, sl_tile_status ts)
{
    SL_KN(sel_tile)(in, out, count_out, n, items, ts);
}
SL_DEFINE_LAUNCH(SL_KN(sel_pass_items), (const T *, in), (T *, out), (uint64_t *, count_out), (size_t, n),
                 (unsigned, items), (sl_tile_status, ts))

/* The pass on device buffers: d_out holds the count, then the outputs
 * (app_defs.h). ctx is the sl_tile_geom. */
static sl_status SL_KN(sel_dev)(const void *d_in, void *d_out, const sl_kargs *a, const void *ctx)
{
    const sl_tile_geom *g = (const sl_tile_geom *)ctx;
    uint64_t *count = SL_KN(pass_count_at)(d_out);
    T *out = (T *)SL_KN(pass_data_at)(d_out);
    const size_t tiles = a->n ? sl_dev_tiles(a->n, g->tile) : 0;
    const sl_launch lc = sl_launch_1d((unsigned)tiles, g->block, g->shmem);
    sl_tile_status ts;
    sl_status st = SL_OK;
    memset(&ts, 0, sizeof ts);
    if (a->n == 0)
        return sl_dev_memset(count, 0, sizeof *count);
    if (tiles > SL_DEV_MAX_GRID_X)
        return SL_ERR_ARG;
    SL_TRY(sl_tile_status_alloc(&ts, tiles, sizeof(int64_t), 0));
    sl_tile_status_timing(&ts, (unsigned)tiles, g->tile * sizeof(T), 2 * a->n * sizeof(T), SL_L2_BYTES(), 0);
    if (g->items == SL_TILE_MAXI)
        SL_TRY(SL_LAUNCH(sel_pass)(lc, (const T *)d_in, out, count, a->n, ts));
    else
        SL_TRY(SL_LAUNCH(sel_pass_items)(lc, (const T *)d_in, out, count, a->n, g->items, ts));
    SL_TRY(sl_tile_status_check(&ts));
done:
    sl_tile_status_free(&ts);
    return st;
}
#endif

/* Host side: a->block threads (a multiple of 32, at most 512, default
 * 128), a->param items per thread (default 24 for 4-byte types, 12 for
 * 8-byte ones). */
static sl_status SL_KN(sel_host)(const sl_kargs *a)
{
#if SL_APP_PASS_COMPILED
    sl_tile_geom g;
    if (sl_tile_geom_of(a->block, a->param, sizeof(T), SL_TILE_THREADS, &g) != SL_OK)
        return SL_ERR_ARG;
    return SL_KN(pass_host_run)(a, sizeof(T), a->n, SL_SEL_PARTITION, SL_KN(sel_dev), &g);
#else
    (void)a;
    return SL_ERR_UNSUPPORTED;
#endif
}
