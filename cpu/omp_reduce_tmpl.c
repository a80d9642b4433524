/* Parallel reduction over contiguous chunks, for one (type, operator) pair:
 * included by omp.c through cuda/inst_all.h. Partial results are combined in
 * chunk order, so a non-commutative operator is reduced correctly. */
static void SL_FN(omp_reduce)(const void *vin, size_t n, void *result, int threads,
                              cpu_slot *partial)
{
    const T *in = vin;
    size_t chunk = cpu_omp_chunk_len(n, threads, sizeof(T));
    int used = 0;
#pragma omp parallel num_threads(threads)
    {
        size_t t = (size_t)omp_get_thread_num();
        size_t lo = t * chunk < n ? t * chunk : n, hi = n - lo < chunk ? n : lo + chunk;
        partial[t].v.TN = SL_FN(tile_reduce)(in + lo, hi - lo);
#pragma omp single
        used = omp_get_num_threads();
    }
    /* A smaller team than asked for leaves the tail to nobody: reduce it here. */
    T acc = SL_IDENTITY();
    for (int t = 0; t < used; t++)
        acc = SL_APPLY(acc, partial[t].v.TN);
    size_t done = (size_t)used * chunk;
    if (done < n)
        acc = SL_APPLY(acc, SL_FN(tile_reduce)(in + done, n - done));
    *(T *)result = acc;
}
