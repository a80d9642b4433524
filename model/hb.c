/* Happens-before between the events of one launch, as the PTX memory model
 * orders them (docs/memory-model.md):
 *
 *   - within a block, by barrier intervals, program order and warp-level
 *     synchronisation (model_local_before, from positions alone);
 *   - between threads, by synchronisation: a release (st.release, or a
 *     fence followed by a strong store) read by an acquire (ld.acquire, or
 *     a strong load followed by a fence) of a scope that includes both
 *     threads; and transitively.
 *
 * Each synchronisation is one acquire record (where the acquire stood,
 * where the release stood) kept with the acquiring block. Whether e happens
 * before c is a search backwards from c: through the acquire records that
 * are locally before c to their releases, and on from each release, until
 * one is locally after e. Queries are needed only when accesses of
 * different blocks meet (or a weak load has a choice), so the common case
 * costs nothing. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

typedef struct {
    mpos acq, rel;
    uint32_t seen; /* the query that visited it last */
} macqrec;

/* The acquire records of one block. */
typedef struct {
    uint32_t blk; /* block + 1; 0: empty slot */
    uint32_t n, cap;
    macqrec *v;
} mblockacq;

static mblockacq *table;
static size_t table_cap, table_used;
static uint32_t query;
static mpos *stack;
static size_t stack_cap;

static unsigned block_of(const mpos *p) { return (p->tid - 1) / model_L.nth; }
static unsigned warp_of(const mpos *p) { return (p->tid - 1) % model_L.nth / MODEL_WARP_SIZE; }

mpos model_pos(const mthread *t)
{
    mpos p = {t->gtid, t->blk->stamp, t->seq, (uint16_t)t->blk->wsync[t->warp]};
    return p;
}

bool model_local_before(const mpos *e, const mpos *c)
{
    if (e->tid == 0)
        return true;
    if (block_of(e) != block_of(c))
        return false;
    if (e->stamp != c->stamp)
        return e->stamp < c->stamp;
    if (e->tid == c->tid)
        return e->seq <= c->seq;
    return warp_of(e) == warp_of(c) && e->sync < c->sync;
}

static mblockacq *slot_of(uint32_t blk, bool create)
{
    if (table_cap == 0) {
        if (!create)
            return NULL;
        table_cap = 64;
        table = calloc(table_cap, sizeof *table);
        if (!table) {
            table_cap = 0;
            return NULL;
        }
    }
    size_t mask = table_cap - 1, i = (blk * UINT32_C(2654435761)) & mask;
    for (;; i = (i + 1) & mask) {
        if (table[i].blk == blk + 1)
            return &table[i];
        if (table[i].blk == 0)
            break;
    }
    if (!create)
        return NULL;
    if ((table_used + 1) * 2 > table_cap) {
        /* grow and rehash */
        size_t ncap = table_cap * 2;
        mblockacq *nt = calloc(ncap, sizeof *nt);
        if (!nt)
            return NULL;
        for (size_t k = 0; k < table_cap; k++)
            if (table[k].blk) {
                size_t j = ((table[k].blk - 1) * UINT32_C(2654435761)) & (ncap - 1);
                while (nt[j].blk)
                    j = (j + 1) & (ncap - 1);
                nt[j] = table[k];
            }
        free(table);
        table = nt;
        table_cap = ncap;
        return slot_of(blk, true);
    }
    table[i].blk = blk + 1;
    table_used++;
    return &table[i];
}

static void add_record(const mpos *acq, const mpos *rel)
{
    mblockacq *s = slot_of(block_of(acq), true);
    if (!s)
        return; /* out of memory: a missing edge can only add a report */
    /* the same release acquired again by the same thread adds nothing */
    for (uint32_t k = s->n; k > 0 && k + 4 > s->n; k--) {
        const macqrec *r = &s->v[k - 1];
        if (r->acq.tid == acq->tid && r->rel.tid == rel->tid && r->rel.stamp == rel->stamp &&
            r->rel.seq == rel->seq && r->rel.sync == rel->sync)
            return;
    }
    if (s->n == s->cap) {
        uint32_t cap = s->cap ? s->cap * 2 : 4;
        macqrec *v = realloc(s->v, cap * sizeof *v);
        if (!v)
            return;
        s->v = v;
        s->cap = cap;
    }
    s->v[s->n++] = (macqrec){*acq, *rel, 0};
}

void model_hb_sync(const mpos *acq, const mpos *rel) { add_record(acq, rel); }

bool model_hb(const mpos *e, const mpos *c)
{
    if (model_local_before(e, c))
        return true;
    if (table_used == 0)
        return false;
    if (++query == 0) {
        for (size_t k = 0; k < table_cap; k++)
            for (uint32_t j = 0; j < table[k].n; j++)
                table[k].v[j].seen = 0;
        query = 1;
    }
    size_t top = 0;
    if (stack_cap == 0) {
        stack = malloc(64 * sizeof *stack);
        if (!stack)
            return false;
        stack_cap = 64;
    }
    stack[top++] = *c;
    while (top > 0) {
        const mpos x = stack[--top];
        mblockacq *s = slot_of(block_of(&x), false);
        if (!s)
            continue;
        for (uint32_t k = 0; k < s->n; k++) {
            macqrec *r = &s->v[k];
            if (r->seen == query || !model_local_before(&r->acq, &x))
                continue;
            r->seen = query;
            if (model_local_before(e, &r->rel))
                return true;
            if (top == stack_cap) {
                mpos *ns = realloc(stack, stack_cap * 2 * sizeof *ns);
                if (!ns)
                    return false;
                stack = ns;
                stack_cap *= 2;
            }
            stack[top++] = r->rel;
        }
    }
    return false;
}

uint64_t model_clock(const mthread *t) { return t->blk->steps + t->pub.ops + t->wait; }

mrel model_hb_release(mthread *t, int kind)
{
    mrel r;
    memset(&r, 0, sizeof r);
    if (!model_L.ordering)
        return r;
    r.clock = model_clock(t);
    r.sscope = (uint8_t)model_scope_of_kind(kind);
    if (kind & MODEL_RELEASE) {
        r.p = model_pos(t);
        r.valid = 1;
        r.own = 1;
        r.scope = (uint8_t)(kind & MODEL_KIND_SCOPED ? model_scope_of_kind(kind) : MODEL_SCOPE_GPU);
        t->seq++; /* what follows is after the release */
    } else if (t->fence.valid) {
        r.p = t->fence.p;
        r.valid = 1;
        r.scope = t->fence.scope;
    }
    return r;
}

/* Whether a release of scope by the thread at rel synchronises with the
 * acquiring thread t (a block-scope release reaches its own block only;
 * in a launch of several devices, a release or a store of GPU scope
 * reaches its own device only). */
static bool reaches(const mthread *t, const mrel *r)
{
    return r->valid && r->p.tid != t->gtid &&
           (r->scope != MODEL_SCOPE_CTA || (r->p.tid - 1) / model_L.nth == t->blk->lin ||
            (model_weaken & MODEL_WEAKEN_SCOPE)) &&
           ((model_weaken & MODEL_WEAKEN_SCOPE) ||
            (model_scope_spans(r->scope, r->p.tid, t->gtid) && model_scope_spans(r->sscope, r->p.tid, t->gtid)));
}

/* The last fence.sc of each thread that issued one in this launch: the
 * fences of a launch are in one total order (the order they run in), and
 * each synchronises with every later one whose scope includes both
 * threads (PTX's Fence-SC order). A thread's earlier fences are before its
 * last in program order, so the last stands for all. */
typedef struct {
    mpos p;
    int scope;
} mscfence;
static mscfence *scf;
static size_t nscf, capscf;

static void fence_sc(mthread *t, const mpos *here, int scope)
{
    size_t mine = nscf;
    for (size_t k = 0; k < nscf; k++) {
        const mscfence *f = &scf[k];
        if (f->p.tid == t->gtid) {
            mine = k;
            continue;
        }
        const bool same_block = (f->p.tid - 1) / model_L.nth == t->blk->lin;
        if ((f->scope == MODEL_SCOPE_CTA || scope == MODEL_SCOPE_CTA) && !same_block)
            continue;
        /* fences of GPU scope on two devices are not in one Fence-SC order */
        if (!model_scope_spans(f->scope < scope ? f->scope : scope, f->p.tid, t->gtid))
            continue;
        add_record(here, &f->p);
    }
    if (mine == nscf) {
        if (nscf == capscf) {
            size_t cap = capscf ? 2 * capscf : 16;
            mscfence *n = realloc(scf, cap * sizeof *n);
            if (!n)
                return; /* a missing edge can only add a report */
            scf = n;
            capscf = cap;
        }
        nscf++;
    }
    scf[mine] = (mscfence){*here, scope};
}

void model_hb_read(mthread *t, int kind, const mrel *r)
{
    if (!model_L.ordering)
        return;
    /* a thread cannot go on before the value it read was written; an
     * atomic takes its turn instead (a ticket is no chain of steps) */
    const uint64_t now = model_clock(t);
    if (!(kind & MODEL_ATOMIC) && r->clock > now)
        t->wait += r->clock - now;
    if (!reaches(t, r))
        return;
    /* a block-scope load of another block's store is not morally strong:
     * it synchronises with nothing */
    if ((kind & MODEL_KIND_SCOPED) && model_scope_of_kind(kind) == MODEL_SCOPE_CTA &&
        (r->p.tid - 1) / model_L.nth != t->blk->lin && !(model_weaken & MODEL_WEAKEN_SCOPE))
        return;
    /* nor is a GPU-scope load of another device's store */
    if (!model_scope_spans(model_scope_of_kind(kind), r->p.tid, t->gtid) && !(model_weaken & MODEL_WEAKEN_SCOPE))
        return;
    if (kind & (MODEL_ACQUIRE)) {
        t->seq++;
        const mpos acq = model_pos(t);
        add_record(&acq, &r->p);
        return;
    }
    /* relaxed: an acquire only if a fence follows; keep the latest release
     * of each block (a later one of the same block covers an earlier) */
    for (unsigned k = 0; k < t->npending; k++) {
        mrel *q = &t->pending[k];
        if ((q->p.tid - 1) / model_L.nth != (r->p.tid - 1) / model_L.nth)
            continue;
        if (model_local_before(&q->p, &r->p)) {
            *q = *r;
            return;
        }
        if (model_local_before(&r->p, &q->p))
            return;
    }
    if (t->npending < MODEL_PENDING_ACQ)
        t->pending[t->npending++] = *r;
    else
        t->pending[t->npending - 1] = *r; /* rare: the newest wins */
}

void model_hb_fence(mthread *t, int scope)
{
    if (!model_L.ordering || (model_weaken & MODEL_WEAKEN_FENCE))
        return;
    const bool sc = (scope & MODEL_FENCE_SC) != 0;
    scope = (model_weaken & MODEL_WEAKEN_SCOPE) ? MODEL_SCOPE_SYS : scope & 3;
    t->seq++;
    const mpos here = model_pos(t);
    if (sc)
        fence_sc(t, &here, scope);
    for (unsigned k = 0; k < t->npending; k++) {
        const mrel *q = &t->pending[k];
        /* a block-scope fence synchronises within the block only */
        if (scope == MODEL_SCOPE_CTA && (q->p.tid - 1) / model_L.nth != t->blk->lin)
            continue;
        /* and one of GPU scope within the device only */
        if (!model_scope_spans(scope, q->p.tid, t->gtid))
            continue;
        add_record(&here, &q->p);
    }
    t->npending = 0;
    t->fence.p = here;
    t->fence.valid = 1;
    t->fence.scope = (uint8_t)scope;
    t->seq++; /* what follows is after the fence */
}

void model_hb_reset(void)
{
    for (size_t k = 0; k < table_cap; k++) {
        free(table[k].v);
        table[k] = (mblockacq){0, 0, 0, NULL};
    }
    table_used = 0;
    query = 0;
    nscf = 0;
}
