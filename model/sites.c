/* Interning of call sites: (file, line, what) -> a small id, so that the
 * per-site tables are arrays indexed by id. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define SITE_TABLE_INITIAL 256

static model_site **by_id; /* by_id[id], id >= 1 */
static size_t nsites, capsites;

static bool same_site(const model_site *a, const model_site *b)
{
    return a->line == b->line && strcmp(a->file, b->file) == 0 && strcmp(a->what, b->what) == 0;
}

void model_site_intern(model_site *s)
{
    /* template instantiations repeat a site once per (type, operator):
     * they share one id */
    for (size_t i = 1; i <= nsites; i++)
        if (by_id[i] && same_site(by_id[i], s)) {
            s->id = (int)i;
            return;
        }
    if (nsites + 2 > capsites) {
        size_t cap = capsites ? capsites * 2 : SITE_TABLE_INITIAL;
        model_site **p = realloc(by_id, cap * sizeof *p);
        if (!p)
            abort(); /* a few hundred pointers: out of memory here is fatal */
        by_id = p;
        capsites = cap;
    }
    by_id[++nsites] = s;
    s->id = (int)nsites;
}

void model_site_forget(const model_site *s)
{
    /* the id is not given again: findings and statistics made while the
     * site lived may still carry it, and then read as no site */
    if (s->id >= 1 && (size_t)s->id <= nsites && by_id[s->id] == s)
        by_id[s->id] = NULL;
}

const model_site *model_site_by_id(uint32_t id)
{
    return id >= 1 && id <= nsites ? by_id[id] : NULL;
}

model_site_stats *model_site_stats_of(model_stats *st, const model_site *s)
{
    size_t id = (size_t)s->id;
    if (id >= st->nsites) {
        size_t cap = st->nsites ? st->nsites : 64;
        while (cap <= id)
            cap *= 2;
        model_site_stats *p = realloc(st->sites, cap * sizeof *p);
        if (!p)
            return NULL;
        memset(p + st->nsites, 0, (cap - st->nsites) * sizeof *p);
        st->sites = p;
        st->nsites = cap;
    }
    st->sites[id].site = s;
    return &st->sites[id];
}

/* The linker defines these for a section named like a C identifier. */
extern const model_site __start_scanlab_sites[] __attribute__((weak));
extern const model_site __stop_scanlab_sites[] __attribute__((weak));

size_t model_sites(const model_site **begin)
{
    *begin = __start_scanlab_sites;
    if (!__start_scanlab_sites || !__stop_scanlab_sites)
        return 0;
    return (size_t)(__stop_scanlab_sites - __start_scanlab_sites);
}

void model_waits_for(const char *what, long long index)
{
    mthread *t = (mthread *)model_cur;
    if (!t)
        return;
    t->wait_what = what;
    t->wait_index = index;
}

void model_probe(model_site *site)
{
    if (__builtin_expect(site->id == 0, 0))
        model_site_intern(site);
    model_site_stats *ss = model_site_stats_of(model_current(), site);
    if (ss)
        ss->probes++;
}
