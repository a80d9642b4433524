/* The verdicts a test of the project's set states beside its name
 * (litmus.h, lit_stated): "expected: allowed (PTX memory model: ...)" and
 * "model: forbidden: why", each in a quoted comment. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/litmus/litmus.h"

#define MAX_TEST_FILE (1u << 20)

/* The comment "key: WORD rest" in text: WORD into word, rest (without the
 * parentheses around it, or the ':' before it) into why. */
static void stated(const char *text, const char *key, char *word, size_t wn, char *why, size_t yn)
{
    char pat[32];
    snprintf(pat, sizeof pat, "\"%s: ", key);
    word[0] = why[0] = 0;
    const char *p = strstr(text, pat);
    if (!p)
        return;
    p += strlen(pat);
    size_t n = 0;
    while (isalnum((unsigned char)p[n]) || p[n] == '_')
        n++;
    if (n == 0 || n >= wn)
        return;
    snprintf(word, wn, "%.*s", (int)n, p);
    p += n;
    const char *end = strchr(p, '"');
    if (!end)
        end = p + strlen(p);
    while (p < end && (*p == ' ' || *p == ':'))
        p++;
    if (p < end && *p == '(' && end[-1] == ')') {
        p++;
        end--;
    }
    snprintf(why, yn, "%.*s", (int)(end - p), p);
}

int lit_stated_read(const char *path, lit_stated *s)
{
    memset(s, 0, sizeof *s);
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    char *text = malloc(MAX_TEST_FILE + 1);
    const size_t len = text ? fread(text, 1, MAX_TEST_FILE, f) : 0;
    const bool failed = !text || ferror(f);
    fclose(f);
    if (failed) {
        free(text);
        return -1;
    }
    text[len] = 0;
    stated(text, "expected", s->expected, sizeof s->expected, s->expected_why, sizeof s->expected_why);
    stated(text, "model", s->model, sizeof s->model, s->model_why, sizeof s->model_why);
    free(text);
    return 0;
}
