// samples_shfl_scan.cu - a block scan in the form of the CUDA samples'
// shfl_scan_test (samples/2_Concepts_and_Techniques/shfl_scan): its own
// signature (int *data, int width, int *partial_sums), scanning in place,
// C++ linkage (a mangled entry name), no bounds check (the sample launches
// exactly one thread per element), the warps' totals in dynamic shared
// memory, and the sample's mask (1 << width) - 1 for the second scan, which
// is 0 in C for width 32 but what nvcc compiles is what runs. Nothing here
// is shaped for scanlab: --args says which parameter is what.
//
// Launch: blockDim.x a multiple of 32 up to 1024, shared memory of one int
// per warp, n = blockDim.x * gridDim.x.
//
// Verdicts scanlab must give (i32, add, inclusive, each block on its own:
// one block, so the block scan is the whole scan):
//   --args inout,32,0 --grid 1 --block 256 --shared 32 --n 256: correct and
//   clean (partial_sums is a null pointer: not written);
//   the same at --n 200: out of bounds at the line marked BUG (the sample
//   reads data[id] for every thread, past n).

__global__ void shfl_scan_test(int *data, int width, int *partial_sums = NULL)
{
    extern __shared__ int sums[];
    int id = ((blockIdx.x * blockDim.x) + threadIdx.x);
    int lane_id = id % warpSize;
    // determine a warp_id within a block
    int warp_id = threadIdx.x / warpSize;

    // Below is the basic structure of using a shfl instruction
    // for a scan.
    int value = data[id]; // BUG: out of bounds when n is not a multiple of the block

    // Now accumulate in log steps up the chain
#pragma unroll
    for (int i = 1; i <= width; i *= 2) {
        unsigned int mask = 0xffffffff;
        int n = __shfl_up_sync(mask, value, i, width);

        if (lane_id >= i)
            value += n;
    }

    // value now holds the scan value for the individual thread
    // next sum the largest values for each warp

    // write the sum of the warp to smem
    if (threadIdx.x % warpSize == warpSize - 1) {
        sums[warp_id] = value;
    }

    __syncthreads();

    // scan sum the warp sums
    if (warp_id == 0 && lane_id < (blockDim.x / warpSize)) {
        int warp_sum = sums[lane_id];

        int mask = (1 << (blockDim.x / warpSize)) - 1;
        for (int i = 1; i <= (blockDim.x / warpSize); i *= 2) {
            int n = __shfl_up_sync(mask, warp_sum, i, (blockDim.x / warpSize));

            if (lane_id >= i)
                warp_sum += n;
        }

        sums[lane_id] = warp_sum;
    }

    __syncthreads();

    // perform a uniform add across warps in the block
    // read neighbouring warp's sum and add it to threads value
    int blockSum = 0;

    if (warp_id > 0) {
        blockSum = sums[warp_id - 1];
    }

    value += blockSum;

    // Now write out our result
    data[id] = value;

    // last thread has sum, write write out the block's sum
    if (partial_sums != NULL && threadIdx.x == blockDim.x - 1) {
        partial_sums[blockIdx.x] = value;
    }
}
