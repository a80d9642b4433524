// A program that captures its launch in a CUDA graph, which the simulator's
// runtime does not serve: cudaStreamBeginCapture returns
// cudaErrorNotSupported and stderr names it once; the program falls back to
// a plain launch, as careful programs do. Expected: exit 0 (the program's),
// a "not supported: cudaStreamBeginCapture" line, no finding.
#include <cstdio>

__global__ void fill(int *out, int v)
{
    out[threadIdx.x] = v;
}

int main()
{
    int *out, r[32];
    cudaMalloc(&out, sizeof r);
    cudaStream_t s;
    cudaStreamCreate(&s);
    const cudaError_t e = cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    if (e != cudaSuccess) {
        printf("no graphs (%s): plain launch\n", cudaGetErrorName(e));
        (void)cudaGetLastError();
        fill<<<1, 32, 0, s>>>(out, 7);
    } else {
        cudaGraph_t g;
        cudaGraphExec_t x;
        fill<<<1, 32, 0, s>>>(out, 7);
        cudaStreamEndCapture(s, &g);
        cudaGraphInstantiate(&x, g, 0);
        cudaGraphLaunch(x, s);
    }
    cudaStreamSynchronize(s);
    cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
    printf("out[31] = %d\n", r[31]);
    return r[31] != 7;
}
