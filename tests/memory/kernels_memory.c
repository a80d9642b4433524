/* Kernels for the memory-model tests, compiled for the simulator only
 * (i32, add). Each plants one ordering pattern between two blocks or inside
 * a warp; tm_line_* hold the lines of the accesses the tests expect in a
 * report. */
#define T int32_t
#define TN i32
#define OPN add
#include "cuda/dialect.h"

#include "kernels_memory.h"

int tm_line_reader, tm_line_writer, tm_line_data_store, tm_line_data_load, tm_line_half, tm_line_narrow;

/* Every thread t reads word t + 1 and word t, then writes word t: thread t
 * + 1 reads and writes word t + 1 after thread t read it, with no barrier in
 * between. The read by t is not the word's last read when t + 1 writes. */
SL_GLOBAL SL_KN(readers)(int32_t *out)
{
    SHARED(int32_t, sh, 65);
    const unsigned t = threadIdx.x;
    ST(sh, t, (int32_t)t);
    if (t == 0)
        ST(sh, 64, 64);
    SYNCTHREADS();
    tm_line_reader = __LINE__ + 1;
    const int32_t a = LD(sh, t + 1);
    const int32_t b = LD(sh, t);
    tm_line_writer = __LINE__ + 1;
    ST(sh, t, a + b);
    SYNCTHREADS();
    ST(out, t, LD(sh, t));
}
SL_DEFINE_LAUNCH(SL_KN(readers), (int32_t *, out))
sl_status tm_readers(sl_launch cfg, int32_t *out) { return SL_LAUNCH(readers)(cfg, out); }

/* Message passing from block 0 to block 1: block 0 stores data then a flag,
 * block 1 waits for the flag and reads the data (see tm_mp_mode). */
SL_GLOBAL SL_KN(mp)(int32_t *data, uint32_t *flag, int32_t *out, int mode)
{
    if (threadIdx.x != 0)
        return;
    const bool strong_data = mode == TM_MP_STRONG_NO_FENCE || mode == TM_MP_STRONG_FENCES ||
                             mode == TM_MP_STRONG_RELACQ;
    if (blockIdx.x == 0) {
        /* the writer */
        if (mode == TM_MP_FLAG_FIRST) {
            STV(flag, 0, 1u);
            tm_line_data_store = __LINE__ + 1;
            ST(data, 0, 42);
            return;
        }
        if (strong_data) {
            ST_RELAXED(data, 0, 42);
        } else {
            tm_line_data_store = __LINE__ + 1;
            ST(data, 0, 42);
        }
        if (mode == TM_MP_FENCES || mode == TM_MP_NO_READER_FENCE || mode == TM_MP_STRONG_FENCES)
            THREADFENCE();
        if (mode == TM_MP_BLOCK_FENCES)
            THREADFENCE_BLOCK();
        if (mode == TM_MP_RELACQ || mode == TM_MP_STRONG_RELACQ)
            ST_RELEASE(flag, 0, 1u);
        else if (mode == TM_MP_RELAXED || mode == TM_MP_STRONG_NO_FENCE)
            ST_RELAXED(flag, 0, 1u);
        else
            STV(flag, 0, 1u);
        return;
    }
    /* the reader */
    if (mode == TM_MP_RELACQ || mode == TM_MP_STRONG_RELACQ)
        while (LD_ACQUIRE(flag, 0) == 0) {
        }
    else if (mode == TM_MP_RELAXED || mode == TM_MP_STRONG_NO_FENCE)
        while (LD_RELAXED(flag, 0) == 0) {
        }
    else
        while (LDV(flag, 0) == 0) {
        }
    if (mode == TM_MP_FENCES || mode == TM_MP_NO_WRITER_FENCE || mode == TM_MP_FLAG_FIRST ||
        mode == TM_MP_STRONG_FENCES)
        THREADFENCE();
    if (mode == TM_MP_BLOCK_FENCES)
        THREADFENCE_BLOCK();
    tm_line_data_load = __LINE__ + 1;
    const int32_t v = strong_data ? LD_RELAXED(data, 0) : LD(data, 0);
    ST(out, 0, v);
}
SL_DEFINE_LAUNCH(SL_KN(mp), (int32_t *, data), (uint32_t *, flag), (int32_t *, out), (int, mode))
sl_status tm_mp(sl_launch cfg, int32_t *data, uint32_t *flag, int32_t *out, int mode)
{
    return SL_LAUNCH(mp)(cfg, data, flag, out, mode);
}

/* A packed (status, value) word written as two 4-byte volatile stores and
 * read as one 8-byte volatile load: not the same access, so not morally
 * strong. */
SL_GLOBAL SL_KN(halves)(uint64_t *word, int32_t *out)
{
    if (threadIdx.x != 0)
        return;
    if (blockIdx.x == 0) {
        uint32_t *half = (uint32_t *)word;
        tm_line_half = __LINE__ + 1;
        STV(half, 0, 42u);
        STV(half, 1, 1u);
        return;
    }
    uint64_t w;
    while (((w = LDV(word, 0)) >> 32) == 0) {
    }
    ST(out, 0, (int32_t)(uint32_t)w);
}
SL_DEFINE_LAUNCH(SL_KN(halves), (uint64_t *, word), (int32_t *, out))
sl_status tm_halves(sl_launch cfg, uint64_t *word, int32_t *out) { return SL_LAUNCH(halves)(cfg, word, out); }

/* Warp operations CUDA leaves undefined, and one it allows (tm_warp_mode). */
SL_GLOBAL SL_KN(warp)(int32_t *out, int mode)
{
    const unsigned lane = LANE_ID();
    int32_t x = (int32_t)threadIdx.x;
    if (mode == TM_WARP_EXITED && threadIdx.x == 5)
        return;
    unsigned mask = SL_FULL_MASK;
    if (mode == TM_WARP_MASKS_DIFFER && lane < 16)
        mask = 0xffffu;
    if (mode == TM_WARP_PARTIAL_OK && WARP_ID() == blockDim.x / SL_WARP_SIZE)
        mask = (1u << (blockDim.x % SL_WARP_SIZE)) - 1;
    x = SHFL_UP_MASK(mask, x, 1);
    ST(out, threadIdx.x, x);
}
SL_DEFINE_LAUNCH(SL_KN(warp), (int32_t *, out), (int, mode))
sl_status tm_warp(sl_launch cfg, int32_t *out, int mode) { return SL_LAUNCH(warp)(cfg, out, mode); }

/* A 4-byte load one byte past an aligned address. */
SL_GLOBAL SL_KN(misaligned)(const int32_t *in, int32_t *out)
{
    const int32_t *p = (const int32_t *)(const void *)((const char *)in + 1);
    ST(out, threadIdx.x, LD(p, threadIdx.x));
}
SL_DEFINE_LAUNCH(SL_KN(misaligned), (const int32_t *, in), (int32_t *, out))
sl_status tm_misaligned(sl_launch cfg, const int32_t *in, int32_t *out)
{
    return SL_LAUNCH(misaligned)(cfg, in, out);
}

/* A chain through the blocks: block b waits for block b - 1's value, applies
 * the operator `ops` times and publishes; no barrier. */
SL_GLOBAL SL_KN(chain)(uint32_t *flag, int ops)
{
    if (threadIdx.x != 0)
        return;
    int32_t x = 1;
    if (blockIdx.x > 0) {
        uint32_t v;
        while ((v = LD_ACQUIRE(flag, blockIdx.x - 1)) == 0) {
        }
        x = (int32_t)v;
    }
    for (int k = 0; k < ops; k++)
        x = OP(x, 1);
    ST_RELEASE(flag, blockIdx.x, (uint32_t)x);
}
SL_DEFINE_LAUNCH(SL_KN(chain), (uint32_t *, flag), (int, ops))
sl_status tm_chain(sl_launch cfg, uint32_t *flag, int ops) { return SL_LAUNCH(chain)(cfg, flag, ops); }

/* Every lane of the block stores its index to one word with no
 * synchronisation: the last store wins, and which is last depends on the
 * order in which the lanes run. */
SL_GLOBAL SL_KN(last_writer)(int32_t *out)
{
    ST(out, 0, (int32_t)threadIdx.x);
}
SL_DEFINE_LAUNCH(SL_KN(last_writer), (int32_t *, out))
sl_status tm_last_writer(sl_launch cfg, int32_t *out) { return SL_LAUNCH(last_writer)(cfg, out); }

/* A ticket per block from an atomic counter: out[ticket] = blockIdx.x. */
SL_GLOBAL SL_KN(tickets)(uint32_t *counter, int32_t *out)
{
    if (threadIdx.x == 0) {
        const uint32_t k = ATOMIC_ADD(counter, 1u);
        ST(out, k, (int32_t)blockIdx.x);
    }
}
SL_DEFINE_LAUNCH(SL_KN(tickets), (uint32_t *, counter), (int32_t *, out))
sl_status tm_tickets(sl_launch cfg, uint32_t *counter, int32_t *out)
{
    return SL_LAUNCH(tickets)(cfg, counter, out);
}

/* A copy indexed by an unsigned 32-bit expression (wide = 0) or a 64-bit
 * one (wide = 1): the 32-bit one cannot reach past element 2^32. */
SL_GLOBAL SL_KN(index_copy)(const int32_t *in, int32_t *out, size_t n, int wide)
{
    if (wide) {
        const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n)
            ST(out, i, LD(in, i));
    } else {
        const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
        tm_line_narrow = __LINE__ + 2;
        if (i < n)
            ST(out, i, LD(in, i));
    }
}
SL_DEFINE_LAUNCH(SL_KN(index_copy), (const int32_t *, in), (int32_t *, out), (size_t, n), (int, wide))
sl_status tm_index_copy(sl_launch cfg, const int32_t *in, int32_t *out, size_t n, int wide)
{
    return SL_LAUNCH(index_copy)(cfg, in, out, n, wide);
}
