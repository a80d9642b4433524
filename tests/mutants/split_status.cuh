/* The tile-status protocol of cuda/device/tile_status.cuh in the split
 * layout of the textbook chained scan (Yan, Long & Zhang 2013; Kirk & Hwu,
 * "Programming Massively Parallel Processors", the single-pass scan): per
 * tile a 4-byte flag word (epoch << 2 | status) and, apart from it, the
 * tile's value. The catalogue packs the value into the status word, so
 * that no ordering between two locations is needed; here the value is a
 * second location and the publish and the wait must order it:
 *
 *   release/acquire (default):  value; ST_RELEASE flag  ||  LD_ACQUIRE flag; value
 *   fences (MUT_SPLIT_FENCES):  value; THREADFENCE; ST_RELAXED flag
 *                               ||  LD_RELAXED flag; THREADFENCE; value
 *
 * The value is a plain access (LD/ST), or with MUT_SPLIT_STRONG_VALUES a
 * relaxed strong one (LD_RELAXED/ST_RELAXED). With no mutation macro each
 * of the three settings is a correct protocol (the controls split-relacq,
 * split-fences, split-strong); the mutation points MUT_SPLIT_* each remove
 * one ordering. Only what the chained scan uses is here: the publish of a
 * tile's inclusive prefix and the one-thread wait for it (no windows, no
 * warp-wide wait). The guarded part is the catalogue's, with the value
 * array added to sl_tile_status. */
#ifndef MUT_SPLIT_STATUS_H
#define MUT_SPLIT_STATUS_H

#include "cuda/dialect.h"

enum { SL_TILE_X = 0, SL_TILE_A = 1, SL_TILE_P = 2 };
#define SL_TILE_EPOCH_SHIFT 2
#define SL_TILE_SPIN_LIMIT (1u << 20)

typedef struct {
    void *word;       /* one flag word (uint32_t) per tile */
    void *value;      /* one value (T) per tile */
    uint32_t *ticket; /* two ticket counters: run e uses ticket[e & 1] */
    uint32_t *error;  /* set to 1 by a wait that gave up */
    uint32_t epoch;   /* this run's epoch (>= 1) */
    uint32_t tiles;   /* tiles of the scan */
    const void *carry; /* sp_driver.cuh's carry: always NULL here */
} sl_tile_status;

static inline void sl_tile_status_free(sl_tile_status *ts)
{
    sl_dev_free(ts->word);
    sl_dev_free(ts->value);
    sl_dev_free(ts->ticket);
    if (!sl_dev_in_arena())
        sl_dev_free(ts->error);
    memset(ts, 0, sizeof *ts);
}

/* As the catalogue's, with the value array (windows are not supported). */
static inline sl_status sl_tile_status_alloc(sl_tile_status *ts, size_t tiles, size_t elem_size, int windows)
{
    sl_status st = SL_OK;
    memset(ts, 0, sizeof *ts);
    if (windows || tiles > 0xffffffffu - SL_MAX_BLOCK_THREADS * 1024u)
        return SL_ERR_ARG;
    ts->tiles = (uint32_t)tiles;
    ts->epoch = sl_dev_epoch();
    SL_TRY(sl_dev_alloc(&ts->word, tiles * sizeof(uint32_t)));
    SL_TRY(sl_dev_alloc(&ts->value, tiles * elem_size));
    SL_TRY(sl_dev_alloc((void **)&ts->ticket, 2 * sizeof(uint32_t)));
    if (!sl_dev_in_arena()) {
        SL_TRY(sl_dev_alloc((void **)&ts->error, sizeof(uint32_t)));
        SL_TRY(sl_dev_memset(ts->word, 0, tiles * sizeof(uint32_t)));
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

/* The chained scan's one-thread wait does not sleep: no timing to set. */
static inline void sl_tile_status_timing(sl_tile_status *ts, unsigned grid, size_t tile_bytes, size_t scan_bytes,
                                         size_t l2_bytes, int pipelined)
{
    (void)ts;
    (void)grid;
    (void)tile_bytes;
    (void)scan_bytes;
    (void)l2_bytes;
    (void)pipelined;
}

static inline sl_status sl_tile_status_check(const sl_tile_status *ts)
{
    uint32_t err = 0;
    sl_status st = sl_dev_sync();
    if (st != SL_OK || sl_dev_in_arena())
        return st;
    st = sl_dev_copy_from(&err, ts->error, sizeof err);
    return st != SL_OK ? st : err ? SL_ERR_TIMEOUT : SL_OK;
}

SL_DEVICE uint32_t sl_tile_ticket(sl_tile_status ts)
{
    return ATOMIC_ADD(&ts.ticket[ts.epoch & 1u], (uint32_t)1);
}

SL_DEVICE void sl_tile_ticket_prepare_next(sl_tile_status ts)
{
    ST_RELAXED(ts.ticket, (ts.epoch + 1u) & 1u, (uint32_t)0);
}

SL_DEVICE void sl_tile_give_up(sl_tile_status ts)
{
    ST_RELAXED(ts.error, 0, (uint32_t)1);
}

#endif /* MUT_SPLIT_STATUS_H */

/* ---- per instantiation (T) ---------------------------------------------- */

#if defined(MUT_SPLIT_STRONG_VALUES)
#define MUT_SPLIT_ST_VALUE(a, i, v) ST_RELAXED(a, i, v)
#define MUT_SPLIT_LD_VALUE(a, i) LD_RELAXED(a, i)
#else
#define MUT_SPLIT_ST_VALUE(a, i, v) ST(a, i, v)
#define MUT_SPLIT_LD_VALUE(a, i) LD(a, i)
#endif

/* Publishes status s with value v for tile k (words: ts.word). */
SL_DEVICE void SL_KN(tile_publish)(sl_tile_status ts, void *words, size_t k, uint32_t s, T v)
{
    const uint32_t flag = (ts.epoch << SL_TILE_EPOCH_SHIFT) | s;
#if defined(MUT_SPLIT_FLAG_FIRST)
    ST_RELEASE((uint32_t *)words, k, flag); /* mutated: the flag published before the value */
#endif
    MUT_SPLIT_ST_VALUE((T *)ts.value, k, v); /* the value */
#if defined(MUT_SPLIT_FENCES) && !defined(MUT_SPLIT_NO_WRITER_FENCE)
    THREADFENCE(); /* the *-no-writer-fence mutants remove this fence */
#endif
#if defined(MUT_SPLIT_FENCES)
    ST_RELAXED((uint32_t *)words, k, flag); /* ordered after the value by the fence */
#elif defined(MUT_SPLIT_PUBLISH_RELAXED)
    ST_RELAXED((uint32_t *)words, k, flag); /* mutated: relaxed for release */
#elif !defined(MUT_SPLIT_FLAG_FIRST)
    ST_RELEASE((uint32_t *)words, k, flag);
#endif
}

/* One thread waits until tile k's flag shows P in this run and returns its
 * value. Bounded as the catalogue's wait. */
SL_DEVICE T SL_KN(tile_wait_prefix)(sl_tile_status ts, const void *words, size_t k)
{
    const uint32_t ready = (ts.epoch << SL_TILE_EPOCH_SHIFT) | SL_TILE_P;
    for (uint32_t polls = 0; polls < SL_TILE_SPIN_LIMIT; polls++) {
#if defined(MUT_SPLIT_FENCES)
        const uint32_t f = LD_RELAXED((const uint32_t *)words, k); /* the fence below orders the value */
#elif defined(MUT_SPLIT_WAIT_RELAXED)
        const uint32_t f = LD_RELAXED((const uint32_t *)words, k); /* mutated: relaxed for acquire */
#else
        const uint32_t f = LD_ACQUIRE((const uint32_t *)words, k);
#endif
        if (f == ready) {
#if defined(MUT_SPLIT_FENCES) && !defined(MUT_SPLIT_NO_READER_FENCE)
            THREADFENCE(); /* the *-no-reader-fence mutants remove this fence */
#endif
            return MUT_SPLIT_LD_VALUE((const T *)ts.value, k); /* the value */
        }
    }
    sl_tile_give_up(ts);
    return IDENTITY();
}

#undef MUT_SPLIT_ST_VALUE
#undef MUT_SPLIT_LD_VALUE
