/* scanlab bench --backend sim: how fast the simulator runs kernels.
 *
 * One lane-operation is one dialect call (load, store, operator, barrier,
 * warp operation) by one simulated thread. The block-level Brent-Kung scan
 * (each section of 2 x block elements scanned alone: one launch) of n i32
 * runs twice on one core: with full accounting (banks, sectors, races,
 * divergence), and compiled with accounting off (fibers and barriers kept),
 * the baseline for the overhead. Both run once untimed first; the best of
 * the timed repetitions is reported, by the wall clock and by the CPU time
 * of the simulating thread (what a machine shared with other work still
 * measures faithfully). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "verify/cli/bench.h"
#include "verify/cli/cli.h"
#include "verify/cli/memory.h"
#include "cuda/launch.h"
#include "verify/formats/json.h"
#include "model/model.h"
#include "model/ptx/catalogue.h"
#include "model/ptx/run.h"

sl_status brent_kung_i32_add_sim(const sl_kargs *a);
sl_status brent_kung_i32_add_plain(const sl_kargs *a);

#define BENCH_SIM_SECTIONS_ONLY 1 /* brent-kung's param: the block-level kernel alone */
/* The simulator's benchmark size: larger --n values are capped to it. */
#define BENCH_SIM_LOG2_N 22

/* CPU seconds of the calling thread: on a machine shared with other work
 * the wall clock also counts the time the thread waited for a core. */
static double cpu_now(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return 0.0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct {
    double wall, cpu;
} bench_time;

static sl_status timed(sl_status (*fn)(const sl_kargs *), const sl_kargs *k, model_stats *s, bench_time *t)
{
    model_begin(s);
    double t0 = bench_now(), c0 = cpu_now();
    sl_status st = fn(k);
    t->cpu = cpu_now() - c0;
    t->wall = bench_now() - t0;
    return model_end(st);
}

static void keep_best(bench_time *best, const bench_time *t, int rep)
{
    if (rep == 0 || t->wall < best->wall)
        best->wall = t->wall;
    if (rep == 0 || t->cpu < best->cpu)
        best->cpu = t->cpu;
}

int bench_sim_check(const bench_options *o)
{
    if (o->algos && strcmp(o->algos, "brent-kung") != 0)
        return cli_usage_error("bench: the sim benchmark times brent-kung (the one kernel also "
                               "built with accounting off), not '%s'", o->algos);
    if (o->type != SL_I32 || o->op != SL_ADD || o->exclusive)
        return cli_usage_error("bench: the sim benchmark runs an inclusive i32 add scan");
    const size_t n = o->n < ((size_t)1 << BENCH_SIM_LOG2_N) ? o->n : (size_t)1 << BENCH_SIM_LOG2_N;
    if (cli_check_peak("bench", n, cli_peak_simulate(n * sizeof(int32_t), n * sizeof(int32_t), 0)) !=
        SL_OK)
        return CLI_EXIT_USAGE;
    return CLI_EXIT_OK;
}

int bench_sim(const bench_options *o)
{
    const size_t n = o->n < ((size_t)1 << BENCH_SIM_LOG2_N) ? o->n : (size_t)1 << BENCH_SIM_LOG2_N;
    int32_t *in = malloc(n ? n * sizeof *in : 1), *out = malloc(n ? n * sizeof *out : 1);
    if (!in || !out) {
        free(in);
        free(out);
        fprintf(stderr, "scanlab: bench: out of memory\n");
        return CLI_EXIT_FAILED;
    }
    for (size_t i = 0; i < n; i++)
        in[i] = (int32_t)(i % 7) - 3;
    sl_kargs k = {in, out, n, false, o->block, o->param ? o->param : BENCH_SIM_SECTIONS_ONLY,
                  SL_ADVERSARY_NONE};
    model_stats full, plain;
    model_stats_init(&full);
    model_stats_init(&plain);
    full.cfg.quiet = plain.cfg.quiet = true;
    bench_time t_full = {0, 0}, t_plain = {0, 0}, best_full = {0, 0}, best_plain = {0, 0};
    int reps = o->reps > 0 ? o->reps : 1;
    /* One untimed run of each first, as for the other backends: it makes
     * the fibers, traces and race shadows that later runs reuse. */
    sl_status st = timed(brent_kung_i32_add_sim, &k, &full, &t_full);
    const bench_time cold = t_full;
    if (st == SL_OK)
        st = timed(brent_kung_i32_add_plain, &k, &plain, &t_plain);
    for (int r = 0; r < reps && st == SL_OK; r++) {
        model_stats_free(&full);
        model_stats_init(&full);
        full.cfg.quiet = true;
        st = timed(brent_kung_i32_add_sim, &k, &full, &t_full);
        if (st == SL_OK)
            st = timed(brent_kung_i32_add_plain, &k, &plain, &t_plain);
        keep_best(&best_full, &t_full, r);
        keep_best(&best_plain, &t_plain, r);
    }
    /* With SCANLAB_PTX_DIR (the build's tests/ptx folder): the same host
     * driver with its kernel run from nvcc's PTX by the PTX front end, timed
     * the same way, its output checked against the dialect run's. */
    const char *ptx_dir = getenv("SCANLAB_PTX_DIR");
    bench_time t_ptx = {0, 0}, best_ptx = {0, 0};
    unsigned long long ptx_instr = 0;
    bool ptx_ran = false;
    if (st == SL_OK && ptx_dir && *ptx_dir) {
        char err[1024];
        int32_t *ref = malloc(n ? n * sizeof *ref : 1);
        if (!ref || model_ptx_catalogue_open(ptx_dir, err, sizeof err) != 0 ||
            !model_ptx_catalogue_select("brent-kung", 1)) {
            fprintf(stderr, "scanlab: bench: SCANLAB_PTX_DIR: %s\n", ref ? err : "out of memory");
            st = SL_ERR_ARG;
        } else {
            memcpy(ref, out, n * sizeof *ref);
            model_stats ps;
            for (int r = -1; r < reps && st == SL_OK; r++) {
                model_stats_init(&ps);
                ps.cfg.quiet = true;
                const unsigned long long i0 = model_ptx_instructions();
                st = timed(brent_kung_i32_add_sim, &k, &ps, &t_ptx);
                ptx_instr = model_ptx_instructions() - i0;
                model_stats_free(&ps);
                if (r >= 0)
                    keep_best(&best_ptx, &t_ptx, r);
            }
            if (st == SL_OK && memcmp(ref, out, n * sizeof *ref) != 0) {
                fprintf(stderr, "scanlab: bench: the PTX run's output differs from the dialect run's\n");
                st = SL_ERR_CHECK;
            }
            ptx_ran = st == SL_OK;
        }
        model_ptx_catalogue_close();
        free(ref);
    }
    const uint64_t lane_ops = full.lane_ops + full.work;
    const double rate = best_full.wall > 0 ? (double)lane_ops / best_full.wall : 0.0;
    const double rate_plain = best_plain.wall > 0 ? (double)lane_ops / best_plain.wall : 0.0;
    const double overhead = best_plain.wall > 0 ? best_full.wall / best_plain.wall : 0.0;
    const double rate_cpu = best_full.cpu > 0 ? (double)lane_ops / best_full.cpu : 0.0;
    const double rate_plain_cpu = best_plain.cpu > 0 ? (double)lane_ops / best_plain.cpu : 0.0;
    const double overhead_cpu = best_plain.cpu > 0 ? best_full.cpu / best_plain.cpu : 0.0;
    if (st != SL_OK) {
        fprintf(stderr, "scanlab: bench: %s%s%s\n", sl_status_str(st), full.has_error ? ": " : "",
                full.has_error ? full.error.text : "");
    } else if (o->w) {
        json_writer *w = o->w;
        json_begin_object(w, NULL);
        json_string(w, "algo", "brent-kung");
        json_string(w, "backend", "sim");
        json_string(w, "kernel", "brent-kung block-level (sections of 2 x 1024), i32 add");
        json_string(w, "type", "i32");
        json_string(w, "op", "add");
        json_bool(w, "exclusive", false);
        json_uint(w, "n", n);
        json_int(w, "repeat", reps);
        json_uint(w, "lane_ops", lane_ops);
        json_double(w, "seconds", best_full.wall);
        json_double(w, "seconds_plain", best_plain.wall);
        json_double(w, "lane_ops_per_second", rate);
        json_double(w, "lane_ops_per_second_plain", rate_plain);
        json_double(w, "overhead_vs_plain", overhead);
        json_double(w, "cpu_seconds", best_full.cpu);
        json_double(w, "cpu_seconds_plain", best_plain.cpu);
        json_double(w, "lane_ops_per_cpu_second", rate_cpu);
        json_double(w, "lane_ops_per_cpu_second_plain", rate_plain_cpu);
        json_double(w, "overhead_vs_plain_cpu", overhead_cpu);
        json_double(w, "first_run_seconds", cold.wall);
        json_double(w, "first_run_cpu_seconds", cold.cpu);
        if (ptx_ran) {
            json_uint(w, "ptx_lane_instructions", ptx_instr);
            json_double(w, "ptx_seconds", best_ptx.wall);
            json_double(w, "ptx_cpu_seconds", best_ptx.cpu);
            json_double(w, "ptx_lane_instructions_per_cpu_second", best_ptx.cpu > 0 ? ptx_instr / best_ptx.cpu : 0);
            json_double(w, "ptx_time_vs_dialect_cpu", best_full.cpu > 0 ? best_ptx.cpu / best_full.cpu : 0);
        } else {
            json_null(w, "ptx_seconds");
        }
        json_end_object(w);
    } else {
        printf("simulator speed, one core: block-level Brent-Kung scan of %zu i32 (best of %d)\n", n, reps);
        printf("%-28s %14llu\n", "lane-operations", (unsigned long long)lane_ops);
        printf("%-28s %14s  %20s  %20s\n", "", "wall", "", "CPU of this thread");
        printf("%-28s %12.3f s  %8.1f M lane-ops/s  %8.3f s  %8.1f M lane-ops/s\n", "full accounting",
               best_full.wall, rate / 1e6, best_full.cpu, rate_cpu / 1e6);
        printf("%-28s %12.3f s  %8.1f M lane-ops/s  %8.3f s  %8.1f M lane-ops/s\n", "accounting off",
               best_plain.wall, rate_plain / 1e6, best_plain.cpu, rate_plain_cpu / 1e6);
        printf("%-28s %12.2f x  %20s  %8.2f x\n", "overhead of accounting", overhead, "", overhead_cpu);
        printf("%-28s %12.3f s  %20s  %8.3f s\n", "first run, full (untimed)", cold.wall, "", cold.cpu);
        if (ptx_ran) {
            printf("%-28s %12.3f s  %8.1f M lane-instr/s  %6.3f s  %8.1f M lane-instr/s\n",
                   "from nvcc's PTX", best_ptx.wall, best_ptx.wall > 0 ? ptx_instr / best_ptx.wall / 1e6 : 0,
                   best_ptx.cpu, best_ptx.cpu > 0 ? ptx_instr / best_ptx.cpu / 1e6 : 0);
            printf("%-28s %12.2f x  %20s  %8.2f x   (%llu lane-instructions)\n", "PTX time / dialect time",
                   best_full.wall > 0 ? best_ptx.wall / best_full.wall : 0, "",
                   best_full.cpu > 0 ? best_ptx.cpu / best_full.cpu : 0, ptx_instr);
        }
    }
    model_stats_free(&full);
    model_stats_free(&plain);
    free(in);
    free(out);
    return st == SL_OK ? CLI_EXIT_OK : cli_exit_code(st);
}
