/* Shared code of the single-pass applications (compact, partition, pack,
 * radix-sort): what app_scan.cuh gives the three-phase ones, without its
 * block scan of one count per thread. Included inside each *_tmpl.cuh once
 * per (T, TN, OPN) instantiation; the definitions carry SL_KN names.
 *
 * The applications run with op = add only (verify/harness/algos.h): their
 * kernels are compiled for the add instantiations alone
 * (SL_APP_PASS_COMPILED), the others' drivers answer SL_ERR_UNSUPPORTED. */
#include "cuda/apps/app_defs.h"
#include "cuda/device/tile_scan.cuh"

/* The same definitions as app_scan.cuh's, under the same guard. */
#ifndef SL_APP_SHARED_DEFS_
#define SL_APP_SHARED_DEFS_
#if defined(__CUDACC__) || defined(SL_SIM_PLAIN)
#define SL_APP_ADD(a, b) ((a) + (b))
#else
#define SL_APP_ADD(a, b) (model_cur->ops++, (a) + (b))
#endif
#define SL_APP_DEFAULT_BLOCK 256u
#define SL_APP_MAX_GRID 2147483647u
#define SL_APP_IS_FLOAT ((T)1 / (T)2 != (T)0)
#endif

#ifndef SL_APP_PASS_DEFS_
#define SL_APP_PASS_DEFS_
#define SL_APP_PASS_add 1
/* Whether this instantiation compiles the kernels: op = add. */
#define SL_APP_PASS_COMPILED SL_CAT2(SL_APP_PASS_, OPN)
/* Launch bounds of the single-pass kernels: blocks of up to 512 threads,
 * two of them an SM at least (64 registers a thread). */
#define SL_APP_PASS_MIN_BLOCKS 2
#endif

/* The bit pattern of x in the low bytes of a uint64_t. */
SL_DEVICE uint64_t SL_KN(pass_bits)(T x)
{
    uint64_t b = 0;
    memcpy(&b, &x, sizeof x);
    return b;
}

/* Exclusive add scan of one 32-bit count per thread across the block:
 * warp shuffles, then the warp totals in order through wsum (one barrier;
 * the caller needs another before it calls this again). *total: the sum
 * of all. */
SL_DEVICE uint32_t SL_KN(pass_block_scan)(uint32_t c, uint32_t *wsum, uint32_t *total)
{
    const unsigned lane = LANE_ID(), w = WARP_ID(), nw = blockDim.x / SL_WARP_SIZE;
    uint32_t incl = c;
    SL_UNROLL
    for (unsigned d = 1; d < SL_WARP_SIZE; d *= 2) {
        const uint32_t u = SHFL_UP(incl, d);
        if (lane >= d)
            incl = SL_APP_ADD(incl, u);
    }
    if (lane == SL_WARP_SIZE - 1)
        ST(wsum, w, incl);
    SYNCTHREADS();
    uint32_t before = 0, sum = 0;
    for (unsigned j = 0; j < nw; j++) {
        if (j == w)
            before = sum;
        sum = SL_APP_ADD(sum, LD(wsum, j));
    }
    *total = sum;
    return before + incl - c;
}

/* The device output of an application: the count, then the elements
 * (cuda/apps/app_defs.h), at dev_out. */
static inline uint64_t *SL_KN(pass_count_at)(void *dev_out) { return (uint64_t *)dev_out; }
static inline void *SL_KN(pass_data_at)(void *dev_out)
{
    return (unsigned char *)dev_out + SL_APP_HEADER_BYTES;
}

/* The host side of an application run on device buffers (dev: in to the
 * output layout of app_defs.h at out), written once for both compilations:
 * copy a->n elements in, run dev on an output of room for cap elements
 * of out_elem bytes, copy back the count and the first `count` output
 * elements (all_n: n of them whatever the count). Inside a device arena a->in and a->out are device buffers and
 * dev runs on them directly. */
static inline sl_status SL_KN(pass_host_run)(const sl_kargs *a, size_t out_elem, size_t cap, int all_n,
                                             sl_dev_fn dev, const void *ctx)
{
    void *d_in = NULL, *d_out = NULL;
    uint64_t count = 0;
    sl_status st = SL_OK;
    if (sl_dev_in_arena())
        return dev(a->in, a->out, a, ctx);
    SL_TRY(sl_dev_alloc(&d_in, a->n * sizeof(T)));
    SL_TRY(sl_dev_alloc(&d_out, SL_APP_HEADER_BYTES + cap * out_elem));
    SL_TRY(sl_dev_copy_to(d_in, a->in, a->n * sizeof(T)));
    SL_TRY(dev(d_in, d_out, a, ctx));
    SL_TRY(sl_dev_sync());
    SL_TRY(sl_dev_copy_from(&count, d_out, sizeof count));
    if (count > cap) {
        st = SL_ERR_CUDA; /* cannot happen unless the device computed garbage */
        goto done;
    }
    memcpy(a->out, &count, sizeof count);
    SL_TRY(sl_dev_copy_from((unsigned char *)a->out + SL_APP_HEADER_BYTES, SL_KN(pass_data_at)(d_out),
                            (all_n ? a->n : count) * out_elem));
done:
    sl_dev_free(d_in);
    sl_dev_free(d_out);
    return st;
}
