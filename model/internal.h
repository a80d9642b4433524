/* The simulator's internal state, shared by its source files. */
#ifndef SCANLAB_MODEL_INTERNAL_H
#define SCANLAB_MODEL_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include "model/fiber.h"
#include "model/model.h"

/* Race shadow of one 4-byte word: its last writer and last reader, 16
 * bytes each. tid is the grid-linear thread id + 1 (0: none); stamp the
 * barrier interval of the access, a process-wide counter bumped at every
 * block start and barrier completion (so it also tells launches and block
 * runs apart); sync the warp-sync count of the accessing thread's warp
 * within its block (compared only within one interval); rel the block's
 * release count; site the interned site id, with SHADOW_SYNC set for
 * volatile or atomic writes. */
typedef struct {
    uint32_t tid, stamp, rel;
    uint16_t sync, site;
} mref;
typedef struct {
    mref w, r;
} mshadow;
#define SHADOW_SYNC 0x8000u
#define SHADOW_MAX_SITE 0x7fffu

typedef struct {
    uintptr_t lo, hi; /* [lo, hi) */
    mshadow *shadow;  /* one per 4-byte word */
    bool shared;
    void *raw;        /* what to free (global) */
} malloc_t;

enum { TS_READY, TS_BAR, TS_WARP, TS_SPIN, TS_EXIT };

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
} mthread;

/* The threads of one block with their fibers and traces: reused by the
 * blocks that run one after another, so that they stay in cache. */
typedef struct mcrew {
    mthread *th;
    unsigned cap;
    struct mcrew *next; /* in the free list */
} mcrew;

typedef struct {
    unsigned blk;
    uint32_t rel;
} macq;

typedef struct mblock {
    sl_dim3 block_idx;
    unsigned lin;
    uint32_t stamp0, stamp; /* the block run's first and current interval stamps */
    uint32_t epoch, rel;
    macq *acq;
    size_t nacq, capacq;
    mcrew *crew;
    mthread *th;
    unsigned nth, nwarps, nexited, nbar, nwarpop, nspin;
    unsigned run_end; /* lanes below this index may be passed to */
    const mthread *bar_first, *bar_other; /* first at a barrier; one at another */
    uint32_t *wsync;
    unsigned capwarps;
    unsigned char *smem; /* 128-byte aligned arena: dynamic part first */
    size_t smem_used;
    malloc_t dyn;
    malloc_t *sallocs;
    unsigned nsallocs, capsallocs;
    mshadow *sshadow;
    uint64_t steps, interval_max, barriers, work;
    bool active;
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
} mlaunch;

extern mlaunch model_L;
/* The interval stamp counter (see mref). */
extern uint32_t model_stamp;

/* sites.c */
void model_site_intern(model_site *s);
const model_site *model_site_by_id(uint32_t id);
model_site_stats *model_site_stats_of(model_stats *st, const model_site *s);

/* mem.c */
const malloc_t *model_find_alloc(const mblock *b, uintptr_t addr);
/* Runs the race shadow over t's trace entries it has not seen yet. */
void model_shadow_trace(mthread *t);
/* Before a synchronising access: the shadow catches up with every lane of
 * t's warp, so that plain accesses are checked against the release and
 * acquire state they ran under. */
void model_shadow_catch_up(mthread *t);
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
void model_report_race(mthread *t, const model_site *site, const mref *prev, uintptr_t addr);
void model_thread_desc(const mthread *t, char *buf, size_t size);
/* Parks the running thread t (its state already set) and runs the next
 * ready lane of its warp, or returns to the host; returns when t runs
 * again. */
void model_park(mthread *t);

#endif
