/* Test kernels in the dialect, compiled for the simulator: one
 * instantiation (i32, add). Line numbers of planted bugs are exported so
 * that the tests check the reported sites. */
#define T int32_t
#define TN i32
#define OPN add
#include "cuda/dialect.h"

#include "kernels.h"

SL_GLOBAL SL_KN(stride)(float *out, int stride)
{
    SHARED(float, sh, 32 * 32);
    float x = LD(sh, threadIdx.x * (unsigned)stride);
    ST(out, threadIdx.x, x);
}
SL_DEFINE_LAUNCH(SL_KN(stride), (float *, out), (int, stride))
sl_status tk_stride(sl_launch cfg, float *out, int stride) { return SL_LAUNCH(stride)(cfg, out, stride); }

typedef struct {
    float a, b, c, d;
} f4;
SL_GLOBAL SL_KN(wide)(float *out, int wide)
{
    SHARED(double, sh2, 32);
    SHARED(f4, sh4, 32);
    if (wide == 2)
        ST(out, threadIdx.x, (float)LD(sh2, threadIdx.x));
    else
        ST(out, threadIdx.x, LD(sh4, threadIdx.x).a);
}
SL_DEFINE_LAUNCH(SL_KN(wide), (float *, out), (int, wide))
sl_status tk_wide(sl_launch cfg, float *out, int wide) { return SL_LAUNCH(wide)(cfg, out, wide); }

SL_GLOBAL SL_KN(broadcast)(float *out)
{
    SHARED(float, sh, 32);
    ST(out, threadIdx.x, LD(sh, 5));
}
SL_DEFINE_LAUNCH(SL_KN(broadcast), (float *, out))
sl_status tk_broadcast(sl_launch cfg, float *out) { return SL_LAUNCH(broadcast)(cfg, out); }

SL_GLOBAL SL_KN(race)(int32_t *out, int reader, int sync)
{
    SHARED(int32_t, sh, 32);
    if (threadIdx.x == 0)
        ST(sh, 0, 7); /* the write */
    if (sync && threadIdx.x < 32)
        SYNCWARP();
    if ((int)threadIdx.x == reader)
        ST(out, 0, LD(sh, 0)); /* the read */
}
SL_DEFINE_LAUNCH(SL_KN(race), (int32_t *, out), (int, reader), (int, sync))
const int tk_race_write_line = 47, tk_race_read_line = 51; /* the lines marked above */
sl_status tk_race(sl_launch cfg, int32_t *out, int reader, int sync)
{
    return SL_LAUNCH(race)(cfg, out, reader, sync);
}

SL_GLOBAL SL_KN(barrier_div)(int32_t *out)
{
    if (threadIdx.x < 16)
        SYNCTHREADS(); /* a */
    else
        SYNCTHREADS(); /* b */
    ST(out, threadIdx.x, 1);
}
SL_DEFINE_LAUNCH(SL_KN(barrier_div), (int32_t *, out))
const int tk_bar_a_line = 63, tk_bar_b_line = 65; /* the lines marked above */
sl_status tk_barrier_div(sl_launch cfg, int32_t *out) { return SL_LAUNCH(barrier_div)(cfg, out); }

SL_GLOBAL SL_KN(shfl_scan)(int32_t *out)
{
    int32_t x = (int32_t)LANE_ID() + 1;
    for (int d = 1; d < SL_WARP_SIZE; d *= 2) {
        int32_t y = SHFL_UP(x, d);
        if ((int)LANE_ID() >= d)
            x = OP(y, x);
    }
    ST(out, threadIdx.x, x);
}
SL_DEFINE_LAUNCH(SL_KN(shfl_scan), (int32_t *, out))
sl_status tk_shfl_scan(sl_launch cfg, int32_t *out) { return SL_LAUNCH(shfl_scan)(cfg, out); }

SL_GLOBAL SL_KN(work)(int32_t *out)
{
    T x = IDENTITY();
    for (unsigned k = 0; k < threadIdx.x; k++)
        x = OP(x, 1);
    SYNCTHREADS();
    x = OP(x, 1);
    ST(out, threadIdx.x, x);
}
SL_DEFINE_LAUNCH(SL_KN(work), (int32_t *, out))
sl_status tk_work(sl_launch cfg, int32_t *out) { return SL_LAUNCH(work)(cfg, out); }

SL_GLOBAL SL_KN(oob)(const int32_t *in, int32_t *out, int offset)
{
    ST(out, threadIdx.x, LD(in, (int)threadIdx.x + offset));
}
SL_DEFINE_LAUNCH(SL_KN(oob), (const int32_t *, in), (int32_t *, out), (int, offset))
const int tk_oob_line = 99; /* the load above */
sl_status tk_oob(sl_launch cfg, const int32_t *in, int32_t *out, int offset)
{
    return SL_LAUNCH(oob)(cfg, in, out, offset);
}

SL_GLOBAL SL_KN(chain)(int32_t *flag)
{
    if (threadIdx.x == 0) {
        if (blockIdx.x > 0)
            while (LDV(flag, blockIdx.x - 1) == 0) {
            }
        STV(flag, blockIdx.x, 1);
    }
}
SL_DEFINE_LAUNCH(SL_KN(chain), (int32_t *, flag))
sl_status tk_chain(sl_launch cfg, int32_t *flag) { return SL_LAUNCH(chain)(cfg, flag); }

SL_GLOBAL SL_KN(pattern)(float *out, int mode)
{
    SHARED(float, sh, 32 * 32);
    const unsigned l = LANE_ID();
    const unsigned word = mode == 0 ? (31 - l) * 2 : mode == 1 ? (l % 16) * 2 : (l % 16) * 32;
    ST(out, 31 - l, LD(sh, word));
}
SL_DEFINE_LAUNCH(SL_KN(pattern), (float *, out), (int, mode))
sl_status tk_pattern(sl_launch cfg, float *out, int mode) { return SL_LAUNCH(pattern)(cfg, out, mode); }

SL_GLOBAL SL_KN(copy)(const int32_t *in, int32_t *out)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    ST(out, i, LD(in, i));
}
SL_DEFINE_LAUNCH(SL_KN(copy), (const int32_t *, in), (int32_t *, out))
sl_status tk_copy(sl_launch cfg, const int32_t *in, int32_t *out) { return SL_LAUNCH(copy)(cfg, in, out); }

/* 8-byte shared accesses whose cost depends on how the lanes fall into
 * half-warps (test_bank_half_warps). */
SL_GLOBAL SL_KN(wide_halves)(float *out, int mode)
{
    SHARED(double, sh2, 64);
    const unsigned l = threadIdx.x;
    if (mode == 0) {
        /* doubles d and d + 16 share banks: half 0 reads 0 and 16, half 1
         * reads 1 and 17; every bank serves two words, each half two */
        const unsigned d = l < 16 ? (l == 1 ? 16 : l) : (l == 31 ? 1 : l + 1);
        ST(out, l, (float)LD(sh2, d));
    } else if (mode == 1) {
        if (l % 2 == 0) /* even lanes, stride 16 bytes: one wavefront a half */
            ST(out, l, (float)LD(sh2, l));
    } else if (mode == 2) {
        if (l % 2 == 0)
            ST(sh2, l, (double)l);
    } else if (mode == 3) {
        ST(out, l, (float)LD(sh2, 3)); /* one double, every lane: broadcast */
    } else if (mode == 4) {
        if (l == 0 || l == 16) /* one lane a half, the same banks */
            ST(sh2, l, (double)l);
    }
}
SL_DEFINE_LAUNCH(SL_KN(wide_halves), (float *, out), (int, mode))
sl_status tk_wide_halves(sl_launch cfg, float *out, int mode) { return SL_LAUNCH(wide_halves)(cfg, out, mode); }

SL_GLOBAL SL_KN(wide_return)(float *out, int mode)
{
    SHARED(f4, sh4, 32);
    SHARED(double, sh2, 32);
    const unsigned l = threadIdx.x;
    if (mode == 0)
        ST(out, l, LD(sh4, 3).a); /* one 16-byte word, every lane */
    else if (mode == 1)
        ST(out, l, LD(sh4, l < 16 ? 0 : 2).a); /* one a half-warp */
    else if (mode == 2 && l == 5)
        ST(out, l, LD(sh4, 1).a); /* one lane */
    else if (mode == 3)
        ST(out, l, (float)LD(sh2, l / 2)); /* 8 bytes, lanes in pairs */
}
SL_DEFINE_LAUNCH(SL_KN(wide_return), (float *, out), (int, mode))
sl_status tk_wide_return(sl_launch cfg, float *out, int mode) { return SL_LAUNCH(wide_return)(cfg, out, mode); }

/* Lanes 0 and 1 write s[k], then out[k] (out: pointer + off), unordered:
 * a race on each, which its finding names by array and element. */
SL_GLOBAL SL_KN(race_at)(int32_t *out, int k, int global)
{
    SHARED(int32_t, s, 64);
    if (threadIdx.x < 2) {
        if (global)
            ST(out, k, (int32_t)threadIdx.x);
        else
            ST(s, k, (int32_t)threadIdx.x);
    }
}
SL_DEFINE_LAUNCH(SL_KN(race_at), (int32_t *, out), (int, k), (int, global))
sl_status tk_race_at(sl_launch cfg, int32_t *out, int k, int global) { return SL_LAUNCH(race_at)(cfg, out, k, global); }
