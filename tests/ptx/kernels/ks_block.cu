// ks_block.cu - Kogge-Stone (Hillis-Steele) inclusive scan of one block.
//
// The textbook block scan (GPU Gems 3, ch. 39, "naive" scan; Hillis & Steele
// 1986): n <= blockDim.x <= 1024 elements, one per thread, log2(blockDim.x)
// steps in which thread i adds the element `offset` places to its left.
// Launch: one block (--grid 1), blockDim.x a power of two.
//
// Entries and the verdict scanlab must give (i32, add, inclusive):
//   ks_block            double-buffered (reads one buffer, writes the other,
//                       one barrier per step): correct and clean
//                       (n = 1, 31, 256 with --block 256 --grid 1).
//   ks_block_sync       one buffer, the neighbour read into a register, a
//                       barrier, then the write, another barrier: correct
//                       and clean (same sizes).
//   ks_block_nobarrier  the same with the barrier between reading the
//                       neighbour and writing removed: thread i reads
//                       s[i - offset] while thread i - offset writes it in
//                       the same barrier interval. scanlab must report a
//                       race at the line marked "// RACE" (exit 1).

#define MAX_BLOCK 1024

extern "C" __global__ void ks_block(const int *in, int *out, int n)
{
    __shared__ int buf[2][MAX_BLOCK];
    const int tid = threadIdx.x;
    int pout = 0, pin = 1;

    // elements past n scan as add's identity
    buf[pout][tid] = tid < n ? in[tid] : 0;
    __syncthreads();

    for (int offset = 1; offset < blockDim.x; offset *= 2) {
        // swap the buffers: read last step's, write the other one
        pout = 1 - pout;
        pin = 1 - pout;
        if (tid >= offset)
            buf[pout][tid] = buf[pin][tid] + buf[pin][tid - offset];
        else
            buf[pout][tid] = buf[pin][tid];
        __syncthreads();
    }

    if (tid < n)
        out[tid] = buf[pout][tid];
}

extern "C" __global__ void ks_block_sync(const int *in, int *out, int n)
{
    __shared__ int s[MAX_BLOCK];
    const int tid = threadIdx.x;

    s[tid] = tid < n ? in[tid] : 0;
    __syncthreads();

    for (int offset = 1; offset < blockDim.x; offset *= 2) {
        int t = 0;
        if (tid >= offset)
            t = s[tid - offset];
        __syncthreads(); // every read of this step before any write
        s[tid] += t;
        __syncthreads(); // every write before the next step's reads
    }

    if (tid < n)
        out[tid] = s[tid];
}

extern "C" __global__ void ks_block_nobarrier(const int *in, int *out, int n)
{
    __shared__ int s[MAX_BLOCK];
    const int tid = threadIdx.x;

    s[tid] = tid < n ? in[tid] : 0;
    __syncthreads();

    for (int offset = 1; offset < blockDim.x; offset *= 2) {
        if (tid >= offset)
            s[tid] += s[tid - offset]; // RACE: no barrier between this read and the neighbour's write
        __syncthreads();
    }

    if (tid < n)
        out[tid] = s[tid];
}
