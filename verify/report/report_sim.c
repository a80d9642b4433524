/* Simulator runs shared by the report's sections on one block. */
#include <stdlib.h>

#include "model/model.h"
#include "verify/harness/algos.h"
#include "verify/harness/inputs.h"
#include "verify/report/closed_form.h"
#include "verify/report/report.h"

/* Elements per thread to try after the closed form's block: two (Brent-Kung,
 * Blelloch), one, then more. */
static const size_t per_thread[] = {2, 1, 4, 8};
#define TRIES (1 + sizeof per_thread / sizeof per_thread[0])

/* The block of try k (0: the closed form's, then per_thread), or 0 when
 * that try has none. */
static size_t block_of_try(const verify_algo *a, size_t n, size_t k)
{
    if (k == 0) {
        const closed_form *f = closed_form_of(a->name);
        const char *why;
        return f ? f->block_for(n, &why) : 0;
    }
    size_t b = n / per_thread[k - 1];
    return b > MODEL_MAX_BLOCK_THREADS ? 0 : b;
}

sl_status report_sim_block(const void *algo, sl_type t, size_t n, uint64_t seed, void *stats, int *block)
{
    const verify_algo *a = algo;
    model_stats *ms = stats;
    size_t es = SL_TYPE_SIZE(t);
    void *in = malloc(n * es), *out = malloc(n * es);
    sl_status st = in && out ? verify_fill_input(t, SL_ADD, verify_default_dist(t), seed, n, in) : SL_ERR_NOMEM;
    sl_scan_args args = {.type = t, .op = SL_ADD, .in = in, .out = out, .n = n};
    bool done = false;
    model_stats_init(ms);
    for (size_t k = 0; st == SL_OK && !done && k <= TRIES; k++) {
        size_t b = k < TRIES ? block_of_try(a, n, k) : 0;
        if (k < TRIES && b == 0)
            continue;
        model_stats_free(ms);
        model_stats_init(ms);
        ms->cfg.quiet = true;
        args.block = (int)b;
        args.sim = ms;
        sl_status r = a->run[SL_SIM](&args);
        /* the last try (the default block) is taken whatever it makes */
        done = k == TRIES || (r == SL_OK && ms->blocks == 1);
        if (done) {
            st = r;
            *block = (int)b;
        }
    }
    free(in);
    free(out);
    return st;
}
