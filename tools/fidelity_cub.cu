// CUB's DeviceScan as a user calls it, for tools/fidelity-cub.sh: the same
// launches on the GPU under Nsight Compute and in the simulator under
// `scanlab run`, compared launch by launch.
//
//   fidelity_cub TYPES N...     TYPES: a comma-separated list of i32 i64 f32 f64
//
// For each N, each type, InclusiveSum then ExclusiveSum. Before each call
// the program prints "call K: NAME TYPE N" and launches fidcub_mark with a
// grid of K + 1 blocks: in either run's list of launches a marker opens the
// launches of call K, whatever CUB launches for it (its temporary storage
// query launches nothing). The input is small integers, so every prefix is
// exact in float and double and each result is checked on the host.
// Exit status: 0 right results, 1 a wrong one or a CUDA error, 2 bad usage.
#include <cub/cub.cuh>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

__global__ void fidcub_mark() {}

static int failures;
static int calls;

template <typename T> static void scan_pair(int n, const char *type)
{
    std::vector<T> h(n), o(n);
    for (int i = 0; i < n; i++)
        h[i] = (T)((i * 7) % 13 - 6);
    T *in = nullptr, *out = nullptr;
    cudaMalloc(&in, n * sizeof(T));
    cudaMalloc(&out, n * sizeof(T));
    cudaMemcpy(in, h.data(), n * sizeof(T), cudaMemcpyHostToDevice);
    for (int exclusive = 0; exclusive < 2; exclusive++) {
        const char *name = exclusive ? "ExclusiveSum" : "InclusiveSum";
        printf("call %d: %s %s %d\n", calls, name, type, n);
        fflush(stdout);
        fidcub_mark<<<calls + 1, 1>>>();
        calls++;
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
        int wrong = -1;
        for (int i = 0; i < n && wrong < 0; i++) {
            if (!exclusive)
                acc += h[i];
            if (o[i] != acc)
                wrong = i;
            if (exclusive)
                acc += h[i];
        }
        if (wrong >= 0) {
            printf("FAILED: %s %s at n = %d: first wrong prefix at %d\n", name, type, n, wrong);
            failures++;
        }
        cudaFree(tmp);
    }
    cudaFree(in);
    cudaFree(out);
}

// The types of a comma-separated list, in the order of the list; false on a
// name that is not one.
static bool parse_types(const char *list, char types[][4], int *ntypes)
{
    static const char *const known[] = {"i32", "i64", "f32", "f64"};
    *ntypes = 0;
    for (const char *p = list; *p;) {
        const size_t len = strcspn(p, ",");
        bool ok = false;
        for (const char *k : known)
            if (len == 3 && strncmp(p, k, 3) == 0 && *ntypes < 16) {
                memcpy(types[(*ntypes)++], k, 4);
                ok = true;
            }
        if (!ok)
            return false;
        p += len + (p[len] == ',');
    }
    return *ntypes > 0;
}

int main(int argc, char **argv)
{
    char types[16][4];
    int ntypes = 0;
    if (argc < 3 || !parse_types(argv[1], types, &ntypes)) {
        fprintf(stderr, "fidelity_cub: usage: fidelity_cub TYPES N... (TYPES: a comma-separated list of i32 i64 "
                        "f32 f64)\n");
        return 2;
    }
    std::vector<int> sizes;
    for (int a = 2; a < argc; a++) {
        char *end = nullptr;
        const long n = strtol(argv[a], &end, 10);
        if (*argv[a] == '\0' || *end != '\0' || n < 1 || n > (1L << 28)) {
            fprintf(stderr, "fidelity_cub: '%s' is not a size from 1 to 2^28\n", argv[a]);
            return 2;
        }
        sizes.push_back((int)n);
    }
    for (int n : sizes)
        for (int t = 0; t < ntypes; t++) {
            if (!strcmp(types[t], "i32"))
                scan_pair<int>(n, "i32");
            else if (!strcmp(types[t], "i64"))
                scan_pair<long long>(n, "i64");
            else if (!strcmp(types[t], "f32"))
                scan_pair<float>(n, "f32");
            else
                scan_pair<double>(n, "f64");
        }
    const cudaError_t e = cudaDeviceSynchronize();
    printf("fidelity_cub: %d call%s, %d failure%s, %s\n", calls, calls == 1 ? "" : "s", failures,
           failures == 1 ? "" : "s", cudaGetErrorName(e));
    return failures != 0 || e != cudaSuccess;
}
