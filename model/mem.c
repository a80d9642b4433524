/* Memory as the simulated kernel sees it: device allocations, shared
 * memory, checked accesses, atomics, and the race detector's shadow. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "internal.h"

/* Device allocations are aligned like cudaMalloc's, so that sectors and
 * coalescing come out as on the GPU. */
#define GLOBAL_ALIGN 256
/* Trace entries a lane starts with; most kernels record a handful per
 * barrier interval. */
#define TRACE_INITIAL 16

static malloc_t **allocs;
static size_t nallocs, capallocs;
/* Global allocation of the last shadowed access: consecutive accesses
 * mostly fall into the same one. Cleared when allocations change. */
static const malloc_t *hot_global;

static size_t shadow_bytes(const malloc_t *a) { return (a->hi - a->lo + 3) / 4 * sizeof(mshadow); }

/* Device allocations of at least this size are mapped lazily. */
#define LAZY_BYTES ((size_t)64 << 20)
/* Copies and fills of large buffers go by chunks of this size, skipping
 * those untouched on both sides. */
#define LAZY_CHUNK ((size_t)2 << 20)

/* Shadows of freed allocations, kept for the next allocation of the same
 * size: drivers allocate the same buffers run after run, and a kept shadow
 * needs neither page faults nor clearing (its stamps are older than any
 * later launch, so every entry reads as no access). At most
 * SHADOW_POOL_BYTES are kept. */
#define SHADOW_POOL 4
#define SHADOW_POOL_BYTES ((size_t)512 * 1024 * 1024)
static struct {
    void *p;
    size_t bytes;
} shadow_pool[SHADOW_POOL];

/* Shadows are mapped from the kernel (zeroed) and returned to it when
 * dropped. Through calloc/free, later runs of the benchmark, with and
 * without accounting, were about 30% slower (measured): freeing a block
 * this large raises glibc's mmap threshold, so the device arrays that
 * follow come from the heap instead. */
static void *shadow_map(size_t bytes)
{
    void *m = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return m == MAP_FAILED ? NULL : m;
}

static void shadow_unmap(void *p, size_t bytes)
{
    if (p)
        munmap(p, bytes);
}

static void *shadow_get(size_t bytes)
{
    for (int i = 0; i < SHADOW_POOL; i++)
        if (shadow_pool[i].p && shadow_pool[i].bytes == bytes) {
            void *p = shadow_pool[i].p;
            shadow_pool[i].p = NULL;
            return p;
        }
    return shadow_map(bytes);
}

static void shadow_drop_pool(void)
{
    for (int i = 0; i < SHADOW_POOL; i++) {
        shadow_unmap(shadow_pool[i].p, shadow_pool[i].bytes);
        shadow_pool[i].p = NULL;
    }
}

static void shadow_put(void *p, size_t bytes)
{
    if (!p)
        return;
    size_t kept = 0;
    for (int i = 0; i < SHADOW_POOL; i++)
        kept += shadow_pool[i].p ? shadow_pool[i].bytes : 0;
    if (kept + bytes > SHADOW_POOL_BYTES) {
        shadow_unmap(p, bytes);
        return;
    }
    int k = 0;
    for (int i = 0; i < SHADOW_POOL; i++)
        if (!shadow_pool[i].p) {
            k = i;
            break;
        } else if (shadow_pool[i].bytes < shadow_pool[k].bytes) {
            k = i; /* all taken: replace the smallest */
        }
    shadow_unmap(shadow_pool[k].p, shadow_pool[k].bytes);
    shadow_pool[k].p = p;
    shadow_pool[k].bytes = bytes;
}

sl_status model_dev_alloc(void **p, size_t bytes) { return model_dev_alloc_guarded(p, bytes, 0); }

sl_status model_dev_alloc_guarded(void **p, size_t bytes, size_t guard)
{
    *p = NULL;
    if (bytes == 0)
        return SL_OK;
    size_t rounded = (bytes + guard + GLOBAL_ALIGN - 1) / GLOBAL_ALIGN * GLOBAL_ALIGN;
    if (rounded < bytes || bytes + guard < bytes)
        return SL_ERR_NOMEM;
    malloc_t *a = calloc(1, sizeof *a);
    /* large buffers are mapped: their pages appear when first touched, so
     * a huge grid that runs a few blocks holds only what those touch */
    const bool mapped = rounded >= LAZY_BYTES;
    void *raw = mapped ? shadow_map(rounded) : aligned_alloc(GLOBAL_ALIGN, rounded);
    if (nallocs == capallocs) {
        size_t cap = capallocs ? capallocs * 2 : 16;
        malloc_t **n = realloc(allocs, cap * sizeof *n);
        if (n) {
            allocs = n;
            capallocs = cap;
        }
    }
    if (!a || !raw || nallocs == capallocs) {
        free(a);
        if (mapped)
            shadow_unmap(raw, rounded);
        else
            free(raw);
        return SL_ERR_NOMEM;
    }
    a->map_bytes = mapped ? rounded : 0;
    /* a huge run skips blocks: what they would have written (zeros, the
     * identity of add over a zero input) must be what memory holds; a
     * schedule search hashes every byte, which must not be what the host's
     * heap left there (it differs between the processes of a search over
     * ranks) */
    if (!mapped && (model_current()->cfg.huge_n || model_search_active()))
        memset(raw, 0, rounded);
    a->lo = (uintptr_t)raw;
    a->hi = a->lo + bytes;
    a->shadow = NULL; /* made by the first launch with accounting */
    a->raw = raw;
    allocs[nallocs++] = a;
    *p = raw;
    return SL_OK;
}

sl_status model_dev_alloc_named(void **p, size_t bytes, const char *name)
{
    sl_status st = model_dev_alloc(p, bytes);
    if (st == SL_OK && *p)
        model_name_alloc(allocs[nallocs - 1], name, (uintptr_t)*p);
    return st;
}

void model_dev_name(const void *p, const char *name)
{
    malloc_t *a = (malloc_t *)model_find_alloc(NULL, (uintptr_t)p);
    if (a && !a->shared)
        model_name_alloc(a, name, (uintptr_t)p);
}

void model_name_alloc(malloc_t *a, const char *text, uintptr_t base)
{
    a->name[0] = '\0';
    a->name_base = base;
    if (!text)
        return;
    while (*text == ' ')
        text++;
    if (*text == '(') { /* a cast: (void **)&d_sums */
        const char *close = strchr(text, ')');
        text = close ? close + 1 : text;
    }
    while (*text == ' ' || *text == '&')
        text++;
    /* a C++ function's static, as nvcc names it in PTX: _ZZ<function>E<length><name> */
    if (strncmp(text, "_ZZ", 3) == 0)
        for (const char *e = text + strlen(text); e > text + 3; e--) {
            if (e[-1] != 'E' || e[0] < '1' || e[0] > '9')
                continue;
            char *end;
            const unsigned long len = strtoul(e, &end, 10);
            if (*end && strlen(end) == len) {
                text = end;
                break;
            }
        }
    snprintf(a->name, sizeof a->name, "%s", text);
}

void model_name_address(const mblock *b, uintptr_t addr, unsigned size, char *buf, size_t n)
{
    const malloc_t *a = model_find_alloc(b, addr);
    if (!size)
        size = 4;
    if (!a) {
        snprintf(buf, n, "address %#lx (in no allocation)", (unsigned long)addr);
    } else if (a->name[0]) {
        const long long off = (long long)(addr - a->name_base);
        snprintf(buf, n, "%s %s[%lld]", a->shared ? "shared" : "global", a->name,
                 off >= 0 ? off / (long long)size : -((-off + size - 1) / (long long)size));
    } else if (a->shared) {
        snprintf(buf, n, "shared memory at byte %lu of the block's", (unsigned long)(addr - (uintptr_t)b->smem));
    } else {
        snprintf(buf, n, "global memory at byte %lu of an allocation of %lu bytes", (unsigned long)(addr - a->lo),
                 (unsigned long)(a->hi - a->lo));
    }
}

void model_dev_free(void *p)
{
    if (!p)
        return;
    hot_global = NULL;
    for (size_t i = 0; i < nallocs; i++)
        if (allocs[i]->raw == p) {
            malloc_t *a = allocs[i];
            if (a->map_bytes)
                shadow_unmap(a->raw, a->map_bytes);
            else
                free(a->raw);
            shadow_put(a->shadow, shadow_bytes(a));
            free(a);
            allocs[i] = allocs[--nallocs];
            return;
        }
}

/* Whether any page of [p, p + bytes) is resident (has been touched). */
static bool touched(const void *p, size_t bytes)
{
    const uintptr_t page = 4096, lo = (uintptr_t)p & ~(page - 1), hi = (uintptr_t)p + bytes;
    unsigned char vec[LAZY_CHUNK / 4096 + 2];
    if (mincore((void *)lo, hi - lo, vec) != 0)
        return true; /* not mapped memory (or an error): copy to be safe */
    for (size_t k = 0; k < (hi - lo + page - 1) / page; k++)
        if (vec[k] & 1)
            return true;
    return false;
}

void model_dev_copy(void *dst, const void *src, size_t bytes)
{
    if (bytes < LAZY_BYTES) {
        if (bytes)
            memmove(dst, src, bytes);
        return;
    }
    for (size_t off = 0; off < bytes; off += LAZY_CHUNK) {
        const size_t len = bytes - off < LAZY_CHUNK ? bytes - off : LAZY_CHUNK;
        unsigned char *d = (unsigned char *)dst + off;
        const unsigned char *s = (const unsigned char *)src + off;
        if (!touched(s, len) && !touched(d, len))
            continue; /* zeros on both sides */
        memmove(d, s, len);
    }
}

void model_dev_memset(void *dst, int byte, size_t bytes)
{
    if (bytes < LAZY_BYTES || byte != 0) {
        if (bytes)
            memset(dst, byte, bytes);
        return;
    }
    for (size_t off = 0; off < bytes; off += LAZY_CHUNK) {
        const size_t len = bytes - off < LAZY_CHUNK ? bytes - off : LAZY_CHUNK;
        unsigned char *d = (unsigned char *)dst + off;
        if (touched(d, len))
            memset(d, 0, len);
    }
}

sl_status model_shadow_prepare(void)
{
    for (size_t i = 0; i < nallocs; i++)
        if (!allocs[i]->shadow) {
            allocs[i]->shadow = shadow_get(shadow_bytes(allocs[i]));
            if (!allocs[i]->shadow)
                return SL_ERR_NOMEM;
        }
    return SL_OK;
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

uint64_t model_mem_canonical(const mblock *b, uintptr_t addr)
{
    if (!addr)
        return 0;
    if (b && addr - (uintptr_t)b->smem < MODEL_MAX_SHARED_LIMIT)
        return UINT64_C(1) << 62 | (addr - (uintptr_t)b->smem);
    for (size_t i = 0; i < nallocs; i++)
        if (addr >= allocs[i]->lo && addr < allocs[i]->hi)
            return (uint64_t)(i + 1) << 40 | (addr - allocs[i]->lo);
    return UINT64_C(1) << 63; /* nowhere the kernel may read */
}

mshadow *model_shadow_word(const mblock *b, uintptr_t addr, uintptr_t *lo, uint32_t *stamp0)
{
    const uintptr_t slo = (uintptr_t)b->smem;
    if (addr - slo < MODEL_MAX_SHARED_LIMIT) {
        *lo = slo;
        *stamp0 = b->stamp0;
        return b->sshadow;
    }
    const malloc_t *g = hot_global;
    if (!g || addr - g->lo >= g->hi - g->lo) {
        g = model_find_alloc(NULL, addr);
        if (!g || !g->shadow)
            return NULL; /* checked at the access; cannot happen */
        hot_global = g;
    }
    *lo = g->lo;
    *stamp0 = model_L.stamp0;
    return g->shadow;
}

void model_shadow_clear_all(void)
{
    shadow_drop_pool();
    for (size_t i = 0; i < nallocs; i++)
        if (allocs[i]->shadow)
            memset(allocs[i]->shadow, 0, shadow_bytes(allocs[i]));
}

bool model_trace_grow(mthread *t)
{
    size_t used = (size_t)(t->pub.tr_next - t->tr), seen = (size_t)(t->tr_shadow - t->tr);
    size_t cap = t->captr ? t->captr * 2 : TRACE_INITIAL;
    model_trace_ent *n = realloc(t->tr, cap * sizeof *n);
    if (!n)
        return false;
    t->tr = n;
    t->captr = cap;
    t->pub.tr_next = n + used;
    t->tr_shadow = n + seen;
    /* explored schedules send every access through model_access (a
     * point where other blocks may run): no fast path */
    t->pub.tr_end = model_L.explore || !model_L.accounting ? n : n + cap;
    return true;
}

static void trace_push(mthread *t, const model_site *site, uintptr_t addr)
{
    if (t->pub.tr_next == t->tr + t->captr && !model_trace_grow(t))
        return; /* the access goes uncounted rather than crash */
    t->pub.tr_next->addr = addr;
    t->pub.tr_next->site = site;
    t->pub.tr_next++;
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

static void fail_misaligned(mthread *t, uintptr_t p, size_t size, model_site *site)
{
    model_finding f;
    memset(&f, 0, sizeof f);
    f.kind = MODEL_FIND_MISALIGNED;
    f.site[0] = site;
    f.block[0] = t->blk->lin;
    f.thread[0] = t->lin;
    f.addr = p;
    f.interval = t->blk->epoch;
    char who[96];
    model_thread_desc(t, who, sizeof who);
    snprintf(f.text, sizeof f.text, "misaligned: %s of %zu bytes at %s:%d by %s, address %#lx (not a multiple of %zu)",
             site->what, size, site->file, site->line, who, (unsigned long)p, size);
    model_fail(t, &f, SL_ERR_SIM);
}

/* An index expression narrower than the array it indexes from its start:
 * 32-bit arithmetic that cannot reach every element (it wraps, or goes
 * negative, past 2^32 or 2^31 elements). */
static void check_index_width(mthread *t, const malloc_t *a, const void *base, size_t size, model_site *site)
{
    if (!site->index_bytes || site->index_bytes >= 8 || a->shared || (uintptr_t)base != a->lo)
        return;
    const unsigned bits = 8u * site->index_bytes - (site->index_signed ? 1u : 0u);
    const uint64_t elems = (uint64_t)(a->hi - a->lo) / size;
    if (elems <= (UINT64_C(1) << bits))
        return;
    model_finding f;
    memset(&f, 0, sizeof f);
    f.kind = MODEL_FIND_INDEX;
    f.site[0] = site;
    f.block[0] = t->blk->lin;
    f.thread[0] = t->lin;
    f.addr = (uintptr_t)base;
    char who[96];
    model_thread_desc(t, who, sizeof who);
    snprintf(f.text, sizeof f.text,
             "index too narrow: %s at %s:%d by %s indexes an array of %llu elements with a %u-bit %s "
             "expression, which reaches 2^%u of them",
             site->what, site->file, site->line, who, (unsigned long long)elems, 8u * site->index_bytes,
             site->index_signed ? "signed" : "unsigned", bits);
    model_fail(t, &f, SL_ERR_SIM);
}

/* A huge run whose blocks touch too much: each of them covers a large share
 * of the elements, so running a few of them is running nearly all. */
static void fail_huge_budget(mthread *t, model_site *site)
{
    model_finding f;
    memset(&f, 0, sizeof f);
    f.kind = MODEL_FIND_LIMIT;
    f.site[0] = site;
    snprintf(f.text, sizeof f.text,
             "huge grid: the blocks run made more than %llu global accesses (the last at %s:%d); this kernel's "
             "blocks cover too much of the input to be simulated in part",
             (unsigned long long)MODEL_HUGE_MAX_ACCESSES, site->file, site->line);
    model_fail(t, &f, SL_ERR_ARG);
}

/* Strong loads of shared memory a lane of an explored schedule runs past
 * in a row before it gives way: enough for a warp's whole
 * warp-synchronous tail (reduce4's is 13), few enough that a lane polling
 * a shared word lets the others run. */
#define SHARED_RUNAHEAD 32u

/* Whether the strong load of a (shared memory) lets the lane run on
 * without giving way. A volatile or relaxed access orders nothing between
 * the lanes of a warp: under independent thread scheduling they drift
 * apart between __syncwarp()s, and a lane may read a neighbour's word
 * before or after the neighbour's update (the CUDA 5 samples' reduce4
 * without __syncwarp). The default schedule keeps lanes in step at every
 * strong load, which hides that; an explored one lets each lane run ahead
 * (its random lane order then decides who goes first). A schedule search
 * and a chooser keep the park: their choices are made at it. */
static bool runs_ahead(mthread *t, const malloc_t *a)
{
    if (!a->shared || !model_L.explore || model_chooser_now || model_search_active())
        return false;
    if (t->runahead >= SHARED_RUNAHEAD)
        return false;
    t->runahead++;
    return true;
}

/* Parks as a spin point (strong loads, atomics, back-off) so that other
 * threads run. Plain stores since the thread last ran are progress. */
static void spin_point(mthread *t, uintptr_t addr, const model_site *site)
{
    t->runahead = 0;
    /* a new point, or a poll whose last read of the word was stale (a newer
     * store becomes visible within a few more polls): not yet a deadlock */
    if (addr != t->spin_addr || site != t->spin_site || (t->stale_run && t->stale_addr == addr))
        model_L.weak_progress++;
    t->slept = false;
    if (t->tr)
        for (const model_trace_ent *e = t->tr; e < t->pub.tr_next; e++)
            if (e->site->kind & MODEL_WR) {
                model_L.progress++;
                break;
            }
    t->spin_addr = addr;
    t->spin_site = site;
    t->state = TS_SPIN;
    t->park_site = site;
    t->blk->nspin++;
    model_park(t);
}

void model_preempt(mthread *t, bool strong, const model_site *site)
{
    if (!model_L.explore && !(strong && model_search_active()))
        return;
    /* the thread advanced to a new point: not (yet) a deadlock */
    model_L.weak_progress++;
    t->state = TS_YIELD;
    t->park_site = site;
    t->blk->nspin++;
    model_park(t);
}

/* The first use of a site: interned, and its size and kind fixed (one per
 * macro expansion). */
static void site_first_use(model_site *site, size_t size, int kind)
{
    if (__builtin_expect(site->id == 0, 0))
        model_site_intern(site);
    if (site->size == 0) {
        site->size = (unsigned)size;
        site->kind = kind;
    }
}

/* base[i] of size bytes, checked against its allocation and its alignment
 * (the launch stops otherwise); the allocation is remembered for the lane's
 * fast path. */
static const malloc_t *checked(mthread *t, const void *base, long long i, size_t size, model_site *site,
                               uintptr_t *out)
{
    uintptr_t p = (uintptr_t)base + (uintptr_t)i * size;
    const malloc_t *a = model_find_alloc(t->blk, p);
    if (!a || p + size > a->hi || (uintptr_t)base < a->lo || (uintptr_t)base > a->hi)
        fail_oob(t, base, i, size, site);
    /* the GPU faults on an access not aligned to its size (sizes are
     * powers of two up to 16) */
    if ((p & (size - 1)) && (size & (size - 1)) == 0 && size <= 16)
        fail_misaligned(t, p, size, site);
    model_lane *l = &t->pub;
    if (l->lo[0] != a->lo) {
        for (int k = MODEL_LANE_RANGES - 1; k > 0; k--) {
            l->lo[k] = l->lo[k - 1];
            l->len[k] = l->len[k - 1];
        }
        l->lo[0] = a->lo;
        l->len[0] = a->hi - a->lo;
    }
    if (model_L.huge) {
        check_index_width(t, a, base, size, site);
        if (!a->shared && ++model_L.huge_accesses > MODEL_HUGE_MAX_ACCESSES)
            fail_huge_budget(t, site);
    }
    *out = p;
    return a;
}

/* The scope of a strong access (model_scope_of_kind). */
static int scope_of_kind(int kind) { return model_scope_of_kind(kind); }

void *model_access(const void *base, long long i, size_t size, int kind, model_site *site)
{
    mthread *t = (mthread *)model_cur;
    site_first_use(site, size, kind);
    uintptr_t p;
    const malloc_t *a = checked(t, base, i, size, site, &p);
    if (kind & MODEL_WR) {
        model_L.progress++;
        if (!a->shared) {
            model_weak_plain_store(p, size);
            model_preempt(t, false, site); /* every store is a point where other blocks may run */
        }
    }
    if (model_chooser_now)
        model_choice_event(t, p, kind & MODEL_WR ? MODEL_EV_WRITE : MODEL_EV_READ);
    if (model_L.accounting)
        trace_push(t, site, p);
    return (void *)p;
}

/* The race shadow and the warp's trace of a strong load by t. */
static void load_recorded(mthread *t, uintptr_t p, size_t size, int kind, model_site *site)
{
    if (model_L.accounting) {
        model_shadow_catch_up(t);
        trace_push(t, site, p);
        t->tr_shadow = t->pub.tr_next;
        model_shadow_access(t, p, (uint32_t)size, kind, scope_of_kind(kind), site);
    }
}

/* A checked strong load of p by t from allocation a. */
static void load_checked(mthread *t, const malloc_t *a, uintptr_t p, size_t size, int kind, model_site *site,
                         void *out)
{
    if (!runs_ahead(t, a))
        spin_point(t, p, site);
    if (model_L.abort)
        return;
    if (model_chooser_now)
        model_choice_event(t, p, MODEL_EV_READ);
    if (!a->shared)
        model_L.stats->global_polls++;
    mrel rel;
    if (a->shared) {
        memcpy(out, (const void *)p, size);
        memset(&rel, 0, sizeof rel);
    } else {
        rel = model_weak_load(t, p, size, kind, NULL, out);
    }
    load_recorded(t, p, size, kind, site);
    model_hb_read(t, kind, &rel);
}

void model_load(const void *base, long long i, size_t size, int kind, model_site *site, void *out)
{
    mthread *t = (mthread *)model_cur;
    site_first_use(site, size, kind);
    uintptr_t p;
    const malloc_t *a = checked(t, base, i, size, site, &p);
    load_checked(t, a, p, size, kind, site, out);
}

_Static_assert(sizeof(model_at) >= sizeof(mpos), "model_at holds an mpos");

bool model_load_defer(const void *base, size_t size, int kind, model_site *site, void *out, model_at *at)
{
    mthread *t = (mthread *)model_cur;
    site_first_use(site, size, kind);
    uintptr_t p;
    const malloc_t *a = checked(t, base, 0, size, site, &p);
    /* only where stale values are modelled (global memory, histories kept),
     * and not in a schedule search, whose snapshots hold no pending load;
     * acquires and atomics order what follows them, so they are never late */
    const bool late = model_L.explore && model_L.ordering && !a->shared && !model_search_active() &&
                      size <= 16 && ((kind & (MODEL_VOL | MODEL_RELAXED)) || model_weak_free(kind)) &&
                      !(kind & (MODEL_ACQUIRE | MODEL_RELEASE | MODEL_ATOMIC));
    if (!late) {
        load_checked(t, a, p, size, kind, site, out);
        return false;
    }
    model_L.stats->global_polls++;
    /* the access is judged where it stands in program order: races by
     * happens-before, which no later point of the thread changes before
     * the value is bound (every ordering point binds it first) */
    load_recorded(t, p, size, kind, site);
    const mpos here = model_pos(t);
    memset(at, 0, sizeof *at);
    memcpy(at, &here, sizeof here);
    return true;
}

void model_load_bind(const void *p, size_t size, int kind, model_site *site, const model_at *at, void *out)
{
    mthread *t = (mthread *)model_cur;
    const uintptr_t a = (uintptr_t)p;
    spin_point(t, a, site);
    if (model_L.abort) {
        memset(out, 0, size);
        return;
    }
    if (model_chooser_now)
        model_choice_event(t, a, MODEL_EV_READ);
    mpos stood;
    memcpy(&stood, at, sizeof stood);
    const mrel rel = model_weak_load(t, a, size, kind, &stood, out);
    model_hb_read(t, kind, &rel);
}

void model_store(void *base, long long i, size_t size, int kind, model_site *site, const void *v)
{
    mthread *t = (mthread *)model_cur;
    site_first_use(site, size, kind);
    uintptr_t p;
    const malloc_t *a = checked(t, base, i, size, site, &p);
    /* progress is counted before the thread may yield, so that a turn
     * that ends just before a store is not taken for a stalled one */
    model_L.progress++;
    if (!a->shared)
        model_preempt(t, true, site);
    if (model_L.abort)
        return;
    if (model_chooser_now)
        model_choice_event(t, p, MODEL_EV_WRITE);
    unsigned char old[16];
    memcpy(old, (const void *)p, size < sizeof old ? size : sizeof old);
    memcpy((void *)p, v, size);
    if (model_L.accounting) {
        model_shadow_catch_up(t);
        trace_push(t, site, p);
        t->tr_shadow = t->pub.tr_next;
        model_shadow_access(t, p, (uint32_t)size, kind | MODEL_WR, scope_of_kind(kind), site);
    }
    const mrel rel = model_hb_release(t, kind);
    if (!a->shared)
        model_weak_store(t, p, size, old, v, &rel, MODEL_WEAK_STRONG);
}

bool model_weak_free(int kind) { return model_chooser_now && model_L.explore && !(kind & MODEL_STRONG); }

void model_store_weak(void *base, size_t size, model_site *site, const void *v)
{
    mthread *t = (mthread *)model_cur;
    site_first_use(site, size, MODEL_WR);
    uintptr_t p;
    const malloc_t *a = checked(t, base, 0, size, site, &p);
    if (a->shared || !model_weak_free(MODEL_WR) || size > 16) {
        memcpy(model_access(base, 0, size, MODEL_WR, site), v, size);
        return;
    }
    model_L.progress++;
    model_preempt(t, false, site); /* every store is a point where other blocks may run */
    if (model_L.abort)
        return;
    if (model_chooser_now)
        model_choice_event(t, p, MODEL_EV_WRITE);
    unsigned char old[16];
    memcpy(old, (const void *)p, size);
    memcpy((void *)p, v, size);
    if (model_L.accounting) {
        model_shadow_catch_up(t);
        trace_push(t, site, p);
        t->tr_shadow = t->pub.tr_next;
        model_shadow_access(t, p, (uint32_t)size, MODEL_WR, scope_of_kind(MODEL_WR), site);
    }
    mrel none;
    memset(&none, 0, sizeof none);
    model_weak_store(t, p, size, old, v, &none, MODEL_WEAK_PLAIN);
}

void model_nanosleep(unsigned ns, model_site *site)
{
    (void)ns;
    mthread *t = (mthread *)model_cur;
    if (__builtin_expect(site->id == 0, 0))
        model_site_intern(site);
    /* a schedule search chooses turns at polls: a back-off adds no choice
     * (a spin with back-off must come back to the same state at its poll) */
    if (model_search_active())
        return;
    /* a back-off between two polls of one word is part of that spin (the
     * word it polls stays the thread's spin address); delays in a row with
     * no poll between are a bounded delay loop on its way */
    if (t->slept)
        model_L.weak_progress++;
    t->slept = true;
    t->state = TS_SPIN;
    t->park_site = site;
    t->blk->nspin++;
    model_park(t);
}

void *model_shared(size_t bytes, size_t align, model_site *site)
{
    return model_shared_named(bytes, align, site->what, site);
}

void *model_shared_named(size_t bytes, size_t align, const char *name, model_site *site)
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
    model_name_alloc(a, name, a->lo);
    b->smem_used = off + bytes;
    if (b->smem_used > b->smem_dirty)
        b->smem_dirty = b->smem_used;
    return (void *)a->lo;
}

void *model_shared_dyn(model_site *site) { return model_shared_dyn_named(site->what, site); }

void *model_shared_dyn_named(const char *name, model_site *site)
{
    (void)site;
    mblock *b = ((mthread *)model_cur)->blk;
    if (!b->dyn.name[0])
        model_name_alloc(&b->dyn, name, b->dyn.lo);
    return (void *)b->dyn.lo;
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

/* The write of a read-modify-write that changed the value: memory, the
 * release it carries (rel_kind: MODEL_ATOMIC, with MODEL_RELEASE and a
 * scope where it is one) and the location's store history. */
static void rmw_store(mthread *t, const malloc_t *al, void *p, uintptr_t addr, size_t size, uint64_t old,
                      uint64_t nv, int rel_kind, const mrel *seen)
{
    model_L.progress++;
    unsigned char ob[8], nb[8];
    if (size == 4) {
        uint32_t o = (uint32_t)old, v = (uint32_t)nv;
        memcpy(ob, &o, 4);
        memcpy(nb, &v, 4);
    } else {
        memcpy(ob, &old, 8);
        memcpy(nb, &nv, 8);
    }
    memcpy(p, nb, size);
    mrel rel = model_hb_release(t, rel_kind);
    if (!rel.valid && seen->valid) {
        /* a read-modify-write that releases nothing passes on the release
         * of the store it read: an acquire that reads it synchronises with
         * that release (PTX's observation order through RMW chains) */
        rel.p = seen->p;
        rel.scope = seen->scope;
        rel.sscope = seen->sscope;
        rel.valid = 1;
    }
    if (!al->shared)
        model_weak_store(t, addr, size, ob, nb, &rel, MODEL_WEAK_RMW);
}

/* The dialect's atomics as a read-modify-write of GPU scope. */
typedef struct {
    int kind, is_unsigned;
    size_t size;
    uint64_t a, b;
} dialect_rmw;

static int dialect_new_value(uint64_t old, uint64_t *nv, const void *ctx)
{
    const dialect_rmw *r = ctx;
    const size_t size = r->size;
    const uint64_t mask = size == 4 ? UINT64_C(0xffffffff) : ~UINT64_C(0), a = r->a;
    *nv = old;
    switch (r->kind) {
    case MODEL_AT_ADD:
        *nv = old + a;
        break;
    case MODEL_AT_MAX:
    case MODEL_AT_MIN: {
        bool greater = r->is_unsigned ? (a & mask) > old : (int64_t)sext(a & mask, size) > (int64_t)sext(old, size);
        bool less = r->is_unsigned ? (a & mask) < old : (int64_t)sext(a & mask, size) < (int64_t)sext(old, size);
        if ((r->kind == MODEL_AT_MAX && greater) || (r->kind == MODEL_AT_MIN && less))
            *nv = a;
        break;
    }
    case MODEL_AT_CAS:
        if (old == (a & mask))
            *nv = r->b;
        break;
    case MODEL_AT_EXCH:
        *nv = a;
        break;
    default:
        break;
    }
    *nv &= mask;
    return 1;
}

uint64_t model_atomic(int kind, void *p, size_t size, int is_unsigned, uint64_t a, uint64_t b,
                      model_site *site)
{
    const dialect_rmw r = {kind, is_unsigned, size, a, b};
    return model_rmw(p, size, MODEL_ATOMIC, dialect_new_value, &r, site);
}

uint64_t model_rmw(void *p, size_t size, int kind, model_rmw_fn new_value, const void *ctx, model_site *site)
{
    mthread *t = (mthread *)model_cur;
    site_first_use(site, size, MODEL_RD | MODEL_ATOMIC);
    uintptr_t addr;
    const malloc_t *al = checked(t, p, 0, size, site, &addr);
    if (model_L.accounting)
        trace_push(t, site, addr);
    spin_point(t, addr, site);
    if (model_L.abort)
        return 0;
    if (model_chooser_now)
        model_choice_event(t, addr, MODEL_EV_WRITE);
    const int scope = model_scope_of_kind(kind);
    /* a read-modify-write reads the newest value of the location, or in a
     * litmus run any value its atomicity allows (model_weak_rmw_read) */
    mrel seen;
    memset(&seen, 0, sizeof seen);
    unsigned char ob[8];
    if (!al->shared)
        seen = model_weak_rmw_read(t, addr, size, kind, ob);
    else
        memcpy(ob, p, size);
    const uint64_t old = load_bits(ob, size);
    uint64_t nv = old;
    const bool store = new_value(old, &nv, ctx) != 0;
    if (size == 4)
        nv &= UINT64_C(0xffffffff);
    const bool writes = store && nv != old;
    const int akind = MODEL_ATOMIC | (kind & (MODEL_ACQUIRE | MODEL_RELEASE)) | (writes ? MODEL_WR : MODEL_RD);
    if (model_L.accounting) {
        model_shadow_catch_up(t);
        model_shadow_access(t, addr, (uint32_t)size, akind, scope, site);
    }
    if (!al->shared)
        model_hb_read(t, MODEL_ATOMIC | (kind & MODEL_ACQUIRE), &seen);
    if (writes)
        rmw_store(t, al, p, addr, size, old, nv, kind, &seen); /* a release if kind says so, of its scope */
    return old;
}

void model_mem_save(model_snap *s)
{
    for (size_t i = 0; i < nallocs; i++)
        model_snap_put(s, (const void *)allocs[i]->lo, allocs[i]->hi - allocs[i]->lo);
}

void model_mem_restore(const unsigned char **cur)
{
    for (size_t i = 0; i < nallocs; i++)
        model_snap_get(cur, (void *)allocs[i]->lo, allocs[i]->hi - allocs[i]->lo);
}

/* A fast 64-bit mix of 8 bytes into h. */
static inline uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + UINT64_C(0x9e3779b97f4a7c15) + (h << 6) + (h >> 2);
    return h * UINT64_C(0xff51afd7ed558ccd);
}

uint64_t model_mem_hash(uint64_t h)
{
    for (size_t i = 0; i < nallocs; i++) {
        const malloc_t *a = allocs[i];
        const unsigned char *p = (const unsigned char *)a->lo;
        size_t len = a->hi - a->lo, k = 0;
        h = mix(h, len);
        for (; k + 8 <= len; k += 8) {
            uint64_t v;
            memcpy(&v, p + k, 8);
            h = mix(h, v);
        }
        for (; k < len; k++)
            h = mix(h, p[k]);
    }
    return h;
}

void model_mem_reset_all(void)
{
    while (nallocs > 0)
        model_dev_free(allocs[0]->raw);
    shadow_drop_pool();
    free(allocs);
    allocs = NULL;
    capallocs = 0;
}
