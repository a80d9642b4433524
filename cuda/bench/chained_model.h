/* The chained scans' time model: one hand-off (a publish seen by the next
 * tile's poll) per tile, the tiles being what the drivers would use. */
#ifndef SCANLAB_CHAINED_MODEL_H
#define SCANLAB_CHAINED_MODEL_H

#include <stddef.h>
#include "cuda/ops.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Tiles of chained-static / chained-ticket for n elements of type with
 * block threads and param items per thread (0: the defaults); 0 when the
 * layout is invalid. */
size_t sl_chained_tiles(sl_type type, size_t n, int block, int param);
/* Bytes of their tiles' status words for elements of type: the word a
 * hand-off goes through (8 or 16). */
size_t sl_chained_word_bytes(sl_type type);

#ifdef __cplusplus
}
#endif

#endif
