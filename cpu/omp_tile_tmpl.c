/* The per-tile loops every OpenMP scan is built from, for one (type,
 * operator) pair: included by omp.c through cuda/inst_all.h. Tiles are
 * processed in blocks of CPU_STREAM_BLOCK_BYTES. */

enum { SL_FN(BLOCK) = CPU_STREAM_BLOCK_BYTES / sizeof(T) };

/* op over in[0..len), left to right. */
static inline T SL_FN(block_reduce)(const T *in, size_t len)
{
    T acc = SL_IDENTITY();
    for (size_t i = 0; i < len; i++)
        acc = SL_APPLY(acc, in[i]);
    return acc;
}

/* A tile is reduced as CPU_READ_STREAMS contiguous parts read side by side,
 * a piece of each per step: one core then keeps several sequential streams
 * (in different pages) in flight, which is what lets a single core draw
 * more of the memory bandwidth (the hardware prefetchers track streams per
 * page). The parts are combined in order, so any associative operator is
 * reduced correctly; a float output still goes through at most a tile's
 * length of roundings. */
typedef struct {
    const T *in;
    size_t len, part; /* elements in the tile and in each part */
    T acc[CPU_READ_STREAMS];
} SL_FN(reducer);

enum { SL_FN(PIECE) = SL_FN(BLOCK) / CPU_READ_STREAMS };

static inline void SL_FN(reducer_init)(SL_FN(reducer) *r, const T *in, size_t len)
{
    size_t line = CPU_CACHE_LINE / sizeof(T), part = len / CPU_READ_STREAMS + 1;
    r->in = in;
    r->len = in ? len : 0;
    r->part = (part + line - 1) / line * line;
    for (int i = 0; i < CPU_READ_STREAMS; i++)
        r->acc[i] = SL_IDENTITY();
}

/* Reduce step s's piece of every part; false once there is nothing left. */
static inline bool SL_FN(reducer_step)(SL_FN(reducer) *r, size_t s)
{
    size_t off = s * SL_FN(PIECE);
    if (off >= r->part || !r->len)
        return false;
    for (int i = 0; i < CPU_READ_STREAMS; i++) {
        size_t lo = (size_t)i * r->part + off, end = (size_t)(i + 1) * r->part;
        if (end > r->len)
            end = r->len;
        if (lo < end)
            r->acc[i] = SL_APPLY(r->acc[i], SL_FN(block_reduce)(r->in + lo, end - lo < SL_FN(PIECE)
                                                                                   ? end - lo
                                                                                   : SL_FN(PIECE)));
    }
    return true;
}

/* Prefetch step s's pieces, so that the step finds them in cache. */
static inline void SL_FN(reducer_prefetch)(const SL_FN(reducer) *r, size_t s)
{
    size_t off = s * SL_FN(PIECE), line = CPU_CACHE_LINE / sizeof(T);
    if (off >= r->part || !r->len)
        return;
    for (int i = 0; i < CPU_READ_STREAMS; i++) {
        size_t lo = (size_t)i * r->part + off, end = (size_t)(i + 1) * r->part;
        if (end > r->len)
            end = r->len;
        if (end > lo + SL_FN(PIECE))
            end = lo + SL_FN(PIECE);
        for (size_t a = lo; a < end; a += line)
            __builtin_prefetch(r->in + a, 0, CPU_PREFETCH_LOCALITY);
    }
}

static inline T SL_FN(reducer_result)(const SL_FN(reducer) *r)
{
    T acc = r->acc[0];
    for (int i = 1; i < CPU_READ_STREAMS; i++)
        acc = SL_APPLY(acc, r->acc[i]);
    return acc;
}

/* op over in[0..len) (in may be NULL when len is 0). */
static inline T SL_FN(tile_reduce)(const T *in, size_t len)
{
    SL_FN(reducer) r;
    SL_FN(reducer_init)(&r, in, len);
    for (size_t s = 0;; s++) {
        if (CPU_PREFETCH_STEPS)
            SL_FN(reducer_prefetch)(&r, s + CPU_PREFETCH_STEPS);
        if (!SL_FN(reducer_step)(&r, s))
            break;
    }
    return SL_FN(reducer_result)(&r);
}

/* Scan in[0..len) into out starting from carry, the op of everything before
 * it: out[i] = carry op in[0] op ... op in[i] (inclusive) or the same
 * without in[i] (exclusive). in may equal out: each element is read before
 * its output is written. Returns the carry after the last element. */
static inline T SL_FN(block_scan)(const T *in, T *out, size_t len, T carry, bool exclusive)
{
    if (exclusive) {
        for (size_t i = 0; i < len; i++) {
            T x = in[i];
            out[i] = carry;
            carry = SL_APPLY(carry, x);
        }
    } else {
        for (size_t i = 0; i < len; i++) {
            carry = SL_APPLY(carry, in[i]);
            out[i] = carry;
        }
    }
    return carry;
}

/* Scan one tile from carry and, in the same pass, reduce the thread's next
 * tile (next, next_len; NULL for none) and return that reduction: the next
 * tile's reads from memory overlap this tile's writes, as in a copy, instead
 * of each core alternating between a read phase and a write phase. With
 * stream set, each block is scanned into an L1-resident buffer and written
 * out with streaming stores. */
static inline T SL_FN(tile_scan)(const T *in, T *out, size_t len, T carry, bool exclusive,
                                 bool stream, const T *next, size_t next_len)
{
    enum { BLOCK = SL_FN(BLOCK) };
    alignas(CPU_CACHE_LINE) T buf[BLOCK];
    SL_FN(reducer) r;
    SL_FN(reducer_init)(&r, next, next_len);
    bool reducing = true;
    for (size_t s = 0, off = 0; off < len || reducing; s++, off += BLOCK) {
        if (CPU_PREFETCH_STEPS && reducing)
            SL_FN(reducer_prefetch)(&r, s + CPU_PREFETCH_STEPS);
        if (off < len) {
            size_t m = len - off < BLOCK ? len - off : BLOCK;
            if (stream) {
                carry = SL_FN(block_scan)(in + off, buf, m, carry, exclusive);
                cpu_stream_store(out + off, buf, m * sizeof(T));
            } else {
                carry = SL_FN(block_scan)(in + off, out + off, m, carry, exclusive);
            }
        }
        reducing = reducing && SL_FN(reducer_step)(&r, s);
    }
    return SL_FN(reducer_result)(&r);
}
