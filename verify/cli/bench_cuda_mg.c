/* scanlab bench --backend cuda --devices P: the multi-gpu scan with shard g
 * resident on GPU g, against what P GPUs do alone (docs/scaling.md).
 *
 * For each (type, operator, n), n the elements per GPU: the input of P * n
 * elements is made on the GPUs, shard g (elements g n .. g n + n - 1) on
 * GPU g. Three jobs, each on every GPU at once, each GPU on its own data:
 *   copy       a device copy of the GPU's n elements (the ceiling);
 *   lookback   one GPU's look-back scan of its n elements, on each GPU
 *              independently (P scans, not one: the baseline "P times one
 *              GPU" as the GPUs actually deliver it together);
 *   multi-gpu  the scan of all P * n elements across the GPUs.
 * Each runs once untimed and is checked on the host (integers and float
 * max/min bit for bit against the sequential scan, float add within the
 * algorithm's depth bound), then the jobs are timed interleaved: CUDA
 * events on GPU 0 around the run, every other GPU's default stream waiting
 * for the start event and GPU 0 for each GPU's end event, after a hold that
 * keeps GPU 0 busy while the host queues it all (bench_cuda.c says why).
 * vs_one_gpu = lookback's time over multi-gpu's: multi-gpu's aggregate
 * throughput over P times one GPU's lookback throughput at n per GPU. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config.h"
#include "verify/cli/bench.h"
#include "verify/cli/cli.h"
#include "verify/cli/memory.h"
#include "verify/formats/json.h"
#include "verify/harness/algos.h"
#if SCANLAB_HAVE_CUDA
#include "cpu/cpu.h"
#include "cuda/bench/bench_gpu.h"
#include "cuda/bench/dev_arena.h"
#include "cuda/device/mg_devices.h"
#endif

#if !SCANLAB_HAVE_CUDA
int bench_cuda_mg(const bench_options *o)
{
    (void)o;
    return cli_usage_error("bench: this scanlab was built without CUDA (--backend cuda unavailable)");
}
#else

#define MG_DEFAULT_N "2^28"
#define MG_DEFAULT_REPS 25
#define MG_SEED 0x5ca9u /* the input of the one-GPU benchmark, continued across the shards */
#define MG_HOLD_US 400   /* queueing P GPUs' launches takes longer than one's */
#define MG_JOBS 3
#define MG_MAX SL_MG_MAX_DEVICES
#define MG_DEPTH_RUN 4096

enum { JOB_COPY, JOB_LOOKBACK, JOB_MG };
static const char *const job_names[MG_JOBS] = {"copy", "lookback", "multi-gpu"};

/* One configuration on P GPUs. */
typedef struct {
    unsigned p;
    sl_type type;
    sl_op op;
    bool exclusive;
    size_t n, elem; /* per GPU */
    int block, reps;
    sl_mg_run run;                    /* the slices, streams and multi-gpu's arenas */
    sl_dev_arena lb[MG_MAX];          /* lookback's arena on each GPU */
    bool lb_open[MG_MAX];
    void *flush[MG_MAX];
    size_t flush_bytes;
    uint64_t *digest[MG_MAX];         /* per GPU: job k's run r at k * (reps + 1) + r */
    void *ev_start, *ev_stop, *ev_end[MG_MAX];
    const verify_algo *lookback, *mg;
} mg_cfg;

typedef struct {
    const char *algo;
    sl_type type;
    sl_op op;
    bool exclusive, resident, repeatable;
    size_t n;
    int reps, late;
    double median_ms, gbps, frac_of_copy, vs_one_gpu, bound;
} mg_row;

/* Job k run once on every GPU (queued; the caller waits). */
static sl_status run_job(mg_cfg *c, int k)
{
    sl_status st = SL_OK;
    if (k == JOB_MG) {
        sl_scan_args a = {c->type, c->op, c->exclusive, NULL, NULL, c->p * c->n, 0, c->block, (int)c->p, NULL,
                          SL_ADVERSARY_NONE};
        sl_mg_run_set(&c->run);
        st = c->mg->run[SL_CUDA](&a);
        sl_mg_run_set(NULL);
        return st;
    }
    for (unsigned g = 0; g < c->p && st == SL_OK; g++) {
        st = sl_bench_use_gpu((int)g);
        if (st == SL_OK && k == JOB_COPY)
            st = sl_bench_copy(c->run.out[g], c->run.in[g], c->n * c->elem);
        if (st == SL_OK && k == JOB_LOOKBACK) {
            sl_scan_args a = {c->type, c->op, c->exclusive, c->run.in[g], c->run.out[g], c->n, 0, c->block, 0,
                              NULL, SL_ADVERSARY_NONE};
            st = sl_dev_arena_next_run(&c->lb[g]);
            sl_dev_arena_set(&c->lb[g]);
            if (st == SL_OK)
                st = c->lookback->run[SL_CUDA](&a);
            sl_dev_arena_set(NULL);
        }
    }
    return st;
}

/* Waits for every GPU; *gave_up: a bounded wait of job k gave up. */
static sl_status wait_all(mg_cfg *c, int k, int *gave_up)
{
    sl_status st = SL_OK;
    *gave_up = 0;
    for (unsigned g = 0; g < c->p && st == SL_OK; g++) {
        int gu = 0;
        st = sl_bench_use_gpu((int)g);
        if (st == SL_OK)
            st = sl_bench_sync();
        if (st == SL_OK && k == JOB_LOOKBACK)
            st = sl_dev_arena_error(&c->lb[g], &gu);
        *gave_up |= gu;
    }
    if (st == SL_OK && k == JOB_MG) {
        int gu = 0;
        st = sl_mg_run_wait(&c->run, &gu);
        *gave_up |= gu;
    }
    return st;
}

/* lookback's arenas: a first run sizes them (bench_cuda.c's prepare_scan). */
static sl_status prepare_lookback(mg_cfg *c)
{
    sl_status st = SL_OK;
    int gave_up = 0;
    for (unsigned g = 0; g < c->p && st == SL_OK; g++) {
        st = sl_bench_use_gpu((int)g);
        if (st == SL_OK)
            st = sl_dev_arena_open(&c->lb[g], 0);
        c->lb_open[g] = st == SL_OK;
    }
    if (st == SL_OK)
        st = run_job(c, JOB_LOOKBACK);
    if (st == SL_OK)
        st = wait_all(c, JOB_LOOKBACK, &gave_up);
    for (unsigned g = 0; g < c->p && st == SL_OK; g++) {
        const size_t need = c->lb[g].need;
        st = sl_bench_use_gpu((int)g);
        sl_dev_arena_close(&c->lb[g]);
        c->lb_open[g] = false;
        if (st == SL_OK)
            st = sl_dev_arena_open(&c->lb[g], need);
        c->lb_open[g] = st == SL_OK;
    }
    return st;
}

/* Host check of shard after shard (elements done .. done + len - 1 of the
 * whole scan): exact types against the sequential scan continued from
 * the shard before (buf[0] holds its last inclusive prefix), float add
 * within depth * u * sum|x| + u |exact| (bench_cuda.c's float_add_check). */
typedef struct {
    const mg_cfg *c;
    const verify_algo *al;
    sl_scan_args a; /* for the depth function: the whole scan */
    size_t done;
    double s, comp, abs_sum;
    void *buf; /* len + 1 elements */
} mg_check;

static size_t check_float_add(mg_check *k, const void *in, const void *out, size_t len)
{
    const bool f32 = k->c->type == SL_F32;
    const double u = f32 ? 0x1.0p-24 : 0x1.0p-53;
    double depth = 0.0;
    for (size_t j = 0; j < len; j++) {
        const size_t i = k->done + j;
        /* the depth functions do not decrease with i: one evaluation at
         * the end of each run of MG_DEPTH_RUN outputs bounds the run */
        if (j == 0 || i % MG_DEPTH_RUN == 0) {
            const size_t last = i + MG_DEPTH_RUN < k->a.n ? i + MG_DEPTH_RUN - 1 : k->a.n - 1;
            depth = k->al->depth ? (double)k->al->depth(&k->a, last) : (double)(last + 1);
        }
        const double x = f32 ? (double)((const float *)in)[j] : ((const double *)in)[j];
        const double y = f32 ? (double)((const float *)out)[j] : ((const double *)out)[j];
        double exact = k->s + k->comp;
        if (!k->c->exclusive) {
            const double t = k->s + x, bp = t - k->s; /* TwoSum */
            k->comp += (k->s - (t - bp)) + (x - bp);
            k->s = t;
            k->abs_sum += fabs(x);
            exact = k->s + k->comp;
        }
        if (!(fabs(y - exact) <= depth * u * k->abs_sum + u * fabs(exact)))
            return i;
        if (k->c->exclusive) {
            const double t = k->s + x, bp = t - k->s;
            k->comp += (k->s - (t - bp)) + (x - bp);
            k->s = t;
            k->abs_sum += fabs(x);
        }
    }
    return SIZE_MAX;
}

/* Feeds one shard (host copies of its input and the job's output);
 * returns the first wrong index of the whole scan, or SIZE_MAX. */
static size_t check_shard(mg_check *k, const void *in, const void *out, size_t len)
{
    const size_t e = k->c->elem;
    size_t bad = SIZE_MAX;
    if (SL_TYPE_IS_FLOAT(k->c->type) && k->c->op == SL_ADD) {
        bad = check_float_add(k, in, out, len);
    } else {
        char *b = k->buf;
        memcpy(b + e, in, len * e);
        /* [prefix before, x...]: its inclusive scan is the prefix continued */
        cpu_scan_seq(k->c->type, k->c->op, false, b, b, len + 1);
        const char *want = k->c->exclusive ? b : b + e;
        for (size_t j = 0; j < len && bad == SIZE_MAX; j++)
            if (memcmp((const char *)out + j * e, want + j * e, e) != 0)
                bad = k->done + j;
        memcpy(b, b + len * e, e);
    }
    k->done += len;
    return bad;
}

/* Checks job k's output: lookback's on each GPU as a scan of its own,
 * multi-gpu's as one scan across the GPUs. */
static bool output_ok(mg_cfg *c, int k)
{
    const size_t bytes = c->n * c->elem;
    char *h_in = malloc(bytes), *h_out = malloc(bytes);
    mg_check chk;
    memset(&chk, 0, sizeof chk);
    chk.c = c;
    chk.al = k == JOB_MG ? c->mg : c->lookback;
    chk.a = (sl_scan_args){c->type, c->op, c->exclusive, NULL, NULL, k == JOB_MG ? c->p * c->n : c->n, 0, c->block,
                           k == JOB_MG ? (int)c->p : 0, NULL, SL_ADVERSARY_NONE};
    chk.buf = malloc(bytes + c->elem);
    sl_status st = h_in && h_out && chk.buf ? SL_OK : SL_ERR_NOMEM;
    size_t bad = SIZE_MAX;
    for (unsigned g = 0; g < c->p && st == SL_OK && bad == SIZE_MAX; g++) {
        if (g == 0 || k != JOB_MG) { /* a scan starts here */
            chk.done = 0;
            chk.s = chk.comp = chk.abs_sum = 0.0;
            st = cpu_identity(c->type, c->op, chk.buf);
        }
        if (st == SL_OK)
            st = sl_bench_use_gpu((int)g);
        if (st == SL_OK)
            st = sl_bench_to_host(h_in, c->run.in[g], bytes);
        if (st == SL_OK)
            st = sl_bench_to_host(h_out, c->run.out[g], bytes);
        if (st == SL_OK && (bad = check_shard(&chk, h_in, h_out, c->n)) != SIZE_MAX)
            fprintf(stderr, "scanlab: bench: %s %s %s %s, %u GPUs x n=%zu: output %zu%s differs from %s; not timed\n",
                    job_names[k], verify_type_name(c->type), verify_op_name(c->op),
                    c->exclusive ? "exclusive" : "inclusive", c->p, c->n, bad, k == JOB_MG ? "" : " of a GPU's",
                    SL_TYPE_IS_FLOAT(c->type) && c->op == SL_ADD ? "the accurate prefix (beyond its depth bound)"
                                                                   : "the sequential scan");
    }
    if (st != SL_OK)
        fprintf(stderr, "scanlab: bench: %s: reading its output: %s\n", job_names[k], sl_status_str(st));
    free(h_in);
    free(h_out);
    free(chk.buf);
    return st == SL_OK && bad == SIZE_MAX;
}

static void free_cfg(mg_cfg *c)
{
    for (unsigned g = 0; g < c->p; g++) {
        if (sl_bench_use_gpu((int)g) != SL_OK)
            continue;
        (void)sl_bench_sync();
        if (c->lb_open[g])
            sl_dev_arena_close(&c->lb[g]);
        sl_bench_free(c->flush[g]);
        sl_bench_free(c->digest[g]);
        sl_bench_event_free(c->ev_end[g]);
    }
    (void)sl_bench_use_gpu(0);
    sl_bench_event_free(c->ev_start);
    sl_bench_event_free(c->ev_stop);
    sl_mg_run_close(&c->run);
}

/* Buffers, events and the input on every GPU; memory refused up front. */
static sl_status setup_cfg(mg_cfg *c)
{
    const size_t bytes = c->n * c->elem, dig = MG_JOBS * (size_t)(c->reps + 1) * sizeof(uint64_t);
    sl_status st = SL_OK;
    for (unsigned g = 0; g < c->p && st == SL_OK; g++) {
        sl_bench_gpu info;
        if ((st = sl_bench_use_gpu((int)g)) == SL_OK && (st = sl_bench_gpu_info(&info)) == SL_OK) {
            c->flush_bytes = 2 * bytes <= info.l2_bytes ? 0 : 2 * info.l2_bytes;
            /* slices, flush buffer, and a margin for the arenas */
            const double need = 2.0 * (double)bytes + (double)c->flush_bytes + 0.02 * (double)bytes + 64e6;
            if (need > (double)info.free_bytes) {
                cli_usage_error("bench: --devices %u, n = %zu %s per GPU needs %.1f GiB on GPU %u; %.1f GiB are free",
                                c->p, c->n, verify_type_name(c->type), need / 1073741824.0, g,
                                (double)info.free_bytes / 1073741824.0);
                return SL_ERR_ARG;
            }
        }
    }
    if (st == SL_OK)
        st = sl_mg_run_open(&c->run, c->p, c->p * c->n, c->elem, 1);
    for (unsigned g = 0; g < c->p && st == SL_OK; g++) {
        st = sl_bench_use_gpu((int)g);
        if (st == SL_OK)
            st = sl_bench_alloc(&c->flush[g], c->flush_bytes);
        if (st == SL_OK)
            st = sl_bench_alloc((void **)&c->digest[g], dig);
        if (st == SL_OK)
            st = sl_bench_zero(c->digest[g], dig);
        if (st == SL_OK)
            st = sl_bench_event_new(&c->ev_end[g]);
        if (st == SL_OK)
            st = sl_bench_fill_at(c->run.in[g], c->type, c->op, c->n, (size_t)g * c->n, MG_SEED);
    }
    if (st == SL_OK)
        st = sl_bench_use_gpu(0);
    if (st == SL_OK)
        st = sl_bench_event_new(&c->ev_start);
    if (st == SL_OK)
        st = sl_bench_event_new(&c->ev_stop);
    return st;
}

/* Queues the digest of every GPU's output into job k's slot for run r. */
static sl_status digest(mg_cfg *c, int k, int r)
{
    sl_status st = SL_OK;
    for (unsigned g = 0; g < c->p && st == SL_OK; g++) {
        st = sl_bench_use_gpu((int)g);
        if (st == SL_OK)
            st = sl_bench_digest(c->run.out[g], c->n * c->elem, c->digest[g] + (size_t)k * (c->reps + 1) + r);
    }
    return st;
}

/* One timed run of job k on every GPU at once; *late as in bench_cuda.c. */
static sl_status time_once(mg_cfg *c, int k, double *ms, int *late)
{
    sl_status st = SL_OK;
    for (unsigned g = 0; g < c->p && st == SL_OK && c->flush_bytes; g++)
        if ((st = sl_bench_use_gpu((int)g)) == SL_OK)
            st = sl_bench_flush(c->flush[g], c->flush_bytes);
    if (st == SL_OK && (st = sl_bench_use_gpu(0)) == SL_OK && (st = sl_bench_hold(MG_HOLD_US)) == SL_OK)
        st = sl_bench_event_record(c->ev_start);
    for (unsigned g = 1; g < c->p && st == SL_OK; g++)
        if ((st = sl_bench_use_gpu((int)g)) == SL_OK)
            st = sl_bench_event_wait(c->ev_start);
    if (st == SL_OK)
        st = run_job(c, k);
    for (unsigned g = 1; g < c->p && st == SL_OK; g++) {
        if ((st = sl_bench_use_gpu((int)g)) == SL_OK)
            st = sl_bench_event_record(c->ev_end[g]);
        if (st == SL_OK && (st = sl_bench_use_gpu(0)) == SL_OK)
            st = sl_bench_event_wait(c->ev_end[g]);
    }
    if (st == SL_OK && (st = sl_bench_use_gpu(0)) == SL_OK)
        st = sl_bench_event_record(c->ev_stop);
    if (st == SL_OK)
        st = sl_bench_event_done(c->ev_start, late);
    if (st == SL_OK)
        st = sl_bench_event_ms(c->ev_start, c->ev_stop, ms);
    return st;
}

/* Warm-up, checks, timed runs; the rows of one configuration. */
static sl_status measure(mg_cfg *c, mg_row *rows, bool *failed)
{
    double *ms[MG_JOBS] = {NULL, NULL, NULL};
    int late[MG_JOBS] = {0, 0, 0};
    bool bad[MG_JOBS] = {false, false, false};
    const size_t nd = MG_JOBS * (size_t)(c->reps + 1);
    uint64_t *dig = calloc(nd * c->p, sizeof *dig);
    sl_status st = setup_cfg(c);
    if (st == SL_OK && !dig)
        st = SL_ERR_NOMEM;
    for (int k = 0; k < MG_JOBS && st == SL_OK; k++)
        st = (ms[k] = calloc((size_t)c->reps, sizeof *ms[k])) ? SL_OK : SL_ERR_NOMEM;
    if (st == SL_OK)
        st = prepare_lookback(c);
    for (int k = 0; k < MG_JOBS && st == SL_OK; k++) {
        int gave_up = 0;
        st = run_job(c, k);
        if (st == SL_OK)
            st = wait_all(c, k, &gave_up);
        if (st == SL_OK)
            st = digest(c, k, 0);
        if (st != SL_OK) {
            fprintf(stderr, "scanlab: bench: %s failed: %s\n", job_names[k], sl_status_str(st));
            break;
        }
        if (gave_up)
            fprintf(stderr, "scanlab: bench: %s: a bounded wait gave up (%s); not timed\n", job_names[k],
                    sl_status_str(SL_ERR_TIMEOUT));
        bad[k] = gave_up || (k != JOB_COPY && !output_ok(c, k));
        *failed |= bad[k];
    }
    for (int r = 0; r < c->reps && st == SL_OK; r++)
        for (int k = 0; k < MG_JOBS && st == SL_OK; k++) {
            int lt = 0;
            if (bad[k])
                continue;
            st = time_once(c, k, &ms[k][r], &lt);
            late[k] += lt;
            if (st == SL_OK)
                st = digest(c, k, 1 + r);
            if (st != SL_OK)
                fprintf(stderr, "scanlab: bench: %s failed: %s\n", job_names[k], sl_status_str(st));
        }
    for (int k = 0; k < MG_JOBS && st == SL_OK; k++) {
        int gave_up = 0;
        if (!bad[k] && (st = wait_all(c, k, &gave_up)) == SL_OK && gave_up) {
            fprintf(stderr, "scanlab: bench: %s: a bounded wait gave up in a timed run (%s)\n", job_names[k],
                    sl_status_str(SL_ERR_TIMEOUT));
            bad[k] = *failed = true;
        }
    }
    for (unsigned g = 0; g < c->p && st == SL_OK; g++)
        if ((st = sl_bench_use_gpu((int)g)) == SL_OK)
            st = sl_bench_to_host(dig + g * nd, c->digest[g], nd * sizeof *dig);
    if (st == SL_OK) {
        const double copy_ms = bad[JOB_COPY] ? -1.0 : bench_median(ms[JOB_COPY], (size_t)c->reps);
        const double lb_ms = bad[JOB_LOOKBACK] ? -1.0 : bench_median(ms[JOB_LOOKBACK], (size_t)c->reps);
        for (int k = 0; k < MG_JOBS; k++) {
            const double m = bad[k] ? -1.0 : k == JOB_COPY ? copy_ms : k == JOB_LOOKBACK ? lb_ms
                                                                     : bench_median(ms[k], (size_t)c->reps);
            mg_row *w = &rows[k];
            memset(w, 0, sizeof *w);
            w->algo = bad[k] ? NULL : job_names[k];
            w->type = c->type;
            w->op = c->op;
            w->exclusive = c->exclusive;
            w->n = c->n;
            w->reps = c->reps;
            w->late = late[k];
            w->resident = c->flush_bytes == 0;
            w->median_ms = m;
            w->gbps = m > 0 ? 2.0 * (double)c->p * (double)(c->n * c->elem) / (m * 1e-3) / 1e9 : 0.0;
            w->frac_of_copy = m > 0 && copy_ms > 0 ? copy_ms / m : -1.0;
            w->vs_one_gpu = m > 0 && lb_ms > 0 && k != JOB_COPY ? lb_ms / m : -1.0;
            w->bound = k == JOB_MG ? 3.0 : 2.0; /* multi-gpu reads every shard but the last twice */
            w->repeatable = true;
            for (unsigned g = 0; g < c->p; g++)
                for (int r = 1; r <= c->reps; r++)
                    w->repeatable &= dig[g * nd + (size_t)k * (c->reps + 1) + r] ==
                                     dig[g * nd + (size_t)k * (c->reps + 1)];
            if (w->late)
                fprintf(stderr, "scanlab: bench: %s, n = %zu: %d of %d timed runs began before the host had queued "
                        "them (their times include its launch work)\n", job_names[k], c->n, w->late, c->reps);
        }
    }
    for (int k = 0; k < MG_JOBS; k++)
        free(ms[k]);
    free(dig);
    free_cfg(c);
    return st;
}

static void print_row_json(json_writer *w, const mg_row *r, unsigned p)
{
    json_begin_object(w, NULL);
    json_string(w, "algo", r->algo);
    json_string(w, "kind", "scan");
    json_string(w, "type", verify_type_name(r->type));
    json_string(w, "op", verify_op_name(r->op));
    json_bool(w, "exclusive", r->exclusive);
    json_uint(w, "n", r->n);
    json_int(w, "devices", (int)p);
    json_uint(w, "total_n", (uint64_t)p * r->n);
    json_double(w, "median_ms", r->median_ms);
    json_double(w, "gbps", r->gbps);
    json_double(w, "frac_of_copy", r->frac_of_copy);
    if (r->vs_one_gpu >= 0)
        json_double(w, "vs_one_gpu", r->vs_one_gpu);
    else
        json_null(w, "vs_one_gpu");
    json_null(w, "vs_cub");
    json_double(w, "bound", r->bound);
    json_null(w, "predicted_ms");
    json_bool(w, "cache_resident", r->resident);
    json_bool(w, "repeatable", r->repeatable);
    json_int(w, "reps", r->reps);
    json_int(w, "late_runs", r->late);
    json_end_object(w);
}

static void print_out(const bench_options *o, const sl_bench_gpu *gpu0, const mg_row *rows, size_t count)
{
    const unsigned p = (unsigned)o->devices;
    if (o->json) {
        char date[32];
        time_t now = time(NULL);
        strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
        json_writer w;
        json_init(&w, stdout);
        json_begin_object(&w, NULL);
        json_string(&w, "device", gpu0->name);
        json_string(&w, "date", date);
        json_int(&w, "devices", (int)p);
        json_int(&w, "sms", gpu0->sms);
        json_uint(&w, "l2_bytes", gpu0->l2_bytes);
        json_int(&w, "block", o->block);
        json_int(&w, "param", (int)p);
        json_string(&w, "timing", "gpu");
        json_string(&w, "baseline", "lookback and copy on every GPU at once, each on its own n elements");
        json_begin_array(&w, "results");
        for (size_t i = 0; i < count; i++)
            if (rows[i].algo)
                print_row_json(&w, &rows[i], p);
        json_end_array(&w);
        json_end_object(&w);
        json_finish(&w);
        return;
    }
    for (size_t i = 0; i < count; i++) {
        const mg_row *r = &rows[i];
        if (i % MG_JOBS == 0) {
            printf("\n%u x %s: n = %zu per GPU (%zu in all), %s %s, %s; median of %d runs, the GPUs' work alone\n",
                   p, gpu0->name, r->n, (size_t)p * r->n, verify_type_name(r->type), verify_op_name(r->op),
                   r->exclusive ? "exclusive" : "inclusive", r->reps);
            printf("copy and lookback: on every GPU at once, each on its own n; GB/s counts 2 * %u * n "
                   "elements; %s\n\n", p, r->resident ? "cache-resident" : "from memory (each L2 flushed before each run)");
            printf("%-12s %10s %9s %8s %10s %8s %7s\n", "algorithm", "median ms", "GB/s", "of copy", "vs 1 GPU",
                   "traffic", "repeat");
        }
        if (!r->algo) {
            printf("%-12s %10s\n", job_names[i % MG_JOBS], "failed");
            continue;
        }
        char vs[32] = "-", fc[32] = "-";
        if (r->vs_one_gpu >= 0)
            snprintf(vs, sizeof vs, "%.3f", r->vs_one_gpu);
        if (r->frac_of_copy >= 0)
            snprintf(fc, sizeof fc, "%.3f", r->frac_of_copy);
        printf("%-12s %10.4f %9.1f %8s %10s %7.0fn %7s\n", r->algo, r->median_ms, r->gbps, fc, vs, r->bound,
               r->repeatable ? "same" : "DIFFER");
    }
    printf("\nvs 1 GPU: lookback's time over this one's (aggregate throughput over P times one GPU's lookback)\n");
}

/* The refusals of --devices P on this host: 0, or 2 after one message. */
static int check_gpus(unsigned p)
{
    char why[256];
    const sl_status st = sl_mg_gpus_ready(p, why, sizeof why);
    if (st == SL_ERR_NO_GPU || st == SL_ERR_UNSUPPORTED)
        return cli_usage_error("bench: --devices %u: %s", p, why);
    if (st != SL_OK) {
        fprintf(stderr, "scanlab: bench: --devices %u: %s%s%s\n", p, sl_status_str(st), *why ? ": " : "", why);
        return CLI_EXIT_FAILED;
    }
    return CLI_EXIT_OK;
}

int bench_cuda_mg(const bench_options *o)
{
    size_t *ns = NULL, nn = 0;
    unsigned types = 0, ops = 0;
    char why[512];
    sl_bench_gpu gpu0;
    bool failed = false;
    const unsigned p = (unsigned)o->devices;
    sl_status st = cli_parse_size_list("--n", o->n_list ? o->n_list : MG_DEFAULT_N, &ns, &nn);
    if (st == SL_OK && (st = verify_parse_type_list(o->types ? o->types : "i32", &types, why, sizeof why)) != SL_OK)
        cli_usage_error("bench: %s", why);
    if (st == SL_OK && (st = verify_parse_op_list(o->ops ? o->ops : "add", &ops, why, sizeof why)) != SL_OK)
        cli_usage_error("bench: %s", why);
    for (size_t k = 0; st == SL_OK && k < nn; k++)
        if (ns[k] == 0) {
            cli_usage_error("bench: --n: the benchmark needs at least 1 element per GPU");
            st = SL_ERR_ARG;
        } else if (ns[k] > SIZE_MAX / 16 / p) {
            cli_usage_error("bench: --n %zu per GPU is too large for %u GPUs", ns[k], p);
            st = SL_ERR_ARG;
        }
    if (st != SL_OK) {
        free(ns);
        return cli_exit_code(st);
    }
    if ((st = sl_bench_gpu_info(&gpu0)) != SL_OK) {
        free(ns);
        if (st == SL_ERR_NO_GPU)
            return cli_usage_error("bench: no GPU present (--backend cuda needs one)");
        fprintf(stderr, "scanlab: bench: %s\n", sl_status_str(st));
        return CLI_EXIT_FAILED;
    }
    int rc = check_gpus(p);
    const size_t cap = (size_t)SL_TYPE_COUNT * SL_OP_COUNT * nn * MG_JOBS;
    mg_row *rows = rc == CLI_EXIT_OK ? calloc(cap, sizeof *rows) : NULL;
    size_t count = 0;
    if (rc == CLI_EXIT_OK && !rows) {
        fprintf(stderr, "scanlab: bench: %s\n", sl_status_str(SL_ERR_NOMEM));
        rc = CLI_EXIT_FAILED;
    }
    for (int t = 0; t < SL_TYPE_COUNT && rc == CLI_EXIT_OK && st == SL_OK; t++)
        for (int op = 0; op < SL_OP_COUNT && st == SL_OK; op++) {
            if (!(types & (1u << t)) || !(ops & (1u << op)) || !SL_OP_APPLIES(op, t))
                continue;
            for (size_t k = 0; k < nn && st == SL_OK; k++) {
                mg_cfg c;
                memset(&c, 0, sizeof c);
                c.p = p;
                c.type = (sl_type)t;
                c.op = (sl_op)op;
                c.exclusive = o->exclusive;
                c.n = ns[k];
                c.elem = SL_TYPE_SIZE(c.type);
                c.block = o->block;
                c.reps = o->reps > 0 ? o->reps : MG_DEFAULT_REPS;
                c.lookback = verify_find_algo("lookback", false);
                c.mg = verify_find_algo("multi-gpu", false);
                if (!c.lookback || !c.mg)
                    st = SL_ERR_UNSUPPORTED;
                /* host side: a shard's input and output, and the reference */
                if (st == SL_OK)
                    st = cli_check_peak("bench", c.n, cli_peak_cpu(c.n, c.elem, 3));
                if (st == SL_OK)
                    st = measure(&c, rows + count, &failed);
                if (st == SL_OK)
                    count += MG_JOBS;
            }
        }
    if (rc == CLI_EXIT_OK && st == SL_OK)
        print_out(o, &gpu0, rows, count);
    else if (rc == CLI_EXIT_OK && st != SL_ERR_ARG)
        fprintf(stderr, "scanlab: bench: %s\n", sl_status_str(st));
    free(rows);
    free(ns);
    if (rc != CLI_EXIT_OK)
        return rc;
    return st != SL_OK ? cli_exit_code(st) : failed ? CLI_EXIT_FAILED : CLI_EXIT_OK;
}

#endif
