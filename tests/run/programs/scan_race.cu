// Kogge-Stone without the barrier between reading a neighbour and writing
// its own element: a thread's read races with another's write. Expected:
// a race at the marked line, exit 1 (the program itself may print a right
// or a wrong sum: the simulator's default schedule runs lanes in order).
#include <cstdio>

__global__ void ks_nobarrier(const int *in, int *out, int n)
{
    __shared__ int s[128];
    const int i = threadIdx.x;
    s[i] = i < n ? in[i] : 0;
    __syncthreads();
    for (int d = 1; d < blockDim.x; d *= 2) {
        if (i >= d)
            s[i] += s[i - d]; // RACE: no barrier between the read of s[i - d] and the write of s[i]
        __syncthreads();
    }
    if (i < n)
        out[i] = s[i];
}

int main()
{
    const int n = 128;
    int h[n], r[n];
    for (int i = 0; i < n; i++)
        h[i] = 1;
    int *in, *out;
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&out, sizeof r);
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    ks_nobarrier<<<1, n>>>(in, out, n);
    cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
    printf("last prefix %d (expected %d)\n", r[n - 1], n);
    cudaFree(in);
    cudaFree(out);
    return 0;
}
