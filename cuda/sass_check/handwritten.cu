/* The same Brent-Kung block kernel written by hand in CUDA: the twin that
 * the dialect's SASS is compared with (compare.sh). */
#include <cstddef>
#include <cstdint>

static __device__ __forceinline__ int32_t add_i32(int32_t a, int32_t b)
{
    return (int32_t)((uint32_t)a + (uint32_t)b);
}

static __global__ void bk_scan_hand(const int32_t *in, int32_t *out, int32_t *sums, size_t n, int shift)
{
    extern __shared__ __align__(16) unsigned char smem[];
    int32_t *xy = (int32_t *)smem;
    const unsigned t = threadIdx.x, b = blockDim.x;
    const size_t base = (size_t)2 * b * blockIdx.x;
    for (unsigned h = 0; h < 2; h++) {
        size_t i = base + t + h * b;
        int32_t x = 0;
        if (i < n && (!shift || i > 0))
            x = in[i - (size_t)shift];
        xy[t + h * b] = x;
    }
    for (unsigned stride = 1; stride <= b; stride *= 2) {
        __syncthreads();
        unsigned index = (t + 1) * 2 * stride - 1;
        if (index < 2 * b)
            xy[index] = add_i32(xy[index - stride], xy[index]);
    }
    for (unsigned stride = b / 2; stride > 0; stride /= 2) {
        __syncthreads();
        unsigned index = (t + 1) * 2 * stride - 1;
        if (index + stride < 2 * b)
            xy[index + stride] = add_i32(xy[index], xy[index + stride]);
    }
    __syncthreads();
    for (unsigned h = 0; h < 2; h++) {
        size_t i = base + t + h * b;
        if (i < n)
            out[i] = xy[t + h * b];
    }
    if (sums != NULL && t == b - 1)
        sums[blockIdx.x] = xy[2 * b - 1];
}

/* A host launcher, so that nvcc emits the kernel as the dialect's
 * launch function makes it emit bk_scan_i32_add_cuda. */
void bk_scan_hand_launch(unsigned grid, unsigned block, const int32_t *in, int32_t *out, int32_t *sums,
                         size_t n, int shift)
{
    bk_scan_hand<<<grid, block, 2 * block * sizeof(int32_t)>>>(in, out, sums, n, shift);
}
