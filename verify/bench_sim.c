/* scanlab bench --backend sim: how fast the simulator runs kernels.
 *
 * One lane-operation is one dialect call (load, store, operator, barrier,
 * warp operation) by one simulated thread. The block-level Brent-Kung scan
 * (each section of 2 x block elements scanned alone: one launch) of n i32
 * runs twice on one core: with full accounting (banks, sectors, races,
 * divergence), and compiled with accounting off (fibers and barriers kept),
 * the baseline for the overhead. */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "cli.h"
#include "cuda/launch.h"
#include "json.h"
#include "model/model.h"

sl_status brent_kung_i32_add_sim(const sl_kargs *a);
sl_status brent_kung_i32_add_plain(const sl_kargs *a);

#define BENCH_SIM_SECTIONS_ONLY 1 /* brent-kung's param: the block-level kernel alone */
/* The simulator's benchmark size: larger --n values are capped to it. */
#define BENCH_SIM_LOG2_N 22

static sl_status timed(sl_status (*fn)(const sl_kargs *), const sl_kargs *k, model_stats *s, double *sec)
{
    model_begin(s);
    double t0 = bench_now();
    sl_status st = fn(k);
    *sec = bench_now() - t0;
    return model_end(st);
}

int bench_sim(const bench_options *o)
{
    const size_t n = o->n < ((size_t)1 << BENCH_SIM_LOG2_N) ? o->n : (size_t)1 << BENCH_SIM_LOG2_N;
    if (cli_check_memory("bench", n, sizeof(int32_t), 16) != SL_OK)
        return CLI_EXIT_USAGE;
    int32_t *in = malloc(n ? n * sizeof *in : 1), *out = malloc(n ? n * sizeof *out : 1);
    if (!in || !out) {
        free(in);
        free(out);
        fprintf(stderr, "scanlab: bench: out of memory\n");
        return CLI_EXIT_FAILED;
    }
    for (size_t i = 0; i < n; i++)
        in[i] = (int32_t)(i % 7) - 3;
    sl_kargs k = {in, out, n, false, 0, BENCH_SIM_SECTIONS_ONLY};
    model_stats full, plain;
    model_stats_init(&full);
    model_stats_init(&plain);
    full.cfg.quiet = plain.cfg.quiet = true;
    double t_full = 0, t_plain = 0;
    int reps = o->reps > 0 ? o->reps : 1;
    double best_full = 0, best_plain = 0;
    sl_status st = SL_OK;
    for (int r = 0; r < reps && st == SL_OK; r++) {
        model_stats_free(&full);
        model_stats_init(&full);
        st = timed(brent_kung_i32_add_sim, &k, &full, &t_full);
        if (st == SL_OK)
            st = timed(brent_kung_i32_add_plain, &k, &plain, &t_plain);
        if (r == 0 || t_full < best_full)
            best_full = t_full;
        if (r == 0 || t_plain < best_plain)
            best_plain = t_plain;
    }
    const uint64_t lane_ops = full.lane_ops + full.work;
    const double rate = best_full > 0 ? (double)lane_ops / best_full : 0.0;
    const double rate_plain = best_plain > 0 ? (double)lane_ops / best_plain : 0.0;
    const double overhead = best_plain > 0 ? best_full / best_plain : 0.0;
    if (st != SL_OK) {
        fprintf(stderr, "scanlab: bench: %s%s%s\n", sl_status_str(st), full.has_error ? ": " : "",
                full.has_error ? full.error.text : "");
    } else if (o->json) {
        json_writer w;
        json_init(&w, stdout);
        json_begin_object(&w, NULL);
        json_string(&w, "backend", "sim");
        json_string(&w, "kernel", "brent-kung block-level (sections of 2 x 1024), i32 add");
        json_uint(&w, "n", n);
        json_int(&w, "reps", reps);
        json_uint(&w, "lane_ops", lane_ops);
        json_double(&w, "seconds", best_full);
        json_double(&w, "seconds_plain", best_plain);
        json_double(&w, "lane_ops_per_second", rate);
        json_double(&w, "lane_ops_per_second_plain", rate_plain);
        json_double(&w, "overhead_vs_plain", overhead);
        json_end_object(&w);
        json_finish(&w);
    } else {
        printf("simulator speed, one core: block-level Brent-Kung scan of %zu i32 (best of %d)\n", n, reps);
        printf("%-28s %14llu\n", "lane-operations", (unsigned long long)lane_ops);
        printf("%-28s %14.3f s  %8.1f M lane-ops/s\n", "full accounting", best_full, rate / 1e6);
        printf("%-28s %14.3f s  %8.1f M lane-ops/s\n", "accounting off", best_plain, rate_plain / 1e6);
        printf("%-28s %14.2f x\n", "overhead of accounting", overhead);
    }
    model_stats_free(&full);
    model_stats_free(&plain);
    free(in);
    free(out);
    return st == SL_OK ? CLI_EXIT_OK : cli_exit_code(st);
}
