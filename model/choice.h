/* Enumerating every execution of a small launch (the litmus tests,
 * docs/memory-model.md "Litmus tests"): a chooser answers each choice of an
 * explored schedule, so that a driver can walk all of them by replaying
 * the launch with every sequence of answers. */
#ifndef SCANLAB_MODEL_CHOICE_H
#define SCANLAB_MODEL_CHOICE_H

#include <stdbool.h>
#include <stdint.h>

enum {
    MODEL_CHOICE_THREAD, /* which parked thread runs its next event (who[] holds their grid-linear ids) */
    MODEL_CHOICE_VALUE,  /* which allowed store a strong load returns (0: the oldest allowed) */
    MODEL_CHOICE_PLACE,  /* where a store goes in coherence order (0: after every store; k: before the k-th
                          * latest place its thread may take) */
};
/* What an event of a turn touched: a memory access, a barrier arrival
 * (addr: the block, as its own pseudo-location), an SC fence (addr 0). */
enum { MODEL_EV_READ, MODEL_EV_WRITE, MODEL_EV_BARRIER, MODEL_EV_FENCE_SC };
#define MODEL_CHOICE_STOP 0xffffffffu

typedef struct {
    /* An index below n, or MODEL_CHOICE_STOP to end the launch there (its
     * status is then SL_ERR_SIM with no finding). */
    unsigned (*choose)(void *ctx, int kind, unsigned n, const uint32_t *who);
    /* The running thread (grid-linear id) performed an event. */
    void (*event)(void *ctx, uint32_t tid, uintptr_t addr, int what);
    void *ctx;
} model_chooser;

/* With a chooser set, a launch of an explored schedule (model_config.schedule
 * != 0) runs every block at once, starts each thread to its first point
 * where others may run, and then gives each turn to one thread the chooser
 * picks among all parked ones: the thread performs the event it stopped
 * at and runs on to its next such point. Strong loads ask it which allowed
 * store they return, and strong stores where they go in coherence order;
 * every other random choice of the schedule is fixed (lane and warp orders
 * do not matter when one thread runs at a time).
 * NULL (the default): explored schedules draw from their seed. */
void model_set_chooser(const model_chooser *c);

/* A deliberately wrong memory model, for tests of the tests only
 * (tests/litmus): fences order nothing, or every scope is taken as the
 * system's. 0 is the model of docs/memory-model.md. */
enum { MODEL_WEAKEN_FENCE = 1, MODEL_WEAKEN_SCOPE = 2 };
void model_set_weaken(unsigned mask);

#endif
