/* Launches: <<<>>> (the call configuration nvcc's stub pushes and pops),
 * cudaLaunchKernel, the __cudaLaunchKernel of CUDA 13's stubs, the
 * cooperative and extensible forms. Each launch runs to its end on the
 * simulator before the call returns, with counts and findings of its own;
 * with K schedules it first runs under K - 1 explored schedules from a
 * copy of device memory that is put back, then under the default one,
 * whose results the program sees. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/internal.h"
#include "runtime/rt.h"

#define MAX_PUSHED 16

static __thread struct {
    dim3 grid, block;
    size_t shared;
    cudaStream_t stream;
} pushed[MAX_PUSHED];
static __thread unsigned npushed;
static pthread_mutex_t launch_lock = PTHREAD_MUTEX_INITIALIZER;

RT_API unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared, cudaStream_t stream)
{
    if (npushed == MAX_PUSHED)
        return 1;
    pushed[npushed].grid = grid;
    pushed[npushed].block = block;
    pushed[npushed].shared = shared;
    pushed[npushed].stream = stream;
    npushed++;
    return 0;
}

RT_API cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shared, cudaStream_t *stream)
{
    if (npushed == 0)
        return rt_error(cudaErrorInvalidConfiguration);
    npushed--;
    *grid = pushed[npushed].grid;
    *block = pushed[npushed].block;
    *shared = pushed[npushed].shared;
    *stream = pushed[npushed].stream;
    return cudaSuccess;
}

/* The C++ name of a kernel, where the program's C++ runtime can say it. */
static char *demangle(const char *name)
{
    typedef char *(*demangle_fn)(const char *, char *, size_t *, int *);
    demangle_fn fn = (demangle_fn)dlsym(RTLD_DEFAULT, "__cxa_demangle");
    int status = -1;
    char *d = fn && name[0] == '_' && name[1] == 'Z' ? fn(name, NULL, NULL, &status) : NULL;
    if (d && status == 0)
        return d;
    free(d);
    return strdup(name);
}

static char *findings_text(const model_stats *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    model_print_findings(f, s);
    fclose(f);
    if (buf && !*buf) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* One run of the launch under schedule `schedule` (0: the default) with
 * counts of its own in s. A cooperative launch's blocks are all resident
 * at once (what cudaLaunchCooperativeKernel promises, and its grid-wide
 * waits need); others get the simulator's residency slots. */
static sl_status run_once(struct rt_kernel *k, const sl_launch *cfg, void **args, uint64_t schedule,
                          bool cooperative, model_stats *s, char *err, size_t errlen)
{
    model_stats_init(s);
    s->cfg.quiet = true;
    if (cooperative)
        s->cfg.slots = cfg->grid.x * cfg->grid.y * cfg->grid.z;
    s->cfg.schedule = schedule;
    s->cfg.shared_limit = k->max_dyn_shared ? MODEL_MAX_SHARED_LIMIT : MODEL_DEFAULT_SHARED_LIMIT;
    model_begin(s);
    const sl_status st =
        model_ptx_launch_named(k->mod->m, k->entry, cfg, (const void *const *)args, k->name, err, errlen);
    return model_end(st);
}

/* Appends text to *dst (a malloc'd string or NULL). */
static void append(char **dst, const char *text)
{
    if (!text)
        return;
    const size_t a = *dst ? strlen(*dst) : 0, b = strlen(text);
    char *n = realloc(*dst, a + b + 1);
    if (!n)
        return;
    memcpy(n + a, text, b + 1);
    *dst = n;
}

/* Runs the explored schedules 1 .. K - 1, each from the same memory,
 * which is put back after each; their findings join the record's. */
static void explored_schedules(struct rt_kernel *k, const sl_launch *cfg, void **args, bool cooperative,
                               rt_launch_rec *r)
{
    model_snap snap = {0};
    model_mem_save(&snap);
    if (snap.failed) {
        model_snap_free(&snap);
        append(&r->search, "note: out of memory for a copy of device memory: explored schedules not run\n");
        return;
    }
    for (unsigned sch = 1; sch < rt_cfg.schedules; sch++) {
        model_stats s;
        char err[512] = "";
        const sl_status st = run_once(k, cfg, args, sch, cooperative, &s, err, sizeof err);
        const uint64_t nf = model_findings(&s, rt_cfg.allow_races);
        if (nf || s.races) {
            char head[96];
            snprintf(head, sizeof head, "note: under explored schedule %u:\n", sch);
            append(&r->text, head);
            char *t = findings_text(&s);
            append(&r->text, t);
            free(t);
        }
        r->findings += nf;
        r->races += s.races;
        (void)st;
        model_stats_free(&s);
        const unsigned char *cur = snap.p;
        model_mem_restore(&cur);
    }
    model_snap_free(&snap);
    r->schedules = rt_cfg.schedules;
}

static cudaError_t check_config(dim3 grid, dim3 block)
{
    const unsigned long long nth = (unsigned long long)block.x * block.y * block.z;
    if (nth == 0 || nth > MODEL_MAX_BLOCK_THREADS || block.x > 1024 || block.y > 1024 || block.z > 64 ||
        grid.x == 0 || grid.y == 0 || grid.z == 0 || grid.x > 2147483647u || grid.y > 65535 || grid.z > 65535)
        return rt_error(cudaErrorInvalidConfiguration);
    return cudaSuccess;
}

/* The status a stopped launch leaves, as the GPU would report it. */
static cudaError_t stopped_error(const model_stats *s)
{
    switch (s->error.kind) {
    case MODEL_FIND_OOB: return cudaErrorIllegalAddress;
    case MODEL_FIND_MISALIGNED: return cudaErrorMisalignedAddress;
    case MODEL_FIND_DEADLOCK: return cudaErrorLaunchTimeout;
    default: return cudaErrorLaunchFailure;
    }
}

cudaError_t rt_launch(const void *func, dim3 grid, dim3 block, void **args, size_t shared, bool cooperative)
{
    rt_init();
    if (rt_sticky())
        return rt_sticky();
    struct rt_kernel *k = rt_kernel_find(func);
    if (!k)
        return rt_error(cudaErrorInvalidDeviceFunction);
    if (!rt_kernel_resolve(k)) {
        /* a launch that cannot run is a result the program does not get:
         * it fails the run, whatever the program does with the error */
        rt_launch_rec r;
        memset(&r, 0, sizeof r);
        r.kernel = demangle(k->name);
        r.grid = grid;
        r.block = block;
        r.shared = shared;
        r.schedules = 1;
        r.stopped = true;
        r.findings = 1;
        char line[400];
        snprintf(line, sizeof line, "error: %s was not run: the simulator has no PTX for it (the message above says "
                                    "why)\n", k->name);
        append(&r.text, line);
        pthread_mutex_lock(&launch_lock);
        rt_log_add(&r);
        pthread_mutex_unlock(&launch_lock);
        return rt_error(cudaErrorNoKernelImageForDevice);
    }
    cudaError_t e = check_config(grid, block);
    if (e != cudaSuccess)
        return e;
    const size_t limit = k->max_dyn_shared ? k->max_dyn_shared : MODEL_DEFAULT_SHARED_LIMIT;
    if (shared > limit)
        return rt_error(cudaErrorInvalidValue);
    const unsigned long long nblocks = (unsigned long long)grid.x * grid.y * grid.z;
    if (cooperative && rt_cfg.device &&
        nblocks > model_time_resident_blocks(rt_cfg.device, block.x * block.y * block.z, shared))
        return rt_error(cudaErrorCooperativeLaunchTooLarge);
    const sl_launch cfg = {{grid.x, grid.y, grid.z}, {block.x, block.y, block.z}, shared};
    pthread_mutex_lock(&launch_lock);
    rt_launch_rec r;
    memset(&r, 0, sizeof r);
    r.kernel = demangle(k->name);
    r.grid = grid;
    r.block = block;
    r.shared = shared;
    r.schedules = 1;
    if (rt_cfg.schedules > 1)
        explored_schedules(k, &cfg, args, cooperative, &r);
    /* a cooperative launch's blocks are all resident: no dispatch order to search */
    if (rt_cfg.models && !cooperative)
        rt_search_launch(k->mod->m, k->entry, &cfg, args, &r);
    model_stats s;
    char err[512] = "";
    const unsigned long long before = model_ptx_instructions();
    const sl_status st = run_once(k, &cfg, args, 0, cooperative, &s, err, sizeof err);
    r.instructions = model_ptx_instructions() - before;
    r.barriers = s.barriers;
    r.shared_wavefronts = s.shared_wavefronts;
    r.bank_conflicts = s.bank_conflicts;
    r.global_ld_sectors = s.global_load_sectors;
    r.global_st_sectors = s.global_store_sectors;
    if (s.nlaunch_records)
        r.split = s.launch[0].c;
    if (s.nlaunch_records && rt_cfg.device) {
        r.predicted_ns = model_time_predict(rt_cfg.device, &s.launch[0]).total;
        rt_clock_add(r.predicted_ns);
    }
    r.findings += model_findings(&s, rt_cfg.allow_races);
    r.races += s.races;
    char *t = findings_text(&s);
    append(&r.text, t);
    free(t);
    if (st == SL_ERR_ARG) {
        /* refused before it ran (a block the kernel does not allow, too much shared memory) */
        fprintf(stderr, "scanlab: runtime: %s\n", err);
        e = rt_error(cudaErrorInvalidValue);
    } else if (st != SL_OK) {
        r.stopped = true;
        if (!s.has_error && *err)
            append(&r.text, err), append(&r.text, "\n"), r.findings++;
        e = s.has_error ? stopped_error(&s) : cudaErrorLaunchFailure;
        rt_set_sticky(e);
    }
    model_stats_free(&s);
    if (st != SL_ERR_ARG)
        rt_log_add(&r);
    else {
        free(r.kernel);
        free(r.text);
        free(r.search);
    }
    pthread_mutex_unlock(&launch_lock);
    /* a launch reports a failure of its own at the next synchronising call, as on the GPU */
    return st == SL_ERR_ARG ? e : cudaSuccess;
}

RT_API cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shared,
                                   cudaStream_t stream)
{
    (void)stream;
    return rt_launch(func, grid, block, args, shared, false);
}

RT_API cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block, void **args, size_t shared,
                                     cudaStream_t stream)
{
    (void)stream;
    return rt_launch(kernel, grid, block, args, shared, false);
}

RT_API cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 grid, dim3 block, void **args, size_t shared,
                                          cudaStream_t stream)
{
    (void)stream;
    return rt_launch(kernel, grid, block, args, shared, false);
}

RT_API cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shared,
                                              cudaStream_t stream)
{
    (void)stream;
    return rt_launch(func, grid, block, args, shared, true);
}

RT_API cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args)
{
    if (!config)
        return rt_error(cudaErrorInvalidValue);
    bool cooperative = false;
    for (unsigned i = 0; i < config->numAttrs; i++) {
        const cudaLaunchAttribute *a = &config->attrs[i];
        switch (a->id) {
        case cudaLaunchAttributeCooperative: cooperative = a->val.cooperative != 0; break;
        case cudaLaunchAttributeClusterDimension:
            if (a->val.clusterDim.x * a->val.clusterDim.y * a->val.clusterDim.z > 1)
                return rt_unsupported("cudaLaunchKernelEx(thread block clusters)");
            break;
        /* hints about caching, priority and overlap with the next launch:
         * launches here run one after another to their end, whatever they say */
        case cudaLaunchAttributeAccessPolicyWindow:
        case cudaLaunchAttributeSynchronizationPolicy:
        case cudaLaunchAttributeProgrammaticStreamSerialization:
        case cudaLaunchAttributeProgrammaticEvent:
        case cudaLaunchAttributePriority: break;
        default: {
            char what[64];
            snprintf(what, sizeof what, "cudaLaunchKernelEx(attribute %d)", a->id);
            return rt_unsupported(what);
        }
        }
    }
    return rt_launch(func, config->gridDim, config->blockDim, args, config->dynamicSmemBytes, cooperative);
}
