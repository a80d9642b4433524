/* Errors as the CUDA runtime keeps them: the last error (read and reset
 * by cudaGetLastError), a sticky error after a launch the simulator
 * stopped (as a GPU context after an illegal address), and the calls this
 * runtime does not serve, each named once on stderr. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "runtime/rt.h"

static __thread cudaError_t last_error;
static cudaError_t sticky;
static pthread_mutex_t refused_lock = PTHREAD_MUTEX_INITIALIZER;
char rt_refused[16][64];
unsigned rt_nrefused;

cudaError_t rt_error(cudaError_t e)
{
    if (e != cudaSuccess)
        last_error = e;
    return e;
}

void rt_set_sticky(cudaError_t e)
{
    if (!sticky)
        sticky = e;
    last_error = e;
}

cudaError_t rt_sticky(void) { return sticky; }

cudaError_t rt_unsupported(const char *name)
{
    pthread_mutex_lock(&refused_lock);
    bool seen = false;
    for (unsigned i = 0; i < rt_nrefused && !seen; i++)
        seen = strcmp(rt_refused[i], name) == 0;
    if (!seen) {
        fprintf(stderr, "scanlab: runtime: %s is not supported by the simulator's CUDA runtime (it returns "
                        "cudaErrorNotSupported)\n", name);
        if (rt_nrefused < sizeof rt_refused / sizeof rt_refused[0])
            snprintf(rt_refused[rt_nrefused++], sizeof rt_refused[0], "%s", name);
    }
    pthread_mutex_unlock(&refused_lock);
    return rt_error(cudaErrorNotSupported);
}

static const struct {
    cudaError_t e;
    const char *name, *text;
} errors[] = {
    {cudaSuccess, "cudaSuccess", "no error"},
    {cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
    {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory"},
    {cudaErrorInitializationError, "cudaErrorInitializationError", "initialization error"},
    {cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration", "invalid configuration argument"},
    {cudaErrorInvalidSymbol, "cudaErrorInvalidSymbol", "invalid device symbol"},
    {cudaErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"},
    {cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function"},
    {cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
    {cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {cudaErrorInvalidKernelImage, "cudaErrorInvalidKernelImage", "device kernel image is invalid"},
    {cudaErrorNoKernelImageForDevice, "cudaErrorNoKernelImageForDevice",
     "no kernel image is available for execution on the device"},
    {cudaErrorInvalidPtx, "cudaErrorInvalidPtx", "a PTX JIT compilation failed"},
    {cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {cudaErrorNotReady, "cudaErrorNotReady", "device not ready"},
    {cudaErrorIllegalAddress, "cudaErrorIllegalAddress", "an illegal memory access was encountered"},
    {cudaErrorLaunchOutOfResources, "cudaErrorLaunchOutOfResources", "too many resources requested for launch"},
    {cudaErrorLaunchTimeout, "cudaErrorLaunchTimeout", "the launch timed out and was terminated"},
    {cudaErrorMisalignedAddress, "cudaErrorMisalignedAddress", "misaligned address"},
    {cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {cudaErrorCooperativeLaunchTooLarge, "cudaErrorCooperativeLaunchTooLarge",
     "too many blocks in cooperative launch"},
    {cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported"},
    {cudaErrorUnknown, "cudaErrorUnknown", "unknown error"},
};

RT_API const char *cudaGetErrorName(cudaError_t e)
{
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++)
        if (errors[i].e == e)
            return errors[i].name;
    return "cudaErrorUnknown";
}

RT_API const char *cudaGetErrorString(cudaError_t e)
{
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++)
        if (errors[i].e == e)
            return errors[i].text;
    return "unrecognized error code";
}

RT_API cudaError_t cudaGetLastError(void)
{
    const cudaError_t e = sticky ? sticky : last_error;
    last_error = cudaSuccess;
    return e;
}

RT_API cudaError_t cudaPeekAtLastError(void) { return sticky ? sticky : last_error; }
