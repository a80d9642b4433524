/* The catalogue's kernels as nvcc compiled them, served to their C host
 * drivers: every launch of a dialect kernel's C build goes to the entry of
 * the same name in the PTX of its kernel file (model_launch_redirect), so
 * a host driver runs unchanged while the PTX front end executes its
 * kernels. The tests compare both front ends this way, and
 * tools/fidelity_run holds the PTX path's counts against the GPU's. */
#include "model/ptx/catalogue.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "model/ptx/run.h"

#define CATALOGUE_MAX 256

static ptx_module *modules[CATALOGUE_MAX];
static unsigned nmodules;
static const ptx_module *current;
static unsigned long served, missed;
static char missed_name[160];

/* Whether entry (a mangled name) names the function name: its identifier,
 * length-prefixed, inside the mangling (_Z20ks_scan_i32_add_cudaPKi...). */
static bool names(const char *entry, const char *name)
{
    const size_t n = strlen(name);
    for (const char *p = strstr(entry, name); p; p = strstr(p + 1, name)) {
        const char *d = p;
        while (d > entry && d[-1] >= '0' && d[-1] <= '9')
            d--;
        if (d < p && (size_t)strtoul(d, NULL, 10) == n)
            return true;
    }
    return false;
}

/* The dialect's instantiated name ends in _sim; nvcc's in _cuda. */
static bool redirect(const sl_launch *cfg, const char *name, const void *const *args, unsigned nargs, sl_status *st)
{
    char want[160];
    const size_t len = strlen(name);
    if (!current || len < 4 || len + 2 > sizeof want || strcmp(name + len - 4, "_sim") != 0)
        return false;
    snprintf(want, sizeof want, "%.*s_cuda", (int)(len - 4), name);
    ptx_module *m = (ptx_module *)current;
    for (unsigned f = 0; f < m->nfuncs; f++) {
        if (!m->funcs[f].entry || !m->funcs[f].defined || !names(m->funcs[f].name, want))
            continue;
        char err[512] = "";
        if (model_ptx_nparams(m, (int)f) != nargs) {
            fprintf(stderr, "scanlab: %s: %u parameters in the PTX, %u in the host driver\n", want,
                    model_ptx_nparams(m, (int)f), nargs);
            *st = SL_ERR_ARG;
        } else {
            /* recorded under the dialect's name, as the dialect run records it */
            *st = model_ptx_launch_named(m, (int)f, cfg, args, name, err, sizeof err);
            if (*st == SL_ERR_ARG && *err)
                fprintf(stderr, "%s\n", err);
        }
        served++;
        return true;
    }
    missed++;
    snprintf(missed_name, sizeof missed_name, "%s", want);
    return false;
}

int model_ptx_catalogue_open(const char *dir, char *err, size_t errlen)
{
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, errlen, "%s: cannot open the folder", dir);
        return -1;
    }
    struct dirent *e;
    int rc = 0;
    while ((e = readdir(d)) && rc == 0) {
        const size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".ptx") != 0)
            continue;
        if (nmodules == CATALOGUE_MAX) {
            snprintf(err, errlen, "%s: more than %d modules", dir, CATALOGUE_MAX);
            rc = -1;
            break;
        }
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        ptx_module *m = model_ptx_load_file(path, err, errlen);
        if (!m)
            rc = -1;
        else
            modules[nmodules++] = m;
    }
    closedir(d);
    if (rc == 0 && nmodules == 0) {
        snprintf(err, errlen, "%s: no .ptx module", dir);
        rc = -1;
    }
    if (rc == 0)
        model_launch_redirect = redirect;
    return rc;
}

bool model_ptx_catalogue_select(const char *algo, unsigned tn)
{
    char want[192];
    snprintf(want, sizeof want, "/%s_%u.ptx", algo, tn);
    for (char *c = want; *c; c++)
        if (*c == '-')
            *c = '_';
    current = NULL;
    for (unsigned i = 0; i < nmodules; i++) {
        const char *p = modules[i]->path;
        const size_t n = strlen(p), k = strlen(want);
        if (n >= k && strcmp(p + n - k, want) == 0)
            current = modules[i];
    }
    return current != NULL;
}

void model_ptx_catalogue_counts(unsigned long *served_out, unsigned long *missed_out, const char **last_missed)
{
    *served_out = served;
    *missed_out = missed;
    if (last_missed)
        *last_missed = missed_name;
}

void model_ptx_catalogue_close(void)
{
    model_launch_redirect = NULL;
    current = NULL;
    for (unsigned i = 0; i < nmodules; i++)
        model_ptx_unload(modules[i]);
    nmodules = 0;
    served = missed = 0;
}
