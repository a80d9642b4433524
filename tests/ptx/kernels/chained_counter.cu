// chained_counter.cu - a correct chained (single-pass) scan across blocks
// whose tile numbers come from a __device__ counter instead of scratch
// memory: each block takes a tile number with atomicAdd on the counter,
// scans its tile in shared memory, waits for the previous tile's flag
// (volatile load, then __threadfence()), adds the previous tile's inclusive
// prefix, publishes its own (plain store, __threadfence(), flag). The block
// of the last tile resets the counter for the next launch once the tile
// before its own is done (every other block has then taken its ticket).
//
// Launch: --block 256 (any power of two up to 1024), the default grid
// (n + 255) / 256, scratch memory (zeroed before the launch) laid out as
// 32-bit words [flags[gridDim.x], prefixes[gridDim.x]]:
//   --scratch '8 * ((n + 255) / 256)'
// i32, add, inclusive.
//
// Entry and the verdict scanlab must give:
//   chained_scan_counter  correct and clean at n = 1, 255, 256, 1000, 4096
//                         in one process (several launches: the counter
//                         must come back to 0 between them), also under
//                         explored schedules.

#define MAX_BLOCK 1024

// Tiles handed out this launch.
__device__ unsigned int tile_counter = 0;

extern "C" __global__ void chained_scan_counter(const int *in, int *out, int n, void *scratch)
{
    __shared__ int s[MAX_BLOCK];
    __shared__ int tile_s, carry_s;
    volatile int *flags = (volatile int *)scratch;
    int *prefix = (int *)scratch + gridDim.x;
    const int tid = threadIdx.x;

    // tiles in the order blocks start: the tile before ours is running or done
    if (tid == 0)
        tile_s = (int)atomicAdd(&tile_counter, 1u);
    __syncthreads();
    const int tile = tile_s;
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
            while (flags[tile - 1] == 0)
                __nanosleep(64);
            __threadfence(); // acquire: the prefix is read after its flag
            carry = prefix[tile - 1];
        }
        prefix[tile] = carry + s[blockDim.x - 1];
        __threadfence(); // release: the prefix is visible before its flag
        flags[tile] = 1;
        if (tile == gridDim.x - 1)
            tile_counter = 0; // every block has its tile: ready for the next launch
        carry_s = carry;
    }
    __syncthreads();

    if (i < n)
        out[i] = carry_s + s[tid];
}
