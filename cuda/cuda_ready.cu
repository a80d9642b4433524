/* Whether a GPU is present, asked once: the CUDA run functions return
 * SL_ERR_NO_GPU without one, so tests skip cleanly. */
#include <cuda_runtime.h>
#include "cuda/status.h"

extern "C" sl_status sl_cuda_ready(void)
{
    static int count = -1;
    if (count < 0 && cudaGetDeviceCount(&count) != cudaSuccess)
        count = 0;
    return count > 0 ? SL_OK : SL_ERR_NO_GPU;
}
