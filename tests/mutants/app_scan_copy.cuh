/* A copy of cuda/apps/app_scan.cuh with the mutation point of
 * compact-no-reuse-barrier; with MUT_APP_NO_REUSE_BARRIER undefined it is
 * the catalogue's code. The catalogue's description follows.
 *
 * Shared device code of the application kernels (cuda/apps/): a block-wide
 * add scan of one 64-bit count per thread and the one-block scan of an
 * array of counts. Included inside each *_tmpl.cuh, once per (T, TN, OPN)
 * instantiation: every definition carries an SL_KN name, so there is no
 * include guard around them.
 *
 * The applications scan counts (uint64_t), not elements, whatever T is;
 * SL_APP_ADD is the count add, counted as one operator application in the
 * simulator's work and steps exactly as OP() is. */
#include "cuda/apps/app_defs.h"

#ifndef SL_APP_SHARED_DEFS_
#define SL_APP_SHARED_DEFS_
#if defined(__CUDACC__) || defined(SL_SIM_PLAIN)
#define SL_APP_ADD(a, b) ((a) + (b))
#else
#define SL_APP_ADD(a, b) (model_cur->ops++, (a) + (b))
#endif
/* Threads per block when a->block is 0; one element per thread, so a tile
 * is one block's worth of elements. */
#define SL_APP_DEFAULT_BLOCK 256u
/* CUDA's limit on gridDim.x; larger inputs loop over tiles. */
#define SL_APP_MAX_GRID 2147483647u
/* Whether T is a floating type (a compile-time constant). */
#define SL_APP_IS_FLOAT ((T)1 / (T)2 != (T)0)
#endif

/* The bit pattern of x in the low bytes of a uint64_t. */
SL_DEVICE uint64_t SL_KN(app_bits)(T x)
{
    uint64_t b = 0;
    memcpy(&b, &x, sizeof x);
    return b;
}

/* Kogge-Stone scan across the block: thread t gets the sum of the values of
 * threads 0..t-1 (exclusive), *total the sum of all. s holds blockDim.x
 * values; every thread of the block must call it (it has barriers). */
SL_DEVICE uint64_t SL_KN(app_block_scan)(uint64_t *s, uint64_t v, uint64_t *total)
{
    const unsigned t = threadIdx.x, b = blockDim.x;
    ST(s, t, v);
    for (unsigned d = 1; d < b; d *= 2) {
        SYNCTHREADS();
        const uint64_t left = t >= d ? LD(s, t - d) : 0;
        SYNCTHREADS();
        if (t >= d)
            ST(s, t, SL_APP_ADD(left, LD(s, t)));
    }
    SYNCTHREADS();
    const uint64_t before = t > 0 ? LD(s, t - 1) : 0;
    *total = LD(s, b - 1);
#if !defined(MUT_APP_NO_REUSE_BARRIER)
    SYNCTHREADS(); /* s is written again by the next call (the mutant removes this barrier) */
#endif
    return before;
}

/* Exclusive scan of c[0..m) in place by one block: chunks of blockDim.x
 * counts, each scanned by the block and offset by the running carry. */
SL_GLOBAL SL_KN(app_scan_counts)(uint64_t *c, size_t m)
{
    SHARED(uint64_t, s, SL_MAX_BLOCK_THREADS);
    const unsigned t = threadIdx.x;
    uint64_t carry = 0, total = 0;
    for (size_t base = 0; base < m; base += blockDim.x) {
        const size_t i = base + t;
        const uint64_t before = SL_KN(app_block_scan)(s, i < m ? LD(c, i) : 0, &total);
        if (i < m)
            ST(c, i, SL_APP_ADD(carry, before));
        carry = SL_APP_ADD(carry, total);
    }
}
SL_DEFINE_LAUNCH(SL_KN(app_scan_counts), (uint64_t *, c), (size_t, m))

/* Threads per block from a->block (0: the default); 0 when out of range.
 * Kogge-Stone needs no power of two. */
static unsigned SL_KN(app_block)(int block)
{
    if (block == 0)
        return SL_APP_DEFAULT_BLOCK;
    return block > 0 && block <= SL_MAX_BLOCK_THREADS ? (unsigned)block : 0;
}

/* Blocks of a tile loop over `tiles` tiles. */
static unsigned SL_KN(app_grid)(size_t tiles)
{
    return tiles < SL_APP_MAX_GRID ? (unsigned)tiles : SL_APP_MAX_GRID;
}

/* Writes an application's output header (the count) into host memory. */
static void SL_KN(app_set_count)(void *out, uint64_t count)
{
    memcpy(out, &count, sizeof count);
}

/* Host memory of output element k (header skipped). */
static void *SL_KN(app_data)(void *out)
{
    return (unsigned char *)out + SL_APP_HEADER_BYTES;
}
