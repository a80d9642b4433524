/* One case of the differential harness: make the input, compute the
 * reference, run the algorithm (repeatedly for --repeat) and check it. */
#include "harness.h"

#include <stdlib.h>
#include <string.h>

#include "cpu/cpu.h"
#include "ref_exact.h"

/* Bytes that fill the guard zones around an output buffer. */
#define GUARD_BYTE 0x5a

bool verify_status_is_skip(sl_status st) { return st == SL_ERR_NO_GPU || st == SL_ERR_UNSUPPORTED; }

typedef struct {
    unsigned char *in, *in_copy, *ref, *poison, *first, *out_block;
    double *abs_prefix;
    size_t *depth;
} buffers;

/* malloc that never returns NULL for a zero size, so NULL means failure. */
static void *alloc(size_t size) { return malloc(size ? size : 1); }

static void free_buffers(buffers *b)
{
    free(b->in);
    free(b->in_copy);
    free(b->ref);
    free(b->poison);
    free(b->first);
    free(b->out_block);
    free(b->abs_prefix);
    free(b->depth);
}

static bool is_float_add(const verify_case *c) { return SL_TYPE_IS_FLOAT(c->type) && c->op == SL_ADD; }

static bool is_reduce(const verify_case *c) { return c->algo->kind == SL_KIND_REDUCE; }

/* The reference into b->ref (and b->abs_prefix for float add). Reductions
 * use the last inclusive prefix of the exact scan. */
static sl_status reference(const verify_case *c, buffers *b)
{
    if (!is_float_add(c))
        return is_reduce(c) ? cpu_reduce_seq(c->type, c->op, b->in, c->n, b->ref)
                            : cpu_scan_seq(c->type, c->op, c->exclusive, b->in, b->ref, c->n);
    bool excl = c->exclusive && !is_reduce(c);
    sl_status st = verify_exact_scan(c->type, excl, b->in, c->n, b->ref, b->abs_prefix);
    if (st != SL_OK || !is_reduce(c))
        return st;
    size_t es = SL_TYPE_SIZE(c->type);
    if (c->n == 0) {
        memset(b->ref, 0, es); /* +0, the identity */
        b->abs_prefix[0] = 0.0;
    } else {
        memmove(b->ref, b->ref + (c->n - 1) * es, es);
        b->abs_prefix[0] = b->abs_prefix[c->n - 1];
    }
    return SL_OK;
}

/* Depth of output i: the algorithm's, or sequential order's. */
static size_t depth_of(const verify_case *c, const sl_scan_args *args, size_t i)
{
    if (is_reduce(c))
        i = c->n ? c->n - 1 : 0; /* the reduction is the last inclusive prefix */
    if (c->algo->depth)
        return c->algo->depth(args, i);
    if (c->exclusive && !is_reduce(c))
        return i ? i - 1 : 0;
    return i;
}

static sl_status alloc_buffers(const verify_case *c, size_t len, buffers *b)
{
    size_t es = SL_TYPE_SIZE(c->type);
    /* The reference holds n elements even for a reduction: the exact
     * scan computes every prefix. */
    size_t ref_len = c->n > len ? c->n : len;
    if (ref_len == 0)
        ref_len = 1;
    b->in = alloc(c->n * es);
    b->in_copy = alloc(c->n * es);
    b->ref = alloc(ref_len * es);
    b->poison = alloc(len * es);
    b->first = alloc(len * es);
    b->out_block = alloc((len + 2 * VERIFY_GUARD_ELEMS) * es);
    if (is_float_add(c)) {
        b->abs_prefix = alloc(ref_len * sizeof *b->abs_prefix);
        b->depth = alloc(len * sizeof *b->depth);
    }
    bool ok = b->in && b->in_copy && b->ref && b->poison && b->first && b->out_block &&
              (!is_float_add(c) || (b->abs_prefix && b->depth));
    return ok ? SL_OK : SL_ERR_NOMEM;
}

/* Whether the guard zones are intact; on damage, the offset (in elements
 * from out[0]) of the nearest damaged element goes to *where_at. */
static bool guards_intact(const unsigned char *block, size_t len, size_t es, verify_where *where,
                          size_t *at)
{
    size_t g = VERIFY_GUARD_ELEMS * es;
    for (size_t k = g; k-- > 0;)
        if (block[k] != GUARD_BYTE) {
            *where = VERIFY_WHERE_BEFORE;
            *at = VERIFY_GUARD_ELEMS - k / es;
            return false;
        }
    const unsigned char *after = block + g + len * es;
    for (size_t k = 0; k < g; k++)
        if (after[k] != GUARD_BYTE) {
            *where = VERIFY_WHERE_AFTER;
            *at = len + k / es;
            return false;
        }
    return true;
}

/* Check one run's output: guards, input, values. Returns false on a
 * failure, with r filled. */
static bool check_run(const verify_case *c, const buffers *b, const unsigned char *out, size_t len,
                      verify_case_result *r)
{
    size_t es = SL_TYPE_SIZE(c->type);
    size_t at = 0;
    if (!guards_intact(b->out_block, len, es, &r->where, &at)) {
        memset(&r->mismatch, 0, sizeof r->mismatch);
        r->mismatch.found = true;
        r->mismatch.index = at;
        return false;
    }
    if (!verify_compare_exact(c->type, b->in_copy, b->in, c->n, &r->mismatch)) {
        r->where = VERIFY_WHERE_INPUT;
        return false;
    }
    r->where = VERIFY_WHERE_VALUE;
    if (r->exact)
        return verify_compare_exact(c->type, b->ref, out, len, &r->mismatch);
    double eta = 0.0;
    bool ok = verify_compare_bound(c->type, b->ref, out, b->abs_prefix, b->depth, len, &eta,
                                   &r->mismatch);
    if (eta > r->max_eta)
        r->max_eta = eta;
    return ok;
}

static sl_status run_checked(const verify_case *c, buffers *b, size_t len, verify_case_result *r)
{
    size_t es = SL_TYPE_SIZE(c->type);
    unsigned char *out = b->out_block + VERIFY_GUARD_ELEMS * es;
    sl_scan_args args = {.type = c->type, .op = c->op, .exclusive = c->exclusive && !is_reduce(c),
                         .in = b->in, .out = out, .n = c->n};
    if (is_float_add(c))
        for (size_t i = 0; i < len; i++)
            b->depth[i] = depth_of(c, &args, i);
    /* Outputs start as the complement of the reference, so an output the
     * algorithm forgets to write can never pass by luck. */
    for (size_t k = 0; k < len * es; k++)
        b->poison[k] = (unsigned char)~b->ref[k];
    int repeat = c->repeat < 1 ? 1 : c->repeat;
    for (int run = 0; run < repeat; run++) {
        memset(b->out_block, GUARD_BYTE, (len + 2 * VERIFY_GUARD_ELEMS) * es);
        memcpy(out, b->poison, len * es);
        sl_status st = c->algo->run[c->backend](&args);
        if (st != SL_OK)
            return st;
        if (!check_run(c, b, out, len, r)) {
            r->run = run;
            return SL_ERR_CHECK;
        }
        if (run == 0)
            memcpy(b->first, out, len * es);
        else if (memcmp(b->first, out, len * es) != 0)
            r->deterministic = false;
    }
    return SL_OK;
}

sl_status verify_run_case(const verify_case *c, verify_case_result *r)
{
    memset(r, 0, sizeof *r);
    r->deterministic = true;
    r->exact = !is_float_add(c);
    if (!c->algo || c->backend >= SL_BACKEND_COUNT || c->type >= SL_TYPE_COUNT ||
        c->op >= SL_OP_COUNT || !SL_OP_APPLIES(c->op, c->type) ||
        !verify_dist_applies(c->dist, c->type))
        return r->status = SL_ERR_ARG;
    if (!verify_algo_runs_on(c->algo, c->backend))
        return r->status = SL_ERR_UNSUPPORTED;
    size_t len = is_reduce(c) ? 1 : c->n;
    size_t es = SL_TYPE_SIZE(c->type);
    buffers b = {0};
    sl_status st = alloc_buffers(c, len, &b);
    if (st == SL_OK)
        st = verify_fill_input(c->type, c->op, c->dist, c->seed, c->n, b.in);
    if (st == SL_OK) {
        memcpy(b.in_copy, b.in, c->n * es);
        st = reference(c, &b);
    }
    if (st == SL_OK)
        st = run_checked(c, &b, len, r);
    free_buffers(&b);
    return r->status = st;
}
