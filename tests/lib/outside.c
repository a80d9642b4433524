/* A program outside scanlab, built by install_test.sh against the installed
 * library with nothing but pkg-config's flags: it scans 1000 integers with
 * a kernel in the simulator and compares them with the sequential
 * reference, and checks the same kernel's float sum against the exact
 * reference through the harness. Exit 0 when everything agrees. */
#include <scanlab/scanlab.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define N 1000
#define SEED 20261122u

static int fail(const char *what)
{
    fprintf(stderr, "outside: %s\n", what);
    return 1;
}

int main(void)
{
    static int32_t in[N], out[N], ref[N];
    static float fin[N], fout[N], fexact[N];
    const verify_algo *a = verify_find_algo("blelloch", true);
    if (!a || !verify_algo_runs_on(a, SL_SIM))
        return fail("no blelloch on the simulator");
    if (verify_fill_input(SL_I32, SL_ADD, VERIFY_DIST_SMALL, SEED, N, in) != SL_OK)
        return fail("cannot make the input");

    sl_sim *sim = sl_sim_new();
    if (!sim)
        return fail("out of memory");
    sl_scan_args args = {.type = SL_I32, .op = SL_ADD, .in = in, .out = out, .n = N, .sim = sl_sim_sink(sim)};
    sl_status st = a->run[SL_SIM](&args);
    if (st != SL_OK) {
        fprintf(stderr, "outside: blelloch on the simulator: %s\n", sl_status_str(st));
        return 1;
    }
    if (cpu_scan_seq(SL_I32, SL_ADD, false, in, ref, N) != SL_OK)
        return fail("the sequential reference failed");
    for (size_t i = 0; i < N; i++)
        if (out[i] != ref[i]) {
            fprintf(stderr, "outside: out[%zu] = %" PRId32 ", expected %" PRId32 "\n", i, out[i], ref[i]);
            return 1;
        }
    uint64_t work = sl_sim_count(sim, SL_SIM_WORK), steps = sl_sim_count(sim, SL_SIM_STEPS);
    if (work < N - 1 || steps == 0 || sl_sim_findings(sim, false) != 0)
        return fail("implausible simulator counts");
    printf("blelloch, %d i32 on the simulator: equal to the sequential scan; %s %" PRIu64 ", %s %" PRIu64 "\n",
           N, sl_sim_metric_name(SL_SIM_WORK), work, sl_sim_metric_name(SL_SIM_STEPS), steps);
    sl_sim_free(sim);

    /* float: the exact reference directly, then the harness's verdict */
    if (verify_fill_input(SL_F32, SL_ADD, VERIFY_DIST_UNIFORM01, SEED, N, fin) != SL_OK)
        return fail("cannot make the float input");
    args = (sl_scan_args){.type = SL_F32, .op = SL_ADD, .in = fin, .out = fout, .n = N};
    if (a->run[SL_SIM](&args) != SL_OK || verify_exact_scan(SL_F32, false, fin, N, fexact, NULL) != SL_OK)
        return fail("the float scan or its exact reference failed");
    float worst = 0;
    for (size_t i = 0; i < N; i++)
        worst = fmaxf(worst, fabsf(fout[i] - fexact[i]) / fmaxf(fexact[i], 1e-30f));
    if (!(worst < 1e-4f))
        return fail("the float scan is far from the exact reference");
    verify_case c = {.algo = a, .backend = SL_SIM, .type = SL_F32, .op = SL_ADD,
                     .dist = verify_default_dist(SL_F32), .n = N, .seed = SEED, .repeat = 1};
    verify_case_result r;
    if (verify_run_case(&c, &r) != SL_OK || r.exact)
        return fail("the harness did not pass the float case against the exact reference");
    printf("blelloch, %d f32: largest relative error %.3g against the exact scan; harness: pass, max eta %.3g\n",
           N, (double)worst, r.max_eta);
    return 0;
}
