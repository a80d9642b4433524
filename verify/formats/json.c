#include "verify/formats/json.h"

#include <math.h>

void json_init(json_writer *w, FILE *f)
{
    w->f = f;
    w->depth = 0;
    w->need_comma[0] = false;
}

static void write_escaped(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\t': fputs("\\t", f); break;
        case '\r': fputs("\\r", f); break;
        default:
            if (*p < 0x20)
                fprintf(f, "\\u%04x", *p);
            else
                fputc(*p, f);
        }
    }
    fputc('"', f);
}

/* Separator and key before any value. */
static void prefix(json_writer *w, const char *key)
{
    if (w->need_comma[w->depth])
        fputc(',', w->f);
    w->need_comma[w->depth] = true;
    if (key) {
        write_escaped(w->f, key);
        fputc(':', w->f);
    }
}

static void open_(json_writer *w, const char *key, char c)
{
    prefix(w, key);
    fputc(c, w->f);
    if (w->depth < 31)
        w->depth++;
    w->need_comma[w->depth] = false;
}

void json_begin_object(json_writer *w, const char *key) { open_(w, key, '{'); }

void json_raw_value(json_writer *w, const char *text, size_t len)
{
    prefix(w, NULL);
    fwrite(text, 1, len, w->f);
}
void json_begin_array(json_writer *w, const char *key) { open_(w, key, '['); }

void json_end_object(json_writer *w)
{
    if (w->depth > 0)
        w->depth--;
    fputc('}', w->f);
}

void json_end_array(json_writer *w)
{
    if (w->depth > 0)
        w->depth--;
    fputc(']', w->f);
}

void json_string(json_writer *w, const char *key, const char *value)
{
    prefix(w, key);
    if (value)
        write_escaped(w->f, value);
    else
        fputs("null", w->f);
}

void json_int(json_writer *w, const char *key, long long value)
{
    prefix(w, key);
    fprintf(w->f, "%lld", value);
}

void json_uint(json_writer *w, const char *key, unsigned long long value)
{
    prefix(w, key);
    fprintf(w->f, "%llu", value);
}

void json_double(json_writer *w, const char *key, double value)
{
    prefix(w, key);
    if (isfinite(value))
        fprintf(w->f, "%.17g", value);
    else
        fputs("null", w->f);
}

void json_bool(json_writer *w, const char *key, bool value)
{
    prefix(w, key);
    fputs(value ? "true" : "false", w->f);
}

void json_null(json_writer *w, const char *key)
{
    prefix(w, key);
    fputs("null", w->f);
}

void json_finish(json_writer *w) { fputc('\n', w->f); }
