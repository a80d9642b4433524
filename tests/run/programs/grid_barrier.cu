// A two-phase scan of block totals across the grid with a hand-made grid
// barrier: each block publishes its total, fences, raises its flag, then
// waits for every block's flag with a fence after each (a flag per block,
// a fence per flag: the simulator neither follows release chains through a
// shared atomic counter nor keeps more than eight releases pending before
// one fence, docs/ptx.md and docs/memory-model.md, and reports a race
// where they would be needed). Launched with cudaLaunchCooperativeKernel ("coop"), every block
// is resident at once, as CUDA promises for that call: correct, no finding.
// Launched with <<<>>> ("plain"), CUDA promises no co-residency: with more
// blocks than the simulator's residency slots the resident blocks wait for
// blocks that never start. Expected: "coop" exit 0; "plain" a deadlock at
// the marked line, exit 1.
#include <cstdio>
#include <cstring>

__global__ void grid_totals(const int *in, int *totals, int *prefix, volatile int *flags)
{
    __shared__ int sum;
    if (threadIdx.x == 0)
        sum = 0;
    __syncthreads();
    atomicAdd(&sum, in[blockIdx.x * blockDim.x + threadIdx.x]);
    __syncthreads();
    if (threadIdx.x == 0) {
        totals[blockIdx.x] = sum;
        __threadfence();
        flags[blockIdx.x] = 1;
        for (unsigned b = 0; b < gridDim.x; b++) {
            while (flags[b] == 0) // WAIT: every block must have arrived
                ;
            __threadfence();
        }
        int p = 0;
        for (unsigned b = 0; b < blockIdx.x; b++)
            p += totals[b];
        prefix[blockIdx.x] = p;
    }
}

int main(int argc, char **argv)
{
    const bool coop = argc > 1 && strcmp(argv[1], "coop") == 0;
    const int G = 16, B = 32, n = G * B;
    int h[n], p[G];
    for (int i = 0; i < n; i++)
        h[i] = 1;
    int *in, *totals, *prefix, *flags;
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&totals, G * sizeof(int));
    cudaMalloc(&prefix, G * sizeof(int));
    cudaMalloc(&flags, G * sizeof(int));
    cudaMemset(flags, 0, G * sizeof(int));
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    if (coop) {
        void *args[] = {&in, &totals, &prefix, &flags};
        cudaLaunchCooperativeKernel((const void *)grid_totals, dim3(G), dim3(B), args, 0, 0);
    } else {
        grid_totals<<<G, B>>>(in, totals, prefix, flags);
    }
    const cudaError_t e = cudaMemcpy(p, prefix, sizeof p, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int b = 0; e == cudaSuccess && b < G; b++)
        bad += p[b] != b * B;
    printf("%s launch: %s, %d wrong\n", coop ? "cooperative" : "plain", cudaGetErrorName(e), bad);
    return e != cudaSuccess || bad != 0;
}
