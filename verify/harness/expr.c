/* A recursive-descent evaluator of the expressions of expr.h. */
#include "verify/harness/expr.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    const char *s, *p;
    int64_t n;
    char *why;
    size_t why_size;
    bool failed;
    int depth;
} parser;

/* Nesting beyond this is refused rather than recursed into. */
#define EXPR_MAX_DEPTH 64

static int64_t fail(parser *q, const char *what)
{
    if (!q->failed)
        snprintf(q->why, q->why_size, "%s at offset %td of '%s'", what, q->p - q->s, q->s);
    q->failed = true;
    return 0;
}

static void skip_space(parser *q)
{
    while (isspace((unsigned char)*q->p))
        q->p++;
}

static bool take(parser *q, char c)
{
    skip_space(q);
    if (*q->p != c)
        return false;
    q->p++;
    return true;
}

static int64_t sum(parser *q);

static int64_t call2(parser *q, bool is_max)
{
    if (!take(q, '('))
        return fail(q, "expected '('");
    int64_t a = sum(q);
    if (!take(q, ','))
        return fail(q, "expected ','");
    int64_t b = sum(q);
    if (!take(q, ')'))
        return fail(q, "expected ')'");
    return is_max ? (a > b ? a : b) : (a < b ? a : b);
}

static int64_t primary(parser *q)
{
    if (++q->depth > EXPR_MAX_DEPTH)
        return fail(q, "nested too deeply");
    skip_space(q);
    int64_t v = 0;
    if (take(q, '(')) {
        v = sum(q);
        if (!take(q, ')'))
            v = fail(q, "expected ')'");
    } else if (take(q, '-')) {
        v = primary(q);
        if (v == INT64_MIN)
            v = fail(q, "overflow");
        v = -v;
    } else if (isdigit((unsigned char)*q->p)) {
        while (isdigit((unsigned char)*q->p)) {
            const int d = *q->p++ - '0';
            if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, d, &v))
                return fail(q, "number too large");
        }
    } else if (strncmp(q->p, "min", 3) == 0 || strncmp(q->p, "max", 3) == 0) {
        const bool is_max = q->p[1] == 'a';
        q->p += 3;
        v = call2(q, is_max);
    } else if (*q->p == 'n' && !isalnum((unsigned char)q->p[1]) && q->p[1] != '_') {
        q->p++;
        v = q->n;
    } else {
        v = fail(q, "expected a number, n, min(a, b), max(a, b) or '('");
    }
    q->depth--;
    return v;
}

static int64_t product(parser *q)
{
    int64_t v = primary(q);
    for (;;) {
        skip_space(q);
        const char op = *q->p;
        if (op != '*' && op != '/' && op != '%')
            return v;
        q->p++;
        const int64_t r = primary(q);
        if (q->failed)
            return 0;
        if (op == '*') {
            if (__builtin_mul_overflow(v, r, &v))
                return fail(q, "overflow");
        } else if (r == 0) {
            return fail(q, "division by zero");
        } else if (v == INT64_MIN && r == -1) {
            return fail(q, "overflow");
        } else {
            v = op == '/' ? v / r : v % r;
        }
    }
}

static int64_t sum(parser *q)
{
    int64_t v = product(q);
    for (;;) {
        skip_space(q);
        const char op = *q->p;
        if (op != '+' && op != '-')
            return v;
        q->p++;
        const int64_t r = product(q);
        if (q->failed)
            return 0;
        if (op == '+' ? __builtin_add_overflow(v, r, &v) : __builtin_sub_overflow(v, r, &v))
            return fail(q, "overflow");
    }
}

sl_status verify_expr_eval(const char *s, int64_t n, int64_t *out, char *why, size_t why_size)
{
    parser q = {s, s, n, why, why_size, false, 0};
    const int64_t v = sum(&q);
    skip_space(&q);
    if (!q.failed && *q.p)
        fail(&q, "unexpected character");
    if (q.failed)
        return SL_ERR_ARG;
    *out = v;
    return SL_OK;
}
