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
 * Sampling takes random choices instead, one run per sample. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

#define DEFAULT_MAX_STATES (UINT64_C(1) << 20)
#define MAX_DEPTH (1u << 16)

typedef struct {
    uint64_t hash;
    uint32_t depth, used;
} vslot;

/* What the processes of one exhaustive search share. */
typedef struct {
    uint64_t states, schedules;
    int incomplete, out_of_time;
    double next_progress; /* model_search_cfg.progress_next, for every process */
    model_search_result best; /* verdict, shortest deadlock, finding */
    unsigned char changed[MAX_DEPTH]; /* the transition taken at each depth changed the state */
    uint64_t cap;
    vslot visited[];
} shared_t;

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

/* A resident block's state: where its threads are parked, and its shared
 * memory. */
static uint64_t block_hash(const mblock *blk)
{
    uint64_t h = UINT64_C(0xb10c);
    for (unsigned i = 0; i < blk->nth; i++) {
        const mthread *t = &blk->th[i];
        h = mix(h, (uint64_t)t->state << 32 | (uint32_t)(t->park_site ? t->park_site->id : 0));
        h = mix(h, t->state == TS_SPIN ? t->spin_addr : 0);
    }
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
    else if (w->state == TS_BAR)
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
    if (r->verdict == MODEL_VERDICT_DEADLOCK && r->trace_len <= S.pathlen)
        return;
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

static void record_finding(const model_stats *s)
{
    model_search_result *r = result();
    if (r->verdict == MODEL_VERDICT_FREE || r->verdict == MODEL_VERDICT_INCOMPLETE) {
        r->verdict = MODEL_VERDICT_FINDING;
        if (s->has_error && s->error.site[0])
            snprintf(r->finding, sizeof r->finding, "%s:%d: %s", s->error.site[0]->file, s->error.site[0]->line,
                     s->error.text);
        else
            snprintf(r->finding, sizeof r->finding, "%s", s->has_error ? s->error.text : "the kernel stopped");
    }
}

/* This process's path ends: a child exits, the root returns an error that
 * unwinds the host driver. */
static sl_status end_path(bool schedule)
{
    if (schedule && S.sh)
        S.sh->schedules++;
    else if (schedule)
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
 * smaller depth (the path ends); else it is recorded. */
static bool seen(uint64_t h)
{
    shared_t *sh = S.sh;
    uint64_t mask = sh->cap - 1, i = h & mask;
    for (;; i = (i + 1) & mask) {
        vslot *v = &sh->visited[i];
        if (!v->used) {
            v->used = 1;
            v->hash = h;
            v->depth = S.depth;
            sh->states++;
            return false;
        }
        if (v->hash == h) {
            if (v->depth <= S.depth)
                return true;
            v->depth = S.depth; /* a shorter way here: explore again */
            return false;
        }
    }
}

/* Whether a path ends at the state of hash h before any choice there: a
 * deadlock known already and no longer than this path (one found from here
 * could not be shorter), a state seen at no smaller depth, or a limit (then
 * the search is incomplete). */
static bool path_ends_at(uint64_t h)
{
    const model_search_result *best = result();
    if (best->verdict == MODEL_VERDICT_DEADLOCK && S.pathlen >= best->trace_len)
        return true;
    if (seen(h))
        return true;
    const uint64_t limit = S.cfg.max_states ? S.cfg.max_states : DEFAULT_MAX_STATES;
    if (S.sh->states > limit || S.depth + 1 >= MAX_DEPTH) {
        S.sh->incomplete = 1;
        return true;
    }
    if (out_of_time()) {
        S.sh->incomplete = 1;
        S.sh->out_of_time = 1;
        return true;
    }
    return false;
}

/* Takes choice (what, b) at the state of hash h: false when that stopped
 * the launch (the finding is recorded), else *changed says whether the
 * state changed. */
static bool take(char what, unsigned b, uint64_t h, unsigned nblocks, unsigned nres, unsigned *done,
                 uint64_t *launch_steps, model_stats *s, bool *changed)
{
    if (!apply(what, b, nres, done, launch_steps, s)) {
        record_finding(s);
        return false;
    }
    *changed = state_hash(nblocks, s) != h;
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
            if (S.sh->out_of_time) /* no more turns once the time is up */
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
            int wst;
            while (waitpid(pid, &wst, 0) < 0) {
            }
            changed[i] = S.sh->changed[S.depth];
        }
        /* the last choice here, in this process */
        if (S.sh->out_of_time)
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
    int wst;
    while (waitpid(pid, &wst, 0) < 0) {
    }
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
            if (S.sh->out_of_time) /* no more turns once the time is up */
                return false;
            if (!take(what[i], blk[i], h, nblocks, nres, done, launch_steps, s, &changed[i])) {
                S.sh->schedules++;
            } else {
                push_step(what[i], blk[i]);
                if (explore(level + 1, nblocks, nres, done, launch_steps, s))
                    return true;
            }
            restore_state(sn, nblocks, nres, done, s);
        }
        /* the last choice here, in place */
        if (S.sh->out_of_time)
            return false;
        const int end = take_last(what, blk, k, h, changed, nblocks, nres, done, launch_steps, s);
        if (end == 1)
            S.sh->schedules++;
        if (end)
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
    S.symmetric = s->launches < MODEL_MAX_LAUNCH_RECORDS && !S.reads_id[s->launches];
    if (!S.sh)
        return grid_sampled(nblocks, nres, launch_steps, s);
    return S.in_process ? grid_in_process(nblocks, nres, launch_steps, s)
                        : grid_exhaustive(nblocks, nres, launch_steps, s);
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
     * waits on another block, and findings that need no search */
    {
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
    if (cfg->exhaustive) {
        const uint64_t limit = cfg->max_states ? cfg->max_states : DEFAULT_MAX_STATES;
        uint64_t cap = 1024;
        while (cap < 2 * limit)
            cap *= 2;
        S.sh_bytes = sizeof(shared_t) + cap * sizeof(vslot);
        void *m = mmap(NULL, S.sh_bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (m == MAP_FAILED)
            return SL_ERR_NOMEM;
        S.sh = m;
        S.sh->cap = cap;
        S.sh->next_progress = *S.progress_next;
        S.in_process = !cfg->fork_per_choice && model_fiber_can_snapshot();
        S.active = true;
        st = run(ctx);
        if (S.is_child) {
            /* a schedule that ran the host driver to its end */
            if (!S.ended)
                S.sh->schedules++;
            if (st != SL_OK && !S.ended && s->has_error)
                record_finding(s);
            _exit(0);
        }
        if (!S.ended) {
            S.sh->schedules++;
            if (st != SL_OK && s->has_error)
                record_finding(s);
        }
        *S.progress_next = S.sh->next_progress;
        *out = S.sh->best;
        out->states = S.sh->states;
        out->schedules = S.sh->schedules;
        if (S.sh->incomplete && out->verdict == MODEL_VERDICT_FREE) {
            out->verdict = MODEL_VERDICT_INCOMPLETE;
            out->out_of_time = S.sh->out_of_time != 0;
        }
        munmap(S.sh, S.sh_bytes);
        S.sh = NULL;
        snaps_free();
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
    return SL_OK;
}
