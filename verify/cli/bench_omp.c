/* scanlab bench --backend omp: a parallel copy of the same bytes (the
 * ceiling), the sequential scan and every OpenMP scan of the algorithm
 * table, timed in one process on the same arrays. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify/harness/algos.h"
#include "verify/cli/bench.h"
#include "verify/cli/cli.h"
#include "verify/cli/memory.h"
#include "verify/cli/progress.h"
#include "config.h"
#include "cpu/cpu.h"
#include "verify/harness/rng.h"

#if SCANLAB_HAVE_OPENMP
#include <omp.h>
#endif

/* Without --reps: repeat until about this much time is spent in all,
 * within [BENCH_MIN_REPS, BENCH_AUTO_MAX_REPS] repetitions. */
#define BENCH_TARGET_SECONDS 3.0
#define BENCH_MIN_REPS 5
#define BENCH_AUTO_MAX_REPS 51
/* Outputs compared with the sequential scan's after each algorithm. */
#define BENCH_CHECK_SAMPLES 4096
#define BENCH_ALIGN 64
#define BENCH_MAX_ROWS 32

/* What one timed run needs. */
typedef struct {
    const verify_algo *algo; /* NULL: the copy */
    sl_scan_args args;
} bench_job;

static sl_status run_job(const bench_job *j)
{
    if (!j->algo)
        return cpu_copy_omp(j->args.in, j->args.out, j->args.n, SL_TYPE_SIZE(j->args.type),
                            j->args.threads);
    sl_backend b = j->algo->run[SL_OMP] ? SL_OMP : SL_SEQ;
    return j->algo->run[b](&j->args);
}

/* Element i of the input: small integers for add (sums stay meaningful),
 * the full range for max/min, affine maps, floats in [0, 1). Both arrays are
 * first touched here by the team, so that their pages are mapped (and, on
 * a machine of several memory nodes, spread) before anything is timed. */
static void fill_input(const bench_options *o, void *in, void *out, size_t n)
{
    size_t size = SL_TYPE_SIZE(o->type);
    const uint64_t key = verify_derive_seed(o->seed, (uint64_t)o->type);
#if SCANLAB_HAVE_OPENMP
#pragma omp parallel for schedule(static) num_threads(o->threads)
#endif
    for (size_t i = 0; i < n; i++) {
        uint64_t r = verify_mix64(key ^ (uint64_t)i);
        int64_t iv = o->op == SL_ADD ? (int64_t)(r % 1000) : (int64_t)r;
        double fv = (double)(r >> 11) * 0x1.0p-53;
        char *p = (char *)in + i * size;
        if (o->type == SL_I32) {
            int32_t v = (int32_t)iv;
            memcpy(p, &v, size);
        } else if (o->type == SL_I64) {
            memcpy(p, &iv, size);
        } else if (o->type == SL_F32) {
            float v = (float)fv;
            memcpy(p, &v, size);
        } else {
            memcpy(p, &fv, size);
        }
        memset((char *)out + i * size, 0, size); /* first touch, spread over the threads */
    }
}

static size_t sample_index(size_t k, size_t samples, size_t n)
{
    return samples > 1 ? (size_t)((double)k / (double)(samples - 1) * (double)(n - 1)) : n - 1;
}

/* Whether out agrees with the sequential scan's samples. Float sums depend
 * on the order of addition, so only their max/min are compared. */
static bool agrees(const bench_options *o, const void *out, const unsigned char *ref, size_t samples)
{
    if (SL_TYPE_IS_FLOAT(o->type) && o->op == SL_ADD)
        return true;
    size_t size = SL_TYPE_SIZE(o->type);
    for (size_t k = 0; k < samples; k++)
        if (memcmp((const char *)out + sample_index(k, samples, o->n) * size, ref + k * size, size))
            return false;
    return true;
}

static void keep_samples(const bench_options *o, const void *out, unsigned char *ref, size_t samples)
{
    size_t size = SL_TYPE_SIZE(o->type);
    for (size_t k = 0; k < samples; k++)
        memcpy(ref + k * size, (const char *)out + sample_index(k, samples, o->n) * size, size);
}

/* Whether --algo selects the algorithm called name. */
static bool selected(const bench_options *o, const char *name)
{
    if (!o->algos || strcmp(o->algos, "all") == 0)
        return true;
    size_t len = strlen(name);
    for (const char *p = o->algos; *p;) {
        size_t l = strcspn(p, ",");
        if (l == len && strncmp(p, name, len) == 0)
            return true;
        p += l + (p[l] == ',');
    }
    return false;
}

/* Every name of --algo must be a scan that bench times on omp. */
static int check_algos(const bench_options *o)
{
    if (!o->algos || strcmp(o->algos, "all") == 0)
        return CLI_EXIT_OK;
    for (const char *p = o->algos; *p;) {
        size_t l = strcspn(p, ",");
        bool ok = false;
        for (size_t i = 0; i < verify_algo_count && !ok; i++) {
            const verify_algo *a = &verify_algos[i];
            ok = a->kind == SL_KIND_SCAN && strlen(a->name) == l && strncmp(a->name, p, l) == 0 &&
                 (verify_algo_runs_on(a, SL_SEQ) || verify_algo_runs_on(a, SL_OMP));
        }
        if (!ok) {
            char shown[256];
            fprintf(stderr, "scanlab: bench: '%s' is not a scan that runs on seq or omp (valid:",
                    cli_printable(p, (int)l, shown, sizeof shown));
            for (size_t i = 0; i < verify_algo_count; i++)
                if (verify_algos[i].kind == SL_KIND_SCAN &&
                    (verify_algo_runs_on(&verify_algos[i], SL_SEQ) ||
                     verify_algo_runs_on(&verify_algos[i], SL_OMP)))
                    fprintf(stderr, " %s", verify_algos[i].name);
            fprintf(stderr, ")\n");
            return CLI_EXIT_USAGE;
        }
        p += l + (p[l] == ',');
    }
    return CLI_EXIT_OK;
}

/* The jobs to time: the copy, then the table's sequential scans (the first
 * one's output is the reference), then its OpenMP scans. */
static size_t list_jobs(const bench_options *o, void *in, void *out, bench_job *jobs, size_t max)
{
    sl_scan_args base = {.type = o->type, .op = o->op, .exclusive = o->exclusive, .in = in,
                         .out = out, .n = o->n, .threads = o->threads, .block = o->block,
                         .param = o->param};
    size_t count = 0;
    jobs[count++] = (bench_job){NULL, base};
    for (int b = SL_SEQ; b <= SL_OMP; b++)
        for (size_t i = 0; i < verify_algo_count && count < max; i++) {
            const verify_algo *a = &verify_algos[i];
            bool seq_only = b == SL_SEQ && a->run[SL_OMP] == NULL;
            if (a->kind != SL_KIND_SCAN || !verify_algo_runs_on(a, (sl_backend)b) ||
                (b == SL_SEQ && !seq_only) || !selected(o, a->name))
                continue;
            jobs[count] = (bench_job){a, base};
            if (b == SL_SEQ)
                jobs[count].args.threads = 1;
            count++;
        }
    return count;
}

static const char *job_name(const bench_job *j) { return j->algo ? j->algo->name : "copy"; }

/* Runs every job once (warm-up, and the check against the sequential
 * output) and drops those that do not apply to this type and operator;
 * *count shrinks accordingly. *seconds is the time the rest took together. */
static sl_status warm_up(const bench_options *o, bench_job *jobs, size_t *count,
                         unsigned char *ref, size_t samples, bool *mismatch, double *seconds)
{
    bool have_ref = false;
    size_t kept = 0;
    *seconds = 0.0;
    for (size_t k = 0; k < *count; k++) {
        if (o->progress) {
            char what[96];
            snprintf(what, sizeof what, "n = %zu, warm-up of %s", o->n, job_name(&jobs[k]));
            cli_progress_update(o->progress, o->done, what);
        }
        double t0 = bench_now();
        sl_status st = run_job(&jobs[k]);
        if (st == SL_ERR_UNSUPPORTED && jobs[k].algo)
            continue;
        *seconds += bench_now() - t0;
        if (st != SL_OK) {
            fprintf(stderr, "\nscanlab: bench: %s failed: %s\n", job_name(&jobs[k]), sl_status_str(st));
            return st;
        }
        if (jobs[k].algo && !have_ref) {
            keep_samples(o, jobs[k].args.out, ref, samples);
            have_ref = true;
        } else if (jobs[k].algo && !agrees(o, jobs[k].args.out, ref, samples)) {
            fprintf(stderr, "scanlab: bench: %s differs from the sequential scan\n", job_name(&jobs[k]));
            *mismatch = true;
        }
        jobs[kept++] = jobs[k];
    }
    *count = kept;
    return SL_OK;
}

/* Repetitions interleave the jobs (copy, seq, omp..., copy, ...) so that a
 * slow phase of a shared machine affects all of them alike; ms[k * reps + r]
 * is job k's time in repetition r. */
static sl_status time_jobs(const bench_options *o, const bench_job *jobs, size_t count, int reps,
                           double *ms)
{
    for (int r = 0; r < reps; r++) {
        if (o->progress) {
            char what[96];
            snprintf(what, sizeof what, "n = %zu, repetition %d of %d", o->n, r + 1, reps);
            cli_progress_update(o->progress, o->done, what);
        }
        for (size_t k = 0; k < count; k++) {
            double t0 = bench_now();
            sl_status st = run_job(&jobs[k]);
            ms[k * (size_t)reps + (size_t)r] = (bench_now() - t0) * 1e3;
            if (st != SL_OK)
                return st;
        }
    }
    return SL_OK;
}

static int choose_reps(const bench_options *o, double warm_seconds)
{
    if (o->reps > 0)
        return o->reps;
    double want = warm_seconds > 0 ? BENCH_TARGET_SECONDS / warm_seconds : BENCH_AUTO_MAX_REPS;
    return want < BENCH_MIN_REPS ? BENCH_MIN_REPS
                                 : (want > BENCH_AUTO_MAX_REPS ? BENCH_AUTO_MAX_REPS : (int)want);
}

static int measure(const bench_options *o, void *in, void *out)
{
    size_t size = SL_TYPE_SIZE(o->type);
    size_t samples = o->n < BENCH_CHECK_SAMPLES ? o->n : BENCH_CHECK_SAMPLES;
    bench_job jobs[BENCH_MAX_ROWS];
    size_t count = list_jobs(o, in, out, jobs, BENCH_MAX_ROWS);
    unsigned char *ref = malloc(samples * size);
    double warm = 0.0, *ms = NULL;
    bool mismatch = false;
    sl_status st = ref ? warm_up(o, jobs, &count, ref, samples, &mismatch, &warm) : SL_ERR_NOMEM;
    int reps = choose_reps(o, warm);
    if (st == SL_OK && !(ms = malloc(count * (size_t)reps * sizeof *ms)))
        st = SL_ERR_NOMEM;
    if (st == SL_OK)
        st = time_jobs(o, jobs, count, reps, ms);
    if (o->progress)
        cli_progress_end(o->progress);
    if (st == SL_OK) {
        bench_row rows[BENCH_MAX_ROWS];
        double bytes = 2.0 * (double)o->n * (double)size;
        for (size_t k = 0; k < count; k++) {
            double med = bench_median(ms + k * (size_t)reps, (size_t)reps);
            rows[k] = (bench_row){job_name(&jobs[k]),
                                  jobs[k].algo && !jobs[k].algo->run[SL_OMP] ? "seq" : "omp",
                                  jobs[k].args.threads, med, bytes / (med * 1e-3) / 1e9, 0.0};
            rows[k].frac_of_copy = rows[0].median_ms / med;
        }
        bench_report(o, rows, count, reps);
    } else {
        fprintf(stderr, "scanlab: bench: %s\n", sl_status_str(st));
    }
    free(ms);
    free(ref);
    return st != SL_OK ? cli_exit_code(st) : (mismatch ? CLI_EXIT_FAILED : CLI_EXIT_OK);
}

int bench_omp_check(const bench_options *o)
{
    if (check_algos(o) != CLI_EXIT_OK)
        return CLI_EXIT_USAGE;
    /* input and output: measured bench --type i64 --n 2^24 --repeat 1
     * peaks at 265576 KiB, 16.2 bytes per element against the 16 counted
     * plus the fixed part */
    if (cli_check_peak("bench", o->n, cli_peak_cpu(o->n, SL_TYPE_SIZE(o->type), 2)) != SL_OK)
        return CLI_EXIT_USAGE;
    if (!SCANLAB_HAVE_OPENMP)
        return cli_usage_error("bench: this scanlab was built without OpenMP (--backend omp unavailable)");
    return CLI_EXIT_OK;
}

int bench_omp(const bench_options *o)
{
    size_t size = SL_TYPE_SIZE(o->type);
    size_t bytes = (o->n * size + BENCH_ALIGN - 1) / BENCH_ALIGN * BENCH_ALIGN;
    void *in = aligned_alloc(BENCH_ALIGN, bytes), *out = aligned_alloc(BENCH_ALIGN, bytes);
    if (!in || !out) {
        free(in);
        free(out);
        fprintf(stderr, "scanlab: bench: cannot allocate 2 x %zu bytes\n", bytes);
        return CLI_EXIT_FAILED;
    }
    fill_input(o, in, out, o->n);
    int rc = measure(o, in, out);
    free(in);
    free(out);
    return rc;
}
