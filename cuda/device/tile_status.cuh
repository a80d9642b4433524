/* The inter-block protocol of the single-pass scans (chained-static,
 * chained-ticket, lookback): tile status values, their packing, publishing,
 * the bounded wait with its error flag, and the tile ticket. The deadlock
 * explorer of the simulator reasons about exactly these accesses: a wait is
 * a volatile load (LDV) that yields until the awaited tile publishes.
 *
 * Layout (as CUB's ScanTileState, Merrill & Garland 2016):
 *   4-byte T: one 64-bit word per tile, status in the high half and the
 *     value's bits in the low half, written and read with one volatile
 *     64-bit access, so a reader never sees a status with another
 *     status's value;
 *   8-byte T: a 32-bit status per tile and two value arrays, aggregates
 *     and inclusive prefixes (each written once, so a value is never
 *     overwritten under a reader): the writer stores the value, fences,
 *     then stores the status; the reader loads the status, fences, then
 *     loads the value.
 *
 * The first part is type-independent (guarded); the second depends on T
 * and is defined once per instantiation with SL_KN names. */
#ifndef SCANLAB_TILE_STATUS_H
#define SCANLAB_TILE_STATUS_H

#include "cuda/dialect.h"

/* Status of a tile: nothing yet, its aggregate (A), its inclusive prefix (P). */
enum { SL_TILE_X = 0, SL_TILE_A = 1, SL_TILE_P = 2 };

/* Iterations after which a wait gives up, sets the error flag and lets the
 * kernel finish. On the GPU this turns a deadlock into SL_ERR_TIMEOUT; in
 * the simulator the explorer reports a deadlock long before. */
#define SL_TILE_SPIN_LIMIT (1ull << 26)

/* Device memory of the protocol for `tiles` tiles. */
typedef struct {
    uint64_t *word;  /* 4-byte T: packed status and value per tile */
    uint32_t *flag;  /* 8-byte T: status per tile */
    void *agg;       /* 8-byte T: aggregates (T[tiles]) */
    void *incl;      /* 8-byte T: inclusive prefixes (T[tiles]) */
    uint32_t *error; /* set to 1 by a wait that gave up */
    uint32_t *ticket; /* the next tile to hand out */
} sl_tile_status;

/* Releases what sl_tile_status_alloc allocated (NULL pointers are fine). */
static inline void sl_tile_status_free(sl_tile_status *ts)
{
    sl_dev_free(ts->word);
    sl_dev_free(ts->flag);
    sl_dev_free(ts->agg);
    sl_dev_free(ts->incl);
    sl_dev_free(ts->error);
    sl_dev_free(ts->ticket);
    memset(ts, 0, sizeof *ts);
}

/* Allocates and zeroes (status X, no error, ticket 0) the protocol's
 * memory for tiles of elements of elem_size bytes. */
static inline sl_status sl_tile_status_alloc(sl_tile_status *ts, size_t tiles, size_t elem_size)
{
    sl_status st = SL_OK;
    memset(ts, 0, sizeof *ts);
    if (elem_size == sizeof(uint32_t)) {
        SL_TRY(sl_dev_alloc((void **)&ts->word, tiles * sizeof(uint64_t)));
        SL_TRY(sl_dev_memset(ts->word, 0, tiles * sizeof(uint64_t)));
    } else {
        SL_TRY(sl_dev_alloc((void **)&ts->flag, tiles * sizeof(uint32_t)));
        SL_TRY(sl_dev_memset(ts->flag, 0, tiles * sizeof(uint32_t)));
        SL_TRY(sl_dev_alloc(&ts->agg, tiles * elem_size));
        SL_TRY(sl_dev_alloc(&ts->incl, tiles * elem_size));
    }
    SL_TRY(sl_dev_alloc((void **)&ts->error, sizeof(uint32_t)));
    SL_TRY(sl_dev_memset(ts->error, 0, sizeof(uint32_t)));
    SL_TRY(sl_dev_alloc((void **)&ts->ticket, sizeof(uint32_t)));
    SL_TRY(sl_dev_memset(ts->ticket, 0, sizeof(uint32_t)));
    return SL_OK;
done:
    sl_tile_status_free(ts);
    return st;
}

/* After the kernels: SL_ERR_TIMEOUT if a wait gave up, else SL_OK. */
static inline sl_status sl_tile_status_check(const sl_tile_status *ts)
{
    uint32_t err = 0;
    sl_status st = sl_dev_copy_from(&err, ts->error, sizeof err);
    return st != SL_OK ? st : err ? SL_ERR_TIMEOUT : SL_OK;
}

/* The next tile in the order the blocks get here (one atomic per block). */
SL_DEVICE uint32_t sl_tile_ticket(sl_tile_status ts)
{
    return ATOMIC_ADD(ts.ticket, (uint32_t)1);
}

#endif /* SCANLAB_TILE_STATUS_H */

/* ---- per instantiation (T) ---------------------------------------------- */

/* Publishes status s (SL_TILE_A or SL_TILE_P) with value v for a tile. */
SL_DEVICE void SL_KN(tile_publish)(sl_tile_status ts, size_t tile, uint32_t s, T v)
{
    if (sizeof(T) == sizeof(uint32_t)) {
        uint32_t bits;
        memcpy(&bits, &v, sizeof bits);
        STV(ts.word, tile, ((uint64_t)s << 32) | bits);
    } else {
        T *vals = (T *)(s == SL_TILE_P ? ts.incl : ts.agg);
        ST(vals, tile, v);
        THREADFENCE(); /* the value is visible before the status */
        STV(ts.flag, tile, s);
    }
}

/* Waits until a tile has published; returns its status and stores its
 * value in *v. Bounded: after SL_TILE_SPIN_LIMIT polls it sets the error
 * flag and returns SL_TILE_P with the identity, so that the kernel ends. */
SL_DEVICE uint32_t SL_KN(tile_wait)(sl_tile_status ts, size_t tile, T *v)
{
    for (unsigned long long polls = 0; polls < SL_TILE_SPIN_LIMIT; polls++) {
        if (sizeof(T) == sizeof(uint32_t)) {
            uint64_t w = LDV(ts.word, tile);
            uint32_t s = (uint32_t)(w >> 32), bits = (uint32_t)w;
            if (s != SL_TILE_X) {
                memcpy(v, &bits, sizeof bits);
                return s;
            }
        } else {
            uint32_t s = LDV(ts.flag, tile);
            if (s != SL_TILE_X) {
                THREADFENCE(); /* the value is read after the status */
                *v = LDV((T *)(s == SL_TILE_P ? ts.incl : ts.agg), tile);
                return s;
            }
        }
    }
    STV(ts.error, 0, (uint32_t)1);
    *v = IDENTITY();
    return SL_TILE_P;
}
