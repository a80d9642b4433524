/* The OpenMP scans: argument checks, scratch space, and dispatch to the
 * instantiations of the templates (omp_*_tmpl.c) for each (type, operator)
 * pair of the catalogue. */
#include "cpu.h"

#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "cpu_check.h"

#if SCANLAB_HAVE_OPENMP
#include <omp.h>

#include "omp_internal.h"
#include "stream.h"

#define SL_TMPL "cpu/omp_tile_tmpl.c"
#include "cuda/inst_all.h"
#undef SL_TMPL
#define SL_TMPL "cpu/omp_rts_tmpl.c"
#include "cuda/inst_all.h"
#undef SL_TMPL
#define SL_TMPL "cpu/omp_sp_tmpl.c"
#include "cuda/inst_all.h"
#undef SL_TMPL
#define SL_TMPL "cpu/omp_dir_tmpl.c"
#include "cuda/inst_all.h"
#undef SL_TMPL
#define SL_TMPL "cpu/omp_reduce_tmpl.c"
#include "cuda/inst_all.h"
#undef SL_TMPL

typedef struct {
    void (*rts)(bool, const void *, void *, size_t, int, cpu_slot *, size_t, bool);
    void (*sp)(bool, const void *, void *, size_t, int, cpu_tile_status *, size_t, bool);
    void (*dir)(bool, const void *, void *, size_t, int);
    void (*reduce)(const void *, size_t, void *, int, cpu_slot *);
} omp_entry;

#define OMP_ENTRY(C, TN_, OPN_, TYPE, OP)                                                  \
    [TYPE][OP] = {omp_rts_##TN_##_##OPN_, omp_sp_##TN_##_##OPN_, omp_dir_##TN_##_##OPN_, \
                  omp_reduce_##TN_##_##OPN_},
static const omp_entry omp_table[SL_TYPE_COUNT][SL_OP_COUNT] = {SL_FOR_EACH_TYPE_OP(OMP_ENTRY)};
#undef OMP_ENTRY

static int team_size(int threads) { return threads > 0 ? threads : omp_get_max_threads(); }

/* count zeroed, cache-line aligned elements of size bytes, or NULL. */
static void *alloc_lines(size_t count, size_t size)
{
    size_t bytes = count * size;
    if (count && bytes / count != size)
        return NULL;
    void *p = aligned_alloc(CPU_CACHE_LINE, bytes ? bytes : CPU_CACHE_LINE);
    if (p)
        memset(p, 0, bytes);
    return p;
}
#endif

void cpu_omp_set_default_threads(int threads)
{
#if SCANLAB_HAVE_OPENMP
    if (threads > 0)
        omp_set_num_threads(threads);
#else
    (void)threads;
#endif
}

static sl_status check_scan(sl_type t, sl_op op, const void *in, const void *out, size_t n,
                            int threads)
{
    sl_status st = cpu_check_args(t, op, in, out, n);
    if (st == SL_OK && threads < 0)
        st = SL_ERR_ARG;
    if (st == SL_OK && !SCANLAB_HAVE_OPENMP)
        st = SL_ERR_UNSUPPORTED;
    return st;
}

sl_status cpu_scan_omp_reduce_then_scan(sl_type t, sl_op op, bool exclusive, const void *in,
                                        void *out, size_t n, int threads)
{
    sl_status st = check_scan(t, op, in, out, n, threads);
    if (st != SL_OK || n == 0)
        return st;
#if SCANLAB_HAVE_OPENMP
    int p = team_size(threads);
    size_t size = SL_TYPE_SIZE(t);
    cpu_slot *sums = alloc_lines(2 * (size_t)p, sizeof *sums);
    if (!sums)
        return SL_ERR_NOMEM;
    omp_table[t][op].rts(exclusive, in, out, n, p, sums, cpu_omp_tile_len(n, p, size),
                         cpu_omp_stream_output(n * size));
    free(sums);
#endif
    return SL_OK;
}

sl_status cpu_scan_omp_single_pass(sl_type t, sl_op op, bool exclusive, const void *in, void *out,
                                   size_t n, int threads)
{
    sl_status st = check_scan(t, op, in, out, n, threads);
    if (st != SL_OK || n == 0)
        return st;
#if SCANLAB_HAVE_OPENMP
    int p = team_size(threads);
    size_t size = SL_TYPE_SIZE(t), tile = cpu_omp_tile_len(n, p, size);
    size_t ntiles = n / tile + (n % tile != 0);
    cpu_tile_status *status = alloc_lines(ntiles, sizeof *status);
    if (!status)
        return SL_ERR_NOMEM;
    for (size_t k = 0; k < ntiles; k++)
        atomic_init(&status[k].flag, CPU_TILE_EMPTY);
    omp_table[t][op].sp(exclusive, in, out, n, p, status, tile, cpu_omp_stream_output(n * size));
    free(status);
#endif
    return SL_OK;
}

sl_status cpu_scan_omp_directive(sl_type t, sl_op op, bool exclusive, const void *in, void *out,
                                 size_t n, int threads)
{
    sl_status st = check_scan(t, op, in, out, n, threads);
    if (st != SL_OK || n == 0)
        return st;
#if SCANLAB_HAVE_OPENMP
    omp_table[t][op].dir(exclusive, in, out, n, team_size(threads));
#endif
    return SL_OK;
}

sl_status cpu_reduce_omp(sl_type t, sl_op op, const void *in, size_t n, void *result, int threads)
{
    sl_status st = check_scan(t, op, in, result, n, threads);
    if (st == SL_OK && !result)
        st = SL_ERR_ARG;
    if (st != SL_OK)
        return st;
#if SCANLAB_HAVE_OPENMP
    int p = team_size(threads);
    cpu_slot *partial = alloc_lines((size_t)p, sizeof *partial);
    if (!partial)
        return SL_ERR_NOMEM;
    omp_table[t][op].reduce(in, n, result, p, partial);
    free(partial);
#endif
    return SL_OK;
}

sl_status cpu_copy_omp(const void *in, void *out, size_t n, size_t elem_size, int threads)
{
    if ((n > 0 && (!in || !out)) || elem_size == 0 || threads < 0)
        return SL_ERR_ARG;
    if (!SCANLAB_HAVE_OPENMP)
        return SL_ERR_UNSUPPORTED;
    if (n == 0)
        return SL_OK;
    if (n > SIZE_MAX / elem_size)
        return SL_ERR_ARG;
#if SCANLAB_HAVE_OPENMP
    size_t bytes = n * elem_size, chunk = cpu_omp_chunk_len(bytes, team_size(threads), 1);
    const char *src = in;
    char *dst = out;
#pragma omp parallel num_threads(team_size(threads))
    {
        size_t t = (size_t)omp_get_thread_num(), p = (size_t)omp_get_num_threads();
        size_t lo = t * chunk < bytes ? t * chunk : bytes;
        size_t hi = t + 1 == p ? bytes : (bytes - lo < chunk ? bytes : lo + chunk);
        memcpy(dst + lo, src + lo, hi - lo);
    }
#endif
    return SL_OK;
}
