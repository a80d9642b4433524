/* One case of the differential harness: make the input, compute the
 * reference, run the algorithm (repeatedly for --repeat) and check it. */
#include "verify/harness/harness.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "verify/harness/app_ref.h"
#include "cpu/cpu.h"
#include "cuda/apps/app_defs.h"
#include "verify/harness/ref_exact.h"
#include "model/model.h"

/* Bytes that fill the guard zones around an output buffer. */
#define GUARD_BYTE 0x5a

bool verify_status_is_skip(sl_status st) { return st == SL_ERR_NO_GPU || st == SL_ERR_UNSUPPORTED; }

static bool allow_races_default;

void verify_set_allow_races(bool allow) { allow_races_default = allow; }

/* Keep the findings of s as text in r: whole lines, as many as fit. */
static void keep_findings_text(const model_stats *s, verify_case_result *r)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return;
    model_print_findings(f, s);
    if (fclose(f) != 0 || !text) {
        free(text);
        return;
    }
    size_t keep = len < sizeof r->findings_text ? len : sizeof r->findings_text - 1;
    if (keep < len) /* cut after the last whole line that fits */
        while (keep > 0 && text[keep - 1] != '\n')
            keep--;
    memcpy(r->findings_text, text, keep);
    r->findings_text[keep] = '\0';
    free(text);
}

/* Schedules a sim case runs under (one elsewhere), and the one of run k:
 * the default schedule first, then explored ones drawn from the seed. */
static int schedules_of(const verify_case *c)
{
    return c->backend == SL_SIM && c->schedules > 1 ? c->schedules : 1;
}

static uint64_t schedule_of(const verify_case *c, int run)
{
    const int k = run % schedules_of(c);
    if (k == 0)
        return 0;
    uint64_t z = c->seed + (uint64_t)k * UINT64_C(0x9e3779b97f4a7c15);
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    z ^= z >> 31;
    return z ? z : 1;
}

/* The schedule of the persistent run: an explored one, so that tiles
 * publish out of order and a look-back meets aggregates and unpublished
 * tiles, waits, and moves to the window before (the default schedule
 * publishes every prefix before its successor looks). */
static uint64_t persistent_schedule(const verify_case *c)
{
    if (c->schedules == 1) /* asked for the default schedule alone */
        return 0;
    uint64_t z = c->seed ^ UINT64_C(0x70657273697374); /* "persist" */
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    z ^= z >> 31;
    return z ? z : 1;
}

/* Run the case's algorithm once. On the simulator the run gets its own
 * counts, so that what the simulator found (a race, an out-of-bounds
 * access, ...) fails the case like a wrong value: SL_ERR_SIM with the
 * sites in r->findings_text. Races alone pass when they are allowed. */
/* The persistent grid a sim run calls for (0: none): a launch whose grid an
 * occupancy query sized took more blocks than the simulator's stand-in for
 * a grid-stride kernel's resident blocks (4), so it ran a block per tile;
 * the GPU runs such inputs on persistent blocks once the tiles outnumber
 * what it holds at once. Half the tiles' blocks is what the device's
 * occupancy comes to, scaled to the simulated size: every block scans two
 * tiles or more, so the look-back scans take their pipelined path
 * (sp_scan_pipe, both staging areas). */
static unsigned persistent_grid(const model_stats *s)
{
    for (size_t i = 0; i < s->nlaunch_records; i++)
        if (s->launch[i].occupancy_grid && s->launch[i].blocks > VERIFY_GRID_STRIDE_BLOCKS)
            return s->launch[i].blocks / 2;
    return 0;
}

static sl_status run_algo(const verify_case *c, sl_scan_args *args, uint64_t schedule, unsigned occupancy,
                          unsigned *persistent, verify_case_result *r)
{
    if (c->backend != SL_SIM)
        return c->algo->run[c->backend](args);
    model_stats s;
    model_stats_init(&s);
    s.cfg.quiet = true;
    s.cfg.schedule = schedule;
    s.cfg.pct_depth = c->pct;
    s.cfg.occupancy = occupancy;
    args->sim = &s;
    sl_status st = c->algo->run[SL_SIM](args);
    args->sim = NULL;
    if (persistent && !c->one_grid)
        *persistent = persistent_grid(&s);
    bool allow = c->allow_races || allow_races_default;
    uint64_t found = model_findings(&s, allow);
    r->races += s.races;
    if (found && (st == SL_OK || st == SL_ERR_SIM)) {
        r->findings += found;
        r->where = VERIFY_WHERE_FINDING;
        if (!r->findings_text[0])
            keep_findings_text(&s, r);
        st = SL_ERR_SIM;
    }
    model_stats_free(&s);
    return st;
}

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

/* Where a case's input comes from and where run 0's output goes. */
typedef struct {
    const void *data; /* NULL: generated from dist and seed */
    void *keep;       /* NULL: nowhere */
} case_io;

/* The case's input: the given data, or generated from dist and seed. */
static sl_status fill_input(const verify_case *c, const case_io *io, void *in)
{
    if (!io->data)
        return verify_fill_input(c->type, c->op, c->dist, c->seed, c->n, in);
    if (c->n)
        memcpy(in, io->data, c->n * SL_TYPE_SIZE(c->type));
    return SL_OK;
}

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
    /* bytes beyond a size_t would wrap to a buffer too small (elements
     * are 8 bytes at most, as abs_prefix's are) */
    if (ref_len > SIZE_MAX / 8 - 2 * VERIFY_GUARD_ELEMS)
        return SL_ERR_ARG;
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

static sl_status run_checked(const verify_case *c, const case_io *io, buffers *b, size_t len,
                             verify_case_result *r)
{
    size_t es = SL_TYPE_SIZE(c->type);
    unsigned char *out = b->out_block + VERIFY_GUARD_ELEMS * es;
    sl_scan_args args = {.type = c->type, .op = c->op, .exclusive = c->exclusive && !is_reduce(c),
                         .in = b->in, .out = out, .n = c->n, .block = c->block, .param = c->param};
    if (is_float_add(c))
        for (size_t i = 0; i < len; i++)
            b->depth[i] = depth_of(c, &args, i);
    /* Outputs start as the complement of the reference, so an output the
     * algorithm forgets to write can never pass by luck. */
    for (size_t k = 0; k < len * es; k++)
        b->poison[k] = (unsigned char)~b->ref[k];
    const int repeat = c->repeat < 1 ? 1 : c->repeat, runs = repeat * schedules_of(c);
    unsigned grid = 0; /* run 0 says whether a persistent run follows the others */
    for (int run = 0; run < runs + (grid ? 1 : 0); run++) {
        memset(b->out_block, GUARD_BYTE, (len + 2 * VERIFY_GUARD_ELEMS) * es);
        memcpy(out, b->poison, len * es);
        r->schedule = run < runs ? schedule_of(c, run) : persistent_schedule(c);
        r->occupancy = run < runs ? 0 : grid;
        sl_status st = run_algo(c, &args, r->schedule, r->occupancy, run == 0 ? &grid : NULL, r);
        if (st != SL_OK) {
            r->run = run;
            return st;
        }
        if (run == 0 && io->keep) {
            memcpy(io->keep, out, len * es);
            r->kept = true;
        }
        if (!check_run(c, b, out, len, r)) {
            r->run = run;
            return SL_ERR_CHECK;
        }
        r->schedule = 0;
        r->occupancy = 0;
        if (run == 0)
            memcpy(b->first, out, len * es);
        else if (run < runs && memcmp(b->first, out, len * es) != 0)
            r->deterministic = false;
    }
    return SL_OK;
}

/* --- applications: a count, then elements (cuda/apps/app_defs.h) --------- */

/* The buffers of one application case; sizes in bytes. */
typedef struct {
    unsigned char *in, *in_copy, *ref, *first, *block;
    size_t in_bytes, out_bytes;
} app_buffers;

static void free_app_buffers(app_buffers *b)
{
    free(b->in);
    free(b->in_copy);
    free(b->ref);
    free(b->first);
    free(b->block);
}

static uint64_t app_count(const unsigned char *out)
{
    uint64_t c;
    memcpy(&c, out, sizeof c);
    return c;
}

/* Elements after the header that the contract defines for this count. */
static size_t app_defined(const verify_case *c, uint64_t count)
{
    return sl_app_defines_all(c->algo->kind) ? c->n : (size_t)count;
}

/* Check one run of an application: guards, input, count, elements. */
static bool check_app_run(const verify_case *c, const app_buffers *b, const unsigned char *out,
                          verify_case_result *r)
{
    size_t at = 0;
    memset(&r->mismatch, 0, sizeof r->mismatch);
    if (!guards_intact(b->block, b->out_bytes, 1, &r->where, &at)) {
        r->mismatch.found = true;
        r->mismatch.index = at;
        return false;
    }
    if (!verify_compare_exact(c->type, b->in_copy, b->in, c->n, &r->mismatch)) {
        r->where = VERIFY_WHERE_INPUT;
        return false;
    }
    uint64_t want = app_count(b->ref), got = app_count(out);
    if (want != got) {
        r->where = VERIFY_WHERE_COUNT;
        r->mismatch.found = true;
        memcpy(r->mismatch.expected, &want, sizeof want);
        memcpy(r->mismatch.got, &got, sizeof got);
        return false;
    }
    r->where = VERIFY_WHERE_VALUE;
    return verify_compare_exact(r->value_type, b->ref + SL_APP_HEADER_BYTES, out + SL_APP_HEADER_BYTES,
                                app_defined(c, want), &r->mismatch);
}

/* An application case: its own buffers (the output is bytes, not n
 * elements), an exact comparison, and the same guard, input, poison and
 * repeat checks as a scan. */
static sl_status run_app_case(const verify_case *c, const case_io *io, verify_case_result *r)
{
    const size_t es = SL_TYPE_SIZE(c->type), g = VERIFY_GUARD_ELEMS;
    app_buffers b = {0};
    if (c->op != SL_ADD)
        return SL_ERR_UNSUPPORTED;
    r->value_type = c->algo->kind == SL_KIND_PACK ? SL_I64 : c->type;
    b.out_bytes = verify_app_out_bytes(c->algo->kind, c->type, c->n, c->param);
    if (b.out_bytes == 0 || b.out_bytes > SIZE_MAX - 2 * g || c->n > SIZE_MAX / es)
        return SL_ERR_NOMEM;
    b.in_bytes = c->n * es;
    b.in = alloc(b.in_bytes);
    b.in_copy = alloc(b.in_bytes);
    b.ref = alloc(b.out_bytes);
    b.first = alloc(b.out_bytes);
    b.block = alloc(b.out_bytes + 2 * g);
    sl_status st = b.in && b.in_copy && b.ref && b.first && b.block ? SL_OK : SL_ERR_NOMEM;
    if (st == SL_OK)
        st = fill_input(c, io, b.in);
    if (st == SL_OK) {
        memcpy(b.in_copy, b.in, b.in_bytes);
        memset(b.ref, 0, b.out_bytes);
        st = verify_app_reference(c->algo->kind, c->type, b.in, c->n, c->param, b.ref);
    }
    unsigned char *out = b.block + g;
    sl_scan_args args = {.type = c->type, .op = c->op, .in = b.in, .out = out, .n = c->n,
                         .block = c->block, .param = c->param};
    const int repeat = c->repeat < 1 ? 1 : c->repeat, runs = repeat * schedules_of(c);
    unsigned grid = 0; /* as in run_checked */
    for (int run = 0; run < runs + (grid ? 1 : 0) && st == SL_OK; run++) {
        memset(b.block, GUARD_BYTE, b.out_bytes + 2 * g);
        /* the complement of the reference: nothing passes unwritten */
        for (size_t k = 0; k < b.out_bytes; k++)
            out[k] = (unsigned char)~b.ref[k];
        r->schedule = run < runs ? schedule_of(c, run) : persistent_schedule(c);
        r->occupancy = run < runs ? 0 : grid;
        st = run_algo(c, &args, r->schedule, r->occupancy, run == 0 ? &grid : NULL, r);
        if (st != SL_OK) {
            r->run = run;
            break;
        }
        if (!check_app_run(c, &b, out, r)) {
            r->run = run;
            st = SL_ERR_CHECK;
        } else if ((r->schedule = 0), (r->occupancy = 0), run == 0) {
            memcpy(b.first, out, b.out_bytes);
        } else if (run < runs && memcmp(b.first, out, SL_APP_HEADER_BYTES + app_defined(c, app_count(out)) *
                                                                 (r->value_type == SL_I64 ? 8 : es)) != 0) {
            r->deterministic = false;
        }
    }
    free_app_buffers(&b);
    return st;
}

sl_status verify_run_case(const verify_case *c, verify_case_result *r)
{
    return verify_run_case_on(c, NULL, NULL, r);
}

sl_status verify_run_case_on(const verify_case *c, const void *data, void *keep,
                             verify_case_result *r)
{
    const case_io io = {data, keep};
    memset(r, 0, sizeof *r);
    r->deterministic = true;
    r->exact = !is_float_add(c);
    r->value_type = c->type;
    if (!c->algo || c->backend >= SL_BACKEND_COUNT || c->type >= SL_TYPE_COUNT ||
        c->op >= SL_OP_COUNT || !SL_OP_APPLIES(c->op, c->type) ||
        !verify_dist_applies(c->dist, c->type))
        return r->status = SL_ERR_ARG;
    if (!verify_algo_runs_on(c->algo, c->backend))
        return r->status = SL_ERR_UNSUPPORTED;
    if (SL_KIND_IS_APP(c->algo->kind)) {
        r->exact = true;
        return r->status = run_app_case(c, &io, r);
    }
    size_t len = is_reduce(c) ? 1 : c->n;
    size_t es = SL_TYPE_SIZE(c->type);
    buffers b = {0};
    sl_status st = alloc_buffers(c, len, &b);
    if (st == SL_OK)
        st = fill_input(c, &io, b.in);
    if (st == SL_OK) {
        memcpy(b.in_copy, b.in, c->n * es);
        st = reference(c, &b);
    }
    if (st == SL_OK)
        st = run_checked(c, &io, &b, len, r);
    free_buffers(&b);
    return r->status = st;
}

static void describe(const verify_case_result *r, char *buf, size_t size);

void verify_describe_result(const verify_case_result *r, char *buf, size_t size)
{
    describe(r, buf, size);
    /* the persistent run has no option of verify's: say how to replay it */
    const size_t len = strlen(buf);
    if (r->occupancy && len < size)
        snprintf(buf + len, size - len, " (on a persistent grid of %u blocks, as 'scanlab simulate "
                 "--occupancy %u' runs it)", r->occupancy, r->occupancy);
}

static void describe(const verify_case_result *r, char *buf, size_t size)
{
    char e[96], got[96];
    const verify_mismatch *m = &r->mismatch;
    if (r->status == SL_ERR_SIM && r->findings_text[0]) {
        /* the first finding; findings_text holds every one */
        int len = (int)strcspn(r->findings_text, "\n");
        snprintf(buf, size, "the simulator found %llu error%s: %.*s",
                 (unsigned long long)r->findings, r->findings == 1 ? "" : "s", len,
                 r->findings_text);
        return;
    }
    if (r->status == SL_ERR_ARG) {
        snprintf(buf, size, "the algorithm refused its settings (block size, parameter or size; "
                            "docs/algorithms.md lists each algorithm's)");
        return;
    }
    if (r->status != SL_ERR_CHECK) {
        snprintf(buf, size, "stopped with an error: %s", sl_status_str(r->status));
        return;
    }
    verify_format_value(r->value_type, m->expected, e, sizeof e);
    verify_format_value(r->value_type, m->got, got, sizeof got);
    switch (r->where) {
    case VERIFY_WHERE_COUNT: {
        uint64_t ce, cg;
        memcpy(&ce, m->expected, sizeof ce);
        memcpy(&cg, m->got, sizeof cg);
        snprintf(buf, size, "output count differs: expected %" PRIu64 ", got %" PRIu64, ce, cg);
        break;
    }
    case VERIFY_WHERE_BEFORE:
        snprintf(buf, size, "wrote outside its output, %zu element(s) before out[0]", m->index);
        break;
    case VERIFY_WHERE_AFTER:
        snprintf(buf, size, "wrote outside its output, at out[%zu]", m->index);
        break;
    case VERIFY_WHERE_INPUT:
        snprintf(buf, size, "modified its input at index %zu: was %s, now %s", m->index, e, got);
        break;
    default:
        if (r->exact)
            snprintf(buf, size, "first difference at index %zu: expected %s, got %s", m->index, e,
                     got);
        else
            snprintf(buf, size,
                     "first failure at index %zu: exact %s, got %s: eta %.4g over the bound %.4g",
                     m->index, e, got, m->eta, m->bound);
    }
}
