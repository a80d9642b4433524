/* A recursive-descent JSON validator (json_valid.h). */
#include "json_valid.h"

#include <string.h>

#define MAX_DEPTH 64

typedef struct {
    const unsigned char *p;
    int depth;
} cursor;

static void ws(cursor *c)
{
    while (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r')
        c->p++;
}

static bool digits(cursor *c)
{
    if (!(*c->p >= '0' && *c->p <= '9'))
        return false;
    while (*c->p >= '0' && *c->p <= '9')
        c->p++;
    return true;
}

static bool number(cursor *c)
{
    if (*c->p == '-')
        c->p++;
    if (*c->p == '0')
        c->p++;
    else if (!digits(c))
        return false;
    if (*c->p == '.') {
        c->p++;
        if (!digits(c))
            return false;
    }
    if (*c->p == 'e' || *c->p == 'E') {
        c->p++;
        if (*c->p == '+' || *c->p == '-')
            c->p++;
        if (!digits(c))
            return false;
    }
    return true;
}

static bool hex4(cursor *c)
{
    for (int i = 0; i < 4; i++, c->p++)
        if (!strchr("0123456789abcdefABCDEF", *c->p) || !*c->p)
            return false;
    return true;
}

/* One UTF-8 sequence (not ASCII) at c->p. */
static bool utf8(cursor *c)
{
    const unsigned char *s = c->p;
    size_t len = s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : s[0] >= 0xe0 && s[0] <= 0xef ? 3
               : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : 0;
    if (!len)
        return false;
    for (size_t i = 1; i < len; i++)
        if ((s[i] & 0xc0) != 0x80)
            return false;
    if ((len == 3 && s[0] == 0xe0 && s[1] < 0xa0) || (len == 3 && s[0] == 0xed && s[1] >= 0xa0) ||
        (len == 4 && s[0] == 0xf0 && s[1] < 0x90) || (len == 4 && s[0] == 0xf4 && s[1] >= 0x90))
        return false;
    c->p += len;
    return true;
}

static bool string(cursor *c)
{
    if (*c->p++ != '"')
        return false;
    for (;;) {
        unsigned char ch = *c->p;
        if (ch == '"') {
            c->p++;
            return true;
        }
        if (ch < 0x20)
            return false;
        if (ch == '\\') {
            c->p++;
            if (*c->p == 'u') {
                c->p++;
                if (!hex4(c))
                    return false;
            } else if (*c->p && strchr("\"\\/bfnrt", *c->p)) {
                c->p++;
            } else {
                return false;
            }
        } else if (ch < 0x80) {
            c->p++;
        } else if (!utf8(c)) {
            return false;
        }
    }
}

static bool value(cursor *c);

static bool members(cursor *c, char close, bool object)
{
    if (++c->depth > MAX_DEPTH)
        return false;
    c->p++;
    ws(c);
    if (*c->p == (unsigned char)close) {
        c->p++;
        c->depth--;
        return true;
    }
    for (;;) {
        ws(c);
        if (object) {
            if (!string(c))
                return false;
            ws(c);
            if (*c->p++ != ':')
                return false;
        }
        if (!value(c))
            return false;
        ws(c);
        if (*c->p == ',') {
            c->p++;
            continue;
        }
        if (*c->p++ != (unsigned char)close)
            return false;
        c->depth--;
        return true;
    }
}

static bool literal(cursor *c, const char *word)
{
    size_t n = strlen(word);
    if (strncmp((const char *)c->p, word, n) != 0)
        return false;
    c->p += n;
    return true;
}

static bool value(cursor *c)
{
    ws(c);
    switch (*c->p) {
    case '{': return members(c, '}', true);
    case '[': return members(c, ']', false);
    case '"': return string(c);
    case 't': return literal(c, "true");
    case 'f': return literal(c, "false");
    case 'n': return literal(c, "null");
    default: return number(c);
    }
}

bool json_valid(const char *text, size_t *where)
{
    cursor c = {(const unsigned char *)text, 0};
    bool ok = value(&c);
    if (ok) {
        ws(&c);
        ok = *c.p == '\0';
    }
    if (where)
        *where = (size_t)((const char *)c.p - text);
    return ok;
}
