/* A launch whose every choice a chooser answers (model/choice.h): one
 * thread a turn, every block resident, so that a driver replaying the
 * launch with each sequence of answers sees every interleaving of the
 * threads' events and every value the weak memory model lets a strong
 * load return. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "model/choice.h"

const model_chooser *model_chooser_now;
unsigned model_weaken;

void model_set_chooser(const model_chooser *c) { model_chooser_now = c; }

void model_set_weaken(unsigned mask) { model_weaken = mask; }

void model_choice_event(const mthread *t, uintptr_t addr, int what)
{
    model_chooser_now->event(model_chooser_now->ctx, t->gtid - 1, addr, what);
}

static unsigned choose(int kind, unsigned n)
{
    if (!model_chooser_now)
        return (unsigned)model_rand_below(n);
    const unsigned k = model_chooser_now->choose(model_chooser_now->ctx, kind, n, NULL);
    if (k == MODEL_CHOICE_STOP || k >= n) {
        model_L.abort = true;
        model_L.abort_status = SL_ERR_SIM;
        return n - 1;
    }
    return k;
}

unsigned model_choose_value(unsigned n) { return choose(MODEL_CHOICE_VALUE, n); }

unsigned model_choose_place(unsigned n) { return choose(MODEL_CHOICE_PLACE, n); }

sl_status model_run_chosen(unsigned nblocks, uint64_t *launch_steps, model_stats *s)
{
    uint32_t *who = malloc((size_t)nblocks * model_L.nth * sizeof *who);
    mthread **th = malloc((size_t)nblocks * model_L.nth * sizeof *th);
    if (!who || !th) {
        free(who);
        free(th);
        return SL_ERR_NOMEM;
    }
    sl_status st = SL_OK;
    unsigned done = 0;
    /* every block starts and runs each thread to its first point where
     * others may run: what lies before is the thread's own */
    for (unsigned i = 0; i < nblocks && st == SL_OK; i++) {
        mblock *b = model_slot(i);
        st = model_slot_start(i, i);
        if (st == SL_OK)
            done += model_take_turn(b, launch_steps, s);
        if (model_L.abort)
            st = model_L.abort_status;
    }
    while (st == SL_OK && done < nblocks) {
        unsigned n = 0;
        for (unsigned i = 0; i < nblocks; i++) {
            mblock *b = model_slot(i);
            if (!b->active)
                continue;
            for (unsigned k = 0; k < b->nth; k++)
                if (b->th[k].state == TS_SPIN || b->th[k].state == TS_YIELD) {
                    who[n] = b->th[k].gtid - 1;
                    th[n++] = &b->th[k];
                }
        }
        if (n == 0) {
            /* unfinished blocks, none of whose threads can go on (a
             * barrier some never reach): the driver sees SL_ERR_SIM */
            st = SL_ERR_SIM;
            break;
        }
        const unsigned k = model_chooser_now->choose(model_chooser_now->ctx, MODEL_CHOICE_THREAD, n, who);
        if (k == MODEL_CHOICE_STOP || k >= n) {
            st = SL_ERR_SIM;
            break;
        }
        mthread *t = th[k];
        t->state = TS_READY;
        t->blk->nspin--;
        done += model_take_turn(t->blk, launch_steps, s);
        if (model_L.abort)
            st = model_L.abort_status;
    }
    free(who);
    free(th);
    return st;
}
