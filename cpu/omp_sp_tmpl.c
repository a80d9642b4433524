/* Single-pass scan with look-back over tiles, for one (type, operator) pair:
 * included by omp.c through cuda/inst_all.h.
 *
 * Tile k goes to thread k mod (team size) and each thread takes its tiles in
 * increasing order. A thread reduces its tile (the only read from memory),
 * publishes the aggregate, looks back over the tiles before it until it
 * finds a published inclusive prefix, publishes its own prefix, and scans
 * the tile (from cache) from that carry; that scan also reduces the
 * thread's next tile, so its reads overlap this tile's writes.
 *
 * Nothing waits without bound, and no spin needs a limit: tile k waits only
 * on tiles j < k, so the lowest unfinished tile waits on nobody, and its
 * thread (which has finished its earlier, lower tiles) runs. With a static
 * assignment every tile has a thread that reaches it, so every flag a
 * thread spins on is eventually released. The OpenMP threads of a team all
 * run, and a waiter yields its core after a while, so this holds with more
 * threads than cores as well. (A dynamic assignment in which a thread could
 * stop before taking its tiles would break this argument.)
 *
 * A prefix is op(carry, aggregate) rather than the last output of the scan:
 * in floating point that keeps the chain of roundings from one tile to the
 * next at one addition instead of a tile's length. */

/* op over every element before tile k, from the statuses of tiles < k. */
static T SL_FN(sp_look_back)(cpu_tile_status *st, size_t k)
{
    T later = SL_IDENTITY(); /* op over the tiles between j and k */
    for (size_t j = k - 1;; j--) {
        int f = cpu_wait_flag(&st[j].flag);
        if (f == CPU_TILE_PREFIX)
            return SL_APPLY(st[j].prefix.TN, later);
        later = SL_APPLY(st[j].aggregate.TN, later);
        /* Tile 0 publishes its prefix at once, so j never passes 0. */
    }
}

static void SL_FN(omp_sp)(bool exclusive, const void *vin, void *vout, size_t n, int threads,
                          cpu_tile_status *st, size_t tile, bool stream)
{
    const T *in = vin;
    T *out = vout;
    size_t ntiles = n / tile + (n % tile != 0);
#pragma omp parallel num_threads(threads)
    {
        size_t p = (size_t)omp_get_num_threads(), k = (size_t)omp_get_thread_num();
        T agg = k < ntiles ? SL_FN(tile_reduce)(in + k * tile, n - k * tile < tile ? n - k * tile : tile)
                           : SL_IDENTITY();
        for (; k < ntiles; k += p) {
            size_t lo = k * tile, len = n - lo < tile ? n - lo : tile;
            T carry = SL_IDENTITY();
            if (k == 0) {
                st[k].prefix.TN = agg;
            } else {
                st[k].aggregate.TN = agg;
                atomic_store_explicit(&st[k].flag, CPU_TILE_AGGREGATE, memory_order_release);
                carry = SL_FN(sp_look_back)(st, k);
                st[k].prefix.TN = SL_APPLY(carry, agg);
            }
            atomic_store_explicit(&st[k].flag, CPU_TILE_PREFIX, memory_order_release);
            /* Scanning this tile also reduces the thread's next one. */
            size_t next = lo + p * tile, next_len = next < n ? (n - next < tile ? n - next : tile) : 0;
            agg = SL_FN(tile_scan)(in + lo, out + lo, len, carry, exclusive, stream,
                                   next_len ? in + next : NULL, next_len);
        }
        if (stream)
            cpu_stream_fence();
    }
}
