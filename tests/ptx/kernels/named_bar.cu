// named_bar.cu - a block scan in two halves, each ordered by a named
// barrier of its own (PTX bar.sync id, count: docs/memory-model.md,
// "Barriers").
//
// One block of 128 threads (--block 128 --grid 1), n <= 128 elements. The
// two halves (threads 0-63: warps 0 and 1; threads 64-127: warps 2 and 3)
// each run a Kogge-Stone scan of their 64 elements, synchronised by
// bar.sync 1 + half, 64: the halves never wait for each other. Then
// __syncthreads, and the upper half adds the lower half's total.
//
// Entries and the verdict scanlab must give (i32, add, inclusive):
//   named_bar_scan          correct and clean (n = 1, 64, 100, 128).
//   named_bar_scan_count32  the halves' barriers count 32 threads, one warp:
//                           each warp is a round of its own, so warp 1
//                           reads what warp 0 writes unordered; scanlab must
//                           report a race at the line marked "// RACE".

#define HALF 64

static __device__ __forceinline__ void half_sync(int half, int count)
{
    if (half == 0)
        asm volatile("bar.sync 1, %0;" ::"r"(count) : "memory");
    else
        asm volatile("bar.sync 2, %0;" ::"r"(count) : "memory");
}

static __device__ void scan(const int *in, int *out, int n, int count)
{
    __shared__ int s[2 * HALF];
    const int tid = threadIdx.x, half = tid / HALF, i = tid % HALF;

    s[tid] = tid < n ? in[tid] : 0;
    half_sync(half, count);
    for (int offset = 1; offset < HALF; offset *= 2) {
        int t = 0;
        if (i >= offset)
            t = s[tid - offset]; // RACE: with a count of 32, the other warp of the half may write it now
        half_sync(half, count); // every read of this step before any write of the half
        s[tid] += t;
        half_sync(half, count); // every write before the next step's reads
    }
    __syncthreads(); // the lower half's total is written
    if (half == 1)
        s[tid] += s[HALF - 1];
    if (tid < n)
        out[tid] = s[tid];
}

extern "C" __global__ void named_bar_scan(const int *in, int *out, int n) { scan(in, out, n, HALF); }

extern "C" __global__ void named_bar_scan_count32(const int *in, int *out, int n) { scan(in, out, n, 32); }
