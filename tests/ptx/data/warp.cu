// Warp and block collectives. __reduce_add_sync needs sm_80: the sm_75
// build leaves it out.
extern "C" __global__ void warp(const int *in, int *out)
{
    int v = in[threadIdx.x];
    int up = __shfl_up_sync(0xffffffffu, v, 1);
    unsigned ballot = __ballot_sync(0xffffffffu, v > 0);
    unsigned same = __match_any_sync(0xffffffffu, v);
#if __CUDA_ARCH__ >= 800
    unsigned sum = __reduce_add_sync(0xffffffffu, (unsigned)v);
#else
    unsigned sum = 0;
#endif
    int count = __syncthreads_count(v > up);
    int any = __syncthreads_or(v == 0);
    out[threadIdx.x] = up + (int)ballot + (int)same + (int)sum + count + any;
}
