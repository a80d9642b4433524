/* The PTX parser: nvcc's PTX text into the decoded module of ptx.h.
 *
 * One pass over the tokens. Registers become slots of the function's flat
 * register file, labels instruction indices (forward references resolved
 * at the function's end), calls function indices (resolved at the
 * module's end), variables symbols, immediates the bits of their operand's
 * type. An opcode or modifier the interpreter does not know is kept as an
 * unsupported instruction, so that a module is refused only for what a
 * launch actually reaches. Errors unwind with longjmp: everything
 * allocated hangs off the module or the parser, and both are freed. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/ptx/lex.h"
#include "model/ptx/ptx.h"

/* ---- growing arrays and a name table ------------------------------------------- */
static void *grow_array(void *p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return p;
    size_t n = *cap ? *cap : 8;
    while (n < need)
        n *= 2;
    void *q = realloc(p, n * elem);
    if (q)
        *cap = n;
    return q;
}

typedef struct {
    char *key; /* owned */
    int value;
} nslot;

typedef struct {
    nslot *slot;
    size_t cap, used;
} ntable;

static uint64_t hash_name(const char *s, size_t n)
{
    uint64_t h = UINT64_C(1469598103934665603);
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * UINT64_C(1099511628211);
    return h;
}

static int nt_get(const ntable *t, const char *s, size_t n)
{
    if (!t->cap)
        return -1;
    for (size_t i = hash_name(s, n) & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
        const nslot *e = &t->slot[i];
        if (!e->key)
            return -1;
        if (strlen(e->key) == n && memcmp(e->key, s, n) == 0)
            return e->value;
    }
}

static bool nt_put(ntable *t, const char *s, size_t n, int value)
{
    if ((t->used + 1) * 2 > t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 64;
        nslot *ns = calloc(cap, sizeof *ns);
        if (!ns)
            return false;
        for (size_t i = 0; i < t->cap; i++)
            if (t->slot[i].key)
                for (size_t j = hash_name(t->slot[i].key, strlen(t->slot[i].key)) & (cap - 1);; j = (j + 1) & (cap - 1))
                    if (!ns[j].key) {
                        ns[j] = t->slot[i];
                        break;
                    }
        free(t->slot);
        t->slot = ns;
        t->cap = cap;
    }
    for (size_t i = hash_name(s, n) & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
        nslot *e = &t->slot[i];
        if (!e->key) {
            e->key = strndup(s, n);
            if (!e->key)
                return false;
            e->value = value;
            t->used++;
            return true;
        }
        if (strlen(e->key) == n && memcmp(e->key, s, n) == 0) {
            e->value = value;
            return true;
        }
    }
}

static void nt_free(ntable *t)
{
    for (size_t i = 0; i < t->cap; i++)
        free(t->slot[i].key);
    free(t->slot);
    memset(t, 0, sizeof *t);
}

/* ---- the parser's state ---------------------------------------------------------- */
/* A reference resolved later: a label in this function, or a callee. */
typedef struct {
    uint32_t func, insn;
    char *name;
    uint32_t line;
} pending;

/* A register range %r<28>: names prefix0..prefix27 from slot base. */
typedef struct {
    char *prefix;
    uint32_t count, base;
} rrange;

/* A symbol visible in the function body, and the brace depth it lives at. */
typedef struct {
    int32_t sym;
    int depth;
} scoped;

/* A source location of a .loc, and the location it was inlined at. */
typedef struct {
    uint32_t file, line, col;
    int32_t parent;
} locnode;

/* A register declared in a nested block (inline assembly's
 * "{ .reg .s32 r0; ... }"): visible until the block's end. */
typedef struct {
    char *name;
    int32_t slot;
    int depth;
} scoped_reg;

typedef struct {
    ptx_lexer lx;
    ptx_token tok; /* the current token */
    const char *path;
    char *err;
    size_t errlen;
    jmp_buf fail;
    ptx_module *m;
    size_t cap_funcs, cap_syms, cap_files;
    ntable funcs_by_name, module_syms;
    /* the function being parsed */
    int32_t fi;
    size_t cap_insns, cap_regs;
    ntable regs, labels;
    rrange *ranges;
    size_t nranges, cap_ranges;
    scoped *scope;
    size_t nscope, cap_scope;
    scoped_reg *sregs;
    size_t nsregs, cap_sregs;
    int depth;
    uint64_t param_top; /* the body's .param variables: next free offset */
    pending *labrefs;
    size_t nlabrefs, cap_labrefs;
    pending *calls;
    size_t ncalls, cap_calls;
    /* source locations: every .loc is a node whose parent is the call it
     * was inlined at; chain holds the current one's ancestors, outermost
     * first, and each instruction the node it follows (resolved to a line
     * once the .file directives at the module's end are known) */
    locnode *locs;
    size_t nlocs, cap_locs;
    int32_t *chain;
    size_t nchain, cap_chain;
    int32_t loc_cur; /* -1: no .loc yet in this function */
    bool seen_version;
} parser;

static void fail(parser *p, uint32_t line, const char *fmt, ...) __attribute__((format(printf, 3, 4), noreturn));
static void fail(parser *p, uint32_t line, const char *fmt, ...)
{
    char what[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (p->err && p->errlen)
        snprintf(p->err, p->errlen, "%s:%u: error: %s", p->path, line, what);
    longjmp(p->fail, 1);
}

static void oom(parser *p) { fail(p, p->tok.line, "out of memory"); }

static void *grow(parser *p, void *arr, size_t *cap, size_t need, size_t elem)
{
    void *q = grow_array(arr, cap, need, elem);
    if (!q)
        oom(p);
    return q;
}

static char *dup_tok(parser *p, const ptx_token *t)
{
    char *s = strndup(t->s, t->len);
    if (!s)
        oom(p);
    return s;
}

/* ---- tokens ------------------------------------------------------------------------ */
static void next(parser *p)
{
    p->tok = ptx_lex_next(&p->lx);
    if (p->tok.kind == PTX_TOK_ERROR)
        fail(p, p->tok.line, "%s", p->lx.msg ? p->lx.msg : "unreadable text");
}

static bool is_punct(const parser *p, char c) { return ptx_tok_punct(&p->tok, c); }

static void expect_punct(parser *p, char c)
{
    if (!is_punct(p, c))
        fail(p, p->tok.line, "expected '%c' before '%.*s'", c, (int)(p->tok.len > 40 ? 40 : p->tok.len),
             p->tok.kind == PTX_TOK_EOF ? "end of file" : p->tok.s);
    next(p);
}

static bool tok_is(const parser *p, const char *s) { return ptx_tok_is(&p->tok, s); }

/* Skips to the ';' that ends the statement (and past it). */
static void skip_statement(parser *p)
{
    while (!is_punct(p, ';')) {
        if (p->tok.kind == PTX_TOK_EOF)
            fail(p, p->tok.line, "unexpected end of file");
        next(p);
    }
    next(p);
}

/* ---- numbers ----------------------------------------------------------------------- */
enum { LIT_INT, LIT_F32BITS, LIT_F64BITS, LIT_FDEC };

typedef struct {
    int kind;
    uint64_t bits; /* LIT_INT: two's complement; LIT_F32BITS/F64BITS: the bits */
    double d;      /* LIT_FDEC */
} literal;

static bool digits_ok(const char *s, size_t n, int base)
{
    if (n == 0)
        return false;
    for (size_t i = 0; i < n; i++) {
        int c = s[i], v;
        if (c >= '0' && c <= '9')
            v = c - '0';
        else if (c >= 'a' && c <= 'f')
            v = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            v = c - 'A' + 10;
        else
            return false;
        if (v >= base)
            return false;
    }
    return true;
}

static uint64_t digits_value(const char *s, size_t n, int base, bool *overflow)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        int c = s[i];
        int d = c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
        if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
            *overflow = true;
        v = v * (uint64_t)base + (uint64_t)d;
    }
    return v;
}

/* A number token (negated when neg), or an error. */
static literal number(parser *p, const ptx_token *t, bool neg)
{
    literal l = {LIT_INT, 0, 0};
    const char *s = t->s;
    size_t n = t->len;
    bool overflow = false;
    if (n >= 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F') && n == 10 && digits_ok(s + 2, 8, 16)) {
        l.kind = LIT_F32BITS;
        l.bits = digits_value(s + 2, 8, 16, &overflow) ^ (neg ? UINT64_C(0x80000000) : 0);
        return l;
    }
    if (n >= 2 && s[0] == '0' && (s[1] == 'd' || s[1] == 'D') && n == 18 && digits_ok(s + 2, 16, 16)) {
        l.kind = LIT_F64BITS;
        l.bits = digits_value(s + 2, 16, 16, &overflow) ^ (neg ? UINT64_C(0x8000000000000000) : 0);
        return l;
    }
    if (memchr(s, '.', n) || (!(n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) &&
                              (memchr(s, 'e', n) || memchr(s, 'E', n)))) {
        char buf[128];
        if (n >= sizeof buf)
            fail(p, t->line, "malformed number '%.40s'", s);
        memcpy(buf, s, n);
        buf[n] = '\0';
        char *end;
        double d = strtod(buf, &end);
        if (*end)
            fail(p, t->line, "malformed number '%s'", buf);
        l.kind = LIT_FDEC;
        l.d = neg ? -d : d;
        return l;
    }
    if (n > 0 && (s[n - 1] == 'U' || s[n - 1] == 'u'))
        n--;
    int base = 10;
    size_t off = 0;
    if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        base = 16, off = 2;
    else if (n >= 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B'))
        base = 2, off = 2;
    else if (n >= 2 && s[0] == '0')
        base = 8, off = 1;
    if (!digits_ok(s + off, n - off, base))
        fail(p, t->line, "malformed number '%.*s'", (int)(t->len > 40 ? 40 : t->len), t->s);
    l.bits = digits_value(s + off, n - off, base, &overflow);
    if (overflow)
        fail(p, t->line, "number '%.*s' does not fit 64 bits", (int)(t->len > 40 ? 40 : t->len), t->s);
    if (neg)
        l.bits = (uint64_t)0 - l.bits;
    return l;
}

static uint32_t number_u32(parser *p)
{
    if (p->tok.kind != PTX_TOK_NUMBER)
        fail(p, p->tok.line, "expected a number");
    literal l = number(p, &p->tok, false);
    if (l.kind != LIT_INT || l.bits > UINT32_MAX)
        fail(p, p->tok.line, "expected a 32-bit integer");
    next(p);
    return (uint32_t)l.bits;
}

static uint16_t f32_to_f16(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    const uint32_t sign = (x >> 16) & 0x8000u;
    const uint32_t exp = (x >> 23) & 0xffu, man = x & 0x7fffffu;
    if (exp == 0xff)
        return (uint16_t)(sign | 0x7c00u | (man ? 0x200u : 0));
    int e = (int)exp - 127 + 15;
    if (e >= 31)
        return (uint16_t)(sign | 0x7c00u);
    if (e <= 0) {
        if (e < -10)
            return (uint16_t)sign;
        uint32_t m = man | 0x800000u;
        const unsigned shift = (unsigned)(14 - e);
        uint32_t h = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (h & 1)))
            h++;
        return (uint16_t)(sign | h);
    }
    uint32_t h = (uint32_t)e << 10 | man >> 13, rem = man & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1)))
        h++; /* may carry into the exponent: correct, up to infinity */
    return (uint16_t)(sign | h);
}

static uint16_t f32_to_bf16(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((x >> 16) | 0x40u);
    x += 0x7fffu + ((x >> 16) & 1);
    return (uint16_t)(x >> 16);
}

static uint64_t float_bits(double d, ptx_type t)
{
    switch (t) {
    case PTX_T_F64: {
        uint64_t b;
        memcpy(&b, &d, 8);
        return b;
    }
    case PTX_T_F16: return f32_to_f16((float)d);
    case PTX_T_BF16: return f32_to_bf16((float)d);
    default: {
        float f = (float)d;
        uint32_t b;
        memcpy(&b, &f, 4);
        return b;
    }
    }
}

static double bits_to_double(const literal *l)
{
    if (l->kind == LIT_F32BITS) {
        uint32_t b = (uint32_t)l->bits;
        float f;
        memcpy(&f, &b, 4);
        return f;
    }
    if (l->kind == LIT_F64BITS) {
        double d;
        memcpy(&d, &l->bits, 8);
        return d;
    }
    return l->d;
}

/* The literal as the bits of type t. */
static uint64_t literal_bits(parser *p, const literal *l, ptx_type t, uint32_t line)
{
    const unsigned bytes = ptx_type_bytes(t);
    const uint64_t mask = bytes >= 8 || bytes == 0 ? ~UINT64_C(0) : (UINT64_C(1) << (8 * bytes)) - 1;
    if (t == PTX_T_PRED)
        return l->kind == LIT_INT ? l->bits != 0 : bits_to_double(l) != 0;
    if (ptx_type_float(t) && t != PTX_T_F16X2 && t != PTX_T_BF16X2) {
        if (l->kind == LIT_INT)
            return float_bits((double)(int64_t)l->bits, t);
        if (l->kind == LIT_F32BITS && t == PTX_T_F32)
            return l->bits;
        if (l->kind == LIT_F64BITS && t == PTX_T_F64)
            return l->bits;
        return float_bits(bits_to_double(l), t);
    }
    if (l->kind == LIT_FDEC)
        fail(p, line, "a floating-point literal for an integer operand");
    return l->bits & mask;
}

/* ---- symbols -------------------------------------------------------------------------- */
static int32_t new_sym(parser *p, const ptx_token *name)
{
    ptx_module *m = p->m;
    m->syms = grow(p, m->syms, &p->cap_syms, m->nsyms + 1, sizeof *m->syms);
    ptx_sym *s = &m->syms[m->nsyms];
    memset(s, 0, sizeof *s);
    s->name = dup_tok(p, name);
    s->func = -1;
    s->ptx_line = name->line;
    return (int32_t)m->nsyms++;
}

/* A name visible here: the body's scopes innermost first, then the module. */
static int32_t find_sym(const parser *p, const char *s, size_t n)
{
    for (size_t i = p->nscope; i-- > 0;) {
        const ptx_sym *y = &p->m->syms[p->scope[i].sym];
        if (strlen(y->name) == n && memcmp(y->name, s, n) == 0)
            return p->scope[i].sym;
    }
    return nt_get(&p->module_syms, s, n);
}

static void push_scope(parser *p, int32_t sym)
{
    p->scope = grow(p, p->scope, &p->cap_scope, p->nscope + 1, sizeof *p->scope);
    p->scope[p->nscope++] = (scoped){sym, p->depth};
}

static const struct {
    const char *name;
    ptx_type t;
} type_names[] = {
    {".pred", PTX_T_PRED}, {".b8", PTX_T_B8},     {".b16", PTX_T_B16},     {".b32", PTX_T_B32},
    {".b64", PTX_T_B64},   {".b128", PTX_T_B128}, {".u8", PTX_T_U8},       {".u16", PTX_T_U16},
    {".u32", PTX_T_U32},   {".u64", PTX_T_U64},   {".s8", PTX_T_S8},       {".s16", PTX_T_S16},
    {".s32", PTX_T_S32},   {".s64", PTX_T_S64},   {".f16", PTX_T_F16},     {".f16x2", PTX_T_F16X2},
    {".bf16", PTX_T_BF16}, {".bf16x2", PTX_T_BF16X2}, {".f32", PTX_T_F32}, {".f64", PTX_T_F64},
};

static ptx_type type_of(const char *s, size_t n)
{
    for (size_t i = 0; i < sizeof type_names / sizeof type_names[0]; i++)
        if (strlen(type_names[i].name) == n && memcmp(type_names[i].name, s, n) == 0)
            return type_names[i].t;
    return PTX_T_NONE;
}

/* The part of a variable declaration after its space:
 * [.align N] [.vN] .type name[[N]...] [= init]. */
typedef struct {
    uint32_t align, vec;
    ptx_type type;
    ptx_token name;
    uint64_t size;
    bool unsized;
} vardecl;

static void decl_attrs(parser *p, vardecl *v)
{
    v->align = 0;
    v->vec = 1;
    v->type = PTX_T_NONE;
    for (;;) {
        if (p->tok.kind != PTX_TOK_DIRECTIVE)
            break;
        if (tok_is(p, ".align")) {
            next(p);
            v->align = number_u32(p);
            if (v->align == 0 || (v->align & (v->align - 1)))
                fail(p, p->tok.line, "alignment %u is not a power of two", v->align);
        } else if (tok_is(p, ".v2") || tok_is(p, ".v4") || tok_is(p, ".v8")) {
            v->vec = (uint32_t)(p->tok.s[2] - '0');
            next(p);
        } else if (tok_is(p, ".ptr") || tok_is(p, ".global") || tok_is(p, ".const") || tok_is(p, ".shared") ||
                   tok_is(p, ".local")) {
            next(p); /* a kernel parameter's pointer attributes */
        } else if (tok_is(p, ".texref") || tok_is(p, ".samplerref") || tok_is(p, ".surfref")) {
            fail(p, p->tok.line, "textures, samplers and surfaces are not supported");
        } else {
            ptx_type t = type_of(p->tok.s, p->tok.len);
            if (t == PTX_T_NONE)
                fail(p, p->tok.line, "unknown directive '%.*s'", (int)(p->tok.len > 40 ? 40 : p->tok.len),
                     p->tok.s);
            v->type = t;
            next(p);
            break;
        }
    }
    if (v->type == PTX_T_NONE)
        fail(p, p->tok.line, "a declaration without a type");
    if (p->tok.kind != PTX_TOK_IDENT)
        fail(p, p->tok.line, "expected a name in the declaration");
    v->name = p->tok;
    next(p);
    const unsigned eb = ptx_type_bytes(v->type) ? ptx_type_bytes(v->type) : 1;
    v->size = (uint64_t)eb * v->vec;
    v->unsized = false;
    while (is_punct(p, '[')) {
        next(p);
        if (is_punct(p, ']')) {
            v->unsized = true;
            v->size = 0;
        } else {
            if (p->tok.kind != PTX_TOK_NUMBER)
                fail(p, p->tok.line, "expected an array size");
            literal l = number(p, &p->tok, false);
            if (l.kind != LIT_INT || l.bits > (UINT64_C(1) << 40))
                fail(p, p->tok.line, "array size out of range");
            next(p);
            v->size *= l.bits;
            if (v->size > (UINT64_C(1) << 40))
                fail(p, p->tok.line, "array too large");
        }
        expect_punct(p, ']');
    }
    if (!v->align)
        v->align = eb * v->vec;
}

/* An initialiser's elements, each of the variable's element type; nest:
 * the braces around it (bounded: the recursion must not run out of stack
 * on text of nothing but '{'). */
static void initialiser(parser *p, ptx_sym *s, ptx_type t, uint64_t *pos, unsigned nest)
{
    const unsigned eb = ptx_type_bytes(t) ? ptx_type_bytes(t) : 1;
    if (is_punct(p, '{')) {
        if (nest >= 32)
            fail(p, p->tok.line, "an initialiser of '%s' nested too deeply", s->name);
        next(p);
        for (;;) {
            initialiser(p, s, t, pos, nest + 1);
            if (is_punct(p, ','))
                next(p);
            else
                break;
        }
        expect_punct(p, '}');
        return;
    }
    bool neg = false;
    if (is_punct(p, '-')) {
        neg = true;
        next(p);
    }
    if (p->tok.kind != PTX_TOK_NUMBER)
        fail(p, p->tok.line, "an initialiser of '%s' that is not a number (addresses of variables are not supported)",
             s->name);
    literal l = number(p, &p->tok, neg);
    const uint64_t v = literal_bits(p, &l, t, p->tok.line);
    next(p);
    if (*pos + eb > s->size)
        fail(p, p->tok.line, "more initialisers than '%s' holds", s->name);
    memcpy(s->init + *pos, &v, eb < 8 ? eb : 8);
    *pos += eb;
}

/* A variable of space at module scope or in a body (func >= 0). */
static int32_t variable(parser *p, uint8_t space, bool external, int32_t func)
{
    vardecl v;
    decl_attrs(p, &v);
    const int32_t si = new_sym(p, &v.name);
    ptx_sym *s = &p->m->syms[si];
    s->space = space;
    s->external = external || v.unsized;
    s->func = func;
    s->size = v.size;
    s->align = v.align;
    if (is_punct(p, '=')) {
        next(p);
        s->init = calloc(s->size ? s->size : 1, 1);
        if (!s->init)
            oom(p);
        uint64_t pos = 0;
        initialiser(p, &p->m->syms[si], v.type, &pos, 0);
    }
    expect_punct(p, ';');
    return si;
}

/* ---- functions ------------------------------------------------------------------------ */
static ptx_func *cur(parser *p) { return &p->m->funcs[p->fi]; }

static uint64_t align_to(uint64_t v, uint64_t a) { return a ? (v + a - 1) / a * a : v; }

/* A parameter list "(.param .type name, ...)" into the function's
 * params (or rets), laid out from the function's parameter area's top. */
static void param_list(parser *p, ptx_func *f, bool rets, int32_t fi)
{
    expect_punct(p, '(');
    /* the list hangs off the function while it grows: an error midway
     * frees it with the module */
    int32_t **list = rets ? &f->rets : &f->params;
    unsigned *count = rets ? &f->nrets : &f->nparams;
    free(*list);
    *list = NULL;
    *count = 0;
    size_t cap = 0;
    while (!is_punct(p, ')')) {
        if (!tok_is(p, ".param") && !tok_is(p, ".reg"))
            fail(p, p->tok.line, "expected .param in a parameter list");
        const bool reg = tok_is(p, ".reg");
        next(p);
        vardecl v;
        decl_attrs(p, &v);
        if (reg)
            fail(p, v.name.line, ".reg parameters are not supported");
        const int32_t si = new_sym(p, &v.name);
        ptx_sym *s = &p->m->syms[si];
        f = &p->m->funcs[fi]; /* new_sym may move nothing of funcs, but keep it plain */
        s->space = PTX_SPACE_PARAM;
        s->func = fi;
        s->size = v.size;
        s->align = v.align;
        s->is_func_param = true;
        s->is_return = rets;
        s->offset = align_to(f->param_bytes, v.align);
        f->param_bytes = s->offset + s->size;
        *list = grow(p, *list, &cap, (size_t)*count + 1, sizeof **list);
        (*list)[(*count)++] = si;
        if (is_punct(p, ','))
            next(p);
        else if (!is_punct(p, ')'))
            fail(p, p->tok.line, "expected ',' or ')' in a parameter list");
    }
    next(p);
}

/* The function named name: the one declared before, or a new one. */
static int32_t function_named(parser *p, const ptx_token *name, bool entry)
{
    int fi = nt_get(&p->funcs_by_name, name->s, name->len);
    if (fi >= 0) {
        if (p->m->funcs[fi].defined)
            fail(p, name->line, "'%.*s' is defined twice", (int)(name->len > 60 ? 60 : name->len), name->s);
        /* a prototype before: its parameters are declared again */
        ptx_func *f = &p->m->funcs[fi];
        f->param_bytes = 0;
        return fi;
    }
    ptx_module *m = p->m;
    m->funcs = grow(p, m->funcs, &p->cap_funcs, m->nfuncs + 1, sizeof *m->funcs);
    ptx_func *f = &m->funcs[m->nfuncs];
    memset(f, 0, sizeof *f);
    f->name = dup_tok(p, name);
    f->entry = entry;
    f->ptx_line = name->line;
    if (!nt_put(&p->funcs_by_name, name->s, name->len, (int)m->nfuncs))
        oom(p);
    return (int32_t)m->nfuncs++;
}

static void dims(parser *p, uint32_t out[3])
{
    next(p);
    for (int k = 0; k < 3; k++) {
        out[k] = number_u32(p);
        if (!is_punct(p, ','))
            break;
        next(p);
    }
}

/* ---- registers ------------------------------------------------------------------------ */
static uint32_t add_regs(parser *p, uint32_t count, ptx_type t)
{
    ptx_func *f = cur(p);
    const uint64_t n = (uint64_t)f->nregs + count;
    if (n > (UINT32_C(1) << 24))
        fail(p, p->tok.line, "too many registers");
    f->reg_names = grow(p, f->reg_names, &p->cap_regs, (size_t)n, sizeof *f->reg_names);
    uint8_t *types = realloc(f->reg_type, p->cap_regs);
    if (!types)
        oom(p);
    f->reg_type = types;
    const uint32_t base = f->nregs;
    for (uint32_t i = 0; i < count; i++) {
        f->reg_names[base + i] = NULL;
        f->reg_type[base + i] = (uint8_t)t;
    }
    f->nregs = (uint32_t)n;
    return base;
}

/* .reg .type %a, %b<N>, ...; */
static void reg_decl(parser *p)
{
    next(p);
    uint32_t vec = 1;
    if (tok_is(p, ".v2") || tok_is(p, ".v4")) {
        vec = (uint32_t)(p->tok.s[2] - '0');
        next(p);
    }
    (void)vec;
    const ptx_type t = p->tok.kind == PTX_TOK_DIRECTIVE ? type_of(p->tok.s, p->tok.len) : PTX_T_NONE;
    if (t == PTX_T_NONE)
        fail(p, p->tok.line, "expected a register type");
    next(p);
    for (;;) {
        if (p->tok.kind != PTX_TOK_IDENT)
            fail(p, p->tok.line, "expected a register name");
        const ptx_token name = p->tok;
        next(p);
        if (is_punct(p, '<')) {
            next(p);
            const uint32_t count = number_u32(p);
            expect_punct(p, '>');
            const uint32_t base = add_regs(p, count, t);
            p->ranges = grow(p, p->ranges, &p->cap_ranges, p->nranges + 1, sizeof *p->ranges);
            p->ranges[p->nranges++] = (rrange){dup_tok(p, &name), count, base};
        } else {
            const uint32_t base = add_regs(p, 1, t);
            cur(p)->reg_names[base] = dup_tok(p, &name);
            if (p->depth > 1) {
                p->sregs = grow(p, p->sregs, &p->cap_sregs, p->nsregs + 1, sizeof *p->sregs);
                p->sregs[p->nsregs++] = (scoped_reg){dup_tok(p, &name), (int32_t)base, p->depth};
            } else if (!nt_put(&p->regs, name.s, name.len, (int)base)) {
                oom(p);
            }
        }
        if (is_punct(p, ',')) {
            next(p);
            continue;
        }
        expect_punct(p, ';');
        return;
    }
}

/* The slot of a register name, or -1. */
static int32_t find_reg(parser *p, const char *s, size_t n)
{
    for (size_t i = p->nsregs; i-- > 0;)
        if (strlen(p->sregs[i].name) == n && memcmp(p->sregs[i].name, s, n) == 0)
            return p->sregs[i].slot;
    int v = nt_get(&p->regs, s, n);
    if (v >= 0)
        return v;
    size_t k = n;
    while (k > 0 && s[k - 1] >= '0' && s[k - 1] <= '9')
        k--;
    if (k == n || n - k > 9 || (n - k > 1 && s[k] == '0'))
        return -1;
    uint32_t idx = 0;
    for (size_t i = k; i < n; i++)
        idx = idx * 10 + (uint32_t)(s[i] - '0');
    for (size_t r = p->nranges; r-- > 0;)
        if (strlen(p->ranges[r].prefix) == k && memcmp(p->ranges[r].prefix, s, k) == 0 && idx < p->ranges[r].count) {
            const uint32_t slot = p->ranges[r].base + idx;
            ptx_func *f = cur(p);
            if (!f->reg_names[slot]) {
                f->reg_names[slot] = strndup(s, n);
                if (!f->reg_names[slot])
                    oom(p);
            }
            return (int32_t)slot;
        }
    return -1;
}

/* ---- special registers ------------------------------------------------------------------ */
static const struct {
    const char *name;
    ptx_sreg sr;
    bool dim;
} sregs[] = {
    {"%tid", PTX_SR_TID, true},
    {"%ntid", PTX_SR_NTID, true},
    {"%ctaid", PTX_SR_CTAID, true},
    {"%nctaid", PTX_SR_NCTAID, true},
    {"%laneid", PTX_SR_LANEID, false},
    {"%warpid", PTX_SR_WARPID, false},
    {"%nwarpid", PTX_SR_NWARPID, false},
    {"%smid", PTX_SR_SMID, false},
    {"%nsmid", PTX_SR_NSMID, false},
    {"%gridid", PTX_SR_GRIDID, false},
    {"%lanemask_eq", PTX_SR_LANEMASK_EQ, false},
    {"%lanemask_le", PTX_SR_LANEMASK_LE, false},
    {"%lanemask_lt", PTX_SR_LANEMASK_LT, false},
    {"%lanemask_ge", PTX_SR_LANEMASK_GE, false},
    {"%lanemask_gt", PTX_SR_LANEMASK_GT, false},
    {"%clock", PTX_SR_CLOCK, false},
    {"%clock64", PTX_SR_CLOCK64, false},
    {"%globaltimer", PTX_SR_GLOBALTIMER, false},
    {"%dynamic_smem_size", PTX_SR_DYNAMIC_SMEM_SIZE, false},
    {"%total_smem_size", PTX_SR_TOTAL_SMEM_SIZE, false},
    {"%clusterid", PTX_SR_CLUSTERID, true},
    {"%nclusterid", PTX_SR_NCLUSTERID, true},
    {"%cluster_ctaid", PTX_SR_CLUSTER_CTAID, true},
    {"%cluster_nctaid", PTX_SR_CLUSTER_NCTAID, true},
    {"%cluster_ctarank", PTX_SR_CLUSTER_CTARANK, false},
    {"%cluster_nctarank", PTX_SR_CLUSTER_NCTARANK, false},
    {"%is_explicit_cluster", PTX_SR_IS_EXPLICIT_CLUSTER, false},
};

/* A special register's name (with .x/.y/.z where it has them): true and
 * the operand filled, or false. */
static bool special_reg(const char *s, size_t n, ptx_operand *o)
{
    for (size_t i = 0; i < sizeof sregs / sizeof sregs[0]; i++) {
        const size_t k = strlen(sregs[i].name);
        if (n < k || memcmp(s, sregs[i].name, k) != 0)
            continue;
        if (sregs[i].dim) {
            if (n != k + 2 || s[k] != '.' || s[k + 1] < 'x' || s[k + 1] > 'z')
                continue;
            o->comp = (uint8_t)(s[k + 1] - 'x');
        } else if (n != k) {
            continue;
        }
        o->kind = PTX_O_SREG;
        o->sreg = (uint16_t)sregs[i].sr;
        return true;
    }
    return false;
}

/* ---- modifiers -------------------------------------------------------------------------- */
typedef struct {
    const char *name;
    int field; /* which field it sets */
    int value;
} modifier;

enum { M_RND, M_CMP, M_BOOL, M_SPACE, M_SEM, M_SCOPE, M_VEC, M_FLAG, M_SUB, M_IGNORE, M_POLICY };

/* Modifiers whose meaning does not depend on the opcode. */
static const modifier common_mods[] = {
    {"rn", M_RND, PTX_RND_RN},   {"rz", M_RND, PTX_RND_RZ},   {"rm", M_RND, PTX_RND_RM},
    {"rp", M_RND, PTX_RND_RP},   {"rna", M_RND, PTX_RND_RNA}, {"rs", M_RND, PTX_RND_RS},
    {"rni", M_RND, PTX_RND_RNI}, {"rzi", M_RND, PTX_RND_RZI}, {"rmi", M_RND, PTX_RND_RMI},
    {"rpi", M_RND, PTX_RND_RPI},
    {"global", M_SPACE, PTX_SPACE_GLOBAL}, {"shared", M_SPACE, PTX_SPACE_SHARED},
    {"shared::cta", M_SPACE, PTX_SPACE_SHARED}, {"local", M_SPACE, PTX_SPACE_LOCAL},
    {"param", M_SPACE, PTX_SPACE_PARAM}, {"const", M_SPACE, PTX_SPACE_CONST},
    {"volatile", M_SEM, PTX_SEM_VOLATILE}, {"relaxed", M_SEM, PTX_SEM_RELAXED},
    {"acquire", M_SEM, PTX_SEM_ACQUIRE}, {"release", M_SEM, PTX_SEM_RELEASE},
    {"acq_rel", M_SEM, PTX_SEM_ACQ_REL}, {"mmio", M_SEM, PTX_SEM_MMIO},
    {"cta", M_SCOPE, PTX_SCOPE_CTA}, {"cluster", M_SCOPE, PTX_SCOPE_CLUSTER},
    {"gpu", M_SCOPE, PTX_SCOPE_GPU}, {"sys", M_SCOPE, PTX_SCOPE_SYS},
    {"v2", M_VEC, 2}, {"v4", M_VEC, 4},
    {"ftz", M_FLAG, PTX_F_FTZ}, {"sat", M_FLAG, PTX_F_SAT}, {"approx", M_FLAG, PTX_F_APPROX},
    {"full", M_FLAG, PTX_F_FULL}, {"wide", M_FLAG, PTX_F_WIDE}, {"cc", M_FLAG, PTX_F_CC},
    {"uni", M_FLAG, PTX_F_UNI}, {"nc", M_FLAG, PTX_F_NC}, {"to", M_FLAG, PTX_F_TO},
    {"shiftamt", M_FLAG, PTX_F_SHIFTAMT}, {"aligned", M_FLAG, PTX_F_ALIGNED}, {"NaN", M_FLAG, PTX_F_NAN},
    {"xorsign", M_FLAG, PTX_F_XORSIGN}, {"relu", M_FLAG, PTX_F_RELU}, {"sync", M_FLAG, PTX_F_SYNC},
    {"noftz", M_FLAG, PTX_F_NOFTZ},
    /* cache operators and eviction hints: no meaning to the model */
    {"ca", M_IGNORE, 0}, {"cg", M_IGNORE, 0}, {"cs", M_IGNORE, 0}, {"lu", M_IGNORE, 0},
    {"cv", M_IGNORE, 0}, {"wb", M_IGNORE, 0}, {"wt", M_IGNORE, 0},
    {"L2::cache_hint", M_POLICY, 0},
};

static bool mod_is(const char *s, size_t n, const char *name) { return strlen(name) == n && memcmp(s, name, n) == 0; }

/* Applies modifier s (without its dot) to in; false when it is unknown
 * for this opcode. */
static bool apply_modifier(ptx_insn *in, const char *s, size_t n, int *ntypes, bool *policy)
{
    const unsigned op = in->op;
    /* opcode-specific first: .lo .hi .and .or .min ... mean different things */
    if (op == PTX_I_setp || op == PTX_I_set) {
        static const char *const cmps[] = {"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs",
                                           "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
        for (unsigned i = 0; i < sizeof cmps / sizeof cmps[0]; i++)
            if (mod_is(s, n, cmps[i])) {
                in->cmp = (uint8_t)(PTX_CMP_EQ + i);
                return true;
            }
        if (mod_is(s, n, "and") || mod_is(s, n, "or") || mod_is(s, n, "xor")) {
            in->boolop = s[0] == 'a' ? PTX_BOOL_AND : s[0] == 'o' ? PTX_BOOL_OR : PTX_BOOL_XOR;
            return true;
        }
    }
    /* lop3.or, lop3.and: d|p, with p = (d != 0) BoolOp q */
    if (op == PTX_I_lop3 && (mod_is(s, n, "and") || mod_is(s, n, "or"))) {
        in->boolop = s[0] == 'a' ? PTX_BOOL_AND : PTX_BOOL_OR;
        return true;
    }
    if (op == PTX_I_mul || op == PTX_I_mad || op == PTX_I_mul24 || op == PTX_I_mad24 || op == PTX_I_madc ||
        op == PTX_I_dp2a) {
        if (mod_is(s, n, "lo")) {
            in->flags |= PTX_F_LO;
            return true;
        }
        if (mod_is(s, n, "hi")) {
            in->flags |= PTX_F_HI;
            return true;
        }
    }
    if (op == PTX_I_atom || op == PTX_I_red || op == PTX_I_redux) {
        static const char *const ops[] = {"add", "inc", "dec", "exch", "cas", "min", "max", "and", "or", "xor"};
        for (unsigned i = 0; i < sizeof ops / sizeof ops[0]; i++)
            if (mod_is(s, n, ops[i])) {
                in->sub = (uint8_t)i;
                return true;
            }
    }
    if (op == PTX_I_bar || op == PTX_I_barrier) {
        if (mod_is(s, n, "sync")) {
            if (in->sub != PTX_BAR_WARP_SYNC && in->sub != PTX_BAR_RED)
                in->sub = PTX_BAR_SYNC;
            return true;
        }
        if (mod_is(s, n, "arrive")) {
            in->sub = PTX_BAR_ARRIVE;
            return true;
        }
        if (mod_is(s, n, "red")) {
            in->sub = PTX_BAR_RED;
            return true;
        }
        if (mod_is(s, n, "warp")) {
            in->sub = PTX_BAR_WARP_SYNC;
            return true;
        }
        if (mod_is(s, n, "popc") || mod_is(s, n, "and") || mod_is(s, n, "or")) {
            in->boolop = s[0] == 'p' ? PTX_BOOL_POPC : s[0] == 'a' ? PTX_BOOL_AND : PTX_BOOL_OR;
            return true;
        }
    }
    if (op == PTX_I_membar) {
        in->sub = PTX_FENCE_MEMBAR;
        if (mod_is(s, n, "gl")) {
            in->scope = PTX_SCOPE_GPU;
            return true;
        }
        if (mod_is(s, n, "cta") || mod_is(s, n, "sys")) {
            in->scope = s[0] == 'c' ? PTX_SCOPE_CTA : PTX_SCOPE_SYS;
            return true;
        }
        return false;
    }
    if (op == PTX_I_fence) {
        if (mod_is(s, n, "sc")) {
            in->sub = PTX_FENCE_SC;
            return true;
        }
        if (mod_is(s, n, "acq_rel")) {
            in->sub = PTX_FENCE_ACQ_REL;
            return true;
        }
    }
    if (op == PTX_I_shfl) {
        static const char *const modes[] = {"up", "down", "bfly", "idx"};
        for (unsigned i = 0; i < 4; i++)
            if (mod_is(s, n, modes[i])) {
                in->sub = (uint8_t)i;
                return true;
            }
    }
    if (op == PTX_I_vote) {
        static const char *const modes[] = {"all", "any", "uni", "ballot"};
        for (unsigned i = 0; i < 4; i++)
            if (mod_is(s, n, modes[i])) {
                in->sub = (uint8_t)i;
                return true;
            }
    }
    if (op == PTX_I_match && (mod_is(s, n, "any") || mod_is(s, n, "all"))) {
        in->sub = s[1] == 'n' ? PTX_MATCH_ANY : PTX_MATCH_ALL;
        return true;
    }
    if (op == PTX_I_prmt) {
        static const char *const modes[] = {"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"};
        for (unsigned i = 0; i < 6; i++)
            if (mod_is(s, n, modes[i])) {
                in->sub = (uint8_t)(PTX_PRMT_F4E + i);
                return true;
            }
    }
    if (op == PTX_I_testp) {
        static const char *const kinds[] = {"finite", "infinite", "number", "notanumber", "normal", "subnormal"};
        for (unsigned i = 0; i < 6; i++)
            if (mod_is(s, n, kinds[i])) {
                in->sub = (uint8_t)i;
                return true;
            }
    }
    if (op == PTX_I_griddepcontrol && (mod_is(s, n, "wait") || mod_is(s, n, "launch_dependents"))) {
        in->sub = s[0] == 'w' ? PTX_GDC_WAIT : PTX_GDC_LAUNCH;
        return true;
    }
    if (op == PTX_I_shf && (mod_is(s, n, "l") || mod_is(s, n, "r"))) {
        if (s[0] == 'l')
            in->flags |= PTX_F_LEFT;
        return true;
    }
    if ((op == PTX_I_shf || op == PTX_I_bmsk || op == PTX_I_szext) && (mod_is(s, n, "wrap") || mod_is(s, n, "clamp"))) {
        if (s[0] == 'w')
            in->flags |= PTX_F_WRAP;
        return true;
    }
    if ((op == PTX_I_min || op == PTX_I_max) && mod_is(s, n, "abs")) {
        in->flags |= PTX_F_ABS;
        return true;
    }
    /* a type */
    if (n + 1 < 16) {
        char buf[16];
        buf[0] = '.';
        memcpy(buf + 1, s, n);
        const ptx_type t = type_of(buf, n + 1);
        if (t != PTX_T_NONE) {
            if (*ntypes == 0)
                in->type = (uint8_t)t;
            else if (*ntypes == 1)
                in->type2 = (uint8_t)t;
            else
                return false;
            (*ntypes)++;
            return true;
        }
    }
    if (n > 4 && (memcmp(s, "L1::", 4) == 0 || memcmp(s, "L2::", 4) == 0) && !mod_is(s, n, "L2::cache_hint"))
        return true; /* eviction priorities and prefetch sizes */
    if (mod_is(s, n, "L1") || mod_is(s, n, "L2"))
        return true; /* prefetch's level */
    for (size_t i = 0; i < sizeof common_mods / sizeof common_mods[0]; i++) {
        if (!mod_is(s, n, common_mods[i].name))
            continue;
        const int v = common_mods[i].value;
        switch (common_mods[i].field) {
        case M_RND: in->rnd = (uint8_t)v; break;
        case M_SPACE: in->space = (uint8_t)v; break;
        case M_SEM: in->sem = (uint8_t)v; break;
        case M_SCOPE: in->scope = (uint8_t)v; break;
        case M_VEC: in->vec = (uint8_t)v; break;
        case M_FLAG: in->flags |= (uint32_t)v; break;
        case M_POLICY: *policy = true; break;
        default: break;
        }
        return true;
    }
    return false;
}

static int opcode_of(const char *s, size_t n)
{
    for (int i = 0; i < PTX_I_COUNT; i++)
        if (mod_is(s, n, ptx_opcode_name[i]))
            return i;
    return -1;
}

/* ---- operands --------------------------------------------------------------------------- */
/* The type an immediate in operand k (1 = the first source) takes. */
static ptx_type operand_type(const ptx_insn *in, unsigned k)
{
    const ptx_type t = (ptx_type)in->type, t2 = (ptx_type)in->type2;
    switch (in->op) {
    case PTX_I_shl:
    case PTX_I_shr: return k == 2 ? PTX_T_U32 : t;
    case PTX_I_shf: return k == 3 ? PTX_T_U32 : PTX_T_B32;
    case PTX_I_bfe: return k >= 2 ? PTX_T_U32 : t;
    case PTX_I_bfi: return k >= 3 ? PTX_T_U32 : t;
    case PTX_I_bmsk:
    case PTX_I_szext: return k == 1 && in->op == PTX_I_szext ? t : PTX_T_U32;
    case PTX_I_cvt: return t2 ? t2 : t;
    case PTX_I_set: return k == 3 ? PTX_T_PRED : (t2 ? t2 : t);
    case PTX_I_setp: return k == 3 ? PTX_T_PRED : t;
    case PTX_I_selp: return k == 3 ? PTX_T_PRED : t;
    case PTX_I_slct: return k == 3 ? (t2 ? t2 : PTX_T_S32) : t;
    case PTX_I_mad:
        if ((in->flags & PTX_F_WIDE) && k == 3) {
            switch (t) {
            case PTX_T_S16: return PTX_T_S32;
            case PTX_T_U16: return PTX_T_U32;
            case PTX_T_S32: return PTX_T_S64;
            default: return PTX_T_U64;
            }
        }
        return t;
    case PTX_I_shfl:
    case PTX_I_prmt:
    case PTX_I_lop3:
    case PTX_I_dp4a:
    case PTX_I_dp2a: return PTX_T_B32;
    case PTX_I_vote: return k == 1 ? PTX_T_PRED : PTX_T_B32;
    case PTX_I_match:
    case PTX_I_redux: return k == 1 ? t : PTX_T_B32;
    case PTX_I_nanosleep: return PTX_T_U32;
    case PTX_I_bar:
    case PTX_I_barrier:
        if (in->sub == PTX_BAR_WARP_SYNC)
            return PTX_T_B32;
        if (in->sub == PTX_BAR_RED && k == in->nops - 1u)
            return in->boolop == PTX_BOOL_POPC ? PTX_T_PRED : PTX_T_PRED;
        return PTX_T_U32;
    default: return t;
    }
}

/* The source or destination register's name after % or a label's. */
static void resolve_ident(parser *p, ptx_insn *in, ptx_operand *o, const ptx_token *t, bool branch)
{
    if (ptx_tok_is(t, "WARP_SZ")) {
        /* PTX's predefined constant: the warp size (warpSize) */
        o->kind = PTX_O_IMM;
        o->imm = 32;
        return;
    }
    if (t->len > 0 && t->s[0] != '%' && !branch) {
        /* registers need no '%' (inline assembly names them r0, p) */
        const int32_t r = find_reg(p, t->s, t->len);
        if (r >= 0) {
            o->kind = PTX_O_REG;
            o->reg = r;
            return;
        }
    }
    if (t->len > 0 && t->s[0] == '%') {
        int32_t r = find_reg(p, t->s, t->len);
        if (r >= 0) {
            o->kind = PTX_O_REG;
            o->reg = r;
            return;
        }
        if (special_reg(t->s, t->len, o))
            return;
        if (in->unsupported) {
            o->kind = PTX_O_NONE;
            return;
        }
        fail(p, t->line, "undeclared register '%.*s'", (int)(t->len > 60 ? 60 : t->len), t->s);
    }
    if (branch) {
        o->kind = PTX_O_LABEL;
        p->labrefs = grow(p, p->labrefs, &p->cap_labrefs, p->nlabrefs + 1, sizeof *p->labrefs);
        /* this instruction: instruction() has already counted it */
        p->labrefs[p->nlabrefs++] = (pending){(uint32_t)p->fi, cur(p)->ninsns - 1, dup_tok(p, t), t->line};
        return;
    }
    const int32_t si = find_sym(p, t->s, t->len);
    if (si >= 0) {
        o->kind = PTX_O_SYM;
        o->sym = si;
        return;
    }
    if (in->unsupported || in->op == PTX_I_brx) {
        o->kind = PTX_O_NONE; /* never executed: a name it alone knows (a branch table) */
        return;
    }
    fail(p, t->line, "undeclared variable '%.*s'", (int)(t->len > 60 ? 60 : t->len), t->s);
}

/* A literal waiting for its operand's type (known once the whole
 * instruction is read). */
typedef struct {
    literal lit[PTX_MAX_OPERANDS][4];
    bool has[PTX_MAX_OPERANDS][4];
    uint32_t line;
} pending_lits;

/* [reg], [reg+off], [sym], [sym+off], [off] */
static void address(parser *p, ptx_operand *o)
{
    next(p); /* '[' */
    o->kind = PTX_O_ADDR;
    o->reg = -1;
    o->sym = -1;
    o->imm = 0;
    if (p->tok.kind == PTX_TOK_IDENT) {
        const ptx_token t = p->tok;
        if (t.s[0] == '%' || find_reg(p, t.s, t.len) >= 0) {
            o->reg = find_reg(p, t.s, t.len);
            if (o->reg < 0)
                fail(p, t.line, "undeclared register '%.*s'", (int)(t.len > 60 ? 60 : t.len), t.s);
        } else {
            o->sym = find_sym(p, t.s, t.len);
            if (o->sym < 0)
                fail(p, t.line, "undeclared variable '%.*s'", (int)(t.len > 60 ? 60 : t.len), t.s);
        }
        next(p);
        if (is_punct(p, '+') || is_punct(p, '-')) {
            bool neg = is_punct(p, '-');
            next(p);
            if (is_punct(p, '-')) {
                neg = !neg;
                next(p);
            }
            if (p->tok.kind != PTX_TOK_NUMBER)
                fail(p, p->tok.line, "expected an offset in an address");
            literal l = number(p, &p->tok, neg);
            if (l.kind != LIT_INT)
                fail(p, p->tok.line, "an address offset must be an integer");
            o->imm = l.bits;
            next(p);
        }
    } else if (p->tok.kind == PTX_TOK_NUMBER) {
        literal l = number(p, &p->tok, false);
        if (l.kind != LIT_INT)
            fail(p, p->tok.line, "an address must be an integer");
        o->imm = l.bits;
        next(p);
    } else {
        fail(p, p->tok.line, "malformed address");
    }
    expect_punct(p, ']');
}

/* One operand; lits gets its literal(s), typed later. */
static void operand(parser *p, ptx_insn *in, unsigned k, pending_lits *lits, bool branch)
{
    ptx_operand *o = &in->o[k];
    memset(o, 0, sizeof *o);
    o->reg = -1;
    o->sym = -1;
    o->target = -1;
    if (is_punct(p, '[')) {
        address(p, o);
        return;
    }
    if (is_punct(p, '{')) {
        next(p);
        o->kind = PTX_O_VEC;
        for (;;) {
            if (o->nelem == 4)
                fail(p, p->tok.line, "a vector of more than 4 elements");
            ptx_velem *e = &o->elem[o->nelem];
            e->reg = -1;
            if (p->tok.kind == PTX_TOK_IDENT && mod_is(p->tok.s, p->tok.len, "_")) {
                next(p);
            } else if (p->tok.kind == PTX_TOK_IDENT) {
                e->reg = find_reg(p, p->tok.s, p->tok.len);
                if (e->reg < 0)
                    fail(p, p->tok.line, "undeclared register '%.*s'", (int)(p->tok.len > 60 ? 60 : p->tok.len),
                         p->tok.s);
                next(p);
            } else {
                bool neg = false;
                if (is_punct(p, '-')) {
                    neg = true;
                    next(p);
                }
                if (p->tok.kind != PTX_TOK_NUMBER)
                    fail(p, p->tok.line, "malformed vector element");
                e->is_imm = true;
                lits->lit[k][o->nelem] = number(p, &p->tok, neg);
                lits->has[k][o->nelem] = true;
                next(p);
            }
            o->nelem++;
            if (is_punct(p, ',')) {
                next(p);
                continue;
            }
            expect_punct(p, '}');
            return;
        }
    }
    if (is_punct(p, '!')) {
        next(p);
        if (p->tok.kind != PTX_TOK_IDENT)
            fail(p, p->tok.line, "expected a predicate after '!'");
        const ptx_token t = p->tok;
        resolve_ident(p, in, o, &t, false);
        if (o->kind != PTX_O_REG)
            fail(p, t.line, "'!' before something that is not a predicate register");
        o->neg = 1;
        next(p);
        return;
    }
    if (is_punct(p, '-') || p->tok.kind == PTX_TOK_NUMBER) {
        bool neg = false;
        if (is_punct(p, '-')) {
            neg = true;
            next(p);
        }
        if (p->tok.kind != PTX_TOK_NUMBER)
            fail(p, p->tok.line, "malformed operand");
        o->kind = PTX_O_IMM;
        lits->lit[k][0] = number(p, &p->tok, neg);
        lits->has[k][0] = true;
        next(p);
        return;
    }
    if (p->tok.kind == PTX_TOK_IDENT) {
        const ptx_token t = p->tok;
        next(p);
        resolve_ident(p, in, o, &t, branch);
        if (o->kind == PTX_O_SYM && (is_punct(p, '+') || is_punct(p, '-'))) {
            const bool neg = is_punct(p, '-');
            next(p);
            if (p->tok.kind != PTX_TOK_NUMBER)
                fail(p, p->tok.line, "expected an offset after a variable's name");
            literal l = number(p, &p->tok, neg);
            o->imm = l.bits;
            next(p);
        }
        if (is_punct(p, '|') && k == 0) {
            /* d|p: a second destination */
            next(p);
            if (p->tok.kind != PTX_TOK_IDENT)
                fail(p, p->tok.line, "expected a predicate after '|'");
            const ptx_token q = p->tok;
            memset(&in->o2, 0, sizeof in->o2);
            in->o2.sym = -1;
            in->o2.target = -1;
            resolve_ident(p, in, &in->o2, &q, false);
            if (in->o2.kind != PTX_O_REG)
                fail(p, q.line, "a second destination that is not a register");
            in->flags |= PTX_F_PRED_OUT;
            next(p);
        }
        return;
    }
    fail(p, p->tok.line, "malformed operand '%.*s'", (int)(p->tok.len > 40 ? 40 : p->tok.len),
         p->tok.kind == PTX_TOK_EOF ? "end of file" : p->tok.s);
}

/* A name list "(a, b, c)" of .param variables for call. */
static void call_names(parser *p, bool *indirect, int32_t **list, size_t *n, size_t *cap)
{
    expect_punct(p, '(');
    while (!is_punct(p, ')')) {
        if (p->tok.kind != PTX_TOK_IDENT)
            fail(p, p->tok.line, "expected a parameter name in a call");
        const int32_t si = find_sym(p, p->tok.s, p->tok.len);
        if (si < 0 || p->m->syms[si].space != PTX_SPACE_PARAM) {
            if (p->tok.s[0] == '%') {
                /* a register argument: only indirect or inline forms use it */
                *indirect = true;
            } else {
                fail(p, p->tok.line, "undeclared parameter '%.*s' in a call", (int)(p->tok.len > 60 ? 60 : p->tok.len),
                     p->tok.s);
            }
        }
        *list = grow(p, *list, cap, *n + 1, sizeof **list);
        (*list)[(*n)++] = si;
        next(p);
        if (is_punct(p, ','))
            next(p);
        else if (!is_punct(p, ')'))
            fail(p, p->tok.line, "expected ',' or ')' in a call");
    }
    next(p);
}

/* call[.uni] [(rets),] func[, (args)][, prototype]; returns whether the
 * call is indirect (through a register or a prototype): unsupported. */
static bool call_operands(parser *p, ptx_insn *in)
{
    bool indirect = false;
    size_t n = 0, cap = 0;
    in->nops = 1;
    memset(&in->o[0], 0, sizeof in->o[0]);
    in->o[0].kind = PTX_O_FUNC;
    in->o[0].reg = in->o[0].sym = in->o[0].target = -1;
    in->call_params = NULL;
    if (is_punct(p, '(')) {
        call_names(p, &indirect, &in->call_params, &n, &cap);
        in->nret = (uint8_t)n;
        expect_punct(p, ',');
    }
    if (p->tok.kind != PTX_TOK_IDENT)
        fail(p, p->tok.line, "expected the called function's name");
    const ptx_token callee = p->tok;
    next(p);
    if (callee.s[0] == '%') {
        indirect = true; /* through a register */
    } else {
        p->calls = grow(p, p->calls, &p->cap_calls, p->ncalls + 1, sizeof *p->calls);
        /* this instruction: instruction() has already counted it */
        p->calls[p->ncalls++] = (pending){(uint32_t)p->fi, cur(p)->ninsns - 1, dup_tok(p, &callee), callee.line};
    }
    if (is_punct(p, ',')) {
        next(p);
        if (is_punct(p, '(')) {
            const size_t before = n;
            /* grown in place: an error midway frees it with the module */
            call_names(p, &indirect, &in->call_params, &n, &cap);
            in->narg = (uint8_t)(n - before);
            if (is_punct(p, ',')) {
                next(p);
                indirect = true; /* a prototype: an indirect call */
                next(p);
            }
        } else {
            indirect = true;
            next(p);
        }
    }
    if (n > 255)
        fail(p, p->tok.line, "a call with more than 255 parameters");
    return indirect;
}

/* The opcode text "ld.global.u32" into in; unknown parts make it
 * unsupported. */
static void decode_opcode(parser *p, ptx_insn *in, const ptx_token *t, bool *policy)
{
    const char *s = t->s, *end = t->s + t->len;
    const char *dot = memchr(s, '.', t->len);
    const size_t olen = dot ? (size_t)(dot - s) : t->len;
    const int op = opcode_of(s, olen);
    bool ok = op >= 0;
    in->op = (uint16_t)(ok ? op : 0);
    int ntypes = 0;
    *policy = false;
    if (ok && (op == PTX_I_bar || op == PTX_I_barrier))
        in->sub = PTX_BAR_SYNC;
    for (const char *m = dot; ok && m && m < end;) {
        const char *q = m + 1;
        /* a modifier ends at the next '.' that is not part of "::" */
        const char *e = q;
        while (e < end && *e != '.')
            e++;
        if (e == q || !apply_modifier(in, q, (size_t)(e - q), &ntypes, policy))
            ok = false;
        m = e < end ? e : NULL;
    }
    if (ok && op == PTX_I_bar && in->sub == PTX_BAR_WARP_SYNC)
        in->flags |= PTX_F_SYNC;
    if (!ok) {
        in->unsupported = dup_tok(p, t);
        in->op = PTX_I_COUNT;
    }
}

static void instruction(parser *p, int32_t guard, bool guard_neg, uint32_t line)
{
    ptx_func *f = cur(p);
    f->insns = grow(p, f->insns, &p->cap_insns, f->ninsns + 1, sizeof *f->insns);
    ptx_insn *in = &f->insns[f->ninsns];
    memset(in, 0, sizeof *in);
    in->guard = guard;
    in->guard_neg = guard_neg;
    in->ptx_line = line;
    /* the node, until the module's end resolves it to a file and line */
    in->loc_file = 0;
    in->loc_line = p->loc_cur >= 0 ? (uint32_t)p->loc_cur + 1 : 0;
    in->vec = 1;
    in->o2.reg = in->o2.sym = in->o2.target = -1;
    f->ninsns++; /* counted now: an error later frees what it holds */
    const ptx_token optok = p->tok;
    bool policy;
    decode_opcode(p, in, &optok, &policy);
    next(p);
    if (in->unsupported) {
        /* its operands may have any syntax (mma's eight-element vectors,
         * tex's [name, {...}]), and nothing reads them */
        skip_statement(p);
        return;
    }
    if (in->op == PTX_I_call && !in->unsupported) {
        if (call_operands(p, in))
            in->unsupported = dup_tok(p, &optok);
        expect_punct(p, ';');
        return;
    }
    const bool branch = in->op == PTX_I_bra || in->op == PTX_I_brx;
    pending_lits lits;
    memset(&lits, 0, sizeof lits);
    unsigned k = 0;
    while (!is_punct(p, ';')) {
        if (k == PTX_MAX_OPERANDS)
            fail(p, p->tok.line, "more than %d operands", PTX_MAX_OPERANDS);
        operand(p, in, k, &lits, branch && k == 0);
        k++;
        if (is_punct(p, ',')) {
            next(p);
            if (is_punct(p, ';')) /* "mov.u32 %r1, ;": an operand left out */
                fail(p, p->tok.line, "expected an operand after ','");
        } else if (!is_punct(p, ';')) {
            fail(p, p->tok.line, "expected ',' or ';' after an operand");
        }
    }
    next(p);
    in->nops = (uint8_t)k;
    if (policy && in->nops > 0)
        in->nops--; /* the cache policy operand of .L2::cache_hint */
    if (in->unsupported)
        return;
    /* the literals, as the bits of their operands' types */
    for (unsigned i = 0; i < in->nops; i++) {
        ptx_operand *o = &in->o[i];
        /* o[0] is the destination, but bar's and barrier's is a source (the
         * barrier, bar.warp.sync's member mask) */
        const bool src0 = in->op == PTX_I_bar || in->op == PTX_I_barrier;
        const ptx_type t = i == 0 && !src0 ? (ptx_type)in->type : operand_type(in, i);
        if (o->kind == PTX_O_IMM && lits.has[i][0])
            o->imm = literal_bits(p, &lits.lit[i][0], t == PTX_T_NONE ? PTX_T_B64 : t, line);
        else if (o->kind == PTX_O_VEC)
            for (unsigned e = 0; e < o->nelem; e++)
                if (lits.has[i][e])
                    o->elem[e].imm = literal_bits(p, &lits.lit[i][e], t == PTX_T_NONE ? PTX_T_B64 : t, line);
    }
}

/* .loc F L C[, function_name X, inlined_at F2 L2 C2] */
static void loc_directive(parser *p)
{
    next(p);
    uint32_t f = number_u32(p), l = number_u32(p), c = 0;
    if (p->tok.kind == PTX_TOK_NUMBER)
        c = number_u32(p);
    bool inlined = false;
    uint32_t f2 = 0, l2 = 0, c2 = 0;
    while (is_punct(p, ',')) {
        next(p);
        if (tok_is(p, "function_name")) {
            next(p);
            next(p);
        } else if (tok_is(p, "inlined_at")) {
            next(p);
            f2 = number_u32(p);
            l2 = number_u32(p);
            if (p->tok.kind == PTX_TOK_NUMBER)
                c2 = number_u32(p);
            inlined = true;
        } else {
            next(p);
        }
    }
    /* the chain up to the call this code was inlined at (the innermost
     * frame of the current chain with that location), then this one */
    size_t keep = 0;
    if (inlined) {
        keep = p->nchain;
        while (keep > 0) {
            const locnode *q = &p->locs[p->chain[keep - 1]];
            if (q->file == f2 && q->line == l2 && q->col == c2)
                break;
            keep--;
        }
        if (keep == 0) {
            /* not in the chain: a root of its own */
            p->chain = grow(p, p->chain, &p->cap_chain, 1, sizeof *p->chain);
            p->locs = grow(p, p->locs, &p->cap_locs, p->nlocs + 1, sizeof *p->locs);
            p->locs[p->nlocs] = (locnode){f2, l2, c2, -1};
            p->chain[0] = (int32_t)p->nlocs++;
            keep = 1;
        }
    }
    p->locs = grow(p, p->locs, &p->cap_locs, p->nlocs + 1, sizeof *p->locs);
    p->locs[p->nlocs] = (locnode){f, l, c, keep ? p->chain[keep - 1] : -1};
    p->chain = grow(p, p->chain, &p->cap_chain, keep + 1, sizeof *p->chain);
    p->chain[keep] = (int32_t)p->nlocs;
    p->nchain = keep + 1;
    p->loc_cur = (int32_t)p->nlocs++;
}

/* Whether path is one of the CUDA toolkit's headers (an intrinsic's body):
 * a finding there belongs to the user's line that called it. */
static bool toolkit_header(const char *path)
{
    return path && ((strstr(path, "/targets/") && strstr(path, "/include/")) || strstr(path, "/cuda/include/") ||
                    (strstr(path, "/cuda-") && strstr(path, "/include/")));
}

/* Each instruction's line: the innermost frame of its chain of inlined
 * calls that is not in a toolkit header (the outermost, if all are). */
static void resolve_locs(parser *p)
{
    ptx_module *m = p->m;
    for (unsigned fi = 0; fi < m->nfuncs; fi++)
        for (uint32_t k = 0; k < m->funcs[fi].ninsns; k++) {
            ptx_insn *in = &m->funcs[fi].insns[k];
            if (in->loc_line == 0)
                continue;
            int32_t node = (int32_t)in->loc_line - 1, pick = node;
            for (int32_t q = node; q >= 0 && (size_t)q < p->nlocs; q = p->locs[q].parent) {
                pick = q;
                const uint32_t file = p->locs[q].file;
                if (!toolkit_header(file < m->nfiles ? m->files[file] : NULL))
                    break;
            }
            in->loc_file = p->locs[pick].file;
            in->loc_line = p->locs[pick].line;
            in->loc_col = p->locs[pick].col;
        }
}

/* Paths under the current folder are named relative to it, as compilers
 * name them, so that editors and CI resolve the findings' lines. */
static void relative_files(parser *p)
{
    char cwd[4096];
    if (!getcwd(cwd, sizeof cwd))
        return;
    const size_t n = strlen(cwd);
    for (unsigned i = 0; i < p->m->nfiles; i++) {
        char *f = p->m->files[i];
        if (f && strncmp(f, cwd, n) == 0 && f[n] == '/' && f[n + 1])
            memmove(f, f + n + 1, strlen(f + n + 1) + 1);
    }
}

/* Resolves the function's label references and closes its scope. */
static void end_function(parser *p, ntable *labels)
{
    ptx_func *f = cur(p);
    size_t keep = 0;
    for (size_t i = 0; i < p->nlabrefs; i++) {
        pending *r = &p->labrefs[i];
        if (r->func != (uint32_t)p->fi) {
            p->labrefs[keep++] = *r;
            continue;
        }
        const int target = nt_get(labels, r->name, strlen(r->name));
        if (target < 0)
            fail(p, r->line, "undeclared label '%s'", r->name);
        f->insns[r->insn].o[0].target = target;
        free(r->name);
        r->name = NULL;
    }
    p->nlabrefs = keep;
    f->local_bytes = align_to(f->local_bytes, 16);
}

static void body(parser *p)
{
    ptx_func *f = cur(p);
    nt_free(&p->regs);
    nt_free(&p->labels);
    for (size_t i = 0; i < p->nranges; i++)
        free(p->ranges[i].prefix);
    p->nranges = 0;
    p->cap_insns = 0;
    p->cap_regs = 0;
    p->nscope = 0;
    p->depth = 0;
    p->loc_cur = -1;
    p->nchain = 0;
    f->defined = true;
    for (unsigned i = 0; i < f->nrets; i++)
        push_scope(p, f->rets[i]);
    for (unsigned i = 0; i < f->nparams; i++)
        push_scope(p, f->params[i]);
    p->param_top = f->param_bytes;
    uint64_t depth_top[64];
    expect_punct(p, '{');
    p->depth = 1;
    depth_top[0] = p->param_top;
    for (;;) {
        const ptx_token t = p->tok;
        if (t.kind == PTX_TOK_EOF)
            fail(p, t.line, "unexpected end of file in the body of '%s'", cur(p)->name);
        if (ptx_tok_punct(&t, '}')) {
            next(p);
            while (p->nscope && p->scope[p->nscope - 1].depth >= p->depth)
                p->nscope--;
            while (p->nsregs && p->sregs[p->nsregs - 1].depth >= p->depth)
                free(p->sregs[--p->nsregs].name);
            p->depth--;
            if (p->depth == 0)
                break;
            /* the closed block's .param variables are dead: their space is free */
            if (p->depth < 64)
                p->param_top = depth_top[p->depth];
            continue;
        }
        if (ptx_tok_punct(&t, '{')) {
            next(p);
            if (p->depth < 64)
                depth_top[p->depth] = p->param_top;
            p->depth++;
            continue;
        }
        if (t.kind == PTX_TOK_DIRECTIVE) {
            if (ptx_tok_is(&t, ".reg")) {
                reg_decl(p);
            } else if (ptx_tok_is(&t, ".loc")) {
                loc_directive(p);
            } else if (ptx_tok_is(&t, ".pragma")) {
                skip_statement(p);
            } else if (ptx_tok_is(&t, ".local") || ptx_tok_is(&t, ".shared") || ptx_tok_is(&t, ".param") ||
                       ptx_tok_is(&t, ".const") || ptx_tok_is(&t, ".global")) {
                const uint8_t space = ptx_tok_is(&t, ".local")    ? PTX_SPACE_LOCAL
                                      : ptx_tok_is(&t, ".shared") ? PTX_SPACE_SHARED
                                      : ptx_tok_is(&t, ".param")  ? PTX_SPACE_PARAM
                                      : ptx_tok_is(&t, ".const")  ? PTX_SPACE_CONST
                                                                  : PTX_SPACE_GLOBAL;
                next(p);
                const int32_t si = variable(p, space, false, p->fi);
                ptx_sym *s = &p->m->syms[si];
                f = cur(p);
                if (space == PTX_SPACE_LOCAL) {
                    s->offset = align_to(f->local_bytes, s->align);
                    f->local_bytes = s->offset + s->size;
                } else if (space == PTX_SPACE_PARAM) {
                    s->offset = align_to(p->param_top, s->align);
                    p->param_top = s->offset + s->size;
                    if (p->param_top > f->param_bytes)
                        f->param_bytes = p->param_top;
                } else if (space == PTX_SPACE_GLOBAL || space == PTX_SPACE_CONST) {
                    /* a function-scope static: storage like a module variable */
                    s->func = -1;
                }
                push_scope(p, si);
            } else {
                fail(p, t.line, "unknown directive '%.*s' in a function body", (int)(t.len > 40 ? 40 : t.len), t.s);
            }
            continue;
        }
        if (ptx_tok_punct(&t, '@')) {
            next(p);
            bool neg = false;
            if (is_punct(p, '!')) {
                neg = true;
                next(p);
            }
            if (p->tok.kind != PTX_TOK_IDENT)
                fail(p, p->tok.line, "expected a predicate after '@'");
            const int32_t g = find_reg(p, p->tok.s, p->tok.len);
            if (g < 0)
                fail(p, p->tok.line, "undeclared register '%.*s'", (int)(p->tok.len > 60 ? 60 : p->tok.len),
                     p->tok.s);
            next(p);
            if (p->tok.kind != PTX_TOK_IDENT)
                fail(p, p->tok.line, "expected an instruction after the guard");
            instruction(p, g, neg, t.line);
            continue;
        }
        if (t.kind == PTX_TOK_IDENT) {
            const ptx_token after = ptx_lex_peek(&p->lx);
            if (ptx_tok_punct(&after, ':')) {
                next(p);
                next(p);
                if (p->tok.kind == PTX_TOK_DIRECTIVE && tok_is(p, ".callprototype")) {
                    skip_statement(p);
                    continue;
                }
                if (p->tok.kind == PTX_TOK_DIRECTIVE && tok_is(p, ".branchtargets")) {
                    skip_statement(p);
                    continue;
                }
                if (!nt_put(&p->labels, t.s, t.len, (int)cur(p)->ninsns))
                    oom(p);
                continue;
            }
            instruction(p, -1, false, t.line);
            continue;
        }
        fail(p, t.line, "unexpected '%.*s' in the body of '%s'", (int)(t.len > 40 ? 40 : t.len), t.s, cur(p)->name);
    }
    end_function(p, &p->labels);
}

/* .entry name (params) [directives] { body } | ;
 * .func [(rets)] name [(params)] [.noreturn] { body } | ; */
static void function(parser *p, bool entry)
{
    next(p);
    bool has_rets = false;
    if (!entry && is_punct(p, '(')) {
        has_rets = true;
    }
    /* the return list comes before the name: parse it into a holder first */
    int32_t fi;
    if (has_rets) {
        /* find the name after the parenthesis */
        ptx_lexer save = p->lx;
        ptx_token save_tok = p->tok;
        int depth = 0;
        do {
            if (is_punct(p, '('))
                depth++;
            else if (is_punct(p, ')'))
                depth--;
            else if (p->tok.kind == PTX_TOK_EOF)
                fail(p, p->tok.line, "unexpected end of file in a declaration");
            next(p);
        } while (depth > 0);
        if (p->tok.kind != PTX_TOK_IDENT)
            fail(p, p->tok.line, "expected a function name");
        fi = function_named(p, &p->tok, entry);
        p->lx = save;
        p->tok = save_tok;
        p->fi = fi;
        param_list(p, &p->m->funcs[fi], true, fi);
        next(p); /* the name */
    } else {
        if (p->tok.kind != PTX_TOK_IDENT)
            fail(p, p->tok.line, "expected a function name");
        fi = function_named(p, &p->tok, entry);
        p->fi = fi;
        next(p);
    }
    if (is_punct(p, '('))
        param_list(p, &p->m->funcs[fi], false, fi);
    for (;;) {
        ptx_func *f = &p->m->funcs[fi];
        if (tok_is(p, ".maxntid"))
            dims(p, f->maxntid);
        else if (tok_is(p, ".reqntid"))
            dims(p, f->reqntid);
        else if (tok_is(p, ".minnctapersm")) {
            next(p);
            f->minnctapersm = number_u32(p);
        } else if (tok_is(p, ".maxnreg") || tok_is(p, ".maxclusterrank")) {
            next(p);
            (void)number_u32(p);
        } else if (tok_is(p, ".reqnctapercluster") || tok_is(p, ".maxnctapercluster")) {
            uint32_t d[3];
            dims(p, d);
        } else if (tok_is(p, ".noreturn") || tok_is(p, ".explicitcluster")) {
            next(p);
        } else if (tok_is(p, ".pragma")) {
            skip_statement(p);
        } else {
            break;
        }
    }
    if (is_punct(p, ';')) {
        next(p);
        p->fi = -1;
        return;
    }
    p->cap_insns = 0;
    body(p);
    p->fi = -1;
}

/* .section name { anything } */
static void skip_section(parser *p)
{
    next(p);
    while (!is_punct(p, '{')) {
        if (p->tok.kind == PTX_TOK_EOF)
            fail(p, p->tok.line, "unterminated .section");
        next(p);
    }
    int depth = 0;
    do {
        if (is_punct(p, '{'))
            depth++;
        else if (is_punct(p, '}'))
            depth--;
        else if (p->tok.kind == PTX_TOK_EOF)
            fail(p, p->tok.line, "unterminated .section");
        next(p);
    } while (depth > 0);
}

static void file_directive(parser *p)
{
    next(p);
    const uint32_t n = number_u32(p);
    if (p->tok.kind != PTX_TOK_STRING || p->tok.len < 2)
        fail(p, p->tok.line, "expected a quoted path after .file");
    if (n > 100000)
        fail(p, p->tok.line, "file number %u out of range", n);
    ptx_module *m = p->m;
    if (n >= m->nfiles) {
        m->files = grow(p, m->files, &p->cap_files, (size_t)n + 1, sizeof *m->files);
        for (unsigned i = m->nfiles; i <= n; i++)
            m->files[i] = NULL;
        m->nfiles = n + 1;
    }
    free(m->files[n]);
    m->files[n] = strndup(p->tok.s + 1, p->tok.len - 2);
    if (!m->files[n])
        oom(p);
    next(p);
    while (is_punct(p, ',')) {
        next(p);
        next(p);
    }
}

static void module(parser *p)
{
    next(p);
    for (;;) {
        const ptx_token t = p->tok;
        if (t.kind == PTX_TOK_EOF)
            break;
        if (t.kind != PTX_TOK_DIRECTIVE)
            fail(p, t.line,
                 p->seen_version ? "expected a directive, found '%.*s'" : "not PTX: no .version before '%.*s'",
                 (int)(t.len > 40 ? 40 : t.len), t.s);
        if (!p->seen_version && !ptx_tok_is(&t, ".version"))
            fail(p, t.line, "not PTX: no .version before '%.*s'", (int)(t.len > 40 ? 40 : t.len), t.s);
        if (ptx_tok_is(&t, ".version")) {
            next(p);
            if (p->tok.kind != PTX_TOK_NUMBER)
                fail(p, p->tok.line, "expected a version number");
            unsigned maj = 0, min = 0;
            char buf[32];
            snprintf(buf, sizeof buf, "%.*s", (int)(p->tok.len < 31 ? p->tok.len : 31), p->tok.s);
            if (sscanf(buf, "%u.%u", &maj, &min) != 2)
                fail(p, p->tok.line, "malformed version '%s'", buf);
            p->m->version_major = maj;
            p->m->version_minor = min;
            p->seen_version = true;
            next(p);
        } else if (ptx_tok_is(&t, ".target")) {
            next(p);
            for (;;) {
                if (p->tok.kind != PTX_TOK_IDENT)
                    fail(p, p->tok.line, "expected a target name");
                if (p->tok.len > 3 && memcmp(p->tok.s, "sm_", 3) == 0) {
                    /* digits within the token: the text need not go on after it */
                    unsigned sm = 0;
                    for (size_t i = 3; i < p->tok.len && p->tok.s[i] >= '0' && p->tok.s[i] <= '9' && sm < 100000; i++)
                        sm = sm * 10 + (unsigned)(p->tok.s[i] - '0');
                    p->m->sm = sm;
                }
                next(p);
                if (!is_punct(p, ','))
                    break;
                next(p);
            }
        } else if (ptx_tok_is(&t, ".address_size")) {
            next(p);
            p->m->address_size = number_u32(p);
            if (p->m->address_size != 64)
                fail(p, t.line, "only .address_size 64 is supported");
        } else if (ptx_tok_is(&t, ".file")) {
            file_directive(p);
        } else if (ptx_tok_is(&t, ".section")) {
            skip_section(p);
        } else if (ptx_tok_is(&t, ".pragma")) {
            skip_statement(p);
        } else if (ptx_tok_is(&t, ".visible") || ptx_tok_is(&t, ".weak") || ptx_tok_is(&t, ".common")) {
            next(p);
        } else if (ptx_tok_is(&t, ".extern")) {
            next(p);
            if (tok_is(p, ".shared") || tok_is(p, ".global") || tok_is(p, ".const")) {
                const uint8_t space = tok_is(p, ".shared") ? PTX_SPACE_SHARED
                                      : tok_is(p, ".global") ? PTX_SPACE_GLOBAL
                                                             : PTX_SPACE_CONST;
                next(p);
                const int32_t si = variable(p, space, true, -1);
                if (!nt_put(&p->module_syms, p->m->syms[si].name, strlen(p->m->syms[si].name), si))
                    oom(p);
            }
        } else if (ptx_tok_is(&t, ".entry") || ptx_tok_is(&t, ".func")) {
            function(p, ptx_tok_is(&t, ".entry"));
        } else if (ptx_tok_is(&t, ".global") || ptx_tok_is(&t, ".const") || ptx_tok_is(&t, ".shared")) {
            const uint8_t space = ptx_tok_is(&t, ".shared") ? PTX_SPACE_SHARED
                                  : ptx_tok_is(&t, ".global") ? PTX_SPACE_GLOBAL
                                                              : PTX_SPACE_CONST;
            next(p);
            const int32_t si = variable(p, space, false, -1);
            if (!nt_put(&p->module_syms, p->m->syms[si].name, strlen(p->m->syms[si].name), si))
                oom(p);
        } else if (ptx_tok_is(&t, ".alias")) {
            fail(p, t.line, ".alias is not supported");
        } else {
            fail(p, t.line, "unknown directive '%.*s'", (int)(t.len > 40 ? 40 : t.len), t.s);
        }
    }
    if (!p->seen_version)
        fail(p, p->tok.line, "not PTX: no .version directive");
    resolve_locs(p);
    relative_files(p);
    /* callees, now that every function is known */
    for (size_t i = 0; i < p->ncalls; i++) {
        const pending *c = &p->calls[i];
        const int fi = nt_get(&p->funcs_by_name, c->name, strlen(c->name));
        if (fi < 0)
            fail(p, c->line, "call of undeclared function '%s'", c->name);
        p->m->funcs[c->func].insns[c->insn].o[0].target = fi;
    }
}

static void parser_free(parser *p)
{
    nt_free(&p->funcs_by_name);
    nt_free(&p->module_syms);
    nt_free(&p->regs);
    nt_free(&p->labels);
    for (size_t i = 0; i < p->nranges; i++)
        free(p->ranges[i].prefix);
    free(p->ranges);
    free(p->scope);
    free(p->locs);
    free(p->chain);
    for (size_t i = 0; i < p->nsregs; i++)
        free(p->sregs[i].name);
    free(p->sregs);
    for (size_t i = 0; i < p->nlabrefs; i++)
        free(p->labrefs[i].name);
    free(p->labrefs);
    for (size_t i = 0; i < p->ncalls; i++)
        free(p->calls[i].name);
    free(p->calls);
}

/* The module, or false after an error (its message written). */
static bool run_parser(parser *p)
{
    if (setjmp(p->fail))
        return false;
    module(p);
    return true;
}

ptx_module *ptx_parse(const char *text, size_t len, const char *path, char *err, size_t errlen)
{
    parser *p = calloc(1, sizeof *p);
    ptx_module *m = calloc(1, sizeof *m);
    if (!p || !m || !(m->path = strdup(path ? path : "<ptx>"))) {
        if (err && errlen)
            snprintf(err, errlen, "%s: error: out of memory", path ? path : "<ptx>");
        free(p);
        if (m)
            free(m->path);
        free(m);
        return NULL;
    }
    p->path = m->path;
    p->err = err;
    p->errlen = errlen;
    p->m = m;
    p->fi = -1;
    ptx_lex_init(&p->lx, text, len);
    const bool ok = run_parser(p);
    parser_free(p);
    free(p);
    if (!ok) {
        ptx_free(m);
        return NULL;
    }
    return m;
}

void ptx_free(ptx_module *m)
{
    if (!m)
        return;
    for (unsigned i = 0; i < m->nfuncs; i++) {
        ptx_func *f = &m->funcs[i];
        for (uint32_t k = 0; k < f->ninsns; k++) {
            free(f->insns[k].call_params);
            free(f->insns[k].unsupported);
        }
        free(f->insns);
        for (uint32_t r = 0; r < f->nregs; r++)
            free(f->reg_names[r]);
        free(f->reg_names);
        free(f->reg_type);
        free(f->params);
        free(f->rets);
        free(f->name);
    }
    free(m->funcs);
    for (unsigned i = 0; i < m->nsyms; i++) {
        free(m->syms[i].name);
        free(m->syms[i].init);
    }
    free(m->syms);
    for (unsigned i = 0; i < m->nfiles; i++)
        free(m->files[i]);
    free(m->files);
    free(m->path);
    free(m);
}

int ptx_find_func(const ptx_module *m, const char *name)
{
    for (unsigned i = 0; i < m->nfuncs; i++)
        if (strcmp(m->funcs[i].name, name) == 0)
            return (int)i;
    return -1;
}
