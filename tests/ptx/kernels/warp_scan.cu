// warp_scan.cu - warp-synchronous inclusive scan of one warp through shared
// memory, in the style of the pre-Volta CUDA samples and papers (Sengupta,
// Harris & Garland, "Efficient parallel scan algorithms for GPUs", 2008:
// scan_warp; the CUDA samples' reduce4/5/6 tail `if (tid < 32) {...}`).
// Such code relies on the 32 lanes of a warp running in lock-step, which
// Volta's independent thread scheduling no longer guarantees: without
// __syncwarp() a lane may read its neighbour's element before or after the
// neighbour has updated it.
//
// Launch: one warp (--block 32 --grid 1), n <= 32; i32, add, inclusive.
//
// Entries and the verdict scanlab must give:
//   warp_scan_volatile  the classic form: `volatile` shared memory, no
//                       __syncwarp(). Volatile accesses are strong (relaxed,
//                       system scope) in the PTX memory model, so the
//                       conflicting accesses are not a data race by that
//                       model's definition; the bug is the missing ordering
//                       between lanes: scanlab must FAIL it (exit 1) - a
//                       wrong result (nvcc loads vs[lane] before
//                       vs[lane - off], so a lane may add a neighbour that
//                       has already been updated) or a race at a line marked
//                       "// WARP RACE" - in its default run or under some
//                       explored schedule (--schedule 1..8).
//   warp_scan_plain     the same without `volatile` (a common slip): the
//                       lanes' plain reads of a neighbour's element and the
//                       neighbour's plain writes are unordered - a race at
//                       a line marked "// RACE" (exit 1).
//   warp_scan_syncwarp  the fix (CUDA 9 "Using CUDA Warp-Level Primitives"):
//                       read into a register, __syncwarp(), write,
//                       __syncwarp(): correct and clean (n = 1, 17, 32).

extern "C" __global__ void warp_scan_volatile(const int *in, int *out, int n)
{
    __shared__ int s[32];
    volatile int *vs = s;
    const int lane = threadIdx.x & 31;

    vs[lane] = lane < n ? in[lane] : 0; // WARP RACE
    // warp-synchronous: the warp is assumed to run in lock-step
    if (lane >= 1)  vs[lane] += vs[lane - 1];  // WARP RACE
    if (lane >= 2)  vs[lane] += vs[lane - 2];  // WARP RACE
    if (lane >= 4)  vs[lane] += vs[lane - 4];  // WARP RACE
    if (lane >= 8)  vs[lane] += vs[lane - 8];  // WARP RACE
    if (lane >= 16) vs[lane] += vs[lane - 16]; // WARP RACE

    if (lane < n)
        out[lane] = vs[lane]; // WARP RACE
}

extern "C" __global__ void warp_scan_plain(const int *in, int *out, int n)
{
    __shared__ int s[32];
    const int lane = threadIdx.x & 31;

    s[lane] = lane < n ? in[lane] : 0; // RACE
    if (lane >= 1)  s[lane] += s[lane - 1];  // RACE
    if (lane >= 2)  s[lane] += s[lane - 2];  // RACE
    if (lane >= 4)  s[lane] += s[lane - 4];  // RACE
    if (lane >= 8)  s[lane] += s[lane - 8];  // RACE
    if (lane >= 16) s[lane] += s[lane - 16]; // RACE

    if (lane < n)
        out[lane] = s[lane];
}

extern "C" __global__ void warp_scan_syncwarp(const int *in, int *out, int n)
{
    __shared__ int s[32];
    const int lane = threadIdx.x & 31;

    // every lane of the warp takes part in every step (no early exit), so
    // the full-mask __syncwarp() names only lanes that reach it
    s[lane] = lane < n ? in[lane] : 0;
    __syncwarp();
    for (int offset = 1; offset < 32; offset *= 2) {
        int t = 0;
        if (lane >= offset)
            t = s[lane - offset];
        __syncwarp(); // every lane has read before any lane writes
        s[lane] += t;
        __syncwarp(); // every lane has written before the next step reads
    }

    if (lane < n)
        out[lane] = s[lane];
}
