// A kernel calling a non-inlined device function with a return value:
// the PTX has a .func with a return parameter and call sequences whose
// .param declarations sit in nested braces, named param0 and retval0 in
// each of them.
__device__ __noinline__ int combine(int a, int b)
{
    return a * 3 + b;
}

extern "C" __global__ void calls(const int *in, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int x = combine(in[i], i);
    out[i] = combine(x, in[i + 1]);
}
