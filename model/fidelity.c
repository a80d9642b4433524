/* Reads docs/data/fidelity-<gpu>.json (model/fidelity.h): a small JSON
 * reader that keeps the top level's "device" and "date" and the flat
 * objects of "rows", and skips every other value. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/fidelity.h"

typedef struct {
    const char *p, *end;
    bool bad;
} reader;

static void ws(reader *r)
{
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\n' || *r->p == '\t' || *r->p == '\r'))
        r->p++;
}

static bool eat(reader *r, char c)
{
    ws(r);
    if (r->p < r->end && *r->p == c) {
        r->p++;
        return true;
    }
    return false;
}

/* A string into buf (cut to size; escapes kept as the character after the
 * backslash, enough for names). */
static bool string(reader *r, char *buf, size_t size)
{
    if (!eat(r, '"'))
        return false;
    size_t k = 0;
    while (r->p < r->end && *r->p != '"') {
        char c = *r->p++;
        if (c == '\\' && r->p < r->end)
            c = *r->p++;
        if (buf && k + 1 < size)
            buf[k++] = c;
    }
    if (buf && size)
        buf[k] = '\0';
    if (r->p >= r->end)
        return false;
    r->p++;
    return true;
}

/* A number, or null (*is_null set). */
static bool number(reader *r, double *v, bool *is_null)
{
    ws(r);
    *is_null = false;
    if (r->end - r->p >= 4 && strncmp(r->p, "null", 4) == 0) {
        r->p += 4;
        *is_null = true;
        return true;
    }
    char *e;
    *v = strtod(r->p, &e);
    if (e == r->p || e > r->end)
        return false;
    r->p = e;
    return true;
}

static bool skip(reader *r, int depth)
{
    ws(r);
    if (r->p >= r->end || depth > 64)
        return false;
    char c = *r->p;
    if (c == '"')
        return string(r, NULL, 0);
    if (c == '{' || c == '[') {
        const char close = c == '{' ? '}' : ']';
        r->p++;
        if (eat(r, close))
            return true;
        do {
            if (c == '{' && (!string(r, NULL, 0) || !eat(r, ':')))
                return false;
            if (!skip(r, depth + 1))
                return false;
        } while (eat(r, ','));
        return eat(r, close);
    }
    while (r->p < r->end && (isalnum((unsigned char)*r->p) || strchr("+-.", *r->p)))
        r->p++;
    return true;
}

/* Numbers of any size or sign into the row's integer fields: a damaged
 * file gives a wrong value, never a conversion out of range. */
static uint64_t to_u64(double v)
{
    return v >= 0 && v < 1.8e19 ? (uint64_t)v : 0;
}

static int to_int(double v)
{
    return v >= -2e9 && v <= 2e9 ? (int)v : 0;
}

static bool is_number_key(const char *key)
{
    static const char *const keys[] = {"n",        "block",        "launch", "predicted",
                                       "measured", "measured_own", "bytes",  "poll_sectors"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (!strcmp(key, keys[i]))
            return true;
    return false;
}

static void set_number(model_fid_row *x, const char *key, double v, bool null)
{
    if (!strcmp(key, "n"))
        x->n = null ? 0 : to_u64(v);
    else if (!strcmp(key, "block"))
        x->block = null || v > 4e9 ? 0 : (unsigned)to_u64(v);
    else if (!strcmp(key, "launch"))
        x->launch = null ? 0 : to_int(v);
    else if (!strcmp(key, "predicted"))
        x->has_predicted = !null, x->predicted = v;
    else if (!strcmp(key, "measured"))
        x->has_measured = !null, x->measured = v;
    else if (!strcmp(key, "measured_own"))
        x->has_own = !null, x->own = v;
    else if (!strcmp(key, "bytes"))
        x->bytes = null ? 0 : v;
    else
        x->poll_sectors = null ? 0 : v;
}

static bool row(reader *r, model_fid_row *x)
{
    memset(x, 0, sizeof *x);
    if (!eat(r, '{'))
        return false;
    if (eat(r, '}'))
        return true;
    do {
        char key[32];
        if (!string(r, key, sizeof key) || !eat(r, ':'))
            return false;
        char *dst = !strcmp(key, "algo")     ? x->algo
                    : !strcmp(key, "kernel") ? x->kernel
                    : !strcmp(key, "type")   ? x->type
                    : !strcmp(key, "metric") ? x->metric
                                             : NULL;
        size_t dsize = !strcmp(key, "algo")     ? sizeof x->algo
                       : !strcmp(key, "kernel") ? sizeof x->kernel
                       : !strcmp(key, "type")   ? sizeof x->type
                                                : sizeof x->metric;
        double v = 0;
        bool null = false;
        if (dst) {
            if (!string(r, dst, dsize))
                return false;
        } else if (is_number_key(key)) {
            if (!number(r, &v, &null))
                return false;
            set_number(x, key, v, null);
        } else if (!skip(r, 1)) {
            return false;
        }
    } while (eat(r, ','));
    return eat(r, '}');
}

static sl_status parse(reader *r, model_fid *f)
{
    if (!eat(r, '{'))
        return SL_ERR_ARG;
    size_t cap = 0;
    do {
        char key[32];
        if (!string(r, key, sizeof key) || !eat(r, ':'))
            return SL_ERR_ARG;
        bool null;
        double v;
        ws(r);
        if ((!strcmp(key, "device") || !strcmp(key, "date")) && r->p < r->end && *r->p == '"') {
            if (!string(r, !strcmp(key, "device") ? f->device : f->date,
                        !strcmp(key, "device") ? sizeof f->device : sizeof f->date))
                return SL_ERR_ARG;
        } else if (!strcmp(key, "rows")) {
            if (!eat(r, '['))
                return SL_ERR_ARG;
            if (eat(r, ']'))
                continue;
            do {
                if (f->nrows == cap) {
                    cap = cap ? 2 * cap : 256;
                    model_fid_row *n = realloc(f->rows, cap * sizeof *n);
                    if (!n)
                        return SL_ERR_NOMEM;
                    f->rows = n;
                }
                if (!row(r, &f->rows[f->nrows]))
                    return SL_ERR_ARG;
                f->nrows++;
            } while (eat(r, ','));
            if (!eat(r, ']'))
                return SL_ERR_ARG;
        } else if (!skip(r, 1)) {
            return SL_ERR_ARG;
        }
        (void)null;
        (void)v;
    } while (eat(r, ','));
    return eat(r, '}') ? SL_OK : SL_ERR_ARG;
}

sl_status model_fid_load(const char *path, model_fid *f)
{
    memset(f, 0, sizeof f[0]);
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return SL_ERR_IO;
    char *buf = NULL;
    size_t len = 0, cap = 0, got;
    do {
        if (len + 65536 > cap) {
            cap = 2 * cap + 65536;
            char *b = realloc(buf, cap);
            if (!b) {
                free(buf);
                fclose(fp);
                return SL_ERR_NOMEM;
            }
            buf = b;
        }
        got = fread(buf + len, 1, cap - len, fp);
        len += got;
    } while (got > 0);
    fclose(fp);
    buf[len] = '\0'; /* strtod stops here on a file that ends in a number */
    reader r = {buf, buf + len, false};
    sl_status st = parse(&r, f);
    free(buf);
    if (st != SL_OK) {
        if (st == SL_ERR_ARG)
            fprintf(stderr, "scanlab: %s: not a fidelity file (tools/fidelity.sh writes them)\n", path);
        model_fid_free(f);
    }
    return st;
}

void model_fid_free(model_fid *f)
{
    free(f->rows);
    memset(f, 0, sizeof *f);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A row and its place in the file, which breaks ties so that sums and
 * "the last row of a metric" follow the file's order. */
typedef struct {
    const model_fid_row *r;
    size_t at;
} row_ref;

static int cmp_at(size_t a, size_t b)
{
    return (a > b) - (a < b);
}

/* A launch: (algo, kernel, type, n, block, launch), as
 * tools/fidelity_data.py's launch_key. */
static int cmp_launch(const void *pa, const void *pb)
{
    const row_ref *a = pa, *b = pb;
    int c = strcmp(a->r->algo, b->r->algo);
    if (!c)
        c = strcmp(a->r->kernel, b->r->kernel);
    if (!c)
        c = strcmp(a->r->type, b->r->type);
    if (!c)
        c = (a->r->n > b->r->n) - (a->r->n < b->r->n);
    if (!c)
        c = (a->r->block > b->r->block) - (a->r->block < b->r->block);
    if (!c)
        c = (a->r->launch > b->r->launch) - (a->r->launch < b->r->launch);
    return c ? c : cmp_at(a->at, b->at);
}

static bool same_launch(const model_fid_row *a, const model_fid_row *b)
{
    return !strcmp(a->algo, b->algo) && !strcmp(a->kernel, b->kernel) && !strcmp(a->type, b->type) &&
           a->n == b->n && a->block == b->block && a->launch == b->launch;
}

static void count_metric(model_fid_summary *s, const model_fid_row *x)
{
    size_t k = 0;
    while (k < s->nmetrics && strcmp(s->metric[k].metric, x->metric) != 0)
        k++;
    if (k == s->nmetrics) {
        if (k == sizeof s->metric / sizeof s->metric[0])
            return;
        s->metric[s->nmetrics++].metric = x->metric;
    }
    model_fid_metric *m = &s->metric[k];
    m->total++;
    m->exact += x->has_predicted && x->predicted == x->measured;
    if (x->has_own) {
        m->own_total++;
        m->own_exact += x->has_predicted && x->predicted == x->own;
    }
}

/* A kernel whatever its type and operator: "bk_scan_i32_add" -> "bk_scan"
 * (the name less its last two "_" parts, as the Python's rsplit("_", 2)). */
typedef struct {
    const char *name;
    size_t len;
} kernel_name;

static kernel_name kernel_of(const char *k)
{
    const char *cut = strrchr(k, '_');
    if (cut) {
        const char *prev = cut;
        while (prev > k && prev[-1] != '_')
            prev--;
        if (prev > k)
            cut = prev - 1;
    }
    return (kernel_name){k, cut ? (size_t)(cut - k) : strlen(k)};
}

static int cmp_kernel(const void *pa, const void *pb)
{
    const kernel_name *a = pa, *b = pb;
    size_t m = a->len < b->len ? a->len : b->len;
    int c = strncmp(a->name, b->name, m);
    return c ? c : (a->len > b->len) - (a->len < b->len);
}

static size_t distinct_kernels(kernel_name *k, size_t n)
{
    qsort(k, n, sizeof *k, cmp_kernel);
    size_t d = 0;
    for (size_t i = 0; i < n; i++)
        d += i == 0 || cmp_kernel(&k[i - 1], &k[i]) != 0;
    return d;
}

/* The last row of metric among one launch's rows, or NULL. */
static const model_fid_row *in_launch(const row_ref *g, size_t len, const char *metric)
{
    for (size_t i = len; i-- > 0;)
        if (!strcmp(g[i].r->metric, metric))
            return g[i].r;
    return NULL;
}

/* rs[0..n) found and measured (the launch is compared on them). */
static bool all_measured(const model_fid_row *const *rs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!rs[i] || !rs[i]->has_measured)
            return false;
    return true;
}

/* The shared goals over one launch's rows: the l1tex counts, and the
 * kernel's own (only where both conflict rows carry measured_own). */
static void launch_goals(const row_ref *g, size_t len, model_fid_summary *s, kernel_name *shared_k,
                         kernel_name *own_k)
{
    /* conflicts first: the own goal reads l1[0] and l1[1] */
    const model_fid_row *l1[4] = {
        in_launch(g, len, MODEL_FID_CONFLICTS_LD), in_launch(g, len, MODEL_FID_CONFLICTS_ST),
        in_launch(g, len, MODEL_FID_WAVEFRONTS_LD), in_launch(g, len, MODEL_FID_WAVEFRONTS_ST)};
    if (all_measured(l1, 4)) {
        bool exact = true;
        for (size_t i = 0; i < 4; i++)
            exact &= l1[i]->has_predicted && l1[i]->predicted == l1[i]->measured;
        shared_k[s->shared_total++] = kernel_of(g[0].r->kernel);
        s->shared_exact += exact;
    }
    const model_fid_row *own[2] = {in_launch(g, len, MODEL_FID_OWN_WAVEFRONTS_LD),
                                   in_launch(g, len, MODEL_FID_OWN_WAVEFRONTS_ST)};
    if (!all_measured(own, 2) || !all_measured(l1, 2) || !l1[0]->has_own || !l1[1]->has_own)
        return;
    bool exact = true;
    for (size_t i = 0; i < 2; i++)
        exact &= own[i]->has_predicted && own[i]->predicted == own[i]->measured && l1[i]->has_predicted &&
                 l1[i]->predicted == l1[i]->own;
    own_k[s->own_total++] = kernel_of(g[0].r->kernel);
    s->own_exact += exact;
}

static bool predicted_exactly(const model_fid_row *r)
{
    return r->has_predicted && r->predicted == r->measured;
}

/* A differing count of the six that differs only by what depends on
 * timing on the GPU: a shared count whose kernel's own instructions were
 * predicted exactly (the SASS-attributed wavefronts; the conflicts less
 * other traffic), or a polling kernel's global load sectors. */
static bool timing_only(const row_ref *g, size_t len, const model_fid_row *r)
{
    if (!strcmp(r->metric, MODEL_FID_SECTORS_LD))
        return r->poll_sectors > 0;
    if (!strcmp(r->metric, MODEL_FID_SECTORS_ST))
        return false;
    if (strstr(r->metric, "conflicts"))
        return r->has_own && r->has_predicted && r->predicted == r->own;
    const bool ld = !strcmp(r->metric, MODEL_FID_WAVEFRONTS_LD);
    const model_fid_row *o = in_launch(g, len, ld ? MODEL_FID_OWN_WAVEFRONTS_LD : MODEL_FID_OWN_WAVEFRONTS_ST);
    return o && o->has_measured && predicted_exactly(o);
}

/* The six counts of one launch (model_fid_summary.six_*). */
static void six_goal(const row_ref *g, size_t len, model_fid_summary *s)
{
    static const char *const six[] = {MODEL_FID_CONFLICTS_LD,  MODEL_FID_CONFLICTS_ST, MODEL_FID_WAVEFRONTS_LD,
                                      MODEL_FID_WAVEFRONTS_ST, MODEL_FID_SECTORS_LD,   MODEL_FID_SECTORS_ST};
    const model_fid_row *r[6];
    for (size_t i = 0; i < 6; i++)
        r[i] = in_launch(g, len, six[i]);
    if (!all_measured(r, 6))
        return;
    s->six_total++;
    bool off = false, timing = true, sectors_off = false;
    for (size_t i = 0; i < 6; i++) {
        if (predicted_exactly(r[i]))
            continue;
        off = true;
        timing &= timing_only(g, len, r[i]);
        sectors_off |= i >= 4;
    }
    s->six_equal += !off;
    s->six_timing += off && timing;
    s->six_code += off && !timing;
    s->six_own_equal += !off || (timing && !sectors_off);
}

static sl_status shared_goals(const model_fid *f, model_fid_summary *s)
{
    size_t n = f->nrows ? f->nrows : 1;
    row_ref *refs = malloc(n * sizeof *refs);
    kernel_name *shared_k = malloc(n * sizeof *shared_k), *own_k = malloc(n * sizeof *own_k);
    sl_status st = refs && shared_k && own_k ? SL_OK : SL_ERR_NOMEM;
    for (size_t i = 0; st == SL_OK && i < f->nrows; i++)
        refs[i] = (row_ref){&f->rows[i], i};
    if (st == SL_OK) {
        qsort(refs, f->nrows, sizeof *refs, cmp_launch);
        for (size_t a = 0, b; a < f->nrows; a = b) {
            for (b = a + 1; b < f->nrows && same_launch(refs[a].r, refs[b].r);)
                b++;
            launch_goals(refs + a, b - a, s, shared_k, own_k);
            six_goal(refs + a, b - a, s);
        }
        s->shared_kernels = distinct_kernels(shared_k, s->shared_total);
        s->own_kernels = distinct_kernels(own_k, s->own_total);
    }
    free(refs);
    free(shared_k);
    free(own_k);
    return st;
}

/* Launches moving more than 1 MB: those within 25% (decided as the Python
 * does, |predicted - measured| <= 25% of measured) and the median error. */
static sl_status time_goals(const model_fid *f, model_fid_summary *s)
{
    double *err = malloc((f->nrows + 1) * sizeof *err);
    if (!err)
        return SL_ERR_NOMEM;
    for (size_t i = 0; i < f->nrows; i++) {
        const model_fid_row *x = &f->rows[i];
        if (strcmp(x->metric, MODEL_FID_TIME) != 0 || !x->has_measured || !x->has_predicted || x->launch < 0 ||
            !(x->bytes > MODEL_FID_BIG_BYTES) || !(x->measured > 0))
            continue;
        double d = fabs(x->predicted - x->measured);
        err[s->time_big++] = d / x->measured;
        s->time_within += d <= MODEL_FID_TIME_TOLERANCE * x->measured;
    }
    if (s->time_big) {
        qsort(err, s->time_big, sizeof *err, cmp_double);
        s->time_median_error = s->time_big % 2 ? err[s->time_big / 2]
                                               : 0.5 * (err[s->time_big / 2 - 1] + err[s->time_big / 2]);
    }
    free(err);
    return SL_OK;
}

static bool whole_scan_row(const model_fid_row *x)
{
    return x->has_measured && !strcmp(x->metric, MODEL_FID_TIME) && !strcmp(x->type, "i32") &&
           x->n >= MODEL_FID_PAIRS_MIN_N;
}

static int cmp_scan_row(const void *pa, const void *pb)
{
    const row_ref *a = pa, *b = pb;
    int c = (a->r->n > b->r->n) - (a->r->n < b->r->n);
    if (!c)
        c = strcmp(a->r->algo, b->r->algo);
    return c ? c : cmp_at(a->at, b->at);
}

static int cmp_scan(const void *pa, const void *pb)
{
    const model_fid_scan *a = pa, *b = pb;
    int c = (a->n > b->n) - (a->n < b->n);
    if (!c)
        c = (a->measured > b->measured) - (a->measured < b->measured);
    return c ? c : strcmp(a->algo, b->algo);
}

sl_status model_fid_scans(const model_fid *f, model_fid_scan **scans, size_t *count)
{
    *scans = NULL;
    *count = 0;
    size_t n = 0;
    for (size_t i = 0; i < f->nrows; i++)
        n += whole_scan_row(&f->rows[i]);
    if (n == 0)
        return SL_OK;
    row_ref *refs = malloc(n * sizeof *refs);
    model_fid_scan *out = malloc(n * sizeof *out);
    if (!refs || !out) {
        free(refs);
        free(out);
        return SL_ERR_NOMEM;
    }
    for (size_t i = 0, k = 0; i < f->nrows; i++)
        if (whole_scan_row(&f->rows[i]))
            refs[k++] = (row_ref){&f->rows[i], i};
    qsort(refs, n, sizeof *refs, cmp_scan_row);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        const model_fid_row *x = refs[i].r;
        if (i == 0 || x->n != out[m - 1].n || strcmp(x->algo, refs[i - 1].r->algo) != 0) {
            out[m] = (model_fid_scan){.n = x->n, .complete = true};
            snprintf(out[m].algo, sizeof out[m].algo, "%s", x->algo);
            m++;
        }
        model_fid_scan *t = &out[m - 1];
        t->predicted += x->has_predicted ? x->predicted : 0;
        t->measured += x->measured;
        t->complete &= x->has_predicted;
    }
    free(refs);
    qsort(out, m, sizeof *out, cmp_scan);
    *scans = out;
    *count = m;
    return SL_OK;
}

/* Pairs of whole scans at the same n whose predicted times are in the
 * order of the measured ones (equal measurements and scans without every
 * prediction left out). */
static sl_status scan_pairs(const model_fid *f, model_fid_summary *s)
{
    model_fid_scan *t;
    size_t n;
    sl_status st = model_fid_scans(f, &t, &n);
    for (size_t a = 0, b; st == SL_OK && a < n; a = b) {
        for (b = a + 1; b < n && t[b].n == t[a].n;)
            b++;
        model_fid_pairs p = {t[a].n, 0, 0};
        for (size_t i = a; i < b; i++)
            for (size_t j = i + 1; j < b; j++) {
                if (!t[i].complete || !t[j].complete || t[i].measured == t[j].measured)
                    continue;
                p.pairs++;
                p.right += (t[i].predicted < t[j].predicted) == (t[i].measured < t[j].measured);
            }
        s->pairs += p.pairs;
        s->pairs_right += p.right;
        if (s->npairs_n < sizeof s->pairs_n / sizeof s->pairs_n[0])
            s->pairs_n[s->npairs_n++] = p;
    }
    free(t);
    return st;
}

sl_status model_fid_summarise(const model_fid *f, model_fid_summary *s)
{
    memset(s, 0, sizeof *s);
    for (size_t i = 0; i < f->nrows; i++)
        if (f->rows[i].has_measured && strcmp(f->rows[i].metric, MODEL_FID_TIME) != 0)
            count_metric(s, &f->rows[i]);
    sl_status st = shared_goals(f, s);
    if (st == SL_OK)
        st = time_goals(f, s);
    if (st == SL_OK)
        st = scan_pairs(f, s);
    return st;
}
