/* Non-temporal stores (internal to cpu/). */
#ifndef SCANLAB_CPU_STREAM_H
#define SCANLAB_CPU_STREAM_H

#include <stddef.h>

/* Copy bytes from src to dst, writing dst around the caches where the
 * target has streaming stores (plain memcpy elsewhere). */
void cpu_stream_store(void *dst, const void *src, size_t bytes);

/* Order this thread's streaming stores before its later stores: call before
 * publishing a flag or reaching a barrier after cpu_stream_store. */
void cpu_stream_fence(void);

#endif
