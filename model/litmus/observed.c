/* The outcomes a GPU showed, judged against the model's (observed.h). The
 * document is read by keys, not parsed as a whole: a damaged file reads as
 * tests the GPU did not run, never as a crash. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/litmus/observed.h"

#define MAX_DOC (128u << 20)

char *lit_observed_read(const char *path)
{
    size_t len;
    int why;
    return lit_read_text(path, MAX_DOC, &len, &why);
}

/* The next string value of "key" after *p (before end), into buf. */
static const char *next_string(const char *p, const char *end, const char *key, char *buf, size_t n)
{
    char pat[32];
    snprintf(pat, sizeof pat, "\"%s\"", key);
    const char *k = strstr(p, pat);
    if (!k || (end && k >= end))
        return NULL;
    const char *q = strchr(k + strlen(pat), '"');
    if (!q)
        return NULL;
    const char *e = strchr(q + 1, '"');
    if (!e || (size_t)(e - q - 1) >= n)
        return NULL;
    memcpy(buf, q + 1, (size_t)(e - q - 1));
    buf[e - q - 1] = 0;
    return e + 1;
}

/* The number after the ':' that follows a key at k (0 when there is none:
 * a malformed file reads as no count rather than a crash). */
static unsigned long long number_after(const char *k)
{
    const char *colon = strchr(k, ':');
    return colon ? strtoull(colon + 1, NULL, 10) : 0;
}

void lit_term_name(const lit_test *t, const lit_term *x, char *buf, size_t n)
{
    if (x->kind == LIT_T_REG)
        snprintf(buf, n, "P%d:%s", x->thread, t->th[x->thread].reg[x->index]);
    else
        snprintf(buf, n, "%s", t->loc[x->index]);
}

/* The values of the observed state "P0:r1=1 x=2" in the order of
 * t->named; false when it does not name each of them. */
static bool state_values(const lit_test *t, const char *state, int64_t *v)
{
    bool got[LIT_MAX_NODES] = {0};
    const char *p = state;
    while (*p) {
        while (*p == ' ' || *p == ';')
            p++;
        if (!*p)
            break;
        const char *eq = strchr(p, '=');
        if (!eq)
            return false;
        char name[48];
        if ((size_t)(eq - p) >= sizeof name)
            return false;
        memcpy(name, p, (size_t)(eq - p));
        name[eq - p] = 0;
        char *end;
        const long long x = strtoll(eq + 1, &end, 10);
        if (end == eq + 1)
            return false;
        p = end;
        for (unsigned k = 0; k < t->nnamed; k++) {
            char nm[48];
            lit_term_name(t, &t->named[k], nm, sizeof nm);
            if (strcmp(nm, name) == 0) {
                v[k] = (int32_t)x;
                got[k] = true;
            }
        }
    }
    for (unsigned k = 0; k < t->nnamed; k++)
        if (!got[k])
            return false;
    return true;
}

/* Whether the named values v satisfy the condition's body: the body names
 * nothing but them (and constants). */
static bool satisfies(const lit_test *t, const int64_t *v)
{
    int64_t regs[LIT_MAX_THREADS * LIT_MAX_REGS] = {0}, locs[LIT_MAX_LOCS] = {0};
    for (unsigned k = 0; k < t->nnamed; k++) {
        const lit_term *x = &t->named[k];
        if (x->kind == LIT_T_REG)
            regs[x->thread * LIT_MAX_REGS + x->index] = v[k];
        else if (x->kind == LIT_T_LOC)
            locs[x->index] = v[k];
    }
    return lit_eval(t, regs, locs);
}

static bool push(lit_observed *o, unsigned *cap, const char *state, uint64_t count, bool allowed, bool sat)
{
    if (o->nseen == *cap) {
        const unsigned ncap = *cap ? 2 * *cap : 16;
        lit_seen *ns = realloc(o->seen, ncap * sizeof *ns);
        if (!ns)
            return false;
        o->seen = ns;
        *cap = ncap;
    }
    lit_seen *s = &o->seen[o->nseen++];
    snprintf(s->state, sizeof s->state, "%s", state);
    s->count = count;
    s->allowed = allowed;
    s->satisfies = sat;
    o->nforbidden += !allowed;
    return true;
}

int lit_observed_check(const char *doc, const lit_test *t, const lit_result *r, lit_observed *o)
{
    memset(o, 0, sizeof *o);
    char name[128], buf[256];
    const char *p = doc, *at = NULL;
    while ((p = next_string(p, NULL, "name", name, sizeof name)) != NULL)
        if (strcmp(name, t->name) == 0) {
            at = p;
            break;
        }
    if (!at)
        return 0; /* not run on the GPU */
    o->run = true;
    const char *stop = strstr(at, "\"name\"");
    const char *rs = strstr(at, "\"runs\"");
    if (rs && (!stop || rs < stop))
        o->runs = number_after(rs);
    unsigned cap = 0;
    for (const char *q = at; (q = next_string(q, stop, "state", buf, sizeof buf)) != NULL;) {
        const char *c = strstr(q, "\"count\"");
        const unsigned long long count = c && (!stop || c < stop) ? number_after(c) : 0;
        int64_t v[LIT_MAX_NODES];
        if (!state_values(t, buf, v))
            return -1;
        bool allowed = false;
        for (unsigned i = 0; i < r->nout && !allowed; i++)
            allowed = memcmp(r->out[i].v, v, t->nnamed * sizeof v[0]) == 0;
        if (!push(o, &cap, buf, count, allowed, satisfies(t, v)))
            return -2;
    }
    return 0;
}

void lit_observed_free(lit_observed *o)
{
    free(o->seen);
    memset(o, 0, sizeof *o);
}

void lit_observed_field(const char *doc, const char *key, char *buf, size_t n)
{
    if (n && !next_string(doc, NULL, key, buf, n))
        buf[0] = 0;
}

bool lit_observed_complete(const char *doc)
{
    const char *k = strstr(doc, "\"complete\"");
    if (!k)
        return false;
    k += strlen("\"complete\"");
    while (*k == ' ' || *k == ':' || *k == '\n' || *k == '\t')
        k++;
    return strncmp(k, "true", 4) == 0;
}

bool lit_observed_skipped(const char *doc, const char *name, char *buf, size_t n)
{
    const char *p = strstr(doc, "\"skipped\"");
    char got[128];
    while (p && (p = next_string(p, NULL, "test", got, sizeof got)) != NULL)
        if (strcmp(got, name) == 0) {
            const char *next = strstr(p, "\"test\"");
            const char *why = strstr(p, "\"reason\"");
            if (!why || (next && why > next) || !next_string(why, NULL, "reason", buf, n))
                snprintf(buf, n, "no reason recorded");
            return true;
        }
    return false;
}
