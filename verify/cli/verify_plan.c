/* A plan of cases: expand the selection into groups (one output line each)
 * and cases, run the cases (in parallel with --jobs, results kept in plan
 * order), and print the verdict per group. */
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "verify/campaign/ranks.h"
#include "verify/campaign/share.h"
#include "verify/cli/cli.h"
#include "verify/cli/progress.h"
#include "verify/cli/verify_plan.h"
#include "verify/formats/json.h"
#include "verify/harness/geometry.h"
#include "verify/harness/huge_check.h"
#include "verify/harness/sizes.h"
#include "verify/report/kernel_coverage.h"

typedef struct {
    const verify_algo *algo;
    sl_backend backend;
    sl_type type;
    sl_op op;
    bool exclusive;
    size_t first, count; /* its cases: sizes outer, distributions inner */
    size_t sizes, nsizes; /* its sizes: expansion.sizes[sizes .. sizes + nsizes) */
} group;

typedef struct {
    size_t group;
    size_t n;
    verify_dist dist;
} task;

/* A probed geometry, kept for the groups of the same algorithm and
 * element size. */
typedef struct {
    const verify_algo *algo;
    size_t esize;
    verify_geometry g;
} geometry_memo;

typedef struct {
    group *groups;
    size_t ngroups, gcap;
    task *tasks;
    size_t ntasks, tcap;
    size_t *sizes; /* the groups' sizes */
    size_t nsizes, scap;
    geometry_memo *memo;
    size_t nmemo, mcap;
} expansion;

/* The default checks after the cases (verify_plan.h): a huge check per
 * device-level kernel and the kernel sites no case reached. */
typedef struct {
    const verify_algo *algo;
    verify_huge_result r;
} huge_line;

typedef struct {
    huge_line *huge;
    size_t nhuge;
    report_kcov_result cov;
    size_t unreached; /* lines of cov not reached */
    bool cov_done;
} extra_checks;

typedef struct {
    const verify_plan *plan;
    const expansion *x;
    verify_case_result *results;
    size_t next, done;
    cli_progress progress;
    pthread_mutex_t lock;   /* next, done, progress output */
    pthread_mutex_t device; /* one case at a time on the simulator and the GPU */
    extra_checks extra;
    report_kcov *kcov; /* the default checks: each sim case's sites, attributed to its kernel */
} pool;

typedef enum { LINE_OK, LINE_FAILED, LINE_SKIPPED } line_verdict_t;

/* What one line says. */
typedef struct {
    line_verdict_t verdict;
    size_t sizes_checked;
    double max_eta;
    bool deterministic;
    sl_status skip;
    size_t fail; /* index of the first failing case, when FAILED */
} line;

static const char *const verdict_names[] = {"OK", "FAILED", "SKIPPED"};

static bool grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return true;
    size_t cap2 = *cap ? 2 * *cap : 64;
    while (cap2 < need)
        cap2 *= 2;
    void *q = realloc(*p, cap2 * elem);
    if (!q)
        return false;
    *p = q;
    *cap = cap2;
    return true;
}

static unsigned dists_for(const verify_plan *p, sl_type t)
{
    unsigned m = 0;
    for (int d = 0; d < VERIFY_DIST_COUNT; d++)
        if ((p->dists >> d & 1u) && verify_dist_applies((verify_dist)d, t))
            m |= 1u << d;
    return p->dists ? m : 1u << verify_default_dist(t);
}

/* The geometry of algo for elements of esize bytes, probed once. */
static sl_status geometry_of(const verify_plan *p, expansion *x, const verify_algo *algo, sl_type t,
                             verify_geometry *g)
{
    const size_t esize = SL_TYPE_SIZE(t);
    for (size_t i = 0; i < x->nmemo; i++)
        if (x->memo[i].algo == algo && x->memo[i].esize == esize) {
            *g = x->memo[i].g;
            return SL_OK;
        }
    if (!grow((void **)&x->memo, &x->mcap, x->nmemo + 1, sizeof *x->memo))
        return SL_ERR_NOMEM;
    /* a probe that fails (a --block the kernel refuses) adds no sizes: the
     * cases say what the kernel refused */
    if (verify_probe_geometry(algo, t, p->block, p->param, g) != SL_OK)
        g->section = 0;
    x->memo[x->nmemo++] = (geometry_memo){algo, esize, *g};
    return SL_OK;
}

/* The group's sizes: the plan's, and with the default checks those of its
 * kernel's geometry (the kernel backends: sim, cuda). */
static sl_status group_sizes(const verify_plan *p, expansion *x, group *g)
{
    size_t extra[8], nextra = 0;
    if (p->defaults && (g->backend == SL_SIM || g->backend == SL_CUDA) && g->algo->run[SL_SIM]) {
        verify_geometry geo;
        sl_status st = geometry_of(p, x, g->algo, g->type, &geo);
        if (st != SL_OK)
            return st;
        nextra = verify_geometry_sizes(&geo, extra);
    }
    if (!grow((void **)&x->sizes, &x->scap, x->nsizes + p->size_count + nextra, sizeof *x->sizes))
        return SL_ERR_NOMEM;
    size_t *v = x->sizes + x->nsizes;
    memcpy(v, p->sizes, p->size_count * sizeof *v);
    memcpy(v + p->size_count, extra, nextra * sizeof *v);
    g->sizes = x->nsizes;
    g->nsizes = verify_sort_sizes(v, p->size_count + nextra);
    x->nsizes += g->nsizes;
    return SL_OK;
}

static sl_status add_group(const verify_plan *p, expansion *x, group g, unsigned dists)
{
    if (!grow((void **)&x->groups, &x->gcap, x->ngroups + 1, sizeof *x->groups))
        return SL_ERR_NOMEM;
    sl_status st = group_sizes(p, x, &g);
    if (st != SL_OK)
        return st;
    g.first = x->ntasks;
    g.count = 0;
    for (size_t s = 0; s < g.nsizes; s++)
        for (int d = 0; d < VERIFY_DIST_COUNT; d++) {
            if (!(dists >> d & 1u))
                continue;
            if (!grow((void **)&x->tasks, &x->tcap, x->ntasks + 1, sizeof *x->tasks))
                return SL_ERR_NOMEM;
            x->tasks[x->ntasks++] = (task){x->ngroups, x->sizes[g.sizes + s], (verify_dist)d};
            g.count++;
        }
    x->groups[x->ngroups++] = g;
    return SL_OK;
}

static sl_status expand(const verify_plan *p, expansion *x)
{
    for (size_t a = 0; a < p->algo_count; a++)
        for (int b = 0; b < SL_BACKEND_COUNT; b++) {
            const verify_algo *al = p->algos[a];
            if (!(p->backends >> b & 1u) || !verify_algo_runs_on(al, (sl_backend)b))
                continue;
            for (int t = 0; t < SL_TYPE_COUNT; t++) {
                unsigned dists = dists_for(p, (sl_type)t);
                if (!(p->types >> t & 1u) || !dists)
                    continue;
                for (int op = 0; op < SL_OP_COUNT; op++) {
                    if (!(p->ops >> op & 1u) || !SL_OP_APPLIES(op, t))
                        continue;
                    group g = {al, (sl_backend)b, (sl_type)t, (sl_op)op, false, 0, 0, 0, 0};
                    sl_status st = SL_OK;
                    if (SL_KIND_IS_APP(al->kind)) {
                        /* applications scan counts with add whatever the
                         * element type: one line per type, op add */
                        if (op == SL_ADD)
                            st = add_group(p, x, g, dists);
                    } else if (al->kind == SL_KIND_REDUCE) {
                        st = add_group(p, x, g, dists);
                    } else {
                        if (p->inclusive && st == SL_OK)
                            st = add_group(p, x, g, dists);
                        g.exclusive = true;
                        if (p->exclusive && st == SL_OK)
                            st = add_group(p, x, g, dists);
                    }
                    if (st != SL_OK)
                        return st;
                }
            }
        }
    return SL_OK;
}

/* The schedules of a case: --schedules, else one explored schedule besides
 * the default one for the sim cases of up to VERIFY_EXPLORE_MAX_N elements
 * (a warp-synchronous reduction without __syncwarp is right in the default
 * schedule and wrong in most explored ones). */
static int schedules_for(const verify_plan *p, const group *g, const task *t)
{
    if (p->schedules_given || g->backend != SL_SIM)
        return p->schedules;
    return t->n <= VERIFY_EXPLORE_MAX_N ? 2 : 0; /* 0: one, and an explored persistent run (harness.h) */
}

static void run_task(pool *p, size_t i)
{
    const task *t = &p->x->tasks[i];
    const group *g = &p->x->groups[t->group];
    verify_case c = {.algo = g->algo, .backend = g->backend, .type = g->type, .op = g->op,
                     .exclusive = g->exclusive, .dist = t->dist, .n = t->n, .seed = p->plan->seed,
                     .repeat = p->plan->repeat, .block = p->plan->block, .param = p->plan->param,
                     .allow_races = p->plan->allow_races, .schedules = schedules_for(p->plan, g, t),
                     .pct = p->plan->pct};
    /* The simulator and the GPU are process-wide: one case at a time. */
    bool serial = g->backend == SL_SIM || g->backend == SL_CUDA;
    if (serial)
        pthread_mutex_lock(&p->device);
    verify_run_case_on(&c, p->plan->data, p->x->ntasks == 1 ? p->plan->keep : NULL,
                       &p->results[i]);
    /* the case's index is its event: over the ranks of a campaign the
     * earliest case that ran a site owns it, as in one process */
    if (g->backend == SL_SIM)
        report_kcov_attribute_at(p->kcov, g->algo->name, i);
    if (serial)
        pthread_mutex_unlock(&p->device);
}

static void *worker(void *arg)
{
    pool *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        size_t i = p->next++;
        while (i < p->x->ntasks && !ranks_mine(i)) /* another rank's case */
            i = p->next++;
        pthread_mutex_unlock(&p->lock);
        if (i >= p->x->ntasks)
            return NULL;
        run_task(p, i);
        pthread_mutex_lock(&p->lock);
        p->done++;
        const group *g = &p->x->groups[p->x->tasks[i].group];
        char what[128];
        snprintf(what, sizeof what, "%s on %s", g->algo->name, verify_backend_name(g->backend));
        cli_progress_update(&p->progress, p->done, what);
        pthread_mutex_unlock(&p->lock);
    }
}

static void run_all(pool *p, int jobs)
{
    pthread_mutex_init(&p->lock, NULL);
    pthread_mutex_init(&p->device, NULL);
    pthread_t tid[256];
    int started = 0;
    if (jobs > (int)(sizeof tid / sizeof tid[0]))
        jobs = (int)(sizeof tid / sizeof tid[0]);
    for (int j = 1; j < jobs; j++)
        if (pthread_create(&tid[started], NULL, worker, p) == 0)
            started++;
    worker(p); /* the calling thread works too; with jobs = 1 it is alone */
    for (int j = 0; j < started; j++)
        pthread_join(tid[j], NULL);
    cli_progress_end(&p->progress);
    pthread_mutex_destroy(&p->lock);
    pthread_mutex_destroy(&p->device);
}

static line summarise(const pool *p, const group *g)
{
    line l = {LINE_OK, 0, 0.0, true, SL_OK, 0};
    size_t sizes = g->nsizes, per_size = sizes ? g->count / sizes : 0;
    for (size_t s = 0; s < sizes && per_size; s++) {
        bool all_ran = true;
        for (size_t k = s * per_size; k < (s + 1) * per_size; k++) {
            const verify_case_result *r = &p->results[g->first + k];
            bool ran = r->status == SL_OK || r->status == SL_ERR_CHECK;
            all_ran &= ran;
            if (ran) {
                if (r->max_eta > l.max_eta || r->max_eta != r->max_eta)
                    l.max_eta = r->max_eta;
                l.deterministic &= r->deterministic;
            }
            if (verify_status_is_skip(r->status)) {
                if (l.verdict == LINE_OK) {
                    l.verdict = LINE_SKIPPED;
                    l.skip = r->status;
                }
            } else if (r->status != SL_OK && l.verdict != LINE_FAILED) {
                l.verdict = LINE_FAILED;
                l.fail = g->first + k;
            }
        }
        l.sizes_checked += all_ran;
    }
    return l;
}

static const char *kind_name(const group *g)
{
    static const char *const app_names[] = {[SL_KIND_COMPACT] = "compact",
                                            [SL_KIND_PARTITION] = "partition",
                                            [SL_KIND_SORT] = "sort", [SL_KIND_PACK] = "pack",
                                            [SL_KIND_PARTITION_REV] = "partition"};
    if (SL_KIND_IS_APP(g->algo->kind))
        return app_names[g->algo->kind];
    if (g->algo->kind == SL_KIND_REDUCE)
        return "reduce";
    return g->exclusive ? "exclusive" : "inclusive";
}

/* The distribution a failure line names: "file" for user data. */
static const char *dist_label(const verify_plan *p, const task *t)
{
    return p->input ? "file" : verify_dist_name(t->dist);
}

/* path as one shell word: as it is when it has only safe characters, else
 * in single quotes (a quote inside becomes '\''). */
static void shell_word(const char *path, char *buf, size_t size)
{
    size_t safe = strspn(path, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
                               "_-./+,:=@%");
    if (path[0] && path[safe] == '\0') {
        snprintf(buf, size, "%s", path);
        return;
    }
    size_t k = 0;
    if (size < 3) {
        if (size)
            buf[0] = '\0';
        return;
    }
    buf[k++] = '\'';
    for (const char *c = path; *c && k + 6 < size; c++) {
        if (*c == '\'') {
            memcpy(buf + k, "'\\''", 4);
            k += 4;
        } else {
            buf[k++] = *c;
        }
    }
    buf[k++] = '\'';
    buf[k] = '\0';
}

static void replay(const verify_plan *p, const group *g, const task *t, char *buf, size_t size)
{
    char rep[160] = "";
    int len = 0;
    if (p->repeat > 1)
        len += snprintf(rep + len, sizeof rep - (size_t)len, " --repeat %d", p->repeat);
    if (p->schedules > 1)
        len += snprintf(rep + len, sizeof rep - (size_t)len, " --schedules %d", p->schedules);
    if (p->pct)
        len += snprintf(rep + len, sizeof rep - (size_t)len, " --pct %u", p->pct);
    if (p->block)
        len += snprintf(rep + len, sizeof rep - (size_t)len, " --block %d", p->block);
    if (p->param)
        len += snprintf(rep + len, sizeof rep - (size_t)len, " --param %d", p->param);
    if (p->allow_races)
        snprintf(rep + len, sizeof rep - (size_t)len, " --allow-races");
    if (p->input) {
        /* --type stays: a raw file needs it, and a .npy agrees with it */
        char word[2 * PATH_MAX];
        shell_word(p->input, word, sizeof word);
        snprintf(buf, size, "scanlab verify --algo %s --backend %s --type %s --op %s%s --input %s%s",
                 g->algo->name, verify_backend_name(g->backend), verify_type_name(g->type),
                 verify_op_name(g->op),
                 g->exclusive && g->algo->kind == SL_KIND_SCAN ? " --exclusive" : "", word, rep);
        return;
    }
    snprintf(buf, size,
             "scanlab verify --algo %s --backend %s --type %s --op %s%s --n %zu --dist %s "
             "--seed %" PRIu64 "%s",
             g->algo->name, verify_backend_name(g->backend), verify_type_name(g->type),
             verify_op_name(g->op), g->exclusive && g->algo->kind == SL_KIND_SCAN ? " --exclusive" : "",
             t->n, verify_dist_name(t->dist), p->seed, rep);
}

/* The statuses that make a line SKIPPED, in the order the summary names
 * them. */
static const sl_status skip_reasons[] = {SL_ERR_NO_GPU, SL_ERR_UNSUPPORTED};
enum { SKIP_REASONS = sizeof skip_reasons / sizeof skip_reasons[0] };

/* Skipped lines per reason into why[]; returns their total. */
static size_t count_skips(const pool *p, size_t why[SKIP_REASONS])
{
    size_t total = 0;
    memset(why, 0, SKIP_REASONS * sizeof *why);
    for (size_t i = 0; i < p->x->ngroups; i++) {
        line l = summarise(p, &p->x->groups[i]);
        if (l.verdict != LINE_SKIPPED)
            continue;
        total++;
        for (int k = 0; k < SKIP_REASONS; k++)
            why[k] += l.skip == skip_reasons[k];
    }
    return total;
}

/* ---- the default checks after the cases --------------------------------- */

static line_verdict_t huge_verdict(const verify_huge_result *r)
{
    return r->status == SL_OK ? LINE_OK : verify_status_is_skip(r->status) ? LINE_SKIPPED : LINE_FAILED;
}

static bool unreached_counts(const verify_plan *plan, const report_kcov_kernel *k, const report_kcov_line *ln)
{
    return report_kcov_line_fails(k, ln, plan->algos, plan->algo_count);
}

/* The huge checks of the default checks (verify_plan.h, defaults), one per
 * algorithm that has one, listed at every rank; those of this rank run.
 * They follow the cases in the list the ranks share: huge check h is
 * item (and coverage event) ntasks + h. */
static sl_status run_huge(pool *p)
{
    const verify_plan *plan = p->plan;
    extra_checks *e = &p->extra;
    if (!plan->defaults || !(plan->backends >> SL_SIM & 1u))
        return SL_OK;
    e->huge = calloc(plan->algo_count + 1, sizeof *e->huge);
    if (!e->huge)
        return SL_ERR_NOMEM;
    for (size_t i = 0; i < plan->algo_count; i++) {
        const verify_algo *a = plan->algos[i];
        if (!verify_huge_applies(a))
            continue;
        const size_t event = p->x->ntasks + e->nhuge;
        huge_line *h = &e->huge[e->nhuge++];
        h->algo = a;
        if (!ranks_mine(event))
            continue;
        verify_huge_check(a, plan->block, plan->param, plan->seed, plan->allow_races, &h->r);
        report_kcov_attribute_at(p->kcov, a->name, event);
    }
    return SL_OK;
}

/* The unreached sites (verify_plan.h, defaults), at rank 0 once the
 * ranks' coverage is merged. */
static sl_status run_extra(pool *p)
{
    const verify_plan *plan = p->plan;
    extra_checks *e = &p->extra;
    if (!plan->defaults || !(plan->backends >> SL_SIM & 1u))
        return SL_OK;
    if (!p->kcov || report_kcov_compute(p->kcov, plan->algos, plan->algo_count, &e->cov) != SL_OK)
        return SL_ERR_NOMEM;
    e->cov_done = true;
    for (size_t k = 0; k < e->cov.count; k++)
        for (size_t l = 0; l < e->cov.kernels[k].sites; l++)
            e->unreached += unreached_counts(plan, &e->cov.kernels[k], &e->cov.kernels[k].lines[l]);
    return SL_OK;
}

static bool extra_failed(const pool *p)
{
    for (size_t i = 0; i < p->extra.nhuge; i++) {
        line_verdict_t v = huge_verdict(&p->extra.huge[i].r);
        if (v == LINE_FAILED || (v == LINE_SKIPPED && p->plan->fail_on_skip))
            return true;
    }
    return p->extra.unreached && !p->plan->allow_unreached;
}

/* A huge check is part of verify's default checks of one algorithm. */
static void huge_replay(const pool *p, const huge_line *h, char *buf, size_t size)
{
    int len = snprintf(buf, size, "scanlab verify --algo %s --backend sim --type i32 --op add --seed %" PRIu64,
                       h->algo->name, p->plan->seed);
    if (p->plan->block && len > 0 && (size_t)len < size)
        len += snprintf(buf + len, size - (size_t)len, " --block %d", p->plan->block);
    if (p->plan->param && len > 0 && (size_t)len < size)
        snprintf(buf + len, size - (size_t)len, " --param %d", p->plan->param);
}

/* Every unreached site as editors annotate it, on stderr: an error unless
 * --allow-unreached. */
static void print_unreached(const pool *p)
{
    const report_kcov_result *c = &p->extra.cov;
    for (size_t k = 0; k < c->count; k++)
        for (size_t l = 0; l < c->kernels[k].sites; l++) {
            const report_kcov_line *ln = &c->kernels[k].lines[l];
            const bool counts = unreached_counts(p->plan, &c->kernels[k], ln);
            if (!ln->reached)
                fprintf(stderr, "%s:%d: %s: %s: kernel site not reached by verify's inputs (%s)%s%s\n", ln->file,
                        ln->line, counts && !p->plan->allow_unreached ? "error" : "note", c->kernels[k].name,
                        ln->what, ln->exempt[0] ? ": " : !counts ? ": a shared line, perhaps another kernel's" : "",
                        ln->exempt);
        }
}

static void print_table(const pool *p, FILE *out)
{
    const expansion *x = p->x;
    int w = 9;
    for (size_t i = 0; i < x->ngroups; i++)
        if ((int)strlen(x->groups[i].algo->name) > w)
            w = (int)strlen(x->groups[i].algo->name);
    bool rep = p->plan->repeat > 1;
    fprintf(out, "%-*s  %-7s  %-4s  %-6s  %-9s  %-7s  %5s  %s%s\n", w, "algorithm", "backend", "type",
            "op", "kind", "status", "sizes", rep ? "runs       " : "", "worst case");
    size_t count[3] = {0, 0, 0};
    for (size_t i = 0; i < x->ngroups; i++) {
        const group *g = &x->groups[i];
        line l = summarise(p, g);
        count[l.verdict]++;
        char worst[64];
        if (l.verdict == LINE_SKIPPED)
            snprintf(worst, sizeof worst, "%s", sl_status_str(l.skip));
        else if (SL_TYPE_IS_FLOAT(g->type) && g->op == SL_ADD && !SL_KIND_IS_APP(g->algo->kind))
            snprintf(worst, sizeof worst, "max eta %.4g", l.max_eta);
        else
            snprintf(worst, sizeof worst, "%s", l.verdict == LINE_OK ? "bitwise equal" : "-");
        fprintf(out, "%-*s  %-7s  %-4s  %-6s  %-9s  %-7s  %5zu  %s%s\n", w, g->algo->name,
                verify_backend_name(g->backend), verify_type_name(g->type), verify_op_name(g->op),
                kind_name(g), verdict_names[l.verdict], l.sizes_checked,
                rep ? (l.verdict == LINE_SKIPPED ? "-          "
                                                 : l.deterministic ? "identical  " : "DIFFER     ")
                    : "",
                worst);
        if (l.verdict == LINE_FAILED) {
            const task *t = &x->tasks[l.fail];
            const verify_case_result *r = &p->results[l.fail];
            char what[VERIFY_FINDINGS_TEXT], cmd[3 * PATH_MAX];
            verify_describe_result(r, what, sizeof what);
            replay(p->plan, g, t, cmd, sizeof cmd);
            fprintf(out, "    n=%zu dist=%s", t->n, dist_label(p->plan, t));
            if (p->plan->repeat > 1 && r->status == SL_ERR_CHECK)
                fprintf(out, " run %d", r->run + 1);
            if (p->plan->input)
                fprintf(out, ": %s\n    replay: %s\n", what, cmd);
            else
                fprintf(out, ": %s\n    seed %" PRIu64 "; replay: %s\n", what, p->plan->seed, cmd);
            /* the sites as compilers print them, for editors and CI */
            if (r->findings_text[0])
                fputs(r->findings_text, stderr);
        }
    }
    for (size_t i = 0; i < p->extra.nhuge; i++) {
        const huge_line *h = &p->extra.huge[i];
        line_verdict_t v = huge_verdict(&h->r);
        count[v]++;
        fprintf(out, "%-*s  %-7s  %-4s  %-6s  %-9s  %-7s  %5d  %s%s\n", w, h->algo->name, "sim", "i32", "add",
                "huge", verdict_names[v], v == LINE_OK, rep ? "-          " : "", h->r.what);
        if (v == LINE_FAILED) {
            char cmd[512];
            huge_replay(p, h, cmd, sizeof cmd);
            fprintf(out, "    n=%zu: %s\n    seed %" PRIu64 "; replay: %s\n", (size_t)VERIFY_HUGE_N, h->r.what,
                    p->plan->seed, cmd);
        }
    }
    if (p->extra.cov_done && p->extra.cov.count) {
        fprintf(out, "\nkernel sites no case reached: %zu%s (every unreached one on stderr as path:line)\n",
                p->extra.unreached,
                !p->extra.unreached         ? ": every verdict rests on code that ran"
                : p->plan->allow_unreached ? ", allowed by --allow-unreached"
                                           : ": the verdict would rest on code that did not run");
        print_unreached(p);
    }
    if (p->plan->input)
        fprintf(out, "\n%zu OK, %zu FAILED, %zu SKIPPED (input %s)\n", count[LINE_OK],
                count[LINE_FAILED], count[LINE_SKIPPED], p->plan->input);
    else
        fprintf(out, "\n%zu OK, %zu FAILED, %zu SKIPPED (seed %" PRIu64 ")\n", count[LINE_OK],
                count[LINE_FAILED], count[LINE_SKIPPED], p->plan->seed);
    size_t why[SKIP_REASONS];
    if (count_skips(p, why)) {
        fprintf(out, "skipped:");
        const char *sep = " ";
        for (int k = 0; k < SKIP_REASONS; k++)
            if (why[k]) {
                fprintf(out, "%s%zu %s", sep, why[k], sl_status_str(skip_reasons[k]));
                sep = ", ";
            }
        fprintf(out, "%s\n", p->plan->fail_on_skip ? " (--fail-on-skip: they fail the run)" : "");
    }
}

static void json_failure(json_writer *w, const pool *p, const group *g, size_t fail)
{
    const task *t = &p->x->tasks[fail];
    const verify_case_result *r = &p->results[fail];
    static const char *const where_names[] = {"value", "before_output", "after_output", "input",
                                              "count", "finding"};
    char what[VERIFY_FINDINGS_TEXT], dec[64], hex[64];
    json_begin_object(w, "first_failure");
    json_uint(w, "n", t->n);
    json_string(w, "dist", dist_label(p->plan, t));
    verify_describe_result(r, what, sizeof what);
    json_string(w, "message", what);
    if (r->status == SL_ERR_CHECK) {
        json_int(w, "run", r->run);
        json_string(w, "where", where_names[r->where]);
        json_uint(w, "index", r->mismatch.index);
        sl_type vt = r->where == VERIFY_WHERE_COUNT ? SL_I64 : r->value_type;
        verify_format_parts(vt, r->mismatch.expected, dec, hex, sizeof dec);
        json_string(w, "expected", dec);
        json_string(w, "expected_hex", hex);
        verify_format_parts(vt, r->mismatch.got, dec, hex, sizeof dec);
        json_string(w, "got", dec);
        json_string(w, "got_hex", hex);
        if (!r->exact && r->where == VERIFY_WHERE_VALUE) {
            json_double(w, "eta", r->mismatch.eta);
            json_double(w, "bound", r->mismatch.bound);
        }
    } else {
        json_string(w, "error", sl_status_str(r->status));
    }
    json_begin_array(w, "findings");
    for (const char *ln = r->findings_text; *ln;) {
        size_t len = strcspn(ln, "\n");
        char buf[VERIFY_FINDINGS_TEXT];
        snprintf(buf, sizeof buf, "%.*s", (int)len, ln);
        json_string(w, NULL, buf);
        ln += len + (ln[len] == '\n');
    }
    json_end_array(w);
    json_end_object(w);
}

static void print_json(const pool *p, FILE *out)
{
    json_writer w;
    json_init(&w, out);
    json_begin_object(&w, NULL);
    /* user data has no seed: the file is the input */
    if (p->plan->input) {
        json_null(&w, "seed");
        json_string(&w, "input", p->plan->input);
    } else {
        json_uint(&w, "seed", p->plan->seed);
        json_null(&w, "input");
    }
    json_int(&w, "repeat", p->plan->repeat);
    json_uint(&w, "memory_estimate_bytes", p->plan->peak_bytes);
    json_begin_array(&w, "results");
    for (size_t i = 0; i < p->x->ngroups; i++) {
        const group *g = &p->x->groups[i];
        line l = summarise(p, g);
        json_begin_object(&w, NULL);
        json_string(&w, "algo", g->algo->name);
        json_string(&w, "backend", verify_backend_name(g->backend));
        json_string(&w, "type", verify_type_name(g->type));
        json_string(&w, "op", verify_op_name(g->op));
        json_string(&w, "kind", kind_name(g));
        json_bool(&w, "exclusive", g->exclusive && g->algo->kind == SL_KIND_SCAN);
        json_string(&w, "status", verdict_names[l.verdict]);
        if (l.verdict == LINE_SKIPPED)
            json_string(&w, "skip_reason", sl_status_str(l.skip));
        json_uint(&w, "sizes_checked", l.sizes_checked);
        if (SL_TYPE_IS_FLOAT(g->type) && g->op == SL_ADD && l.verdict != LINE_SKIPPED &&
            !SL_KIND_IS_APP(g->algo->kind))
            json_double(&w, "max_eta", l.max_eta);
        else
            json_null(&w, "max_eta");
        if (l.verdict == LINE_FAILED) {
            char cmd[3 * PATH_MAX];
            json_failure(&w, p, g, l.fail);
            replay(p->plan, g, &p->x->tasks[l.fail], cmd, sizeof cmd);
            json_string(&w, "replay", cmd);
        } else {
            json_null(&w, "first_failure");
            json_null(&w, "replay");
        }
        if (p->plan->repeat > 1 && l.verdict != LINE_SKIPPED)
            json_bool(&w, "deterministic", l.deterministic);
        else
            json_null(&w, "deterministic");
        json_end_object(&w);
    }
    size_t count[3] = {0, 0, 0}, why[SKIP_REASONS];
    for (size_t i = 0; i < p->extra.nhuge; i++) {
        const huge_line *h = &p->extra.huge[i];
        line_verdict_t v = huge_verdict(&h->r);
        char cmd[512];
        count[v]++;
        json_begin_object(&w, NULL);
        json_string(&w, "algo", h->algo->name);
        json_string(&w, "backend", "sim");
        json_string(&w, "type", "i32");
        json_string(&w, "op", "add");
        json_string(&w, "kind", "huge");
        json_bool(&w, "exclusive", false);
        json_string(&w, "status", verdict_names[v]);
        json_uint(&w, "sizes_checked", v == LINE_OK);
        json_null(&w, "max_eta");
        json_bool(&w, "outputs_checked", h->r.outputs_checked);
        json_string(&w, "message", h->r.what);
        if (v == LINE_FAILED) {
            json_begin_object(&w, "first_failure");
            json_uint(&w, "n", VERIFY_HUGE_N);
            json_string(&w, "message", h->r.what);
            json_string(&w, "where", h->r.status == SL_ERR_SIM ? "finding" : "value");
            json_end_object(&w);
            huge_replay(p, h, cmd, sizeof cmd);
            json_string(&w, "replay", cmd);
        } else {
            json_null(&w, "first_failure");
            json_null(&w, "replay");
        }
        json_null(&w, "deterministic");
        json_end_object(&w);
    }
    json_end_array(&w);
    json_begin_array(&w, "unreached");
    for (size_t k = 0; k < p->extra.cov.count; k++)
        for (size_t l = 0; l < p->extra.cov.kernels[k].sites; l++) {
            const report_kcov_line *ln = &p->extra.cov.kernels[k].lines[l];
            if (!unreached_counts(p->plan, &p->extra.cov.kernels[k], ln))
                continue;
            json_begin_object(&w, NULL);
            json_string(&w, "algo", p->extra.cov.kernels[k].name);
            json_string(&w, "file", ln->file);
            json_int(&w, "line", ln->line);
            json_string(&w, "what", ln->what);
            json_end_object(&w);
        }
    json_end_array(&w);
    for (size_t i = 0; i < p->x->ngroups; i++)
        count[summarise(p, &p->x->groups[i]).verdict]++;
    count_skips(p, why);
    json_begin_object(&w, "summary");
    json_uint(&w, "ok", count[LINE_OK]);
    json_uint(&w, "failed", count[LINE_FAILED]);
    json_uint(&w, "skipped", count[LINE_SKIPPED]);
    json_begin_object(&w, "skip_reasons");
    for (int k = 0; k < SKIP_REASONS; k++)
        if (why[k])
            json_uint(&w, sl_status_str(skip_reasons[k]), why[k]);
    json_end_object(&w);
    json_bool(&w, "fail_on_skip", p->plan->fail_on_skip);
    json_uint(&w, "unreached", p->extra.unreached);
    json_bool(&w, "allow_unreached", p->plan->allow_unreached);
    json_end_object(&w);
    json_end_object(&w);
    json_finish(&w);
}

static void free_expansion(expansion *x)
{
    free(x->groups);
    free(x->tasks);
    free(x->sizes);
    free(x->memo);
}

static void free_pool(pool *p)
{
    free(p->results);
    report_kcov_free(p->kcov);
    free(p->extra.huge);
    if (p->extra.cov_done)
        report_kcov_result_free(&p->extra.cov);
}

/* ---- the ranks of a campaign --------------------------------------------- */

/* Coverage events: case i, then huge check h as ntasks + h. */
static const char *event_algo(uint64_t event, const void *ctx)
{
    const pool *p = ctx;
    if (event < p->x->ntasks)
        return p->x->groups[p->x->tasks[event].group].algo->name;
    event -= p->x->ntasks;
    return event < p->extra.nhuge ? p->extra.huge[event].algo->name : NULL;
}

/* Every rank's results of its cases and huge checks, and its coverage, at
 * rank 0 (a collective); every item is one record, the result as it is
 * (one binary on every rank). False at rank 0 when a rank's share is
 * missing (the message printed). */
static bool gather_results(pool *p)
{
    const size_t ntasks = p->x->ntasks, n = ntasks + p->extra.nhuge;
    share sh;
    share_init(&sh, n);
    for (size_t i = 0; i < n; i++)
        if (ranks_mine(i) && !(i < ntasks ? share_put(&sh, &p->results[i], sizeof p->results[i], "verify")
                                          : share_put(&sh, &p->extra.huge[i - ntasks].r,
                                                      sizeof p->extra.huge[i - ntasks].r, "verify")))
            break;
    bool ok = share_collect(&sh, "verify");
    for (size_t i = 0; ok && ranks_rank() == 0 && i < n; i++) {
        size_t len;
        const void *rec = share_get(&sh, i, &len);
        void *to = i < ntasks ? (void *)&p->results[i] : (void *)&p->extra.huge[i - ntasks].r;
        const size_t want = i < ntasks ? sizeof p->results[i] : sizeof p->extra.huge[i - ntasks].r;
        if (len != want) {
            fprintf(stderr, "scanlab: verify: rank %d's result of case %zu is malformed\n",
                    (int)(i % (size_t)ranks_count()), i);
            ok = false;
        } else {
            memcpy(to, rec, len);
        }
    }
    share_free(&sh);
    if (report_kcov_share(p->kcov, event_algo, p, "verify") != SL_OK)
        ok = false;
    return ok;
}

int verify_run_plan(const verify_plan *plan, FILE *out)
{
    expansion x = {0};
    if (expand(plan, &x) != SL_OK) {
        ranks_abort(1, "verify: out of memory");
        free_expansion(&x);
        fprintf(stderr, "scanlab: verify: out of memory\n");
        return CLI_EXIT_FAILED;
    }
    if (x.ngroups == 0) {
        free_expansion(&x);
        return cli_usage_error("verify: the selection has no algorithm, backend, type and "
                               "operator that go together");
    }
    pool p = {.plan = plan, .x = &x};
    /* after the probes, before the cases: only the cases and the huge
     * checks count toward the kernel sites reached */
    if (plan->defaults && (plan->backends >> SL_SIM & 1u))
        p.kcov = report_kcov_new();
    size_t mine = 0;
    for (size_t i = 0; i < x.ntasks; i++)
        mine += ranks_mine(i);
    cli_progress_start(&p.progress, "verify", "cases", mine);
    p.results = calloc(x.ntasks ? x.ntasks : 1, sizeof *p.results);
    if (!p.results) {
        ranks_abort(1, "verify: out of memory");
        free_expansion(&x);
        fprintf(stderr, "scanlab: verify: out of memory\n");
        return CLI_EXIT_FAILED;
    }
    run_all(&p, plan->jobs < 1 ? 1 : plan->jobs);
    int code = CLI_EXIT_OK;
    if (run_huge(&p) != SL_OK) {
        ranks_abort(1, "verify: out of memory");
        fprintf(stderr, "scanlab: verify: out of memory\n");
        code = CLI_EXIT_FAILED;
    }
    /* the ranks' results and coverage, at rank 0, which alone prints */
    if (ranks_many() && !gather_results(&p)) {
        code = CLI_EXIT_FAILED;
    } else if (ranks_rank() != 0) {
        free_pool(&p);
        free_expansion(&x);
        return CLI_EXIT_OK; /* rank 0's status is the campaign's (ranks_finish) */
    }
    if (code == CLI_EXIT_FAILED) {
        free_pool(&p);
        free_expansion(&x);
        return code; /* never a table of part of the cases */
    }
    if (run_extra(&p) != SL_OK) {
        fprintf(stderr, "scanlab: verify: out of memory\n");
        code = CLI_EXIT_FAILED;
    }
    if (plan->kept)
        *plan->kept = x.ntasks == 1 && p.results[0].kept;
    if (extra_failed(&p))
        code = CLI_EXIT_FAILED;
    for (size_t i = 0; i < x.ngroups; i++) {
        line l = summarise(&p, &x.groups[i]);
        if (l.verdict == LINE_FAILED || (l.verdict == LINE_SKIPPED && plan->fail_on_skip))
            code = CLI_EXIT_FAILED;
    }
    if (plan->json)
        print_json(&p, out);
    else
        print_table(&p, out);
    free_pool(&p);
    free_expansion(&x);
    return code;
}
