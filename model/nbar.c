/* PTX's named barriers: bar.sync / barrier.sync with an id other than 0 or
 * a thread count, and bar.arrive (docs/memory-model.md, "Barriers").
 *
 * A CTA has sixteen barriers. Arrival is per warp, as on the GPU: a lane
 * that executes one waits until every live lane of its warp has, and then
 * the warp counts as MODEL_WARP_SIZE threads. A round completes when the
 * warps arrived reach the count the round's first arrival named (the
 * whole block's warps without a count); the lanes that wait (bar.sync)
 * then go on, those that only arrive (bar.arrive) went on at their warp's
 * arrival. Warps that arrive after a round completed begin the next one,
 * so a barrier reached by more threads than its count leaves the last
 * ones waiting for a round that may never complete: a hang, as on the GPU.
 *
 * Happens-before: each arrival is a release, each waiter acquires every
 * arrival of its round (hb.c's acquire records, through one waiter of the
 * round), so a barrier of some of the block's threads orders those
 * threads only. The block-wide
 * bar.sync 0 keeps the interval order of sched.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "model/choice.h"

void model_nbar_start(mblock *b)
{
    memset(b->nb, 0, sizeof b->nb);
    memset(b->nb_nrel, 0, sizeof b->nb_nrel);
    b->nb_waiting = 0;
    b->nb_released = false;
    for (unsigned i = 0; i < b->nth; i++) {
        b->th[i].nb_id = -1;
        b->th[i].nb_arrive = b->th[i].nb_counted = false;
        memset(&b->th[i].nb_pos, 0, sizeof b->th[i].nb_pos); /* states compare by their bytes (search.c) */
    }
}

static void release(mblock *b, mthread *u)
{
    u->state = TS_READY;
    u->nb_id = -1;
    u->nb_counted = false;
    b->nb_waiting--;
    b->nb_released = true;
}

static bool in_round(const mthread *u, unsigned id)
{
    return u->state == TS_NBAR && u->nb_id == (int)id && u->nb_counted;
}

/* The round of barrier id completes: its waiters acquire every arrival.
 * One waiter (the hub) acquires each arrival and the others acquire the
 * hub, so that a round of n arrivals and m waiters keeps n + m acquire
 * records, not n m (a block of 1024 threads would make a million). */
static void complete(mblock *b, unsigned id)
{
    mthread *hub = NULL;
    for (unsigned i = 0; i < b->nth && !hub; i++)
        if (in_round(&b->th[i], id))
            hub = &b->th[i];
    if (model_L.ordering && hub) {
        hub->seq++;
        const mpos hp = model_pos(hub);
        hub->seq++; /* what the hub does next is after it */
        for (unsigned k = 0; k < b->nb_nrel[id]; k++)
            if (b->nb_rel[id][k].tid != hub->gtid)
                model_hb_sync(&hp, &b->nb_rel[id][k]);
        for (unsigned i = 0; i < b->nth; i++) {
            mthread *u = &b->th[i];
            if (u == hub || !in_round(u, id))
                continue;
            u->seq++;
            const mpos acq = model_pos(u);
            model_hb_sync(&acq, &hp);
        }
    }
    for (unsigned i = 0; i < b->nth; i++)
        if (in_round(&b->th[i], id))
            release(b, &b->th[i]);
    b->nb[id].warps = b->nb[id].expect = 0;
    b->nb_nrel[id] = 0;
    model_L.progress++;
}

static void keep_arrival(mblock *b, unsigned id, const mpos *p)
{
    if (b->nb_nrel[id] == b->nb_caprel[id]) {
        const unsigned cap = b->nb_caprel[id] ? 2 * b->nb_caprel[id] : 8;
        mpos *v = realloc(b->nb_rel[id], cap * sizeof *v);
        if (!v)
            return; /* out of memory: a missing edge can only add a report */
        b->nb_rel[id] = v;
        b->nb_caprel[id] = cap;
    }
    b->nb_rel[id][b->nb_nrel[id]++] = *p;
}

/* Whether warp w's arrival at barrier id is complete (every live lane
 * there, none counted yet): then it is counted, its arriving-only lanes go
 * on, and the round may complete. */
static void warp_check(mblock *b, unsigned w, unsigned id)
{
    const unsigned lo = w * MODEL_WARP_SIZE, hi = lo + MODEL_WARP_SIZE < b->nth ? lo + MODEL_WARP_SIZE : b->nth;
    unsigned there = 0;
    for (unsigned i = lo; i < hi; i++) {
        const mthread *u = &b->th[i];
        if (u->state == TS_EXIT)
            continue;
        if (u->state != TS_NBAR || u->nb_id != (int)id || u->nb_counted)
            return;
        there++;
    }
    if (there == 0)
        return;
    for (unsigned i = lo; i < hi; i++) {
        mthread *u = &b->th[i];
        if (u->state != TS_NBAR)
            continue;
        if (model_L.ordering)
            keep_arrival(b, id, &u->nb_pos);
        u->nb_counted = true;
        if (u->nb_arrive)
            release(b, u);
    }
    if (++b->nb[id].warps >= b->nb[id].expect)
        complete(b, id);
}

void model_nbar_exited(mthread *t)
{
    mblock *b = t->blk;
    for (unsigned id = 0; id < MODEL_NAMED_BARRIERS && b->nb_waiting; id++)
        warp_check(b, t->warp, id);
}

void model_named_barrier(unsigned id, unsigned count, bool arrive, model_site *site)
{
    mthread *t = (mthread *)model_cur;
    mblock *b = t->blk;
    if (__builtin_expect(site->id == 0, 0))
        model_site_intern(site);
    /* the arrival is a point where others may run first: with a thread
     * count, which warps make a round depends on the order they arrive */
    model_preempt(t, true, site);
    if (model_chooser_now)
        model_choice_event(t, (uintptr_t)b, MODEL_EV_BARRIER);
    const unsigned warps = count ? count / MODEL_WARP_SIZE : b->nwarps;
    model_finding f;
    memset(&f, 0, sizeof f);
    f.site[0] = site;
    f.block[0] = b->lin;
    f.thread[0] = t->lin;
    if (id >= MODEL_NAMED_BARRIERS || (count && count % MODEL_WARP_SIZE) || (arrive && !count)) {
        f.kind = MODEL_FIND_UB;
        snprintf(f.text, sizeof f.text, "%s:%d: barrier %u with a thread count of %u: PTX requires an id below %d "
                 "and a count that is a non-zero multiple of the warp size (%d)%s", site->file, site->line, id,
                 count, MODEL_NAMED_BARRIERS, MODEL_WARP_SIZE, arrive && !count ? " for bar.arrive" : "");
        model_fail(t, &f, SL_ERR_SIM);
    }
    if (b->nb[id].warps == 0 && b->nb[id].expect == 0) {
        b->nb[id].expect = (uint16_t)warps;
    } else if (b->nb[id].expect != warps) {
        f.kind = MODEL_FIND_UB;
        snprintf(f.text, sizeof f.text, "%s:%d: barrier %u reached with a count of %u threads while its round "
                 "counts %u: the threads of one round must name the same count", site->file, site->line, id,
                 count ? count : b->nth, b->nb[id].expect * MODEL_WARP_SIZE);
        model_fail(t, &f, SL_ERR_SIM);
    }
    /* the race shadow sees the warp's plain accesses at the positions they
     * ran at, before the arrival moves this thread on */
    model_shadow_catch_up(t);
    if (model_L.ordering) {
        t->nb_pos = model_pos(t);
        t->seq++; /* what follows is after the arrival */
    }
    t->nb_id = (int8_t)id;
    t->nb_arrive = arrive;
    t->nb_counted = false;
    t->state = TS_NBAR;
    t->park_site = site;
    b->nb_waiting++;
    model_L.progress++;
    warp_check(b, t->warp, id);
    if (t->state == TS_NBAR)
        model_park(t);
}
