/* Simulator runs shared by the report's sections on one block. */
#include <stdlib.h>

#include "verify/harness/algos.h"
#include "verify/harness/inputs.h"
#include "model/model.h"
#include "verify/report/report.h"

/* Threads per block to try, as divisors of n: one element per thread,
 * two (Brent-Kung, Blelloch), then more per thread. */
static const size_t per_thread[] = {2, 1, 4, 8};

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
    for (size_t k = 0; st == SL_OK && !done && k <= sizeof per_thread / sizeof per_thread[0]; k++) {
        size_t b = k < sizeof per_thread / sizeof per_thread[0] ? n / per_thread[k] : 0;
        if (k < sizeof per_thread / sizeof per_thread[0] && (b == 0 || b > MODEL_MAX_BLOCK_THREADS))
            continue;
        model_stats_free(ms);
        model_stats_init(ms);
        ms->cfg.quiet = true;
        args.block = (int)b;
        args.sim = ms;
        sl_status r = a->run[SL_SIM](&args);
        /* the last try (the default block) is taken whatever it makes */
        done = b == 0 || (r == SL_OK && ms->blocks == 1);
        if (done) {
            st = r;
            *block = (int)b;
        }
    }
    free(in);
    free(out);
    return st;
}
