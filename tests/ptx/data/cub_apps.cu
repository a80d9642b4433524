#include <cub/cub.cuh>
void run(int *in, int *out, int n, void *tmp, size_t bytes) {
  cub::DeviceScan::InclusiveSum(tmp, bytes, in, out, n);
  cub::DeviceScan::ExclusiveSum(tmp, bytes, (double*)in, (double*)out, n);
}
void sel(int *in, int *out, int *nsel, int n, void *tmp, size_t bytes) {
  cub::DeviceSelect::If(tmp, bytes, in, out, nsel, n, [] __device__ (int x){ return x & 1; });
  cub::DeviceRadixSort::SortKeys(tmp, bytes, in, out, n);
}
