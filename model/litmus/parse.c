/* The herd/Dat3M PTX litmus format: "PTX NAME", quoted comments, an
 * initial state in braces, a table of threads (header row of placements,
 * then rows of instructions, cells split by '|', rows ended by ';'), and
 * a final condition (exists / ~exists / forall, with /\, \/, ~, ==, !=). */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "model/litmus/litmus.h"

typedef struct {
    const char *s, *path;
    size_t i;
    char *err;
    size_t errlen;
    lit_test *t;
} cursor;

static int line_of(const cursor *c)
{
    int line = 1;
    for (size_t k = 0; k < c->i && c->s[k]; k++)
        line += c->s[k] == '\n';
    return line;
}

static int fail(cursor *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(cursor *c, const char *fmt, ...)
{
    int n = snprintf(c->err, c->errlen, "%s:%d: ", c->path, line_of(c));
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < c->errlen)
        vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

static void skip_space(cursor *c)
{
    while (c->s[c->i] && isspace((unsigned char)c->s[c->i]))
        c->i++;
}

static char *trim_dup(const char *a, size_t n)
{
    while (n > 0 && isspace((unsigned char)*a)) {
        a++;
        n--;
    }
    while (n > 0 && isspace((unsigned char)a[n - 1]))
        n--;
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, a, n);
        d[n] = 0;
    }
    return d;
}

int lit_loc_index(lit_test *t, const char *name, bool create)
{
    for (unsigned k = 0; k < t->nlocs; k++)
        if (strcmp(t->loc[k], name) == 0)
            return (int)k;
    if (!create || t->nlocs == LIT_MAX_LOCS || strlen(name) >= sizeof t->loc[0])
        return -1;
    snprintf(t->loc[t->nlocs], sizeof t->loc[0], "%s", name);
    t->loc_init[t->nlocs] = 0;
    return (int)t->nlocs++;
}

int lit_reg_index(lit_thread *th, const char *name, bool create)
{
    for (unsigned k = 0; k < th->nregs; k++)
        if (strcmp(th->reg[k], name) == 0)
            return (int)k;
    if (!create || th->nregs == LIT_MAX_REGS || strlen(name) >= sizeof th->reg[0])
        return -1;
    snprintf(th->reg[th->nregs], sizeof th->reg[0], "%s", name);
    th->reg_init[th->nregs] = 0;
    return (int)th->nregs++;
}

static bool parse_int(const char *s, int64_t *v)
{
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 0);
    if (end == s || errno)
        return false;
    while (isspace((unsigned char)*end))
        end++;
    if (*end)
        return false;
    *v = x;
    return true;
}

/* "P3" or "3": the thread's index, or -1. */
static int thread_of(const lit_test *t, const char *s, size_t n)
{
    if (n > 0 && (s[0] == 'P' || s[0] == 'p')) {
        s++;
        n--;
    }
    if (n == 0 || n > 2)
        return -1;
    int k = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isdigit((unsigned char)s[i]))
            return -1;
        k = k * 10 + (s[i] - '0');
    }
    return k < (int)t->nthreads || t->nthreads == 0 ? k : -1;
}

/* The initial state: "x=0; P0:r1=2; ..." (a type word before a name is
 * allowed and ignored). Registers are kept until the threads are known. */
typedef struct {
    char thread[8], name[32];
    int64_t v;
} pending_init;

static int parse_init(cursor *c, lit_test *t, pending_init *pend, unsigned *npend)
{
    c->i++; /* '{' */
    const char *end = strchr(c->s + c->i, '}');
    if (!end)
        return fail(c, "the initial state has no closing '}'");
    const size_t stop = (size_t)(end - c->s);
    while (c->i < stop) {
        size_t j = c->i;
        while (j < stop && c->s[j] != ';')
            j++;
        char *item = trim_dup(c->s + c->i, j - c->i);
        if (!item)
            return fail(c, "out of memory");
        c->i = j < stop ? j + 1 : stop;
        if (!*item) {
            free(item);
            continue;
        }
        char *eq = strchr(item, '=');
        if (!eq && strstr(item, " aliases ")) {
            /* "y @ texture aliases x": a location of another proxy */
            if (!t->unsupported[0])
                snprintf(t->unsupported, sizeof t->unsupported, "proxies (a location aliased through %s)", item);
            free(item);
            continue;
        }
        if (!eq) {
            free(item);
            return fail(c, "an initial value needs 'name=value'");
        }
        *eq = 0;
        char *lhs = item, *rhs = eq + 1;
        /* drop a type word: "int x" */
        char *sp = strrchr(lhs, ' ');
        while (sp && sp[1] == 0) {
            *sp = 0;
            sp = strrchr(lhs, ' ');
        }
        if (sp)
            lhs = sp + 1;
        int64_t v;
        char *r = trim_dup(rhs, strlen(rhs));
        const bool ok = r && parse_int(r, &v);
        free(r);
        if (!ok) {
            free(item);
            return fail(c, "initial value of '%s' is not an integer (locations as values are not supported)", lhs);
        }
        if (*npend == 64) {
            free(item);
            return fail(c, "too many initial values");
        }
        pending_init *p = &pend[(*npend)++];
        char *colon = strchr(lhs, ':');
        if (colon) {
            *colon = 0;
            snprintf(p->thread, sizeof p->thread, "%s", lhs);
            lhs = colon + 1;
            while (*lhs == ' ' || *lhs == '\t') /* "P3: r0" as some suites write it */
                lhs++;
        } else {
            p->thread[0] = 0;
        }
        if (lhs[0] == '[') { /* [x] */
            lhs++;
            char *rb = strchr(lhs, ']');
            if (rb)
                *rb = 0;
        }
        snprintf(p->name, sizeof p->name, "%s", lhs);
        p->v = v;
        free(item);
    }
    c->i = stop + 1;
    return 0;
}

/* One row of the table: its cells (trimmed) up to the ';' that ends it.
 * Returns the number of cells, or -1 at the end of the table. */
static int parse_row(cursor *c, char **cells, unsigned max)
{
    skip_space(c);
    const char *line = c->s + c->i;
    const char *nl = strchr(line, '\n');
    size_t len = nl ? (size_t)(nl - line) : strlen(line);
    /* a row has a '|' or ends with ';' */
    const char *semi = NULL;
    for (size_t k = len; k > 0; k--)
        if (!isspace((unsigned char)line[k - 1])) {
            if (line[k - 1] == ';')
                semi = line + k - 1;
            break;
        }
    if (!semi)
        return -1;
    unsigned n = 0;
    const char *a = line;
    for (const char *p = line;; p++) {
        if (p == semi || *p == '|') {
            if (n == max) {
                while (n > 0)
                    free(cells[--n]);
                return -2;
            }
            cells[n++] = trim_dup(a, (size_t)(p - a));
            a = p + 1;
            if (p == semi)
                break;
        }
    }
    c->i += len;
    return (int)n;
}

static int parse_place(cursor *c, lit_thread *th, const char *cell, unsigned k)
{
    /* P0@cta 0,gpu 0 (spaces anywhere) */
    char buf[128];
    size_t n = 0;
    for (const char *p = cell; *p && n + 1 < sizeof buf; p++)
        if (!isspace((unsigned char)*p))
            buf[n++] = *p;
    buf[n] = 0;
    unsigned idx, cta, gpu;
    int used = 0;
    if (sscanf(buf, "P%u@cta%u,gpu%u%n", &idx, &cta, &gpu, &used) != 3 || buf[used] != 0)
        return fail(c, "thread header '%s' is not 'P%u@cta N,gpu M'", cell, k);
    if (idx != k)
        return fail(c, "thread header '%s' out of order (expected P%u)", cell, k);
    snprintf(th->name, sizeof th->name, "P%u", k);
    th->cta = cta;
    th->gpu = gpu;
    return 0;
}

/* ---- the condition -------------------------------------------------------- */
static int add_node(cursor *c, lit_node nd)
{
    lit_test *t = c->t;
    if (t->nnodes == LIT_MAX_NODES)
        return fail(c, "the condition is too long");
    t->node[t->nnodes] = nd;
    return (int)t->nnodes++;
}

static void note_named(lit_test *t, const lit_term *x)
{
    if (x->kind == LIT_T_CONST)
        return;
    for (unsigned k = 0; k < t->nnamed; k++)
        if (t->named[k].kind == x->kind && t->named[k].thread == x->thread && t->named[k].index == x->index)
            return;
    t->named[t->nnamed++] = *x;
}

static int parse_term(cursor *c, lit_term *x)
{
    skip_space(c);
    const char *s = c->s + c->i;
    size_t n = 0;
    char buf[64];
    size_t len = 0;
    for (;;) {
        while (s[n] && (isalnum((unsigned char)s[n]) || s[n] == '_' || s[n] == ':' || s[n] == '-' || s[n] == '[' ||
                        s[n] == ']' || s[n] == '.')) {
            if (len + 1 >= sizeof buf)
                return fail(c, "name too long in the condition");
            buf[len++] = s[n++];
        }
        /* "P3: r0" as some suites write it: the register after the blanks */
        if (len == 0 || buf[len - 1] != ':' || (s[n] != ' ' && s[n] != '\t'))
            break;
        while (s[n] == ' ' || s[n] == '\t')
            n++;
    }
    if (len == 0)
        return fail(c, "expected a register, location or number in the condition");
    buf[len] = 0;
    c->i += n;
    int64_t v;
    if (parse_int(buf, &v)) {
        *x = (lit_term){LIT_T_CONST, 0, 0, v};
        return 0;
    }
    char *colon = strchr(buf, ':');
    if (colon) {
        int k = thread_of(c->t, buf, (size_t)(colon - buf));
        if (k < 0)
            return fail(c, "no thread '%.*s' in the condition", (int)(colon - buf), buf);
        int r = lit_reg_index(&c->t->th[k], colon + 1, false);
        if (r < 0)
            r = lit_reg_index(&c->t->th[k], colon + 1, true); /* never written: its initial value */
        if (r < 0)
            return fail(c, "too many registers in thread %d", k);
        *x = (lit_term){LIT_T_REG, k, r, 0};
    } else {
        char *name = buf;
        if (name[0] == '[') {
            name++;
            char *rb = strchr(name, ']');
            if (rb)
                *rb = 0;
        }
        int l = lit_loc_index(c->t, name, false);
        if (l < 0)
            return fail(c, "unknown location '%s' in the condition", name);
        *x = (lit_term){LIT_T_LOC, 0, l, 0};
    }
    note_named(c->t, x);
    return 0;
}

static int parse_or(cursor *c);

static bool eat(cursor *c, const char *tok)
{
    skip_space(c);
    size_t n = strlen(tok);
    if (strncmp(c->s + c->i, tok, n) != 0)
        return false;
    c->i += n;
    return true;
}

static int parse_unary(cursor *c)
{
    skip_space(c);
    if (eat(c, "~")) {
        int a = parse_unary(c);
        return a < 0 ? a : add_node(c, (lit_node){.op = LIT_C_NOT, .a = a});
    }
    if (eat(c, "(")) {
        int a = parse_or(c);
        if (a < 0)
            return a;
        if (!eat(c, ")"))
            return fail(c, "expected ')' in the condition");
        return a;
    }
    if (eat(c, "true"))
        return add_node(c, (lit_node){.op = LIT_C_TRUE});
    lit_node nd = {.op = LIT_C_EQ};
    if (parse_term(c, &nd.l) < 0)
        return -1;
    if (eat(c, "==") || eat(c, "="))
        nd.op = LIT_C_EQ;
    else if (eat(c, "!="))
        nd.op = LIT_C_NE;
    else
        return fail(c, "expected '==' or '!=' in the condition");
    if (parse_term(c, &nd.r) < 0)
        return -1;
    return add_node(c, nd);
}

static int parse_and(cursor *c)
{
    int a = parse_unary(c);
    while (a >= 0 && eat(c, "/\\")) {
        int b = parse_unary(c);
        if (b < 0)
            return b;
        a = add_node(c, (lit_node){.op = LIT_C_AND, .a = a, .b = b});
    }
    return a;
}

static int parse_or(cursor *c)
{
    int a = parse_and(c);
    while (a >= 0 && eat(c, "\\/")) {
        int b = parse_and(c);
        if (b < 0)
            return b;
        a = add_node(c, (lit_node){.op = LIT_C_OR, .a = a, .b = b});
    }
    return a;
}

/* Registers and locations the instructions name, so that every location
 * has a slot (initial value 0 unless the state says). */
static void scan_names(lit_test *t)
{
    static const char *const skip[] = {"ld", "st", "atom", "red", "fence", "membar", "bar", "barrier", "bne",
                                       "beq", "goto", "add", "sub", "mov", "and", "or", "xor"};
    for (unsigned k = 0; k < t->nthreads; k++) {
        lit_thread *th = &t->th[k];
        for (unsigned i = 0; i < th->ninsns; i++) {
            const char *s = th->insn[i];
            size_t n = strlen(s);
            if (n && s[n - 1] == ':')
                continue; /* a label */
            const char *ops = s;
            while (*ops && !isspace((unsigned char)*ops))
                ops++;
            /* operands: identifiers starting with a letter */
            char word[48];
            for (const char *p = ops; *p;) {
                if (isalpha((unsigned char)*p) || *p == '_') {
                    size_t w = 0;
                    while ((isalnum((unsigned char)p[w]) || p[w] == '_') && w + 1 < sizeof word) {
                        word[w] = p[w];
                        w++;
                    }
                    word[w] = 0;
                    p += w;
                    bool sk = false;
                    for (size_t j = 0; j < sizeof skip / sizeof skip[0]; j++)
                        sk |= strcmp(word, skip[j]) == 0;
                    if (sk)
                        continue;
                    const bool is_reg = word[0] == 'r' && isdigit((unsigned char)word[1]);
                    bool is_label = false;
                    for (unsigned j = 0; j < th->ninsns; j++) {
                        const size_t wl = strlen(word);
                        is_label |= strncmp(th->insn[j], word, wl) == 0 && th->insn[j][wl] == ':';
                    }
                    if (is_label)
                        continue;
                    if (is_reg)
                        lit_reg_index(th, word, true);
                    else if (lit_loc_index(t, word, false) < 0)
                        lit_loc_index(t, word, true);
                } else {
                    p++;
                }
            }
        }
    }
}

/* Each litmus thread runs as lane 0 of a warp of its own (the warp's other
 * lanes exit at once), the threads of one CTA as the warps of one block, in
 * header order: PTX counts a barrier's arrivals by warps, so a test's
 * barrier of q threads is one of q warps (docs/memory-model.md, "What a
 * litmus thread is"). The CTAs of one GPU are consecutive blocks, each GPU
 * as many (the most any has; the others' spare blocks have no thread), and
 * GPU g is the simulator's device g in the order the header first names
 * them. */
static void place_threads(lit_test *t)
{
    unsigned gpus[LIT_MAX_THREADS], ngpus = 0, ctas[LIT_MAX_THREADS], cta_gpu[LIT_MAX_THREADS], nctas = 0;
    unsigned per[LIT_MAX_THREADS] = {0}, cta_rank[LIT_MAX_THREADS], on_gpu[LIT_MAX_THREADS] = {0};
    unsigned most = 1;
    for (unsigned k = 0; k < t->nthreads; k++) {
        unsigned g = ngpus;
        for (unsigned j = 0; j < ngpus; j++)
            if (gpus[j] == t->th[k].gpu)
                g = j;
        if (g == ngpus)
            gpus[ngpus++] = t->th[k].gpu;
        unsigned c = nctas;
        for (unsigned j = 0; j < nctas; j++)
            if (ctas[j] == t->th[k].cta && cta_gpu[j] == g)
                c = j;
        if (c == nctas) {
            ctas[nctas] = t->th[k].cta;
            cta_gpu[nctas] = g;
            cta_rank[nctas] = on_gpu[g]++;
            nctas++;
        }
        t->th[k].block = c; /* for now: the CTA's index */
        t->th[k].lane = LIT_WARP * per[c]++;
        if (per[c] > most)
            most = per[c];
    }
    unsigned bpd = 1;
    for (unsigned g = 0; g < ngpus; g++)
        if (on_gpu[g] > bpd)
            bpd = on_gpu[g];
    for (unsigned k = 0; k < t->nthreads; k++) {
        const unsigned c = t->th[k].block;
        t->th[k].block = cta_gpu[c] * bpd + cta_rank[c];
    }
    t->block_threads = LIT_WARP * most;
    t->ngpus = ngpus;
    t->blocks_per_gpu = ngpus > 1 ? bpd : 0;
    t->nblocks = ngpus > 1 ? ngpus * bpd : nctas;
}

int lit_parse(const char *text, const char *path, lit_test *t, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    snprintf(t->path, sizeof t->path, "%s", path);
    cursor c = {text, path, 0, err, errlen, t};
    skip_space(&c);
    if (strncmp(text + c.i, "PTX", 3) != 0 || !isspace((unsigned char)text[c.i + 3]))
        return fail(&c, "not a PTX litmus test (the first word is not 'PTX')");
    c.i += 3;
    while (text[c.i] == ' ' || text[c.i] == '\t')
        c.i++;
    size_t n = 0;
    while (text[c.i + n] && !isspace((unsigned char)text[c.i + n]))
        n++;
    if (n == 0)
        return fail(&c, "the test has no name");
    snprintf(t->name, sizeof t->name, "%.*s", (int)n, text + c.i);
    c.i += n;
    /* comments in double quotes, over several lines maybe */
    for (;;) {
        skip_space(&c);
        if (text[c.i] != '"')
            break;
        const char *q = strchr(text + c.i + 1, '"');
        if (!q)
            return fail(&c, "a comment has no closing '\"'");
        c.i = (size_t)(q - text) + 1;
    }
    pending_init pend[64];
    unsigned npend = 0;
    skip_space(&c);
    if (text[c.i] == '{' && parse_init(&c, t, pend, &npend) < 0)
        return -1;
    /* the header row */
    char *cells[LIT_MAX_THREADS + 1];
    int nc = parse_row(&c, cells, LIT_MAX_THREADS + 1);
    if (nc > LIT_MAX_THREADS) /* a row holds one cell more than a test may have threads: that one says so */
        for (int k = 0; k < nc; k++)
            free(cells[k]);
    if (nc == -2 || nc > LIT_MAX_THREADS)
        return fail(&c, "more than %d threads", LIT_MAX_THREADS);
    if (nc <= 0)
        return fail(&c, "expected the row of threads ('P0@cta 0,gpu 0 | ... ;')");
    t->nthreads = (unsigned)nc;
    int rc = 0;
    for (int k = 0; k < nc; k++) {
        if (rc == 0)
            rc = cells[k] ? parse_place(&c, &t->th[k], cells[k], (unsigned)k) : fail(&c, "out of memory");
        free(cells[k]);
    }
    if (rc < 0)
        return -1;
    /* rows of instructions */
    for (;;) {
        size_t at = c.i;
        int m = parse_row(&c, cells, LIT_MAX_THREADS + 1);
        if (m == -1) {
            c.i = at;
            break;
        }
        if (m != nc) {
            for (int k = 0; k < m && m > 0; k++)
                free(cells[k]);
            return fail(&c, "a row has %d cells, the header %d", m, nc);
        }
        for (int k = 0; k < m; k++) {
            lit_thread *th = &t->th[k];
            if (!cells[k] || !*cells[k]) {
                free(cells[k]);
                continue;
            }
            if (th->ninsns == LIT_MAX_INSNS) {
                for (int j = k; j < m; j++)
                    free(cells[j]);
                return fail(&c, "more than %d instructions in thread %d", LIT_MAX_INSNS, k);
            }
            th->insn[th->ninsns++] = cells[k];
        }
    }
    scan_names(t);
    for (unsigned k = 0; k < npend; k++) {
        if (pend[k].thread[0]) {
            int th = thread_of(t, pend[k].thread, strlen(pend[k].thread));
            if (th < 0)
                return fail(&c, "initial value for unknown thread '%s'", pend[k].thread);
            int r = lit_reg_index(&t->th[th], pend[k].name, true);
            if (r < 0)
                return fail(&c, "too many registers in thread %d", th);
            t->th[th].reg_init[r] = pend[k].v;
        } else {
            int l = lit_loc_index(t, pend[k].name, true);
            if (l < 0)
                return fail(&c, "too many locations");
            t->loc_init[l] = pend[k].v;
        }
    }
    place_threads(t);
    /* the final condition */
    skip_space(&c);
    if (eat(&c, "~exists"))
        t->quant = LIT_NOT_EXISTS;
    else if (eat(&c, "exists"))
        t->quant = LIT_EXISTS;
    else if (eat(&c, "forall"))
        t->quant = LIT_FORALL;
    else
        return fail(&c, "expected the final condition (exists, ~exists or forall)");
    int root = parse_or(&c);
    if (root < 0)
        return -1;
    t->root = (unsigned)root;
    skip_space(&c);
    if (text[c.i])
        return fail(&c, "unexpected text after the final condition");
    return 0;
}

char *lit_read_text(const char *path, size_t max, size_t *len, int *why)
{
    FILE *f = fopen(path, "rb");
    *len = 0;
    if (!f) {
        *why = LIT_READ_OPEN;
        return NULL;
    }
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    *why = buf ? 0 : LIT_READ_NOMEM;
    while (buf) {
        if (n + 1 == cap) {
            if (cap >= max) {
                *why = LIT_READ_BIG;
                break;
            }
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                *why = LIT_READ_NOMEM;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        const size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
    }
    if (!*why && ferror(f))
        *why = LIT_READ_IO;
    fclose(f);
    if (*why) {
        free(buf);
        return NULL;
    }
    buf[n] = 0;
    *len = n;
    return buf;
}

/* The text of the file at path, or NULL with the message in err (t cleared). */
static char *test_text(const char *path, lit_test *t, char *err, size_t errlen)
{
    size_t len;
    int why;
    char *buf = lit_read_text(path, 1u << 20, &len, &why);
    if (!buf) {
        memset(t, 0, sizeof *t);
        if (why == LIT_READ_OPEN)
            snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        else if (why == LIT_READ_BIG)
            snprintf(err, errlen, "%s: larger than 1 MiB: not a litmus test", path);
        else if (why == LIT_READ_NOMEM)
            snprintf(err, errlen, "%s: out of memory", path);
        else
            snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        return NULL;
    }
    if (memchr(buf, 0, len)) {
        free(buf);
        memset(t, 0, sizeof *t);
        snprintf(err, errlen, "%s: a NUL byte: not a litmus test", path);
        return NULL;
    }
    return buf;
}

static int parse_file(const char *path, bool progress, lit_test *t, char *err, size_t errlen)
{
    char *buf = test_text(path, t, err, errlen);
    if (!buf)
        return -1;
    const bool alloy = lit_alloy_recognise(buf);
    int rc = progress && alloy ? lit_alloy_parse(buf, path, t, err, errlen) : lit_parse(buf, path, t, err, errlen);
    if (rc < 0 && !progress && alloy)
        snprintf(err, errlen, "%s: a progress test of Sorensen et al.'s suite (THREAD0 ...), with no final "
                 "condition: scanlab deadlock --litmus reads it", path);
    free(buf);
    if (rc < 0)
        lit_free(t);
    return rc;
}

int lit_parse_file(const char *path, lit_test *t, char *err, size_t errlen)
{
    return parse_file(path, false, t, err, errlen);
}

int lit_parse_progress_file(const char *path, lit_test *t, char *err, size_t errlen)
{
    return parse_file(path, true, t, err, errlen);
}

void lit_free(lit_test *t)
{
    for (unsigned k = 0; k < LIT_MAX_THREADS; k++)
        for (unsigned i = 0; i < t->th[k].ninsns; i++) {
            free(t->th[k].insn[i]);
            t->th[k].insn[i] = NULL;
        }
}

static int64_t term_value(const lit_term *x, const int64_t *regs, const int64_t *locs)
{
    switch (x->kind) {
    case LIT_T_REG: return regs[x->thread * LIT_MAX_REGS + x->index];
    case LIT_T_LOC: return locs[x->index];
    default: return x->value;
    }
}

static bool eval_node(const lit_test *t, unsigned k, const int64_t *regs, const int64_t *locs)
{
    const lit_node *nd = &t->node[k];
    switch (nd->op) {
    case LIT_C_TRUE: return true;
    case LIT_C_EQ: return (int32_t)term_value(&nd->l, regs, locs) == (int32_t)term_value(&nd->r, regs, locs);
    case LIT_C_NE: return (int32_t)term_value(&nd->l, regs, locs) != (int32_t)term_value(&nd->r, regs, locs);
    case LIT_C_NOT: return !eval_node(t, (unsigned)nd->a, regs, locs);
    case LIT_C_AND:
        return eval_node(t, (unsigned)nd->a, regs, locs) && eval_node(t, (unsigned)nd->b, regs, locs);
    case LIT_C_OR:
        return eval_node(t, (unsigned)nd->a, regs, locs) || eval_node(t, (unsigned)nd->b, regs, locs);
    }
    return false;
}

bool lit_eval(const lit_test *t, const int64_t *regs, const int64_t *locs)
{
    return eval_node(t, t->root, regs, locs);
}
