/* LSD radix sort in one sweep per digit (Adinets and Merrill, "Onesweep:
 * a faster least significant digit radix sort for GPUs", 2022): ascending
 * total order of the elements (cuda/apps/app_defs.h: integers signed,
 * floats by the IEEE total order with -0.0 before +0.0), stable.
 *
 * Keys are the order-preserving unsigned images of the elements
 * (sl_app_sort_key), digits of `bits` bits (a->param, 1..8, default 8;
 * R = 2^bits digit values), least significant first:
 *   upsweep: one read of the input counts every digit of every pass at
 *            once (per block in shared memory, then added to the global
 *            histograms);
 *   bins:    per pass an exclusive scan of its R counts: where the keys of
 *            each digit value start;
 *   per pass, one kernel: a block draws a tile from a ticket, counts its
 *            keys per digit (shared atomics) and publishes its R digit
 *            counts at once (status A, or P for tile 0) on the tile status
 *            words of cuda/device/tile_status.cuh, one word per (tile,
 *            digit); it then ranks its keys stably by digit (per warp with
 *            ballots over the digit's bits, warp by warp in input order)
 *            and looks back per digit (thread d polls digit d of the tiles
 *            before it until it meets a P) for the keys of that digit in
 *            the tiles before; it publishes P, sorts the tile by digit in
 *            shared memory and writes each key to its bin's start + the
 *            keys before it: runs of a digit go to consecutive addresses.
 *            A tile whose keys share one digit skips the counting, the
 *            ranking and the shared memory: its keys go out in input
 *            order.
 * So each pass reads and writes the keys once: about 1 + 2 x passes
 * accesses per key in all, where the textbook sort (radix-sort-3phase)
 * reads them twice per pass and scans the counts between.
 *
 * A digit's count before a tile is a 32-bit value in the 8-byte status
 * word: n is limited to 2^32 - 1 keys. Every pass uses the same status
 * words under an epoch of its own.
 *
 * Template: compiled once per (T, TN, OPN) through cuda/inst_all.h. */
#include "cuda/apps/app_pass.cuh"

/* The look-back's protocol over 32-bit digit counts (tile_status.cuh for
 * T = int32_t), once per translation unit: SL_C32(name) names it. */
#ifndef SL_OS_C32_DEFS_
#define SL_OS_C32_DEFS_
#pragma push_macro("T")
#pragma push_macro("TN")
#pragma push_macro("OPN")
#undef T
#undef TN
#undef OPN
#define T int32_t
#define TN c32
#define OPN add
SL_HD int32_t sl_add_c32(int32_t a, int32_t b) { return (int32_t)((uint32_t)a + (uint32_t)b); }
SL_HD int32_t sl_id_add_c32(void) { return 0; }
#include "cuda/device/tile_status.cuh"
#undef T
#undef TN
#undef OPN
#pragma pop_macro("OPN")
#pragma pop_macro("TN")
#pragma pop_macro("T")
#define SL_C32(name) SL_CAT2(name##_c32_add, SL_BACKEND_SUFFIX)
/* Keys a thread holds: 16 of 4 bytes, 8 of 8 bytes (64 bytes). */
#define SL_OS_ITEMS_FOR(size) ((size) == 4 ? 16u : 8u)
/* Threads a block by default, and the most: one digit per thread in the
 * look-back and the scans over digits, so at least R. */
#define SL_OS_THREADS 256u
#define SL_OS_MAX_THREADS 512u
#define SL_OS_DEFAULT_BITS 8u
#define SL_OS_MAX_BITS 8u
/* The epochs of one run's passes: run e, pass p uses e * 64 + p (at most
 * 64 passes: 64-bit keys, 1-bit digits). */
#define SL_OS_EPOCH_STRIDE 64u
/* Blocks of the upsweep in the simulator (the GPU: as many as it holds). */
#define SL_OS_SIM_UPSWEEP_BLOCKS 4u
#endif

#define SL_OS_ITEMS SL_OS_ITEMS_FOR(sizeof(T))

/* The order-preserving unsigned image of x (app_defs.h). */
SL_DEVICE uint64_t SL_KN(os_key)(T x)
{
    return sl_app_sort_key(SL_KN(pass_bits)(x), SL_APP_IS_FLOAT, (unsigned)sizeof(T));
}

/* The digit of a key at shift (digit values 0 .. radix - 1); a 4-byte
 * key's in 32-bit arithmetic (its shifts are below 32), which the GPU does
 * in one instruction where a 64-bit shift takes two. */
SL_DEVICE unsigned SL_KN(os_key_digit)(uint64_t key, unsigned shift, unsigned radix)
{
    if (sizeof(T) == 4)
        return ((uint32_t)key >> shift) & (radix - 1);
    return (unsigned)(key >> shift) & (radix - 1);
}

/* The digit of x at shift. */
SL_DEVICE unsigned SL_KN(os_digit)(T x, unsigned shift, unsigned radix)
{
    return SL_KN(os_key_digit)(SL_KN(os_key)(x), shift, radix);
}

#if SL_APP_PASS_COMPILED
/* Upsweep: hist[p * radix + d] += the keys whose digit p is d, for every
 * pass p at once; block 0 also writes the output's count (n). */
SL_GLOBAL SL_KN(os_upsweep)(const T *in, uint64_t *hist, uint64_t *count_out, size_t n, unsigned bits,
                            unsigned passes)
{
    SHARED_DYN(uint32_t, h);
    const unsigned t = threadIdx.x, radix = 1u << bits, cells = passes * radix;
    for (unsigned i = t; i < cells; i += blockDim.x)
        ST(h, i, 0u);
    SYNCTHREADS();
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + t; i < n; i += stride) {
        const uint64_t key = SL_KN(os_key)(LD(in, i));
        if (bits == SL_OS_MAX_BITS) { /* the default: one pass a byte, unrolled */
            SL_UNROLL
            for (unsigned p = 0; p < sizeof(T); p++)
                (void)ATOMIC_ADD(&h[p * radix + SL_KN(os_key_digit)(key, p * SL_OS_MAX_BITS, radix)], 1u);
        } else {
            for (unsigned p = 0; p < passes; p++) {
                const unsigned d = SL_KN(os_key_digit)(key, p * bits, radix);
                (void)ATOMIC_ADD(&h[p * radix + d], 1u); /* not reached by verify: digits not the default 8 bits */
            }
        }
    }
    SYNCTHREADS();
    for (unsigned i = t; i < cells; i += blockDim.x) {
        const uint32_t c = LD(h, i);
        if (c)
            (void)ATOMIC_ADD(&hist[i], (uint64_t)c);
    }
    if (blockIdx.x == 0 && t == 0)
        ST(count_out, 0, (uint64_t)n);
}
SL_DEFINE_LAUNCH(SL_KN(os_upsweep), (const T *, in), (uint64_t *, hist), (uint64_t *, count_out), (size_t, n),
                 (unsigned, bits), (unsigned, passes))

/* Bins: block p turns pass p's counts into their exclusive scan (the
 * first output position of each digit value). blockDim.x >= radix. */
SL_GLOBAL SL_KN(os_bins)(uint64_t *hist, unsigned radix)
{
    SHARED(uint64_t, s, SL_OS_MAX_THREADS);
    const unsigned t = threadIdx.x;
    uint64_t *h = hist + (size_t)blockIdx.x * radix;
    const uint64_t v = t < radix ? LD(h, t) : 0;
    ST(s, t, v);
    for (unsigned d = 1; d < blockDim.x; d *= 2) {
        SYNCTHREADS();
        const uint64_t u = t >= d ? LD(s, t - d) : 0;
        SYNCTHREADS();
        if (t >= d)
            ST(s, t, SL_APP_ADD(LD(s, t), u));
    }
    SYNCTHREADS();
    if (t < radix)
        ST(h, t, LD(s, t) - v);
}
SL_DEFINE_LAUNCH(SL_KN(os_bins), (uint64_t *, hist), (unsigned, radix))

/* The shared memory of a pass's block: the tile's keys, then per warp R
 * counters, then per digit its global base (8 bytes) and its start in the
 * tile. */
static inline size_t SL_KN(os_shmem)(unsigned block, unsigned radix)
{
    const size_t keys = (size_t)block * SL_OS_ITEMS * sizeof(T);
    const size_t whist = (size_t)(block / SL_WARP_SIZE) * radix * sizeof(uint32_t);
    const size_t at = (keys + whist + 7) / 8 * 8;
    return at + (size_t)radix * (sizeof(uint64_t) + sizeof(uint32_t));
}

/* Thread d's look-back (d < radix): digit d's counts over the tiles
 * before `tile`, one tile at a time back to the nearest P. Each thread
 * walks on its own (no warp vote per step). A word not yet published is
 * polled with back-off, bounded as every wait of the protocol
 * (tile_status.cuh). */
SL_DEVICE uint32_t SL_KN(os_look_back)(sl_tile_status ts, size_t tile, unsigned radix)
{
    const unsigned d = threadIdx.x;
    uint32_t sum = 0;
    if (d >= radix || tile == 0)
        return 0;
    size_t pred = tile - 1;
    unsigned ns = ts.min_ns;
    uint32_t polls = 0;
    for (;;) {
        int32_t v;
        const uint32_t s = SL_C32(tile_peek)(ts, ts.word, pred * radix + d, &v);
        if (s == SL_TILE_X) {
            if (++polls == SL_TILE_SPIN_LIMIT) {
                sl_tile_give_up(ts); /* not reached by verify: a wait that gives up */
                return 0;
            }
            NANOSLEEP(ns);
            ns = ns < ts.max_ns ? 2 * ns : ns;
            continue;
        }
        sum = SL_APP_ADD(sum, (uint32_t)v);
        if (s == SL_TILE_P)
            return sum;
        pred--;
        polls = 0;
        ns = ts.min_ns;
    }
}

/* One pass: the keys of src sorted by the digit at shift into dst, after
 * the keys of smaller digits (bins: this pass's exclusive scan). ts.epoch
 * is the pass's; next_epoch the next pass's, whose ticket counter (the
 * previous pass's) the block with ticket 0 clears.
 *
 * A tile whose keys all have one digit (the high digits of small keys,
 * the last passes over data sorted already) needs no ranking: its keys go
 * out in input order, straight from the registers (Onesweep and CUB do the
 * same). Registers are bounded so that two blocks of the most threads fit
 * an SM (four of the default 256). */
SL_GLOBAL_BOUNDED(SL_OS_MAX_THREADS, 2)
SL_KN(os_pass)(const T *src, T *dst, const uint64_t *bins, size_t n, unsigned shift, unsigned bits,
               sl_tile_status ts, uint32_t next_epoch)
{
    SHARED_DYN(unsigned char, smem);
    SHARED(uint32_t, ticket, 1);
    SHARED(uint32_t, mixed, 1);
    SHARED(uint32_t, wsum, SL_OS_MAX_THREADS / SL_WARP_SIZE);
    const unsigned t = threadIdx.x, lane = LANE_ID(), w = WARP_ID(), nw = blockDim.x / SL_WARP_SIZE;
    const unsigned radix = 1u << bits;
    const uint32_t tile_elems = blockDim.x * SL_OS_ITEMS;
    T *keys = (T *)(void *)smem;
    uint32_t *whist = (uint32_t *)(void *)(smem + (size_t)tile_elems * sizeof(T));
    const size_t at = ((size_t)tile_elems * sizeof(T) + (size_t)nw * radix * sizeof(uint32_t) + 7) / 8 * 8;
    uint64_t *gofs = (uint64_t *)(void *)(smem + at);
    uint32_t *lstart = (uint32_t *)(void *)(smem + at + (size_t)radix * sizeof(uint64_t));
    if (t == 0) {
        const uint32_t k = sl_tile_ticket(ts);
        if (k == 0) /* the next pass's counter: nobody uses it in this one */
            ST_RELAXED(ts.ticket, next_epoch & 1u, (uint32_t)0);
        ST(ticket, 0, k);
        ST(mixed, 0, 0u);
    }
    for (unsigned i = t; i < nw * radix; i += blockDim.x)
        ST(whist, i, 0u);
    for (unsigned i = t; i < radix; i += blockDim.x)
        ST((uint32_t *)(void *)keys, i, 0u);
    SYNCTHREADS();
    const size_t tile = LD(ticket, 0), base = tile * tile_elems;
    const uint32_t valid = n - base < tile_elems ? (uint32_t)(n - base) : tile_elems;
    /* the warp's keys, warp-striped: item k of lane l is element
     * base + wofs + 32 k + l, so (k, l) in order is input order */
    const uint32_t wofs = w * SL_WARP_SIZE * SL_OS_ITEMS;
    const unsigned first = SL_KN(os_digit)(LD(src, base), shift, radix);
    T x[SL_OS_ITEMS];
    unsigned dig[SL_OS_ITEMS];
    uint32_t rank[SL_OS_ITEMS];
    int same = 1;
    SL_UNROLL
    for (unsigned k = 0; k < SL_OS_ITEMS; k++) {
        const uint32_t i = wofs + k * SL_WARP_SIZE + lane;
        x[k] = i < valid ? LD(src, base + i) : IDENTITY();
        dig[k] = i < valid ? SL_KN(os_digit)(x[k], shift, radix) : radix;
        same &= dig[k] == first || dig[k] == radix;
    }
    if (!ALL(same) && lane == 0)
        (void)ATOMIC_MAX(mixed, 1u);
    SYNCTHREADS();
    const int uniform = LD(mixed, 0) == 0;
    uint32_t count = 0;
    if (!uniform) {
        /* the tile's counts first, in the key area (free until the
         * scatter), published before the ranking: the tiles after this one
         * find them sooner (Onesweep's early counts; tile 0's counts are
         * its prefixes) */
        uint32_t *early = (uint32_t *)(void *)keys;
        SL_UNROLL
        for (unsigned k = 0; k < SL_OS_ITEMS; k++)
            if (dig[k] < radix)
                (void)ATOMIC_ADD(&early[dig[k]], 1u);
        SYNCTHREADS();
        if (t < radix)
            SL_C32(tile_publish)(ts, ts.word, tile * radix + t, tile == 0 ? SL_TILE_P : SL_TILE_A,
                                 (int32_t)LD(early, t));
        /* stable ranks within the warp: the lanes with my digit (a ballot
         * per bit; bits above the digit's are 0 in every valid lane, so
         * eight of them serve every digit width), the warp's counter of
         * the digit before this item */
        SL_UNROLL
        for (unsigned k = 0; k < SL_OS_ITEMS; k++) {
            const unsigned d = dig[k];
            uint32_t peers = BALLOT(d < radix);
            SL_UNROLL
            for (unsigned b = 0; b < SL_OS_MAX_BITS; b++) {
                const uint32_t m = BALLOT((d >> b) & 1u);
                peers &= (d >> b) & 1u ? m : ~m;
            }
            const uint32_t below = peers & ((1u << lane) - 1u);
            const uint32_t old = d < radix ? LD(whist, w * radix + d) : 0;
            SYNCWARP();
            if (d < radix && below == 0) /* the group's lowest lane counts it */
                ST(whist, w * radix + d, old + (uint32_t)POPC(peers));
            SYNCWARP();
            rank[k] = old + (uint32_t)POPC(below);
        }
        SYNCTHREADS();
        /* per digit (thread d): the warps' counters become the keys of the
         * digit in the warps before; the tile's count of the digit */
        if (t < radix)
            for (unsigned j = 0; j < nw; j++) {
                const uint32_t c = LD(whist, j * radix + t);
                ST(whist, j * radix + t, count);
                count = SL_APP_ADD(count, c);
            }
    } else {
        if (t == first)
            count = valid;
        if (t < radix) /* tile 0's counts are its prefixes */
            SL_C32(tile_publish)(ts, ts.word, tile * radix + t, tile == 0 ? SL_TILE_P : SL_TILE_A, (int32_t)count);
    }
    uint32_t total = 0;
    const uint32_t start = SL_KN(pass_block_scan)(t < radix ? count : 0, wsum, &total);
    if (t < radix)
        ST(lstart, t, start);
    const uint32_t before = SL_KN(os_look_back)(ts, tile, radix);
    if (t < radix) {
        if (tile > 0)
            SL_C32(tile_publish)(ts, ts.word, tile * radix + t, SL_TILE_P, (int32_t)(before + count));
        /* where the tile's element j of digit t goes: j + this */
        ST(gofs, t, LD(bins, t) + before - start);
    }
    SYNCTHREADS();
    if (uniform) {
        /* every key has digit `first`: input order is the sorted order */
        const uint64_t to = LD(gofs, first);
        SL_UNROLL
        for (unsigned k = 0; k < SL_OS_ITEMS; k++) {
            const uint32_t i = wofs + k * SL_WARP_SIZE + lane;
            if (i < valid)
                ST(dst, to + i, x[k]);
        }
        return;
    }
    /* the tile sorted by digit in shared memory, then written out */
    SL_UNROLL
    for (unsigned k = 0; k < SL_OS_ITEMS; k++)
        if (dig[k] < radix)
            ST(keys, LD(lstart, dig[k]) + LD(whist, w * radix + dig[k]) + rank[k], x[k]);
    SYNCTHREADS();
    for (uint32_t j = t; j < valid; j += blockDim.x) {
        const T v = LD(keys, j);
        ST(dst, LD(gofs, SL_KN(os_digit)(v, shift, radix)) + j, v);
    }
}
SL_DEFINE_LAUNCH(SL_KN(os_pass), (const T *, src), (T *, dst), (const uint64_t *, bins), (size_t, n),
                 (unsigned, shift), (unsigned, bits), (sl_tile_status, ts), (uint32_t, next_epoch))

/* A sort's settings. */
typedef struct {
    unsigned block, bits;
} SL_FN(sl_os_cfg);

/* The sort on device buffers (d_out: the count, then the keys). */
static sl_status SL_KN(os_dev)(const void *d_in, void *d_out, const sl_kargs *a, const void *ctx)
{
    const SL_FN(sl_os_cfg) *c = (const SL_FN(sl_os_cfg) *)ctx;
    const unsigned radix = 1u << c->bits, key_bits = 8 * (unsigned)sizeof(T);
    const unsigned passes = (key_bits + c->bits - 1) / c->bits;
    const size_t n = a->n, tile = (size_t)c->block * SL_OS_ITEMS, tiles = n ? sl_dev_tiles(n, tile) : 0;
    const size_t up_shmem = (size_t)passes * radix * sizeof(uint32_t);
    const size_t shmem = SL_KN(os_shmem)(c->block, radix);
    uint64_t *count = SL_KN(pass_count_at)(d_out), *hist = NULL;
    T *bufs[2] = {(T *)SL_KN(pass_data_at)(d_out), NULL};
    unsigned up_grid = 0;
    sl_tile_status ts;
    sl_status st = SL_OK;
    memset(&ts, 0, sizeof ts);
    if (n == 0)
        return sl_dev_memset(count, 0, sizeof *count);
    if (tiles > SL_DEV_MAX_GRID_X)
        return SL_ERR_ARG;
    up_grid = sl_dev_grid(sl_dev_tiles(n, tile),
                          SL_RESIDENT_BLOCKS_OR(SL_KN(os_upsweep), SL_OS_THREADS, up_shmem, SL_OS_SIM_UPSWEEP_BLOCKS));
    SL_TRY(sl_dev_alloc((void **)&hist, (size_t)passes * radix * sizeof *hist));
    SL_TRY(sl_dev_alloc((void **)&bufs[1], n * sizeof(T)));
    SL_TRY(sl_tile_status_alloc(&ts, tiles * radix, sizeof(int32_t), 0));
    /* one block per tile: poll at once, back off from the minimum (tile_status.cuh) */
    ts.first_ns = 0;
    ts.min_ns = SL_TILE_BACKOFF_MIN_NS;
    ts.max_ns = SL_TILE_BACKOFF_MAX_NS;
    SL_TRY(sl_dev_memset(hist, 0, (size_t)passes * radix * sizeof *hist));
    SL_TRY(SL_LAUNCH(os_upsweep)(sl_launch_1d(up_grid, SL_OS_THREADS, up_shmem), (const T *)d_in, hist, count, n,
                                 c->bits, passes));
    SL_TRY(SL_LAUNCH(os_bins)(sl_launch_1d(passes, (radix + SL_WARP_SIZE - 1) / SL_WARP_SIZE * SL_WARP_SIZE, 0),
                              hist, radix));
    /* pass p draws tiles from ticket counter p % 2 and clears the other
     * one, which pass p - 1 used: a run ends with its last pass's counter
     * in use, which the next run's first pass (counter 0) meets again when
     * the passes are odd in number */
    if (passes & 1u)
        SL_TRY(sl_dev_memset(ts.ticket, 0, 2 * sizeof *ts.ticket));
    for (unsigned p = 0; p < passes; p++) {
        /* pass p writes bufs[(passes - 1 - p) % 2]: the last one the output */
        const T *src = p == 0 ? (const T *)d_in : bufs[(passes - p) & 1u];
        T *dst = bufs[(passes - 1 - p) & 1u];
        sl_tile_status tp = ts;
        const uint32_t run = ts.epoch * SL_OS_EPOCH_STRIDE;
        tp.epoch = run + p;
        SL_TRY(SL_LAUNCH(os_pass)(sl_launch_1d((unsigned)tiles, c->block, shmem), src, dst,
                                  hist + (size_t)p * radix, n, p * c->bits, c->bits, tp, run + p + 1));
    }
    SL_TRY(sl_tile_status_check(&ts));
done:
    sl_dev_free(hist);
    sl_dev_free(bufs[1]);
    sl_tile_status_free(&ts);
    return st;
}
#endif

/* Host driver: a->block threads (a multiple of 32, at least R, at most
 * 512; default 256), a->param the digit width in bits (1..8, default 8);
 * at most 2^32 - 1 keys. */
SL_HOST sl_status SL_KN(radix_sort)(const sl_kargs *a)
{
#if SL_APP_PASS_COMPILED
    SL_FN(sl_os_cfg) c;
    c.block = a->block == 0 ? SL_OS_THREADS : (unsigned)a->block;
    c.bits = a->param == 0 ? SL_OS_DEFAULT_BITS : sl_app_radix_bits(a->param);
    if (a->block < 0 || c.bits == 0 || c.block % SL_WARP_SIZE != 0 || c.block > SL_OS_MAX_THREADS ||
        c.block < (1u << c.bits) || SL_KN(os_shmem)(c.block, 1u << c.bits) > SL_DEV_SHARED_LIMIT ||
        a->n > 0xffffffffu)
        return SL_ERR_ARG;
    return SL_KN(pass_host_run)(a, sizeof(T), a->n, 1, SL_KN(os_dev), &c);
#else
    (void)a;
    return SL_ERR_UNSUPPORTED;
#endif
}
