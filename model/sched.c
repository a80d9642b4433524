/* The grid executor: blocks dispatched to residency slots in a chosen
 * order, resident blocks run fairly and never preempted, every simulated
 * thread a fiber that runs alone until its next synchronisation point.
 * A block runs warp by warp: a lane that parks switches straight to the
 * next ready lane of its warp (one switch per lane, not two through the
 * host), and the host accounts the warp's traces before the next warp. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "model/timemodel.h"

/* Rounds without a write, barrier, exit or dispatch after which a kernel
 * that keeps polling new addresses is declared stuck. */
#define MODEL_LIVELOCK_ROUNDS 100000
/* Shared-memory arenas are aligned to the bank row, so that an address's
 * bank is its offset's bank. */
#define SMEM_ALIGN (MODEL_BANKS * MODEL_BANK_BYTES)
#define ORDER_SHOWN 16
/* The interval stamp restarts (and every race shadow is cleared) before
 * the counter can wrap. */
#define STAMP_RESTART 0xf0000000u

__thread model_lane *model_cur __attribute__((tls_model("initial-exec")));
mlaunch model_L;
uint32_t model_stamp;

static model_stats scratch;
static bool scratch_ready;
static model_stats *sink;

/* Residency slots, kept across launches with their shared memory. */
typedef struct {
    mblock b;
} mslot;
static mslot *slots;
static unsigned nslots;
/* Crews not in use, the most recently released first (warm in cache). */
static mcrew *free_crews;
/* Every crew made (none is ever freed: their fibers are pooled). */
static mcrew *all_crews;

/* ---- stats sink ---------------------------------------------------------- */
void model_stats_init(model_stats *s)
{
    memset(s, 0, sizeof *s);
    s->cfg.slots = MODEL_DEFAULT_SLOTS;
    s->cfg.order = MODEL_ORDER_IN;
    s->cfg.shared_limit = MODEL_DEFAULT_SHARED_LIMIT;
}

void model_stats_free(model_stats *s)
{
    free(s->sites);
    s->sites = NULL;
    s->nsites = 0;
}

void model_begin(model_stats *s)
{
    if (!scratch_ready) {
        model_stats_init(&scratch);
        scratch_ready = true;
    }
    sink = s;
}

sl_status model_end(sl_status st)
{
    sink = NULL;
    return st;
}

model_stats *model_current(void)
{
    if (sink)
        return sink;
    if (!scratch_ready) {
        model_stats_init(&scratch);
        scratch_ready = true;
    }
    return &scratch;
}

/* ---- findings ------------------------------------------------------------ */
void model_thread_desc(const mthread *t, char *buf, size_t size)
{
    const mblock *b = t->blk;
    snprintf(buf, size, "block (%u,%u,%u) thread (%u,%u,%u)", b->block_idx.x, b->block_idx.y,
             b->block_idx.z, t->pub.thread_idx.x, t->pub.thread_idx.y, t->pub.thread_idx.z);
}

static void record_error(model_finding *f, sl_status st)
{
    model_stats *s = model_L.stats;
    if (!model_L.abort) {
        model_L.abort = true;
        model_L.abort_status = st;
        if (!s->has_error) {
            s->has_error = true;
            s->error = *f;
        }
        if (f->kind == MODEL_FIND_BARRIER_DIVERGENCE)
            s->barrier_divergence++;
        else if (f->kind == MODEL_FIND_DEADLOCK)
            s->deadlocks++;
        else if (f->kind == MODEL_FIND_OOB)
            s->oob++;
        else if (f->kind == MODEL_FIND_MISALIGNED)
            s->misaligned++;
        else if (f->kind == MODEL_FIND_WARP)
            s->warp_errors++;
        else if (f->kind == MODEL_FIND_INDEX)
            s->narrow_index++;
        else if (f->kind == MODEL_FIND_UB)
            s->undefined++;
        if (s == &scratch && !s->cfg.quiet)
            fprintf(stderr, "scanlab: simulator: %s\n", f->text);
    }
}

void model_fail(mthread *t, model_finding *f, sl_status st)
{
    record_error(f, st);
    if (t) {
        t->state = TS_EXIT;
        for (;;)
            model_fiber_yield();
    }
}

/* The role of the launches that follow (model_launch_role). */
static __thread const char *launch_role;

const char *model_launch_role(const char *role)
{
    const char *before = launch_role;
    launch_role = role;
    return before;
}

/* The devices of the launches that follow (model_launch_devices). */
static __thread unsigned launch_bpd;

unsigned model_launch_devices(unsigned blocks_per_device)
{
    const unsigned before = launch_bpd;
    launch_bpd = blocks_per_device;
    return before;
}

void model_report_race(mthread *t, const model_site *site, const mref *prev, uintptr_t addr, bool write)
{
    model_stats *s = model_L.stats;
    uint64_t k = s->races++;
    if (k >= MODEL_MAX_REPORTS)
        return;
    model_finding *f = &s->race[k];
    memset(f, 0, sizeof *f);
    f->kind = MODEL_FIND_RACE;
    f->site[0] = site;
    f->site[1] = model_site_by_id(prev->site);
    f->block[0] = t->blk->lin;
    f->thread[0] = t->lin;
    f->block[1] = (prev->p.tid - 1) / model_L.nth;
    f->thread[1] = (prev->p.tid - 1) % model_L.nth;
    f->addr = addr;
    f->interval = t->blk->epoch;
    const model_site *o = f->site[1];
    char where[96];
    model_name_address(t->blk, addr, site->size ? site->size : o ? o->size : 0, where, sizeof where);
    snprintf(f->text, sizeof f->text,
             "race on %s in barrier interval %u: %s (%s) at %s:%d by block %u thread %u, "
             "unordered with %s (%s) at %s:%d by block %u thread %u",
             where, f->interval, site->what, write ? "write" : "read", site->file, site->line,
             f->block[0], f->thread[0], o ? o->what : "?", (prev->flags & MREF_STRONG) ? "strong" : "plain",
             o ? o->file : "?", o ? o->line : 0, f->block[1], f->thread[1]);
}

/* ---- threads ------------------------------------------------------------- */
void model_park(mthread *t)
{
    mblock *b = t->blk;
    if (!model_L.abort) {
        /* the next ready lane of the warp in this sweep's order: lane
         * order, or a permutation in explored schedules */
        const unsigned from = model_L.explore ? b->rank[t->lin] + 1 : t->lin + 1;
        for (unsigned k = from; k < b->run_end; k++) {
            mthread *n = &b->th[model_L.explore ? b->order[k] : k];
            if (n->state == TS_READY) {
                n->ran = true;
                model_cur = &n->pub;
                model_fiber_pass(n->fiber);
                return;
            }
        }
    }
    model_fiber_yield();
}

/* The thread's part of the interval that ends: its operator applications,
 * and the steps it waited for values from other blocks (the critical path
 * across blocks, docs/metrics.md). */
static void end_interval_of(mthread *t)
{
    mblock *b = t->blk;
    const uint64_t len = t->pub.ops + t->wait;
    if (len > b->interval_max)
        b->interval_max = len;
    if (t->pub.ops > b->interval_own)
        b->interval_own = t->pub.ops;
    b->work += t->pub.ops;
    t->pub.ops = 0;
    t->wait = 0;
}

/* The block's interval ends (at a barrier, or its threads' exit): its
 * slowest thread's part goes into the block's steps and own steps, and a
 * global load in it into its load rounds. */
static void close_interval(mblock *b)
{
    b->steps += b->interval_max;
    b->own_steps += b->interval_own;
    b->load_rounds += b->interval_loaded;
    b->interval_max = b->interval_own = 0;
    b->interval_loaded = false;
}

static void thread_main(void *arg)
{
    mthread *t = arg;
    model_L.entry(model_L.args);
    end_interval_of(t);
    mblock *b = t->blk;
    t->state = TS_EXIT;
    t->park_site = NULL;
    b->nexited++;
    model_L.progress++;
    if (b->nb_waiting) /* its warp's arrival at a named barrier may be complete now */
        model_nbar_exited(t);
    for (;;)
        model_park(t);
}

void model_syncthreads(model_site *site)
{
    mthread *t = (mthread *)model_cur;
    mblock *b = t->blk;
    if (__builtin_expect(site->id == 0, 0))
        model_site_intern(site);
    end_interval_of(t);
    if (model_L.accounting)
        model_L.stats->lane_ops++;
    t->state = TS_BAR;
    t->park_site = site;
    if (model_chooser_now)
        model_choice_event(t, (uintptr_t)b, MODEL_EV_BARRIER);
    b->nbar++;
    if (!b->bar_first)
        b->bar_first = t;
    else if (site != b->bar_first->park_site && !b->bar_other)
        b->bar_other = t;
    model_L.progress++;
    model_park(t);
}

static uint64_t warp_op(int cls, int kind, unsigned mask, uint64_t v, int arg, model_site *site)
{
    mthread *t = (mthread *)model_cur;
    if (__builtin_expect(site->id == 0, 0))
        model_site_intern(site);
    t->wop_class = cls;
    t->wop_kind = kind;
    t->wop_mask = mask;
    t->wop_val = v;
    t->wop_arg = arg;
    if (model_L.accounting)
        model_L.stats->lane_ops++;
    t->state = TS_WARP;
    t->park_site = site;
    t->blk->nwarpop++;
    model_L.progress++;
    model_park(t);
    return t->wop_res;
}

void model_syncwarp(unsigned mask, model_site *site) { warp_op(0, 0, mask, 0, 0, site); }

uint64_t model_shfl(int kind, unsigned mask, uint64_t value, int arg, model_site *site)
{
    return warp_op(1, kind, mask, value, arg, site);
}

uint64_t model_match(int kind, unsigned mask, uint64_t value, model_site *site)
{
    return warp_op(3, kind, mask, value, 0, site);
}

uint32_t model_redux(int kind, unsigned mask, uint32_t value, model_site *site)
{
    return (uint32_t)warp_op(4, kind, mask, value, 0, site);
}

unsigned model_vote(int kind, unsigned mask, int pred, model_site *site)
{
    return (unsigned)warp_op(2, kind, mask, (uint64_t)(pred != 0), 0, site);
}

void model_fence(int scope, model_site *site)
{
    mthread *t = (mthread *)model_cur;
    if (__builtin_expect(site->id == 0, 0))
        model_site_intern(site);
    model_shadow_catch_up(t);
    if (model_chooser_now && (scope & MODEL_FENCE_SC))
        model_choice_event(t, 0, MODEL_EV_FENCE_SC);
    model_hb_fence(t, scope);
    if (model_L.accounting)
        model_L.stats->lane_ops++;
    model_preempt(t, false, site); /* in explored schedules, a point where other blocks may run */
}

/* ---- warps ---------------------------------------------------------------- */
static const char *const warp_op_names[5] = {"SYNCWARP", "shuffle", "vote", "match", "redux"};

/* A warp-level operation CUDA leaves undefined: stops the launch. */
static void warp_error(mblock *b, const mthread *t, unsigned lane, const char *why)
{
    model_finding f;
    memset(&f, 0, sizeof f);
    f.kind = MODEL_FIND_WARP;
    f.site[0] = t->park_site;
    f.block[0] = b->lin;
    f.thread[0] = t->lin;
    f.interval = b->epoch;
    snprintf(f.text, sizeof f.text,
             "undefined warp operation: %s at %s:%d by block %u thread %u with mask %#x: lane %u %s",
             t->park_site->what, t->park_site->file, t->park_site->line, b->lin, t->lin, t->wop_mask, lane,
             why);
    model_fail(NULL, &f, SL_ERR_SIM);
}

/* PTX's shfl.sync for lane (PTX ISA, "shfl.sync"): the source lane j from b
 * and the clamp and segment mask in c; out of range, the lane reads its own
 * value and the predicate is false. A source lane outside the group (not
 * participating) leaves the value undefined: the lane's own here. */
static uint64_t ptx_shuffle(int kind, int lane, int arg, unsigned group, const uint64_t *val)
{
    const int b = arg & 31, c = arg >> 5 & 0x1fff, clamp = c & 31, segmask = c >> 8 & 31;
    const int max_lane = (lane & segmask) | (clamp & ~segmask), min_lane = lane & segmask;
    int j;
    bool in_range;
    switch (kind) {
    case MODEL_SHFL_PTX_UP:
        j = lane - b;
        in_range = j >= max_lane;
        break;
    case MODEL_SHFL_PTX_DOWN:
        j = lane + b;
        in_range = j <= max_lane;
        break;
    case MODEL_SHFL_PTX_BFLY:
        j = lane ^ b;
        in_range = j <= max_lane;
        break;
    default:
        j = min_lane | (b & ~segmask);
        in_range = j <= max_lane;
        break;
    }
    if (!in_range || j < 0 || j >= MODEL_WARP_SIZE || !(group >> j & 1))
        j = lane;
    return (val[j] & UINT64_C(0xffffffff)) | (uint64_t)in_range << 32;
}

/* redux.sync over the 32-bit values of the lanes in members. */
static uint64_t redux(int kind, unsigned members, const uint64_t *val)
{
    uint32_t acc = 0;
    bool first = true;
    for (unsigned k = 0; k < MODEL_WARP_SIZE; k++) {
        if (!(members >> k & 1))
            continue;
        const uint32_t v = (uint32_t)val[k];
        if (first) {
            acc = v;
            first = false;
            continue;
        }
        switch (kind) {
        case MODEL_REDUX_ADD: acc += v; break;
        case MODEL_REDUX_MIN: acc = (int32_t)v < (int32_t)acc ? v : acc; break;
        case MODEL_REDUX_MAX: acc = (int32_t)v > (int32_t)acc ? v : acc; break;
        case MODEL_REDUX_UMIN: acc = v < acc ? v : acc; break;
        case MODEL_REDUX_UMAX: acc = v > acc ? v : acc; break;
        case MODEL_REDUX_AND: acc &= v; break;
        case MODEL_REDUX_OR: acc |= v; break;
        default: acc ^= v; break;
        }
    }
    return acc;
}

/* Whether lanes i and j of a warp are at one warp operation: the same call
 * site, or SYNCWARP at any site (since Volta a warp may synchronise from
 * different branches). */
static bool same_warp_op(const mthread *i, const mthread *j)
{
    return i->park_site == j->park_site || (i->wop_class == 0 && j->wop_class == 0);
}

/* Executes the warp operation at which lanes of warp w wait, for every group
 * whose lanes have all arrived; returns whether any executed. CUDA requires
 * every non-exited lane named in the mask to execute the same operation
 * with the same mask, the caller to be in its mask, and names no lanes
 * beyond the block: anything else is reported as undefined. */
static bool resolve_warp(mblock *b, unsigned w)
{
    unsigned lo = w * MODEL_WARP_SIZE, hi = lo + MODEL_WARP_SIZE;
    if (hi > b->nth)
        hi = b->nth;
    const unsigned present = hi - lo == MODEL_WARP_SIZE ? ~0u : (1u << (hi - lo)) - 1;
    bool any = false;
    for (unsigned i = lo; i < hi; i++) {
        mthread *t = &b->th[i];
        if (t->state != TS_WARP)
            continue;
        const model_site *site = t->park_site;
        unsigned mask = t->wop_mask, group = 0;
        bool wait = false;
        for (unsigned j = lo; j < hi; j++) {
            mthread *u = &b->th[j];
            if (u->state == TS_WARP && same_warp_op(t, u) && u->wop_mask == mask)
                group |= 1u << (j - lo);
            else if ((mask >> (j - lo) & 1) &&
                     (u->state == TS_READY || u->state == TS_SPIN || u->state == TS_YIELD))
                wait = true;
        }
        if (wait)
            continue;
        if (!(mask >> (i - lo) & 1)) {
            warp_error(b, t, i - lo, "(the caller) is not in the mask");
            return false;
        }
        if (mask & ~present) {
            warp_error(b, t, (unsigned)__builtin_ctz(mask & ~present),
                       "is named in the mask but does not exist (partial warp)");
            return false;
        }
        for (unsigned j = lo; j < hi; j++) {
            const mthread *u = &b->th[j];
            if (!(mask >> (j - lo) & 1) || (group >> (j - lo) & 1))
                continue;
            char why[200];
            if (u->state == TS_EXIT)
                snprintf(why, sizeof why, "is named in the mask but has exited");
            else if (u->state == TS_BAR)
                snprintf(why, sizeof why, "is named in the mask but waits at a barrier at %s:%d",
                         u->park_site->file, u->park_site->line);
            else if (u->wop_mask != mask && same_warp_op(t, u))
                snprintf(why, sizeof why, "is at the same %s with another mask (%#x)", warp_op_names[t->wop_class],
                         u->wop_mask);
            else
                snprintf(why, sizeof why, "is named in the mask but waits at %s at %s:%d", u->park_site->what,
                         u->park_site->file, u->park_site->line);
            warp_error(b, t, j - lo, why);
            return false;
        }
        uint64_t val[MODEL_WARP_SIZE] = {0};
        unsigned ballot = 0;
        for (unsigned j = lo; j < hi; j++)
            if (group >> (j - lo) & 1) {
                val[j - lo] = b->th[j].wop_val;
                if (b->th[j].wop_val)
                    ballot |= 1u << (j - lo);
            }
        for (unsigned j = lo; j < hi; j++) {
            if (!(group >> (j - lo) & 1))
                continue;
            mthread *u = &b->th[j];
            int lane = (int)(j - lo), src = lane;
            if (u->wop_class == 1 && u->wop_kind >= MODEL_SHFL_PTX_UP) {
                u->wop_res = ptx_shuffle(u->wop_kind, lane, u->wop_arg, group, val);
            } else if (u->wop_class == 3) {
                unsigned same = 0;
                for (unsigned k = 0; k < MODEL_WARP_SIZE; k++)
                    if ((group & u->wop_mask) >> k & 1 && val[k] == u->wop_val)
                        same |= 1u << k;
                const unsigned members = group & u->wop_mask;
                u->wop_res = u->wop_kind == MODEL_MATCH_ANY ? same
                             : same == members                 ? (uint64_t)members | UINT64_C(1) << 32
                                                               : 0;
            } else if (u->wop_class == 4) {
                u->wop_res = redux(u->wop_kind, group & u->wop_mask, val);
            } else if (u->wop_class == 1) {
                switch (u->wop_kind) {
                case MODEL_SHFL_UP:
                    src = lane - u->wop_arg;
                    break;
                case MODEL_SHFL_DOWN:
                    src = lane + u->wop_arg;
                    break;
                case MODEL_SHFL_IDX:
                    src = u->wop_arg & (MODEL_WARP_SIZE - 1);
                    break;
                default:
                    src = lane ^ u->wop_arg;
                    break;
                }
                /* out of the warp or not present: the lane keeps its value */
                if (src < 0 || src >= MODEL_WARP_SIZE || !(group >> src & 1))
                    src = lane;
                u->wop_res = val[src];
            } else if (u->wop_class == 2) {
                unsigned m = ballot & u->wop_mask, members = group & u->wop_mask;
                u->wop_res = u->wop_kind == MODEL_VOTE_BALLOT ? m
                             : u->wop_kind == MODEL_VOTE_ALL  ? (m == members)
                             : u->wop_kind == MODEL_VOTE_UNI  ? (m == members || m == 0)
                                                              : (m != 0);
            }
            u->state = TS_READY;
            b->nwarpop--;
        }
        if (model_L.accounting) {
            model_stats *s = model_L.stats;
            model_site_stats *ss = model_site_stats_of(s, site);
            s->warp_issues++;
            if (ss)
                ss->issues++;
            if (__builtin_popcount(group) < (int)(hi - lo)) {
                s->divergent_issues++;
                if (ss)
                    ss->divergent_issues++;
            }
        }
        b->wsync[w]++;
        model_L.progress++;
        any = true;
    }
    return any;
}

/* ---- blocks --------------------------------------------------------------- */
static void crew_release(mcrew *c)
{
    c->next = free_crews;
    free_crews = c;
}

/* A crew of at least nth threads with fibers, the warmest free one. */
static mcrew *crew_acquire(unsigned nth)
{
    mcrew **pc = &free_crews;
    while (*pc && (*pc)->cap < nth)
        pc = &(*pc)->next;
    mcrew *c = *pc;
    if (c) {
        *pc = c->next;
        return c;
    }
    c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->th = calloc(nth, sizeof *c->th);
    if (!c->th) {
        free(c);
        return NULL;
    }
    c->all_next = all_crews;
    all_crews = c;
    for (unsigned i = 0; i < nth; i++) {
        c->th[i].fiber = model_fiber_new();
        if (!c->th[i].fiber) {
            /* keep the fibers made so far: a crew of i threads */
            c->cap = i;
            crew_release(c);
            return NULL;
        }
    }
    c->cap = nth;
    return c;
}

sl_status model_crews_reserve(unsigned n, unsigned nth)
{
    mcrew *taken = NULL;
    sl_status st = SL_OK;
    for (unsigned i = 0; i < n; i++) {
        mcrew *c = crew_acquire(nth);
        if (!c) {
            st = SL_ERR_NOMEM;
            break;
        }
        c->next = taken;
        taken = c;
    }
    while (taken) {
        mcrew *c = taken;
        taken = c->next;
        crew_release(c);
    }
    return st;
}

/* Whether every fiber's stack mark survived (checked after each launch:
 * an overflow corrupts the neighbouring stack). */
static bool crews_intact(void)
{
    for (const mcrew *c = free_crews; c; c = c->next)
        for (unsigned i = 0; i < c->cap; i++)
            if (!model_fiber_stack_intact(c->th[i].fiber))
                return false;
    return true;
}

static sl_status slot_prepare(mslot *sl, unsigned nth)
{
    mblock *b = &sl->b;
    unsigned nwarps = (nth + MODEL_WARP_SIZE - 1) / MODEL_WARP_SIZE;
    if (b->capwarps < nwarps) {
        uint32_t *ws = realloc(b->wsync, nwarps * sizeof *ws);
        if (!ws)
            return SL_ERR_NOMEM;
        b->wsync = ws;
        b->capwarps = nwarps;
    }
    if (b->capth < nth) {
        unsigned *o = realloc(b->order, nth * sizeof *o), *r = o ? realloc(b->rank, nth * sizeof *r) : NULL;
        if (o)
            b->order = o;
        if (!o || !r)
            return SL_ERR_NOMEM;
        b->rank = r;
        b->capth = nth;
    }
    if (!b->smem) {
        b->smem = aligned_alloc(SMEM_ALIGN, MODEL_MAX_SHARED_LIMIT);
        b->sshadow = calloc(MODEL_MAX_SHARED_LIMIT / 4, sizeof *b->sshadow);
        if (!b->smem || !b->sshadow)
            return SL_ERR_NOMEM;
    }
    return SL_OK;
}

static uint32_t next_stamp(void)
{
    return ++model_stamp;
}

static sl_status block_start(mslot *sl, unsigned lin)
{
    mblock *b = &sl->b;
    const unsigned nth = model_L.nth;
    b->crew = crew_acquire(nth);
    if (!b->crew)
        return SL_ERR_NOMEM;
    b->th = b->crew->th;
    b->nth = nth;
    b->lin = lin;
    b->id_read = 0;
    b->block_idx.x = lin % model_L.grid.x;
    b->block_idx.y = lin / model_L.grid.x % model_L.grid.y;
    b->block_idx.z = lin / (model_L.grid.x * model_L.grid.y);
    b->stamp0 = b->stamp = next_stamp();
    b->epoch = 0;
    b->nexited = b->nbar = b->nwarpop = b->nspin = 0;
    b->bar_first = b->bar_other = NULL;
    b->nwarps = (nth + MODEL_WARP_SIZE - 1) / MODEL_WARP_SIZE;
    memset(b->wsync, 0, b->nwarps * sizeof *b->wsync);
    b->barriers = b->work = b->steps = b->own_steps = b->load_rounds = 0;
    b->interval_max = b->interval_own = 0;
    b->interval_loaded = false;
    b->nsallocs = 0;
    b->dyn.lo = (uintptr_t)b->smem;
    b->dyn.hi = b->dyn.lo + model_L.shmem;
    b->dyn.shared = true;
    b->dyn.shadow = b->sshadow;
    b->dyn.name[0] = '\0'; /* named by the kernel's SHARED_DYN */
    /* a schedule search compares states by their bytes: shared memory
     * starts zeroed there, so that what an earlier block left in the slot
     * does not tell equal states apart (kernels never read it) */
    if (model_search_active() && b->smem_dirty)
        memset(b->smem, 0, b->smem_dirty);
    b->smem_used = model_L.shmem;
    b->smem_dirty = model_L.shmem;
    b->active = true;
    for (unsigned i = 0; i < nth; i++) {
        mthread *t = &b->th[i];
        t->blk = b;
        t->lin = i;
        t->lane = i % MODEL_WARP_SIZE;
        t->warp = i / MODEL_WARP_SIZE;
        /* a huge grid numbers its threads by the blocks it runs, which stay
         * few, so that ids fit 32 bits */
        t->gtid = (model_L.huge ? model_L.started : lin) * nth + i + 1;
        t->state = TS_READY;
        t->park_site = NULL; /* a fresh block looks the same whichever crew it got */
        t->ran = false;
        t->pub.thread_idx.x = i % model_L.block.x;
        t->pub.thread_idx.y = i / model_L.block.x % model_L.block.y;
        t->pub.thread_idx.z = i / (model_L.block.x * model_L.block.y);
        t->pub.block_idx = &b->block_idx;
        t->pub.id_read = &b->id_read;
        t->pub.block_dim = &model_L.block;
        t->pub.grid_dim = &model_L.grid;
        t->pub.ops = 0;
        /* no trace without accounting: every access takes the full path */
        t->pub.tr_next = t->tr_shadow = t->tr;
        t->pub.tr_end = model_L.accounting && !model_L.explore && !model_L.huge ? t->tr + t->captr : t->tr;
        for (int k = 0; k < MODEL_LANE_RANGES; k++)
            t->pub.lo[k] = t->pub.len[k] = 0;
        t->shared_k = 0;
        t->spin_addr = 0;
        t->spin_site = NULL;
        t->slept = false;
        t->runahead = 0;
        t->wait_what = NULL;
        t->wait_index = 0;
        t->seq = 0;
        memset(&t->fence, 0, sizeof t->fence);
        t->npending = t->nfloor = t->stale_run = 0;
        t->stale_addr = 0;
        t->wait = 0;
        if (model_L.xstate_bytes) {
            if (t->xcap < model_L.xstate_bytes) {
                void *x = realloc(t->pub.xstate, model_L.xstate_bytes);
                if (!x)
                    return SL_ERR_NOMEM;
                t->pub.xstate = x;
                t->xcap = model_L.xstate_bytes;
            }
            memset(t->pub.xstate, 0, model_L.xstate_bytes);
        }
        model_fiber_reset(t->fiber, thread_main, t);
    }
    model_nbar_start(b);
    model_L.started++;
    model_L.progress++;
    return SL_OK;
}

static void block_retire(mblock *b)
{
    if (b->active && b->id_read)
        model_L.id_read = true;
    if (b->crew)
        crew_release(b->crew);
    b->crew = NULL;
    b->th = NULL;
    b->active = false;
}

static void barrier_divergence(mblock *b, const mthread *x, const mthread *y)
{
    model_finding f;
    memset(&f, 0, sizeof f);
    f.kind = MODEL_FIND_BARRIER_DIVERGENCE;
    f.site[0] = x->park_site;
    f.site[1] = y->park_site;
    f.block[0] = f.block[1] = b->lin;
    f.thread[0] = x->lin;
    f.thread[1] = y->lin;
    f.interval = b->epoch;
    if (y->park_site)
        snprintf(f.text, sizeof f.text,
                 "barrier divergence in block %u, interval %u: thread %u waits at %s:%d, thread %u at %s:%d",
                 b->lin, b->epoch, x->lin, x->park_site->file, x->park_site->line, y->lin,
                 y->park_site->file, y->park_site->line);
    else
        snprintf(f.text, sizeof f.text,
                 "barrier divergence in block %u, interval %u: thread %u waits at %s:%d, thread %u has exited",
                 b->lin, b->epoch, x->lin, x->park_site->file, x->park_site->line, y->lin);
    model_fail(NULL, &f, SL_ERR_SIM);
}

/* Runs the ready lanes of warp w in lane order, each until it parks: the
 * host starts the first and each lane passes on to the next; returns
 * whether any ran. */
static bool run_warp(mblock *b, unsigned w)
{
    unsigned lo = w * MODEL_WARP_SIZE, hi = lo + MODEL_WARP_SIZE;
    if (hi > b->nth)
        hi = b->nth;
    if (model_L.explore) {
        /* threads of an interval run in a fresh random order each sweep */
        for (unsigned k = lo; k < hi; k++)
            b->order[k] = k;
        for (unsigned k = hi - lo; k > 1; k--) {
            unsigned j = lo + (unsigned)model_rand_below(k), tmp = b->order[lo + k - 1];
            b->order[lo + k - 1] = b->order[j];
            b->order[j] = tmp;
        }
        for (unsigned k = lo; k < hi; k++)
            b->rank[b->order[k]] = k;
    }
    for (unsigned k = lo; k < hi; k++) {
        const unsigned i = model_L.explore ? b->order[k] : k;
        mthread *t = &b->th[i];
        if (t->state != TS_READY)
            continue;
        b->run_end = hi;
        t->ran = true;
        model_cur = &t->pub;
        model_fiber_run(t->fiber);
        model_cur = NULL;
        return true;
    }
    return false;
}

/* Runs block b until none of its threads can move; returns true when the
 * block has finished. */
static bool block_step(mblock *b)
{
    unsigned worder[MODEL_MAX_BLOCK_THREADS / MODEL_WARP_SIZE];
    for (;;) {
        /* warps in order, or in a fresh random order each sweep */
        for (unsigned k = 0; k < b->nwarps; k++)
            worder[k] = k;
        if (model_L.explore)
            for (unsigned k = b->nwarps; k > 1; k--) {
                unsigned j = (unsigned)model_rand_below(k), tmp = worder[k - 1];
                worder[k - 1] = worder[j];
                worder[j] = tmp;
            }
        for (unsigned k = 0; k < b->nwarps; k++) {
            const unsigned w = worder[k];
            if (!run_warp(b, w))
                continue;
            if (model_L.abort)
                return false;
            if (model_L.accounting)
                model_warp_flush(b, w);
        }
        bool resolved = false;
        if (b->nwarpop)
            for (unsigned w = 0; w < b->nwarps; w++)
                resolved |= resolve_warp(b, w);
        if (resolved)
            continue;
        if (b->nb_released) { /* a named barrier's round let threads of a warp already run go on */
            b->nb_released = false;
            continue;
        }
        if (b->nbar == 0 || b->nwarpop || b->nspin)
            return b->nexited == b->nth;
        if (b->bar_other || b->nexited || b->nb_waiting) {
            /* name the pair in thread order: the first thread at a
             * barrier, and the first at another one or exited */
            const mthread *first = NULL, *other = NULL, *exited = NULL;
            for (unsigned i = 0; i < b->nth; i++) {
                const mthread *t = &b->th[i];
                if (t->state == TS_BAR) {
                    if (!first)
                        first = t;
                    else if (t->park_site != first->park_site && !other)
                        other = t;
                } else if (t->state == TS_NBAR && !other) {
                    other = t; /* at a named barrier */
                } else if (t->state == TS_EXIT && !exited) {
                    exited = t;
                }
            }
            barrier_divergence(b, first, other ? other : exited);
            return false;
        }
        close_interval(b);
        b->barriers++;
        b->epoch++;
        b->stamp = next_stamp();
        for (unsigned w = 0; w < b->nwarps; w++)
            b->wsync[w]++;
        for (unsigned i = 0; i < b->nth; i++) {
            b->th[i].state = TS_READY;
            b->th[i].seq = 0;
        }
        b->nbar = 0;
        b->bar_first = b->bar_other = NULL;
        model_L.progress++;
    }
}

/* ---- snapshots (the schedule search) ------------------------------------ */
/* Shared memory a snapshot of an active block holds: what it allocated or
 * may have written (beyond, the arena is zero). */
static size_t smem_extent(const mblock *b) { return b->smem_dirty > b->smem_used ? b->smem_dirty : b->smem_used; }

void model_sched_save(model_snap *s, unsigned nres)
{
    model_snap_put(s, &model_L, sizeof model_L);
    model_snap_put(s, &model_stamp, sizeof model_stamp);
    model_snap_put(s, &free_crews, sizeof free_crews);
    for (const mcrew *c = all_crews; c; c = c->all_next)
        model_snap_put(s, &c->next, sizeof c->next);
    for (unsigned i = 0; i < nres; i++) {
        const mblock *b = &slots[i].b;
        model_snap_put(s, b, sizeof *b);
        if (!b->active)
            continue;
        model_snap_put(s, b->wsync, b->nwarps * sizeof *b->wsync);
        model_snap_put(s, b->smem, smem_extent(b));
        model_snap_put(s, b->sallocs, b->nsallocs * sizeof *b->sallocs);
        model_snap_put(s, b->th, b->nth * sizeof *b->th);
        for (unsigned k = 0; k < b->nth; k++) {
            if (model_L.xstate_bytes)
                model_snap_put(s, b->th[k].pub.xstate, model_L.xstate_bytes);
            const size_t n = model_fiber_saved_size(b->th[k].fiber);
            model_snap_put(s, &n, sizeof n);
            void *d = model_snap_room(s, n);
            if (d)
                model_fiber_save(b->th[k].fiber, d);
        }
    }
}

void model_sched_restore(const unsigned char **cur, unsigned nres)
{
    model_snap_get(cur, &model_L, sizeof model_L);
    model_snap_get(cur, &model_stamp, sizeof model_stamp);
    model_snap_get(cur, &free_crews, sizeof free_crews);
    for (mcrew *c = all_crews; c; c = c->all_next)
        model_snap_get(cur, &c->next, sizeof c->next);
    for (unsigned i = 0; i < nres; i++) {
        mblock *b = &slots[i].b;
        /* the static shared allocations' table may have grown (moved)
         * since: keep the one in use, put its entries back */
        malloc_t *const sallocs = b->sallocs;
        const unsigned capsallocs = b->capsallocs;
        const size_t dirty_now = b->smem_dirty;
        model_snap_get(cur, b, sizeof *b);
        b->sallocs = sallocs;
        b->capsallocs = capsallocs;
        if (!b->active) {
            /* the next block started here zeroes what any path wrote */
            if (dirty_now > b->smem_dirty)
                b->smem_dirty = dirty_now;
            continue;
        }
        model_snap_get(cur, b->wsync, b->nwarps * sizeof *b->wsync);
        const size_t ext = smem_extent(b);
        model_snap_get(cur, b->smem, ext);
        if (dirty_now > ext)
            memset(b->smem + ext, 0, dirty_now - ext);
        model_snap_get(cur, b->sallocs, b->nsallocs * sizeof *b->sallocs);
        model_snap_get(cur, b->th, b->nth * sizeof *b->th);
        for (unsigned k = 0; k < b->nth; k++) {
            if (model_L.xstate_bytes)
                model_snap_get(cur, b->th[k].pub.xstate, model_L.xstate_bytes);
            size_t n;
            model_snap_get(cur, &n, sizeof n);
            model_fiber_restore(b->th[k].fiber, *cur, n);
            *cur += n;
        }
    }
}

mblock *model_slot(unsigned i) { return &slots[i].b; }

sl_status model_slot_start(unsigned i, unsigned lin) { return block_start(&slots[i], lin); }

/* ---- the launch ----------------------------------------------------------- */
static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

uint64_t model_rand(void) { return splitmix64(&model_L.rng); }

unsigned model_occupancy(unsigned fallback)
{
    model_stats *s = model_current();
    s->occupancy_asked = true;
    if (s->cfg.occupancy)
        return s->cfg.occupancy;
    if (s->cfg.persistent && !s->cfg.huge_n && fallback > MODEL_PERSISTENT_FROM) {
        s->persistent_grid = fallback / 2;
        return fallback / 2;
    }
    /* a huge run: a grid-stride kernel gets a block per tile, so that the
     * blocks around the chosen elements can run alone */
    return s->cfg.huge_n ? MODEL_HUGE_OCCUPANCY : fallback;
}

unsigned model_occupancy_of(unsigned block, size_t dyn_shared, unsigned fallback)
{
    model_stats *s = model_current();
    const model_device *d = s->cfg.occupancy_device;
    if (d && !s->cfg.occupancy && !s->cfg.huge_n) {
        s->occupancy_asked = true;
        return (unsigned)model_time_resident_blocks(d, block, dyn_shared);
    }
    return model_occupancy(fallback);
}

unsigned model_fixed_grid(unsigned blocks)
{
    model_current()->fixed_grid_asked = blocks;
    return blocks;
}

uint64_t model_rand_below(uint64_t n)
{
    /* a chooser runs one thread a turn: lane, warp and dispatch orders
     * are fixed (model/choice.h) */
    return model_chooser_now ? 0 : model_rand() % n;
}

static void fill_order(unsigned *order, unsigned n, const model_config *c)
{
    for (unsigned i = 0; i < n; i++)
        order[i] = c->order == MODEL_ORDER_REVERSED ? n - 1 - i : i;
    if (c->order == MODEL_ORDER_RANDOM) {
        uint64_t x = c->seed;
        for (unsigned i = n; i > 1; i--) {
            unsigned j = (unsigned)(splitmix64(&x) % i);
            unsigned tmp = order[i - 1];
            order[i - 1] = order[j];
            order[j] = tmp;
        }
    }
}

static sl_status refuse(const char *fmt, unsigned long long a, unsigned long long b)
{
    model_finding f;
    memset(&f, 0, sizeof f);
    f.kind = MODEL_FIND_LIMIT;
    snprintf(f.text, sizeof f.text, fmt, a, b);
    model_L.abort = false;
    record_error(&f, SL_ERR_ARG);
    model_L.abort = false;
    return SL_ERR_ARG;
}

static void deadlock(const unsigned *order, unsigned nblocks, unsigned nres, bool livelock)
{
    model_finding f;
    memset(&f, 0, sizeof f);
    f.kind = MODEL_FIND_DEADLOCK;
    char ord[160] = "";
    for (unsigned i = 0; i < nblocks && i < ORDER_SHOWN; i++)
        snprintf(ord + strlen(ord), sizeof ord - strlen(ord), "%s%u", i ? "," : "", order[i]);
    if (nblocks > ORDER_SHOWN)
        snprintf(ord + strlen(ord), sizeof ord - strlen(ord), ",...");
    const mthread *w = NULL;
    for (unsigned s = 0; s < nres && !w; s++)
        if (slots[s].b.active)
            for (unsigned i = 0; i < slots[s].b.nth && !w; i++)
                if (slots[s].b.th[i].state != TS_EXIT)
                    w = &slots[s].b.th[i];
    if (w) {
        f.site[0] = w->park_site;
        f.block[0] = w->blk->lin;
        f.thread[0] = w->lin;
        f.addr = w->state == TS_SPIN ? w->spin_addr : 0;
    }
    int len = snprintf(f.text, sizeof f.text, "%s with %u residency slots, dispatch order %s",
                       livelock ? "no progress (livelock)" : "deadlock", nres, ord);
    if (w && w->park_site && len > 0 && (size_t)len < sizeof f.text)
        snprintf(f.text + len, sizeof f.text - (size_t)len, ": block %u thread %u waits %s %s:%d%s%#lx",
                 w->blk->lin, w->lin, w->state == TS_BAR || w->state == TS_NBAR ? "at barrier" : "at",
                 w->park_site->file, w->park_site->line, w->state == TS_SPIN ? " on address " : "",
                 w->state == TS_SPIN ? (unsigned long)w->spin_addr : 0ul);
    model_fail(NULL, &f, SL_ERR_SIM);
}

/* A huge grid whose blocks wait for blocks it skipped (the look-back of a
 * single-pass scan): not a deadlock of the kernel, but the end of what the
 * run can check. */
static void huge_stall(model_stats *s)
{
    const mthread *w = NULL;
    for (unsigned k = 0; k < nslots && !w; k++)
        if (slots[k].b.active)
            for (unsigned i = 0; i < slots[k].b.nth && !w; i++)
                if (slots[k].b.th[i].state != TS_EXIT)
                    w = &slots[k].b.th[i];
    s->huge_unchecked |= MODEL_HUGE_WAITS;
    if (w && w->park_site)
        snprintf(s->huge_wait, sizeof s->huge_wait, "block %u waits at %s:%d", w->blk->lin, w->park_site->file,
                 w->park_site->line);
}

static sl_status ensure_slots(unsigned n, unsigned nth)
{
    if (n > nslots) {
        mslot *s = realloc(slots, n * sizeof *s);
        if (!s)
            return SL_ERR_NOMEM;
        memset(s + nslots, 0, (n - nslots) * sizeof *s);
        slots = s;
        nslots = n;
    }
    for (unsigned i = 0; i < n; i++) {
        sl_status st = slot_prepare(&slots[i], nth);
        if (st != SL_OK)
            return st;
    }
    if (model_stamp >= STAMP_RESTART) {
        model_shadow_clear_all();
        for (unsigned i = 0; i < nslots; i++)
            if (slots[i].b.sshadow)
                memset(slots[i].b.sshadow, 0, MODEL_MAX_SHARED_LIMIT / 4 * sizeof *slots[i].b.sshadow);
        model_stamp = 0;
    }
    return SL_OK;
}

/* One turn of block b: its parked spinners and yielders go on, and it runs
 * until none of its threads can move; a finished block is retired and
 * counted. Returns whether it finished. */
bool model_take_turn(mblock *b, uint64_t *launch_steps, model_stats *s)
{
    if (b->nspin && !model_chooser_now) { /* a chooser wakes the one thread it picked */
        for (unsigned k = 0; k < b->nth; k++)
            if (b->th[k].state == TS_SPIN || b->th[k].state == TS_YIELD)
                b->th[k].state = TS_READY;
        b->nspin = 0;
    }
    model_L.turns++;
    bool fin = block_step(b);
    if (model_L.abort || !fin)
        return false;
    close_interval(b);
    if (b->steps > *launch_steps)
        *launch_steps = b->steps;
    if (b->load_rounds > s->launch_acc.load_rounds)
        s->launch_acc.load_rounds = b->load_rounds;
    if (b->own_steps > s->launch_acc.own_steps)
        s->launch_acc.own_steps = b->own_steps;
    s->barriers += b->barriers;
    s->work += b->work;
    s->blocks++;
    s->threads += b->nth;
    block_retire(b);
    model_L.progress++;
    return true;
}

/* The default schedule: resident blocks take turns in slot order. */
static sl_status run_grid(const unsigned *order, unsigned nblocks, unsigned nres, uint64_t *launch_steps,
                          model_stats *s)
{
    unsigned next = 0, done = 0;
    uint64_t idle_rounds = 0;
    for (unsigned i = 0; i < nres; i++)
        block_retire(&slots[i].b);
    while (done < nblocks) {
        uint64_t p0 = model_L.progress, w0 = model_L.weak_progress;
        /* A free slot takes the next block just before its turn, so that
         * a block finished in one turn hands its warm crew to the next. */
        for (unsigned i = 0; i < nres; i++) {
            mblock *b = &slots[i].b;
            if (!b->active) {
                if (next >= nblocks)
                    continue;
                sl_status st = block_start(&slots[i], order[next++]);
                if (st != SL_OK)
                    return st;
            }
            done += model_take_turn(b, launch_steps, s);
            if (model_L.abort)
                return model_L.abort_status;
        }
        if (model_L.progress != p0)
            idle_rounds = 0;
        else if (model_L.weak_progress == w0 || ++idle_rounds > MODEL_LIVELOCK_ROUNDS) {
            if (nblocks < model_L.nblocks) {
                huge_stall(s);
                return SL_ERR_UNSUPPORTED;
            }
            deadlock(order, nblocks, nres, model_L.weak_progress != w0);
            return SL_ERR_SIM;
        }
    }
    return SL_OK;
}

/* Turns a PCT schedule is assumed to last, per block (the k of its bound). */
#define PCT_TURNS_PER_BLOCK 16

/* An explored schedule (model_config.schedule): each turn goes to one
 * resident block, chosen at random among those whose last turn changed
 * something, or (pct_depth = d > 0) the one of highest priority, as in
 * probabilistic concurrency testing: random distinct priorities at
 * dispatch, and at d - 1 random turns the running block drops below every
 * other. When every resident block is stalled, each gets one more turn, and
 * a round without progress is a deadlock, as in the default schedule. */
static sl_status run_grid_explored(const unsigned *order, unsigned nblocks, unsigned nres,
                                   uint64_t *launch_steps, model_stats *s)
{
    const model_config *c = &s->cfg;
    const unsigned d = c->pct_depth;
    uint64_t change[64];
    unsigned nchange = 0;
    const uint64_t k = (uint64_t)nblocks * PCT_TURNS_PER_BLOCK + 1;
    for (unsigned i = 1; i < d && nchange < 64; i++)
        change[nchange++] = 1 + model_rand_below(k);
    unsigned next = 0, done = 0;
    uint64_t idle_rounds = 0;
    for (unsigned i = 0; i < nres; i++)
        block_retire(&slots[i].b);
    while (done < nblocks) {
        for (unsigned i = 0; i < nres; i++) {
            mblock *b = &slots[i].b;
            if (!b->active && next < nblocks) {
                sl_status st = block_start(&slots[i], order[next++]);
                if (st != SL_OK)
                    return st;
                b->prio = d + (model_rand() >> 16); /* above every changed one */
                b->stalled = false;
            }
        }
        /* the block to run */
        mblock *pick = NULL;
        unsigned live = 0, candidates = 0;
        for (unsigned i = 0; i < nres; i++) {
            mblock *b = &slots[i].b;
            if (!b->active)
                continue;
            live++;
            if (b->stalled)
                continue;
            candidates++;
            if (d ? (!pick || b->prio > pick->prio) : model_rand_below(candidates) == 0)
                pick = b;
        }
        if (live == 0)
            break;
        if (!pick) {
            /* every resident block stalled: a round of turns decides */
            uint64_t p0 = model_L.progress, w0 = model_L.weak_progress;
            for (unsigned i = 0; i < nres; i++)
                if (slots[i].b.active) {
                    done += model_take_turn(&slots[i].b, launch_steps, s);
                    if (model_L.abort)
                        return model_L.abort_status;
                }
            if (model_L.progress != p0) {
                idle_rounds = 0;
                for (unsigned i = 0; i < nres; i++)
                    slots[i].b.stalled = false;
            } else if (model_L.weak_progress == w0 || ++idle_rounds > MODEL_LIVELOCK_ROUNDS) {
                deadlock(order, nblocks, nres, model_L.weak_progress != w0);
                return SL_ERR_SIM;
            }
            continue;
        }
        uint64_t p0 = model_L.progress;
        done += model_take_turn(pick, launch_steps, s);
        if (model_L.abort)
            return model_L.abort_status;
        if (model_L.progress == p0) {
            pick->stalled = true;
        } else {
            for (unsigned i = 0; i < nres; i++)
                slots[i].b.stalled = false;
        }
        for (unsigned i = 0; i < nchange; i++)
            if (change[i] == model_L.turns)
                pick->prio = d - 1 - i;
    }
    return SL_OK;
}

/* Huge grids: the blocks around each chosen element (0, n - 1 and
 * huge_at[]), at its share of the grid, one on each side, in increasing
 * order without repeats. */
static unsigned huge_max_blocks(void) { return 3 * (2 + 4); }

static unsigned huge_blocks(unsigned *order, unsigned nb, const model_config *c)
{
    uint64_t at[6];
    unsigned nat = 0, k = 0;
    at[nat++] = 0;
    at[nat++] = c->huge_n - 1;
    for (unsigned i = 0; i < c->nhuge_at && i < 4; i++)
        if (c->huge_at[i] < c->huge_n)
            at[nat++] = c->huge_at[i];
    for (unsigned i = 0; i < nat; i++) {
        const uint64_t b = (uint64_t)((unsigned __int128)at[i] * nb / c->huge_n);
        for (int d = -1; d <= 1; d++) {
            if ((d < 0 && b == 0) || b + (uint64_t)(d + 1) > nb)
                continue;
            const unsigned x = (unsigned)((int64_t)b + d);
            bool dup = false;
            for (unsigned j = 0; j < k; j++)
                dup |= order[j] == x;
            if (!dup)
                order[k++] = x;
        }
    }
    for (unsigned i = 1; i < k; i++) /* increasing: blocks start in order */
        for (unsigned j = i; j > 0 && order[j - 1] > order[j]; j--) {
            const unsigned tmp = order[j];
            order[j] = order[j - 1];
            order[j - 1] = tmp;
        }
    return k;
}

static sl_status launch(const sl_launch *cfg, model_entry entry, const void *args, const char *name,
                        bool accounting, size_t xstate_bytes)
{
    model_stats *s = model_current();
    const model_config *c = &s->cfg;
    memset(&model_L, 0, sizeof model_L);
    model_L.stats = s;
    /* a schedule search counts nothing and checks no races (the run
     * before it did): its states are memory and where threads wait */
    model_L.accounting = accounting && !model_search_active();
    /* nor does it order events or keep store histories: its loads see the
     * newest store */
    model_L.ordering = !model_search_active();
    /* an explored schedule: its own random stream for every launch */
    model_L.explore = c->schedule != 0;
    model_L.rng = c->schedule ^ (s->launches + 1) * UINT64_C(0xd1342543de82ef95);
    size_t limit = c->shared_limit ? c->shared_limit : MODEL_DEFAULT_SHARED_LIMIT;
    if (limit > MODEL_MAX_SHARED_LIMIT)
        limit = MODEL_MAX_SHARED_LIMIT;
    unsigned long long nth = (unsigned long long)cfg->block.x * cfg->block.y * cfg->block.z;
    unsigned long long nb = (unsigned long long)cfg->grid.x * cfg->grid.y * cfg->grid.z;
    if (nth == 0 || nth > MODEL_MAX_BLOCK_THREADS)
        return refuse("launch refused: %llu threads per block (limit %llu)", nth, MODEL_MAX_BLOCK_THREADS);
    /* a huge run checks every access of every launch; a launch of many
     * blocks runs only the chosen ones */
    const bool huge = c->huge_n > 0 && nb > MODEL_HUGE_MIN_BLOCKS;
    if (nb == 0 || (!huge && nb * nth > UINT32_MAX - 1))
        return refuse("launch refused: %llu blocks of %llu threads", nb, nth);
    if (cfg->shmem > limit)
        return refuse("launch refused: %llu bytes of dynamic shared memory (limit %llu)", cfg->shmem, limit);
    model_L.entry = entry;
    model_L.args = args;
    model_L.xstate_bytes = xstate_bytes;
    model_L.grid = cfg->grid;
    model_L.block = cfg->block;
    model_L.shmem = cfg->shmem;
    model_L.shared_limit = limit;
    model_L.nth = (unsigned)nth;
    model_L.nblocks = (unsigned)nb;
    unsigned nres = c->slots ? c->slots : MODEL_DEFAULT_SLOTS;
    /* several devices: each holds its own grid at once, which the slots
     * of one device must cover (per-device dispatch is not modelled) */
    model_L.blocks_per_device = 0;
    if (launch_bpd) {
        if (nb % launch_bpd != 0 || launch_bpd > nres)
            return refuse("launch refused: %llu blocks on devices of %llu blocks each (not a multiple, or more "
                          "than the residency slots)", nb, launch_bpd);
        model_L.blocks_per_device = launch_bpd;
        nres = (unsigned)nb;
    }
    if (nres > nb)
        nres = (unsigned)nb;
    model_L.huge = c->huge_n > 0;
    unsigned *order = malloc((huge ? huge_max_blocks() : nb) * sizeof *order);
    sl_status st = order ? ensure_slots(nres, (unsigned)nth) : SL_ERR_NOMEM;
    if (st == SL_OK && accounting)
        st = model_shadow_prepare();
    model_L.stamp0 = model_stamp + 1; /* after a restart of the counter */
    model_hb_reset();
    model_weak_reset();
    model_shadow_sets_reset();
    uint64_t steps = 0, work0 = s->work, bar0 = s->barriers;
    unsigned nrun = (unsigned)nb;
    if (st == SL_OK && huge) {
        nrun = huge_blocks(order, (unsigned)nb, c);
        s->skipped_blocks += nb - nrun;
        if (nres > nrun)
            nres = nrun;
    }
    if (st == SL_OK && huge) {
        st = run_grid(order, nrun, nres, &steps, s);
        /* blocks that never read blockIdx take their tiles from a counter:
         * the few run took the first tiles, not the chosen ones */
        if (st == SL_OK && !model_L.id_read)
            s->huge_unchecked |= MODEL_HUGE_DYNAMIC_IDS;
    } else if (st == SL_OK) {
        fill_order(order, (unsigned)nb, c);
        if (model_L.explore && !c->keep_order)
            for (unsigned i = (unsigned)nb; i > 1; i--) {
                unsigned j = (unsigned)model_rand_below(i), tmp = order[i - 1];
                order[i - 1] = order[j];
                order[j] = tmp;
            }
        if (model_search_active()) {
            for (unsigned i = 0; i < nres; i++)
                block_retire(&slots[i].b);
            st = model_search_grid((unsigned)nb, nres, &steps, s);
        } else {
            if (model_L.explore && model_chooser_now)
                st = nres == nb ? model_run_chosen((unsigned)nb, &steps, s) : SL_ERR_ARG;
            else
                st = model_L.explore ? run_grid_explored(order, (unsigned)nb, nres, &steps, s)
                                     : run_grid(order, (unsigned)nb, nres, &steps, s);
        }
    }
    free(order);
    s->launches++;
    s->steps += steps;
    if (s->nlaunch_records < MODEL_MAX_LAUNCH_RECORDS) {
        model_launch_stats *ls = &s->launch[s->nlaunch_records++];
        ls->name = name;
        ls->role = launch_role;
        ls->blocks = (unsigned)nb;
        ls->threads_per_block = (unsigned)nth;
        ls->work = s->work - work0;
        ls->steps = steps;
        ls->barriers = s->barriers - bar0;
        ls->reads_block_idx = model_L.id_read;
        ls->occupancy_grid = s->occupancy_asked;
        ls->fixed_grid = s->fixed_grid_asked;
        ls->dyn_shared = cfg->shmem;
        ls->c = s->launch_acc;
    }
    memset(&s->launch_acc, 0, sizeof s->launch_acc);
    for (unsigned i = 0; i < nres && i < nslots; i++)
        block_retire(&slots[i].b);
    if (!crews_intact() && st == SL_OK) {
        model_finding f;
        memset(&f, 0, sizeof f);
        f.kind = MODEL_FIND_LIMIT;
        snprintf(f.text, sizeof f.text,
                 "a simulated thread of %s overflowed its stack (large local arrays belong in shared memory)",
                 name);
        record_error(&f, SL_ERR_SIM);
        st = SL_ERR_SIM;
    }
    model_L.abort = false;
    return st;
}

bool (*model_launch_redirect)(const sl_launch *cfg, const char *name, const void *const *args, unsigned nargs,
                              sl_status *st);

sl_status model_launch(const sl_launch *cfg, model_entry entry, const void *args, const char *name)
{
    return launch(cfg, entry, args, name, true, 0);
}

sl_status model_launch_state(const sl_launch *cfg, model_entry entry, const void *args, const char *name,
                             size_t xstate_bytes)
{
    return launch(cfg, entry, args, name, true, xstate_bytes);
}

sl_status model_launch_plain(const sl_launch *cfg, model_entry entry, const void *args, const char *name)
{
    return launch(cfg, entry, args, name, false, 0);
}
