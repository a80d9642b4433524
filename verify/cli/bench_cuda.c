/* scanlab bench --backend cuda: the GPU scans against a device copy of the
 * same bytes and CUB's DeviceScan, in one process, on device buffers.
 *
 * For each (type, operator, n): the input is made on the device once; a
 * device-to-device copy (the bandwidth ceiling), CUB and each selected scan
 * run once untimed (a scan's first run also sizes its device arena, the
 * arena its driver allocates from: cuda/bench/dev_arena.h) and each
 * scan's output is checked against CUB's (bit for bit for integers and
 * float max/min; float add against an accurate host prefix within the
 * algorithm's depth bound), so a wrong kernel is never reported as fast.
 * Then the jobs are timed in interleaved repetitions with CUDA events
 * around each run alone (a job of several launches includes the gaps the
 * host leaves between them, as a user's call does); when the data does
 * not fit the L2, a read pass over a buffer
 * twice the L2's size runs (untimed) before every timed run, so no run
 * finds what an earlier one left in the cache. After each timed run a
 * digest of the output (untimed) tells whether every run gave the same
 * bits. --timing call times each run as a call instead: from an idle GPU,
 * the host's launch work included (time_jobs). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config.h"
#include "verify/cli/bench.h"
#include "verify/cli/memory.h"
#include "verify/cli/cli.h"
#include "verify/cli/progress.h"
#include "verify/formats/json.h"
#include "verify/harness/algos.h"
#if SCANLAB_HAVE_CUDA
#include "cuda/bench/bench_gpu.h"
#include "cuda/bench/chained_model.h"
#include "cuda/bench/dev_arena.h"
#include "cuda/apps/app_defs.h"
#include "cuda/cub/cub_scan.h"
#include "verify/cli/bench_cuda_apps.h"
#endif

#if !SCANLAB_HAVE_CUDA
int bench_cuda(const bench_options *o)
{
    (void)o;
    return cli_usage_error("bench: this scanlab was built without CUDA (--backend cuda unavailable)");
}
#else

#define CB_DEFAULT_REPS 25
#define CB_DEFAULT_N "2^28"
#define CB_DEFAULT_TYPES "i32"
#define CB_DEFAULT_OPS "add"
#define CB_DEFAULT_ALGOS \
    "hierarchical,reduce-then-scan,two-level,chained-static,chained-ticket,lookback,lookback-det"
#define CB_SEED 0x5ca9u /* the input of `scanlab bench --backend omp` too */
#define CB_HANDOFF_LINKS 40000u /* links of the empty chain that prices a hand-off */
#define CB_MAX_ALGOS 40

/* One reported measurement. */
typedef struct {
    const char *algo;
    sl_algo_kind family; /* SL_KIND_SCAN, or the application's (bench_cuda_apps.h) */
    sl_type type;
    sl_op op;
    bool exclusive;
    size_t n;
    int reps;
    double median_ms, gbps, frac_of_copy, vs_cub; /* vs_cub < 0: no CUB baseline */
    double bound;        /* global traffic of the algorithm, in units of n elements */
    double bound_ms;     /* that traffic at the copy's speed */
    double predicted_ms; /* the chained scans' time model; < 0: none */
    bool cache_resident;
    bool repeatable; /* every timed run's output bitwise equal to the first run's */
    int late_runs;   /* timed runs whose time includes the host's launch work (GPU timing only) */
} cb_row;

typedef struct {
    cb_row *v;
    size_t count, cap;
} cb_rows;

typedef enum { JOB_COPY, JOB_CUB, JOB_SCAN } cb_kind;

typedef struct {
    cb_kind kind;
    const verify_algo *algo; /* JOB_SCAN */
    sl_dev_arena arena;  /* JOB_SCAN: the driver's arena, open while the job lives */
    bool open;
    bool dropped; /* not built for this type/operator/layout */
    bool failed;  /* wrong output or a wait that gave up: not reported */
    void *ev[2];
    double *ms; /* one per repetition */
    int late;   /* timed runs that began before the host had queued them */
    int retimed; /* runs that did so and were timed again */
} cb_job;

/* One (type, operator, kind, n) configuration and its device buffers. */
typedef struct {
    sl_algo_kind family; /* SL_KIND_SCAN, or an application family (bench_cuda_apps.h) */
    sl_type type;
    sl_op op;
    bool exclusive;
    size_t n, elem;
    size_t out_bytes; /* of d_out and d_ref: n elements, or an application's layout */
    uint64_t count;   /* an application's count, from the reference */
    int block, param, reps;
    void *d_in, *d_out, *d_ref, *d_flush, *cub_tmp;
    uint64_t *d_digest; /* per job: the warm-up run's output digest, then one per repetition */
    size_t flush_bytes, cub_tmp_bytes;
    bool resident;
} cb_cfg;

/* Job k's digest slot for run r (0: the warm-up, 1 + rep: the timed runs). */
static uint64_t *digest_slot(const cb_cfg *c, size_t k, int r)
{
    return c->d_digest + k * (size_t)(c->reps + 1) + (size_t)r;
}

/* What the whole run shares: the device, the hand-off measurement. */
typedef struct {
    sl_bench_gpu gpu;
    double handoff_us[2]; /* one hand-off through each word of handoff_words; < 0: not measured */
    bool call;            /* --timing call */
    bool progress;
    cli_progress prog; /* per configuration: the warm-ups, then the repetitions */
} cb_ctx;

static const char *job_name(const cb_job *j, const cb_cfg *c)
{
    if (j->kind == JOB_CUB && c->family != SL_KIND_SCAN)
        return cb_app_cub_name(c->family);
    return j->kind == JOB_COPY ? "copy" : j->kind == JOB_CUB ? "cub" : j->algo->name;
}

/* The status words a hand-off is measured through, and the JSON key of
 * each measurement. */
static const struct {
    int bytes;
    const char *key;
} handoff_words[2] = {{8, "handoff_us"}, {16, "handoff16_us"}};

/* Which hand-off prices a chained scan of elements of type: the one
 * through its tiles' status word. */
static int handoff_index(sl_type type) { return (int)sl_chained_word_bytes(type) == handoff_words[0].bytes ? 0 : 1; }

static bool is_chained(const char *name)
{
    return strcmp(name, "chained-static") == 0 || strcmp(name, "chained-ticket") == 0;
}

/* Global traffic in units of n elements: single pass 2 (read n, write n),
 * reduce-then-scan and two-level 3, hierarchical (and the block-level
 * scans, whose driver is hierarchical) about 4. */
static double traffic_bound(const char *name)
{
    static const char *const single[] = {"copy", "cub", "lookback", "lookback-det", "chained-static",
                                         "chained-ticket"};
    for (size_t i = 0; i < sizeof single / sizeof single[0]; i++)
        if (strcmp(name, single[i]) == 0)
            return 2.0;
    if (strcmp(name, "reduce-then-scan") == 0 || strcmp(name, "two-level") == 0)
        return 3.0;
    return 4.0;
}

static sl_status rows_push(cb_rows *r, const cb_row *row)
{
    if (r->count == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 64;
        cb_row *v = realloc(r->v, cap * sizeof *v);
        if (!v)
            return SL_ERR_NOMEM;
        r->v = v;
        r->cap = cap;
    }
    r->v[r->count++] = *row;
    return SL_OK;
}

/* Queues the digest of what job j wrote at out into slot: the n elements
 * of a scan or the copy; for an application the elements after the
 * header that its output defines (the count is checked in the warm-up;
 * CUB's sort writes none). */
static sl_status job_digest(const cb_cfg *c, const cb_job *j, const void *out, uint64_t *slot)
{
    if (c->family == SL_KIND_SCAN || j->kind == JOB_COPY)
        return sl_bench_digest(out, c->n * c->elem, slot);
    return sl_bench_digest((const unsigned char *)out + SL_APP_HEADER_BYTES,
                           cb_app_defined_bytes(c->family, c->type, c->n, c->count), slot);
}

/* Runs job j once on the configuration, writing to out. */
static sl_status run_job(cb_job *j, const cb_cfg *c, void *out)
{
    if (j->kind == JOB_COPY)
        return sl_bench_copy(out, c->d_in, c->n * c->elem);
    if (j->kind == JOB_CUB) {
        size_t bytes = c->cub_tmp_bytes;
        if (c->family != SL_KIND_SCAN)
            return cb_app_cub(c->family, c->type, c->d_in, out, c->n, c->cub_tmp, &bytes);
        return cub_scan_dev(c->type, c->op, c->exclusive, c->d_in, out, c->n, c->cub_tmp, &bytes);
    }
    sl_scan_args a = {c->type, c->op, c->exclusive, c->d_in, out, c->n, 0, c->block, c->param, NULL, SL_ADVERSARY_NONE};
    sl_dev_arena_set(&j->arena);
    sl_status st = j->algo->run[SL_CUDA](&a);
    sl_dev_arena_set(NULL);
    return st;
}

/* A scan's first run with an empty arena measures what its driver
 * allocates; the arena is then opened with that much, zeroed, and the
 * scan runs once more untimed. */
static sl_status prepare_scan(cb_job *j, const cb_cfg *c)
{
    sl_status st = sl_dev_arena_open(&j->arena, 0);
    if (st == SL_OK)
        st = sl_dev_arena_next_run(&j->arena);
    if (st == SL_OK)
        st = run_job(j, c, c->d_out);
    if (st == SL_OK)
        st = sl_bench_sync();
    const size_t need = j->arena.need;
    sl_dev_arena_close(&j->arena);
    if (st != SL_OK)
        return st;
    st = sl_dev_arena_open(&j->arena, need);
    if (st != SL_OK)
        return st;
    j->open = true;
    st = sl_dev_arena_next_run(&j->arena);
    if (st == SL_OK)
        st = run_job(j, c, c->d_out);
    if (st == SL_OK)
        st = sl_bench_sync();
    return st;
}

/* The first index where a and b (count elements of elem bytes) differ, or
 * count. */
static size_t first_difference(const void *a, const void *b, size_t count, size_t elem)
{
    const size_t chunk = (size_t)1 << 16;
    for (size_t i = 0; i < count; i += chunk) {
        const size_t len = count - i < chunk ? count - i : chunk;
        if (memcmp((const char *)a + i * elem, (const char *)b + i * elem, len * elem) != 0)
            for (size_t k = i; k < i + len; k++)
                if (memcmp((const char *)a + k * elem, (const char *)b + k * elem, elem) != 0)
                    return k;
    }
    return count;
}

/* Outputs that share one evaluation of the depth bound: the depth
 * functions of the algorithm table do not decrease with the index, so
 * D(last of the run) bounds every output of the run. */
#define CB_DEPTH_RUN 4096

/* Float add: every output against an accurate prefix of the input (double
 * sums for f32; TwoSum-compensated double sums for f64), within
 * D(i) u sum|x_j| plus u |exact| (at least half an ulp), D the
 * algorithm's addition depth.
 * Returns the first index out of bounds, or n. */
static size_t float_add_check(const cb_cfg *c, const verify_algo *al, const void *in, const void *out)
{
    const bool f32 = c->type == SL_F32;
    const double u = f32 ? 0x1.0p-24 : 0x1.0p-53;
    sl_scan_args a = {c->type, c->op, c->exclusive, NULL, NULL, c->n, 0, c->block, c->param, NULL, SL_ADVERSARY_NONE};
    double s = 0.0, comp = 0.0, abs_sum = 0.0, depth = 0.0;
    for (size_t i = 0; i < c->n; i++) {
        if (i % CB_DEPTH_RUN == 0) {
            const size_t last = i + CB_DEPTH_RUN < c->n ? i + CB_DEPTH_RUN - 1 : c->n - 1;
            depth = al->depth ? (double)al->depth(&a, last) : (double)(last + 1);
        }
        const double x = f32 ? (double)((const float *)in)[i] : ((const double *)in)[i];
        const double y = f32 ? (double)((const float *)out)[i] : ((const double *)out)[i];
        if (!c->exclusive) {
            const double t = s + x, bp = t - s; /* TwoSum */
            comp += (s - (t - bp)) + (x - bp);
            s = t;
            abs_sum += fabs(x);
        }
        const double exact = s + comp;
        /* half an ulp of the result is at most u |exact| (no nextafter in
         * this loop: it runs over 2^28 outputs per scan) */
        if (!(fabs(y - exact) <= depth * u * abs_sum + u * fabs(exact)))
            return i;
        if (c->exclusive) {
            const double t = s + x, bp = t - s;
            comp += (s - (t - bp)) + (x - bp);
            s = t;
            abs_sum += fabs(x);
        }
    }
    return c->n;
}

/* Checks a scan's output (on the device in d_out) against CUB's (h_ref on
 * the host) or, for float add, the accurate prefix of h_in. */
static bool output_ok(const cb_cfg *c, const cb_job *j, const void *h_in, const void *h_ref, void *h_out)
{
    sl_status st = sl_bench_to_host(h_out, c->d_out, c->n * c->elem);
    if (st != SL_OK) {
        fprintf(stderr, "scanlab: bench: %s: reading its output: %s\n", job_name(j, c), sl_status_str(st));
        return false;
    }
    size_t bad;
    if (SL_TYPE_IS_FLOAT(c->type) && c->op == SL_ADD)
        bad = float_add_check(c, j->algo, h_in, h_out);
    else
        bad = first_difference(h_out, h_ref, c->n, c->elem);
    if (bad < c->n)
        fprintf(stderr, "scanlab: bench: %s %s %s %s n=%zu: output %zu differs from %s; not timed\n",
                job_name(j, c), verify_type_name(c->type), verify_op_name(c->op),
                c->exclusive ? "exclusive" : "inclusive", c->n, bad,
                SL_TYPE_IS_FLOAT(c->type) && c->op == SL_ADD ? "the accurate prefix (beyond its depth bound)"
                                                               : "CUB's");
    return bad == c->n;
}

static void free_jobs(cb_job *jobs, size_t count)
{
    for (size_t k = 0; k < count; k++) {
        if (jobs[k].open)
            sl_dev_arena_close(&jobs[k].arena);
        sl_bench_event_free(jobs[k].ev[0]);
        sl_bench_event_free(jobs[k].ev[1]);
        free(jobs[k].ms);
    }
}

static void free_cfg(cb_cfg *c)
{
    sl_bench_free(c->d_in);
    sl_bench_free(c->d_out);
    sl_bench_free(c->d_ref);
    sl_bench_free(c->d_flush);
    sl_bench_free(c->cub_tmp);
    sl_bench_free(c->d_digest);
}

/* Device buffers of a configuration, the input, CUB's workspace. */
static sl_status setup_cfg(cb_cfg *c, const cb_ctx *ctx)
{
    const size_t bytes = c->n * c->elem;
    c->resident = 2 * bytes <= ctx->gpu.l2_bytes;
    c->flush_bytes = c->resident ? 0 : 2 * ctx->gpu.l2_bytes;
    sl_status st = SL_OK;
    c->out_bytes = bytes;
    if (c->family == SL_KIND_SCAN) {
        st = cub_scan_dev(c->type, c->op, c->exclusive, NULL, NULL, c->n, NULL, &c->cub_tmp_bytes);
    } else {
        c->out_bytes = cb_app_out_bytes(c->family, c->type, c->n, c->param);
        if (c->out_bytes == 0) {
            cli_usage_error("bench: --param %d is not a parameter of %s", c->param, cb_app_family_name(c->family));
            return SL_ERR_ARG;
        }
        st = cb_app_cub(c->family, c->type, NULL, NULL, c->n, NULL, &c->cub_tmp_bytes);
        if (st == SL_ERR_UNSUPPORTED) /* pack: no baseline */
            st = SL_OK;
    }
    if (st != SL_OK)
        return st;
    const double need = (double)bytes + 2.0 * (double)c->out_bytes + (double)c->flush_bytes +
                        (double)c->cub_tmp_bytes;
    if (need > (double)ctx->gpu.free_bytes) {
        cli_usage_error("bench: n = %zu %s needs %.1f GiB of GPU memory; %.1f GiB are free", c->n,
                        verify_type_name(c->type), need / 1073741824.0, (double)ctx->gpu.free_bytes / 1073741824.0);
        return SL_ERR_ARG;
    }
    if ((st = sl_bench_alloc(&c->d_in, bytes)) != SL_OK || (st = sl_bench_alloc(&c->d_out, c->out_bytes)) != SL_OK ||
        (st = sl_bench_alloc(&c->d_ref, c->out_bytes)) != SL_OK ||
        (st = sl_bench_alloc(&c->d_flush, c->flush_bytes)) != SL_OK ||
        (st = sl_bench_alloc(&c->cub_tmp, c->cub_tmp_bytes ? c->cub_tmp_bytes : 1)) != SL_OK)
        return st;
    return sl_bench_fill(c->d_in, c->type, c->op, c->n, CB_SEED);
}

/* Warm-up and checks: copy, CUB (its output is the reference), each scan.
 * A scan that is not built for this type/operator or layout is dropped;
 * one whose output is wrong is marked failed. */
static sl_status warm_up(cb_ctx *ctx, cb_cfg *c, cb_job *jobs, size_t count, bool *failed)
{
    const size_t bytes = c->n * c->elem;
    const bool app = c->family != SL_KIND_SCAN;
    const bool float_add = !app && SL_TYPE_IS_FLOAT(c->type) && c->op == SL_ADD;
    void *h_in = float_add || app ? malloc(bytes) : NULL, *h_ref = malloc(c->out_bytes), *h_out = malloc(c->out_bytes);
    sl_status st = (!h_ref || !h_out || ((float_add || app) && !h_in)) ? SL_ERR_NOMEM : SL_OK;
    cb_app_refs refs;
    memset(&refs, 0, sizeof refs);
    if (st == SL_OK && app) /* the applications' references are made on the host */
        st = sl_bench_to_host(h_in, c->d_in, bytes);
    if (st == SL_OK && app)
        st = cb_app_count(&refs, c->family, c->type, c->n, c->param, h_in, &c->count);
    for (size_t k = 0; k < count && st == SL_OK; k++) {
        cb_job *j = &jobs[k];
        if (j->kind == JOB_CUB && app && !cb_app_cub_name(c->family)) {
            j->dropped = true; /* pack: CUB has none */
            continue;
        }
        if (ctx->progress) {
            char what[64];
            snprintf(what, sizeof what, "warm-up of %s", job_name(j, c));
            cli_progress_update(&ctx->prog, k, what);
        }
        if (j->kind == JOB_SCAN) {
            st = prepare_scan(j, c);
            if (st == SL_ERR_UNSUPPORTED || st == SL_ERR_ARG) {
                fprintf(stderr, "scanlab: bench: %s: %s for %s %s (block %d, param %d); skipped\n", job_name(j, c),
                        sl_status_str(st), verify_type_name(c->type), verify_op_name(c->op), c->block, c->param);
                j->dropped = true;
                st = SL_OK;
                continue;
            }
        } else {
            st = run_job(j, c, j->kind == JOB_CUB ? c->d_ref : c->d_out);
            if (st == SL_OK)
                st = sl_bench_sync();
        }
        if (st != SL_OK) {
            fprintf(stderr, "\nscanlab: bench: %s failed: %s\n", job_name(j, c), sl_status_str(st));
            break;
        }
        st = job_digest(c, j, j->kind == JOB_CUB ? c->d_ref : c->d_out, digest_slot(c, k, 0));
        if (st != SL_OK)
            break;
        if (app && j->kind != JOB_COPY) {
            int gave_up = 0;
            if (j->kind == JOB_SCAN)
                st = sl_dev_arena_error(&j->arena, &gave_up);
            if (st == SL_OK)
                st = sl_bench_to_host(h_out, j->kind == JOB_CUB ? c->d_ref : c->d_out, c->out_bytes);
            if (st != SL_OK)
                break;
            if (gave_up)
                fprintf(stderr, "scanlab: bench: %s: a bounded wait gave up (%s); not timed\n", job_name(j, c),
                        sl_status_str(SL_ERR_TIMEOUT));
            const sl_algo_kind kind = j->kind == JOB_CUB ? cb_app_cub_kind(c->family) : j->algo->kind;
            j->failed = gave_up || !cb_app_output_ok(&refs, kind, c->type, c->n, c->param, h_in, h_out,
                                                     j->kind == JOB_CUB && c->family == SL_KIND_SORT, job_name(j, c));
            *failed |= j->failed;
        } else if (j->kind == JOB_CUB) {
            st = sl_bench_to_host(h_ref, c->d_ref, bytes);
            if (st == SL_OK && float_add)
                st = sl_bench_to_host(h_in, c->d_in, bytes);
        } else if (j->kind == JOB_SCAN) {
            int gave_up = 0;
            st = sl_dev_arena_error(&j->arena, &gave_up);
            if (st == SL_OK && gave_up) {
                fprintf(stderr, "scanlab: bench: %s: a bounded wait gave up (%s); not timed\n", job_name(j, c),
                        sl_status_str(SL_ERR_TIMEOUT));
                j->failed = true;
            } else if (st == SL_OK && !output_ok(c, j, h_in, h_ref, h_out)) {
                j->failed = true;
            }
            *failed |= j->failed;
        }
    }
    cb_app_refs_free(&refs);
    free(h_in);
    free(h_ref);
    free(h_out);
    return st;
}

/* Interleaved repetitions: copy, CUB, each scan, copy, ...; each run alone
 * between two events, after the untimed L2 flush when there is one.
 * GPU timing (the default): a hold of CB_HOLD_US keeps the GPU busy while
 * the host queues the start event, the run and the stop event, so that
 * the events time the GPU's work (a multi-launch job's gaps included where
 * the GPU waits for the host) and not the host's launch calls, as in a
 * stream that is already busy. Without it the time of a small run
 * depended on whether the previous run's digest still held the GPU when
 * the start event was recorded: on the H100 a 2^16 copy timed 7.5 us and
 * a 2^18 one 3.8 us. Call timing (--timing call): the host waits until
 * the GPU is idle, then records the start event, makes the call and
 * records the stop event: the time runs from the start of the call to the
 * end of its work, the host's queries and launch calls included, as a
 * caller of one scan at a time sees it.
 *
 * A GPU-timed run that began before the host had queued it (the host was
 * descheduled for longer than the hold) is run and timed again, up to
 * CB_LATE_RETRIES times: its time says how long the host took, not the
 * GPU. Whether the host is late does not depend on the run, so dropping
 * such times leaves the others' distribution as it was; a run still late
 * after the retries is kept and counted in late_runs. (In the recorded H100
 * runs of 2026-11-24, 1 of 14975 runs was late before this.) */
#define CB_HOLD_US 200
#define CB_LATE_RETRIES 3

/* One timed run of job j between its two events, as above; *late: it
 * began before the host had queued it (GPU timing only). */
static sl_status time_once(const cb_ctx *ctx, const cb_cfg *c, cb_job *j, int *late)
{
    sl_status st = SL_OK;
    *late = 0;
    if (j->kind == JOB_SCAN)
        st = sl_dev_arena_next_run(&j->arena);
    if (st == SL_OK && c->flush_bytes)
        st = sl_bench_flush(c->d_flush, c->flush_bytes);
    if (st == SL_OK)
        st = ctx->call ? sl_bench_sync() : sl_bench_hold(CB_HOLD_US);
    if (st == SL_OK)
        st = sl_bench_event_record(j->ev[0]);
    if (st == SL_OK)
        st = run_job(j, c, c->d_out);
    if (st == SL_OK)
        st = sl_bench_event_record(j->ev[1]);
    if (st == SL_OK && !ctx->call) /* the hold over before the run was queued: host work timed */
        st = sl_bench_event_done(j->ev[0], late);
    return st;
}

static sl_status time_jobs(cb_ctx *ctx, const cb_cfg *c, cb_job *jobs, size_t count)
{
    for (int r = 0; r < c->reps; r++) {
        if (ctx->progress)
            cli_progress_update(&ctx->prog, count + (size_t)r, "timed repetitions");
        for (size_t k = 0; k < count; k++) {
            cb_job *j = &jobs[k];
            sl_status st = SL_OK;
            int late = 0;
            if (j->failed || j->dropped)
                continue;
            for (int attempt = 0; (st = time_once(ctx, c, j, &late)) == SL_OK && late; attempt++) {
                if (attempt == CB_LATE_RETRIES) {
                    j->late++;
                    break;
                }
                j->retimed++;
            }
            if (st == SL_OK) /* queued after the stop event: not timed */
                st = job_digest(c, j, c->d_out, digest_slot(c, k, 1 + r));
            if (st == SL_OK)
                st = sl_bench_event_ms(j->ev[0], j->ev[1], &j->ms[r]);
            if (st != SL_OK) {
                fprintf(stderr, "\nscanlab: bench: %s failed: %s\n", job_name(j, c), sl_status_str(st));
                return st;
            }
        }
    }
    return SL_OK;
}

/* Measures one configuration; appends its rows. *failed is set when a
 * scan's output was wrong or a wait gave up. */
static sl_status measure(cb_ctx *ctx, cb_cfg *c, const verify_algo *const *algos, size_t nalgos, cb_rows *rows,
                         bool *failed)
{
    cb_job jobs[CB_MAX_ALGOS + 2];
    size_t count = 0;
    memset(jobs, 0, sizeof jobs);
    sl_status st = setup_cfg(c, ctx);
    jobs[count++].kind = JOB_COPY;
    jobs[count++].kind = JOB_CUB;
    for (size_t a = 0; a < nalgos; a++) {
        jobs[count].kind = JOB_SCAN;
        jobs[count++].algo = algos[a];
    }
    const size_t digest_bytes = count * (size_t)(c->reps + 1) * sizeof(uint64_t);
    uint64_t *digests = malloc(digest_bytes);
    if (st == SL_OK)
        st = digests ? sl_bench_alloc((void **)&c->d_digest, digest_bytes) : SL_ERR_NOMEM;
    if (st == SL_OK)
        st = sl_bench_zero(c->d_digest, digest_bytes);
    for (size_t k = 0; k < count && st == SL_OK; k++) {
        jobs[k].ms = calloc((size_t)c->reps, sizeof *jobs[k].ms);
        st = jobs[k].ms ? SL_OK : SL_ERR_NOMEM;
        if (st == SL_OK)
            st = sl_bench_event_new(&jobs[k].ev[0]);
        if (st == SL_OK)
            st = sl_bench_event_new(&jobs[k].ev[1]);
    }
    if (ctx->progress)
        cli_progress_start(&ctx->prog, "bench", "steps", count + (size_t)c->reps);
    if (st == SL_OK)
        st = warm_up(ctx, c, jobs, count, failed);
    if (st == SL_OK)
        st = time_jobs(ctx, c, jobs, count);
    if (st == SL_OK) {
        /* a wait that gave up in a timed run */
        for (size_t k = 0; k < count && st == SL_OK; k++) {
            int gave_up = 0;
            if (jobs[k].kind != JOB_SCAN || jobs[k].failed || jobs[k].dropped)
                continue;
            st = sl_dev_arena_error(&jobs[k].arena, &gave_up);
            if (gave_up) {
                fprintf(stderr, "scanlab: bench: %s: a bounded wait gave up in a timed run (%s)\n",
                        job_name(&jobs[k], c), sl_status_str(SL_ERR_TIMEOUT));
                jobs[k].failed = *failed = true;
            }
        }
    }
    if (ctx->progress)
        cli_progress_end(&ctx->prog);
    if (st == SL_OK)
        st = sl_bench_to_host(digests, c->d_digest, digest_bytes);
    if (st == SL_OK) {
        const double copy_ms = bench_median(jobs[0].ms, (size_t)c->reps);
        const bool cub = !jobs[1].dropped && !jobs[1].failed;
        const double cub_ms = cub ? bench_median(jobs[1].ms, (size_t)c->reps) : -1.0;
        /* an application's own bound: the least traffic of its family */
        const double bound = c->family == SL_KIND_SCAN ? 2.0 : cb_app_bound(c->family, c->type, c->n, c->count);
        const double bytes = bound * (double)c->n * (double)c->elem;
        for (size_t k = 0; k < count && st == SL_OK; k++) {
            if (jobs[k].failed || jobs[k].dropped)
                continue;
            const double ms = k < 2 ? (k == 0 ? copy_ms : cub_ms) : bench_median(jobs[k].ms, (size_t)c->reps);
            const char *name = job_name(&jobs[k], c);
            /* the copy moves 2n elements whatever the family */
            const double traffic = c->family == SL_KIND_SCAN || k == 0 ? 2.0 : bound;
            cb_row row = {.algo = name, .family = c->family, .type = c->type, .op = c->op,
                          .exclusive = c->exclusive, .n = c->n, .reps = c->reps, .median_ms = ms,
                          .gbps = traffic / bound * bytes / (ms * 1e-3) / 1e9, .frac_of_copy = copy_ms / ms,
                          .vs_cub = cub ? cub_ms / ms : -1.0,
                          .bound = c->family == SL_KIND_SCAN ? traffic_bound(name) : traffic,
                          .predicted_ms = -1.0, .cache_resident = c->resident, .repeatable = true,
                          .late_runs = jobs[k].late};
            row.bound_ms = copy_ms * row.bound / 2.0;
            /* an application moves its family's bound, not a copy's 2n: its share of the copy's
             * bandwidth counted on those bytes */
            if (c->family != SL_KIND_SCAN && k > 0)
                row.frac_of_copy = row.bound_ms / ms;
            /* the job's digests, as digest_slot lays them out: the warm-up run's, then each timed run's */
            const uint64_t *dk = digests + k * (size_t)(c->reps + 1);
            for (int r = 1; r <= c->reps; r++)
                row.repeatable &= dk[r] == dk[0];
            if (jobs[k].retimed)
                fprintf(stderr, "scanlab: bench: %s, n = %zu: %d runs began before the host had queued them and "
                        "were timed again\n", row.algo, c->n, jobs[k].retimed);
            if (row.late_runs)
                fprintf(stderr, "scanlab: bench: %s, n = %zu: %d of %d timed runs began before the host had queued "
                        "them (their times include its launch work)\n", row.algo, c->n, row.late_runs, c->reps);
            const double h = ctx->handoff_us[handoff_index(c->type)];
            if (is_chained(row.algo) && h > 0) {
                const size_t t = sl_chained_tiles(c->type, c->n, c->block, c->param);
                row.predicted_ms = (double)t * h * 1e-3;
            }
            st = rows_push(rows, &row);
        }
    }
    free_jobs(jobs, count);
    free_cfg(c);
    free(digests);
    return st;
}

static void print_config_header(const cb_ctx *ctx, const cb_row *r, int block, int param)
{
    const double data = 2.0 * (double)r->n * SL_TYPE_SIZE(r->type);
    const bool app = r->family != SL_KIND_SCAN;
    printf("\n%s (%d SMs, L2 %.0f MiB): n = %zu, %s %s, %s; median of %d runs, %s\n", ctx->gpu.name, ctx->gpu.sms,
           (double)ctx->gpu.l2_bytes / 1048576.0, r->n, verify_type_name(r->type),
           app ? cb_app_family_name(r->family) : verify_op_name(r->op),
           app ? "application" : r->exclusive ? "exclusive" : "inclusive", r->reps,
           ctx->call ? "each timed as a call on an idle GPU (launch calls included)" : "the GPU's work alone");
    printf("input + output %.1f MiB: %s; GB/s counts %s", data / 1048576.0,
           r->cache_resident ? "cache-resident (fits the L2)" : "from memory (the L2 is flushed before each run)",
           app ? "the family's least traffic (traffic), of copy the copy's bandwidth on it" : "2 * n elements");
    if (block || param)
        printf("; --block %d --param %d", block, param);
    printf("\n\n%-18s %10s %9s %8s %8s %8s %9s %10s %7s\n", "algorithm", "median ms", "GB/s", "of copy", "vs cub",
           "traffic", "of bound", "model ms", "repeat");
}

static void print_table(const cb_ctx *ctx, const cb_rows *rows, int block, int param)
{
    for (size_t i = 0; i < rows->count; i++) {
        const cb_row *r = &rows->v[i];
        if (i == 0 || r->n != rows->v[i - 1].n || r->type != rows->v[i - 1].type || r->op != rows->v[i - 1].op ||
            r->exclusive != rows->v[i - 1].exclusive || r->family != rows->v[i - 1].family)
            print_config_header(ctx, r, block, param);
        char model[32] = "-", vs[32] = "-", traffic[32];
        snprintf(traffic, sizeof traffic, r->family == SL_KIND_SCAN ? "%.0fn" : "%.2fn", r->bound);
        if (r->predicted_ms >= 0)
            snprintf(model, sizeof model, "%.3f", r->predicted_ms);
        if (r->vs_cub >= 0)
            snprintf(vs, sizeof vs, "%.3f", r->vs_cub);
        printf("%-18s %10.4f %9.1f %8.3f %8s %8s %9.3f %10s %7s\n", r->algo, r->median_ms, r->gbps,
               r->frac_of_copy, vs, traffic, r->bound_ms / r->median_ms, model,
               r->repeatable ? "same" : "DIFFER");
    }
    printf("\nrepeat: whether every timed run's output was bitwise the first run's\n");
    if (ctx->handoff_us[0] <= 0 && ctx->handoff_us[1] <= 0)
        return;
    /* Each width on its own: a measurement that failed is left out, not printed as a time. */
    printf("model ms (chained scans): tiles x one hand-off, measured here as an empty chain through the "
           "scans' status words:");
    for (int k = 0; k < 2; k++)
        if (ctx->handoff_us[k] > 0)
            printf("%s %.3f us (%d-byte words, %d-byte elements)", k > 0 && ctx->handoff_us[0] > 0 ? "," : "",
                   ctx->handoff_us[k], handoff_words[k].bytes, handoff_words[k].bytes / 2);
    printf("\n");
}

static void print_json(const cb_ctx *ctx, const cb_rows *rows, int block, int param)
{
    char date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    json_writer w;
    json_init(&w, stdout);
    json_begin_object(&w, NULL);
    json_string(&w, "device", ctx->gpu.name);
    json_string(&w, "date", date);
    json_int(&w, "sms", ctx->gpu.sms);
    json_uint(&w, "l2_bytes", ctx->gpu.l2_bytes);
    json_int(&w, "block", block);
    json_int(&w, "param", param);
    json_string(&w, "timing", ctx->call ? "call" : "gpu");
    for (int k = 0; k < 2; k++)
        if (ctx->handoff_us[k] > 0)
            json_double(&w, handoff_words[k].key, ctx->handoff_us[k]);
        else
            json_null(&w, handoff_words[k].key);
    json_begin_array(&w, "results");
    for (size_t i = 0; i < rows->count; i++) {
        const cb_row *r = &rows->v[i];
        json_begin_object(&w, NULL);
        json_string(&w, "algo", r->algo);
        json_string(&w, "kind", cb_app_family_name(r->family));
        json_string(&w, "type", verify_type_name(r->type));
        json_string(&w, "op", verify_op_name(r->op));
        json_bool(&w, "exclusive", r->exclusive);
        json_uint(&w, "n", r->n);
        json_double(&w, "median_ms", r->median_ms);
        json_double(&w, "gbps", r->gbps);
        json_double(&w, "frac_of_copy", r->frac_of_copy);
        if (r->vs_cub >= 0)
            json_double(&w, "vs_cub", r->vs_cub);
        else
            json_null(&w, "vs_cub");
        json_double(&w, "bound", r->bound);
        json_double(&w, "bound_ms", r->bound_ms);
        if (r->predicted_ms >= 0)
            json_double(&w, "predicted_ms", r->predicted_ms);
        else
            json_null(&w, "predicted_ms");
        json_bool(&w, "cache_resident", r->cache_resident);
        json_bool(&w, "repeatable", r->repeatable);
        json_int(&w, "reps", r->reps);
        if (ctx->call) /* every run includes the host's launch work, by design */
            json_null(&w, "late_runs");
        else
            json_int(&w, "late_runs", r->late_runs);
        json_end_object(&w);
    }
    json_end_array(&w);
    json_end_object(&w);
    json_finish(&w);
}

/* The families measured apart, in this order (bench_cuda_apps.h). */
static const sl_algo_kind families[] = {SL_KIND_SCAN, SL_KIND_COMPACT, SL_KIND_PARTITION, SL_KIND_SORT,
                                        SL_KIND_PACK};
#define CB_FAMILIES ((int)(sizeof families / sizeof families[0]))

/* The selected scans: names of the algorithm table that are scans and run
 * on cuda ('copy' and 'cub' are always measured). */
static sl_status parse_algos(const char *list, const verify_algo **out, size_t *count)
{
    char *copy = strdup(list), *save = NULL;
    sl_status st = copy ? SL_OK : SL_ERR_NOMEM;
    *count = 0;
    for (char *tok = copy ? strtok_r(copy, ",", &save) : NULL; tok && st == SL_OK; tok = strtok_r(NULL, ",", &save)) {
        if (strcmp(tok, "cub") == 0 || strcmp(tok, "copy") == 0)
            continue;
        const verify_algo *a = verify_find_algo(tok, false);
        if (!a) {
            cli_usage_error("bench: unknown algorithm '%s' (scanlab list names them)", tok);
            st = SL_ERR_ARG;
        } else if (a->kind == SL_KIND_REDUCE || !verify_algo_runs_on(a, SL_CUDA)) {
            cli_usage_error("bench: %s is not a scan that runs on cuda, nor an application", tok);
            st = SL_ERR_ARG;
        } else if (*count == CB_MAX_ALGOS) {
            cli_usage_error("bench: at most %d algorithms", CB_MAX_ALGOS);
            st = SL_ERR_ARG;
        } else {
            out[(*count)++] = a;
        }
    }
    free(copy);
    return st;
}

int bench_cuda(const bench_options *o)
{
    const verify_algo *algos[CB_MAX_ALGOS];
    size_t nalgos = 0, *ns = NULL, nn = 0;
    unsigned types = 0, ops = 0;
    cb_ctx ctx;
    cb_rows rows = {NULL, 0, 0};
    bool failed = false;
    memset(&ctx, 0, sizeof ctx);
    ctx.handoff_us[0] = ctx.handoff_us[1] = -1.0;
    ctx.progress = o->progress != NULL;
    ctx.call = o->call_timing;
    sl_status st = parse_algos(o->algos ? o->algos : CB_DEFAULT_ALGOS, algos, &nalgos);
    if (st == SL_OK)
        st = cli_parse_size_list("--n", o->n_list ? o->n_list : CB_DEFAULT_N, &ns, &nn);
    char why[512];
    if (st == SL_OK && (st = verify_parse_type_list(o->types ? o->types : CB_DEFAULT_TYPES, &types, why,
                                                    sizeof why)) != SL_OK)
        cli_usage_error("bench: %s", why);
    if (st == SL_OK && (st = verify_parse_op_list(o->ops ? o->ops : CB_DEFAULT_OPS, &ops, why, sizeof why)) !=
                           SL_OK)
        cli_usage_error("bench: %s", why);
    for (size_t k = 0; st == SL_OK && k < nn; k++)
        if (ns[k] == 0) {
            cli_usage_error("bench: --n: the benchmark needs at least 1 element");
            st = SL_ERR_ARG;
        }
    if (st != SL_OK) {
        free(ns);
        return cli_exit_code(st);
    }
    st = sl_bench_gpu_info(&ctx.gpu);
    if (st != SL_OK) {
        free(ns);
        if (st == SL_ERR_NO_GPU)
            return cli_usage_error("bench: no GPU present (--backend cuda needs one)");
        fprintf(stderr, "scanlab: bench: %s\n", sl_status_str(st));
        return CLI_EXIT_FAILED;
    }
    st = SL_OK;
    bool chained = false;
    for (size_t a = 0; a < nalgos; a++)
        chained |= is_chained(algos[a]->name);
    for (int k = 0; chained && k < 2; k++) {
        st = sl_bench_handoff_us(handoff_words[k].bytes, CB_HANDOFF_LINKS, &ctx.handoff_us[k]);
        if (st != SL_OK) {
            fprintf(stderr, "scanlab: bench: hand-off measurement: %s\n", sl_status_str(st));
            failed = true;
            st = SL_OK;
            break;
        }
    }
    for (int t = 0; t < SL_TYPE_COUNT && st == SL_OK; t++)
        for (int op = 0; op < SL_OP_COUNT && st == SL_OK; op++) {
            if (!(types & (1u << t)) || !(ops & (1u << op)) || !SL_OP_APPLIES(op, t))
                continue;
            for (size_t k = 0; k < nn && st == SL_OK; k++) {
                for (int f = 0; f < CB_FAMILIES && st == SL_OK; f++) {
                    /* each family apart: its own output layout and CUB baseline; the applications
                     * run with add only */
                    const verify_algo *fam[CB_MAX_ALGOS];
                    size_t nfam = 0;
                    for (size_t a = 0; a < nalgos; a++)
                        if (cb_app_family(algos[a]->kind) == families[f])
                            fam[nfam++] = algos[a];
                    if (nfam == 0 || (families[f] != SL_KIND_SCAN && op != SL_ADD))
                        continue;
                    cb_cfg c;
                    memset(&c, 0, sizeof c);
                    c.family = families[f];
                    c.type = (sl_type)t;
                    c.op = (sl_op)op;
                    c.exclusive = o->exclusive;
                    c.n = ns[k];
                    c.elem = SL_TYPE_SIZE(c.type);
                    c.block = o->block;
                    c.param = o->param;
                    c.reps = o->reps > 0 ? o->reps : CB_DEFAULT_REPS;
                    /* host side: the input, and the output read back for the checks (an
                     * application's also one or two references; pack's outputs n K records) */
                    const uint64_t copies = c.family == SL_KIND_SCAN ? 3 : c.family == SL_KIND_PACK ? 26 : 5;
                    st = cli_check_peak("bench", c.n, cli_peak_cpu(c.n, c.elem, copies));
                    if (st == SL_OK)
                        st = measure(&ctx, &c, fam, nfam, &rows, &failed);
                }
            }
        }
    if (st == SL_OK) {
        if (o->json)
            print_json(&ctx, &rows, o->block, o->param);
        else
            print_table(&ctx, &rows, o->block, o->param);
    } else if (st != SL_ERR_ARG) {
        fprintf(stderr, "scanlab: bench: %s\n", sl_status_str(st));
    }
    free(rows.v);
    free(ns);
    return st != SL_OK ? cli_exit_code(st) : failed ? CLI_EXIT_FAILED : CLI_EXIT_OK;
}

#endif
