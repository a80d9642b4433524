// oob_read.cu - a one-pass, grid-wide inclusive scan without communication
// between blocks: every block first sums all the elements before its tile
// (a strided loop and a tree reduction in shared memory - O(n) reads per
// block, fine for small inputs), then scans its tile Kogge-Stone style and
// adds that carry-in. The tile is blockDim.x elements, one per thread.
//
// Launch: --block 256 (any power of two up to 1024), the default grid
// (n + 255) / 256; i32, add, inclusive.
//
// Entries and the verdict scanlab must give:
//   scan_oob_read  the bug: the tile is loaded with `s[tid] = in[i]` and no
//                  `i < n` check, so the last block's threads past n read
//                  past the end of the input when n is not a multiple of
//                  the block. scanlab must report an out-of-bounds access
//                  at the line marked "BUG: out of bounds" (exit 1) at
//                  n = 300 (--block 256: threads 44..255 of block 1); at
//                  n = 512 every read is in bounds: correct and clean.
//   scan_bounded   the fix (elements past n read as 0, outputs past n not
//                  written): correct and clean at n = 1, 255, 256, 257,
//                  300, 1000.

#define MAX_BLOCK 1024

// The sum of in[0 .. base) by the whole block (blockDim.x a power of two);
// every thread gets it.
__device__ int carry_in(const int *in, int base, int *s)
{
    const int tid = threadIdx.x;
    int partial = 0;
    for (int j = tid; j < base; j += blockDim.x)
        partial += in[j];
    s[tid] = partial;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (tid < stride)
            s[tid] += s[tid + stride];
        __syncthreads();
    }
    const int carry = s[0];
    __syncthreads(); // everyone has read s[0] before s is reused
    return carry;
}

// The block's inclusive scan of s[0 .. blockDim.x).
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

extern "C" __global__ void scan_oob_read(const int *in, int *out, int n)
{
    __shared__ int s[MAX_BLOCK];
    const int tid = threadIdx.x;
    const int base = blockIdx.x * blockDim.x;
    const int i = base + tid;

    const int carry = carry_in(in, base, s);

    s[tid] = in[i]; // BUG: out of bounds - no i < n check for the last block
    __syncthreads();
    scan_tile(s);

    if (i < n)
        out[i] = carry + s[tid];
}

extern "C" __global__ void scan_bounded(const int *in, int *out, int n)
{
    __shared__ int s[MAX_BLOCK];
    const int tid = threadIdx.x;
    const int base = blockIdx.x * blockDim.x;
    const int i = base + tid;

    const int carry = carry_in(in, base, s);

    s[tid] = i < n ? in[i] : 0;
    __syncthreads();
    scan_tile(s);

    if (i < n)
        out[i] = carry + s[tid];
}
