/* Memory as the simulated kernel sees it: device allocations, shared
 * memory, checked accesses, atomics, and the race detector's shadow. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Device allocations are aligned like cudaMalloc's, so that sectors and
 * coalescing come out as on the GPU. */
#define GLOBAL_ALIGN 256
#define TRACE_INITIAL 64

static malloc_t **allocs;
static size_t nallocs, capallocs;

sl_status model_dev_alloc(void **p, size_t bytes)
{
    *p = NULL;
    if (bytes == 0)
        return SL_OK;
    size_t rounded = (bytes + GLOBAL_ALIGN - 1) / GLOBAL_ALIGN * GLOBAL_ALIGN;
    if (rounded < bytes)
        return SL_ERR_NOMEM;
    malloc_t *a = calloc(1, sizeof *a);
    void *raw = aligned_alloc(GLOBAL_ALIGN, rounded);
    mshadow *sh = calloc((bytes + 3) / 4, sizeof *sh);
    if (nallocs == capallocs) {
        size_t cap = capallocs ? capallocs * 2 : 16;
        malloc_t **n = realloc(allocs, cap * sizeof *n);
        if (n) {
            allocs = n;
            capallocs = cap;
        }
    }
    if (!a || !raw || !sh || nallocs == capallocs) {
        free(a);
        free(raw);
        free(sh);
        return SL_ERR_NOMEM;
    }
    a->lo = (uintptr_t)raw;
    a->hi = a->lo + bytes;
    a->shadow = sh;
    a->raw = raw;
    allocs[nallocs++] = a;
    *p = raw;
    return SL_OK;
}

void model_dev_free(void *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < nallocs; i++)
        if (allocs[i]->raw == p) {
            free(allocs[i]->raw);
            free(allocs[i]->shadow);
            free(allocs[i]);
            allocs[i] = allocs[--nallocs];
            return;
        }
}

const malloc_t *model_find_alloc(const mblock *b, uintptr_t addr)
{
    if (b) {
        if (addr >= b->dyn.lo && addr < b->dyn.hi)
            return &b->dyn;
        for (unsigned k = 0; k < b->nsallocs; k++)
            if (addr >= b->sallocs[k].lo && addr < b->sallocs[k].hi)
                return &b->sallocs[k];
    }
    for (size_t i = 0; i < nallocs; i++)
        if (addr >= allocs[i]->lo && addr < allocs[i]->hi)
            return allocs[i];
    return NULL;
}

/* The acquired release count of block pb as seen by block b. */
static uint32_t acq_of(const mblock *b, unsigned pb)
{
    for (size_t i = 0; i < b->nacq; i++)
        if (b->acq[i].blk == pb)
            return b->acq[i].rel;
    return 0;
}

static void acquire(mblock *b, unsigned pb, uint32_t rel)
{
    for (size_t i = 0; i < b->nacq; i++)
        if (b->acq[i].blk == pb) {
            if (rel > b->acq[i].rel)
                b->acq[i].rel = rel;
            return;
        }
    if (b->nacq == b->capacq) {
        size_t cap = b->capacq ? b->capacq * 2 : 8;
        macq *n = realloc(b->acq, cap * sizeof *n);
        if (!n)
            return; /* a missing acquire can only add a report */
        b->acq = n;
        b->capacq = cap;
    }
    b->acq[b->nacq++] = (macq){pb, rel};
}

/* Whether the earlier access r happens before the current access of t. */
static bool ordered(const mref *r, const mthread *t, uint32_t gen)
{
    if (r->tid == 0 || r->gen != gen || r->tid == t->gtid)
        return true;
    const mblock *b = t->blk;
    unsigned prev = r->tid - 1, pb = prev / model_L.nth;
    if (pb == b->lin) {
        if (r->epoch != b->epoch)
            return true;
        unsigned pw = (prev % model_L.nth) / MODEL_WARP_SIZE;
        return pw == t->warp && r->sync != b->wsync[t->warp];
    }
    return r->rel < acq_of(b, pb);
}

static void set_ref(mref *r, const mthread *t, uint32_t gen, uint32_t site)
{
    r->tid = t->gtid;
    r->gen = gen;
    r->epoch = t->blk->epoch;
    r->sync = t->blk->wsync[t->warp];
    r->rel = t->blk->rel;
    r->site = site;
}

void model_shadow_access(mthread *t, const malloc_t *a, uintptr_t addr, uint32_t size, int kind,
                         const model_site *site)
{
    mblock *b = t->blk;
    uint32_t gen = a->shared ? b->gen : model_L.gen;
    size_t w0 = (addr - a->lo) / 4, w1 = (addr + size - 1 - a->lo) / 4;
    for (size_t w = w0; w <= w1; w++) {
        mshadow *s = &a->shadow[w];
        uintptr_t waddr = a->lo + w * 4;
        if (kind & (MODEL_VOL | MODEL_ATOMIC)) {
            /* synchronising access: acquire from the last synchronising
             * writer of another block; release on write */
            if (s->w.tid && s->w.gen == gen && (s->w.site & SHADOW_SYNC)) {
                unsigned pb = (s->w.tid - 1) / model_L.nth;
                if (pb != b->lin)
                    acquire(b, pb, s->w.rel);
            }
            if (kind & MODEL_WR) {
                b->rel++;
                set_ref(&s->w, t, gen, (uint32_t)site->id | SHADOW_SYNC);
            }
            continue;
        }
        bool w_plain = !(s->w.site & SHADOW_SYNC);
        if (w_plain && !ordered(&s->w, t, gen))
            model_report_race(t, site, &s->w, waddr);
        if (kind & MODEL_WR) {
            if (!ordered(&s->r, t, gen))
                model_report_race(t, site, &s->r, waddr);
            set_ref(&s->w, t, gen, (uint32_t)site->id);
        } else {
            set_ref(&s->r, t, gen, (uint32_t)site->id);
        }
    }
}

static void trace_push(mthread *t, const model_site *site, uintptr_t addr, uint32_t size, int kind,
                       bool shared)
{
    if (t->ntr == t->captr) {
        size_t cap = t->captr ? t->captr * 2 : TRACE_INITIAL;
        mtrace *n = realloc(t->tr, cap * sizeof *n);
        if (!n)
            return; /* the access goes uncounted rather than crash */
        t->tr = n;
        t->captr = cap;
    }
    t->tr[t->ntr++] = (mtrace){site, addr, size, (uint8_t)kind, (uint8_t)shared};
}

static void fail_oob(mthread *t, const void *base, long long i, size_t size, model_site *site)
{
    model_finding f;
    memset(&f, 0, sizeof f);
    f.kind = MODEL_FIND_OOB;
    f.site[0] = site;
    f.block[0] = t->blk->lin;
    f.thread[0] = t->lin;
    f.addr = (uintptr_t)base + (uintptr_t)(i * (long long)size);
    f.index = i;
    f.interval = t->blk->epoch;
    char who[96];
    model_thread_desc(t, who, sizeof who);
    const malloc_t *a = model_find_alloc(t->blk, (uintptr_t)base);
    if (a)
        snprintf(f.text, sizeof f.text,
                 "out of bounds: %s at %s:%d by %s, index %lld of an allocation of %zu elements",
                 site->what, site->file, site->line, who, i, (size_t)(a->hi - a->lo) / size);
    else
        snprintf(f.text, sizeof f.text,
                 "out of bounds: %s at %s:%d by %s, index %lld from a pointer outside every allocation",
                 site->what, site->file, site->line, who, i);
    model_fail(t, &f, SL_ERR_SIM);
}

/* Yields to the scheduler as a spin point (volatile loads, atomics). */
static void spin_point(mthread *t, uintptr_t addr, const model_site *site)
{
    if (addr != t->spin_addr || site != t->spin_site)
        model_L.weak_progress++;
    t->spin_addr = addr;
    t->spin_site = site;
    t->state = TS_SPIN;
    t->park_site = site;
    model_fiber_yield();
}

void *model_access(const void *base, long long i, size_t size, int kind, model_site *site)
{
    mthread *t = (mthread *)model_cur;
    if (__builtin_expect(site->id == 0, 0))
        model_site_intern(site);
    uintptr_t p = (uintptr_t)base + (uintptr_t)(i * (long long)size);
    const malloc_t *a = t->cache;
    if (!a || p < a->lo || p + size > a->hi || (uintptr_t)base < a->lo || (uintptr_t)base > a->hi) {
        a = model_find_alloc(t->blk, p);
        if (!a || p + size > a->hi || (uintptr_t)base < a->lo || (uintptr_t)base > a->hi)
            fail_oob(t, base, i, size, site);
        t->cache = a;
    }
    if ((kind & MODEL_VOL) && !(kind & MODEL_WR))
        spin_point(t, p, site);
    if (kind & MODEL_WR)
        model_L.progress++;
    if (model_L.accounting) {
        model_L.stats->lane_ops++;
        trace_push(t, site, p, (uint32_t)size, kind, a->shared);
        model_shadow_access(t, a, p, (uint32_t)size, kind, site);
    }
    return (void *)p;
}

void *model_shared(size_t bytes, size_t align, model_site *site)
{
    mthread *t = (mthread *)model_cur;
    mblock *b = t->blk;
    if (__builtin_expect(site->id == 0, 0))
        model_site_intern(site);
    unsigned k = t->shared_k++;
    if (k < b->nsallocs)
        return (void *)b->sallocs[k].lo;
    size_t off = (b->smem_used + align - 1) / align * align;
    if (off + bytes > model_L.shared_limit || k != b->nsallocs) {
        model_finding f;
        memset(&f, 0, sizeof f);
        f.kind = MODEL_FIND_LIMIT;
        f.site[0] = site;
        f.block[0] = b->lin;
        f.thread[0] = t->lin;
        snprintf(f.text, sizeof f.text,
                 "shared memory: SHARED at %s:%d needs %zu bytes at offset %zu, over the limit of %zu bytes",
                 site->file, site->line, bytes, off, model_L.shared_limit);
        model_fail(t, &f, SL_ERR_ARG);
    }
    if (b->nsallocs == b->capsallocs) {
        unsigned cap = b->capsallocs ? b->capsallocs * 2 : 8;
        malloc_t *n = realloc(b->sallocs, cap * sizeof *n);
        if (!n) {
            model_finding f;
            memset(&f, 0, sizeof f);
            f.kind = MODEL_FIND_LIMIT;
            snprintf(f.text, sizeof f.text, "out of memory for shared allocations");
            model_fail(t, &f, SL_ERR_NOMEM);
        }
        b->sallocs = n;
        b->capsallocs = cap;
    }
    malloc_t *a = &b->sallocs[b->nsallocs++];
    a->lo = (uintptr_t)b->smem + off;
    a->hi = a->lo + bytes;
    a->shared = true;
    a->shadow = b->sshadow + off / 4;
    a->raw = NULL;
    b->smem_used = off + bytes;
    return (void *)a->lo;
}

void *model_shared_dyn(model_site *site)
{
    (void)site;
    return (void *)((mthread *)model_cur)->blk->dyn.lo;
}

static uint64_t load_bits(const void *p, size_t size)
{
    if (size == 4) {
        uint32_t v;
        memcpy(&v, p, 4);
        return v;
    }
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static uint64_t sext(uint64_t v, size_t size)
{
    return size == 4 ? (uint64_t)(int64_t)(int32_t)(uint32_t)v : v;
}

uint64_t model_atomic(int kind, void *p, size_t size, int is_unsigned, uint64_t a, uint64_t b,
                      model_site *site)
{
    mthread *t = (mthread *)model_cur;
    if (__builtin_expect(site->id == 0, 0))
        model_site_intern(site);
    /* bounds: the atomic's own word must lie in one allocation */
    model_access(p, 0, size, MODEL_RD | MODEL_ATOMIC, site);
    spin_point(t, (uintptr_t)p, site);
    if (model_L.abort)
        return 0;
    uint64_t mask = size == 4 ? UINT64_C(0xffffffff) : ~UINT64_C(0);
    uint64_t old = load_bits(p, size), nv = old;
    switch (kind) {
    case MODEL_AT_ADD:
        nv = old + a;
        break;
    case MODEL_AT_MAX:
    case MODEL_AT_MIN: {
        bool greater = is_unsigned ? (a & mask) > old : (int64_t)sext(a & mask, size) > (int64_t)sext(old, size);
        bool less = is_unsigned ? (a & mask) < old : (int64_t)sext(a & mask, size) < (int64_t)sext(old, size);
        if ((kind == MODEL_AT_MAX && greater) || (kind == MODEL_AT_MIN && less))
            nv = a;
        break;
    }
    case MODEL_AT_CAS:
        if (old == (a & mask))
            nv = b;
        break;
    case MODEL_AT_EXCH:
        nv = a;
        break;
    default:
        break;
    }
    nv &= mask;
    if (nv != old) {
        model_L.progress++;
        if (size == 4) {
            uint32_t v = (uint32_t)nv;
            memcpy(p, &v, 4);
        } else {
            memcpy(p, &nv, 8);
        }
        if (model_L.accounting) {
            const malloc_t *al = model_find_alloc(t->blk, (uintptr_t)p);
            if (al)
                model_shadow_access(t, al, (uintptr_t)p, (uint32_t)size, MODEL_WR | MODEL_ATOMIC, site);
        }
    }
    return old;
}

void model_mem_reset_all(void)
{
    while (nallocs > 0)
        model_dev_free(allocs[0]->raw);
    free(allocs);
    allocs = NULL;
    capallocs = 0;
}
