// Module-scope variables with initialisers: an int, a float, an int
// array, and a __constant__ array.
__device__ int g_count = 42;
__device__ float g_scale = 1.5f;
__device__ int g_table[4] = {1, -2, 3, 0x7fffffff};
__constant__ int c_weights[4] = {10, 20, 30, 40};

extern "C" __global__ void globals(int *out)
{
    int i = threadIdx.x & 3;
    out[threadIdx.x] = (int)(g_table[i] * g_scale) + c_weights[i] + g_count;
    atomicAdd(&g_count, 1);
}
