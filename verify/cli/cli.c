#include "verify/cli/cli.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cli_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("scanlab: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return CLI_EXIT_USAGE;
}

int cli_exit_code(sl_status st)
{
    if (st == SL_OK)
        return CLI_EXIT_OK;
    return st == SL_ERR_ARG ? CLI_EXIT_USAGE : CLI_EXIT_FAILED;
}

enum { DIGITS_OK, DIGITS_JUNK, DIGITS_OVERFLOW };

/* Digits only: strtoull alone would accept "-1", " 7" and "+7". */
static int parse_digits_why(const char *s, unsigned long long *out)
{
    if (!s || !isdigit((unsigned char)s[0]))
        return DIGITS_JUNK;
    for (const char *p = s; *p; p++)
        if (!isdigit((unsigned char)*p))
            return DIGITS_JUNK;
    errno = 0;
    *out = strtoull(s, NULL, 10);
    return errno == 0 ? DIGITS_OK : DIGITS_OVERFLOW;
}

static bool parse_digits(const char *s, unsigned long long *out)
{
    return parse_digits_why(s, out) == DIGITS_OK;
}

sl_status cli_parse_size(const char *opt, const char *s, size_t *out)
{
    unsigned long long v;
    if (s && strncmp(s, "2^", 2) == 0) {
        if (!parse_digits(s + 2, &v) || v > 62) {
            cli_usage_error("%s: '%s' is not a size (2^K needs 0 <= K <= 62)", opt, s);
            return SL_ERR_ARG;
        }
        *out = (size_t)1 << v;
        return SL_OK;
    }
    int why = parse_digits_why(s, &v);
    if (why != DIGITS_OK) {
        if (s && (s[0] == '-'))
            cli_usage_error("%s: size '%s' is negative", opt, s);
        else if (why == DIGITS_OVERFLOW)
            cli_usage_error("%s: size '%s' overflows", opt, s);
        else
            cli_usage_error("%s: '%s' is not a size (a non-negative whole number or 2^K)", opt,
                            s ? s : "");
        return SL_ERR_ARG;
    }
    if (v > (unsigned long long)(SIZE_MAX / 16)) {
        cli_usage_error("%s: size '%s' overflows", opt, s);
        return SL_ERR_ARG;
    }
    *out = (size_t)v;
    return SL_OK;
}

sl_status cli_parse_size_list(const char *opt, const char *s, size_t **out, size_t *count)
{
    size_t cap = 1;
    for (const char *p = s; *p; p++)
        cap += *p == ',';
    size_t *v = malloc(cap * sizeof *v);
    char *buf = strdup(s);
    if (!v || !buf) {
        free(v);
        free(buf);
        return SL_ERR_NOMEM;
    }
    size_t k = 0;
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        sl_status st = cli_parse_size(opt, tok, &v[k]);
        if (st != SL_OK) {
            free(v);
            free(buf);
            return st;
        }
        k++;
    }
    free(buf);
    if (k == 0) {
        free(v);
        cli_usage_error("%s: empty list", opt);
        return SL_ERR_ARG;
    }
    *out = v;
    *count = k;
    return SL_OK;
}

sl_status cli_parse_u64(const char *opt, const char *s, uint64_t *out)
{
    unsigned long long v;
    if (!parse_digits(s, &v)) {
        cli_usage_error("%s: '%s' is not a non-negative 64-bit number", opt, s ? s : "");
        return SL_ERR_ARG;
    }
    *out = v;
    return SL_OK;
}

sl_status cli_parse_int(const char *opt, const char *s, int lo, int hi, int *out)
{
    unsigned long long v;
    if (!parse_digits(s, &v) || v > (unsigned long long)hi || (long long)v < lo) {
        cli_usage_error("%s: '%s' is not a whole number from %d to %d", opt, s ? s : "", lo, hi);
        return SL_ERR_ARG;
    }
    *out = (int)v;
    return SL_OK;
}

bool cli_stderr_is_tty(void) { return isatty(STDERR_FILENO); }
