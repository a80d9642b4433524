// CUB's device-wide algorithms as a user's program calls them, each result
// checked on the host: DeviceScan::InclusiveSum and ExclusiveSum (int,
// float, long long, double), DeviceSelect::If, DevicePartition::If and
// DeviceRadixSort::SortKeys, each at every size given on the command line.
// Each call is made twice, as CUB intends: a query of the temporary storage
// it needs, then the work. The float and double inputs are small integers,
// so every prefix is exact whatever the order of the additions.
// Expected under scanlab run: exit 0, no finding.
#include <algorithm>
#include <cub/cub.cuh>
#include <cstdio>
#include <cstdlib>
#include <vector>

struct IsEven {
    __host__ __device__ bool operator()(int x) const { return (x & 1) == 0; }
};

static int failures;

static void check(bool ok, const char *what, int n)
{
    if (!ok) {
        printf("FAILED: %s at n = %d\n", what, n);
        failures++;
    }
}

template <typename T> static void scans(int n, const char *type)
{
    std::vector<T> h(n), o(n);
    for (int i = 0; i < n; i++)
        h[i] = (T)((i * 7) % 13 - 6);
    T *in, *out;
    cudaMalloc(&in, n * sizeof(T));
    cudaMalloc(&out, n * sizeof(T));
    cudaMemcpy(in, h.data(), n * sizeof(T), cudaMemcpyHostToDevice);
    for (int exclusive = 0; exclusive < 2; exclusive++) {
        void *tmp = nullptr;
        size_t bytes = 0;
        if (exclusive) {
            cub::DeviceScan::ExclusiveSum(tmp, bytes, in, out, n);
            cudaMalloc(&tmp, bytes);
            cub::DeviceScan::ExclusiveSum(tmp, bytes, in, out, n);
        } else {
            cub::DeviceScan::InclusiveSum(tmp, bytes, in, out, n);
            cudaMalloc(&tmp, bytes);
            cub::DeviceScan::InclusiveSum(tmp, bytes, in, out, n);
        }
        cudaMemcpy(o.data(), out, n * sizeof(T), cudaMemcpyDeviceToHost);
        T acc = 0;
        bool ok = true;
        for (int i = 0; i < n; i++) {
            if (!exclusive)
                acc += h[i];
            ok = ok && o[i] == acc;
            if (exclusive)
                acc += h[i];
        }
        char what[64];
        snprintf(what, sizeof what, "%s %s", exclusive ? "ExclusiveSum" : "InclusiveSum", type);
        check(ok, what, n);
        cudaFree(tmp);
    }
    cudaFree(in);
    cudaFree(out);
}

static void select_partition_sort(int n)
{
    std::vector<int> h(n), o(n);
    for (int i = 0; i < n; i++)
        h[i] = (int)((i * 7919u + 13) % 100003u) - 50000;
    int *in, *out, *count;
    cudaMalloc(&in, n * sizeof(int));
    cudaMalloc(&out, n * sizeof(int));
    cudaMalloc(&count, sizeof(int));
    cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    std::vector<int> even, odd;
    for (int i = 0; i < n; i++)
        ((h[i] & 1) == 0 ? even : odd).push_back(h[i]);

    void *tmp = nullptr;
    size_t bytes = 0;
    int got = -1;
    cub::DeviceSelect::If(tmp, bytes, in, out, count, n, IsEven());
    cudaMalloc(&tmp, bytes);
    cub::DeviceSelect::If(tmp, bytes, in, out, count, n, IsEven());
    cudaMemcpy(&got, count, sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(o.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost);
    bool ok = got == (int)even.size();
    for (int i = 0; ok && i < got; i++)
        ok = o[i] == even[i]; // selection keeps the input's order
    check(ok, "DeviceSelect::If", n);
    cudaFree(tmp);

    tmp = nullptr;
    bytes = 0;
    cub::DevicePartition::If(tmp, bytes, in, out, count, n, IsEven());
    cudaMalloc(&tmp, bytes);
    cub::DevicePartition::If(tmp, bytes, in, out, count, n, IsEven());
    cudaMemcpy(&got, count, sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(o.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost);
    ok = got == (int)even.size();
    for (int i = 0; ok && i < got; i++)
        ok = o[i] == even[i];
    /* the rejected items follow, in reverse order */
    for (int i = 0; ok && i < (int)odd.size(); i++)
        ok = o[n - 1 - i] == odd[i];
    check(ok, "DevicePartition::If", n);
    cudaFree(tmp);

    tmp = nullptr;
    bytes = 0;
    cub::DeviceRadixSort::SortKeys(tmp, bytes, in, out, n);
    cudaMalloc(&tmp, bytes);
    cub::DeviceRadixSort::SortKeys(tmp, bytes, in, out, n);
    cudaMemcpy(o.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost);
    std::vector<int> ref = h;
    std::sort(ref.begin(), ref.end());
    check(o == ref, "DeviceRadixSort::SortKeys", n);
    cudaFree(tmp);
    cudaFree(in);
    cudaFree(out);
    cudaFree(count);
}

int main(int argc, char **argv)
{
    for (int a = 1; a < argc; a++) {
        const int n = atoi(argv[a]);
        scans<int>(n, "int");
        scans<float>(n, "float");
        scans<long long>(n, "long long");
        scans<double>(n, "double");
        select_partition_sort(n);
    }
    const cudaError_t e = cudaDeviceSynchronize();
    printf("cub_device: %d failure%s, %s\n", failures, failures == 1 ? "" : "s", cudaGetErrorName(e));
    return failures != 0 || e != cudaSuccess;
}
