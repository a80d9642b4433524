/* A scan across devices: the input cut into P shards, shard g resident on
 * device g with its output, the carry between shards passed through peer
 * memory (docs/scaling.md, "A scan across GPUs").
 *
 * Device g's first output needs the combination of every shard before it,
 * so a single pass across devices would run them one after the other.
 * Reduce, then scan, across devices:
 *   1. reduce (mg_reduce): every device but the last folds its shard into
 *      SL_MG_RANGES range totals, each range read from its end to its
 *      start, so that what the L2 keeps is the start, read first by 3;
 *   2. carry (mg_carry, one warp a device): device g folds its range
 *      totals into its shard's total, writes it into the board of every
 *      later device (its own value slot there) and publishes it with a
 *      release of system scope on its flag; then it waits with acquires of
 *      system scope for the flags of devices 0 .. g - 1 in its own board
 *      and folds their totals, device 0's first: its carry;
 *   3. scan: lookback-det on the shard with the carry in front of every
 *      prefix (sl_tile_status.carry).
 * The totals and the carry are fixed expressions of the tile geometry,
 * which depends on the shard's length alone, so float results are the
 * same on every run; integers equal the one-device scan bit for bit.
 *
 * Ordering: the value slot is written by a plain store and read by a
 * plain load on another device; the flag's st.release.sys and
 * ld.acquire.sys put the write before the read (PTX: release and acquire
 * morally strong at system scope synchronise). At GPU scope they would not
 * reach the other device (tests/mutants: mg-gpu-scope). Deadlock-free: a
 * device publishes before it waits and waits only for lower devices.
 *
 * The file that includes this template may define SL_MG_PUBLISH and
 * SL_MG_OBSERVE (the flag's store and load) and SL_MG_NAME (the host
 * driver's name), as the mutant does.
 *
 * Template: compiled once per (T, TN, OPN) through cuda/inst_all.h. */
#define SL_LOOKBACK_DET_NO_HOST
#include "cuda/device/lookback_det_tmpl.cuh"
#undef SL_LOOKBACK_DET_NO_HOST
#include "cuda/device/multi_gpu.h"
#if defined(__CUDACC__)
#include "cuda/device/mg_devices.h"
#endif

/* The single-pass driver's own host entry is not this file's (a static
 * inline function that uses it keeps the compilers quiet) */
static inline void SL_KN(mg_no_sp_host)(void) { (void)SL_KN(sp_host); }

#if !defined(SL_MG_PUBLISH)
#define SL_MG_PUBLISH(a, i, v) ST_RELEASE_SYS(a, i, v)
#define SL_MG_OBSERVE(a, i) LD_ACQUIRE_SYS(a, i)
#endif
#if !defined(SL_MG_NAME)
#define SL_MG_NAME multi_gpu
#endif

/* 1: sums[r] = the combination of tiles r * per .. r * per + per - 1 (the
 * last range shorter), for every range r < ranges. */
SL_GLOBAL_BOUNDED(SL_TILE_MAX_THREADS, 1)
SL_KN(mg_reduce)(const T *in, T *sums, size_t n, unsigned items, size_t tiles, size_t per, size_t ranges)
{
    SHARED_DYN(T, stage_all);
    SHARED(T, wsum, SL_MAX_BLOCK_THREADS / SL_WARP_SIZE);
    T *stage = stage_all + WARP_ID() * SL_TILE_STAGE_ELEMS(items, sizeof(T));
    const size_t tile_elems = (size_t)blockDim.x * items;
    for (size_t r = blockIdx.x; r < ranges; r += gridDim.x) {
        const size_t lo = r * per, hi = lo + per < tiles ? lo + per : tiles;
        T acc = IDENTITY();
        for (size_t t = hi; t-- > lo;) {
            T x[SL_TILE_MAXI];
            SL_KN(tile_load)(in, t * tile_elems, n, items, stage, x);
            const T total = SL_KN(tile_block_total)(x, items, wsum);
            if (threadIdx.x == 0)
                acc = t == hi - 1 ? total : OP(total, acc); /* the earlier tile in front */
            SYNCTHREADS();
        }
        if (threadIdx.x == 0)
            ST(sums, r, acc);
    }
}
SL_DEFINE_LAUNCH(SL_KN(mg_reduce), (const T *, in), (T *, sums), (size_t, n), (unsigned, items), (size_t, tiles),
                 (size_t, per), (size_t, ranges))

/* The boards, one per device, in its own memory: flag[h] = the epoch once
 * device h's total is in val[h]. Arrays of ndev pointers, passed by value
 * in the launch (no table to copy to each GPU before a run). */
typedef struct {
    T *sums[SL_MG_MAX_DEVICES];        /* each device's range totals */
    size_t nsums[SL_MG_MAX_DEVICES];   /* how many */
    uint32_t *flag[SL_MG_MAX_DEVICES]; /* each device's board: ndev flags */
    T *val[SL_MG_MAX_DEVICES];         /* and ndev values */
    T *carry[SL_MG_MAX_DEVICES];       /* each device's carry (one element) */
} SL_FN(sl_mg_tables);

/* 2: one warp per device, device dev_base + blockIdx.x. */
SL_GLOBAL SL_KN(mg_carry)(SL_FN(sl_mg_tables) tb, unsigned ndev, unsigned dev_base, uint32_t epoch,
                          uint32_t *error)
{
    const unsigned dev = dev_base + blockIdx.x, lane = LANE_ID();
    /* the shard's total: lane l folds a contiguous run of range totals,
     * the warp combines the runs by a fixed shuffle tree (the last
     * device's total is needed by none) */
    T total = IDENTITY();
    if (dev + 1 < ndev) {
        const size_t m = tb.nsums[dev], per = (m + SL_WARP_SIZE - 1) / SL_WARP_SIZE;
        const size_t lo = lane * per < m ? lane * per : m, hi = lo + per < m ? lo + per : m;
        T v = IDENTITY();
        for (size_t k = lo; k < hi; k++)
            v = k == lo ? LD(tb.sums[dev], k) : OP(v, LD(tb.sums[dev], k));
        total = SHFL_IDX(SL_KN(tile_warp_iscan)(v), SL_WARP_SIZE - 1);
    }
    /* published to every later device: the value, then the flag */
    if (lane == 0)
        for (unsigned h = dev + 1; h < ndev; h++) {
            ST(tb.val[h], dev, total);
            SL_MG_PUBLISH(tb.flag[h], dev, epoch);
        }
    /* the totals of devices 0 .. dev - 1, lane l waiting for device l's */
    int seen = lane >= dev;
    for (uint32_t polls = 0;; polls++) {
        if (!seen) {
            WAITS_FOR("the total of device #", lane);
            seen = SL_MG_OBSERVE(tb.flag[dev], lane) == epoch;
            if (seen)
                WAIT_DONE();
        }
        if (ALL(seen))
            break;
        if (polls == SL_TILE_SPIN_LIMIT) {
            if (lane == 0)
                ST_RELAXED(error, 0, (uint32_t)1); /* not reached by verify: a device that never publishes */
            return;
        }
        NANOSLEEP(SL_TILE_BACKOFF_MAX_NS);
    }
    T v = lane < dev ? LD(tb.val[dev], lane) : IDENTITY();
    /* the carry: device 0's total first, a left fold */
    if (dev > 0) {
        T c = SHFL_IDX(v, 0);
        for (unsigned l = 1; l < dev; l++)
            c = OP(c, SHFL_IDX(v, l));
        if (lane == 0)
            ST(tb.carry[dev], 0, c);
    }
}
SL_DEFINE_LAUNCH(SL_KN(mg_carry), (SL_FN(sl_mg_tables), tb), (unsigned, ndev), (unsigned, dev_base),
                 (uint32_t, epoch), (uint32_t *, error))

/* One device's buffers. */
typedef struct {
    const T *in;
    T *out;
    size_t n;
    T *sums, *val, *carry;
    uint32_t *flag;
    size_t nsums;
} SL_FN(sl_mg_dev);

/* Phase 1 on device d (skipped for the last device, and for an empty
 * shard, whose total stays the identity: nsums = 0). */
static sl_status SL_KN(mg_reduce_dev)(SL_FN(sl_mg_dev) *d, const sl_tile_geom *g, int last)
{
    const size_t tiles = d->n ? sl_dev_tiles(d->n, g->tile) : 0;
    size_t ranges = 0, per = 0;
    d->nsums = 0;
    if (last || tiles == 0)
        return SL_OK;
    sl_two_level_ranges(tiles, SL_MG_RANGES, &ranges, &per);
    const unsigned grid = sl_dev_grid(ranges, SL_RESIDENT_BLOCKS(SL_KN(mg_reduce), g->block, g->shmem));
    d->nsums = ranges;
    return SL_LAUNCH(mg_reduce)(sl_launch_1d(grid, g->block, g->shmem), d->in, d->sums, d->n, g->items, tiles, per,
                                ranges);
}

/* Phase 3 on device d, its carry in front unless it is device 0. */
static sl_status SL_KN(mg_scan_dev)(const SL_FN(sl_mg_dev) *d, const sl_kargs *a, const sl_tile_geom *g,
                                    int first)
{
    sl_sp_cfg c;
    sl_kargs k = *a;
    if (d->n == 0)
        return SL_OK;
    memset(&c, 0, sizeof c);
    c.g = *g;
    c.windows = 1;
    c.adversary = a->adversary;
    c.carry = first ? NULL : d->carry;
    k.n = d->n;
    return SL_KN(sp_dev)(d->in, d->out, &k, &c);
}

/* Phase 2 on every device at once. In the simulator, one launch of ndev
 * simulated devices of one block each, so that the explorer interleaves
 * them and an ordering of GPU scope does not reach across them; on the
 * GPU of the catalogue's run (every shard on the current GPU) a launch per
 * device in device order, each waiting only for those before it. */
static sl_status SL_KN(mg_carry_all)(SL_FN(sl_mg_tables) tb, unsigned ndev, uint32_t *error)
{
    sl_status st = SL_OK;
#if !defined(__CUDACC__)
    const unsigned before = sl_launch_devices(1);
    st = SL_LAUNCH(mg_carry)(sl_launch_1d(ndev, SL_WARP_SIZE, 0), tb, ndev, 0, 1u, error);
    (void)sl_launch_devices(before);
#else
    for (unsigned g = 0; g < ndev && st == SL_OK; g++)
        st = SL_LAUNCH(mg_carry)(sl_launch_1d(1, SL_WARP_SIZE, 0), tb, ndev, g, 1u, error);
#endif
    return st;
}

/* The boards' pointers of every device, for the carry launches. */
static void SL_KN(mg_tables_fill)(const SL_FN(sl_mg_dev) *d, unsigned ndev, SL_FN(sl_mg_tables) *tb)
{
    memset(tb, 0, sizeof *tb);
    for (unsigned g = 0; g < ndev; g++) {
        tb->sums[g] = d[g].sums;
        tb->val[g] = d[g].val;
        tb->carry[g] = d[g].carry;
        tb->flag[g] = d[g].flag;
        tb->nsums[g] = d[g].nsums;
    }
}

#if defined(__CUDACC__)
/* Device memory of one device's part of a run on its own GPU, in its
 * arena: the board (range totals, values, flags, carry: each rounded up
 * to the arena's 256 bytes) and lookback-det's tile states. */
static size_t SL_KN(mg_arena_bytes)(size_t len, unsigned ndev, const sl_tile_geom *g)
{
    const size_t align = 256, tiles = len ? sl_dev_tiles(len, g->tile) : 0;
    const size_t board[4] = {SL_MG_RANGES * sizeof(T), ndev * sizeof(T), ndev * sizeof(uint32_t), sizeof(T)};
    size_t bytes = sl_tile_status_arena_bytes(tiles, sizeof(T), 1);
    for (int k = 0; k < 4; k++)
        bytes += (board[k] + align - 1) / align * align;
    return bytes;
}

/* The scan with shard g resident on GPU g (r: slices, streams, arenas).
 * Every GPU's work is queued on its own stream without a host wait: the
 * reduces, the carry warps (each on its GPU, waiting for the flags of the
 * GPUs before it, which sit in its own memory and are written by those
 * GPUs through peer access) and the scans; the GPUs run at once. The
 * caller waits (sl_mg_run_wait) and reads the arenas' error words. */
static sl_status SL_KN(mg_on_gpus)(const sl_kargs *a, sl_mg_run *r, const sl_tile_geom *g)
{
    const unsigned p = r->devices;
    SL_FN(sl_mg_dev) d[SL_MG_MAX_DEVICES];
    SL_FN(sl_mg_tables) tb;
    size_t cap[SL_MG_MAX_DEVICES];
    sl_status st = SL_OK;
    if (r->elem != sizeof(T) || r->total != a->n)
        return SL_ERR_ARG;
    memset(d, 0, sizeof d);
    for (unsigned k = 0; k < p; k++)
        cap[k] = SL_KN(mg_arena_bytes)(r->n[k], p, g);
    if ((st = sl_mg_run_begin(r, cap)) != SL_OK)
        return st;
    const uint32_t epoch = r->arena[0].epoch;
    /* every board before any carry: the GPUs before k write into k's */
    for (unsigned k = 0; k < p; k++) {
        SL_TRY(sl_mg_run_use(r, k));
        d[k].in = (const T *)r->in[k];
        d[k].out = (T *)r->out[k];
        d[k].n = r->n[k];
        SL_TRY(sl_dev_alloc((void **)&d[k].sums, SL_MG_RANGES * sizeof(T)));
        SL_TRY(sl_dev_alloc((void **)&d[k].val, p * sizeof(T)));
        SL_TRY(sl_dev_alloc((void **)&d[k].flag, p * sizeof(uint32_t)));
        SL_TRY(sl_dev_alloc((void **)&d[k].carry, sizeof(T)));
        SL_TRY(SL_KN(mg_reduce_dev)(&d[k], g, k + 1 == p));
    }
    SL_KN(mg_tables_fill)(d, p, &tb);
    for (unsigned k = 0; k < p; k++) {
        SL_TRY(sl_mg_run_use(r, k));
        SL_TRY(SL_LAUNCH(mg_carry)(sl_launch_1d(1, SL_WARP_SIZE, 0), tb, p, k, epoch, r->arena[k].error));
    }
    for (unsigned k = 0; k < p; k++) {
        SL_TRY(sl_mg_run_use(r, k));
        SL_TRY(SL_KN(mg_scan_dev)(&d[k], a, g, k == 0));
    }
done:
    return sl_mg_run_end(r, st);
}

/* The catalogue's call with one shard per GPU on host buffers: the slices
 * copied in, the run, the wait, the slices copied out. */
static sl_status SL_KN(mg_host_on_gpus)(const sl_kargs *a, unsigned p, const sl_tile_geom *g)
{
    sl_mg_run r;
    int gave_up = 0;
    sl_status st = sl_mg_run_open(&r, p, a->n, sizeof(T), 1);
    if (st != SL_OK)
        return st;
    SL_TRY(sl_mg_run_copy_in(&r, a->in));
    SL_TRY(SL_KN(mg_on_gpus)(a, &r, g));
    SL_TRY(sl_mg_run_wait(&r, &gave_up));
    if (gave_up) {
        st = SL_ERR_TIMEOUT;
        goto done;
    }
    SL_TRY(sl_mg_run_copy_out(&r, a->out));
done:
    sl_mg_run_close(&r);
    return st;
}
#endif

/* Host driver of the catalogue: a->param devices (0: SL_MG_DEFAULT_DEVICES,
 * at most SL_MG_MAX_DEVICES), a->block threads of the shards' scans (0:
 * lookback-det's for the longest shard). The simulator runs the devices'
 * carry kernels as one launch of simulated devices. On the GPU: the
 * benchmark's resident run where one is set (sl_mg_run_current), else
 * shard g on GPU g or every shard on the current GPU as SCANLAB_MG_DEVICES
 * says (cuda/device/mg_devices.h; inside a single-GPU device arena the
 * data is on the current GPU, so the shards stay there). */
SL_HOST sl_status SL_KN(SL_MG_NAME)(const sl_kargs *a)
{
    const unsigned p = a->param == 0 ? SL_MG_DEFAULT_DEVICES : a->param > 0 ? (unsigned)a->param : 0;
    SL_FN(sl_mg_dev) d[SL_MG_MAX_DEVICES];
    SL_FN(sl_mg_tables) tb;
    uint32_t *error = NULL, err = 0;
    size_t lo, len;
    sl_tile_geom g;
    sl_status st = SL_OK;
    if (p == 0 || p > SL_MG_MAX_DEVICES)
        return SL_ERR_ARG;
    sl_mg_shard(a->n, p, 0, &lo, &len); /* the longest shard */
    if (sl_tile_geom_of(a->block, 0, sizeof(T), sl_lookback_threads(len, sizeof(T)), &g) != SL_OK)
        return SL_ERR_ARG;
    if (a->n == 0)
        return SL_OK;
#if defined(__CUDACC__)
    if (sl_mg_run_current())
        return sl_mg_run_current()->devices == p ? SL_KN(mg_on_gpus)(a, sl_mg_run_current(), &g) : SL_ERR_ARG;
    if (!sl_dev_in_arena()) {
        int each = 0;
        if ((st = sl_mg_place(p, &each, NULL, 0)) != SL_OK)
            return st;
        if (each)
            return SL_KN(mg_host_on_gpus)(a, p, &g);
    }
#endif
    memset(d, 0, sizeof d);
    for (unsigned k = 0; k < p; k++) {
        sl_mg_shard(a->n, p, k, &lo, &len);
        const size_t cells = len ? len : 1;
        d[k].n = len;
        SL_TRY(sl_dev_alloc((void **)&d[k].in, cells * sizeof(T)));
        SL_TRY(sl_dev_alloc((void **)&d[k].out, cells * sizeof(T)));
        SL_TRY(sl_dev_alloc((void **)&d[k].sums, SL_MG_RANGES * sizeof(T)));
        SL_TRY(sl_dev_alloc((void **)&d[k].val, p * sizeof(T)));
        SL_TRY(sl_dev_alloc((void **)&d[k].flag, p * sizeof(uint32_t)));
        SL_TRY(sl_dev_alloc((void **)&d[k].carry, sizeof(T)));
        SL_TRY(sl_dev_memset(d[k].flag, 0, p * sizeof(uint32_t)));
        if (len)
            SL_TRY(sl_dev_copy_to((void *)d[k].in, (const char *)a->in + lo * sizeof(T), len * sizeof(T)));
    }
    SL_TRY(sl_dev_alloc((void **)&error, sizeof(uint32_t)));
    SL_TRY(sl_dev_memset(error, 0, sizeof(uint32_t)));
    for (unsigned k = 0; k < p; k++)
        SL_TRY(SL_KN(mg_reduce_dev)(&d[k], &g, k + 1 == p));
    SL_KN(mg_tables_fill)(d, p, &tb);
    SL_TRY(SL_KN(mg_carry_all)(tb, p, error));
    SL_TRY(sl_dev_sync());
    SL_TRY(sl_dev_copy_from(&err, error, sizeof err));
    if (err) {
        st = SL_ERR_TIMEOUT;
        goto done;
    }
    for (unsigned k = 0; k < p; k++)
        SL_TRY(SL_KN(mg_scan_dev)(&d[k], a, &g, k == 0));
    for (unsigned k = 0; k < p; k++) {
        sl_mg_shard(a->n, p, k, &lo, &len);
        if (len)
            SL_TRY(sl_dev_copy_from((char *)a->out + lo * sizeof(T), d[k].out, len * sizeof(T)));
    }
done:
    for (unsigned k = 0; k < p; k++) {
        sl_dev_free((void *)d[k].in);
        sl_dev_free(d[k].out);
        sl_dev_free(d[k].sums);
        sl_dev_free(d[k].val);
        sl_dev_free(d[k].flag);
        sl_dev_free(d[k].carry);
    }
    sl_dev_free(error);
    return st;
}
