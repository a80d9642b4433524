// A scan that reads in[i] without checking i < n: the last block reads past
// the input. Expected: out of bounds at the marked line, the launch stopped
// (the next cudaMemcpy returns cudaErrorIllegalAddress, as on a GPU), exit 1.
#include <cstdio>

__global__ void copy_twice(const int *in, int *out, int n)
{
    __shared__ int s[128];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = in[i]; // BUG: out of bounds: no check of i < n before the read
    __syncthreads();
    if (i < n)
        out[i] = 2 * s[blockDim.x - 1 - threadIdx.x];
}

int main()
{
    const int n = 300;
    int *in, *out;
    cudaMalloc(&in, n * sizeof(int));
    cudaMalloc(&out, n * sizeof(int));
    cudaMemset(in, 0, n * sizeof(int));
    copy_twice<<<(n + 127) / 128, 128>>>(in, out, n);
    int r[n];
    const cudaError_t e = cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
    printf("after the launch: %s\n", cudaGetErrorName(e));
    return e == cudaErrorIllegalAddress ? 0 : 3;
}
