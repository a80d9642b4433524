/* Test kernels for the per-launch counts, compiled for the simulator (one
 * instantiation, i32 add). */
#define T int32_t
#define TN i32
#define OPN add
#include "cuda/dialect.h"

#include "launch_kernels.h"

SL_GLOBAL SL_KN(lk_shared)(const int32_t *in, int32_t *out)
{
    SHARED(float, sh, 2 * 64);
    const unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    ST(sh, 2 * t, (float)LD(in, i));
    SYNCTHREADS();
    float v = LD(sh, t);
    if (LANE_ID() < 8)
        v += LD(sh, 0);
    ST(out, i, (int32_t)v);
}
SL_DEFINE_LAUNCH(SL_KN(lk_shared), (const int32_t *, in), (int32_t *, out))
sl_status lk_shared(sl_launch cfg, const int32_t *in, int32_t *out) { return SL_LAUNCH(lk_shared)(cfg, in, out); }

SL_GLOBAL SL_KN(lk_poll)(uint32_t *counter, const int32_t *flag, int32_t *out)
{
    if (threadIdx.x == 0) {
        (void)ATOMIC_ADD(counter, 1u);
        ST(out, 0, LDV(flag, 0));
    }
}
SL_DEFINE_LAUNCH(SL_KN(lk_poll), (uint32_t *, counter), (const int32_t *, flag), (int32_t *, out))
sl_status lk_poll(sl_launch cfg, uint32_t *counter, const int32_t *flag, int32_t *out)
{
    return SL_LAUNCH(lk_poll)(cfg, counter, flag, out);
}

SL_GLOBAL SL_KN(lk_chain)(int32_t *flag, int early)
{
    const unsigned b = blockIdx.x;
    if (threadIdx.x != 0)
        return;
    if (early)
        STV(flag, b, 1);
    if (b > 0)
        while (LDV(flag, b - 1) == 0) {
        }
    /* three steps of its own before it publishes: 2 */
    int32_t v = -1;
    for (int k = 0; k < 3; k++)
        v = OP(v, 1);
    STV(flag, b, v);
}
SL_DEFINE_LAUNCH(SL_KN(lk_chain), (int32_t *, flag), (int, early))
sl_status lk_chain(sl_launch cfg, int32_t *flag, int early) { return SL_LAUNCH(lk_chain)(cfg, flag, early); }

SL_GLOBAL SL_KN(lk_rounds)(const int32_t *in, int32_t *out, int tiles)
{
    const unsigned t = threadIdx.x;
    /* a volatile load, then a barrier: an interval that only polls */
    int32_t v = t == 0 ? LDV(in, 0) : 0;
    SYNCTHREADS();
    for (int k = 0; k < tiles + (int)blockIdx.x; k++) {
        v += LD(in, (unsigned)k * blockDim.x + t);
        SYNCTHREADS();
    }
    ST(out, blockIdx.x * blockDim.x + t, v);
}
SL_DEFINE_LAUNCH(SL_KN(lk_rounds), (const int32_t *, in), (int32_t *, out), (int, tiles))
sl_status lk_rounds(sl_launch cfg, const int32_t *in, int32_t *out, int tiles)
{
    return SL_LAUNCH(lk_rounds)(cfg, in, out, tiles);
}
