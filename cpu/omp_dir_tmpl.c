/* The OpenMP 5 scan directive, for one (type, operator) pair: included by
 * omp.c through cuda/inst_all.h. The operator is a declared reduction so
 * that max, min and the non-commutative affine go through the same code as
 * add; GCC combines inscan partials in iteration order, as the standard
 * requires for the result to be the scan. */
/* GCC 12 lowers inscan reductions through a temporary that it then reports
 * as maybe uninitialized in the outlined function (it warns for the
 * built-in '+' as well): a false positive of the lowering, silenced here
 * only. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#pragma omp declare reduction(SL_FN(cpu_red) : T : omp_out = SL_APPLY(omp_out, omp_in)) \
    initializer(omp_priv = SL_IDENTITY())

static void SL_FN(dir_inclusive)(const T *in, T *out, size_t n, int threads)
{
    T acc = SL_IDENTITY();
#pragma omp parallel for num_threads(threads) reduction(inscan, SL_FN(cpu_red) : acc)
    for (size_t i = 0; i < n; i++) {
        acc = SL_APPLY(acc, in[i]);
#pragma omp scan inclusive(acc)
        out[i] = acc;
    }
}

static void SL_FN(dir_exclusive)(const T *in, T *out, size_t n, int threads)
{
    T acc = SL_IDENTITY();
#pragma omp parallel for num_threads(threads) reduction(inscan, SL_FN(cpu_red) : acc)
    for (size_t i = 0; i < n; i++) {
        out[i] = acc;
#pragma omp scan exclusive(acc)
        acc = SL_APPLY(acc, in[i]);
    }
}

/* Shift out right by one element in place, identity first: each thread
 * saves the element before its chunk, and after a barrier moves its chunk.
 * The last thread of the team takes whatever a smaller team leaves. */
static void SL_FN(dir_shift_right)(T *out, size_t n, int threads)
{
    size_t chunk = cpu_omp_chunk_len(n, threads, sizeof(T));
#pragma omp parallel num_threads(threads)
    {
        size_t t = (size_t)omp_get_thread_num(), p = (size_t)omp_get_num_threads();
        size_t lo = t * chunk < n ? t * chunk : n;
        size_t hi = t + 1 == p ? n : (n - lo < chunk ? n : lo + chunk);
        T before = lo > 0 && lo < hi ? out[lo - 1] : SL_IDENTITY();
#pragma omp barrier
        if (lo < hi) {
            memmove(out + lo + 1, out + lo, (hi - lo - 1) * sizeof(T));
            out[lo] = before;
        }
    }
}

static void SL_FN(omp_dir)(bool exclusive, const void *vin, void *vout, size_t n, int threads)
{
    const T *in = vin;
    T *out = vout;
    if (!exclusive) {
        SL_FN(dir_inclusive)(in, out, n, threads);
    } else if (in != out) {
        SL_FN(dir_exclusive)(in, out, n, threads);
    } else {
        /* In place the exclusive form would overwrite x_i before its input
         * phase reads it (GCC runs that phase again in the second pass), so
         * scan inclusively and shift. */
        SL_FN(dir_inclusive)(in, out, n, threads);
        SL_FN(dir_shift_right)(out, n, threads);
    }
}

#pragma GCC diagnostic pop
