// Thrust as application code uses it: device_vector copies, an inclusive
// scan, a sort and a reduction, each result checked on the host. Thrust
// sends each through CUB, with its own launches (cudaLaunchKernelEx),
// streams and queries. Expected under scanlab run: exit 0, no finding.
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <cstdio>
#include <cstdlib>

int main(int argc, char **argv)
{
    const int n = argc > 1 ? atoi(argv[1]) : 10000;
    thrust::host_vector<int> h(n);
    for (int i = 0; i < n; i++)
        h[i] = (i * 7919) % 1000;
    thrust::device_vector<int> d = h, o(n);
    thrust::inclusive_scan(d.begin(), d.end(), o.begin());
    thrust::host_vector<int> r = o;
    long long acc = 0, sum = 0;
    int bad = 0;
    for (int i = 0; i < n; i++) {
        acc += h[i];
        bad += r[i] != (int)acc;
    }
    thrust::sort(d.begin(), d.end());
    r = d;
    for (int i = 1; i < n; i++)
        bad += r[i - 1] > r[i];
    sum = thrust::reduce(d.begin(), d.end(), 0LL);
    bad += sum != acc;
    printf("thrust: %d wrong, sum %lld\n", bad, sum);
    return bad != 0;
}
