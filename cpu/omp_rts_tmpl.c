/* Reduce-then-scan over tiles, for one (type, operator) pair: included by
 * omp.c through cuda/inst_all.h.
 *
 * The input is cut into rounds of (team size) tiles, tile t of each round to
 * thread t. A thread publishes the sum of its tile, and after one barrier
 * rescans the tile (from cache) from its carry: the running carry of the
 * previous rounds followed by the sums of the tiles before its own,
 * combined as op(carry, later) since op need not commute. The rescan also
 * reduces the thread's tile of the next round (the first read, from
 * memory), so reads and writes overlap. Every thread computes the next
 * running carry itself by the same sequence of operations, so all threads
 * hold the same value (bit for bit in floating point). sums holds two
 * rounds of slots: a thread writing round r + 2 has passed round r + 1's
 * barrier, so every reader of round r is done. */
static void SL_FN(omp_rts)(bool exclusive, const void *vin, void *vout, size_t n, int threads,
                           cpu_slot *sums, size_t tile, bool stream)
{
    const T *in = vin;
    T *out = vout;
#pragma omp parallel num_threads(threads)
    {
        size_t p = (size_t)omp_get_num_threads(), t = (size_t)omp_get_thread_num();
        size_t round = tile * p, lo = t * tile;
        size_t len = lo < n ? (n - lo < tile ? n - lo : tile) : 0;
        /* A thread with no tile in a round (len 0) touches nothing. */
        T carry = SL_IDENTITY(), sum = SL_FN(tile_reduce)(len ? in + lo : NULL, len);
        cpu_slot *slot = sums;
        for (size_t base = 0; base < n; base += round, slot = slot == sums ? sums + p : sums) {
            slot[t].v.TN = sum;
#pragma omp barrier
            T c = carry;
            for (size_t j = 0; j < t; j++)
                c = SL_APPLY(c, slot[j].v.TN);
            carry = c;
            for (size_t j = t; j < p; j++)
                carry = SL_APPLY(carry, slot[j].v.TN);
            size_t next = lo + round;
            size_t next_len = next < n ? (n - next < tile ? n - next : tile) : 0;
            size_t at = len ? lo : 0;
            sum = SL_FN(tile_scan)(in + at, out + at, len, c, exclusive, stream,
                                   next_len ? in + next : NULL, next_len);
            lo = next;
            len = next_len;
        }
        if (stream)
            cpu_stream_fence();
    }
}
