/* The simulator's internal state, shared by its source files. */
#ifndef SCANLAB_MODEL_INTERNAL_H
#define SCANLAB_MODEL_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include "model/choice.h"
#include "model/fiber.h"
#include "model/model.h"

/* Where an event stands in its block's order (docs/memory-model.md):
 * tid is the grid-linear thread id + 1 (0: no event); stamp the barrier
 * interval, a process-wide counter bumped at every block start and barrier
 * completion (so it also tells launches and block runs apart); seq the
 * thread's count of synchronising operations (acquires, releases, fences)
 * in that interval; sync its warp's count of warp-level synchronisations
 * in that interval. Within one block, event e happens before event c when
 * e's interval is earlier, or in the same interval e is c's own earlier
 * event (seq), or a warp synchronisation of their warp separates them. */
typedef struct {
    uint32_t tid, stamp;
    uint16_t seq, sync;
} mpos;

/* PTX's barriers per CTA (bar.sync 0..15). */
#define MODEL_NAMED_BARRIERS 16

/* A release that a later acquire may synchronise with: the position of the
 * release (st.release, or the fence that precedes a strong store), its
 * scope, and the releasing thread's step clock (for the cross-block
 * critical path). valid = 0: a relaxed store that releases nothing. */
typedef struct {
    mpos p;
    uint8_t valid, scope;
    uint8_t sscope; /* the scope of the strong store that carries it (a fence's release: of the store after it) */
    uint8_t own; /* the release is the store that carries it (st.release): the store stands at p */
    uint64_t clock;
} mrel;

/* One access in the race shadow: where it stood, its site, and flags. */
typedef struct {
    mpos p;
    uint16_t site;  /* interned site id, 0 if beyond the table */
    uint16_t flags; /* MREF_* */
} mref;
#define MREF_STRONG 0x1u      /* volatile, relaxed, acquire, release or atomic */
#define MREF_SCOPE_SHIFT 1    /* 2 bits: MODEL_SCOPE_* of a strong access */
#define MREF_SIZE_SHIFT 3     /* 2 bits: 0 = 4, 1 = 8, 2 = 16 bytes, 3 = other */
#define MREF_OFF_SHIFT 5      /* 2 bits: the word's index within the access */
#define MREF_SET 0x80u        /* r: more readers in the read-set table */
#define MREF_MAX_SITE 0xffffu

/* Race shadow of one 4-byte word: its last writer and its readers since
 * that write (the latest here, the others in the read-set table). */
typedef struct {
    mref w, r;
} mshadow;

typedef struct {
    uintptr_t lo, hi; /* [lo, hi) */
    mshadow *shadow;  /* one per 4-byte word */
    bool shared;
    void *raw;        /* what to free (global) */
    size_t map_bytes; /* > 0: raw was mapped (lazy pages), this many bytes */
    /* what a finding calls it: the array's name in the source (SHARED's,
     * the host's pointer, a PTX variable or kernel parameter), elements
     * counted from name_base; "" when unnamed */
    char name[40];
    uintptr_t name_base;
} malloc_t;

/* TS_YIELD: parked at a point where other blocks may run (explored
 * schedules), ready to go on at the block's next turn. */
/* TS_NBAR: waits at a named barrier (PTX bar.sync with an id other than 0,
 * or a thread count; model/nbar.c). */
enum { TS_READY, TS_BAR, TS_WARP, TS_SPIN, TS_YIELD, TS_EXIT, TS_NBAR };

/* The newest store index of a location a thread has read or written
 * (read-read and write-read coherence of the weak memory model). */
#define MODEL_COHERENCE_SLOTS 8
typedef struct {
    uintptr_t addr;
    uint64_t order;
} mfloor;

/* Releases observed by relaxed loads since the thread's last fence: a
 * later fence makes them acquires (PTX's acquire pattern). */
#define MODEL_PENDING_ACQ 8

struct mblock;
/* One simulated thread; the fields the scheduler and the fast paths touch
 * at every switch come first. */
typedef struct mthread {
    model_lane pub; /* first: model_cur points here */
    model_fiber *fiber;
    struct mblock *blk;
    int state;
    bool ran; /* ran in the current sweep */
    unsigned lin, lane, warp;
    uint32_t gtid; /* grid-linear id + 1 */
    const model_site *park_site;
    model_trace_ent *tr;       /* the trace since the last flush */
    model_trace_ent *tr_shadow; /* first entry not yet seen by the race shadow */
    size_t captr;
    unsigned shared_k;
    int wop_kind, wop_class; /* class: 0 syncwarp, 1 shuffle, 2 vote */
    unsigned wop_mask;
    uint64_t wop_val, wop_res;
    int wop_arg;
    uintptr_t spin_addr;
    const model_site *spin_site;
    bool slept; /* its last park was a back-off (NANOSLEEP) */
    unsigned runahead; /* strong shared loads passed in a row without giving way (explored schedules) */
    /* what it waits for in the kernel's terms (WAITS_FOR) and for which
     * index; NULL when it said nothing or WAIT_DONE */
    const char *wait_what;
    long long wait_index;
    /* memory model */
    uint16_t seq;          /* synchronising operations in this interval */
    mrel fence;            /* the thread's last fence of GPU or system scope */
    mrel pending[MODEL_PENDING_ACQ];
    unsigned npending;
    mfloor floor[MODEL_COHERENCE_SLOTS];
    unsigned nfloor;
    uintptr_t stale_addr;  /* location of the current run of stale reads */
    unsigned stale_run;
    uint64_t wait;         /* steps spent waiting for other blocks in this interval */
    /* named barriers (model/nbar.c): the barrier it arrived at (-1: none),
     * whether it only arrives (bar.arrive), whether its warp's arrival is
     * counted in the barrier's current round */
    int8_t nb_id;
    bool nb_arrive, nb_counted;
    mpos nb_pos; /* where it arrived (a release) */
    size_t xcap;           /* bytes allocated at pub.xstate */
} mthread;

/* The threads of one block with their fibers and traces: reused by the
 * blocks that run one after another, so that they stay in cache. */
typedef struct mcrew {
    mthread *th;
    unsigned cap;
    struct mcrew *next;     /* in the free list */
    struct mcrew *all_next; /* every crew ever made */
} mcrew;

typedef struct mblock {
    sl_dim3 block_idx;
    unsigned lin;
    uint32_t stamp0, stamp; /* the block run's first and current interval stamps */
    uint32_t epoch;
    mcrew *crew;
    mthread *th;
    unsigned nth, nwarps, nexited, nbar, nwarpop, nspin;
    unsigned run_end; /* lanes below this index may be passed to */
    const mthread *bar_first, *bar_other; /* first at a barrier; one at another */
    uint32_t *wsync;
    unsigned capwarps;
    unsigned *order, *rank; /* explored schedules: the lanes' run order this sweep, and its inverse */
    unsigned capth;
    unsigned char *smem; /* 128-byte aligned arena: dynamic part first */
    size_t smem_used, smem_dirty; /* bytes allocated; bytes a block may have written since the arena was zeroed */
    malloc_t dyn;
    malloc_t *sallocs;
    unsigned nsallocs, capsallocs;
    mshadow *sshadow;
    uint64_t steps, interval_max, barriers, work;
    uint64_t own_steps, interval_own; /* the same without the waits for other blocks */
    uint64_t load_rounds;  /* intervals so far that issued a plain global load */
    bool interval_loaded; /* the current interval issued one */
    uint64_t prio;      /* explored schedules: PCT priority (higher runs first) */
    bool active;
    bool stalled;       /* its last turn changed nothing (explored schedules) */
    unsigned char id_read; /* a thread of it read blockIdx */
    /* named barriers 0..15 (model/nbar.c): per barrier the warps its round
     * expects and those arrived; the threads waiting at one; whether a
     * round completed since the block's last sweep; the positions of the
     * round's arrivals (happens-before; kept where ordering is) */
    struct {
        uint16_t expect, warps;
    } nb[MODEL_NAMED_BARRIERS];
    unsigned nb_waiting;
    bool nb_released;
    mpos *nb_rel[MODEL_NAMED_BARRIERS];
    unsigned nb_nrel[MODEL_NAMED_BARRIERS], nb_caprel[MODEL_NAMED_BARRIERS];
} mblock;

/* The launch in progress. */
typedef struct {
    model_stats *stats;
    model_entry entry;
    const void *args;
    sl_dim3 grid, block;
    size_t shmem, shared_limit;
    unsigned nth, nblocks;
    uint32_t stamp0; /* first interval stamp of the launch */
    bool abort;
    sl_status abort_status;
    uint64_t progress, weak_progress;
    bool accounting;
    bool ordering; /* happens-before and strong stores' histories kept (not in a schedule search) */
    /* explored schedules (model_config.schedule != 0) */
    bool explore;
    uint64_t rng;       /* the schedule's random stream */
    uint64_t turns;     /* block turns taken so far */
    bool id_read;       /* a block of the launch read blockIdx */
    bool huge;          /* a huge grid: chosen blocks, every access checked */
    unsigned started;   /* blocks started in this launch */
    uint64_t huge_accesses; /* global accesses of a huge run's launch */
    size_t xstate_bytes;    /* the front end's state per thread (model_launch_state) */
    /* a launch of several devices (model_launch_devices): each device's
     * grid is this many consecutive blocks; 0: one device */
    unsigned blocks_per_device;
} mlaunch;

extern mlaunch model_L;

/* The simulated device of the thread with grid-linear id tid + 1 (0 in a
 * launch of one device). */
static inline unsigned model_device_of(uint32_t tid)
{
    return model_L.blocks_per_device ? (tid - 1) / model_L.nth / model_L.blocks_per_device : 0;
}
/* Whether an ordering of scope (MODEL_SCOPE_*) between the threads tid_a
 * and tid_b (grid-linear ids + 1) may hold: a GPU scope (or narrower) does
 * not reach a thread of another device, only a system scope does. */
static inline bool model_scope_spans(int scope, uint32_t tid_a, uint32_t tid_b)
{
    return scope == MODEL_SCOPE_SYS || model_device_of(tid_a) == model_device_of(tid_b);
}
/* The interval stamp counter (see mpos). */
extern uint32_t model_stamp;

/* Random numbers of the explored schedule (splitmix64 of model_L.rng). */
uint64_t model_rand(void);
/* A random number below n (n > 0). */
uint64_t model_rand_below(uint64_t n);

/* choice.c: the chooser that answers every choice (model/choice.h), or
 * NULL; MODEL_WEAKEN_* of a deliberately wrong model (tests only). */
extern const model_chooser *model_chooser_now;
extern unsigned model_weaken;
/* Tells the chooser the running thread t performed an event. */
void model_choice_event(const mthread *t, uintptr_t addr, int what);
/* Which of n allowed stores a strong load returns: the chooser's answer,
 * else random (an answer to stop ends the launch). */
unsigned model_choose_value(unsigned n);
/* Where among n places a strong store goes in coherence order (0: after
 * every store), the same way. */
unsigned model_choose_place(unsigned n);
/* The grid of the current launch, one chosen thread a turn. */
sl_status model_run_chosen(unsigned nblocks, uint64_t *launch_steps, model_stats *s);
/* sites.c */
void model_site_intern(model_site *s);
/* Takes a site out of the table before its memory is freed (a PTX
 * module's sites, at unload), so that a later site never compares with it. */
void model_site_forget(const model_site *s);
const model_site *model_site_by_id(uint32_t id);
model_site_stats *model_site_stats_of(model_stats *st, const model_site *s);

/* hb.c: happens-before between events of one launch (docs/memory-model.md) */
/* The running thread's current position. */
mpos model_pos(const mthread *t);
/* Whether e happens before c by their block's order alone (barriers, program
 * order, warp synchronisation). */
bool model_local_before(const mpos *e, const mpos *c);
/* Whether e happens before c: local order, or a chain of releases and
 * acquires between blocks (and within one). */
bool model_hb(const mpos *e, const mpos *c);
/* The release a strong store of kind by t carries (invalid for a relaxed
 * store with no earlier fence); a release store advances t's position. */
mrel model_hb_release(mthread *t, int kind);
/* t read (strong load or atomic) a store that carried r: an acquire now if
 * kind acquires, else remembered for t's next fence. Also advances t's step
 * clock to the releasing thread's (the cross-block critical path). */
void model_hb_read(mthread *t, int kind, const mrel *r);
/* A fence of scope by t: acquires what t observed since its last fence,
 * and releases what t did before it. */
void model_hb_fence(mthread *t, int scope);
/* The step clock of t now: completed intervals of its block plus its own
 * operations and waits in this interval. */
uint64_t model_clock(const mthread *t);
/* Forgets every acquire of the previous launch. */
void model_hb_reset(void);
/* The thread at acq acquires what the thread at rel released (a named
 * barrier's round: every waiter from every arrival). */
void model_hb_sync(const mpos *acq, const mpos *rel);

/* nbar.c: named barriers. A block starts with none arrived; a thread that
 * exits may complete its warp's arrival. */
void model_nbar_start(mblock *b);
void model_nbar_exited(mthread *t);

/* shadow.c: the race detector (docs/memory-model.md) */
/* Runs the race shadow over t's trace entries it has not seen yet. */
void model_shadow_trace(mthread *t);
/* Before a synchronising access: the shadow catches up with every lane of
 * t's warp, so that plain accesses are checked against the positions they
 * ran at. */
void model_shadow_catch_up(mthread *t);
/* One access of size bytes at addr by t, of kind (MODEL_RD/WR | strength
 * flags), checked and recorded. */
void model_shadow_access(mthread *t, uintptr_t addr, uint32_t size, int kind, int scope,
                         const model_site *site);
/* Forgets every read set (a new launch). */
void model_shadow_sets_reset(void);

/* weak.c: store histories of the weak memory model */
/* How a store enters a history (model_weak_store). */
enum {
    MODEL_WEAK_STRONG = 0, /* a strong store */
    MODEL_WEAK_RMW = 1,    /* an atomic's write: right after the store its read returned */
    MODEL_WEAK_PLAIN = 2,  /* a weak store of a litmus run (docs/memory-model.md) */
};
/* A store (how: MODEL_WEAK_*) of size bytes at p by t, carrying rel; old
 * holds the bytes it overwrote (the first store of a location in a launch
 * makes them the location's initial value). In an explored schedule a
 * store that is not an atomic's may take its place in coherence order
 * before stores not causally before it; memory at p then gets back the
 * last store's value. */
void model_weak_store(mthread *t, uintptr_t p, size_t size, const void *old, const void *v, const mrel *rel,
                      unsigned how);
/* A plain store over [p, p + size): strong histories there end. */
void model_weak_plain_store(uintptr_t p, size_t size);
/* A load (strong, or weak in a litmus run) of size bytes at p by t: writes
 * the value the memory model lets it return to out and returns the release
 * the chosen store carried (invalid when none, and for a weak load). at:
 * where a weak load stood in program order when it is bound later (NULL:
 * where t is). */
mrel model_weak_load(mthread *t, uintptr_t p, size_t size, int kind, const mpos *at, void *out);
/* The read of a read-modify-write of kind by t at p: the newest store, or
 * in a litmus run any store the model lets it read (one that no store
 * causally before it hides, whose successor in coherence order is not an
 * atomic's write morally strong with it that read it); its value goes to
 * out and the release it carried is returned. The atomic's write
 * (model_weak_store, MODEL_WEAK_RMW) then goes right after it. */
mrel model_weak_rmw_read(mthread *t, uintptr_t p, size_t size, int kind, void *out);
/* Forgets every history (a new launch). */
void model_weak_reset(void);

/* mem.c */
const malloc_t *model_find_alloc(const mblock *b, uintptr_t addr);
/* An address as the same number in every process that runs the same host
 * driver: its allocation's place among the device allocations (or block
 * b's shared memory) and its offset there. What a schedule search hashes,
 * so that processes (ranks) can compare states. */
uint64_t model_mem_canonical(const mblock *b, uintptr_t addr);
/* Name allocation a as the source names it (text cleaned: a cast, '&' and
 * a C++ mangling dropped), elements counted from base. */
void model_name_alloc(malloc_t *a, const char *text, uintptr_t base);
/* "shared s[37]" or "global out[1024]" for the word at addr, elements of
 * size bytes (0: 4); the address and its offset when nothing names it. */
void model_name_address(const mblock *b, uintptr_t addr, unsigned size, char *buf, size_t n);
/* The race shadow of the word holding addr (shared or global), the lowest
 * address of its memory and the first stamp of its lifetime; NULL when
 * addr is in no allocation with a shadow. */
mshadow *model_shadow_word(const mblock *b, uintptr_t addr, uintptr_t *lo, uint32_t *stamp0);
/* Grows t's trace (one free entry at least); false when out of memory. */
bool model_trace_grow(mthread *t);
/* Gives every device allocation its race shadow (before a launch with
 * accounting). */
sl_status model_shadow_prepare(void);
/* Clears every race shadow (when the stamp counter wraps). */
void model_shadow_clear_all(void);
void model_mem_reset_all(void);

/* warp.c: accounts the lanes' traces of warp w since the last flush. */
void model_warp_flush(mblock *b, unsigned w);

/* sched.c: stops the launch with a finding (never returns when called
 * from a fiber). */
void model_fail(mthread *t, model_finding *f, sl_status st);
void model_report_race(mthread *t, const model_site *site, const mref *prev, uintptr_t addr, bool write);
void model_thread_desc(const mthread *t, char *buf, size_t size);
/* Parks the running thread t (its state already set) and runs the next
 * ready lane of its warp, or returns to the host; returns when t runs
 * again. */
void model_park(mthread *t);
/* A point where another block may run (t parks as TS_YIELD at site): in
 * explored schedules at every global store, fence and strong access; in a
 * schedule search at strong stores and fences (strong). Nothing otherwise. */
void model_preempt(mthread *t, bool strong, const model_site *site);
/* Residency slot i (of the launch's slots) and starting block lin in it. */
mblock *model_slot(unsigned i);
sl_status model_slot_start(unsigned i, unsigned lin);
/* One turn of block b (its spinners and yielders go on, it runs until none
 * of its threads can move); a finished block is retired and counted.
 * Returns whether it finished. */
bool model_take_turn(mblock *b, uint64_t *launch_steps, model_stats *s);

/* search.c: the search of block schedules under a progress model */
/* Whether a search (model_search_run) is in progress. */
bool model_search_active(void);
/* The grid of the current launch under the search: every schedule the
 * progress model allows (or samples of them). */
sl_status model_search_grid(unsigned nblocks, unsigned nres, uint64_t *launch_steps, model_stats *s);

/* mem.c: folds the bytes of every device allocation into h. */
uint64_t model_mem_hash(uint64_t h);

/* snapshot.c: the state of a launch in progress, copied out and put back
 * in place (the schedule search explores the choices at a state one after
 * another in one process). Bytes are appended in order and read back in
 * the same order. */
typedef struct {
    unsigned char *p;
    size_t len, cap;
    bool failed; /* out of memory: the snapshot is incomplete */
} model_snap;
/* Appends n bytes of src. */
void model_snap_put(model_snap *s, const void *src, size_t n);
/* Room for n bytes at the end (NULL when out of memory). */
void *model_snap_room(model_snap *s, size_t n);
/* Reads the next n bytes at *cur into dst. */
void model_snap_get(const unsigned char **cur, void *dst, size_t n);
void model_snap_free(model_snap *s);

/* sched.c: the scheduler's part of a snapshot: the launch, the stamp
 * counter, the crews' free list, and the launch's first nres slots with
 * their blocks' threads, fibers, warp counters and shared memory. */
void model_sched_save(model_snap *s, unsigned nres);
void model_sched_restore(const unsigned char **cur, unsigned nres);
/* Makes n crews of nth threads exist, so that a search creates none (a
 * crew made after a snapshot would be lost when it is put back). */
sl_status model_crews_reserve(unsigned n, unsigned nth);
/* mem.c: the bytes of every device allocation (none is made or freed
 * during a launch). */
void model_mem_save(model_snap *s);
void model_mem_restore(const unsigned char **cur);

#endif
