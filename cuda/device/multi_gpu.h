/* Type-independent parts of the multi-GPU scan (multi_gpu_tmpl.cuh): how
 * the input is cut into shards, one per device, and the constants of the
 * carry protocol. */
#ifndef SCANLAB_MULTI_GPU_H
#define SCANLAB_MULTI_GPU_H

#include <stddef.h>

/* Devices of one scan: the carry kernel is one warp, a lane per device. */
#define SL_MG_MAX_DEVICES 32u
/* Devices when the algorithm's parameter is 0: four, so that the default
 * checks reach every step of the carry's fold (from the third device on)
 * and sizes that four does not divide. */
#define SL_MG_DEFAULT_DEVICES 4u
/* The reduction of a shard: its tiles in at most this many contiguous
 * ranges, each folded by one block, and the range totals folded by one
 * warp (32 apiece). A number fixed whatever the GPU, so that a float
 * total is the same expression on every GPU and in the simulator. */
#define SL_MG_RANGES 1024u

/* Shard g of n elements over p devices: [*lo, *lo + *len), the first
 * n % p shards one element longer. No product n * g: n may be near
 * SIZE_MAX / 2. */
static inline void sl_mg_shard(size_t n, unsigned p, unsigned g, size_t *lo, size_t *len)
{
    const size_t q = n / p, r = n % p;
    *lo = q * g + (g < r ? g : r);
    *len = q + (g < r ? 1 : 0);
}

#endif
