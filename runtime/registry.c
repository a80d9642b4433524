/* Registration as nvcc's generated host code does it at start-up: one
 * __cudaRegisterFatBinary per translation unit with device code, then
 * its kernels and variables, then __cudaRegisterFatBinaryEnd. The handle
 * the program keeps is the module's record. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/fatbin.h"
#include "runtime/rt.h"

#define MAX_MODULES 256

static rt_module modules[MAX_MODULES];
static unsigned nmodules;
static struct rt_kernel **kernels;
static size_t nkernels, capkernels;
static rt_var *vars;
static size_t nvars, capvars;

static bool grow(void **arr, size_t *cap, size_t n, size_t elem)
{
    if (n < *cap)
        return true;
    const size_t c = *cap ? *cap * 2 : 64;
    void *p = realloc(*arr, c * elem);
    if (!p)
        return false;
    *arr = p;
    *cap = c;
    return true;
}

rt_module *rt_module_add(const void *wrapper)
{
    rt_init();
    if (nmodules == MAX_MODULES) {
        fprintf(stderr, "scanlab: runtime: more than %d fat binaries registered; the rest are not run\n",
                MAX_MODULES);
        return NULL;
    }
    rt_module *mod = &modules[nmodules];
    mod->wrapper = wrapper;
    mod->index = ++nmodules;
    return mod;
}

ptx_module *rt_module_ptx(rt_module *mod)
{
    if (!mod)
        return NULL;
    if (mod->tried)
        return mod->m;
    mod->tried = true;
    char *text = NULL, err[1024] = "", name[64];
    size_t len = 0;
    unsigned sm = 0;
    if (rt_fatbin_ptx(mod->wrapper, &text, &len, &sm, err, sizeof err) != 0) {
        fprintf(stderr, "scanlab: runtime: fat binary %u: %s\n", mod->index, err);
        return NULL;
    }
    snprintf(name, sizeof name, "fatbin%u.sm_%u.ptx", mod->index, sm);
    mod->m = model_ptx_load(text, len, name, err, sizeof err);
    free(text);
    if (!mod->m)
        fprintf(stderr, "scanlab: runtime: %s\n", err);
    return mod->m;
}

struct rt_kernel *rt_kernel_add(rt_module *mod, const void *host_fun, const char *name)
{
    struct rt_kernel *k = calloc(1, sizeof *k);
    if (!k || !grow((void **)&kernels, &capkernels, nkernels, sizeof *kernels) || !(k->name = strdup(name))) {
        free(k);
        return NULL;
    }
    k->mod = mod;
    k->host_fun = host_fun;
    k->entry = -1;
    kernels[nkernels++] = k;
    return k;
}

struct rt_kernel *rt_kernel_find(const void *f)
{
    for (size_t i = 0; i < nkernels; i++)
        if (kernels[i]->host_fun == f || (const void *)kernels[i] == f)
            return kernels[i];
    return NULL;
}

bool rt_kernel_resolve(struct rt_kernel *k)
{
    if (k->entry >= 0)
        return true;
    ptx_module *m = rt_module_ptx(k->mod);
    if (!m)
        return rt_error(cudaErrorNoKernelImageForDevice), false;
    char err[512];
    k->entry = model_ptx_entry(m, k->name, err, sizeof err);
    if (k->entry < 0) {
        fprintf(stderr, "scanlab: runtime: %s\n", err);
        return rt_error(cudaErrorInvalidDeviceFunction), false;
    }
    return true;
}

void rt_var_add(rt_module *mod, const void *host_var, const char *name, size_t size)
{
    if (!grow((void **)&vars, &capvars, nvars, sizeof *vars))
        return;
    char *n = strdup(name);
    if (!n)
        return;
    vars[nvars++] = (rt_var){mod, host_var, n, size};
}

void *rt_var_device(const void *sym, size_t *bytes)
{
    for (size_t i = 0; i < nvars; i++)
        if (vars[i].host_var == sym) {
            ptx_module *m = rt_module_ptx(vars[i].mod);
            return m ? model_ptx_symbol(m, vars[i].name, bytes) : NULL;
        }
    return NULL;
}

/* ---- the entry points nvcc's host code calls ---- */
RT_API void **__cudaRegisterFatBinary(void *fat_cubin) { return (void **)rt_module_add(fat_cubin); }

RT_API void __cudaRegisterFatBinaryEnd(void **handle) { (void)handle; }

RT_API void __cudaUnregisterFatBinary(void **handle) { (void)handle; }

RT_API char __cudaInitModule(void **handle) { return handle != NULL; }

RT_API void __cudaRegisterFunction(void **handle, const char *host_fun, char *device_fun, const char *device_name,
                                   int thread_limit, void *tid, void *bid, void *bdim, void *gdim, int *wsize)
{
    (void)device_fun, (void)thread_limit, (void)tid, (void)bid, (void)bdim, (void)gdim, (void)wsize;
    rt_kernel_add((rt_module *)handle, host_fun, device_name);
}

RT_API void __cudaRegisterVar(void **handle, char *host_var, char *device_address, const char *device_name, int ext,
                              size_t size, int constant, int global)
{
    (void)device_address, (void)ext, (void)constant, (void)global;
    rt_var_add((rt_module *)handle, host_var, device_name, size);
}

RT_API void __cudaRegisterManagedVar(void **handle, void **host_var_ptr, char *device_address,
                                     const char *device_name, int ext, size_t size, int constant, int global)
{
    (void)handle, (void)host_var_ptr, (void)device_address, (void)ext, (void)size, (void)constant, (void)global;
    fprintf(stderr, "scanlab: runtime: __managed__ variable %s is not supported; kernels that use it stop\n",
            device_name);
}

RT_API cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *f)
{
    struct rt_kernel *k = rt_kernel_find(f);
    if (!kernel || !k)
        return rt_error(cudaErrorInvalidDeviceFunction);
    *kernel = k;
    return cudaSuccess;
}
