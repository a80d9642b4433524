// Dynamic shared memory: its size is given at launch.
extern "C" __global__ void dyn_shared(const float *in, float *out)
{
    extern __shared__ float buf[];
    buf[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x];
}
