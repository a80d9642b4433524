/* The per-tile loops every OpenMP scan is built from, for one (type,
 * operator) pair: included by omp.c through cuda/inst_all.h. */

/* op over in[0..len), left to right. */
static inline T SL_FN(tile_reduce)(const T *in, size_t len)
{
    T acc = SL_IDENTITY();
    for (size_t i = 0; i < len; i++)
        acc = SL_APPLY(acc, in[i]);
    return acc;
}

/* Scan in[0..len) into out starting from carry, the op of everything before
 * the tile: out[i] = carry op in[0] op ... op in[i] (inclusive) or the same
 * without in[i] (exclusive). in may equal out: each element is read before
 * its output is written. Returns the carry after the tile. */
static inline T SL_FN(tile_scan_direct)(const T *in, T *out, size_t len, T carry, bool exclusive)
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

/* The same, writing out with streaming stores when stream is set (blocks
 * are scanned into an L1-resident buffer and streamed out from there), and
 * prefetching the thread's next tile (next, next_len; NULL for none) block
 * by block, so that reading it from memory overlaps this tile's scan. */
static inline void SL_FN(tile_scan)(const T *in, T *out, size_t len, T carry, bool exclusive,
                                    bool stream, const T *next, size_t next_len)
{
    enum { BLOCK = CPU_STREAM_BLOCK_BYTES / sizeof(T), LINE = CPU_CACHE_LINE / sizeof(T) };
    alignas(CPU_CACHE_LINE) T buf[BLOCK];
    for (size_t off = 0; off < len; off += BLOCK) {
        size_t m = len - off < BLOCK ? len - off : BLOCK;
        if (next)
            for (size_t i = off; i < off + BLOCK && i < next_len; i += LINE)
                __builtin_prefetch(next + i, 0, 3);
        if (stream) {
            carry = SL_FN(tile_scan_direct)(in + off, buf, m, carry, exclusive);
            cpu_stream_store(out + off, buf, m * sizeof(T));
        } else {
            carry = SL_FN(tile_scan_direct)(in + off, out + off, m, carry, exclusive);
        }
    }
}
