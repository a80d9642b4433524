// chained_static.cu - the chained scan of lookback_nofence.cu's
// chained_scan_fenced with each block's tile taken from blockIdx.x instead
// of an atomic ticket: block b waits for block b - 1's flag. CUDA does not
// promise that block b - 1 is dispatched before block b, so under
// occupancy-bound progress (a started block keeps running, one not yet
// dispatched may wait for a free slot) the grid can deadlock once it has
// more blocks than the device holds at once; with the ticket it cannot.
//
// Launch: --block 32 (any power of two up to 1024), the default grid,
// scratch memory laid out as [flags[gridDim.x], prefixes[gridDim.x]]:
//   --scratch '8 * n'   (enough for any block size)
// i32, add, inclusive.
//
// Verdicts scanlab must give:
//   simulate: correct and clean (blocks dispatched in order);
//   deadlock --model obe: a deadlock (the dispatch order it prints has a
//   block waiting for one that cannot start), exit 1; --model fair: free.

#define MAX_BLOCK 1024

extern "C" __global__ void chained_static(const int *in, int *out, int n, void *scratch)
{
    __shared__ int s[MAX_BLOCK];
    __shared__ int carry_s;
    volatile int *flags = (volatile int *)scratch;
    int *prefix = (int *)scratch + gridDim.x;
    const int tid = threadIdx.x;
    const int tile = blockIdx.x;
    const int i = tile * blockDim.x + tid;

    s[tid] = i < n ? in[i] : 0;
    __syncthreads();
    for (int offset = 1; offset < blockDim.x; offset *= 2) {
        int t = 0;
        if (tid >= offset)
            t = s[tid - offset];
        __syncthreads();
        s[tid] += t;
        __syncthreads();
    }

    if (tid == 0) {
        int carry = 0;
        if (tile > 0) {
            while (flags[tile - 1] == 0) // WAIT
                __nanosleep(32);
            __threadfence();
            carry = prefix[tile - 1];
        }
        prefix[tile] = carry + s[blockDim.x - 1];
        __threadfence();
        flags[tile] = 1;
        carry_s = carry;
    }
    __syncthreads();

    if (i < n)
        out[i] = carry_s + s[tid];
}
