/* The outcomes of the campaign: per instance the values of what the
 * condition names, counted in a hash table, and the JSON document that
 * `scanlab litmus --observed` reads: {"tests": [{"name": N, "runs": R,
 * "outcomes": [{"state": "P1:r1=1 P1:r2=0", "count": C}, ...]}, ...]}. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/litmus_gpu/campaign.h"
#include "verify/formats/json.h"

void lg_result_layout(const lit_test *t, lg_results *r)
{
    r->nres = 0;
    for (unsigned k = 0; k < t->nnamed; k++)
        r->slot[k] = t->named[k].kind == LIT_T_REG ? (int)r->nres++ : -1;
}

void lg_hist_init(lg_hist *h, unsigned width)
{
    memset(h, 0, sizeof *h);
    h->width = width;
}

void lg_hist_free(lg_hist *h)
{
    free(h->keys);
    free(h->counts);
    free(h->full);
    lg_hist_init(h, h->width);
}

static uint64_t hash_key(const int32_t *key, unsigned width)
{
    uint64_t x = 0xcbf29ce484222325ull; /* FNV-1a over the words */
    for (unsigned k = 0; k < width; k++) {
        x ^= (uint32_t)key[k];
        x *= 0x100000001b3ull;
    }
    return x ^ (x >> 29);
}

/* The slot of key: where it is, or the empty slot where it goes. */
static size_t find(const lg_hist *h, const int32_t *key)
{
    size_t s = (size_t)hash_key(key, h->width) & (h->cap - 1);
    while (h->full[s] && memcmp(h->keys + s * h->width, key, h->width * sizeof *key) != 0)
        s = (s + 1) & (h->cap - 1);
    return s;
}

static int grow(lg_hist *h)
{
    lg_hist g = {.width = h->width, .cap = h->cap ? 2 * h->cap : 64};
    g.keys = malloc(g.cap * (h->width ? h->width : 1) * sizeof *g.keys);
    g.counts = calloc(g.cap, sizeof *g.counts);
    g.full = calloc(g.cap, sizeof *g.full);
    if (!g.keys || !g.counts || !g.full) {
        lg_hist_free(&g);
        return -1;
    }
    for (size_t s = 0; s < h->cap; s++)
        if (h->full[s]) {
            const size_t d = find(&g, h->keys + s * h->width);
            memcpy(g.keys + d * h->width, h->keys + s * h->width, h->width * sizeof *g.keys);
            g.counts[d] = h->counts[s];
            g.full[d] = true;
        }
    g.n = h->n;
    lg_hist_free(h);
    *h = g;
    return 0;
}

int lg_hist_add(lg_hist *h, const int32_t *key, uint64_t count)
{
    if (2 * (h->n + 1) > h->cap && grow(h) < 0)
        return -1;
    const size_t s = find(h, key);
    if (!h->full[s]) {
        memcpy(h->keys + s * h->width, key, h->width * sizeof *key);
        h->full[s] = true;
        h->n++;
    }
    h->counts[s] += count;
    return 0;
}

int lg_hist_launch(lg_hist *h, const lit_test *t, const lg_results *r, unsigned instances, const uint32_t *out,
                   const uint32_t *mem, const uint32_t *addr)
{
    int32_t v[LIT_MAX_NODES];
    for (unsigned i = 0; i < instances; i++) {
        for (unsigned k = 0; k < t->nnamed; k++) {
            const lit_term *x = &t->named[k];
            v[k] = (int32_t)(x->kind == LIT_T_REG ? out[(size_t)i * r->nres + (unsigned)r->slot[k]]
                                                  : mem[addr[(size_t)i * t->nlocs + (unsigned)x->index]]);
        }
        if (lg_hist_add(h, v, 1) < 0)
            return -1;
    }
    return 0;
}

void lg_state_string(const lit_test *t, const int32_t *v, char *buf, size_t n)
{
    size_t at = 0;
    buf[0] = 0;
    for (unsigned k = 0; k < t->nnamed && at < n; k++) {
        const lit_term *x = &t->named[k];
        const char *sep = k ? " " : "";
        int w = x->kind == LIT_T_REG
                    ? snprintf(buf + at, n - at, "%sP%d:%s=%d", sep, x->thread, t->th[x->thread].reg[x->index], v[k])
                    : snprintf(buf + at, n - at, "%s%s=%d", sep, t->loc[x->index], v[k]);
        at += w > 0 ? (size_t)w : 0;
    }
}

bool lg_state_satisfies(const lit_test *t, const int32_t *v)
{
    int64_t regs[LIT_MAX_THREADS * LIT_MAX_REGS] = {0}, locs[LIT_MAX_LOCS] = {0};
    for (unsigned k = 0; k < t->nnamed; k++) {
        const lit_term *x = &t->named[k];
        if (x->kind == LIT_T_REG)
            regs[x->thread * LIT_MAX_REGS + x->index] = v[k];
        else
            locs[x->index] = v[k];
    }
    return lit_eval(t, regs, locs);
}

static int by_count(const void *a, const void *b)
{
    const lg_outcome *x = a, *y = b;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    return strcmp(x->state, y->state);
}

int lg_record_outcomes(lg_record *rec, const lit_test *t, const lg_hist *h)
{
    free(rec->out);
    rec->nout = 0;
    rec->out = calloc(h->n ? h->n : 1, sizeof *rec->out);
    if (!rec->out)
        return -1;
    for (size_t s = 0; s < h->cap; s++)
        if (h->full[s]) {
            lg_outcome *o = &rec->out[rec->nout++];
            lg_state_string(t, h->keys + s * h->width, o->state, sizeof o->state);
            o->count = h->counts[s];
            o->body = lg_state_satisfies(t, h->keys + s * h->width);
        }
    qsort(rec->out, rec->nout, sizeof *rec->out, by_count);
    return 0;
}

void lg_record_free(lg_record *rec)
{
    free(rec->out);
    rec->out = NULL;
    rec->nout = 0;
}

static void write_doc(FILE *f, const lg_meta *m, const lg_record *recs, unsigned n)
{
    json_writer w;
    json_init(&w, f);
    json_begin_object(&w, NULL);
    json_string(&w, "command", m->command);
    json_string(&w, "device", m->device);
    json_int(&w, "driver_version", m->driver);
    json_int(&w, "multiprocessors", m->sms);
    json_string(&w, "date", m->date);
    json_uint(&w, "seed", m->seed);
    json_bool(&w, "complete", m->complete);
    json_begin_object(&w, "config");
    json_uint(&w, "runs_wanted", m->runs_wanted);
    json_uint(&w, "block", m->block);
    json_uint(&w, "grid", m->grid);
    json_uint(&w, "location_stride_words", m->stride);
    json_uint(&w, "stress_iterations", m->stress_iters);
    json_uint(&w, "pre_stress_iterations", m->pre_iters);
    json_uint(&w, "start_spin_bound", m->spin);
    if (m->loop_bound) { /* a progress run */
        json_uint(&w, "loop_bound", m->loop_bound);
        json_uint(&w, "oversubscribe", m->oversubscribe);
    }
    json_end_object(&w);
    /* a test the campaign ran; --observed finds it by "name" and reads up
     * to the next "name", so nothing else here is called that */
    json_begin_array(&w, "tests");
    for (unsigned i = 0; i < n; i++) {
        const lg_record *r = &recs[i];
        if (r->skipped[0])
            continue;
        json_begin_object(&w, NULL);
        json_string(&w, "name", r->name);
        json_string(&w, "file", r->file);
        json_uint(&w, "runs", r->runs);
        json_uint(&w, "launches", r->launches);
        json_uint(&w, "instances_per_launch", r->instances);
        json_uint(&w, "start_timeouts", r->timeouts);
        if (m->loop_bound)
            json_uint(&w, "hung_threads", r->hung);
        json_double(&w, "seconds", r->seconds);
        json_begin_array(&w, "outcomes");
        for (unsigned k = 0; k < r->nout; k++) {
            json_begin_object(&w, NULL);
            json_string(&w, "state", r->out[k].state);
            json_uint(&w, "count", r->out[k].count);
            json_bool(&w, "satisfies_body", r->out[k].body);
            json_end_object(&w);
        }
        json_end_array(&w);
        json_end_object(&w);
    }
    json_end_array(&w);
    json_begin_array(&w, "skipped");
    for (unsigned i = 0; i < n; i++)
        if (recs[i].skipped[0]) {
            json_begin_object(&w, NULL);
            json_string(&w, "test", recs[i].name);
            json_string(&w, "file", recs[i].file);
            json_string(&w, "reason", recs[i].skipped);
            json_end_object(&w);
        }
    json_end_array(&w);
    json_end_object(&w);
    json_finish(&w);
}

int lg_write_json(const char *path, const lg_meta *m, const lg_record *recs, unsigned n)
{
    char tmp[4200];
    if (snprintf(tmp, sizeof tmp, "%s.partial", path) >= (int)sizeof tmp) {
        errno = ENAMETOOLONG;
        return -1;
    }
    FILE *f = fopen(tmp, "w");
    if (!f)
        return -1;
    write_doc(f, m, recs, n);
    const bool bad = ferror(f) != 0;
    if (fclose(f) != 0 || bad) {
        const int e = errno ? errno : EIO;
        remove(tmp);
        errno = e;
        return -1;
    }
    return rename(tmp, path);
}
