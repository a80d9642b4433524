/* A litmus test as a PTX kernel. Each thread's column becomes a branch of
 * one entry, taken by the thread at its block and lane; herd's shorthand
 * (ld.weak r, x; st.relaxed.gpu x, 1; atom.acq_rel.gpu.add r, x, 1;
 * bne r, 1, L; goto L; ld r, 1 for a move) becomes real PTX on .global
 * u32 words. Each thread starts with an acquire load of a word of its own:
 * a point where other threads may run before its first event, which the
 * explorer needs (model/choice.h), and which orders nothing (no store
 * writes that word, so there is no release to acquire). Acquire, not
 * relaxed: a relaxed load may be bound late (load buffering), and then it
 * would be no point where others run first. */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "model/litmus/litmus.h"

typedef struct {
    char *buf;
    size_t len, cap;
    bool oom;
} sbuf;

static void put(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(sbuf *b, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->buf ? b->buf + b->len : NULL, b->buf ? b->cap - b->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->oom = true;
            return;
        }
        if (b->buf && b->len + (size_t)n < b->cap) {
            b->len += (size_t)n;
            return;
        }
        size_t cap = (b->cap ? b->cap * 2 : 4096) + (size_t)n;
        char *nb = realloc(b->buf, cap);
        if (!nb) {
            b->oom = true;
            return;
        }
        b->buf = nb;
        b->cap = cap;
    }
}

/* Splits "op a, b, c" into the mnemonic's dot-parts and operands. */
typedef struct {
    char parts[8][24];
    unsigned nparts;
    char ops[4][40];
    unsigned nops;
} insn_words;

static bool split(const char *s, insn_words *w)
{
    memset(w, 0, sizeof *w);
    const char *p = s;
    size_t n = 0;
    while (p[n] && !isspace((unsigned char)p[n]))
        n++;
    char mn[96];
    if (n >= sizeof mn)
        return false;
    memcpy(mn, p, n);
    mn[n] = 0;
    for (char *tok = strtok(mn, "."); tok; tok = strtok(NULL, ".")) {
        if (w->nparts == 8 || strlen(tok) >= sizeof w->parts[0])
            return false;
        snprintf(w->parts[w->nparts++], sizeof w->parts[0], "%s", tok);
    }
    p += n;
    while (*p) {
        while (isspace((unsigned char)*p) || *p == ',')
            p++;
        if (!*p)
            break;
        size_t m = 0;
        while (p[m] && p[m] != ',')
            m++;
        size_t e = m;
        while (e > 0 && isspace((unsigned char)p[e - 1]))
            e--;
        if (w->nops == 4 || e >= sizeof w->ops[0])
            return false;
        memcpy(w->ops[w->nops], p, e);
        w->ops[w->nops][e] = 0;
        w->nops++;
        p += m;
    }
    return true;
}

static bool has(const insn_words *w, const char *part)
{
    for (unsigned k = 1; k < w->nparts; k++)
        if (strcmp(w->parts[k], part) == 0)
            return true;
    return false;
}

static const char *scope_of(const insn_words *w)
{
    if (has(w, "cta"))
        return "cta";
    if (has(w, "sys"))
        return "sys";
    if (has(w, "gpu"))
        return "gpu";
    return NULL;
}

static const char *sem_of(const insn_words *w)
{
    static const char *const sems[] = {"weak", "volatile", "relaxed", "acquire", "release", "acq_rel", "sc"};
    for (size_t k = 0; k < sizeof sems / sizeof sems[0]; k++)
        if (has(w, sems[k]))
            return sems[k];
    return NULL;
}

typedef struct {
    lit_test *t;
    unsigned k; /* thread */
    lit_addr_mode mode;
    sbuf *b;
    char *err;
    size_t errlen;
} gen;

static int unsupported(gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int unsupported(gen *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->t->unsupported, sizeof g->t->unsupported, fmt, ap);
    va_end(ap);
    snprintf(g->err, g->errlen, "%s: %s", g->t->path, g->t->unsupported);
    return -1;
}

/* An operand as PTX: a register %v<k>, or an immediate. */
static int value(gen *g, const char *op, char *out, size_t n)
{
    lit_thread *th = &g->t->th[g->k];
    int r = lit_reg_index(th, op, false);
    if (r >= 0) {
        snprintf(out, n, "%%v%u", g->k * LIT_MAX_REGS + (unsigned)r);
        return 0;
    }
    char *end;
    long long v = strtoll(op, &end, 0);
    if (end != op && *end == 0) {
        snprintf(out, n, "%lld", v);
        return 0;
    }
    return unsupported(g, "operand '%s' of thread P%u is neither a register nor a number", op, g->k);
}

static int reg(gen *g, const char *op, char *out, size_t n)
{
    int r = lit_reg_index(&g->t->th[g->k], op, false);
    if (r < 0)
        return unsupported(g, "'%s' of thread P%u is not a register", op, g->k);
    snprintf(out, n, "%%v%u", g->k * LIT_MAX_REGS + (unsigned)r);
    return 0;
}

static int addr(gen *g, const char *op, char *out, size_t n)
{
    char name[40];
    snprintf(name, sizeof name, "%s", op);
    char *nm = name;
    if (nm[0] == '[') {
        nm++;
        char *rb = strchr(nm, ']');
        if (rb)
            *rb = 0;
    }
    int l = lit_loc_index(g->t, nm, false);
    if (l < 0)
        return unsupported(g, "'%s' of thread P%u is not a location", op, g->k);
    if (g->mode == LIT_ADDR_REGS)
        snprintf(out, n, "[%%a%d]", l);
    else
        snprintf(out, n, "[%%base+%d]", 4 * l);
    return 0;
}

/* ld / st / atom / red qualifiers: ".sem.scope" in PTX's order; weak is
 * PTX's default (no qualifier). */
static int qual(gen *g, const insn_words *w, bool rmw, char *out, size_t n)
{
    const char *sem = sem_of(w), *scope = scope_of(w);
    if (sem && strcmp(sem, "sc") == 0)
        return unsupported(g, "'%s' semantics on a memory access", sem);
    if (!sem || strcmp(sem, "weak") == 0) {
        if (rmw) { /* atom without semantics: relaxed */
            snprintf(out, n, ".relaxed.%s", scope ? scope : "gpu");
            return 0;
        }
        if (scope)
            return unsupported(g, "a weak access with a scope");
        out[0] = 0;
        return 0;
    }
    if (strcmp(sem, "volatile") == 0) {
        snprintf(out, n, ".volatile");
        return 0;
    }
    snprintf(out, n, ".%s.%s", sem, scope ? scope : "gpu");
    return 0;
}

static const char *atom_op(const insn_words *w, bool *negate)
{
    static const struct {
        const char *herd, *ptx;
    } ops[] = {{"add", "add.u32"}, {"plus", "add.u32"}, {"sub", "add.u32"},  {"minus", "add.u32"},
               {"exch", "exch.b32"}, {"cas", "cas.b32"},  {"and", "and.b32"},  {"or", "or.b32"},
               {"xor", "xor.b32"},  {"inc", "inc.u32"},  {"dec", "dec.u32"},  {"max", "max.s32"},
               {"min", "min.s32"}};
    const char *last = w->parts[w->nparts - 1];
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
        if (strcmp(last, ops[k].herd) == 0) {
            *negate = strcmp(last, "sub") == 0 || strcmp(last, "minus") == 0;
            return ops[k].ptx;
        }
    return NULL;
}

static int negated(gen *g, const char *v, char *out, size_t n)
{
    if (v[0] == '%') { /* a register: negate it into a scratch register */
        put(g->b, "    neg.s32 %%x, %s;\n", v);
        snprintf(out, n, "%%x");
    } else {
        snprintf(out, n, "%lld", -strtoll(v, NULL, 0));
    }
    (void)g;
    return 0;
}

/* ---- barriers (docs/memory-model.md, "Barriers") ----------------------------
 * Dat3M's grammar: bar.cta.sync C | bar.cta.sync C, id | bar.cta.sync C, id, q
 * (and .arrive): C names the barrier's instance (which barrier instructions
 * are one barrier), id the PTX barrier (a number or a register), q the
 * threads that must arrive. Without q, the barrier waits for every thread
 * of the CTA whose column has it (same instance, same id); with q, for q of
 * them. On the GPU each litmus thread is a warp (parse.c), so the PTX is
 * barrier.sync id, 32 n (or barrier.arrive) with n those threads. */
typedef struct {
    bool arrive, named;
    long inst, id, quorum; /* quorum -1: none */
    bool id_reg;           /* the id is a register (static: its initial value) */
    char id_op[40];        /* the id's operand as the test writes it */
} bar_spec;

/* Whether thread th's column writes register name (then its value at a
 * barrier is not its initial value). */
static bool reg_written(const lit_thread *th, const char *name)
{
    static const char *const writers[] = {"ld", "atom", "add", "sub", "and", "or", "xor", "mov"};
    for (unsigned i = 0; i < th->ninsns; i++) {
        insn_words w;
        if (!split(th->insn[i], &w) || w.nparts == 0 || w.nops == 0)
            continue;
        for (size_t k = 0; k < sizeof writers / sizeof writers[0]; k++)
            if (strcmp(w.parts[0], writers[k]) == 0 && strcmp(w.ops[0], name) == 0)
                return true;
    }
    return false;
}

/* An operand's static value: a number, or a register the column never
 * writes (its initial value). False with why set otherwise. */
static bool static_value(const lit_thread *th, unsigned k, const char *op, long *v, bool *is_reg, char *why,
                         size_t n)
{
    char *end;
    *v = strtol(op, &end, 0);
    *is_reg = false;
    if (end != op && *end == 0)
        return true;
    const int r = lit_reg_index((lit_thread *)th, op, false);
    if (r < 0) {
        snprintf(why, n, "barrier operand '%s' of P%u is neither a number nor a register", op, k);
        return false;
    }
    if (reg_written(th, op)) {
        snprintf(why, n, "a barrier operand in a register that P%u sets at run time (%s): how many threads "
                 "take part depends on its value, while a PTX barrier's thread count is fixed when it is reached",
                 k, op);
        return false;
    }
    *v = (long)th->reg_init[r];
    *is_reg = true;
    return true;
}

static int parse_bar(const lit_test *t, unsigned k, const char *insn, bar_spec *b, char *why, size_t n)
{
    insn_words w;
    memset(b, 0, sizeof *b);
    if (!split(insn, &w) || (!has(&w, "sync") && !has(&w, "arrive")) || w.nops < 1 || w.nops > 3) {
        snprintf(why, n, "barrier '%s' (bar.cta.sync or bar.cta.arrive with an instance, an id and a quorum)", insn);
        return -1;
    }
    b->arrive = has(&w, "arrive");
    char *end;
    b->inst = strtol(w.ops[0], &end, 0);
    if (*end || end == w.ops[0]) {
        snprintf(why, n, "barrier '%s': its instance is not a number", insn);
        return -1;
    }
    b->quorum = -1;
    b->named = w.nops >= 2;
    bool q_reg;
    if (b->named && !static_value(&t->th[k], k, w.ops[1], &b->id, &b->id_reg, why, n))
        return -1;
    if (b->named)
        snprintf(b->id_op, sizeof b->id_op, "%s", w.ops[1]);
    if (w.nops == 3 && !static_value(&t->th[k], k, w.ops[2], &b->quorum, &q_reg, why, n))
        return -1;
    if (!b->named)
        b->id = b->inst;
    if (b->id < 0 || b->id > 15 || (w.nops == 3 && (b->quorum < 1 || b->quorum > LIT_MAX_THREADS))) {
        snprintf(why, n, "barrier '%s': PTX has barriers 0 to 15, and a quorum counts the test's threads", insn);
        return -1;
    }
    return 0;
}

static bool same_barrier(const bar_spec *a, const bar_spec *b)
{
    return a->named == b->named && a->inst == b->inst && (!a->named || a->id == b->id);
}

/* The PTX form of thread k's barrier insn: its id and thread count, or -1
 * with why (the test is then unsupported). */
static int bar_plan(const lit_test *t, unsigned k, const char *insn, bar_spec *me, unsigned *count, char *why,
                    size_t n)
{
    if (parse_bar(t, k, insn, me, why, n) < 0)
        return -1;
    unsigned members = 0;
    long quorum = -2;
    for (unsigned j = 0; j < t->nthreads; j++) {
        if (t->th[j].block != t->th[k].block)
            continue;
        unsigned here = 0;
        for (unsigned i = 0; i < t->th[j].ninsns; i++) {
            insn_words w;
            if (!split(t->th[j].insn[i], &w) || w.nparts == 0 ||
                (strcmp(w.parts[0], "bar") != 0 && strcmp(w.parts[0], "barrier") != 0))
                continue;
            bar_spec o;
            if (parse_bar(t, j, t->th[j].insn[i], &o, why, n) < 0)
                return -1;
            if (!same_barrier(me, &o)) {
                if (o.id == me->id) {
                    snprintf(why, n, "barriers of instances %ld and %ld share PTX barrier %ld in one CTA", me->inst,
                             o.inst, me->id);
                    return -1;
                }
                continue;
            }
            if (quorum != -2 && o.quorum != quorum) {
                snprintf(why, n, "barrier instance %ld with different quorums", me->inst);
                return -1;
            }
            quorum = o.quorum;
            here++;
        }
        if (here > 1) {
            snprintf(why, n, "P%u passes barrier instance %ld twice (the test's model and PTX count its rounds "
                     "differently)", j, me->inst);
            return -1;
        }
        members += here;
    }
    if (quorum >= 0 && quorum < (long)members) {
        snprintf(why, n, "barrier instance %ld is reached by %u threads with a quorum of %ld: the PTX model of "
                 "the published tests (Dat3M) lets the threads that arrive after the quorum pass, while PTX's "
                 "barrier with a thread count completes with the first %ld and begins a new round for the "
                 "others, which waits for threads that never come; the two differ, so the test is not answered",
                 me->inst, members, quorum, quorum);
        return -1;
    }
    *count = (unsigned)(LIT_WARP * (quorum >= 0 ? (unsigned long)quorum : members));
    return 0;
}

/* Whether instruction s is an event of the explorer: a point where other
 * threads may run (a store, a strong load, an atomic, a fence, a barrier). */
static bool is_event(const char *s)
{
    insn_words w;
    if (!split(s, &w) || w.nparts == 0)
        return false;
    const char *op = w.parts[0], *sem = sem_of(&w);
    if (strcmp(op, "ld") == 0)
        return sem && strcmp(sem, "weak") != 0;
    static const char *const events[] = {"st", "atom", "red", "fence", "membar", "bar", "barrier"};
    for (size_t k = 0; k < sizeof events / sizeof events[0]; k++)
        if (strcmp(op, events[k]) == 0)
            return true;
    return false;
}

/* A loop (a branch back to a label at or before it) whose body has no
 * event would spin inside one turn: plain loads are no points where other
 * threads run, so the explorer could neither interleave it nor bound it. */
static int check_loops(lit_test *t)
{
    for (unsigned k = 0; k < t->nthreads; k++) {
        const lit_thread *th = &t->th[k];
        for (unsigned i = 0; i < th->ninsns; i++) {
            insn_words w;
            if (!split(th->insn[i], &w) || w.nparts == 0 || w.nops == 0 ||
                (strcmp(w.parts[0], "goto") != 0 && strcmp(w.parts[0], "bne") != 0 && strcmp(w.parts[0], "beq") != 0))
                continue;
            const char *label = w.ops[w.nops - 1];
            const size_t n = strlen(label);
            for (unsigned j = 0; j <= i; j++) {
                if (strncmp(th->insn[j], label, n) != 0 || strcmp(th->insn[j] + n, ":") != 0)
                    continue;
                bool event = false;
                for (unsigned m = j; m <= i; m++)
                    event |= is_event(th->insn[m]);
                if (!event) {
                    snprintf(t->unsupported, sizeof t->unsupported, "P%u's loop back to %s has no store, strong "
                             "load, atomic, fence or barrier: a weak load is no point where other threads run, so "
                             "the explorer can neither interleave nor bound the spin", k, label);
                    return -1;
                }
            }
        }
    }
    return 0;
}

/* Every barrier of the test planned before any column is written, so that
 * a test that cannot be run is unsupported as a whole. */
static int plan_barriers(lit_test *t)
{
    for (unsigned k = 0; k < t->nthreads; k++)
        for (unsigned i = 0; i < t->th[k].ninsns; i++) {
            insn_words w;
            if (!split(t->th[k].insn[i], &w) || w.nparts == 0 ||
                (strcmp(w.parts[0], "bar") != 0 && strcmp(w.parts[0], "barrier") != 0))
                continue;
            bar_spec b;
            unsigned count;
            if (bar_plan(t, k, t->th[k].insn[i], &b, &count, t->unsupported, sizeof t->unsupported) < 0)
                return -1;
        }
    return 0;
}

static int named_barrier(gen *g, const char *s)
{
    bar_spec b;
    unsigned count;
    char why[sizeof g->t->unsupported];
    if (bar_plan(g->t, g->k, s, &b, &count, why, sizeof why) < 0)
        return unsupported(g, "%s", why);
    char id[48];
    if (b.id_reg) {
        if (reg(g, b.id_op, id, sizeof id) < 0)
            return -1;
    } else {
        snprintf(id, sizeof id, "%ld", b.id);
    }
    put(g->b, "    barrier.%s %s, %u;\n", b.arrive ? "arrive" : "sync", id, count);
    return 0;
}

static int translate(gen *g, const char *s)
{
    sbuf *b = g->b;
    const size_t len = strlen(s);
    if (len && s[len - 1] == ':') {
        put(b, "L%u_%.*s:\n", g->k, (int)(len - 1), s);
        return 0;
    }
    insn_words w;
    if (!split(s, &w) || w.nparts == 0)
        return unsupported(g, "cannot read instruction '%s'", s);
    const char *op = w.parts[0];
    char a[48], v[48], v2[48], q[32];
    if (strcmp(op, "ld") == 0) {
        if (w.nops != 2 || reg(g, w.ops[0], a, sizeof a) < 0)
            return unsupported(g, "ld needs 'ld r, x'");
        if (lit_loc_index(g->t, w.ops[1], false) < 0 && w.ops[1][0] != '[') { /* ld r, 1: a move */
            if (value(g, w.ops[1], v, sizeof v) < 0)
                return -1;
            put(b, "    mov.u32 %s, %s;\n", a, v);
            return 0;
        }
        if (qual(g, &w, false, q, sizeof q) < 0 || addr(g, w.ops[1], v, sizeof v) < 0)
            return -1;
        put(b, "    ld%s.global.u32 %s, %s;\n", q, a, v);
        return 0;
    }
    if (strcmp(op, "st") == 0) {
        if (w.nops != 2 || addr(g, w.ops[0], a, sizeof a) < 0 || value(g, w.ops[1], v, sizeof v) < 0 ||
            qual(g, &w, false, q, sizeof q) < 0)
            return g->t->unsupported[0] ? -1 : unsupported(g, "st needs 'st x, v'");
        put(b, "    st%s.global.u32 %s, %s;\n", q, a, v);
        return 0;
    }
    if (strcmp(op, "atom") == 0 || strcmp(op, "red") == 0) {
        const bool red = op[0] == 'r';
        bool neg = false;
        const char *pop = atom_op(&w, &neg);
        if (!pop)
            return unsupported(g, "atomic operation '%s'", s);
        const bool cas = strncmp(pop, "cas", 3) == 0;
        const unsigned want = (red ? 2u : 3u) + (cas ? 1u : 0u);
        if (w.nops != want || (red && cas))
            return unsupported(g, "'%s' has %u operands", s, w.nops);
        const unsigned o = red ? 0 : 1;
        if ((!red && reg(g, w.ops[0], a, sizeof a) < 0) || addr(g, w.ops[o], v2, sizeof v2) < 0 ||
            qual(g, &w, true, q, sizeof q) < 0 || value(g, w.ops[o + 1], v, sizeof v) < 0)
            return -1;
        if (neg)
            negated(g, v, v, sizeof v);
        if (cas) {
            char v3[48];
            if (value(g, w.ops[o + 2], v3, sizeof v3) < 0)
                return -1;
            put(b, "    atom%s.global.%s %s, %s, %s, %s;\n", q, pop, a, v2, v, v3);
        } else if (red) {
            put(b, "    red%s.global.%s %s, %s;\n", q, pop, v2, v);
        } else {
            put(b, "    atom%s.global.%s %s, %s, %s;\n", q, pop, a, v2, v);
        }
        return 0;
    }
    if (strcmp(op, "fence") == 0) {
        const char *sem = sem_of(&w), *scope = scope_of(&w);
        if (!sem || (strcmp(sem, "sc") != 0 && strcmp(sem, "acq_rel") != 0) || !scope || w.nops)
            return unsupported(g, "fence '%s' (proxy fences are not modelled)", s);
        put(b, "    fence.%s.%s;\n", sem, scope);
        return 0;
    }
    if (strcmp(op, "membar") == 0 && w.nparts == 2 && w.nops == 0) {
        put(b, "    membar.%s;\n", w.parts[1]);
        return 0;
    }
    if (strcmp(op, "bar") == 0 || strcmp(op, "barrier") == 0) {
        if (g->mode == LIT_ADDR_BASE)
            return named_barrier(g, s);
        /* the GPU campaign's form (tools/litmus_gpu): bar.cta.sync N, every
         * thread of the CTA, stressing ones too, at one site */
        if (!has(&w, "sync") || w.nops != 1)
            return unsupported(g, "barrier '%s' (the GPU campaign runs bar.sync with one id and no count only)", s);
        char *end;
        long id = strtol(w.ops[0], &end, 0);
        if (*end || id < 0 || id > 15)
            return unsupported(g, "barrier '%s' (the GPU campaign runs bar.sync with one id and no count only)", s);
        if (g->t->barrier_id >= 0 && g->t->barrier_id != id)
            return unsupported(g, "barriers with different ids in one test (the GPU campaign runs one)");
        g->t->barrier_id = (int)id;
        put(b, "    call litmus_bar;\n");
        return 0;
    }
    if (strcmp(op, "goto") == 0 && w.nops == 1) {
        put(b, "    bra.uni L%u_%s;\n", g->k, w.ops[0]);
        return 0;
    }
    if ((strcmp(op, "bne") == 0 || strcmp(op, "beq") == 0) && w.nops == 3) {
        if (value(g, w.ops[0], a, sizeof a) < 0 || value(g, w.ops[1], v, sizeof v) < 0)
            return -1;
        if (a[0] != '%') { /* setp's first operand must be a register */
            put(b, "    mov.u32 %%x, %s;\n", a);
            snprintf(a, sizeof a, "%%x");
        }
        put(b, "    setp.%s.s32 %%p, %s, %s;\n", op[1] == 'n' ? "ne" : "eq", a, v);
        put(b, "    @%%p bra L%u_%s;\n", g->k, w.ops[2]);
        return 0;
    }
    static const char *const alu[] = {"add", "sub", "and", "or", "xor", "mov"};
    for (size_t k = 0; k < sizeof alu / sizeof alu[0]; k++)
        if (strcmp(op, alu[k]) == 0) {
            const bool mov = k == 5;
            if (w.nops != (mov ? 2u : 3u) || reg(g, w.ops[0], a, sizeof a) < 0 ||
                value(g, w.ops[1], v, sizeof v) < 0 || (!mov && value(g, w.ops[2], v2, sizeof v2) < 0))
                return g->t->unsupported[0] ? -1 : unsupported(g, "'%s'", s);
            if (mov)
                put(b, "    mov.u32 %s, %s;\n", a, v);
            else
                put(b, "    %s.%s %s, %s, %s;\n", alu[k], k < 2 ? "s32" : "b32", a, v, v2);
            return 0;
        }
    return unsupported(g, "instruction '%s' (proxies, textures and surfaces are not modelled)", s);
}

char *lit_ptx(lit_test *t, char *err, size_t errlen)
{
    sbuf b = {0};
    t->barrier_id = -1;
    if (!t->unsupported[0] && (check_loops(t) < 0 || plan_barriers(t) < 0)) {
        snprintf(err, errlen, "%s: %s", t->path, t->unsupported);
        return NULL;
    }
    put(&b, ".version 8.0\n.target sm_90\n.address_size 64\n\n");
    put(&b, ".visible .entry litmus(.param .u64 p_mem, .param .u64 p_out)\n{\n");
    put(&b, "    .reg .pred %%p, %%q;\n    .reg .b32 %%x, %%me, %%cta, %%own;\n");
    put(&b, "    .reg .b32 %%v<%u>;\n", LIT_MAX_THREADS * LIT_MAX_REGS);
    put(&b, "    .reg .b64 %%base, %%out;\n");
    put(&b, "    ld.param.u64 %%base, [p_mem];\n    ld.param.u64 %%out, [p_out];\n");
    put(&b, "    cvta.to.global.u64 %%base, %%base;\n    cvta.to.global.u64 %%out, %%out;\n");
    put(&b, "    mov.u32 %%me, %%tid.x;\n    mov.u32 %%cta, %%ctaid.x;\n");
    for (unsigned k = 0; k < t->nthreads; k++) {
        put(&b, "    setp.eq.u32 %%p, %%cta, %u;\n    setp.eq.and.u32 %%q, %%me, %u, %%p;\n", t->th[k].block,
            t->th[k].lane);
        put(&b, "    @%%q bra T%u;\n", k);
    }
    put(&b, "    ret;\n");
    for (unsigned k = 0; k < t->nthreads && !t->unsupported[0]; k++) {
        lit_thread *th = &t->th[k];
        put(&b, "T%u:\n", k);
        /* its own word: a point where others may run first */
        put(&b, "    ld.acquire.cta.global.u32 %%own, [%%base+%u];\n", 4 * (t->nlocs + k));
        for (unsigned r = 0; r < th->nregs; r++)
            put(&b, "    mov.u32 %%v%u, %lld;\n", k * LIT_MAX_REGS + r, (long long)th->reg_init[r]);
        gen g = {t, k, LIT_ADDR_BASE, &b, err, errlen};
        for (unsigned i = 0; i < th->ninsns; i++)
            if (translate(&g, th->insn[i]) < 0) {
                free(b.buf);
                return NULL;
            }
        for (unsigned r = 0; r < th->nregs; r++)
            put(&b, "    st.global.u32 [%%out+%u], %%v%u;\n", 4 * (k * LIT_MAX_REGS + r), k * LIT_MAX_REGS + r);
        put(&b, "    ret;\n");
    }
    put(&b, "}\n");
    if (t->unsupported[0] || b.oom) {
        if (b.oom)
            snprintf(err, errlen, "%s: out of memory", t->path);
        free(b.buf);
        return NULL;
    }
    return b.buf;
}

char *lit_ptx_column(lit_test *t, unsigned k, lit_addr_mode mode, char *err, size_t errlen)
{
    sbuf b = {0};
    gen g = {t, k, mode, &b, err, errlen};
    put(&b, "%s", ""); /* an empty column is an empty text, not NULL */
    for (unsigned i = 0; i < t->th[k].ninsns && !b.oom; i++)
        if (translate(&g, t->th[k].insn[i]) < 0) {
            free(b.buf);
            return NULL;
        }
    if (b.oom) {
        snprintf(err, errlen, "%s: out of memory", t->path);
        free(b.buf);
        return NULL;
    }
    return b.buf;
}
