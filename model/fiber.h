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

/* Snapshots of a parked fiber (the schedule search, model/search.c): the
 * bytes of its stack in use and its saved context, copied out and back in
 * place, so that a fiber can be put back where it was parked. Not with
 * AddressSanitizer, whose shadow of the stack would not follow (false). */
bool model_fiber_can_snapshot(void);
/* Bytes that model_fiber_save writes for f now. */
size_t model_fiber_saved_size(const model_fiber *f);
/* Copies f's state into buf (model_fiber_saved_size(f) bytes) and returns
 * that size. */
size_t model_fiber_save(const model_fiber *f, void *buf);
/* Puts back a state that model_fiber_save took of f (size bytes). */
void model_fiber_restore(model_fiber *f, const void *buf, size_t size);

#endif
