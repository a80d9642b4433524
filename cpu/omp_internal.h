/* Pieces shared by the OpenMP scans (internal to cpu/ and its tests): how
 * the input is cut into tiles, the padded words threads publish to each
 * other, and the spin wait of the single-pass scan. The sizes under
 * #ifndef may be set at build time (-DCPU_TILE_BYTES=...) to tune a
 * machine; docs/performance.md says what they do. */
#ifndef SCANLAB_CPU_OMP_INTERNAL_H
#define SCANLAB_CPU_OMP_INTERNAL_H

#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sched.h>

/* A cache line: words written by different threads live on different lines
 * so that publishing one does not invalidate its neighbours (false sharing). */
#define CPU_CACHE_LINE 64
/* Bytes of input one thread scans per tile. A tile is read twice: reduced
 * from memory (while the thread scans its previous tile), then scanned from
 * its carry. Two tiles must therefore stay in the core's private L2 (1-2 MiB
 * on current x86 and Arm server cores) for the second read to hit it. */
#ifndef CPU_TILE_BYTES
#define CPU_TILE_BYTES (256u * 1024u)
#endif
/* Outputs at least this large are written with non-temporal (streaming)
 * stores: they cannot stay in the last-level cache anyway, and an ordinary
 * store would first read every output line from memory. */
#define CPU_STREAM_MIN_BYTES ((size_t)64 << 20)
/* Elements are scanned into an L1-resident block of this size and streamed
 * out from there. */
#ifndef CPU_STREAM_BLOCK_BYTES
#define CPU_STREAM_BLOCK_BYTES 4096u
#endif
/* Sequential read streams one core keeps going when it reduces a tile:
 * the hardware prefetchers follow streams page by page, so several streams
 * side by side draw more of the memory bandwidth than one. */
#ifndef CPU_READ_STREAMS
#define CPU_READ_STREAMS 4
#endif
/* While a core scans one block of a tile (a serial chain the out-of-order
 * window cannot see past), it prefetches the reads of the next tile this
 * many steps ahead, towards the L2 (locality 1 of __builtin_prefetch):
 * that is what keeps its memory reads going during the scan. */
#ifndef CPU_PREFETCH_STEPS
#define CPU_PREFETCH_STEPS 1
#endif
#ifndef CPU_PREFETCH_LOCALITY
#define CPU_PREFETCH_LOCALITY 1
#endif
/* Busy-wait iterations before a waiting thread yields its core: with more
 * threads than cores the thread it waits for may need that core. */
#define CPU_SPIN_BEFORE_YIELD 1024

/* One value of any catalogue type, alone on its cache line. */
typedef union {
    int32_t i32;
    int64_t i64;
    float f32;
    double f64;
} cpu_value;

typedef struct {
    alignas(CPU_CACHE_LINE) cpu_value v;
} cpu_slot;

/* The status of one tile in the single-pass scan: flag says which of the
 * values is valid; each value is written before the flag is released. */
enum { CPU_TILE_EMPTY = 0, CPU_TILE_AGGREGATE = 1, CPU_TILE_PREFIX = 2 };
typedef struct {
    alignas(CPU_CACHE_LINE) atomic_int flag;
    cpu_value aggregate; /* op over the tile's own elements */
    cpu_value prefix;    /* op over every element up to the tile's end */
} cpu_tile_status;

/* Elements per tile for n elements over `threads` threads: one tile per
 * thread while that fits in CPU_TILE_BYTES, whole cache lines, at least one
 * line. Floats: output i of a tiled scan goes through at most
 * tile + ceil(n / tile) + threads roundings. */
static inline size_t cpu_omp_tile_len(size_t n, int threads, size_t elem_size)
{
    size_t line = CPU_CACHE_LINE / elem_size, p = threads > 0 ? (size_t)threads : 1;
    size_t len = n / p + (n % p != 0), cap = CPU_TILE_BYTES / elem_size;
    if (len > cap)
        len = cap;
    len = (len + line - 1) / line * line;
    return len ? len : line;
}

/* Elements per thread for a one-pass operation (reduce, copy): contiguous
 * chunks of whole cache lines. */
static inline size_t cpu_omp_chunk_len(size_t n, int threads, size_t elem_size)
{
    size_t line = CPU_CACHE_LINE / elem_size, p = threads > 0 ? (size_t)threads : 1;
    size_t len = n / p + (n % p != 0);
    len = (len + line - 1) / line * line;
    return len ? len : line;
}

/* Whether an output of this many bytes is written with streaming stores. */
static inline bool cpu_omp_stream_output(size_t bytes) { return bytes >= CPU_STREAM_MIN_BYTES; }

static inline void cpu_spin_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* Wait until *flag is not CPU_TILE_EMPTY and return it (acquire: the values
 * written before the flag was released are visible afterwards). */
static inline int cpu_wait_flag(atomic_int *flag)
{
    for (unsigned spins = 0;; spins++) {
        int f = atomic_load_explicit(flag, memory_order_acquire);
        if (f != CPU_TILE_EMPTY)
            return f;
        if (spins < CPU_SPIN_BEFORE_YIELD)
            cpu_spin_pause();
        else
            sched_yield();
    }
}

#endif
