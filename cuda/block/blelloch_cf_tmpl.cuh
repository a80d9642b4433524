/* Blelloch scan with conflict-free padding (Harris, GPU Gems 3, ch. 39.2.3):
 * logical index i lives in shared slot i + (i >> LOG_NUM_BANKS)
 * + (i >> 2 LOG_NUM_BANKS), one spare word after every 32 (and every 1024),
 * so that the power-of-two strides of the tree spread over the banks.
 * The kernel is blelloch_body.cuh. */
#ifndef SL_BL_PAD
/* log2 of the number of 4-byte shared-memory banks (32 on every NVIDIA GPU
 * since Fermi). */
#define SL_LOG_NUM_BANKS 5
#define SL_CONFLICT_FREE_OFFSET(i) (((i) >> SL_LOG_NUM_BANKS) + ((i) >> (2 * SL_LOG_NUM_BANKS)))
#define SL_BL_PAD(i) ((i) + SL_CONFLICT_FREE_OFFSET(i))
#define SL_BL_NAME blelloch_cf
#endif
#include "cuda/block/blelloch_body.cuh"
