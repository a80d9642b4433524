// lookback_nofence.cu - a chained (single-pass) scan across blocks, the
// "StreamScan" / chained-scan scheme (Yan, Long & Zhang, PPoPP 2013): each
// block takes a tile number from an atomic ticket (so that the tile before
// its own belongs to a block that has already started: no deadlock whatever
// the order blocks are dispatched in), scans its tile in shared memory,
// waits for the previous tile's flag, adds the previous tile's inclusive
// prefix, publishes its own inclusive prefix and then sets its own flag.
//
// Launch: --block 256 (any power of two up to 1024), the default grid
// (n + 255) / 256, scratch memory (zeroed before the launch) laid out as 32-bit
// words [ticket, flags[gridDim.x], prefixes[gridDim.x]]:
//   --scratch '4 + 8 * ((n + 255) / 256)'
// i32, add, inclusive.
//
// Entries and the verdict scanlab must give:
//   chained_scan_nofence  the bug: no __threadfence() between the plain
//                         store of the prefix and the store of the flag
//                         (line "BUG: no fence"), and none between seeing
//                         the flag and the plain load of the prefix. Nothing
//                         orders the producer's prefix store before the
//                         consumer's prefix load: a race between the lines
//                         marked "PREFIX STORE" and "PREFIX LOAD" (or, under
//                         an explored schedule, a wrong result); exit 1 at
//                         n = 1024, 2048, 4096.
//   chained_scan_fenced   the fix: __threadfence() before the flag store
//                         (release) and after the flag's volatile load
//                         (acquire): correct and clean (n = 1, 256, 1000,
//                         1024, 3000, 4096; also under explored schedules).

#define MAX_BLOCK 1024

// The block's inclusive scan of its tile in s[0 .. blockDim.x).
__device__ void scan_tile(int *s)
{
    const int tid = threadIdx.x;
    for (int offset = 1; offset < blockDim.x; offset *= 2) {
        int t = 0;
        if (tid >= offset)
            t = s[tid - offset];
        __syncthreads();
        s[tid] += t;
        __syncthreads();
    }
}

extern "C" __global__ void chained_scan_nofence(const int *in, int *out, int n, void *scratch)
{
    __shared__ int s[MAX_BLOCK];
    __shared__ int tile_s, carry_s;
    unsigned int *ticket = (unsigned int *)scratch;
    volatile int *flags = (volatile int *)scratch + 1;
    int *prefix = (int *)scratch + 1 + gridDim.x;
    const int tid = threadIdx.x;

    // tiles in the order blocks start
    if (tid == 0)
        tile_s = (int)atomicAdd(ticket, 1u);
    __syncthreads();
    const int tile = tile_s;
    const int i = tile * blockDim.x + tid;

    s[tid] = i < n ? in[i] : 0;
    __syncthreads();
    scan_tile(s);

    if (tid == 0) {
        int carry = 0;
        if (tile > 0) {
            // wait for the previous tile's inclusive prefix
            while (flags[tile - 1] == 0)
                __nanosleep(32);
            carry = prefix[tile - 1]; // PREFIX LOAD
        }
        prefix[tile] = carry + s[blockDim.x - 1]; // PREFIX STORE
        flags[tile] = 1; // BUG: no fence - nothing orders the prefix store before this flag
        carry_s = carry;
    }
    __syncthreads();

    if (i < n)
        out[i] = carry_s + s[tid];
}

extern "C" __global__ void chained_scan_fenced(const int *in, int *out, int n, void *scratch)
{
    __shared__ int s[MAX_BLOCK];
    __shared__ int tile_s, carry_s;
    unsigned int *ticket = (unsigned int *)scratch;
    volatile int *flags = (volatile int *)scratch + 1;
    int *prefix = (int *)scratch + 1 + gridDim.x;
    const int tid = threadIdx.x;

    if (tid == 0)
        tile_s = (int)atomicAdd(ticket, 1u);
    __syncthreads();
    const int tile = tile_s;
    const int i = tile * blockDim.x + tid;

    s[tid] = i < n ? in[i] : 0;
    __syncthreads();
    scan_tile(s);

    if (tid == 0) {
        int carry = 0;
        if (tile > 0) {
            while (flags[tile - 1] == 0)
                __nanosleep(32);
            __threadfence(); // acquire: the prefix is read after its flag
            carry = prefix[tile - 1];
        }
        prefix[tile] = carry + s[blockDim.x - 1];
        __threadfence(); // release: the prefix is visible before its flag
        flags[tile] = 1;
        carry_s = carry;
    }
    __syncthreads();

    if (i < n)
        out[i] = carry_s + s[tid];
}
