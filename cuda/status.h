/* Status values returned by every fallible function in scanlab: errors are
 * values, and the command line turns them into a message and an exit code. */
#ifndef SCANLAB_STATUS_H
#define SCANLAB_STATUS_H

typedef enum {
    SL_OK = 0,
    SL_ERR_ARG,         /* bad argument: the caller's mistake (exit 2) */
    SL_ERR_NOMEM,       /* an allocation failed or would be too large */
    SL_ERR_UNSUPPORTED, /* this algorithm/backend/type/operator is not built */
    SL_ERR_NO_GPU,      /* the CUDA backend is built but no GPU is present */
    SL_ERR_CUDA,        /* a CUDA runtime call failed */
    SL_ERR_TIMEOUT,     /* a bounded spin on the GPU gave up */
    SL_ERR_SIM,         /* the simulator stopped the kernel (out of bounds, deadlock, ...) */
    SL_ERR_IO,          /* a file could not be read or written */
    SL_ERR_CHECK,       /* a check failed */
} sl_status;

/* A short English description of a status value. */
const char *sl_status_str(sl_status s);

#endif
