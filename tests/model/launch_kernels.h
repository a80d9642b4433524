/* Kernels whose per-launch counts (model_launch_counts) are worked out by
 * hand in test_launch_counts.c. */
#ifndef SCANLAB_TEST_LAUNCH_KERNELS_H
#define SCANLAB_TEST_LAUNCH_KERNELS_H

#include <stdint.h>
#include "cuda/launch.h"

/* Shared stores at stride 2, loads at stride 1, a broadcast load by 8
 * lanes of each warp; in[i] read and out[i] written for the grid-linear i. */
sl_status lk_shared(sl_launch cfg, const int32_t *in, int32_t *out);
/* Thread 0: an atomic ticket, one volatile load of flag[0], one store. */
sl_status lk_poll(sl_launch cfg, uint32_t *counter, const int32_t *flag, int32_t *out);
/* Block b waits for flag[b - 1], then takes three steps (operator
 * applications) and sets flag[b] (a chained scan); with
 * early set, block b first publishes flag[b] = 1, then waits and sets 2
 * (a look-back scan's aggregate and prefix). */
sl_status lk_chain(sl_launch cfg, int32_t *flag, int early);
/* Block b reads in[] in tiles + b barrier intervals of its own, after one
 * that only polls (a volatile load), and writes out[]. */
sl_status lk_rounds(sl_launch cfg, const int32_t *in, int32_t *out, int tiles);

#endif
