/* The CUDA driver for the litmus campaign, loaded at run time (dlopen of
 * libcuda.so.1, or LITMUS_GPU_DRIVER): the runner builds without the CUDA
 * toolkit, and a machine without a GPU or a driver gets a message, not a
 * loader error. */
#ifndef SCANLAB_LITMUS_GPU_DRIVER_H
#define SCANLAB_LITMUS_GPU_DRIVER_H

#include <stddef.h>
#include <stdint.h>

typedef struct lg_gpu lg_gpu;

/* Loads the driver and takes device 0 (its primary context). NULL with a
 * message in err when there is no driver or no GPU. */
lg_gpu *lg_gpu_open(char *err, size_t errlen);
void lg_gpu_close(lg_gpu *g);
const char *lg_gpu_name(const lg_gpu *g);
int lg_gpu_driver_version(const lg_gpu *g);
int lg_gpu_sms(const lg_gpu *g);

/* JIT-compiles a kernel's PTX (entry litmus_gpu) and makes it the current
 * one; its resident CTAs of block threads per multiprocessor in *per_sm.
 * -1 with the JIT's log in err. */
int lg_gpu_load(lg_gpu *g, const char *ptx, unsigned block, int *per_sm, char *err, size_t errlen);

/* Device buffers of the current test (sizes in 32-bit words). */
enum { LG_BUF_MEM, LG_BUF_OUT, LG_BUF_ROLES, LG_BUF_ADDR, LG_BUF_SYNC, LG_BUF_SCRATCH, LG_BUF_PARAMS, LG_NBUF };
int lg_gpu_alloc(lg_gpu *g, const size_t words[LG_NBUF], char *err, size_t errlen);
int lg_gpu_put(lg_gpu *g, int buf, const uint32_t *src, size_t words, char *err, size_t errlen);
int lg_gpu_get(lg_gpu *g, int buf, uint32_t *dst, size_t words, char *err, size_t errlen);
int lg_gpu_fill(lg_gpu *g, int buf, uint32_t value, size_t words, char *err, size_t errlen);
/* One launch of the current kernel over the buffers, waited for. */
int lg_gpu_launch(lg_gpu *g, unsigned grid, unsigned block, char *err, size_t errlen);

#endif
