// bad_signature.cu - a scan kernel whose signature the command line does not
// accept: two parameters (it scans `data` in place, its length fixed), where
// scanlab needs (const T *in, T *out, N n) or (const T *in, T *out, N n,
// void *scratch).
//
// Verdict: `scanlab simulate --kernel bad_signature.ptx --entry
// scan_in_place ...` is bad input: exit 2 with one message about the
// signature.

#define N 256

extern "C" __global__ void scan_in_place(int *data, int unused)
{
    __shared__ int s[N];
    const int tid = threadIdx.x;
    s[tid] = data[tid] + unused;
    __syncthreads();
    for (int offset = 1; offset < N; offset *= 2) {
        int t = tid >= offset ? s[tid - offset] : 0;
        __syncthreads();
        s[tid] += t;
        __syncthreads();
    }
    data[tid] = s[tid];
}
