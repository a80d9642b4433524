/* Snapshot buffers of the schedule search (internal.h): bytes appended in
 * order, read back in the same order. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

void *model_snap_room(model_snap *s, size_t n)
{
    if (s->failed)
        return NULL;
    if (s->len + n > s->cap) {
        size_t cap = s->cap ? s->cap : 4096;
        while (cap < s->len + n)
            cap *= 2;
        unsigned char *p = realloc(s->p, cap);
        if (!p) {
            s->failed = true;
            return NULL;
        }
        s->p = p;
        s->cap = cap;
    }
    void *r = s->p + s->len;
    s->len += n;
    return r;
}

void model_snap_put(model_snap *s, const void *src, size_t n)
{
    void *d = model_snap_room(s, n);
    if (d && n)
        memcpy(d, src, n);
}

void model_snap_get(const unsigned char **cur, void *dst, size_t n)
{
    if (n)
        memcpy(dst, *cur, n);
    *cur += n;
}

void model_snap_free(model_snap *s)
{
    free(s->p);
    memset(s, 0, sizeof *s);
}
