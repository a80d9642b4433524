/* The search of block schedules under a progress model (docs/deadlock.md).
 *
 * A launch is a transition system: R residency slots, G blocks; a free slot
 * takes a pending block (which one: the model's choice), and a resident
 * block takes a turn (it runs until none of its threads can move: each is
 * parked at a strong load, an atomic, a barrier or its end). A state is
 * which blocks are pending, resident or finished, where every thread of a
 * resident block is parked (call site and polled address), and the bytes
 * of device and shared memory; registers are not part of it, so a thread
 * that polls the same word again and reads the same value is back in the
 * same state. A turn that leaves the state as it was is a block that cannot
 * progress alone (a spin on memory no running thread changes).
 *
 * A state is stuck when the model lets nothing progress from it: under
 * obe, lobe and fair every resident block is stuck alone and no slot can
 * take a pending block; under hsa the lowest-numbered unfinished block is.
 *
 * Exhaustive search is depth-first over the real kernel: at a state with k
 * choices it takes a snapshot of the launch, explores the first k - 1
 * choices one after another, putting the snapshot back after each, and
 * takes the last in place (grid_in_process); builds whose fibers cannot be
 * put back (AddressSanitizer's) fork k - 1 children instead, each taking
 * one choice (grid_exhaustive), which explores the same states. States
 * already seen at no smaller depth end a path (a table of state hashes
 * shared with forked processes), so schedules that differ only in the
 * order of independent turns meet in one state and are explored once.
 * Sampling takes random choices instead, one run per sample.
 *
 * What an exhaustive search answers does not depend on the order in which
 * it explores: the states are the reachable ones, the schedules the
 * distinct transitions that end one, the deadlock's depth the least of any
 * stuck state, and its trace the first in the order of choices among the
 * shortest, found by a second, bounded pass (trace_pass). So a search split
 * over ranks (model_search_hooks: each explores the subtrees below a split
 * depth that hash to it, and the tables are exchanged) answers what one
 * process does. */
#include <errno.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

/* 2^22: lookback at G = 10 under fair has about 1.1 million states; the
 * table (twice as many slots of 16 bytes) is reserved, not committed, so a
 * small search touches a few pages of it. */
#define DEFAULT_MAX_STATES (UINT64_C(1) << 22)
#define MAX_DEPTH (1u << 16)
/* Entries waiting for the hooks to send them (16 bytes each). */
#define OUTBOX_CAP (1u << 16)
/* The root process calls the exchange hook after this many states. */
#define EXCHANGE_EVERY 64
/* A split of the tree over ranks aims at this many subtrees a rank, so
 * that the rank a hash names evens out over subtrees of unequal size. */
#define SUBTREES_PER_RANK 16
/* Table slots of the bounded passes that choose the split depth (a MiB). */
#define WIDTH_PASS_CAP (1u << 16)

typedef struct {
    uint64_t hash;
    uint32_t depth, used; /* used: 0, MODEL_SEARCH_STATE or MODEL_SEARCH_END */
} vslot;

/* What the processes of one exhaustive search share. */
typedef struct {
    atomic_flag lock; /* the table and the outbox: the root puts other ranks' entries in while a child runs */
    uint64_t states, schedules;
    int incomplete, out_of_time, stop;
    double next_progress; /* model_search_cfg.progress_next, for every process */
    model_search_result best; /* the deadlock recorded (its trace), at deadlock_depth */
    uint32_t deadlock_depth, finding_depth; /* MODEL_SEARCH_NONE: none yet */
    char finding[400];
    unsigned char changed[MAX_DEPTH]; /* the transition taken at each depth changed the state */
    uint64_t out_head, out_tail; /* outbox: entries [out_tail, out_head) wait for the hooks */
    model_search_entry *outbox;
    uint64_t cap;
    vslot visited[];
} shared_t;

/* The passes of an exhaustive search. */
typedef enum {
    PASS_MAIN,  /* every reachable state (this rank's part of them) */
    PASS_WIDTH, /* the states up to depth bound, to choose the split */
    PASS_TRACE, /* up to depth bound, stopping at the first stuck state */
} pass_kind;

typedef struct {
    char what;
    unsigned block;
} step;

static struct {
    bool active;
    model_search_cfg cfg;
    shared_t *sh;
    size_t sh_bytes;
    pid_t root;
    bool is_child;
    unsigned depth; /* transitions taken since the run began */
    step path[MODEL_TRACE_MAX];
    unsigned pathlen; /* of the current launch */
    unsigned dispatch[MODEL_TRACE_MAX], ndispatch;
    uint64_t rng;
    model_search_result local; /* sampling: the verdict of the samples so far */
    bool ended;                /* this process's path ended inside a launch */
    /* from the plain run before the search: the launches whose blocks read
     * blockIdx (the others' blocks are interchangeable) */
    bool reads_id[MODEL_MAX_LAUNCH_RECORDS];
    bool symmetric; /* the current launch's blocks are interchangeable */
    bool in_process; /* exhaustive: snapshots in this process, not a process per choice */
    double next_progress; /* when the next progress call is due (no progress_next) */
    double *progress_next; /* where that time is kept: S.sh's, the caller's or the above */
    pass_kind pass;
    unsigned bound;  /* PASS_WIDTH, PASS_TRACE: the deepest state explored */
    unsigned split;  /* PASS_MAIN over ranks: the depth of the subtrees' roots (0: no split) */
    const model_search_hooks *hooks; /* PASS_MAIN over ranks, else NULL */
    unsigned since_exchange;
    uint64_t last_key; /* the transition last taken: ends the schedule if the driver ends next */
} S;

/* per launch, per process */
static unsigned char *status; /* of each block: 0 pending, 1 resident, 2 finished */
static unsigned *slot_of;     /* the slot of a resident block */

bool model_search_active(void) { return S.active; }

double model_search_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Whether the deadline has passed; calls the progress callback when due.
 * Looked at once a state (or a turn, sampling): a state costs far more
 * than the clock. */
static bool out_of_time(void)
{
    if (!S.cfg.deadline && !S.cfg.on_progress)
        return false;
    const double t = model_search_now();
    double *next = S.sh ? &S.sh->next_progress : S.progress_next;
    if (S.cfg.on_progress && t >= *next) {
        *next = t + MODEL_SEARCH_PROGRESS_S;
        S.cfg.on_progress(S.cfg.progress_ctx, S.sh ? S.sh->states : 0, S.sh ? S.sh->schedules : S.local.schedules);
    }
    return S.cfg.deadline && t > S.cfg.deadline;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + UINT64_C(0x9e3779b97f4a7c15) + (h << 6) + (h >> 2);
    return h * UINT64_C(0xff51afd7ed558ccd);
}

static uint64_t next_rand(void)
{
    uint64_t z = (S.rng += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* A site as the same number in every process: its id is given in the
 * order sites first run, which differs between processes that explore
 * different schedules; its file, line and operation do not. Kept by id. */
static uint64_t *site_keys;
static size_t nsite_keys;

static uint64_t site_key(const model_site *site)
{
    if (!site)
        return 0;
    const size_t id = (size_t)site->id;
    if (id < nsite_keys && site_keys[id])
        return site_keys[id];
    uint64_t k = mix(UINT64_C(0x517e), (uint64_t)site->line);
    for (const char *p = site->file; p && *p; p++)
        k = mix(k, (unsigned char)*p);
    for (const char *p = site->what; p && *p; p++)
        k = mix(k, (unsigned char)*p);
    k |= 1; /* never 0, the mark of a key not yet made */
    if (id >= nsite_keys) {
        size_t n = nsite_keys ? nsite_keys : 256;
        while (n <= id)
            n *= 2;
        uint64_t *p = realloc(site_keys, n * sizeof *p);
        if (!p)
            return k;
        memset(p + nsite_keys, 0, (n - nsite_keys) * sizeof *p);
        site_keys = p;
        nsite_keys = n;
    }
    site_keys[id] = k;
    return k;
}

static uint64_t mix_bytes(uint64_t h, const unsigned char *p, size_t n)
{
    size_t k = 0;
    for (; k + 8 <= n; k += 8) {
        uint64_t v;
        memcpy(&v, p + k, 8);
        h = mix(h, v);
    }
    for (; k < n; k++)
        h = mix(h, p[k]);
    return h;
}

/* A resident block's state: where its threads are parked, and its shared
 * memory. Sites and addresses enter as numbers that are the same in every
 * process (site_key, model_mem_canonical), so that the ranks of a search
 * compare states by hash. */
static uint64_t block_hash(const mblock *blk)
{
    uint64_t h = UINT64_C(0xb10c);
    for (unsigned i = 0; i < blk->nth; i++) {
        const mthread *t = &blk->th[i];
        h = mix(h, (uint64_t)t->state << 32 ^ site_key(t->park_site));
        h = mix(h, t->state == TS_SPIN ? model_mem_canonical(blk, t->spin_addr) : 0);
    }
    for (unsigned id = 0; id < MODEL_NAMED_BARRIERS; id++) /* named barriers' rounds (bar.arrive leaves no waiter) */
        if (blk->nb[id].expect)
            h = mix(h, (uint64_t)id << 32 | (uint64_t)blk->nb[id].expect << 16 | blk->nb[id].warps);
    if (S.cfg.thread_state) /* the front end's state of each thread (PTX: pc, registers) */
        for (unsigned i = 0; i < blk->nth && blk->th[i].pub.xstate; i++)
            h = mix_bytes(h, blk->th[i].pub.xstate, model_L.xstate_bytes);
    const unsigned char *m = blk->smem;
    for (size_t k = 0; k + 8 <= blk->smem_used; k += 8) {
        uint64_t v;
        memcpy(&v, m + k, 8);
        h = mix(h, v);
    }
    return h;
}

static int cmp_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The state: blocks by number, or (interchangeable blocks) the multiset of
 * resident blocks' states and how many are pending and finished; then
 * every byte of device memory. */
static uint64_t state_hash(unsigned nblocks, const model_stats *s)
{
    uint64_t h = mix(UINT64_C(0x5ca71ab), s->launches);
    if (S.symmetric) {
        uint64_t res[MODEL_TRACE_MAX];
        unsigned nres = 0, counts[3] = {0, 0, 0};
        for (unsigned b = 0; b < nblocks; b++) {
            counts[status[b]]++;
            if (status[b] == 1 && nres < MODEL_TRACE_MAX)
                res[nres++] = block_hash(model_slot(slot_of[b]));
        }
        qsort(res, nres, sizeof res[0], cmp_u64);
        h = mix(mix(h, counts[0]), counts[2]);
        for (unsigned i = 0; i < nres; i++)
            h = mix(h, res[i]);
        return model_mem_hash(h);
    }
    for (unsigned b = 0; b < nblocks; b++) {
        h = mix(h, status[b]);
        if (status[b] == 1)
            h = mix(h, block_hash(model_slot(slot_of[b])));
    }
    return model_mem_hash(h);
}

/* The lowest-numbered unfinished block. */
static unsigned lowest_unfinished(unsigned nblocks)
{
    for (unsigned b = 0; b < nblocks; b++)
        if (status[b] != 2)
            return b;
    return nblocks;
}

/* A wait's words (WAITS_FOR) with # replaced by the index. */
static void wait_words(const mthread *w, char *buf, size_t size)
{
    const char *hash = strchr(w->wait_what, '#');
    if (hash)
        snprintf(buf, size, "%.*s%lld%s", (int)(hash - w->wait_what), w->wait_what, w->wait_index, hash + 1);
    else
        snprintf(buf, size, "%s", w->wait_what);
}

/* Where resident block b waits, in one line that calls it block label: in
 * the kernel's own terms where it says what it waits for (WAITS_FOR), else
 * by the site and the word it spins on. A block that is not stuck (under
 * hsa only the lowest unfinished block must be) is said to be able to go on. */
static void describe_wait(unsigned b, unsigned label, char *buf, size_t size)
{
    const mblock *blk = model_slot(slot_of[b]);
    const mthread *w = NULL;
    for (unsigned i = 0; i < blk->nth && !w; i++)
        if (blk->th[i].state == TS_SPIN && blk->th[i].wait_what && blk->th[i].park_site)
            w = &blk->th[i];
    if (w) {
        char words[128];
        wait_words(w, words, sizeof words);
        snprintf(buf, size, "%s:%d: block %u thread %u, waiting for %s", w->park_site->file, w->park_site->line,
                 label, w->lin, words);
        return;
    }
    for (unsigned i = 0; i < blk->nth && !w; i++)
        if (blk->th[i].state == TS_SPIN)
            w = &blk->th[i];
    for (unsigned i = 0; i < blk->nth && !w; i++)
        if (blk->th[i].state != TS_EXIT)
            w = &blk->th[i];
    if (!w || !w->park_site) {
        snprintf(buf, size, "block %u: has not taken a turn yet", label);
        return;
    }
    const malloc_t *a = w->spin_addr ? model_find_alloc(NULL, w->spin_addr) : NULL;
    const unsigned sz = w->park_site->size ? w->park_site->size : 4;
    /* a thread parked at an atomic has not done it yet: it can go on */
    const bool atomic = strncmp(w->park_site->what, "ATOMIC", 6) == 0;
    if (w->state == TS_SPIN && w->spin_addr && a && !atomic)
        snprintf(buf, size, "%s:%d: block %u thread %u spins reading element %zu (%u bytes) of an array of %zu",
                 w->park_site->file, w->park_site->line, label, w->lin, (size_t)(w->spin_addr - a->lo) / sz, sz,
                 (size_t)(a->hi - a->lo) / sz);
    else if (w->state == TS_SPIN && !atomic)
        snprintf(buf, size, "%s:%d: block %u thread %u spins", w->park_site->file, w->park_site->line, label, w->lin);
    else if (w->state == TS_BAR || w->state == TS_NBAR)
        snprintf(buf, size, "%s:%d: block %u thread %u waits at a barrier", w->park_site->file, w->park_site->line,
                 label, w->lin);
    else
        snprintf(buf, size, "%s:%d: block %u thread %u waits for nothing: it can go on from its %s here, but the "
                 "model need not run it", w->park_site->file, w->park_site->line, label, w->lin, w->park_site->what);
}

static model_search_result *result(void) { return S.sh ? &S.sh->best : &S.local; }

/* The current state is stuck: keep it as the deadlock if it is the first or
 * reached by a shorter path. */
static void record_deadlock(unsigned nblocks, unsigned alone)
{
    model_search_result *r = result();
    if (S.sh) {
        /* the shortest by depth since the run began; the trace pass stops
         * at the first it finds */
        if (S.sh->deadlock_depth != MODEL_SEARCH_NONE && S.sh->deadlock_depth <= S.depth)
            return;
        S.sh->deadlock_depth = S.depth;
        if (S.pass == PASS_TRACE)
            S.sh->stop = 1;
    } else if (r->verdict == MODEL_VERDICT_DEADLOCK && r->trace_len <= S.pathlen) {
        return;
    }
    /* Blocks that never read their number are interchangeable: the trace
     * is told with the block stuck alone swapped with the lowest-numbered
     * unfinished one, so that it is the schedule in which hsa's guarantee
     * falls on a block that cannot progress. */
    const unsigned low = alone < nblocks ? lowest_unfinished(nblocks) : nblocks;
#define LABEL(b) ((b) == alone ? low : (b) == low ? alone : (b))
    r->verdict = MODEL_VERDICT_DEADLOCK;
    r->trace_len = S.pathlen < MODEL_TRACE_MAX ? S.pathlen : MODEL_TRACE_MAX;
    for (unsigned i = 0; i < r->trace_len; i++) {
        r->trace[i].what = S.path[i].what;
        r->trace[i].block = LABEL(S.path[i].block);
    }
    r->ndispatch = S.ndispatch;
    for (unsigned i = 0; i < S.ndispatch; i++)
        r->dispatch[i] = LABEL(S.dispatch[i]);
    r->nwaits = 0;
    for (unsigned label = 0; label < nblocks && r->nwaits < 8; label++) {
        const unsigned b = LABEL(label);
        if (status[b] == 1)
            describe_wait(b, label, r->waits[r->nwaits++], sizeof r->waits[0]);
    }
#undef LABEL
}

static void finding_text(const model_stats *s, char *buf, size_t size)
{
    if (s->has_error && s->error.site[0])
        snprintf(buf, size, "%s:%d: %s", s->error.site[0]->file, s->error.site[0]->line, s->error.text);
    else
        snprintf(buf, size, "%s", s->has_error ? s->error.text : "the kernel stopped");
}

/* A finding stopped the kernel. Sampling keeps the first; an exhaustive
 * search the one at the least depth, the first in byte order among those,
 * which is the same whatever order the states were explored in. */
static void record_finding(const model_stats *s)
{
    if (S.sh) {
        char text[sizeof S.sh->finding];
        finding_text(s, text, sizeof text);
        shared_t *sh = S.sh;
        if (sh->finding_depth == MODEL_SEARCH_NONE || S.depth < sh->finding_depth ||
            (S.depth == sh->finding_depth && strcmp(text, sh->finding) < 0)) {
            sh->finding_depth = S.depth;
            memcpy(sh->finding, text, sizeof text);
        }
        return;
    }
    model_search_result *r = &S.local;
    if (r->verdict == MODEL_VERDICT_FREE || r->verdict == MODEL_VERDICT_INCOMPLETE) {
        r->verdict = MODEL_VERDICT_FINDING;
        finding_text(s, r->finding, sizeof r->finding);
    }
}

/* ---- the table of states, shared by the processes of one search --------- */

static void lock_table(void)
{
    while (atomic_flag_test_and_set_explicit(&S.sh->lock, memory_order_acquire))
        sched_yield();
}

static void unlock_table(void) { atomic_flag_clear_explicit(&S.sh->lock, memory_order_release); }

/* The slot of (h, kind), or the free slot where it goes (the lock held). */
static vslot *slot_for(shared_t *sh, uint64_t h, uint32_t kind)
{
    const uint64_t mask = sh->cap - 1;
    for (uint64_t i = h & mask;; i = (i + 1) & mask) {
        vslot *v = &sh->visited[i];
        if (!v->used || (v->hash == h && v->used == kind))
            return v;
    }
}

/* An entry for the other ranks (the lock held). A full outbox is emptied
 * by the root process, whose exchange sends it; a forked process waits
 * for the root to do so. */
static void outbox_put(uint64_t h, uint32_t depth, uint32_t kind)
{
    shared_t *sh = S.sh;
    while (sh->out_head - sh->out_tail >= OUTBOX_CAP) {
        unlock_table();
        if (S.is_child)
            usleep(100);
        else
            S.hooks->exchange(S.hooks->ctx);
        lock_table();
    }
    sh->outbox[sh->out_head++ % OUTBOX_CAP] = (model_search_entry){h, depth, kind};
}

/* Whether entries at this depth go to the other ranks: those of the
 * subtrees. The top of the tree, above the split, every rank explores
 * itself: an entry of it sent ahead would cut another rank's top short. */
static bool shared_depth(void) { return S.hooks && S.split && S.depth >= S.split; }

/* A transition that ends a schedule (key: the state and the choice): the
 * distinct ones are the schedules, so that a state explored twice (reached
 * again by a shorter path, or by two ranks) counts its ends once. */
static void note_end(uint64_t key)
{
    if (!S.sh)
        return;
    lock_table();
    vslot *v = slot_for(S.sh, key, MODEL_SEARCH_END);
    if (!v->used) {
        *v = (vslot){key, S.depth, MODEL_SEARCH_END};
        S.sh->schedules++;
        if (shared_depth())
            outbox_put(key, S.depth, MODEL_SEARCH_END);
    }
    unlock_table();
}

size_t model_search_outbox(model_search_entry *buf, size_t max)
{
    if (!S.sh || !S.sh->outbox)
        return 0;
    lock_table();
    shared_t *sh = S.sh;
    size_t n = 0;
    for (; n < max && sh->out_tail < sh->out_head; n++)
        buf[n] = sh->outbox[sh->out_tail++ % OUTBOX_CAP];
    unlock_table();
    return n;
}

void model_search_inbox(const model_search_entry *e, size_t n)
{
    if (!S.sh)
        return;
    lock_table();
    shared_t *sh = S.sh;
    for (size_t i = 0; i < n; i++) {
        if (sh->states + sh->schedules + 1 >= sh->cap) { /* no room: not a proof */
            sh->incomplete = 1;
            break;
        }
        vslot *v = slot_for(sh, e[i].hash, e[i].kind);
        if (!v->used) {
            *v = (vslot){e[i].hash, e[i].depth, e[i].kind};
            if (e[i].kind == MODEL_SEARCH_END)
                sh->schedules++;
            else
                sh->states++;
        } else if (e[i].depth < v->depth) {
            /* another rank reached it by a shorter path and explores it
             * from there: a visit here at that depth or more ends */
            v->depth = e[i].depth;
        }
    }
    unlock_table();
}

void model_search_merge(model_search_summary *into, const model_search_summary *from)
{
    if (into->states != from->states || into->schedules != from->schedules)
        into->disagree = 1;
    into->disagree |= from->disagree;
    into->states = into->states > from->states ? into->states : from->states;
    into->schedules = into->schedules > from->schedules ? into->schedules : from->schedules;
    if (from->deadlock_depth < into->deadlock_depth)
        into->deadlock_depth = from->deadlock_depth;
    if (from->finding_depth < into->finding_depth ||
        (from->finding_depth == into->finding_depth && from->finding_depth != MODEL_SEARCH_NONE &&
         strcmp(from->finding, into->finding) < 0)) {
        into->finding_depth = from->finding_depth;
        memcpy(into->finding, from->finding, sizeof into->finding);
    }
    into->incomplete |= from->incomplete;
    into->out_of_time |= from->out_of_time;
}

/* This process's path ends: a child exits, the root returns an error that
 * unwinds the host driver. Sampling counts the schedule here; an
 * exhaustive search counts the transition that ended it (note_end). */
static sl_status end_path(bool schedule)
{
    if (schedule && !S.sh)
        S.local.schedules++;
    if (S.is_child)
        _exit(0);
    S.ended = true;
    return SL_ERR_SIM;
}

static void push_step(char what, unsigned block)
{
    if (S.pathlen < MODEL_TRACE_MAX)
        S.path[S.pathlen] = (step){what, block};
    S.pathlen++;
    if (what == 'd' && S.ndispatch < MODEL_TRACE_MAX)
        S.dispatch[S.ndispatch++] = block;
    S.depth++;
}

/* Takes one transition: dispatch pending block b into a free slot, or give
 * resident block b a turn. Returns false when the launch was stopped (a
 * finding). */
static bool apply(char what, unsigned b, unsigned nres, unsigned *done, uint64_t *launch_steps, model_stats *s)
{
    if (what == 'd') {
        for (unsigned i = 0; i < nres; i++)
            if (!model_slot(i)->active) {
                if (model_slot_start(i, b) != SL_OK)
                    return false;
                status[b] = 1;
                slot_of[b] = i;
                return true;
            }
        return false;
    }
    if (model_take_turn(model_slot(slot_of[b]), launch_steps, s)) {
        status[b] = 2;
        (*done)++;
    }
    return !model_L.abort;
}

/* The choices at the current state: dispatches while a slot is free and a
 * block pending (a free slot takes a block at once; which one is the
 * choice), else turns of the resident blocks. */
static unsigned choices(unsigned nblocks, unsigned nres, char *what, unsigned *blk)
{
    unsigned free_slots = 0, k = 0;
    for (unsigned i = 0; i < nres; i++)
        free_slots += !model_slot(i)->active;
    if (free_slots)
        for (unsigned b = 0; b < nblocks; b++)
            if (status[b] == 0) {
                what[k] = 'd';
                blk[k++] = b;
                /* lobe: blocks start in id order; interchangeable blocks:
                 * which one starts makes no difference */
                if (S.cfg.progress == MODEL_PROGRESS_LOBE || S.symmetric)
                    break;
            }
    if (k)
        return k;
    for (unsigned b = 0; b < nblocks; b++)
        if (status[b] == 1) {
            what[k] = 'r';
            blk[k++] = b;
        }
    return k;
}

/* Whether the model lets nothing progress from a state whose turns (blocks
 * blk[0..k)) changed it as changed[] says. *alone is the block stuck alone
 * that hsa's guarantee falls on once blocks are renumbered (interchangeable
 * blocks), else nblocks. */
static bool is_stuck(unsigned nblocks, const unsigned *blk, const bool *changed, unsigned k, unsigned *alone)
{
    *alone = nblocks;
    if (S.cfg.progress == MODEL_PROGRESS_HSA && S.symmetric) {
        /* any block stuck alone could be the lowest-numbered unfinished
         * one: the kernel never reads its number */
        for (unsigned i = 0; i < k; i++)
            if (!changed[i]) {
                *alone = blk[i];
                return true;
            }
        return false;
    }
    if (S.cfg.progress == MODEL_PROGRESS_HSA) {
        const unsigned low = lowest_unfinished(nblocks);
        for (unsigned i = 0; i < k; i++)
            if (blk[i] == low)
                return !changed[i];
    }
    for (unsigned i = 0; i < k; i++)
        if (changed[i])
            return false;
    return true;
}

/* Looks state h up at the current depth: true when it was seen at no
 * smaller depth (the path ends); else it is recorded (and, when share,
 * handed to the other ranks). */
static bool seen(uint64_t h, bool share)
{
    shared_t *sh = S.sh;
    lock_table();
    vslot *v = slot_for(sh, h, MODEL_SEARCH_STATE);
    bool known = false;
    if (!v->used) {
        *v = (vslot){h, S.depth, MODEL_SEARCH_STATE};
        sh->states++;
    } else if (v->depth <= S.depth) {
        known = true;
    } else {
        v->depth = S.depth; /* a shorter way here: explore again */
    }
    if (!known && share)
        outbox_put(h, S.depth, MODEL_SEARCH_STATE);
    unlock_table();
    return known;
}

/* The rank that explores the subtree below a state at the split depth. */
static unsigned owner(uint64_t h) { return (unsigned)((mix(h, UINT64_C(0x0f1ce)) >> 32) % S.hooks->ranks); }

static uint64_t state_limit(void)
{
    if (S.pass == PASS_WIDTH)
        return S.sh->cap / 2;
    return S.cfg.max_states ? S.cfg.max_states : DEFAULT_MAX_STATES;
}

/* Whether a path ends at the state of hash h before any choice there: a
 * state seen at no smaller depth, a subtree another rank explores, the
 * depth a bounded pass stops at, or a limit (then the search is
 * incomplete). A deadlock found ends no other path: the states counted
 * are every reachable one, whatever order they were explored in. */
static bool path_ends_at(uint64_t h)
{
    shared_t *sh = S.sh;
    if (sh->stop || (S.pass != PASS_MAIN && S.depth > S.bound))
        return true;
    if (S.pass == PASS_WIDTH && S.depth == S.bound) {
        seen(h, false);
        return true;
    }
    if (S.split && S.depth == S.split && owner(h) != S.hooks->rank) {
        seen(h, false); /* its owner explores it and sends what it finds */
        return true;
    }
    if (seen(h, shared_depth()))
        return true;
    if (sh->states > state_limit() || sh->states + sh->schedules > sh->cap - sh->cap / 4 ||
        S.depth + 1 >= MAX_DEPTH) {
        sh->incomplete = 1;
        return true;
    }
    if (S.pass != PASS_TRACE && out_of_time()) {
        sh->incomplete = 1;
        sh->out_of_time = 1;
        return true;
    }
    if (S.hooks && !S.is_child && ++S.since_exchange >= EXCHANGE_EVERY) {
        S.since_exchange = 0;
        S.hooks->exchange(S.hooks->ctx);
    }
    return false;
}

/* No more turns: the time is up, or the trace pass has its trace. */
static bool halted(void) { return S.sh->out_of_time || S.sh->stop; }

/* Waits for a forked process of the search. The root of a rank goes on
 * exchanging while it waits: the process it waits for may be held up by a
 * full outbox, and the other ranks wait for what it has to send. */
static void wait_child(pid_t pid)
{
    int wst;
    if (!S.hooks || S.is_child) {
        while (waitpid(pid, &wst, 0) < 0 && errno == EINTR) {
        }
        return;
    }
    long pause_ns = 20000;
    for (;;) {
        const pid_t r = waitpid(pid, &wst, WNOHANG);
        if (r == pid || (r < 0 && errno != EINTR))
            return;
        S.hooks->exchange(S.hooks->ctx);
        const struct timespec ts = {0, pause_ns};
        nanosleep(&ts, NULL);
        pause_ns = pause_ns < 1000000 ? 2 * pause_ns : pause_ns;
    }
}

/* Takes choice (what, b) at the state of hash h: false when that stopped
 * the launch (the finding is recorded), else *changed says whether the
 * state changed. */
static bool take(char what, unsigned b, uint64_t h, unsigned nblocks, unsigned nres, unsigned *done,
                 uint64_t *launch_steps, model_stats *s, bool *changed)
{
    S.last_key = mix(mix(h, (unsigned char)what), b);
    if (!apply(what, b, nres, done, launch_steps, s)) {
        record_finding(s);
        note_end(S.last_key);
        if (S.cfg.on_step)
            S.cfg.on_step(S.cfg.step_ctx, h, h, 'f', b, status, nblocks);
        return false;
    }
    const uint64_t to = state_hash(nblocks, s);
    *changed = to != h;
    if (S.cfg.on_step)
        S.cfg.on_step(S.cfg.step_ctx, h, to, what, b, status, nblocks);
    return true;
}

/* The last of the k choices at the state of hash h, the others having
 * changed it as changed[0 .. k - 1) says: 0 when the path goes on from the
 * new state, else it ends, with a schedule (1: a finding, or a stuck state
 * kept as a deadlock) or without (2: the turn changed nothing). */
static int take_last(const char *what, const unsigned *blk, unsigned k, uint64_t h, bool *changed,
                     unsigned nblocks, unsigned nres, unsigned *done, uint64_t *launch_steps, model_stats *s)
{
    if (!take(what[k - 1], blk[k - 1], h, nblocks, nres, done, launch_steps, s, &changed[k - 1]))
        return 1;
    unsigned alone;
    if (what[0] == 'r' && is_stuck(nblocks, blk, changed, k, &alone)) {
        record_deadlock(nblocks, alone);
        note_end(mix(h, UINT64_C(0x57c4)));
        return 1;
    }
    push_step(what[k - 1], blk[k - 1]);
    return changed[k - 1] ? 0 : 2;
}

static sl_status grid_exhaustive(unsigned nblocks, unsigned nres, uint64_t *launch_steps, model_stats *s)
{
    unsigned done = 0;
    char what[MODEL_TRACE_MAX];
    unsigned blk[MODEL_TRACE_MAX];
    bool changed[MODEL_TRACE_MAX];
    while (done < nblocks) {
        const uint64_t h = state_hash(nblocks, s);
        if (path_ends_at(h))
            return end_path(false);
        const unsigned k = choices(nblocks, nres, what, blk);
        for (unsigned i = 0; i + 1 < k; i++) {
            if (halted()) /* no more turns once the time is up */
                return end_path(false);
            fflush(NULL);
            pid_t pid = fork();
            if (pid == 0) {
                S.is_child = true;
                bool ch;
                if (!take(what[i], blk[i], h, nblocks, nres, &done, launch_steps, s, &ch))
                    return end_path(true);
                S.sh->changed[S.depth] = ch;
                push_step(what[i], blk[i]);
                goto next_state; /* the child explores on from here */
            }
            if (pid < 0) {
                S.sh->incomplete = 1; /* no more processes: not a proof */
                return end_path(false);
            }
            wait_child(pid);
            changed[i] = S.sh->changed[S.depth];
        }
        /* the last choice here, in this process */
        if (halted())
            return end_path(false);
        const int end = take_last(what, blk, k, h, changed, nblocks, nres, &done, launch_steps, s);
        if (end)
            return end_path(end == 1);
    next_state:;
    }
    return SL_OK;
}

/* ---- exhaustive search in one process -------------------------------------
 * The same search as grid_exhaustive, with the state at each choice kept
 * as a snapshot (model_snap) instead of a process: each choice but the
 * last is taken, explored, and the snapshot put back; the last is taken
 * in place. A launch that finishes goes on with the host driver in a
 * forked child (a later launch may wait between blocks too), and the
 * search waits for it. Forking at every choice copies the address space
 * each time, which cost about 3 ms a state on the look-back kernels. */

/* Recursion depth of the search (choices explored below a state): each
 * level holds one snapshot and a frame on the host's stack. */
#define MAX_LEVEL 2048

static model_snap *snaps; /* MAX_LEVEL of them, grown as the path deepens */

static model_snap *snap_at(unsigned level)
{
    if (level >= MAX_LEVEL)
        return NULL;
    if (!snaps)
        snaps = calloc(MAX_LEVEL, sizeof *snaps);
    return snaps ? &snaps[level] : NULL;
}

static void snaps_free(void)
{
    for (unsigned i = 0; snaps && i < MAX_LEVEL; i++)
        model_snap_free(&snaps[i]);
    free(snaps);
    snaps = NULL;
}

/* The search's own part of a state (where the path stands), in the order
 * a snapshot keeps it: n parts at part[i], size[i] bytes each. */
#define PATH_PARTS 8
static void path_parts(unsigned nblocks, unsigned *done, model_stats *s, void *part[PATH_PARTS],
                       size_t size[PATH_PARTS])
{
    unsigned i = 0;
#define PART(p, n) (part[i] = (p), size[i++] = (n))
    PART(status, nblocks);
    PART(slot_of, nblocks * sizeof *slot_of);
    PART(done, sizeof *done);
    PART(&S.depth, sizeof S.depth);
    PART(&S.pathlen, sizeof S.pathlen);
    PART(&S.ndispatch, sizeof S.ndispatch);
    PART(&s->has_error, sizeof s->has_error);
    PART(&s->error, sizeof s->error);
#undef PART
}

/* The state of the launch and of the search's path into sn. */
static bool save_state(model_snap *sn, unsigned nblocks, unsigned nres, unsigned done, model_stats *s)
{
    void *part[PATH_PARTS];
    size_t size[PATH_PARTS];
    path_parts(nblocks, &done, s, part, size);
    sn->len = 0;
    sn->failed = false;
    model_sched_save(sn, nres);
    model_mem_save(sn);
    for (unsigned i = 0; i < PATH_PARTS; i++)
        model_snap_put(sn, part[i], size[i]);
    return !sn->failed;
}

static void restore_state(const model_snap *sn, unsigned nblocks, unsigned nres, unsigned *done, model_stats *s)
{
    void *part[PATH_PARTS];
    size_t size[PATH_PARTS];
    path_parts(nblocks, done, s, part, size);
    const unsigned char *cur = sn->p;
    model_sched_restore(&cur, nres);
    model_mem_restore(&cur);
    for (unsigned i = 0; i < PATH_PARTS; i++)
        model_snap_get(&cur, part[i], size[i]);
}

/* The launch finished on this path: a child goes on with the host driver
 * (true: this process is that child), the search waits for it. */
static bool launch_finished(void)
{
    fflush(NULL);
    const pid_t pid = fork();
    if (pid == 0) {
        S.is_child = true;
        return true;
    }
    if (pid < 0) {
        S.sh->incomplete = 1;
        return false;
    }
    wait_child(pid);
    return false;
}

/* Explores every schedule from the current state (level: how many
 * snapshots the path holds). Returns true in a child that goes on with the
 * host driver. */
static bool explore(unsigned level, unsigned nblocks, unsigned nres, unsigned *done, uint64_t *launch_steps,
                    model_stats *s)
{
    char what[MODEL_TRACE_MAX];
    unsigned blk[MODEL_TRACE_MAX];
    bool changed[MODEL_TRACE_MAX];
    for (;;) {
        if (*done == nblocks)
            return launch_finished();
        const uint64_t h = state_hash(nblocks, s);
        if (path_ends_at(h))
            return false;
        const unsigned k = choices(nblocks, nres, what, blk);
        model_snap *sn = k > 1 ? snap_at(level) : NULL;
        if (k > 1 && (!sn || !save_state(sn, nblocks, nres, *done, s))) {
            S.sh->incomplete = 1; /* too deep, or out of memory: not a proof */
            return false;
        }
        for (unsigned i = 0; i + 1 < k; i++) {
            if (halted()) /* no more turns once the time is up */
                return false;
            if (take(what[i], blk[i], h, nblocks, nres, done, launch_steps, s, &changed[i])) {
                push_step(what[i], blk[i]);
                if (explore(level + 1, nblocks, nres, done, launch_steps, s))
                    return true;
            }
            restore_state(sn, nblocks, nres, done, s);
        }
        /* the last choice here, in place */
        if (halted())
            return false;
        if (take_last(what, blk, k, h, changed, nblocks, nres, done, launch_steps, s))
            return false;
    }
}

static sl_status grid_in_process(unsigned nblocks, unsigned nres, uint64_t *launch_steps, model_stats *s)
{
    sl_status st = model_crews_reserve(nres, model_L.nth);
    if (st != SL_OK)
        return st;
    unsigned done = 0;
    if (explore(0, nblocks, nres, &done, launch_steps, s))
        return SL_OK; /* a child: the launch finished, the driver goes on */
    return end_path(false);
}

static sl_status grid_sampled(unsigned nblocks, unsigned nres, uint64_t *launch_steps, model_stats *s)
{
    unsigned done = 0;
    char what[MODEL_TRACE_MAX];
    unsigned blk[MODEL_TRACE_MAX];
    bool stalled_flag[MODEL_TRACE_MAX];
    unsigned char *stalled = calloc(nblocks, 1);
    if (!stalled)
        return SL_ERR_NOMEM;
    while (done < nblocks) {
        if (out_of_time()) { /* the schedule is cut short: no verdict */
            S.local.verdict = MODEL_VERDICT_INCOMPLETE;
            S.local.out_of_time = true;
            free(stalled);
            return end_path(false);
        }
        const unsigned k = choices(nblocks, nres, what, blk);
        unsigned pick = k;
        if (what[0] == 'd') {
            pick = (unsigned)(next_rand() % k);
        } else {
            unsigned live = 0;
            for (unsigned i = 0; i < k; i++)
                if (!stalled[blk[i]] && next_rand() % ++live == 0)
                    pick = i;
            for (unsigned i = 0; i < k; i++)
                stalled_flag[i] = !stalled[blk[i]];
            unsigned alone = nblocks;
            if (pick == k || is_stuck(nblocks, blk, stalled_flag, k, &alone)) {
                record_deadlock(nblocks, alone);
                free(stalled);
                return end_path(true);
            }
        }
        const uint64_t h = state_hash(nblocks, s);
        if (!apply(what[pick], blk[pick], nres, &done, launch_steps, s)) {
            record_finding(s);
            free(stalled);
            return end_path(true);
        }
        push_step(what[pick], blk[pick]);
        if (what[pick] == 'r') {
            if (state_hash(nblocks, s) == h)
                stalled[blk[pick]] = 1;
            else
                memset(stalled, 0, nblocks);
        }
    }
    free(stalled);
    return SL_OK;
}

sl_status model_search_grid(unsigned nblocks, unsigned nres, uint64_t *launch_steps, model_stats *s)
{
    if (nblocks > MODEL_SEARCH_MAX_BLOCKS) {
        model_finding f;
        memset(&f, 0, sizeof f);
        f.kind = MODEL_FIND_LIMIT;
        snprintf(f.text, sizeof f.text, "the schedule search takes grids of at most %u blocks; this launch has %u",
                 (unsigned)MODEL_SEARCH_MAX_BLOCKS, nblocks);
        model_fail(NULL, &f, SL_ERR_ARG);
        return SL_ERR_ARG;
    }
    free(status);
    free(slot_of);
    status = calloc(nblocks, 1);
    slot_of = calloc(nblocks, sizeof *slot_of);
    if (!status || !slot_of)
        return SL_ERR_NOMEM;
    S.pathlen = 0;
    S.ndispatch = 0;
    S.symmetric = !S.cfg.on_step && s->launches < MODEL_MAX_LAUNCH_RECORDS && !S.reads_id[s->launches];
    if (!S.sh)
        return grid_sampled(nblocks, nres, launch_steps, s);
    return S.in_process ? grid_in_process(nblocks, nres, launch_steps, s)
                        : grid_exhaustive(nblocks, nres, launch_steps, s);
}

/* ---- the passes of an exhaustive search ---------------------------------- */

/* One pass: run(ctx) from fresh counts (search_model: the stats'
 * configuration for the search) with a table of cap slots, which stays for
 * the caller to read (pass_end drops it). False when the table could not
 * be had. A forked process of the search never returns from here. */
static bool pass_run(pass_kind kind, unsigned bound, uint64_t cap, sl_status (*run)(void *ctx), void *ctx,
                     model_stats *s, const model_config *search_model)
{
    const bool outbox = kind == PASS_MAIN && S.hooks;
    const size_t table = sizeof(shared_t) + cap * sizeof(vslot);
    const size_t bytes = table + (outbox ? OUTBOX_CAP * sizeof(model_search_entry) : 0);
    void *m = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED)
        return false;
    S.sh = m;
    S.sh_bytes = bytes;
    atomic_flag_clear(&S.sh->lock);
    S.sh->cap = cap;
    S.sh->next_progress = *S.progress_next;
    S.sh->deadlock_depth = S.sh->finding_depth = MODEL_SEARCH_NONE;
    S.sh->outbox = outbox ? (model_search_entry *)((char *)m + table) : NULL;
    S.pass = kind;
    S.bound = bound;
    S.depth = 0;
    S.ended = false;
    S.since_exchange = 0;
    S.last_key = 0;
    model_stats_free(s);
    model_stats_init(s);
    s->cfg = *search_model;
    const sl_status st = run(ctx);
    if (!S.ended) {
        /* a schedule that ran the host driver to its end */
        note_end(S.last_key);
        if (st != SL_OK && s->has_error)
            record_finding(s);
    }
    if (S.is_child)
        _exit(0);
    *S.progress_next = S.sh->next_progress;
    return true;
}

static void pass_end(void)
{
    munmap(S.sh, S.sh_bytes);
    S.sh = NULL;
    snaps_free();
}

/* The split depth for the ranks: the least depth at which at least
 * SUBTREES_PER_RANK states a rank are first reached, read from the depths
 * in the table of a pass bounded at depth D (D = 8, 16, ... until one is
 * found); where the tree ends first, the widest depth it has. Every rank
 * computes the same, with no word from the others, so the split only has
 * to be deterministic; its cost is the top of the tree, small next to
 * what lies below. 0: no depth holds two states, and every rank explores
 * the whole (small) tree. */
#define SPLIT_MAX_BOUND 512
static unsigned choose_split(sl_status (*run)(void *ctx), void *ctx, model_stats *s, const model_config *search_model)
{
    const uint64_t want = (uint64_t)SUBTREES_PER_RANK * S.hooks->ranks;
    const model_search_hooks *hooks = S.hooks;
    S.hooks = NULL; /* the bounded passes talk to no one */
    uint64_t width[SPLIT_MAX_BOUND + 1];
    unsigned split = 0;
    for (unsigned bound = 8; bound <= SPLIT_MAX_BOUND; bound *= 2) {
        if (!pass_run(PASS_WIDTH, bound, WIDTH_PASS_CAP, run, ctx, s, search_model))
            break;
        memset(width, 0, sizeof width);
        for (uint64_t i = 0; i < S.sh->cap; i++)
            if (S.sh->visited[i].used == MODEL_SEARCH_STATE && S.sh->visited[i].depth <= bound)
                width[S.sh->visited[i].depth]++;
        const bool last = S.sh->incomplete || width[bound] == 0 || 2 * bound > SPLIT_MAX_BOUND;
        pass_end();
        unsigned widest = 0;
        for (unsigned d = 1; d <= bound && !split; d++) {
            if (width[d] >= want)
                split = d;
            widest = width[d] > width[widest] ? d : widest;
        }
        if (!split && last && width[widest] >= 2)
            split = widest;
        if (split || last)
            break;
    }
    S.hooks = hooks;
    return split;
}

/* The trace of the deadlock at depth depth: the first stuck state in the
 * order of choices (dispatch or turn of the lowest block first) among
 * those at that depth, by a depth-first pass that goes no deeper and
 * stops there. Why that is the first of the shortest traces in that order,
 * whatever the table cuts: let P be that trace, and suppose the pass cut
 * P's prefix of length i, at a state seen before at depth j <= i by a
 * path Q. Q was explored before P's prefix, so it comes first in the
 * order and is no prefix of P (P, being shortest, has no cycle); then Q
 * followed by the rest of P reaches a stuck state in j + depth - i <=
 * depth steps and comes before P, which contradicts P's choice (no stuck
 * state lies nearer than depth). And a stuck state found before P would
 * be a trace of at most depth steps before P in the order. */
static bool trace_pass(unsigned depth, uint64_t cap, sl_status (*run)(void *ctx), void *ctx, model_stats *s,
                       const model_config *search_model, model_search_result *trace)
{
    if (!pass_run(PASS_TRACE, depth, cap, run, ctx, s, search_model))
        return false;
    const bool found = S.sh->deadlock_depth == depth;
    if (found)
        *trace = S.sh->best;
    pass_end();
    return found;
}

/* The summary of this rank's table. */
static void summarize(model_search_summary *sum)
{
    memset(sum, 0, sizeof *sum);
    sum->states = S.sh->states;
    sum->schedules = S.sh->schedules;
    sum->deadlock_depth = S.sh->deadlock_depth;
    sum->finding_depth = S.sh->finding_depth;
    memcpy(sum->finding, S.sh->finding, sizeof sum->finding);
    sum->incomplete = S.sh->incomplete != 0;
    sum->out_of_time = S.sh->out_of_time != 0;
}

static sl_status exhaustive(const model_search_cfg *cfg, sl_status (*run)(void *ctx), void *ctx, model_stats *s,
                            model_search_result *out)
{
    const uint64_t limit = cfg->max_states ? cfg->max_states : DEFAULT_MAX_STATES;
    uint64_t cap = 1024;
    while (cap < 2 * limit)
        cap *= 2;
    const model_config search_model = s->cfg;
    S.in_process = !cfg->fork_per_choice && model_fiber_can_snapshot();
    S.active = true;
    const model_search_hooks *hooks = cfg->hooks && cfg->hooks->ranks > 1 ? cfg->hooks : NULL;
    S.hooks = hooks;
    S.split = hooks ? choose_split(run, ctx, s, &search_model) : 0;
    const bool mapped = pass_run(PASS_MAIN, 0, cap, run, ctx, s, &search_model);
    if (!mapped && !hooks)
        return SL_ERR_NOMEM;
    model_search_summary sum;
    memset(&sum, 0, sizeof sum);
    sum.deadlock_depth = sum.finding_depth = MODEL_SEARCH_NONE;
    sum.incomplete = !mapped;
    model_search_result mine; /* this rank's own deadlock, at its depth */
    memset(&mine, 0, sizeof mine);
    if (hooks) /* even without a table: the other ranks wait for this one's word that it is done */
        hooks->finish(hooks->ctx);
    if (mapped) {
        summarize(&sum);
        mine = S.sh->best;
        pass_end();
    }
    const uint32_t mine_depth = sum.deadlock_depth;
    if (hooks)
        hooks->combine(hooks->ctx, &sum);
    S.hooks = NULL;
    S.split = 0;
    out->states = sum.states;
    out->schedules = sum.schedules;
    if (sum.deadlock_depth != MODEL_SEARCH_NONE) {
        out->verdict = MODEL_VERDICT_DEADLOCK;
        model_search_result t;
        if (!hooks || hooks->rank == 0) {
            if (trace_pass(sum.deadlock_depth, cap, run, ctx, s, &search_model, &t) ||
                (mine_depth == sum.deadlock_depth && (t = mine, true))) {
                t.verdict = MODEL_VERDICT_DEADLOCK;
            } else { /* the trace pass hit a limit, and the trace was another rank's */
                memset(&t, 0, sizeof t);
                t.verdict = MODEL_VERDICT_INCOMPLETE;
            }
            t.states = sum.states;
            t.schedules = sum.schedules;
            *out = t;
        }
        if (hooks)
            hooks->share(hooks->ctx, out);
    } else if (sum.finding_depth != MODEL_SEARCH_NONE) {
        out->verdict = MODEL_VERDICT_FINDING;
        memcpy(out->finding, sum.finding, sizeof out->finding);
    } else if (sum.incomplete) {
        out->verdict = MODEL_VERDICT_INCOMPLETE;
        out->out_of_time = sum.out_of_time != 0;
    }
    return SL_OK;
}

sl_status model_search_run(const model_search_cfg *cfg, sl_status (*run)(void *ctx), void *ctx, model_stats *s,
                           model_search_result *out)
{
    memset(out, 0, sizeof *out);
    memset(&S, 0, sizeof S);
    S.cfg = *cfg;
    S.root = getpid();
    S.next_progress = model_search_now() + MODEL_SEARCH_PROGRESS_S;
    S.progress_next = cfg->progress_next ? cfg->progress_next : &S.next_progress;
    /* a plain run first: which launches read blockIdx, whether any thread
     * waits on another block, and findings that need no search (not for a
     * caller of on_step, whose program may never end by itself) */
    if (cfg->on_step) {
        out->waiting = true;
        out->launches = 1;
    } else {
        const model_config cfg0 = s->cfg;
        s->cfg.quiet = true;
        const sl_status pst = run(ctx);
        out->waiting = s->global_polls > 0;
        out->launches = s->launches;
        for (size_t i = 0; i < s->nlaunch_records; i++)
            S.reads_id[i] = s->launch[i].reads_block_idx;
        const bool finding = pst != SL_OK && s->has_error && s->error.kind != MODEL_FIND_DEADLOCK;
        if (finding) {
            out->verdict = MODEL_VERDICT_FINDING;
            if (s->error.site[0])
                snprintf(out->finding, sizeof out->finding, "%s:%d: %s", s->error.site[0]->file,
                         s->error.site[0]->line, s->error.text);
            else
                snprintf(out->finding, sizeof out->finding, "%s", s->error.text);
        }
        model_stats_free(s);
        model_stats_init(s);
        s->cfg = cfg0;
        if (finding || !out->waiting)
            return SL_OK;
    }
    s->cfg.schedule = 0; /* turns are the search's choices; lanes and values as by default */
    /* fair: every block eventually runs; hsa: the lowest unfinished block
     * progresses whether or not a slot is free. Either way occupancy does
     * not hold a block back: every block can be resident. */
    if (cfg->progress == MODEL_PROGRESS_FAIR || cfg->progress == MODEL_PROGRESS_HSA)
        s->cfg.slots = 1u << 20;
    sl_status st = SL_OK;
    const uint64_t launches = out->launches;
    if (cfg->exhaustive) {
        st = exhaustive(cfg, run, ctx, s, out);
        out->launches = launches;
    } else {
        S.active = true;
        for (uint64_t i = 0; i < cfg->samples; i++) {
            S.rng = cfg->seed * UINT64_C(0x2545f4914f6cdd1d) + i;
            S.ended = false;
            S.depth = 0;
            st = run(ctx);
            if (!S.ended) {
                S.local.schedules++;
                if (st != SL_OK && s->has_error)
                    record_finding(s);
            }
            if (S.local.verdict != MODEL_VERDICT_FREE)
                break;
        }
        *out = S.local;
        out->states = 0;
    }
    S.active = false;
    free(status);
    free(slot_of);
    status = NULL;
    slot_of = NULL;
    out->waiting = true;
    return cfg->exhaustive ? st : SL_OK;
}
