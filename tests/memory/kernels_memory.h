/* Small kernels that plant one memory-ordering pattern each
 * (kernels_memory.c), for the tests of the race detector, the weak memory
 * model, undefined warp operations and explored schedules. */
#ifndef SCANLAB_TEST_MEMORY_KERNELS_H
#define SCANLAB_TEST_MEMORY_KERNELS_H

#include <stdint.h>
#include "cuda/launch.h"

/* Lines of the accesses a report must name. */
extern int tm_line_reader, tm_line_writer, tm_line_data_store, tm_line_data_load, tm_line_half, tm_line_narrow;

/* 64 threads: thread t reads words t + 1 and t, then writes word t. */
sl_status tm_readers(sl_launch cfg, int32_t *out);

/* Message passing, block 0 to block 1, plain data unless STRONG: */
enum {
    TM_MP_FENCES,          /* data; fence; volatile flag / volatile flag; fence; data: correct */
    TM_MP_NO_WRITER_FENCE, /* the writer's fence missing */
    TM_MP_NO_READER_FENCE, /* the reader's fence missing */
    TM_MP_FLAG_FIRST,      /* the flag published before the data */
    TM_MP_RELACQ,          /* st.release / ld.acquire of the flag: correct */
    TM_MP_RELAXED,         /* relaxed flag, no fence */
    TM_MP_BLOCK_FENCES,    /* block-scope fences: they do not order another block */
    TM_MP_STRONG_NO_FENCE, /* relaxed data and flag, no fence: no race, stale data possible */
    TM_MP_STRONG_FENCES,   /* relaxed data and flag with fences: correct */
    TM_MP_STRONG_RELACQ,   /* relaxed data, release/acquire flag: correct */
    TM_MP_MODES
};
sl_status tm_mp(sl_launch cfg, int32_t *data, uint32_t *flag, int32_t *out, int mode);

/* Block 0 writes a packed 8-byte word as two volatile 4-byte halves, block
 * 1 reads it with one volatile 8-byte load. */
sl_status tm_halves(sl_launch cfg, uint64_t *word, int32_t *out);

/* A shuffle with: */
enum {
    TM_WARP_FULL,         /* the full mask */
    TM_WARP_EXITED,       /* the full mask after thread 5 exited */
    TM_WARP_MASKS_DIFFER, /* lanes 0-15 with mask 0xffff, the others with the full mask */
    TM_WARP_PARTIAL_OK,   /* the full mask, and the lanes of a partial last warp only in it */
};
sl_status tm_warp(sl_launch cfg, int32_t *out, int mode);

/* A 4-byte load from an address one byte past in. */
sl_status tm_misaligned(sl_launch cfg, const int32_t *in, int32_t *out);

/* Block b waits (acquire) for flag[b - 1], applies the operator ops times,
 * publishes (release) flag[b]. */
sl_status tm_chain(sl_launch cfg, uint32_t *flag, int ops);

/* Every thread stores its index to out[0]. */
sl_status tm_last_writer(sl_launch cfg, int32_t *out);

/* Thread 0 of every block takes a ticket k and writes out[k] = blockIdx.x. */
sl_status tm_tickets(sl_launch cfg, uint32_t *counter, int32_t *out);

/* out[i] = in[i] for i < n, the index computed in 32 bits (wide = 0) or 64. */
sl_status tm_index_copy(sl_launch cfg, const int32_t *in, int32_t *out, size_t n, int wide);

#endif
