// A correct hierarchical scan, as a textbook host driver writes it: a block
// scan of each tile (Kogge-Stone in shared memory), a scan of the tiles'
// totals, an add-back; a scale factor in __constant__ memory, events
// around the launches, a stream. Expected under scanlab run: exit 0, no
// finding, 3 launches.
#include <cstdio>
#include <cstdlib>

__constant__ int scale;

__global__ void block_scan(const int *in, int *out, int *sums, int n)
{
    __shared__ int s[256];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] * scale : 0;
    __syncthreads();
    for (int d = 1; d < blockDim.x; d *= 2) {
        const int v = threadIdx.x >= d ? s[threadIdx.x - d] : 0;
        __syncthreads();
        s[threadIdx.x] += v;
        __syncthreads();
    }
    if (i < n)
        out[i] = s[threadIdx.x];
    if (threadIdx.x == blockDim.x - 1)
        sums[blockIdx.x] = s[threadIdx.x];
}

__global__ void scan_sums(int *sums, int m)
{
    if (threadIdx.x == 0)
        for (int k = 1; k < m; k++)
            sums[k] += sums[k - 1];
}

__global__ void add_back(int *out, const int *sums, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (blockIdx.x > 0 && i < n)
        out[i] += sums[blockIdx.x - 1];
}

int main(int argc, char **argv)
{
    const int n = argc > 1 ? atoi(argv[1]) : 3000, B = 256, G = (n + B - 1) / B;
    int *h = (int *)malloc(n * sizeof(int)), *r = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++)
        h[i] = (i * 37) % 11 - 5;
    int *in, *out, *sums;
    cudaMalloc(&in, n * sizeof(int));
    cudaMalloc(&out, n * sizeof(int));
    cudaMalloc(&sums, G * sizeof(int));
    const int two = 2;
    cudaMemcpyToSymbol(scale, &two, sizeof two);
    cudaMemcpy(in, h, n * sizeof(int), cudaMemcpyHostToDevice);
    cudaStream_t st;
    cudaEvent_t t0, t1;
    cudaStreamCreate(&st);
    cudaEventCreate(&t0);
    cudaEventCreate(&t1);
    cudaEventRecord(t0, st);
    block_scan<<<G, B, 0, st>>>(in, out, sums, n);
    scan_sums<<<1, 32, 0, st>>>(sums, G);
    add_back<<<G, B, 0, st>>>(out, sums, n);
    cudaEventRecord(t1, st);
    cudaError_t e = cudaStreamSynchronize(st);
    float ms = 0;
    cudaEventElapsedTime(&ms, t0, t1);
    cudaMemcpy(r, out, n * sizeof(int), cudaMemcpyDeviceToHost);
    int acc = 0, bad = 0;
    for (int i = 0; i < n; i++) {
        acc += 2 * h[i];
        bad += r[i] != acc;
    }
    printf("scan of %d: %s, %d wrong, %s\n", n, cudaGetErrorString(e), bad, ms > 0 ? "timed" : "not timed");
    cudaEventDestroy(t0);
    cudaEventDestroy(t1);
    cudaStreamDestroy(st);
    cudaFree(in);
    cudaFree(out);
    cudaFree(sums);
    free(h);
    free(r);
    return bad != 0 || e != cudaSuccess;
}
