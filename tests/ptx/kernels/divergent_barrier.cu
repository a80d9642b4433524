// divergent_barrier.cu - a block-level Kogge-Stone inclusive scan (double
// buffered, one barrier per step) whose author put the whole scan inside
// `if (threadIdx.x < n)` to skip the threads past the end of the input.
// The __syncthreads() inside is then reached by some threads of the block
// and not by others whenever n < blockDim.x: undefined behaviour in CUDA
// (a hang or a wrong result on real hardware).
//
// Launch: one block (--grid 1), n <= blockDim.x <= 1024; i32, add, inclusive.
//
// Entry and the verdict scanlab must give:
//   divergent_barrier_scan  n = 100 with --block 128: barrier divergence at
//                           the line marked "BUG: barrier divergence" (the
//                           threads 0..99 wait there, 100..127 have exited;
//                           exit 1). n = 128 with --block 128: the branch is
//                           uniform, so the kernel is correct and clean.

#define MAX_BLOCK 1024

extern "C" __global__ void divergent_barrier_scan(const int *in, int *out, int n)
{
    __shared__ int buf[2][MAX_BLOCK];
    const int tid = threadIdx.x;

    if (tid < n) {
        buf[0][tid] = in[tid];
        int p = 0;
        for (int offset = 1; offset < n; offset *= 2) {
            __syncthreads(); // BUG: barrier divergence - not every thread of the block gets here
            // read buffer p (last step's), write the other one
            buf[p ^ 1][tid] = tid >= offset ? buf[p][tid] + buf[p][tid - offset] : buf[p][tid];
            p ^= 1;
        }
        out[tid] = buf[p][tid];
    }
}
