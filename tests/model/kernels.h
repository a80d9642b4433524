/* Small kernels written in the dialect, traced by hand in test_model.c. */
#ifndef SCANLAB_TEST_MODEL_KERNELS_H
#define SCANLAB_TEST_MODEL_KERNELS_H

#include <stddef.h>
#include <stdint.h>
#include "cuda/launch.h"

/* Every lane of one warp reads shared word lane * stride (float). */
sl_status tk_stride(sl_launch cfg, float *out, int stride);
/* Every lane reads 8-byte (wide = 2) or 16-byte (wide = 4) elements at
 * index lane. */
sl_status tk_wide(sl_launch cfg, float *out, int wide);
/* 8-byte shared accesses by half-warps; mode as in kernels.c. */
sl_status tk_wide_halves(sl_launch cfg, float *out, int mode);
sl_status tk_wide_return(sl_launch cfg, float *out, int mode);
/* Every lane reads the same shared word. */
sl_status tk_broadcast(sl_launch cfg, float *out);
/* Thread 0 writes sh[0], thread `reader` reads it with no barrier; with
 * sync the writer's warp calls SYNCWARP in between. */
sl_status tk_race(sl_launch cfg, int32_t *out, int reader, int sync);
sl_status tk_race_at(sl_launch cfg, int32_t *out, int k, int global);
extern const int tk_race_write_line, tk_race_read_line;
/* Threads below 16 wait at one barrier, the others at another. */
sl_status tk_barrier_div(sl_launch cfg, int32_t *out);
extern const int tk_bar_a_line, tk_bar_b_line;
/* An inclusive warp scan through SHFL_UP of x = lane + 1. */
sl_status tk_shfl_scan(sl_launch cfg, int32_t *out);
/* Thread t applies OP t times, barrier, then once more. */
sl_status tk_work(sl_launch cfg, int32_t *out);
/* Thread t reads in[t + offset] (an allocation of n elements). */
sl_status tk_oob(sl_launch cfg, const int32_t *in, int32_t *out, int offset);
extern const int tk_oob_line;
/* Chained blocks: block b spins (volatile) on flag[b - 1], then sets
 * flag[b]. */
sl_status tk_chain(sl_launch cfg, int32_t *flag);
/* Lanes in a scrambled order: lane l reads shared word (31 - l) * 2
 * (mode 0), (l % 16) * 2 (mode 1) or (l % 16) * 32 (mode 2), and stores
 * to out[31 - l]. */
sl_status tk_pattern(sl_launch cfg, float *out, int mode);
/* out[i] = in[i] for the grid-linear thread index i. */
sl_status tk_copy(sl_launch cfg, const int32_t *in, int32_t *out);

#endif
