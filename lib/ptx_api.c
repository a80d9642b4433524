/* The PTX part of libscanlab (include/scanlab/ptx.h): the PTX front end's
 * module, launches and memory behind an opaque handle. */
#include "scanlab/ptx.h"

#include <stdio.h>
#include <string.h>

#include "model/model.h"
#include "model/ptx/run.h"

/* The module itself: sl_ptx is ptx_module under another name. */
struct sl_ptx {
    ptx_module m;
};

sl_ptx *sl_ptx_load_file(const char *path, char *err, size_t errlen)
{
    return (sl_ptx *)model_ptx_load_file(path, err, errlen);
}

sl_ptx *sl_ptx_load_text(const char *text, size_t len, const char *name, char *err, size_t errlen)
{
    return (sl_ptx *)model_ptx_load(text, len, name, err, errlen);
}

void sl_ptx_free(sl_ptx *m) { model_ptx_unload(&m->m); }

unsigned sl_ptx_kernel_count(const sl_ptx *m)
{
    unsigned k = 0;
    for (unsigned i = 0; i < m->m.nfuncs; i++)
        k += m->m.funcs[i].entry && m->m.funcs[i].defined;
    return k;
}

const char *sl_ptx_kernel_name(const sl_ptx *m, unsigned k)
{
    for (unsigned i = 0; i < m->m.nfuncs; i++)
        if (m->m.funcs[i].entry && m->m.funcs[i].defined && k-- == 0)
            return m->m.funcs[i].name;
    return NULL;
}

void *sl_ptx_dev_alloc(size_t bytes)
{
    void *p = NULL;
    if (model_dev_alloc(&p, bytes ? bytes : 1) != SL_OK)
        return NULL;
    model_dev_memset(p, 0, bytes ? bytes : 1);
    return p;
}

void sl_ptx_dev_free(void *p) { model_dev_free(p); }

void sl_ptx_copy(void *dst, const void *src, size_t bytes) { model_dev_copy(dst, src, bytes); }

int sl_ptx_launch(sl_ptx *m, const char *entry, sl_ptx_dim3 grid, sl_ptx_dim3 block, size_t shared,
                  const void *const *args, sl_sim *sim, char *err, size_t errlen)
{
    const int e = model_ptx_entry(&m->m, entry, err, errlen);
    if (e < 0)
        return 2;
    const sl_launch cfg = {{grid.x, grid.y, grid.z}, {block.x, block.y, block.z}, shared};
    model_stats *s = sim ? sl_sim_sink(sim) : NULL;
    model_begin(s);
    const sl_status st = model_ptx_launch(&m->m, e, &cfg, args, err, errlen);
    const bool found = model_findings(model_current(), false) != 0;
    model_end(st);
    if (st == SL_OK || st == SL_ERR_SIM)
        return found || st == SL_ERR_SIM ? 1 : 0;
    return 2;
}
