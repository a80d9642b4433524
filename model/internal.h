/* The simulator's internal state, shared by its source files. */
#ifndef SCANLAB_MODEL_INTERNAL_H
#define SCANLAB_MODEL_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include "model/fiber.h"
#include "model/model.h"

/* One recorded memory access of a lane, between two sync points. */
typedef struct {
    const model_site *site;
    uintptr_t addr;
    uint32_t size;
    uint8_t kind;   /* MODEL_RD / MODEL_WR, | MODEL_VOL, | MODEL_ATOMIC */
    uint8_t shared; /* 1: shared memory, 0: global */
} mtrace;

/* Race shadow of one 4-byte word: its last writer and last reader. tid is
 * the grid-linear thread id + 1 (0: none); gen the launch (global memory)
 * or the block run (shared memory); epoch the barrier interval and sync
 * the warp-sync count of the accessing thread's block and warp; rel the
 * block's release count; site the interned site id, with SHADOW_SYNC set
 * for volatile or atomic writes. */
typedef struct {
    uint32_t tid, gen, epoch, sync, rel, site;
} mref;
typedef struct {
    mref w, r;
} mshadow;
#define SHADOW_SYNC 0x80000000u

typedef struct {
    uintptr_t lo, hi; /* [lo, hi) */
    mshadow *shadow;  /* one per 4-byte word */
    bool shared;
    void *raw;        /* what to free (global) */
} malloc_t;

enum { TS_READY, TS_BAR, TS_WARP, TS_SPIN, TS_EXIT };

struct mblock;
typedef struct {
    model_lane pub; /* first: model_cur points here */
    model_fiber *fiber;
    struct mblock *blk;
    unsigned lin, lane, warp;
    uint32_t gtid; /* grid-linear id + 1 */
    int state;
    bool ran; /* ran in the current sweep */
    const model_site *park_site;
    int wop_kind, wop_class; /* class: 0 syncwarp, 1 shuffle, 2 vote */
    unsigned wop_mask;
    uint64_t wop_val, wop_res;
    int wop_arg;
    uintptr_t spin_addr;
    const model_site *spin_site;
    mtrace *tr;
    size_t ntr, captr;
    unsigned shared_k;
    const malloc_t *cache;
} mthread;

typedef struct {
    unsigned blk;
    uint32_t rel;
} macq;

typedef struct mblock {
    sl_dim3 block_idx;
    unsigned lin;
    uint32_t gen, epoch, rel;
    macq *acq;
    size_t nacq, capacq;
    mthread *th;
    unsigned nth, capth, nwarps, nexited;
    uint32_t *wsync;
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
    uint32_t gen;
    bool abort;
    sl_status abort_status;
    uint64_t progress, weak_progress;
    bool accounting;
} mlaunch;

extern mlaunch model_L;

/* sites.c */
void model_site_intern(model_site *s);
const model_site *model_site_by_id(uint32_t id);
model_site_stats *model_site_stats_of(model_stats *st, const model_site *s);

/* mem.c */
const malloc_t *model_find_alloc(const mblock *b, uintptr_t addr);
void model_shadow_access(mthread *t, const malloc_t *a, uintptr_t addr, uint32_t size, int kind,
                         const model_site *site);
void model_mem_reset_all(void);

/* warp.c: accounts the lanes' traces of warp w since the last flush. */
void model_warp_flush(mblock *b, unsigned w);

/* sched.c: stops the launch with a finding (never returns when called
 * from a fiber). */
void model_fail(mthread *t, model_finding *f, sl_status st);
void model_report_race(mthread *t, const model_site *site, const mref *prev, uintptr_t addr);
void model_thread_desc(const mthread *t, char *buf, size_t size);

#endif
