// gems_prescan.cu - the work-efficient exclusive scan of one block in the
// form of GPU Gems 3, chapter 39 (Harris, Sengupta and Owens): the
// signature (float *g_odata, float *g_idata, int n), output first; each
// thread loads two elements into shared memory, an up-sweep builds the sum
// tree, the root is cleared, a down-sweep distributes the prefixes. Written
// for int, and with the bound checks the chapter leaves to the caller
// (elements past n read as 0, not written), so that any n up to twice the
// block runs.
//
// Launch: one block of B threads, shared memory of 2 * B ints, n <= 2 * B,
// B a power of two.
//
// Verdicts scanlab must give (i32, add, exclusive):
//   prescan with --args out,in,n --grid 1 --block 128 --shared 1024 at
//   n = 1, 100, 255, 256: correct and clean.
//   prescan_nosync (the down-sweep's barrier left out): a race at the line
//   marked RACE (the read or
//   the writes of the down-sweep).

template <bool SYNC>
__device__ void prescan_block(int *g_odata, const int *g_idata, int n)
{
    extern __shared__ int temp[];
    const int thid = threadIdx.x;
    const int m = 2 * blockDim.x;
    int offset = 1;

    temp[2 * thid] = 2 * thid < n ? g_idata[2 * thid] : 0;
    temp[2 * thid + 1] = 2 * thid + 1 < n ? g_idata[2 * thid + 1] : 0;

    // build the sum in place up the tree
    for (int d = m >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (thid < d) {
            const int ai = offset * (2 * thid + 1) - 1;
            const int bi = offset * (2 * thid + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset *= 2;
    }

    // clear the last element
    if (thid == 0)
        temp[m - 1] = 0;

    // traverse down the tree and build the scan
    for (int d = 1; d < m; d *= 2) {
        offset >>= 1;
        if (SYNC)
            __syncthreads();
        if (thid < d) {
            const int ai = offset * (2 * thid + 1) - 1;
            const int bi = offset * (2 * thid + 2) - 1;
            const int t = temp[ai]; // RACE without the barrier above
            temp[ai] = temp[bi]; // RACE without the barrier above
            temp[bi] += t; // RACE without the barrier above
        }
    }
    __syncthreads();

    if (2 * thid < n)
        g_odata[2 * thid] = temp[2 * thid];
    if (2 * thid + 1 < n)
        g_odata[2 * thid + 1] = temp[2 * thid + 1];
}

extern "C" __global__ void prescan(int *g_odata, const int *g_idata, int n) { prescan_block<true>(g_odata, g_idata, n); }

extern "C" __global__ void prescan_nosync(int *g_odata, const int *g_idata, int n)
{
    prescan_block<false>(g_odata, g_idata, n);
}
