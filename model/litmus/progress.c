/* A progress litmus test through the schedule search: the test's kernel
 * (lit_ptx, a block per thread) runs under model_search_run, which
 * explores every order of the threads' turns and hands each transition
 * to on_step; the transitions, kept in memory shared with the search's
 * forked processes, become the graph of states whose fair cycles
 * (progress_cycles.c) answer each model. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "model/litmus/progress.h"
#include "model/model.h"
#include "model/ptx/run.h"
#include "model/rt.h"

/* Transitions kept (24 bytes each, reserved, committed as used). */
#define RAW_CAP ((size_t)1 << 22)

typedef struct {
    atomic_size_t n;
    atomic_int overflow, finding;
    uint64_t root;
    unsigned id_of_block[LIT_MAX_THREADS]; /* the model's id of the thread in each block */
    lit_praw raw[];
} rawbuf;

typedef struct {
    rawbuf *buf;
    ptx_module *m;
    int entry;
    lit_test *t;
    void *mem, *out;
    size_t mem_bytes, out_bytes;
    model_stats *s;
    char *err;
    size_t errlen;
} prun;

static void on_step(void *ctx, uint64_t from, uint64_t to, char what, unsigned block, const unsigned char *status,
                    unsigned nblocks)
{
    rawbuf *b = ctx;
    if (what == 'f') {
        atomic_store(&b->finding, 1);
        return;
    }
    const size_t i = atomic_fetch_add(&b->n, 1);
    if (i >= RAW_CAP) {
        atomic_store(&b->overflow, 1);
        return;
    }
    if (i == 0)
        b->root = from; /* the first transition is taken at the initial state */
    uint32_t fin = 0;
    for (unsigned k = 0; k < nblocks && k < LIT_MAX_THREADS; k++)
        if (status[k] == 2)
            fin |= 1u << b->id_of_block[k];
    const int32_t id = (int32_t)b->id_of_block[block];
    b->raw[i] = (lit_praw){from, to, what == 'r' ? id : -1 - id, fin};
}

static sl_status run_test(void *ctx)
{
    prun *p = ctx;
    uint32_t init[LIT_MAX_LOCS + LIT_MAX_THREADS] = {0};
    for (unsigned k = 0; k < p->t->nlocs; k++)
        init[k] = (uint32_t)p->t->loc_init[k];
    memcpy(p->mem, init, p->mem_bytes);
    memset(p->out, 0, p->out_bytes);
    const sl_launch cfg = {.grid = {p->t->nblocks, 1, 1}, .block = {1, 1, 1}};
    const void *args[2] = {&p->mem, &p->out};
    model_begin(p->s);
    return model_end(model_ptx_launch(p->m, p->entry, &cfg, args, p->err, p->errlen));
}

static bool strong_access(const char *insn)
{
    if (strncmp(insn, "atom", 4) == 0 || strncmp(insn, "red", 3) == 0)
        return true;
    if (strncmp(insn, "ld.", 3) != 0 && strncmp(insn, "st.", 3) != 0)
        return false;
    const char *sp = insn + strcspn(insn, " \t");
    static const char *const sem[] = {".volatile", ".relaxed", ".acquire", ".release"};
    for (size_t k = 0; k < sizeof sem / sizeof sem[0]; k++) {
        const char *at = strstr(insn, sem[k]);
        if (at && at < sp)
            return true;
    }
    return false;
}

/* Whether insn is a plain (weak) load or store of a location: not a point
 * where the search lets another thread run, and a race besides. */
static bool plain_access(const lit_test *t, const char *insn)
{
    const bool ld = strncmp(insn, "ld", 2) == 0, st = strncmp(insn, "st", 2) == 0;
    if ((!ld && !st) || (insn[2] != ' ' && insn[2] != '\t' && insn[2] != '.') || strong_access(insn))
        return false;
    if (st)
        return true;
    const char *last = strrchr(insn, ',');
    if (!last)
        return false;
    char name[64];
    snprintf(name, sizeof name, "%s", last + 1 + strspn(last + 1, " \t"));
    name[strcspn(name, " \t")] = 0;
    for (unsigned k = 0; k < t->nlocs; k++)
        if (strcmp(t->loc[k], name) == 0)
            return true;
    return false; /* ld r, 1: a move */
}

/* The label a branch goes to ("goto L", "bne a, b, L"), or NULL. */
static const char *branch_target(const char *insn, char *buf, size_t size)
{
    if (strncmp(insn, "goto", 4) != 0 && strncmp(insn, "bne", 3) != 0 && strncmp(insn, "beq", 3) != 0)
        return NULL;
    const char *last = strrchr(insn, ',');
    last = last ? last + 1 : insn + strcspn(insn, " \t");
    while (*last == ' ' || *last == '\t')
        last++;
    snprintf(buf, size, "%s", last);
    buf[strcspn(buf, " \t")] = 0;
    return buf;
}

int lit_progress_check(const lit_test *t, char *err, size_t errlen)
{
    if (t->unsupported[0]) {
        snprintf(err, errlen, "%s: %s", t->path, t->unsupported);
        return -1;
    }
    if (t->ngpus > 1) {
        snprintf(err, errlen, "%s: threads on several GPUs: the progress models are of one GPU's blocks", t->path);
        return -1;
    }
    for (unsigned a = 0; a < t->nthreads; a++)
        for (unsigned b = a + 1; b < t->nthreads; b++)
            if (t->th[a].cta == t->th[b].cta) {
                snprintf(err, errlen, "%s: threads %s and %s share cta %u: a progress test has one thread a block "
                         "(its workgroup)", t->path, t->th[a].name, t->th[b].name, t->th[a].cta);
                return -1;
            }
    for (unsigned k = 0; k < t->nthreads; k++) {
        const lit_thread *th = &t->th[k];
        for (unsigned i = 0; i < th->ninsns; i++) {
            if (plain_access(t, th->insn[i])) {
                snprintf(err, errlen, "%s: %s's '%s' is a plain access: a progress test's loads and stores are "
                         "strong (volatile, relaxed, acquire, release) or atomic, where another thread may run",
                         t->path, th->name, th->insn[i]);
                return -1;
            }
            char label[64];
            if (!branch_target(th->insn[i], label, sizeof label))
                continue;
            unsigned at = th->ninsns;
            for (unsigned j = 0; j <= i; j++) {
                const size_t n = strlen(th->insn[j]);
                if (n == strlen(label) + 1 && th->insn[j][n - 1] == ':' && strncmp(th->insn[j], label, n - 1) == 0)
                    at = j;
            }
            bool strong = at == th->ninsns; /* a branch forward: no loop */
            for (unsigned j = at; j <= i && !strong; j++)
                strong = strong_access(th->insn[j]);
            if (!strong) {
                snprintf(err, errlen, "%s: %s's loop back to '%s' has no atomic or strong (volatile, relaxed, "
                         "acquire, release) access, where another thread could run: the search cannot take it",
                         t->path, th->name, label);
                return -1;
            }
        }
    }
    return 0;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The model's id of each block's thread: the rank of its cta among the
 * test's (workgroup ids order hsa and lobe). */
static void thread_ids(const lit_test *t, unsigned *id_of_block)
{
    for (unsigned k = 0; k < t->nthreads; k++) {
        unsigned rank = 0;
        for (unsigned j = 0; j < t->nthreads; j++)
            rank += t->th[j].cta < t->th[k].cta;
        id_of_block[t->th[k].block] = rank;
    }
}

static int analyse(rawbuf *b, unsigned nthreads, lit_presult *r, char *err, size_t errlen, const char *path)
{
    lit_pgraph g;
    if (lit_pgraph_build(&g, nthreads, b->root, b->raw, r->edges) < 0) {
        snprintf(err, errlen, "%s: out of memory for the graph of states", path);
        return -1;
    }
    for (int m = 0; m < LIT_PM_COUNT; m++)
        for (int strong = 0; strong < 2; strong++) {
            const int nt = lit_pgraph_nonterm(&g, (lit_pmodel)m, strong, &r->v[m][strong].lasso);
            if (nt < 0) {
                lit_pgraph_free(&g);
                snprintf(err, errlen, "%s: out of memory for the graph of states", path);
                return -1;
            }
            r->v[m][strong].terminates = nt == 0;
        }
    lit_pgraph_free(&g);
    return 0;
}

int lit_progress_run(lit_test *t, const lit_popts *o, lit_presult *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    if (errlen)
        err[0] = 0;
    const double t0 = now();
    if (lit_progress_check(t, err, errlen) < 0)
        return -1;
    ptx_module *m = lit_module(t, err, errlen);
    if (!m)
        return -1;
    const size_t bytes = sizeof(rawbuf) + RAW_CAP * sizeof(lit_praw);
    rawbuf *b = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    prun p = {.buf = b == MAP_FAILED ? NULL : b, .m = m, .t = t, .err = err, .errlen = errlen};
    p.entry = model_ptx_entry(m, "litmus", err, errlen);
    p.mem_bytes = 4 * (t->nlocs + t->nthreads);
    p.out_bytes = 4 * LIT_MAX_THREADS * LIT_MAX_REGS;
    if (p.entry < 0 || !p.buf || model_dev_alloc(&p.mem, p.mem_bytes) != SL_OK ||
        model_dev_alloc(&p.out, p.out_bytes) != SL_OK) {
        if (p.entry >= 0)
            snprintf(err, errlen, "%s: out of memory", t->path);
        if (p.buf)
            munmap(b, bytes);
        model_dev_free(p.mem);
        model_ptx_unload(m);
        return -1;
    }
    thread_ids(t, b->id_of_block);
    model_stats s;
    model_stats_init(&s);
    s.cfg.quiet = true;
    p.s = &s;
    model_search_cfg cfg = {.progress = MODEL_PROGRESS_FAIR, .exhaustive = true, .max_states = o->max_states,
                            .fork_per_choice = o->fork_per_choice, .deadline = now() + o->budget_s,
                            .on_step = on_step, .step_ctx = b, .thread_state = !o->ignore_registers};
    model_search_result out;
    const sl_status st = model_search_run(&cfg, run_test, &p, &s, &out);
    model_stats_free(&s);
    r->states = out.states;
    r->edges = atomic_load(&b->n);
    int rc = 0;
    if (st != SL_OK && out.verdict != MODEL_VERDICT_INCOMPLETE) {
        if (!err[0]) /* else the launch's own message */
            snprintf(err, errlen, "%s: the search could not run the test's kernel (status %d)", t->path, (int)st);
        rc = -1;
    } else if (atomic_load(&b->finding) || out.verdict == MODEL_VERDICT_FINDING) {
        snprintf(r->why, sizeof r->why, "a finding stopped the kernel: %.360s",
                 out.finding[0] ? out.finding : "(see scanlab simulate)");
    } else if (out.verdict == MODEL_VERDICT_INCOMPLETE || atomic_load(&b->overflow)) {
        snprintf(r->why, sizeof r->why, "the search was cut: %s",
                 out.out_of_time ? "out of time" : "more states than the limit");
    } else if (r->edges == 0) {
        snprintf(r->why, sizeof r->why, "the search took no step");
    } else {
        rc = analyse(b, t->nthreads, r, err, errlen, t->path);
        r->answered = rc == 0;
    }
    munmap(b, bytes);
    model_dev_free(p.mem);
    model_dev_free(p.out);
    model_ptx_unload(m);
    r->seconds = now() - t0;
    return rc;
}
