/* Records of items dealt over the ranks, put back in order (share.h). */
#include "verify/campaign/share.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify/campaign/ranks.h"

void share_init(share *s, size_t n)
{
    memset(s, 0, sizeof *s);
    s->n = n;
}

bool share_put(share *s, const void *rec, size_t len, const char *what)
{
    const size_t need = s->len + sizeof len + len;
    if (need > s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 4096;
        while (cap < need)
            cap *= 2;
        char *b = realloc(s->buf, cap);
        if (!b) {
            ranks_abort(1, "%s: out of memory keeping the results of this rank's share", what);
            return false;
        }
        s->buf = b;
        s->cap = cap;
    }
    memcpy(s->buf + s->len, &len, sizeof len);
    memcpy(s->buf + s->len + sizeof len, rec, len);
    s->len = need;
    s->put++;
    return true;
}

/* How many of n items dealt round-robin over count ranks are rank r's. */
static size_t items_of(size_t n, int r, int count)
{
    return n / (size_t)count + ((size_t)r < n % (size_t)count);
}

/* The records of rank r's part into rec[] (every count-th item from r);
 * false when it holds another number of records than rank r owns. */
static bool index_part(share *s, const char *part, size_t len, int r, int count)
{
    size_t k = 0, at = 0;
    for (size_t i = (size_t)r; i < s->n; i += (size_t)count, k++) {
        size_t l;
        if (len - at < sizeof l)
            return false;
        memcpy(&l, part + at, sizeof l);
        if (len - at - sizeof l < l)
            return false;
        s->rec[i] = part + at + sizeof l;
        s->rec_len[i] = l;
        at += sizeof l + l;
    }
    return at == len && k == items_of(s->n, r, count);
}

bool share_collect(share *s, const char *what)
{
    ranks_test_failure(what);
    if (s->put != items_of(s->n, ranks_rank(), ranks_count())) /* a caller's bug: stop, never print part */
        ranks_abort(1, "%s: rank %d put %zu results for %zu items of its share", what, ranks_rank(), s->put,
                    items_of(s->n, ranks_rank(), ranks_count()));
    size_t *lens = NULL;
    if (!ranks_gather(s->buf, s->len, &s->all, &lens)) {
        if (ranks_many())
            ranks_abort(1, "%s: the ranks' results could not be gathered", what);
        return false;
    }
    if (ranks_rank() != 0)
        return true;
    s->rec = calloc(s->n + 1, sizeof *s->rec);
    s->rec_len = calloc(s->n + 1, sizeof *s->rec_len);
    bool ok = s->rec && s->rec_len;
    if (!ok)
        fprintf(stderr, "scanlab: %s: out of memory gathering the ranks' results\n", what);
    const char *part = s->all;
    for (int r = 0; r < ranks_count() && ok; r++) {
        if (!index_part(s, part, lens[r], r, ranks_count())) {
            fprintf(stderr, "scanlab: %s: the results of rank %d are incomplete; nothing is printed as whole\n",
                    what, r);
            ok = false;
        }
        part += lens[r];
    }
    free(lens);
    /* a campaign with a rank's results missing stops whole, at once: no
     * rank goes on to print or wait for the others */
    if (!ok && ranks_many())
        ranks_abort(1, "%s: the ranks' results could not be gathered", what);
    return ok;
}

const void *share_get(const share *s, size_t i, size_t *len)
{
    if (!s->rec || i >= s->n)
        return NULL;
    if (len)
        *len = s->rec_len[i];
    return s->rec[i];
}

void share_free(share *s)
{
    free(s->buf);
    free(s->all);
    free(s->rec);
    free(s->rec_len);
    memset(s, 0, sizeof *s);
}
