/* Fibers: one small stack per simulated thread and a fast switch.
 *
 * The simulator switches only at synchronisation points, so the switch is
 * the cost that matters: on x86-64 it saves the callee-saved registers and
 * the stack pointer (a few instructions); elsewhere it falls back to
 * ucontext, which is correct but much slower. */
#ifndef SCANLAB_MODEL_FIBER_H
#define SCANLAB_MODEL_FIBER_H

#include <stdbool.h>
#include <stddef.h>
#include "cuda/status.h"

typedef struct model_fiber model_fiber;
typedef void (*model_fiber_fn)(void *arg);

/* A stack for one fiber; reused across blocks. */
model_fiber *model_fiber_new(void);
void model_fiber_delete(model_fiber *f);
/* Whether f's stack still holds the mark written below its lowest frame by
 * model_fiber_reset (false: the thread overflowed its stack). */
bool model_fiber_stack_intact(const model_fiber *f);
/* Prepares f to run fn(arg) from the top of its stack on the next switch. */
void model_fiber_reset(model_fiber *f, model_fiber_fn fn, void *arg);
/* Runs f until it calls model_fiber_yield (or its function returns, which
 * must not happen: fn ends with a final yield). */
void model_fiber_run(model_fiber *f);
/* From inside the running fiber: back to the host (the caller of
 * model_fiber_run). */
void model_fiber_yield(void);
/* From inside the running fiber: straight on to fiber to (one switch
 * instead of two through the host); returns when this fiber runs again. */
void model_fiber_pass(model_fiber *to);

#endif
