// last_block_scan.cu - a grid-wide inclusive scan in one launch by the "last
// block" pattern of the CUDA samples' threadFenceReduction: every block
// scans its tile into out[], writes the tile's total to scratch memory,
// fences, and takes a ticket from a __device__ counter; the block that gets
// the last ticket (every other block has then published its tile) scans the
// tiles' totals and adds to every tile the total of the tiles before it,
// then resets the counter for the next launch.
//
// Launch: --block 256 (any power of two up to 1024), the default grid
// (n + 255) / 256 (at most 1024 blocks), scratch memory for the tiles'
// totals: --scratch '4 * ((n + 255) / 256)'; i32, add, inclusive.
//
// Entry and the verdict scanlab must give:
//   last_block_scan  correct and clean at n = 1, 255, 256, 1000, 4096 (one
//                    process, several launches: the counter must come back
//                    to 0), also under explored schedules.
//
// Why it is race-free under the PTX memory model: block b's plain stores
// (its outputs, then its total) come before its fence.sc (membar.gl) and
// its atomicAdd, a release pattern; the last block's atomicAdd followed by
// its fence is an acquire pattern. The last block's atomic reads the value
// of the atomic of whichever block came just before it, not block b's - but
// PTX's observation order runs through a chain of atomic read-modify-writes
// on one location ("W precedes R if ... for some atomic operation Z, W
// precedes Z and Z precedes R"), so every block's release synchronises with
// the last block's acquire, and the __syncthreads() on either side extends
// that to every thread. (The CUDA C++ Programming Guide's own example for
// __threadfence(), a sum by the last block, relies on exactly this, with no
// fence after its atomicInc at all.) A checker that orders the last block
// only after the one block whose atomic it read reports false races here:
// the last block's reads of tile_total[] and out[] against other blocks'
// stores.

#define MAX_BLOCK 1024
#define MAX_TILES 1024

// Blocks that have published their tile's total, this launch.
__device__ unsigned int retirement_count = 0;

extern "C" __global__ void last_block_scan(const int *in, int *out, int n, void *scratch)
{
    __shared__ int s[MAX_BLOCK];
    __shared__ int before[MAX_TILES];
    __shared__ bool am_last;
    int *tile_total = (int *)scratch;
    const int tid = threadIdx.x;
    const int i = blockIdx.x * blockDim.x + tid;

    // the tile's inclusive scan
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
    if (i < n)
        out[i] = s[tid];

    // publish the tile's total; the last block to arrive finishes the scan
    __syncthreads();
    if (tid == 0) {
        tile_total[blockIdx.x] = s[blockDim.x - 1];
        __threadfence(); // the total and the tile's outputs before the ticket
        const unsigned int ticket = atomicAdd(&retirement_count, 1u);
        am_last = ticket == gridDim.x - 1;
        if (am_last)
            __threadfence(); // every other block's outputs after its ticket
    }
    __syncthreads();
    if (!am_last)
        return;

    // the last block: exclusive prefix of the tiles' totals...
    if (tid == 0) {
        int running = 0;
        for (int t = 0; t < gridDim.x; t++) {
            before[t] = running;
            running += tile_total[t];
        }
        retirement_count = 0; // ready for the next launch
    }
    __syncthreads();
    // ...added to every tile after the first
    for (int j = blockDim.x + tid; j < n; j += blockDim.x)
        out[j] += before[j / blockDim.x];
}
