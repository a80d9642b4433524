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

static bool row(reader *r, model_fid_row *x)
{
    memset(x, 0, sizeof *x);
    x->launch = 0;
    if (!eat(r, '{'))
        return false;
    if (eat(r, '}'))
        return true;
    do {
        char key[32];
        if (!string(r, key, sizeof key) || !eat(r, ':'))
            return false;
        double v = 0;
        bool null = false;
        char *dst = !strcmp(key, "algo")     ? x->algo
                    : !strcmp(key, "kernel") ? x->kernel
                    : !strcmp(key, "type")   ? x->type
                    : !strcmp(key, "metric") ? x->metric
                                             : NULL;
        size_t dsize = !strcmp(key, "algo")     ? sizeof x->algo
                       : !strcmp(key, "kernel") ? sizeof x->kernel
                       : !strcmp(key, "type")   ? sizeof x->type
                                                : sizeof x->metric;
        if (dst) {
            if (!string(r, dst, dsize))
                return false;
        } else if (!strcmp(key, "n") || !strcmp(key, "block") || !strcmp(key, "launch") ||
                   !strcmp(key, "predicted") || !strcmp(key, "measured") || !strcmp(key, "bytes") ||
                   !strcmp(key, "poll_sectors")) {
            if (!number(r, &v, &null))
                return false;
            if (!strcmp(key, "n"))
                x->n = null ? 0 : (uint64_t)v;
            else if (!strcmp(key, "block"))
                x->block = null ? 0 : (unsigned)v;
            else if (!strcmp(key, "launch"))
                x->launch = null ? 0 : (int)v;
            else if (!strcmp(key, "predicted"))
                x->has_predicted = !null, x->predicted = v;
            else if (!strcmp(key, "measured"))
                x->has_measured = !null, x->measured = v;
            else if (!strcmp(key, "bytes"))
                x->bytes = null ? 0 : v;
            else
                x->poll_sectors = null ? 0 : v;
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

/* Whole i32 scans at n >= 2^24: sums of their time rows. */
typedef struct {
    const char *algo;
    uint64_t n;
    double predicted, measured;
    bool complete;
} scan_total;

void model_fid_summarise(const model_fid *f, model_fid_summary *s)
{
    memset(s, 0, sizeof *s);
    double *err = malloc((f->nrows + 1) * sizeof *err);
    scan_total *tot = malloc((f->nrows + 1) * sizeof *tot);
    size_t ntot = 0;
    for (size_t i = 0; i < f->nrows; i++) {
        const model_fid_row *x = &f->rows[i];
        if (!x->has_measured)
            continue;
        if (strcmp(x->metric, MODEL_FID_TIME) != 0) {
            size_t k = 0;
            while (k < s->nmetrics && strcmp(s->metric[k].metric, x->metric) != 0)
                k++;
            if (k == s->nmetrics) {
                if (k == sizeof s->metric / sizeof s->metric[0])
                    continue;
                s->metric[s->nmetrics++].metric = x->metric;
            }
            s->metric[k].total++;
            s->metric[k].exact += x->has_predicted && x->predicted == x->measured;
            continue;
        }
        if (x->has_predicted && x->launch >= 0 && x->bytes > MODEL_FID_BIG_BYTES && x->measured > 0) {
            double e = fabs(x->predicted - x->measured) / x->measured;
            if (err)
                err[s->time_big] = e;
            s->time_big++;
            s->time_within += e <= MODEL_FID_TIME_TOLERANCE;
        }
        if (tot && strcmp(x->type, "i32") == 0 && x->n >= (1u << 24)) {
            size_t k = 0;
            while (k < ntot && !(tot[k].n == x->n && strcmp(tot[k].algo, x->algo) == 0))
                k++;
            if (k == ntot)
                tot[ntot++] = (scan_total){x->algo, x->n, 0, 0, true};
            tot[k].predicted += x->predicted;
            tot[k].measured += x->measured;
            tot[k].complete &= x->has_predicted;
        }
    }
    if (err && s->time_big) {
        qsort(err, s->time_big, sizeof *err, cmp_double);
        s->time_median_error = s->time_big % 2 ? err[s->time_big / 2]
                                               : 0.5 * (err[s->time_big / 2 - 1] + err[s->time_big / 2]);
    }
    for (size_t a = 0; tot && a < ntot; a++)
        for (size_t b = a + 1; b < ntot; b++) {
            if (tot[a].n != tot[b].n || !tot[a].complete || !tot[b].complete || tot[a].measured == tot[b].measured)
                continue;
            s->pairs++;
            s->pairs_right += (tot[a].predicted < tot[b].predicted) == (tot[a].measured < tot[b].measured);
        }
    free(err);
    free(tot);
}
