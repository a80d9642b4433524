/* Every execution of a litmus test that the simulator's memory model
 * allows (docs/memory-model.md, "Litmus tests").
 *
 * The test's kernel runs with a chooser (model/choice.h): each turn one
 * parked thread, picked by the chooser, performs the event it stopped at
 * (a global store, a strong load, an atomic, a fence; plain loads and
 * local work run on with it up to its next such event), and each strong
 * load asks which of the stores the model allows it returns. The
 * explorer walks the tree of answers depth first, replaying the launch
 * from the start for every path.
 *
 * Sleep sets (Godefroid, 1996) keep one execution of each class of
 * executions that differ only in the order of independent turns: turns of
 * different threads whose events touch no common location (or only read
 * it), no common barrier and not both an SC fence. A thread explored at a
 * choice sleeps in the siblings after it, and in their subtrees, until a
 * turn dependent on its turn runs; a path whose every parked thread sleeps
 * is cut (pruned). The events of a turn are learnt by running it; a turn
 * whose events differ with the values its loads returned keeps the union. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/choice.h"
#include "model/litmus/litmus.h"
#include "model/model.h"
#include "model/ptx/run.h"
#include "model/rt.h"

#define MAX_FP 24

typedef struct {
    uint32_t tid;
    uintptr_t addr;
    uint8_t what;
} fp_ev;

typedef struct {
    fp_ev ev[MAX_FP];
    unsigned n;
    bool overflow; /* more events than kept: dependent on every turn */
} footprint;

typedef struct {
    uint8_t kind;
    unsigned n, cur;
    /* MODEL_CHOICE_THREAD */
    uint32_t who[LIT_MAX_THREADS];
    uint32_t done; /* options (by index) whose subtrees are explored */
    footprint fp[LIT_MAX_THREADS];
    unsigned nsleep;
    uint32_t sleep_tid[LIT_MAX_THREADS];
    footprint sleep_fp[LIT_MAX_THREADS];
} node;

typedef struct {
    node *nodes;
    size_t n, cap;
    size_t depth;     /* replay: the next node */
    long thread_node; /* the current turn's node, or -1 */
    unsigned turns, max_turns;
    bool stop_sleep, stop_bound, diverged;
} explorer;

static bool conflict(const fp_ev *x, const fp_ev *y)
{
    if (x->what == MODEL_EV_FENCE_SC && y->what == MODEL_EV_FENCE_SC)
        return true;
    if (x->what == MODEL_EV_FENCE_SC || y->what == MODEL_EV_FENCE_SC || x->addr != y->addr)
        return false;
    return x->what != MODEL_EV_READ || y->what != MODEL_EV_READ;
}

/* Whether thread a's turn with footprint fa and thread b's with fb commute. */
static bool independent(uint32_t a, const footprint *fa, uint32_t b, const footprint *fb)
{
    if (a == b || fa->overflow || fb->overflow)
        return false;
    for (unsigned i = 0; i < fa->n; i++) {
        if (fa->ev[i].tid == b)
            return false;
        for (unsigned j = 0; j < fb->n; j++)
            if (fb->ev[j].tid == a || conflict(&fa->ev[i], &fb->ev[j]))
                return false;
    }
    for (unsigned j = 0; j < fb->n; j++)
        if (fb->ev[j].tid == a)
            return false;
    return true;
}

static bool asleep(const node *nd, uint32_t tid)
{
    for (unsigned k = 0; k < nd->nsleep; k++)
        if (nd->sleep_tid[k] == tid)
            return true;
    return false;
}

static void add_sleep(node *nd, uint32_t tid, const footprint *fp)
{
    if (asleep(nd, tid) || nd->nsleep == LIT_MAX_THREADS)
        return;
    nd->sleep_tid[nd->nsleep] = tid;
    nd->sleep_fp[nd->nsleep++] = *fp;
}

static unsigned choose(void *ctx, int kind, unsigned n, const uint32_t *who)
{
    explorer *E = ctx;
    if (E->depth < E->n) {
        node *nd = &E->nodes[E->depth];
        if (nd->kind != kind || nd->n != n) {
            E->diverged = true; /* the replay went another way: the launch is not deterministic */
            return MODEL_CHOICE_STOP;
        }
        if (kind == MODEL_CHOICE_THREAD) {
            E->thread_node = (long)E->depth;
            E->turns++;
        }
        E->depth++;
        return nd->cur;
    }
    if (kind == MODEL_CHOICE_THREAD && E->turns >= E->max_turns) {
        E->stop_bound = true;
        return MODEL_CHOICE_STOP;
    }
    if (kind == MODEL_CHOICE_THREAD && n > LIT_MAX_THREADS) {
        E->diverged = true;
        return MODEL_CHOICE_STOP;
    }
    if (E->n == E->cap) {
        size_t cap = E->cap ? 2 * E->cap : 64;
        node *nn = realloc(E->nodes, cap * sizeof *nn);
        if (!nn) {
            E->diverged = true;
            return MODEL_CHOICE_STOP;
        }
        E->nodes = nn;
        E->cap = cap;
    }
    node *nd = &E->nodes[E->n];
    memset(nd, 0, sizeof *nd);
    nd->kind = (uint8_t)kind;
    nd->n = n;
    if (kind != MODEL_CHOICE_THREAD) {
        E->n++;
        E->depth++;
        return 0;
    }
    memcpy(nd->who, who, n * sizeof *who);
    if (E->thread_node >= 0) {
        /* what slept at the turn before, and the threads explored there
         * before it, sleep on here unless that turn depends on theirs */
        const node *p = &E->nodes[E->thread_node];
        const uint32_t a = p->who[p->cur];
        const footprint *fa = &p->fp[p->cur];
        for (unsigned k = 0; k < p->nsleep; k++)
            if (independent(a, fa, p->sleep_tid[k], &p->sleep_fp[k]))
                add_sleep(nd, p->sleep_tid[k], &p->sleep_fp[k]);
        for (unsigned j = 0; j < p->n; j++)
            if ((p->done >> j & 1) && independent(a, fa, p->who[j], &p->fp[j]))
                add_sleep(nd, p->who[j], &p->fp[j]);
    }
    unsigned first = n;
    for (unsigned i = 0; i < n && first == n; i++)
        if (!asleep(nd, who[i]))
            first = i;
    if (first == n) {
        E->stop_sleep = true;
        return MODEL_CHOICE_STOP;
    }
    nd->cur = first;
    E->thread_node = (long)E->n;
    E->turns++;
    E->n++;
    E->depth++;
    return first;
}

static void event(void *ctx, uint32_t tid, uintptr_t addr, int what)
{
    explorer *E = ctx;
    if (E->thread_node < 0)
        return;
    node *nd = &E->nodes[E->thread_node];
    footprint *fp = &nd->fp[nd->cur];
    for (unsigned k = 0; k < fp->n; k++)
        if (fp->ev[k].tid == tid && fp->ev[k].addr == addr && fp->ev[k].what == what)
            return;
    if (fp->n == MAX_FP) {
        fp->overflow = true;
        return;
    }
    fp->ev[fp->n++] = (fp_ev){tid, addr, (uint8_t)what};
}

/* The next path: the deepest choice with an alternative left. */
static bool backtrack(explorer *E)
{
    while (E->n > 0) {
        node *nd = &E->nodes[E->n - 1];
        if (nd->kind != MODEL_CHOICE_THREAD) {
            if (nd->cur + 1 < nd->n) {
                nd->cur++;
                return true;
            }
        } else {
            nd->done |= 1u << nd->cur;
            for (unsigned i = 0; i < nd->n; i++)
                if (!(nd->done >> i & 1) && !asleep(nd, nd->who[i])) {
                    nd->cur = i;
                    return true;
                }
        }
        E->n--;
    }
    return false;
}

static void record(lit_test *t, lit_result *r, const int64_t *regs, const int64_t *locs)
{
    lit_outcome o;
    memset(&o, 0, sizeof o);
    for (unsigned k = 0; k < t->nnamed; k++) {
        const lit_term *x = &t->named[k];
        o.v[k] = (int32_t)(x->kind == LIT_T_REG ? regs[x->thread * LIT_MAX_REGS + x->index] : locs[x->index]);
    }
    o.sat = lit_eval(t, regs, locs);
    r->exists |= o.sat;
    r->all &= o.sat;
    for (unsigned i = 0; i < r->nout; i++)
        if (memcmp(r->out[i].v, o.v, t->nnamed * sizeof o.v[0]) == 0) {
            r->out[i].count++;
            return;
        }
    if (r->nout == r->capout) {
        unsigned cap = r->capout ? 2 * r->capout : 16;
        lit_outcome *n = realloc(r->out, cap * sizeof *n);
        if (!n)
            return;
        r->out = n;
        r->capout = cap;
    }
    o.count = 1;
    r->out[r->nout++] = o;
}

static int outcome_cmp(const void *a, const void *b, void *n)
{
    const lit_outcome *x = a, *y = b;
    for (unsigned k = 0; k < *(unsigned *)n; k++)
        if (x->v[k] != y->v[k])
            return x->v[k] < y->v[k] ? -1 : 1;
    return 0;
}

static unsigned sort_named;
static int outcome_cmp_q(const void *a, const void *b) { return outcome_cmp(a, b, &sort_named); }

struct ptx_module *lit_module(lit_test *t, char *err, size_t errlen)
{
    char *ptx = lit_ptx(t, err, errlen);
    if (!ptx)
        return NULL;
    ptx_module *m = model_ptx_load(ptx, strlen(ptx), t->path, err, errlen);
    free(ptx);
    return m;
}

int lit_explore(lit_test *t, unsigned max_turns, lit_result *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->all = true;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    ptx_module *m = lit_module(t, err, errlen);
    if (!m)
        return -1;
    const int entry = model_ptx_entry(m, "litmus", err, errlen);
    const size_t mem_bytes = 4 * (t->nlocs + t->nthreads), out_bytes = 4 * LIT_MAX_THREADS * LIT_MAX_REGS;
    void *mem = NULL, *out = NULL;
    if (entry < 0 || model_dev_alloc(&mem, mem_bytes) != SL_OK || model_dev_alloc(&out, out_bytes) != SL_OK) {
        if (entry >= 0)
            snprintf(err, errlen, "%s: out of memory", t->path);
        model_dev_free(mem);
        model_ptx_unload(m);
        return -1;
    }
    explorer E = {.thread_node = -1, .max_turns = max_turns};
    const model_chooser ch = {choose, event, &E};
    model_stats s;
    model_stats_init(&s);
    s.cfg.schedule = 1;
    s.cfg.slots = t->nblocks;
    s.cfg.quiet = true;
    const sl_launch cfg = {.grid = {t->nblocks, 1, 1}, .block = {t->block_threads, 1, 1}};
    const void *args[2] = {&mem, &out};
    int rc = 0;
    /* a test's GPUs are the simulator's devices: GPU scope orders the
     * threads of one only */
    const unsigned devices_before = model_launch_devices(t->blocks_per_gpu);
    model_set_chooser(&ch);
    model_begin(&s);
    do {
        uint32_t init[LIT_MAX_LOCS + LIT_MAX_THREADS] = {0};
        for (unsigned k = 0; k < t->nlocs; k++)
            init[k] = (uint32_t)t->loc_init[k];
        memcpy(mem, init, mem_bytes);
        memset(out, 0, out_bytes);
        E.depth = 0;
        E.thread_node = -1;
        E.turns = 0;
        E.stop_sleep = E.stop_bound = false;
        const uint64_t races0 = s.races;
        s.has_error = false;
        const sl_status st = model_ptx_launch(m, entry, &cfg, args, err, errlen);
        if (E.diverged) {
            snprintf(err, errlen, "%s: a replay of the test's kernel went another way (internal error)", t->path);
            rc = -1;
            break;
        }
        if (st == SL_ERR_ARG && !s.has_error) {
            rc = -1;
            break;
        }
        if (E.stop_sleep) {
            r->pruned++;
        } else if (E.stop_bound) {
            r->bounded++;
        } else if (st == SL_ERR_SIM && !s.has_error) {
            /* every thread left waits at a barrier whose round can never
             * complete: the kernel never ends (Dat3M counts such an
             * execution as none, so it is kept out of the verdict) */
            r->hangs++;
        } else if (st != SL_OK || s.has_error) {
            r->stuck++;
            if (!r->finding[0])
                snprintf(r->finding, sizeof r->finding, "%s",
                         s.has_error ? s.error.text : "the launch stopped without a finding (internal error)");
        } else {
            r->executions++;
            if (s.races != races0) {
                r->racy++;
                if (!r->finding[0] && s.races <= MODEL_MAX_REPORTS)
                    snprintf(r->finding, sizeof r->finding, "%s", s.race[s.races - 1].text);
            }
            int64_t regs[LIT_MAX_THREADS * LIT_MAX_REGS], locs[LIT_MAX_LOCS];
            for (unsigned k = 0; k < LIT_MAX_THREADS * LIT_MAX_REGS; k++)
                regs[k] = (int32_t)((const uint32_t *)out)[k];
            for (unsigned k = 0; k < t->nlocs; k++)
                locs[k] = (int32_t)((const uint32_t *)mem)[k];
            /* a register the thread never wrote keeps its initial value,
             * which the kernel stored too */
            record(t, r, regs, locs);
        }
        if (r->executions + r->pruned + r->bounded + r->stuck + r->hangs >= LIT_MAX_PATHS) {
            r->capped = true;
            break;
        }
    } while (backtrack(&E));
    model_end(SL_OK);
    model_set_chooser(NULL);
    model_launch_devices(devices_before);
    model_stats_free(&s);
    free(E.nodes);
    model_dev_free(mem);
    model_dev_free(out);
    model_ptx_unload(m);
    sort_named = t->nnamed;
    if (r->nout > 1)
        qsort(r->out, r->nout, sizeof *r->out, outcome_cmp_q);
    if (r->executions == 0 && r->hangs == 0)
        r->all = false; /* nothing ran to its end: no answer (the command says incomplete) */
    clock_gettime(CLOCK_MONOTONIC, &t1);
    r->seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    return rc;
}

void lit_result_free(lit_result *r)
{
    free(r->out);
    r->out = NULL;
    r->nout = r->capout = 0;
}
