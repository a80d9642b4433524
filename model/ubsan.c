/* Undefined behaviour in kernel source as a finding.
 *
 * The kernels' C translation units are compiled with
 * -fsanitize=shift,signed-integer-overflow,integer-divide-by-zero (cuda/meson.build,
 * kernel_ub_args): the compiler puts a check before each such operation and
 * calls the handlers below when it fails. C gives these operations no
 * meaning, and neither does CUDA: `(1 << 32) - 1` is 0 on x86 and happens
 * to be 0xffffffff from nvcc, so a kernel that relies on it is wrong on
 * both, and whatever the simulator computed after it (a zero warp mask, a
 * wrapped index) would be reported as some later, misleading finding.
 * Instead the operation itself is the finding, at its file:line, and the
 * launch stops there, before the operation executes.
 *
 * The handlers keep the compiler runtime's names and data layout (GCC's and
 * Clang's libubsan agree on them). They are hidden: the shared library's
 * kernels reach them, a program linking it keeps its own. Outside a
 * simulated thread (a host driver, or the whole program in a sanitizer
 * build, where these definitions stand in front of libubsan's) the report
 * goes to the runtime's own handler when one is loaded, else to stderr in
 * its format. */
#include <dlfcn.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/internal.h"

#define SL_UB_API __attribute__((visibility("hidden")))

typedef struct {
    const char *file;
    uint32_t line, column;
} ub_loc;

typedef struct {
    uint16_t kind; /* 0: integer */
    uint16_t info; /* integers: log2(bits) << 1 | signed */
    char name[];   /* quoted: 'int' */
} ub_type;

typedef struct {
    ub_loc loc;
    const ub_type *type;
} ub_overflow;

typedef struct {
    ub_loc loc;
    const ub_type *lhs, *rhs;
} ub_shift;

/* The roots the compiler may have named a kernel file from (the build's
 * relative and absolute paths to the repository, model/meson.build): the
 * same file then reads as the dialect's sites name it, relative to the root. */
#ifndef SCANLAB_REL_ROOT
#define SCANLAB_REL_ROOT ""
#endif
#ifndef SCANLAB_SRC_ROOT
#define SCANLAB_SRC_ROOT ""
#endif

static const char *root_relative(const char *file)
{
    static const char *const roots[] = {SCANLAB_REL_ROOT, SCANLAB_SRC_ROOT};
    if (!file)
        return "?";
    for (size_t i = 0; i < sizeof roots / sizeof roots[0]; i++) {
        size_t k = strlen(roots[i]);
        if (k && strncmp(file, roots[i], k) == 0 && file[k] == '/')
            return file + k + 1;
    }
    return file;
}

static unsigned type_bits(const ub_type *t) { return t->kind == 0 ? 1u << (t->info >> 1) : 0; }
static int type_signed(const ub_type *t) { return t->kind == 0 && (t->info & 1); }

/* A value handle as text: integers up to 64 bits are held in the handle
 * itself, wider ones behind it. */
static void value_text(char *buf, size_t size, const ub_type *t, uintptr_t v)
{
    const unsigned bits = type_bits(t);
    if (bits == 0 || bits > 64) {
        snprintf(buf, size, "a %u-bit value", bits);
        return;
    }
    if (type_signed(t)) {
        const unsigned drop = 64 - bits;
        const int64_t s = (int64_t)((uint64_t)v << drop) >> drop;
        snprintf(buf, size, "%" PRId64, s);
    } else {
        const uint64_t u = bits == 64 ? (uint64_t)v : (uint64_t)v & ((UINT64_C(1) << bits) - 1);
        snprintf(buf, size, "%" PRIu64, u);
    }
}

/* One site record per check (the compiler's data is static): the finding
 * and the per-site tables keep a pointer to it. */
typedef struct ub_site {
    const void *key;
    model_site site;
    struct ub_site *next;
} ub_site;

static ub_site *ub_sites;
static pthread_mutex_t ub_lock = PTHREAD_MUTEX_INITIALIZER;

static const model_site *site_of(const void *key, const ub_loc *loc, const char *what)
{
    pthread_mutex_lock(&ub_lock);
    ub_site *s = ub_sites;
    while (s && s->key != key)
        s = s->next;
    if (!s && (s = calloc(1, sizeof *s)) != NULL) {
        s->key = key;
        s->site.file = root_relative(loc->file);
        s->site.line = (int)loc->line;
        s->site.what = what;
        s->next = ub_sites;
        ub_sites = s;
    }
    pthread_mutex_unlock(&ub_lock);
    return s ? &s->site : NULL;
}

typedef void (*ub_handler1)(void *, uintptr_t);
typedef void (*ub_handler2)(void *, uintptr_t, uintptr_t);

/* Reports outside a simulated thread: the runtime's handler, else stderr.
 * Negation's handler takes one value, the others two. */
static void forward(const char *name, void *data, uintptr_t a, uintptr_t b, const ub_loc *loc, const char *msg)
{
    void *next = dlsym(RTLD_NEXT, name);
    if (next && strcmp(name, "__ubsan_handle_negate_overflow") == 0) {
        ((ub_handler1)(uintptr_t)next)(data, a);
        return;
    }
    if (next) {
        ((ub_handler2)(uintptr_t)next)(data, a, b);
        return;
    }
    fprintf(stderr, "%s:%u:%u: runtime error: %s\n", root_relative(loc->file), (unsigned)loc->line,
            (unsigned)loc->column, msg);
}

/* The finding, and the simulated thread stops before the operation runs
 * (model_fail does not return to it). */
static void report(const char *name, void *data, uintptr_t a, uintptr_t b, const ub_loc *loc, const char *what,
                   const char *msg)
{
    if (!model_cur) {
        forward(name, data, a, b, loc, msg);
        return;
    }
    mthread *t = (mthread *)model_cur;
    model_finding f;
    memset(&f, 0, sizeof f);
    f.kind = MODEL_FIND_UB;
    f.site[0] = site_of(data, loc, what);
    f.block[0] = t->blk->lin;
    f.thread[0] = t->lin;
    f.interval = t->blk->epoch;
    char who[96];
    model_thread_desc(t, who, sizeof who);
    snprintf(f.text, sizeof f.text, "undefined behaviour: %s at %s:%u by %s", msg, root_relative(loc->file),
             (unsigned)loc->line, who);
    model_fail(t, &f, SL_ERR_SIM);
}

SL_UB_API void __ubsan_handle_shift_out_of_bounds(void *data, uintptr_t lhs, uintptr_t rhs);
SL_UB_API void __ubsan_handle_add_overflow(void *data, uintptr_t lhs, uintptr_t rhs);
SL_UB_API void __ubsan_handle_sub_overflow(void *data, uintptr_t lhs, uintptr_t rhs);
SL_UB_API void __ubsan_handle_mul_overflow(void *data, uintptr_t lhs, uintptr_t rhs);
SL_UB_API void __ubsan_handle_negate_overflow(void *data, uintptr_t v);
SL_UB_API void __ubsan_handle_divrem_overflow(void *data, uintptr_t lhs, uintptr_t rhs);

void __ubsan_handle_shift_out_of_bounds(void *data, uintptr_t lhs, uintptr_t rhs)
{
    const ub_shift *d = data;
    char l[48], r[48], msg[200];
    value_text(l, sizeof l, d->lhs, lhs);
    value_text(r, sizeof r, d->rhs, rhs);
    const unsigned bits = type_bits(d->lhs);
    if (r[0] == '-')
        snprintf(msg, sizeof msg, "shift exponent %s is negative", r);
    else if (strtoull(r, NULL, 10) >= bits)
        snprintf(msg, sizeof msg, "shift exponent %s is too large for %u-bit type %s", r, bits, d->lhs->name);
    else if (l[0] == '-')
        snprintf(msg, sizeof msg, "left shift of negative value %s", l);
    else
        snprintf(msg, sizeof msg, "left shift of %s by %s places cannot be represented in type %s", l, r,
                 d->lhs->name);
    report("__ubsan_handle_shift_out_of_bounds", data, lhs, rhs, &d->loc, "shift", msg);
}

static void overflow(const char *name, void *data, uintptr_t lhs, uintptr_t rhs, char op)
{
    const ub_overflow *d = data;
    char l[48], r[48], msg[200];
    value_text(l, sizeof l, d->type, lhs);
    value_text(r, sizeof r, d->type, rhs);
    snprintf(msg, sizeof msg, "signed integer overflow: %s %c %s cannot be represented in type %s", l, op, r,
             d->type->name);
    report(name, data, lhs, rhs, &d->loc, "overflow", msg);
}

void __ubsan_handle_add_overflow(void *data, uintptr_t lhs, uintptr_t rhs)
{
    overflow("__ubsan_handle_add_overflow", data, lhs, rhs, '+');
}

void __ubsan_handle_sub_overflow(void *data, uintptr_t lhs, uintptr_t rhs)
{
    overflow("__ubsan_handle_sub_overflow", data, lhs, rhs, '-');
}

void __ubsan_handle_mul_overflow(void *data, uintptr_t lhs, uintptr_t rhs)
{
    overflow("__ubsan_handle_mul_overflow", data, lhs, rhs, '*');
}

void __ubsan_handle_negate_overflow(void *data, uintptr_t v)
{
    const ub_overflow *d = data;
    char x[48], msg[200];
    value_text(x, sizeof x, d->type, v);
    snprintf(msg, sizeof msg, "negation of %s cannot be represented in type %s", x, d->type->name);
    report("__ubsan_handle_negate_overflow", data, v, 0, &d->loc, "overflow", msg);
}

void __ubsan_handle_divrem_overflow(void *data, uintptr_t lhs, uintptr_t rhs)
{
    const ub_overflow *d = data;
    char l[48], r[48], msg[200];
    value_text(l, sizeof l, d->type, lhs);
    value_text(r, sizeof r, d->type, rhs);
    if (strcmp(r, "0") == 0)
        snprintf(msg, sizeof msg, "division by zero");
    else
        snprintf(msg, sizeof msg, "division of %s by %s cannot be represented in type %s", l, r, d->type->name);
    report("__ubsan_handle_divrem_overflow", data, lhs, rhs, &d->loc, "division", msg);
}
