/* A copy of cuda/device/tile_status.cuh (the packed tile-status protocol
 * of the single-pass scans) with the mutation points of lb-two-stores
 * (MUT_SP_TWO_STORES) and ct-plain-poll (MUT_SP_PLAIN_POLL); with neither
 * defined it is the catalogue's protocol. Included instead of the catalogue's file by chained_family.cuh
 * and lb_family.cuh. The catalogue's description follows.
 *
 * The inter-block protocol of every single-pass scan (chained-static,
 * chained-ticket, lookback, lookback-det): tile status words, their
 * packing, publishing, the warp-wide bounded wait with back-off, and the
 * tile ticket. The deadlock explorer of the simulator reasons about
 * exactly these accesses.
 *
 * One word per tile holds its status and its value together, written by
 * one strong store and read by one strong load, so a reader never pairs a
 * status with another status's value (Merrill & Garland 2016; CUB's
 * ScanTileState):
 *   4-byte T: 8 bytes, the value's bits low, (epoch << 2 | status) high;
 *   8-byte T: 16 bytes (sl_u64x2): the value's bits in lo; in hi,
 *     (epoch << 2 | status) and, in the top 32 bits, a tag of the value.
 * Status: X (nothing yet), A (the tile's aggregate), P (its inclusive
 * prefix). A word whose epoch is not the run's (sl_dev_epoch()) reads as
 * X, so runs that reuse the words (device arenas) need no clearing.
 *
 * Memory order (PTX): the value travels inside the word, and nothing else
 * a reader uses was written by the publishing block, so relaxed strong
 * accesses of GPU scope suffice: coherence of the one location orders the
 * X -> A -> P writes, and a load returns a whole word. PTX models a
 * 16-byte vector access as two 8-byte accesses in unspecified order; the
 * tag makes a word assembled from two different stores read as X (unless
 * the two values have equal tags, 2^-32 for unrelated values; equal
 * values are harmless). The GPU performs an aligned ld/st.v2.b64 as one
 * access (CUB's 16-byte tile words rely on the same).
 *
 * Every wait is bounded: after SL_TILE_SPIN_LIMIT polls it sets the error
 * word and returns P with the identity so that the kernel ends; the driver
 * returns SL_ERR_TIMEOUT. In the simulator each poll is a strong load (a
 * point where other blocks run) and the explorer reports a deadlock first.
 *
 * The first part is type-independent (guarded); the second depends on T
 * and is defined once per instantiation with SL_KN names. A file that
 * needs only the first (the benchmark's hand-off, which publishes words of
 * the same layout) defines SL_TILE_STATUS_COMMON_ONLY before including it. */
#ifndef MUT_SP_STATUS_H
#define MUT_SP_STATUS_H

#include "cuda/dialect.h"

/* Status of a tile (or window): nothing yet, its aggregate, its inclusive prefix. */
enum { SL_TILE_X = 0, SL_TILE_A = 1, SL_TILE_P = 2 };
#define SL_TILE_STATUS_MASK 3u
#define SL_TILE_EPOCH_SHIFT 2

/* Polls after which a wait gives up, sets the error word and lets the
 * kernel finish (with the back-off below, about a second on the GPU). In
 * the simulator the explorer reports a deadlock long before. */
#define SL_TILE_SPIN_LIMIT (1u << 20)
/* Timing of a warp-wide wait (__nanosleep). While the grid covers its
 * tiles, a look-back polls at once and backs off from MIN, doubling, to
 * MAX nanoseconds between polls: predecessors publish within a few
 * microseconds and the latency is the scan's time. A persistent grid (more
 * tiles than the GPU holds blocks) keeps the memory system streaming, and
 * there a look-back first sleeps, then polls every FULL_RETRY: a poll
 * right after the tile's own publication mostly finds nothing yet and
 * costs the other warps' loads an L2 round trip. The first sleep is a
 * third of a tile period, the time the grid's resident tiles take to be
 * read and written at STREAM bytes a nanosecond (the H100's device copy):
 * 2.9 us for 1056 blocks of 12 KiB tiles, less where fewer blocks fit an
 * SM. A scan whose input and output come to at most one and a half times
 * the L2 mostly finds its data there when it is run again on it, and its
 * tiles stream at about L2 bytes a nanosecond: half the sleep. Measured
 * on the H100 (docs/performance.md): at 2^28 i32, 0.86 of CUB's speed
 * without a first sleep, 1.00 with 2 us, 1.05 with 2.5 to 4 us, 0.96 with
 * 6 us; the 4-byte affine maps (four or five blocks an SM) 1.08 with 1.5
 * to 2 us and 0.95 with 3 us; at 2^22 i32 (32 MB within the 50 MB L2)
 * 0.89 to 0.92 with 2.9 us and 1.02 to 1.04 with 1.4 us, and at 2^22 i64
 * (64 MB) 0.99 to 1.01 and 1.02 to 1.04. A pipelined block
 * (single_pass.cuh) looks back only after loading its next tile, which
 * takes the first sleep's place: it has none (on the H100 the same speed
 * with none and with a quarter of it; with all of it 2 to 3 % slower at
 * 2^28, 5 to 12 % at 2^24). The chained scans poll one word without
 * sleeping: their time is the chain of hand-offs. */
#define SL_TILE_BACKOFF_MIN_NS 32u
#define SL_TILE_BACKOFF_MAX_NS 512u
#define SL_TILE_STREAM_BYTES_PER_NS 3000u
#define SL_TILE_L2_BYTES_PER_NS 6000u
/* Bound of the first sleep: the resident tiles fit the SMs' shared memory,
 * so a real grid stays far below it; it keeps the conversion defined for
 * any geometry. */
#define SL_TILE_FIRST_MAX_NS 65536.0
#define SL_TILE_FULL_RETRY_NS 600u
/* Window of the warp-wide look-back: one predecessor per lane. */
#define SL_TILE_WINDOW SL_WARP_SIZE

/* Device memory of the protocol, passed to kernels by value. */
typedef struct {
    void *word;       /* one status word per tile (8 or 16 bytes) */
    void *win;        /* one status word per window of 32 tiles (lookback-det), or NULL */
    uint32_t *ticket; /* two ticket counters: run e uses ticket[e & 1] */
    uint32_t *error;  /* set to 1 by a wait that gave up */
    uint32_t epoch;   /* this run's epoch (>= 1) */
    uint32_t tiles;   /* tiles of the scan */
    uint32_t first_ns; /* sleep before a look-back's first poll */
    uint32_t min_ns, max_ns; /* back-off between its polls */
    /* a value in front of every prefix of the scan (one element of its
     * type, written before the launch: a multi-GPU scan's carry from the
     * shards before), or NULL */
    const void *carry;
} sl_tile_status;

/* Bytes of one status word for elements of elem_size bytes. */
static inline size_t sl_tile_word_bytes(size_t elem_size) { return elem_size == 4 ? 8 : 16; }

/* Releases what sl_tile_status_alloc allocated (a device arena keeps
 * its memory). */
static inline void sl_tile_status_free(sl_tile_status *ts)
{
    sl_dev_free(ts->word);
    sl_dev_free(ts->win);
    sl_dev_free(ts->ticket);
    if (!sl_dev_in_arena())
        sl_dev_free(ts->error);
    memset(ts, 0, sizeof *ts);
}

/* Allocates the protocol's memory for `tiles` tiles of elements of
 * elem_size bytes (windows: also one word per window of 32 tiles). Outside
 * a device arena it is zeroed (status X, tickets 0, no error) and the
 * epoch is 1; in one, the arena's memory and epoch take its place. */
static inline sl_status sl_tile_status_alloc(sl_tile_status *ts, size_t tiles, size_t elem_size, int windows)
{
    const size_t wb = sl_tile_word_bytes(elem_size);
    const size_t nwin = (tiles + SL_TILE_WINDOW - 1) / SL_TILE_WINDOW;
    const int fresh = !sl_dev_in_arena();
    sl_status st = SL_OK;
    memset(ts, 0, sizeof *ts);
    if (tiles > 0xffffffffu - SL_MAX_BLOCK_THREADS * 1024u)
        return SL_ERR_ARG; /* tickets are 32-bit */
    ts->tiles = (uint32_t)tiles;
    ts->epoch = sl_dev_epoch();
    SL_TRY(sl_dev_alloc(&ts->word, tiles * wb));
    if (windows)
        SL_TRY(sl_dev_alloc(&ts->win, nwin * wb));
    SL_TRY(sl_dev_alloc((void **)&ts->ticket, 2 * sizeof(uint32_t)));
    if (fresh) {
        SL_TRY(sl_dev_alloc((void **)&ts->error, sizeof(uint32_t)));
        SL_TRY(sl_dev_memset(ts->word, 0, tiles * wb));
        if (windows)
            SL_TRY(sl_dev_memset(ts->win, 0, nwin * wb));
        SL_TRY(sl_dev_memset(ts->ticket, 0, 2 * sizeof(uint32_t)));
        SL_TRY(sl_dev_memset(ts->error, 0, sizeof(uint32_t)));
    } else {
        ts->error = sl_dev_error_word();
    }
    return SL_OK;
done:
    sl_tile_status_free(ts);
    return st;
}

/* Bytes that sl_tile_status_alloc takes from a device arena for `tiles`
 * tiles (as above), each allocation rounded up to the arena's alignment:
 * a driver that opens arenas itself sizes them with it (multi-gpu's on
 * several GPUs). Too few would still be correct: the arena then hands out
 * fresh zeroed memory. */
static inline size_t sl_tile_status_arena_bytes(size_t tiles, size_t elem_size, int windows)
{
    const size_t wb = sl_tile_word_bytes(elem_size), align = 256; /* SL_ARENA_ALIGN (dev_arena.cu) */
    const size_t nwin = (tiles + SL_TILE_WINDOW - 1) / SL_TILE_WINDOW;
    const size_t word = (tiles * wb + align - 1) / align * align, win = (nwin * wb + align - 1) / align * align;
    return word + (windows ? win : 0) + align;
}

/* The waits' timing for a grid of `grid` blocks with tiles of tile_bytes
 * (above), for a scan that reads and writes scan_bytes in all on a GPU
 * with l2_bytes of L2 (0: unknown), its blocks pipelined or not; the
 * driver sets it before the launch. */
static inline void sl_tile_status_timing(sl_tile_status *ts, unsigned grid, size_t tile_bytes, size_t scan_bytes,
                                         size_t l2_bytes, int pipelined)
{
    const int full = grid < ts->tiles;
    const int cached = scan_bytes <= l2_bytes + l2_bytes / 2;
    const double rate = cached ? SL_TILE_L2_BYTES_PER_NS : SL_TILE_STREAM_BYTES_PER_NS;
    /* read and written: twice the resident bytes; a third of that time */
    const double first_ns = 2.0 * (double)grid * (double)tile_bytes / rate / 3.0;
    ts->first_ns = full && !pipelined ? (uint32_t)(first_ns < SL_TILE_FIRST_MAX_NS ? first_ns : SL_TILE_FIRST_MAX_NS)
                                      : 0;
    ts->min_ns = full ? SL_TILE_FULL_RETRY_NS : SL_TILE_BACKOFF_MIN_NS;
    ts->max_ns = full ? SL_TILE_FULL_RETRY_NS : SL_TILE_BACKOFF_MAX_NS;
}

/* After the kernels: SL_ERR_TIMEOUT if a wait gave up, else SL_OK. Inside
 * a device arena the caller reads the arena's error word instead (no
 * wait here). */
static inline sl_status sl_tile_status_check(const sl_tile_status *ts)
{
    uint32_t err = 0;
    sl_status st = sl_dev_sync();
    if (st != SL_OK || sl_dev_in_arena())
        return st;
    st = sl_dev_copy_from(&err, ts->error, sizeof err);
    return st != SL_OK ? st : err ? SL_ERR_TIMEOUT : SL_OK;
}

/* The next tile in the order the blocks ask (one atomic). */
SL_DEVICE uint32_t sl_tile_ticket(sl_tile_status ts)
{
    return ATOMIC_ADD(&ts.ticket[ts.epoch & 1u], (uint32_t)1);
}

/* Clears the counter of the next run (epoch + 1), which nobody uses in
 * this one; called by one thread of the grid. The kernel boundary orders
 * it before the next run's tickets. */
SL_DEVICE void sl_tile_ticket_prepare_next(sl_tile_status ts)
{
    ST_RELAXED(ts.ticket, (ts.epoch + 1u) & 1u, (uint32_t)0);
}

/* Records that a wait gave up. */
SL_DEVICE void sl_tile_give_up(sl_tile_status ts)
{
    ST_RELAXED(ts.error, 0, (uint32_t)1);
}

/* A 32-bit tag of a 64-bit value (the high half of a multiplicative hash). */
SL_DEVICE uint32_t sl_tile_tag(uint64_t bits)
{
    return (uint32_t)((bits * UINT64_C(0x9e3779b97f4a7c15)) >> 32);
}

#endif /* MUT_SP_STATUS_H */

/* ---- per instantiation (T) ---------------------------------------------- */
#ifndef SL_TILE_STATUS_COMMON_ONLY

/* Publishes status s (SL_TILE_A or SL_TILE_P) with value v in words[k]
 * (the tile or window array of ts). */
SL_DEVICE void SL_KN(tile_publish)(sl_tile_status ts, void *words, size_t k, uint32_t s, T v)
{
    const uint64_t tag = ((uint64_t)ts.epoch << SL_TILE_EPOCH_SHIFT) | s;
    if (sizeof(T) == 4) {
        uint32_t bits;
        memcpy(&bits, &v, sizeof bits);
#if defined(MUT_SP_TWO_STORES)
        /* mutated: the word written as two 4-byte stores, value then status */
        ST_RELAXED((uint32_t *)words, 2 * k, bits);
        ST_RELAXED((uint32_t *)words, 2 * k + 1, (uint32_t)tag);
#else
        ST_RELAXED((uint64_t *)words, k, (tag << 32) | bits);
#endif
    } else {
        uint64_t bits;
        memcpy(&bits, &v, sizeof bits);
        sl_u64x2 w;
        w.lo = bits;
        w.hi = ((uint64_t)sl_tile_tag(bits) << 32) | tag;
#if defined(MUT_SP_TWO_STORES)
        /* mutated: the word written as two 8-byte stores, value then status */
        ST_RELAXED((uint64_t *)words, 2 * k, w.lo);
        ST_RELAXED((uint64_t *)words, 2 * k + 1, w.hi);
#else
        ST_RELAXED((sl_u64x2 *)words, k, w);
#endif
    }
}

/* One poll of words[k]: its status in this run (X when never written in
 * this epoch, or assembled from two stores) and, unless X, its value. */
SL_DEVICE uint32_t SL_KN(tile_peek)(sl_tile_status ts, const void *words, size_t k, T *v)
{
    uint64_t meta, bits;
    /* said before the poll, which is where a thread that waits is parked */
    WAITS_FOR(words == ts.word ? "tile #'s status" : "the aggregate of window #", k);
    if (sizeof(T) == 4) {
#if defined(MUT_SP_PLAIN_POLL)
        const uint64_t w = LD((const uint64_t *)words, k); /* mutated: a plain load for the relaxed one */
#else
        const uint64_t w = LD_RELAXED((const uint64_t *)words, k);
#endif
        meta = w >> 32;
        bits = w & 0xffffffffu;
    } else {
#if defined(MUT_SP_PLAIN_POLL)
        const sl_u64x2 w = LD((const sl_u64x2 *)words, k); /* mutated: a plain load for the relaxed one */
#else
        const sl_u64x2 w = LD_RELAXED((const sl_u64x2 *)words, k);
#endif
        if ((uint32_t)(w.hi >> 32) != sl_tile_tag(w.lo)) {
            PROBE("tile status: torn (tag mismatch)");
            return SL_TILE_X;
        }
        meta = w.hi & 0xffffffffu;
        bits = w.lo;
    }
    if ((meta >> SL_TILE_EPOCH_SHIFT) != ts.epoch) {
        PROBE("tile status: not yet published");
        return SL_TILE_X;
    }
    WAIT_DONE();
    if ((meta & SL_TILE_STATUS_MASK) == SL_TILE_A)
        PROBE("tile status: an aggregate");
    else
        PROBE("tile status: an inclusive prefix");
    if (sizeof(T) == 4) {
        const uint32_t b32 = (uint32_t)bits;
        memcpy(v, &b32, sizeof b32);
    } else {
        memcpy(v, &bits, sizeof bits);
    }
    return (uint32_t)(meta & SL_TILE_STATUS_MASK);
}

/* Warp-wide wait: lane l polls words[k] (k = idx, a signed index; k < 0
 * reads as P with the identity, the tiles before the first) until no lane
 * of the warp sees X, backing off between rounds. Every lane polls again
 * in every round, as CUB's look-back does, not only the lanes that saw X:
 * the result is one round's view of the window, and a waiting warp keeps
 * no record of which words it has seen so far, which would multiply the
 * states the deadlock explorer must visit by one subset of predecessors
 * per waiting block (docs/deadlock.md). On the H100 the two cost the same.
 * Returns the lane's status and value. All 32 lanes of the warp call it
 * together. Bounded:
 * on giving up every lane gets P and the identity. first: the look-back's
 * first wait, which sleeps ts.first_ns before it polls. */
SL_DEVICE uint32_t SL_KN(tile_wait_warp)(sl_tile_status ts, const void *words, long long idx, T *v, int first)
{
    uint32_t s = SL_TILE_P;
    *v = IDENTITY();
    if (first && ts.first_ns)
        NANOSLEEP(ts.first_ns);
    if (idx >= 0)
        s = SL_KN(tile_peek)(ts, words, (size_t)idx, v);
    unsigned ns = ts.min_ns;
    for (uint32_t polls = 0; ANY(s == SL_TILE_X); polls++) {
        if (polls == SL_TILE_SPIN_LIMIT) {
            if (LANE_ID() == 0)
                sl_tile_give_up(ts);
            *v = IDENTITY();
            return SL_TILE_P;
        }
        NANOSLEEP(ns);
        ns = ns < ts.max_ns ? 2 * ns : ns;
        if (idx >= 0)
            s = SL_KN(tile_peek)(ts, words, (size_t)idx, v);
    }
    return s;
}

/* One thread waits until words[k] shows status P and returns its value;
 * polls without sleeping (the chained scans' hand-off is their critical
 * path). Bounded as above. */
SL_DEVICE T SL_KN(tile_wait_prefix)(sl_tile_status ts, const void *words, size_t k)
{
    T v = IDENTITY();
    for (uint32_t polls = 0; polls < SL_TILE_SPIN_LIMIT; polls++)
        if (SL_KN(tile_peek)(ts, words, k, &v) == SL_TILE_P)
            return v;
    sl_tile_give_up(ts);
    return IDENTITY();
}
#endif /* SL_TILE_STATUS_COMMON_ONLY */
