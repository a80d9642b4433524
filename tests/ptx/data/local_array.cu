// A thread-private array indexed by a value known only at run time: it
// lives in the .local depot, addressed through %SP/%SPL.
extern "C" __global__ void local_array(const int *in, int *out, int k)
{
    int a[16];
    for (int j = 0; j < 16; j++)
        a[j] = in[threadIdx.x * 16 + j];
    out[threadIdx.x] = a[(threadIdx.x + k) & 15];
}
