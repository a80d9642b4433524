// A chained scan whose blocks wait for their predecessor by blockIdx: block
// b spins until block b - 1 has published its inclusive prefix. CUDA does
// not promise that block b - 1 runs before or beside block b: with fewer
// residency slots than blocks, a dispatch of b first hangs it. Expected:
// correct and no finding under scanlab run (blocks dispatched in order);
// under scanlab deadlock -- PROGRAM, DEADLOCK under obe at the marked line,
// deadlock-free under fair.
#include <cstdio>

__global__ void chained(const int *in, int *out, volatile int *flags, volatile int *prefix, int n)
{
    __shared__ int s[64];
    __shared__ int carry;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : 0;
    __syncthreads();
    if (threadIdx.x == 0) {
        int sum = 0;
        for (int k = 0; k < blockDim.x; k++)
            sum += s[k];
        int before = 0;
        if (blockIdx.x > 0) {
            while (flags[blockIdx.x - 1] == 0) // WAIT: spins on the predecessor's flag
                ;
            before = prefix[blockIdx.x - 1];
        }
        prefix[blockIdx.x] = before + sum;
        __threadfence();
        flags[blockIdx.x] = 1;
        carry = before;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        int run = carry;
        for (int k = 0; k < blockDim.x; k++) {
            run += s[k];
            s[k] = run;
        }
    }
    __syncthreads();
    if (i < n)
        out[i] = s[threadIdx.x];
}

int main()
{
    const int B = 64, G = 3, n = B * G;
    int h[n], r[n];
    for (int i = 0; i < n; i++)
        h[i] = 1;
    int *in, *out, *flags, *prefix;
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&out, sizeof r);
    cudaMalloc(&flags, G * sizeof(int));
    cudaMalloc(&prefix, G * sizeof(int));
    cudaMemset(flags, 0, G * sizeof(int));
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    chained<<<G, B>>>(in, out, flags, prefix, n);
    cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += r[i] != i + 1;
    printf("chained scan: %d wrong\n", bad);
    return bad != 0;
}
