// shfl_scan.cu - the CUDA samples' shuffle scan (samples/2_Concepts_and_
// Techniques/shfl_scan, kernel shfl_scan_test), as a block-level inclusive
// scan: each warp scans its 32 values with __shfl_up_sync, the last lane of
// each warp writes the warp's total to shared memory, the first warp scans
// those totals with a second shuffle scan, and every thread adds the total
// of the warps before its own. Changes from the sample: the signature
// (const T *in, T *out, int n) instead of scanning in place, elements past
// n read as 0 and not written, and a template over the element type.
//
// Launch: one block (--grid 1), blockDim.x one of 32, 64, 128, 256, 512 (the
// number of warps is the second shuffle's width, a power of two, and
// (1 << warps) - 1 its mask, defined below 32 warps), n <= blockDim.x.
//
// Entries and the verdict scanlab must give (add, inclusive):
//   shfl_scan_i32   i32: correct and clean (n = 1, 2, 31, 32, 33, 100,
//                   255, 256 with --block 256 --grid 1).
//   shfl_scan_f32   f32: the same (within the float tolerance).
//   shfl_scan_f64   f64: the same.

template <typename T>
__device__ void shfl_scan_block(const T *in, T *out, int n)
{
    __shared__ T sums[32];
    const int id = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane_id = id % warpSize;
    // the warp's number within the block
    const int warp_id = threadIdx.x / warpSize;

    T value = id < n ? in[id] : T(0);

    // scan of the warp: add the value of the lane i places below
#pragma unroll
    for (int i = 1; i <= warpSize; i *= 2) {
        const unsigned int mask = 0xffffffff;
        T v = __shfl_up_sync(mask, value, i, warpSize);
        if (lane_id >= i)
            value += v;
    }

    // the last lane of each warp holds the warp's total
    if (threadIdx.x % warpSize == warpSize - 1)
        sums[warp_id] = value;

    __syncthreads();

    // scan of the warps' totals by the first warp's first lanes
    const int warps = blockDim.x / warpSize;
    if (warp_id == 0 && lane_id < warps) {
        T warp_sum = sums[lane_id];
        const unsigned int mask = (1u << warps) - 1;
        for (int i = 1; i <= warps; i *= 2) {
            T v = __shfl_up_sync(mask, warp_sum, i, warps);
            if (lane_id >= i)
                warp_sum += v;
        }
        sums[lane_id] = warp_sum;
    }

    __syncthreads();

    // add the total of the warps before this one
    T block_sum = T(0);
    if (warp_id > 0)
        block_sum = sums[warp_id - 1];
    value += block_sum;

    if (id < n)
        out[id] = value;
}

extern "C" __global__ void shfl_scan_i32(const int *in, int *out, int n) { shfl_scan_block<int>(in, out, n); }

extern "C" __global__ void shfl_scan_f32(const float *in, float *out, int n) { shfl_scan_block<float>(in, out, n); }

extern "C" __global__ void shfl_scan_f64(const double *in, double *out, int n) { shfl_scan_block<double>(in, out, n); }
