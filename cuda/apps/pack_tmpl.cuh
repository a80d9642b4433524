/* Pack in one pass (variable-length output, the neighbour-list problem):
 * item i emits c_i records, c_i = f(x_i) in [0, K] (cuda/apps/app_defs.h:
 * the element's bits mod K + 1; K = a->param, default 4), the records of
 * all items concatenated in item order; record j of item i is
 * (i << 8) | j. pack-3phase is the textbook version (count, scan of the
 * counts, read back to size the output, write).
 *
 * The count-and-scatter of compact (cuda/apps/select_pass.cuh) with counts
 * of records for flags: per tile (B threads x `items` items in registers,
 * drawn from a ticket) each thread sums its items' c_i, an exclusive scan
 * across the block gives each thread its first record in the tile and the
 * tile its count, published on count_status.cuh's words; warp 0 looks back
 * for the records of the tiles before, and each thread writes its items'
 * records from there. The input is read once, each record written once;
 * the output's room is n * K records, as the caller provides it.
 * Output: cuda/apps/app_defs.h (the count, then int64_t records).
 *
 * Template: compiled once per (T, TN, OPN) through cuda/inst_all.h. */
#include "cuda/apps/app_pass.cuh"
#include "cuda/apps/count_status.cuh"

#if SL_APP_PASS_COMPILED
/* A block's tile. */
SL_DEVICE void SL_KN(pk_tile)(const T *in, int64_t *out, uint64_t *count_out, size_t n, unsigned k_max,
                              unsigned items, sl_tile_status ts)
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
    T x[SL_TILE_MAXI];
    SL_KN(tile_load)(in, base, n, items, stage, x);
    const size_t first = base + (size_t)threadIdx.x * items;
    uint32_t c = 0;
    SL_UNROLL
    for (unsigned k = 0; k < SL_TILE_MAXI; k++)
        if (k < items && first + k < n)
            c += sl_app_pack_count(SL_KN(pass_bits)(x[k]), k_max);
    uint32_t total = 0;
    const uint32_t start = SL_KN(pass_block_scan)(c, wsum, &total);
    const int64_t before = sl_cnt_tile_prefix(ts, tile, total, sh);
    size_t at = (size_t)before + start;
    SL_UNROLL
    for (unsigned k = 0; k < SL_TILE_MAXI; k++)
        if (k < items && first + k < n) {
            const unsigned ck = sl_app_pack_count(SL_KN(pass_bits)(x[k]), k_max);
            for (unsigned j = 0; j < ck; j++)
                ST(out, at + j, sl_app_pack_record(first + k, j));
            at += ck;
        }
    if (threadIdx.x == 0 && tile + 1 == ts.tiles)
        ST(count_out, 0, (uint64_t)before + total);
}

SL_GLOBAL_BOUNDED(SL_TILE_MAX_THREADS, SL_APP_PASS_MIN_BLOCKS)
SL_KN(pk_pass)(const T *in, int64_t *out, uint64_t *count_out, size_t n, unsigned k_max, sl_tile_status ts)
{
    SL_KN(pk_tile)(in, out, count_out, n, k_max, SL_TILE_MAXI, ts);
}
SL_DEFINE_LAUNCH(SL_KN(pk_pass), (const T *, in), (int64_t *, out), (uint64_t *, count_out), (size_t, n),
                 (unsigned, k_max), (sl_tile_status, ts))

SL_GLOBAL_BOUNDED(SL_TILE_MAX_THREADS, SL_APP_PASS_MIN_BLOCKS)
SL_KN(pk_pass_items)(const T *in, int64_t *out, uint64_t *count_out, size_t n, unsigned k_max, unsigned items,
                     sl_tile_status ts)
{
    SL_KN(pk_tile)(in, out, count_out, n, k_max, items, ts);
}
SL_DEFINE_LAUNCH(SL_KN(pk_pass_items), (const T *, in), (int64_t *, out), (uint64_t *, count_out), (size_t, n),
                 (unsigned, k_max), (unsigned, items), (sl_tile_status, ts))

/* A pack's settings. */
typedef struct {
    sl_tile_geom g;
    unsigned k;
} SL_FN(sl_pk_cfg);

/* The pass on device buffers (d_out: the count, then the records). */
static sl_status SL_KN(pk_dev)(const void *d_in, void *d_out, const sl_kargs *a, const void *ctx)
{
    const SL_FN(sl_pk_cfg) *c = (const SL_FN(sl_pk_cfg) *)ctx;
    uint64_t *count = SL_KN(pass_count_at)(d_out);
    int64_t *out = (int64_t *)SL_KN(pass_data_at)(d_out);
    const size_t tiles = a->n ? sl_dev_tiles(a->n, c->g.tile) : 0;
    const sl_launch lc = sl_launch_1d((unsigned)tiles, c->g.block, c->g.shmem);
    sl_tile_status ts;
    sl_status st = SL_OK;
    memset(&ts, 0, sizeof ts);
    if (a->n == 0)
        return sl_dev_memset(count, 0, sizeof *count);
    if (tiles > SL_DEV_MAX_GRID_X)
        return SL_ERR_ARG;
    SL_TRY(sl_tile_status_alloc(&ts, tiles, sizeof(int64_t), 0));
    sl_tile_status_timing(&ts, (unsigned)tiles, c->g.tile * sizeof(T), 2 * a->n * sizeof(T), SL_L2_BYTES(), 0);
    if (c->g.items == SL_TILE_MAXI)
        SL_TRY(SL_LAUNCH(pk_pass)(lc, (const T *)d_in, out, count, a->n, c->k, ts));
    else
        SL_TRY(SL_LAUNCH(pk_pass_items)(lc, (const T *)d_in, out, count, a->n, c->k, c->g.items, ts));
    SL_TRY(sl_tile_status_check(&ts));
done:
    sl_tile_status_free(&ts);
    return st;
}
#endif

/* Host driver: a->block threads (a multiple of 32, at most 512, default
 * 128), a->param = K (1..255, default 4); the items per thread are the
 * type's default (24 for 4-byte types, 12 for 8-byte ones). */
SL_HOST sl_status SL_KN(pack)(const sl_kargs *a)
{
#if SL_APP_PASS_COMPILED
    SL_FN(sl_pk_cfg) c;
    c.k = sl_app_pack_k(a->param);
    if (c.k == 0 || sl_tile_geom_of(a->block, 0, sizeof(T), SL_TILE_THREADS, &c.g) != SL_OK)
        return SL_ERR_ARG;
    return SL_KN(pass_host_run)(a, sizeof(int64_t), a->n * c.k, 0, SL_KN(pk_dev), &c);
#else
    (void)a;
    return SL_ERR_UNSUPPORTED;
#endif
}
