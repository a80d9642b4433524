/* Host-side types shared by both compilations of a kernel file (nvcc and
 * the C compiler): launch geometry and the arguments of a host driver. */
#ifndef SCANLAB_LAUNCH_H
#define SCANLAB_LAUNCH_H

#include <stdbool.h>
#include <stddef.h>
#include "cuda/status.h"

/* CUDA's dim3/uint3, for threadIdx, blockIdx, blockDim and gridDim. */
typedef struct {
    unsigned x, y, z;
} sl_dim3;

/* A kernel launch's geometry: grid and block sizes, dynamic shared bytes. */
typedef struct {
    sl_dim3 grid, block;
    size_t shmem;
} sl_launch;

/* A one-dimensional launch of grid blocks of block threads. */
static inline sl_launch sl_launch_1d(unsigned grid, unsigned block, size_t shmem)
{
    sl_launch c = {{grid, 1, 1}, {block, 1, 1}, shmem};
    return c;
}

enum { SL_ADVERSARY_NONE, SL_ADVERSARY_REVERSED, SL_ADVERSARY_LATE };

/* What a host driver receives: host buffers (in may equal out) and the
 * algorithm's settings; the dispatcher fills it from sl_scan_args. */
typedef struct {
    const void *in;
    void *out;
    size_t n;
    bool exclusive;
    int block; /* threads per block; 0 = the algorithm's default */
    int param; /* the algorithm's own parameter; 0 = default */
    /* An adversarial dispatch the single-pass scans emulate (docs/deadlock.md):
     * SL_ADVERSARY_NONE, _REVERSED (a block-numbered scan takes its tiles
     * in the reverse of blockIdx, as if the last blocks were dispatched
     * first) or _LATE (the first half of the blocks start late). */
    int adversary;
} sl_kargs;

#endif
