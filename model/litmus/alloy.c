/* The progress litmus tests of Sorensen et al. (OOPSLA 2021), in the
 * format their test generator writes (the artifact's alloy_output/N/N.txt):
 *
 *   THREAD0
 *   atomic_exch_branch(0,1,0,0)
 *
 *   THREAD1
 *   atomic_store(0,1)
 *
 * Each THREADk is a workgroup of one thread; memory starts at 0; a thread
 * terminates when it runs off its end or branches to END. The instructions
 * (addr: a memory word, labels: an instruction index of the thread or END):
 *
 *   atomic_store(addr,val)                   Mem[addr] = val
 *   atomic_chk_branch(addr,val,label)        if (Mem[addr] == val) goto label
 *   atomic_exch_branch(addr,check,val,label) if (Exch(Mem[addr],val) == check) goto label
 *
 * each one atomic step. A test becomes a litmus test of scanlab's own
 * (lit_test) whose columns are the PTX the progress search runs: a strong
 * (relaxed, gpu scope) store, load, or atom.exch, then a beq on the value
 * read. The progress search lets loads see the newest store, so each
 * instruction is one sequentially consistent step, as in the paper. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/litmus/litmus.h"

/* Cells of a column an instruction takes: its label, the access, the branch. */
#define CELLS_PER_INSN 3
/* Instructions a thread may have: its cells and the END label fit a column. */
#define MAX_ALLOY_INSNS ((LIT_MAX_INSNS - 1) / CELLS_PER_INSN)

typedef struct {
    enum { OP_STORE, OP_CHK, OP_EXCH } op;
    unsigned addr;
    long long val, check;
    int target; /* an instruction index, or -1: END */
    unsigned line;
} alloy_insn;

typedef struct {
    const char *path;
    char *err;
    size_t errlen;
} ctx;

static int fail(const ctx *c, unsigned line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(const ctx *c, unsigned line, const char *fmt, ...)
{
    char msg[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(c->err, c->errlen, "%s:%u: %s", c->path, line, msg);
    return -1;
}

/* The line's text without the blanks around it, in buf. */
static void trimmed(const char *s, size_t n, char *buf, size_t size)
{
    while (n && isspace((unsigned char)*s))
        s++, n--;
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    if (n >= size)
        n = size - 1;
    memcpy(buf, s, n);
    buf[n] = 0;
}

/* "THREADk": k, or -1. */
static int thread_header(const char *s)
{
    if (strncmp(s, "THREAD", 6) != 0 || !isdigit((unsigned char)s[6]))
        return -1;
    char *end;
    errno = 0;
    const long k = strtol(s + 6, &end, 10);
    return *end || errno || k > 1000 ? -1 : (int)k;
}

bool lit_alloy_recognise(const char *text)
{
    const char *s = text;
    while (*s && isspace((unsigned char)*s))
        s++;
    char first[32];
    trimmed(s, strcspn(s, "\n"), first, sizeof first);
    return thread_header(first) >= 0;
}

/* A number operand: a non-negative integer that fits a 32-bit word. */
static bool number(const char *s, long long *v)
{
    char *end;
    errno = 0;
    *v = strtoll(s, &end, 10);
    return isdigit((unsigned char)*s) && !*end && !errno && *v <= 0x7fffffff;
}

/* name(op, op, ...) with no blanks inside: the operands in op[], their count. */
static int operands(char *s, const char *name, char **op, int max)
{
    const size_t n = strlen(name);
    const size_t len = strlen(s);
    if (strncmp(s, name, n) != 0 || s[n] != '(' || len < n + 2 || s[len - 1] != ')')
        return -1;
    s[len - 1] = 0;
    int k = 0;
    for (char *save = NULL, *tok = strtok_r(s + n + 1, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (k == max)
            return -1;
        op[k++] = tok;
    }
    return k;
}

/* One instruction line into *in: 0, or -1 with the message. */
static int instruction(const ctx *c, unsigned line, const char *text, alloy_insn *in)
{
    char buf[160], *op[5];
    size_t j = 0;
    for (const char *s = text; *s && j + 1 < sizeof buf; s++)
        if (!isspace((unsigned char)*s))
            buf[j++] = *s;
    buf[j] = 0;
    int n;
    long long addr, label = -1;
    memset(in, 0, sizeof *in);
    in->line = line;
    const char *target = NULL;
    if ((n = operands(buf, "atomic_store", op, 5)) == 2) {
        in->op = OP_STORE;
        if (!number(op[0], &addr) || !number(op[1], &in->val))
            n = -1;
    } else if ((n = operands(buf, "atomic_chk_branch", op, 5)) == 3) {
        in->op = OP_CHK;
        target = op[2];
        if (!number(op[0], &addr) || !number(op[1], &in->val))
            n = -1;
    } else if ((n = operands(buf, "atomic_exch_branch", op, 5)) == 4) {
        in->op = OP_EXCH;
        target = op[3];
        if (!number(op[0], &addr) || !number(op[1], &in->check) || !number(op[2], &in->val))
            n = -1;
    } else {
        n = -1;
    }
    if (n < 0)
        return fail(c, line, "expected atomic_store(addr,val), atomic_chk_branch(addr,val,label) or "
                    "atomic_exch_branch(addr,check,val,label), with non-negative numbers, not '%.60s'", text);
    if (addr >= LIT_MAX_LOCS)
        return fail(c, line, "address %lld: at most %d memory words", addr, LIT_MAX_LOCS);
    in->addr = (unsigned)addr;
    in->target = -1;
    if (target && strcmp(target, "END") != 0) {
        if (!number(target, &label))
            return fail(c, line, "branch label '%.20s': an instruction index or END", target);
        in->target = (int)(label > MAX_ALLOY_INSNS ? MAX_ALLOY_INSNS : label);
    }
    return 0;
}

static int add_cell(lit_thread *th, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int add_cell(lit_thread *th, const char *fmt, ...)
{
    char cell[96];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cell, sizeof cell, fmt, ap);
    va_end(ap);
    if (th->ninsns == LIT_MAX_INSNS || !(th->insn[th->ninsns] = strdup(cell)))
        return -1;
    th->ninsns++;
    return 0;
}

/* Thread k's instructions as cells of its column. */
static int columns(const ctx *c, lit_test *t, unsigned k, const alloy_insn *in, unsigned n)
{
    lit_thread *th = &t->th[k];
    snprintf(th->name, sizeof th->name, "T%u", k);
    th->cta = k;
    th->gpu = 0;
    for (unsigned i = 0; i < n; i++) {
        if (in[i].target >= (int)n)
            return fail(c, in[i].line, "branch to instruction %d: thread %u has %u (0 to %u) and END", in[i].target,
                        k, n, n - 1);
        char loc[16], to[16];
        snprintf(loc, sizeof loc, "m%u", in[i].addr);
        if (in[i].target < 0)
            snprintf(to, sizeof to, "END");
        else
            snprintf(to, sizeof to, "I%d", in[i].target);
        int rc = add_cell(th, "I%u:", i);
        if (in[i].op == OP_STORE) {
            rc = rc || add_cell(th, "st.relaxed.gpu %s, %lld", loc, in[i].val);
        } else if (in[i].op == OP_CHK) {
            rc = rc || add_cell(th, "ld.relaxed.gpu r0, %s", loc);
            rc = rc || add_cell(th, "beq r0, %lld, %s", in[i].val, to);
        } else {
            rc = rc || add_cell(th, "atom.relaxed.gpu.exch r0, %s, %lld", loc, in[i].val);
            rc = rc || add_cell(th, "beq r0, %lld, %s", in[i].check, to);
        }
        if (rc)
            return fail(c, in[i].line, "out of memory");
        if (in[i].op != OP_STORE && lit_reg_index(th, "r0", true) < 0)
            return fail(c, in[i].line, "out of registers");
    }
    if (add_cell(th, "END:"))
        return fail(c, 0, "out of memory");
    return 0;
}

int lit_alloy_parse(const char *text, const char *path, lit_test *t, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    snprintf(t->path, sizeof t->path, "%s", path);
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    snprintf(t->name, sizeof t->name, "%.*s", (int)strcspn(base, "."), base);
    const ctx c = {path, err, errlen};
    alloy_insn in[LIT_MAX_THREADS][MAX_ALLOY_INSNS];
    unsigned nin[LIT_MAX_THREADS] = {0}, max_addr = 0;
    int cur = -1;
    unsigned line = 0;
    for (const char *s = text; *s;) {
        const size_t n = strcspn(s, "\n");
        char buf[200];
        trimmed(s, n, buf, sizeof buf);
        line++;
        s += n + (s[n] == '\n');
        if (!buf[0])
            continue;
        const int k = thread_header(buf);
        if (k >= 0) {
            if (k != cur + 1)
                return fail(&c, line, "THREAD%d where THREAD%d was expected: the threads are numbered 0, 1, 2... "
                            "in order", k, cur + 1);
            if (k >= LIT_MAX_THREADS)
                return fail(&c, line, "more than %d threads", LIT_MAX_THREADS);
            cur = k;
            continue;
        }
        if (cur < 0)
            return fail(&c, line, "expected THREAD0");
        if (nin[cur] == MAX_ALLOY_INSNS)
            return fail(&c, line, "more than %d instructions in THREAD%d", MAX_ALLOY_INSNS, cur);
        if (instruction(&c, line, buf, &in[cur][nin[cur]]) < 0)
            return -1;
        if (in[cur][nin[cur]].addr > max_addr)
            max_addr = in[cur][nin[cur]].addr;
        nin[cur]++;
    }
    if (cur < 0)
        return fail(&c, line, "no THREAD0");
    /* every word up to the highest address, in order: word a is location a */
    for (unsigned a = 0; a <= max_addr; a++) {
        char loc[16];
        snprintf(loc, sizeof loc, "m%u", a);
        lit_loc_index(t, loc, true);
    }
    t->nthreads = (unsigned)cur + 1;
    for (unsigned k = 0; k < t->nthreads; k++)
        if (columns(&c, t, k, in[k], nin[k]) < 0) {
            lit_free(t);
            return -1;
        }
    t->nblocks = t->nthreads;
    t->block_threads = 1;
    for (unsigned k = 0; k < t->nthreads; k++)
        t->th[k].block = k;
    /* no final condition: the question is termination alone */
    t->quant = LIT_FORALL;
    t->node[0].op = LIT_C_TRUE;
    t->nnodes = 1;
    t->root = 0;
    t->barrier_id = -1;
    return 0;
}
