#include "verify/cli/cli.h"
#include "verify/campaign/ranks.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The first len bytes of s, control characters as \xNN, into f (when
 * not NULL) or into buf (size bytes, cut short and terminated); returns
 * the bytes written to buf. */
static size_t put_printable(const char *s, size_t len, FILE *f, char *buf, size_t size)
{
    size_t k = 0;
    for (size_t i = 0; i < len; i++) {
        const unsigned char c = (unsigned char)s[i];
        char esc[5] = {(char)c, '\0'};
        if (c < 0x20 || c == 0x7f)
            snprintf(esc, sizeof esc, "\\x%02x", c);
        if (f) {
            fputs(esc, f);
        } else {
            const size_t n = strlen(esc);
            if (k + n >= size)
                break;
            memcpy(buf + k, esc, n);
            k += n;
        }
    }
    if (!f && size)
        buf[k] = '\0';
    return k;
}

const char *cli_printable(const char *s, int len, char *buf, size_t size)
{
    put_printable(s, len < 0 ? strlen(s) : (size_t)len, NULL, buf, size);
    return buf;
}

/* "<command>: " of the command line being parsed, for the messages of the
 * parsers below (they serve every command). */
static char prefix[64];

void cli_set_command(const char *name)
{
    snprintf(prefix, sizeof prefix, "%s%s", name ? name : "", name ? ": " : "");
}

const char *cli_command_prefix(void) { return prefix; }

int cli_usage_error(const char *fmt, ...)
{
    /* every rank of a campaign parses the same command line: rank 0 alone
     * says what is wrong with it, once */
    if (ranks_rank() != 0)
        return CLI_EXIT_USAGE;
    va_list ap, again;
    va_start(ap, fmt);
    va_copy(again, ap);
    const int len = vsnprintf(NULL, 0, fmt, ap);
    char *msg = len >= 0 ? malloc((size_t)len + 1) : NULL;
    fputs("scanlab: ", stderr);
    if (msg) {
        /* the values it echoes are the user's: a newline in one must not
         * split the message */
        vsnprintf(msg, (size_t)len + 1, fmt, again);
        put_printable(msg, (size_t)len, stderr, NULL, 0);
        free(msg);
    } else {
        vfprintf(stderr, fmt, again);
    }
    fputc('\n', stderr);
    va_end(again);
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
            cli_usage_error("%s%s: '%s' is not a size (2^K needs 0 <= K <= 62)", prefix, opt, s);
            return SL_ERR_ARG;
        }
        *out = (size_t)1 << v;
        return SL_OK;
    }
    int why = parse_digits_why(s, &v);
    if (why != DIGITS_OK) {
        if (s && (s[0] == '-'))
            cli_usage_error("%s%s: size '%s' is negative", prefix, opt, s);
        else if (why == DIGITS_OVERFLOW)
            cli_usage_error("%s%s: size '%s' overflows", prefix, opt, s);
        else
            cli_usage_error("%s%s: '%s' is not a size (a non-negative whole number or 2^K)", prefix,
                            opt, s ? s : "");
        return SL_ERR_ARG;
    }
    if (v > (unsigned long long)(SIZE_MAX / 16)) {
        cli_usage_error("%s%s: size '%s' overflows", prefix, opt, s);
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
        cli_usage_error("%s%s: empty list", prefix, opt);
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
        cli_usage_error("%s%s: '%s' is not a non-negative 64-bit number", prefix, opt, s ? s : "");
        return SL_ERR_ARG;
    }
    *out = v;
    return SL_OK;
}

sl_status cli_parse_int(const char *opt, const char *s, int lo, int hi, int *out)
{
    unsigned long long v;
    if (!parse_digits(s, &v) || v > (unsigned long long)hi || (long long)v < lo) {
        cli_usage_error("%s%s: '%s' is not a whole number from %d to %d", prefix, opt, s ? s : "", lo,
                        hi);
        return SL_ERR_ARG;
    }
    *out = (int)v;
    return SL_OK;
}

bool cli_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return a && b && stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

bool cli_stderr_is_tty(void) { return isatty(STDERR_FILENO); }
