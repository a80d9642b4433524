/* cub::DeviceScan on float elements, every operator of the catalogue. */
#include "cuda/cub/cub_scan.cuh"

extern "C" sl_status cub_scan_cuda_f32(const sl_scan_args *a) { return sl_cub_dispatch<float>(a); }
