/* The time model: a kernel launch's duration on a GPU predicted from the
 * simulator's counts alone and a few constants measured once on that GPU
 * (tools/fidelity_ubench.cu). docs/model-fidelity.md states the formula
 * and how well it holds against measured times. */
#ifndef SCANLAB_TIMEMODEL_H
#define SCANLAB_TIMEMODEL_H

#include <stddef.h>
#include "model/model.h"

/* Constants of one GPU, each measured by a microbenchmark. */
typedef struct model_device {
    const char *name;            /* short name: "h100" */
    const char *gpu;             /* the device's own name */
    const char *measured;        /* when and by which command the constants were measured */
    unsigned sms;                /* streaming multiprocessors */
    unsigned threads_per_sm;     /* resident threads per SM */
    unsigned blocks_per_sm;      /* resident blocks per SM */
    double copy_bytes_per_ns;    /* bytes read plus bytes written per ns by a device-wide copy */
    double dram_rtt_ns;          /* one dependent global load that misses L2 */
    double l2_rtt_ns;            /* one dependent global load that hits L2 */
    double chain_link_ns;        /* one link of a cross-block chain: a block sees its
                                  * predecessor's flag and publishes its own */
    double smem_wavefronts_per_ns; /* shared-memory wavefronts one SM serves per ns */
    double smem_rtt_ns;          /* one dependent shared-memory load */
    double launch_ns;            /* duration of an empty one-block kernel */
    double barrier_ns;           /* a barrier interval of a block alone on its SM: */
    double barrier_ns_per_warp;  /* barrier_ns + this x its warps; and an SM's resident
                                  * warps, this each, pass one interval at least that long */
} model_device;

/* A predicted launch time and its terms, in ns (timemodel.c):
 * total = launch + max(streaming, memory, latency, chain + one block's own
 * path), streaming the copy-speed memory time and shared + barrier,
 * overlapped as far as the resident blocks allow. */
typedef struct {
    double total, launch, memory, shared, barrier, latency, chain;
    const char *bound; /* the largest term: "memory", "shared", "barrier", "latency" or "chain" */
} model_time;

/* Blocks of `threads` threads (and dyn_shared dynamic shared bytes) one SM
 * holds at once; at least 1. */
unsigned model_time_blocks_per_sm(const model_device *d, unsigned threads, size_t dyn_shared);
/* The same over the whole device: the blocks it holds at once (what an
 * occupancy query answers, registers aside). */
uint64_t model_time_resident_blocks(const model_device *d, unsigned threads, size_t dyn_shared);

/* The predicted time of launch l on device d. */
model_time model_time_predict(const model_device *d, const model_launch_stats *l);

/* Prints the predicted time of each recorded launch of s on d, or that
 * no device was measured when d is NULL. */
void model_time_print(FILE *f, const model_stats *s, const model_device *d);

/* The devices whose constants were measured (model/devices.def), and the
 * one called name (NULL: the first), or NULL. */
size_t model_devices(const model_device **begin);
const model_device *model_device_find(const char *name);

/* Reads "key = value" lines (tools/fidelity_ubench.cu prints them; '#'
 * starts a comment) into d, whose strings then point into text (which the
 * caller keeps and may not be const: values are cut in place). Returns 0,
 * or the number of the first line that is not understood, or -1 when a
 * required key is missing or a value is not positive. */
int model_device_parse(char *text, model_device *d);

#endif
