/* The simulator's CUDA runtime, inside: the registered modules, kernels
 * and variables, device memory, the launch log, the run's settings and
 * the error state shared by the files that implement the API. */
#ifndef SCANLAB_RUNTIME_RT_H
#define SCANLAB_RUNTIME_RT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "model/ptx/run.h"
#include "model/timemodel.h"
#include "runtime/cuda_abi.h"

/* Exported with CUDA's names (runtime/cudart.map picks what leaves the
 * library). */
#define RT_API __attribute__((visibility("default")))

/* One fat binary: its PTX, parsed at its first use. */
typedef struct {
    const void *wrapper;
    ptx_module *m;
    bool tried;        /* parsing was attempted (m NULL: it failed, said once) */
    unsigned index;    /* 1, 2, ... in registration order (for messages) */
} rt_module;

/* A kernel as __cudaRegisterFunction names it: its host stub and its
 * entry in the module. */
struct rt_kernel {
    rt_module *mod;
    const void *host_fun;
    char *name;                /* the PTX entry's (mangled) name */
    int entry;                 /* -1 until found */
    size_t max_dyn_shared;     /* cudaFuncAttributeMaxDynamicSharedMemorySize; 0: the default 48 KiB */
};

/* A __device__ or __constant__ variable: its host shadow and its name. */
typedef struct {
    rt_module *mod;
    const void *host_var;
    char *name;
    size_t size;
} rt_var;

/* The run's settings, from the environment scanlab run sets
 * (docs/run.md). */
typedef struct {
    const char *report;   /* SCANLAB_RUN_REPORT: where the report goes (NULL: stderr) */
    const char *json;     /* SCANLAB_RUN_JSON: the JSON document's path, or NULL */
    unsigned schedules;   /* SCANLAB_RUN_SCHEDULES: each launch under K schedules (1: the default only) */
    bool allow_races;     /* SCANLAB_RUN_ALLOW_RACES */
    unsigned models;      /* SCANLAB_RUN_MODELS: mask of progress models to search waiting launches under */
    int exhaustive;       /* SCANLAB_RUN_EXHAUSTIVE: 1, 0 (sample), -1 (unset: exhaustive up to 3 blocks) */
    uint64_t samples;     /* SCANLAB_RUN_SAMPLES */
    unsigned max_search_blocks; /* SCANLAB_RUN_SEARCH_BLOCKS: launches of more blocks are not searched */
    unsigned resident;    /* SCANLAB_RUN_RESIDENT: residency slots of an obe or lobe search */
    uint64_t seed;        /* SCANLAB_RUN_SEED: of sampled schedules */
    const model_device *device; /* SCANLAB_DEVICE (default: the first of model/devices.def) */
} rt_settings;

extern rt_settings rt_cfg;

/* Reads the settings once (every entry point may be the first call). */
void rt_init(void);

/* ---- registry (registry.c) ---- */
rt_module *rt_module_add(const void *wrapper);
/* The module's PTX, parsed on first use; NULL when it cannot be (said on
 * stderr once). */
ptx_module *rt_module_ptx(rt_module *mod);
struct rt_kernel *rt_kernel_add(rt_module *mod, const void *host_fun, const char *name);
/* The kernel registered for host stub f, or NULL. */
struct rt_kernel *rt_kernel_find(const void *f);
/* Its module and entry, resolved; false with cudaErrorInvalidDeviceFunction set when not. */
bool rt_kernel_resolve(struct rt_kernel *k);
void rt_var_add(rt_module *mod, const void *host_var, const char *name, size_t size);
/* The device address and size of the variable whose host shadow is sym. */
void *rt_var_device(const void *sym, size_t *bytes);

/* ---- device memory (memory.c) ---- */
/* Whether [p, p + n) lies in one allocation of the runtime's. */
bool rt_is_device(const void *p, size_t n);
/* Bytes allocated now. */
size_t rt_allocated(void);

/* ---- errors (errors.c) ---- */
/* Records e as the last error (not cudaSuccess) and returns it. */
cudaError_t rt_error(cudaError_t e);
/* An error that stopped a launch: every later call returns it, as a
 * GPU's context after an illegal address. */
void rt_set_sticky(cudaError_t e);
cudaError_t rt_sticky(void);
/* A call the runtime does not serve: one line on stderr naming it (once
 * per name), cudaErrorNotSupported. */
cudaError_t rt_unsupported(const char *name);
/* Also said in the report: the names refused. */
extern char rt_refused[16][64];
extern unsigned rt_nrefused;

/* ---- launches (launch.c) and the report (report.c) ---- */
cudaError_t rt_launch(const void *func, dim3 grid, dim3 block, void **args, size_t shared, bool cooperative);

typedef struct {
    char *kernel;          /* demangled where the C++ runtime can */
    dim3 grid, block;
    size_t shared;
    uint64_t instructions, barriers, shared_wavefronts, bank_conflicts, global_ld_sectors, global_st_sectors;
    /* the same counts loads and stores apart, as Nsight Compute measures
     * them (docs/metrics.md, "Per launch"); zero for a launch not run */
    model_launch_counts split;
    double predicted_ns;
    unsigned schedules;    /* schedules it ran under */
    uint64_t findings;     /* findings that fail the run */
    uint64_t races;        /* races seen (failing unless allowed) */
    char *text;            /* the findings, one "path:line: error:" line each, or NULL */
    char *search;          /* the schedule searches' verdicts, or NULL */
    bool stopped;          /* an error stopped it */
} rt_launch_rec;

void rt_log_add(const rt_launch_rec *r);
/* The predicted time of every launch so far, ns (events read it). */
double rt_clock_ns(void);
void rt_clock_add(double ns);

/* Runs the launch's schedule searches (search.c); the verdict lines are
 * appended to r->search and a deadlock counts as a finding. */
void rt_search_launch(ptx_module *m, int entry, const sl_launch *cfg, void **args, rt_launch_rec *r);

#endif
