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

/* op over a tile, block by block (the combination of block results is in
 * order, so this equals the left fold for integers; for floats each output
 * goes through at most a tile's length of roundings either way). */
static inline T SL_FN(tile_reduce)(const T *in, size_t len)
{
    T acc = SL_IDENTITY();
    for (size_t off = 0; off < len; off += SL_FN(BLOCK))
        acc = SL_APPLY(acc, SL_FN(block_reduce)(in + off, len - off < SL_FN(BLOCK) ? len - off : SL_FN(BLOCK)));
    return acc;
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
    T next_acc = SL_IDENTITY();
    size_t span = next && next_len > len ? next_len : len;
    for (size_t off = 0; off < span; off += BLOCK) {
        if (off < len) {
            size_t m = len - off < BLOCK ? len - off : BLOCK;
            if (stream) {
                carry = SL_FN(block_scan)(in + off, buf, m, carry, exclusive);
                cpu_stream_store(out + off, buf, m * sizeof(T));
            } else {
                carry = SL_FN(block_scan)(in + off, out + off, m, carry, exclusive);
            }
        }
        if (next && off < next_len)
            next_acc = SL_APPLY(next_acc, SL_FN(block_reduce)(next + off, next_len - off < BLOCK
                                                                               ? next_len - off
                                                                               : BLOCK));
    }
    return next_acc;
}
