/* .npy and raw arrays. The .npy header is a Python dict literal,
 * {'descr': '<f4', 'fortran_order': False, 'shape': (10,), }, which is
 * parsed here strictly: exactly those three keys, each once. */
#include "verify/formats/npy.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "verify/formats/output.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "npy.c reads and writes little-endian data in place: port it to this host first"
#endif

static const char NPY_MAGIC[6] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};
enum {
    NPY_PREAMBLE_V1 = 10,      /* magic, version, 2-byte header length */
    NPY_PREAMBLE_V2 = 12,      /* magic, version, 4-byte header length */
    NPY_ALIGN = 64,            /* the writer pads the preamble + header to this */
    NPY_MAX_HEADER = 1 << 16,  /* longer headers are refused, as NumPy does */
};

static sl_status fail(sl_status st, char *why, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static sl_status fail(sl_status st, char *why, size_t size, const char *fmt, ...)
{
    if (why && size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, size, fmt, ap);
        va_end(ap);
    }
    return st;
}

/* s as one line of ASCII for a message: a file's bytes (a newline, an
 * escape sequence, text that is not UTF-8) are written as \xNN. */
static const char *printable(const char *s, char *out, size_t size)
{
    size_t len = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p && len + 5 <= size; p++) {
        if (*p >= 0x20 && *p < 0x7f && *p != '\\')
            out[len++] = (char)*p;
        else
            len += (size_t)snprintf(out + len, size - len, "\\x%02x", *p);
    }
    out[len] = '\0';
    return out;
}

/* --- the header dict ----------------------------------------------------- */

typedef struct {
    const char *p, *end;
} cursor;

static void skip_space(cursor *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
        c->p++;
}

static bool eat(cursor *c, char ch)
{
    skip_space(c);
    if (c->p < c->end && *c->p == ch) {
        c->p++;
        return true;
    }
    return false;
}

/* A quoted string without escapes (none of the values we accept has one). */
static bool read_string(cursor *c, char *out, size_t size)
{
    skip_space(c);
    if (c->p >= c->end || (*c->p != '\'' && *c->p != '"'))
        return false;
    char q = *c->p++;
    size_t len = 0;
    while (c->p < c->end && *c->p != q) {
        if (*c->p == '\\' || len + 1 >= size)
            return false;
        out[len++] = *c->p++;
    }
    if (c->p >= c->end)
        return false;
    c->p++;
    out[len] = '\0';
    return true;
}

static bool read_word(cursor *c, const char *word)
{
    skip_space(c);
    size_t len = strlen(word);
    if ((size_t)(c->end - c->p) < len || memcmp(c->p, word, len) != 0)
        return false;
    if (c->p + len < c->end && (isalnum((unsigned char)c->p[len]) || c->p[len] == '_'))
        return false;
    c->p += len;
    return true;
}

/* A shape tuple: (), (n,), (n, m), ... with non-negative integers. */
static bool read_shape(cursor *c, size_t *dims, int max_dims, int *ndims)
{
    if (!eat(c, '('))
        return false;
    *ndims = 0;
    for (;;) {
        skip_space(c);
        if (eat(c, ')'))
            return true;
        if (c->p >= c->end || !isdigit((unsigned char)*c->p))
            return false;
        unsigned long long v = 0;
        while (c->p < c->end && isdigit((unsigned char)*c->p)) {
            unsigned d = (unsigned)(*c->p++ - '0');
            if (v > (ULLONG_MAX - d) / 10)
                return false;
            v = v * 10 + d;
        }
        if (v > SIZE_MAX || *ndims >= max_dims)
            return false;
        dims[(*ndims)++] = (size_t)v;
        if (!eat(c, ','))
            return eat(c, ')');
    }
}

typedef struct {
    char descr[16];
    bool fortran;
    size_t dims[8];
    int ndims;
    bool single_no_comma; /* "(5)" is the integer 5 in Python, not a tuple */
} npy_header;

static sl_status parse_header(const char *text, size_t len, npy_header *h, char *why, size_t size)
{
    cursor c = {text, text + len};
    bool have_descr = false, have_fortran = false, have_shape = false;
    if (!eat(&c, '{'))
        return fail(SL_ERR_ARG, why, size, "header is not a dict");
    for (;;) {
        if (eat(&c, '}'))
            break;
        char key[32];
        if (!read_string(&c, key, sizeof key) || !eat(&c, ':'))
            return fail(SL_ERR_ARG, why, size, "header cannot be parsed near offset %td",
                        c.p - text);
        if (strcmp(key, "descr") == 0 && !have_descr) {
            if (!read_string(&c, h->descr, sizeof h->descr))
                return fail(SL_ERR_ARG, why, size, "header: 'descr' is not a simple dtype string");
            have_descr = true;
        } else if (strcmp(key, "fortran_order") == 0 && !have_fortran) {
            if (read_word(&c, "True"))
                h->fortran = true;
            else if (read_word(&c, "False"))
                h->fortran = false;
            else
                return fail(SL_ERR_ARG, why, size, "header: 'fortran_order' is not True or False");
            have_fortran = true;
        } else if (strcmp(key, "shape") == 0 && !have_shape) {
            const char *open = c.p;
            if (!read_shape(&c, h->dims, (int)(sizeof h->dims / sizeof h->dims[0]), &h->ndims))
                return fail(SL_ERR_ARG, why, size, "header: 'shape' is not a tuple of sizes");
            /* A one-element tuple needs its comma: "(5)" would be an int. */
            h->single_no_comma = h->ndims == 1 && memchr(open, ',', (size_t)(c.p - open)) == NULL;
            have_shape = true;
        } else {
            char shown[4 * sizeof key + 1];
            return fail(SL_ERR_ARG, why, size, "header: unexpected or repeated key '%s'",
                        printable(key, shown, sizeof shown));
        }
        if (!eat(&c, ',')) {
            if (!eat(&c, '}'))
                return fail(SL_ERR_ARG, why, size, "header cannot be parsed near offset %td",
                            c.p - text);
            break;
        }
    }
    skip_space(&c);
    if (c.p != c.end)
        return fail(SL_ERR_ARG, why, size, "header has text after the dict");
    if (!have_descr || !have_fortran || !have_shape)
        return fail(SL_ERR_ARG, why, size, "header lacks '%s'",
                    !have_descr ? "descr" : !have_fortran ? "fortran_order" : "shape");
    if (h->single_no_comma)
        return fail(SL_ERR_ARG, why, size, "header: 'shape' is not a tuple");
    return SL_OK;
}

static sl_status dtype_type(const char *descr, sl_type *t, char *why, size_t size)
{
    static const struct {
        char code[3];
        sl_type type;
    } known[] = {{"i4", SL_I32}, {"i8", SL_I64}, {"f4", SL_F32}, {"f8", SL_F64}};
    char shown[64];
    if (descr[0] == '>')
        return fail(SL_ERR_ARG, why, size,
                    "dtype '%s' is big-endian (convert with a.astype(a.dtype.newbyteorder('<')))",
                    printable(descr, shown, sizeof shown));
    if (descr[0] == '<' || descr[0] == '=')
        for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
            if (strcmp(descr + 1, known[i].code) == 0) {
                *t = known[i].type;
                return SL_OK;
            }
    return fail(SL_ERR_ARG, why, size, "unsupported dtype '%s' (valid: <i4, <i8, <f4, <f8)",
                printable(descr, shown, sizeof shown));
}

static const char *dtype_descr(sl_type t)
{
    static const char *const d[] = {[SL_I32] = "<i4", [SL_I64] = "<i8", [SL_F32] = "<f4",
                                     [SL_F64] = "<f8"};
    return d[t];
}

/* --- reading -------------------------------------------------------------- */

/* Read exactly size bytes; a short read is truncation. */
static sl_status read_exact(FILE *f, void *buf, size_t size, const char *what, const char *path,
                            char *why, size_t why_size)
{
    if (size && fread(buf, 1, size, f) != size) {
        if (ferror(f))
            return fail(SL_ERR_IO, why, why_size, "%s: read error: %s", path, strerror(errno));
        return fail(SL_ERR_ARG, why, why_size, "%s: truncated in the %s", path, what);
    }
    return SL_OK;
}

/* The data part: n elements of elem bytes from the current position to the
 * end of the file, neither more nor fewer. */
static sl_status read_data(FILE *f, const char *path, size_t n, size_t elem, long pos,
                           void **data, char *why, size_t why_size)
{
    struct stat st;
    if (fstat(fileno(f), &st) != 0)
        return fail(SL_ERR_IO, why, why_size, "%s: %s", path, strerror(errno));
    unsigned long long avail = (unsigned long long)st.st_size - (unsigned long long)pos;
    if (n > SIZE_MAX / elem || (unsigned long long)(n * elem) > avail)
        return fail(SL_ERR_ARG, why, why_size,
                    "%s: truncated: the header promises %zu elements (%llu bytes), the file holds "
                    "%llu bytes of data",
                    path, n, (unsigned long long)n * elem, avail);
    if ((unsigned long long)(n * elem) < avail)
        return fail(SL_ERR_ARG, why, why_size,
                    "%s: %llu trailing bytes after the %zu elements the header promises", path,
                    avail - (unsigned long long)(n * elem), n);
    void *buf = malloc(n * elem > 0 ? n * elem : 1);
    if (!buf)
        return fail(SL_ERR_NOMEM, why, why_size, "%s: cannot allocate %zu bytes", path, n * elem);
    sl_status s = read_exact(f, buf, n * elem, "data", path, why, why_size);
    if (s == SL_OK && fgetc(f) != EOF) {
        /* more than its size said: a file of /proc or /sys (size 0, its
         * text made as it is read), or one that grew while it was read */
        if (st.st_size == 0)
            s = fail(SL_ERR_ARG, why, why_size, "%s: its size is 0 but it has bytes to read (a file of /proc or "
                     "/sys?): copy it into a regular file first", path);
        else
            s = fail(SL_ERR_ARG, why, why_size, "%s: the file grew while it was read", path);
    }
    if (s != SL_OK) {
        free(buf);
        return s;
    }
    *data = buf;
    return SL_OK;
}

/* Open a regular file for reading. O_NONBLOCK: opening a FIFO (or a
 * device) must not wait for a writer; what is not a regular file is
 * refused before anything is read from it. */
static FILE *open_read(const char *path, sl_status *st, char *why, size_t why_size)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        *st = fail(SL_ERR_IO, why, why_size, "%s: %s", path, strerror(errno));
        return NULL;
    }
    struct stat sb;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        close(fd);
        *st = fail(SL_ERR_ARG, why, why_size, "%s: not a regular file (%s)", path,
                   S_ISFIFO(sb.st_mode) ? "a FIFO" : S_ISDIR(sb.st_mode) ? "a directory"
                   : S_ISCHR(sb.st_mode) ? "a character device" : S_ISSOCK(sb.st_mode) ? "a socket"
                   : "a device");
        return NULL;
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0)
        fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        *st = fail(SL_ERR_NOMEM, why, why_size, "%s: %s", path, strerror(errno));
        close(fd);
    }
    return f;
}

static sl_status npy_read_from(FILE *f, const char *path, sl_type *type, void **data, size_t *n,
                               char *why, size_t why_size)
{
    unsigned char pre[NPY_PREAMBLE_V2];
    sl_status s = read_exact(f, pre, 8, "magic", path, why, why_size);
    if (s != SL_OK)
        return s;
    if (memcmp(pre, NPY_MAGIC, sizeof NPY_MAGIC) != 0)
        return fail(SL_ERR_ARG, why, why_size, "%s: not a .npy file (bad magic)", path);
    unsigned major = pre[6], minor = pre[7];
    if (major < 1 || major > 3 || minor != 0)
        return fail(SL_ERR_ARG, why, why_size, "%s: unsupported .npy version %u.%u", path, major,
                    minor);
    size_t hlen;
    long pos;
    if (major == 1) {
        if ((s = read_exact(f, pre + 8, 2, "header length", path, why, why_size)) != SL_OK)
            return s;
        hlen = (size_t)pre[8] | (size_t)pre[9] << 8;
        pos = NPY_PREAMBLE_V1;
    } else {
        if ((s = read_exact(f, pre + 8, 4, "header length", path, why, why_size)) != SL_OK)
            return s;
        hlen = (size_t)pre[8] | (size_t)pre[9] << 8 | (size_t)pre[10] << 16 | (size_t)pre[11] << 24;
        pos = NPY_PREAMBLE_V2;
    }
    if (hlen > NPY_MAX_HEADER)
        return fail(SL_ERR_ARG, why, why_size, "%s: header of %zu bytes is too long", path, hlen);
    char *text = malloc(hlen + 1);
    if (!text)
        return fail(SL_ERR_NOMEM, why, why_size, "%s: cannot allocate the header", path);
    s = read_exact(f, text, hlen, "header", path, why, why_size);
    npy_header h = {0};
    char reason[160];
    if (s == SL_OK && (hlen == 0 || text[hlen - 1] != '\n'))
        s = fail(SL_ERR_ARG, why, why_size, "%s: header does not end with a newline", path);
    if (s == SL_OK && memchr(text, '\0', hlen))
        s = fail(SL_ERR_ARG, why, why_size, "%s: header contains a NUL byte", path);
    if (s == SL_OK && parse_header(text, hlen, &h, reason, sizeof reason) != SL_OK)
        s = fail(SL_ERR_ARG, why, why_size, "%s: %s", path, reason);
    free(text);
    if (s != SL_OK)
        return s;
    if (dtype_type(h.descr, type, reason, sizeof reason) != SL_OK)
        return fail(SL_ERR_ARG, why, why_size, "%s: %s", path, reason);
    if (h.fortran)
        return fail(SL_ERR_ARG, why, why_size, "%s: fortran_order is True (write it in C order)",
                    path);
    if (h.ndims != 1)
        return fail(SL_ERR_ARG, why, why_size, "%s: the array has %d dimensions, not 1 (use a.ravel())",
                    path, h.ndims);
    *n = h.dims[0];
    return read_data(f, path, *n, SL_TYPE_SIZE(*type), pos + (long)hlen, data, why, why_size);
}

sl_status verify_npy_read(const char *path, sl_type *type, void **data, size_t *n, char *why,
                          size_t why_size)
{
    sl_status st;
    FILE *f = open_read(path, &st, why, why_size);
    if (!f)
        return st;
    st = npy_read_from(f, path, type, data, n, why, why_size);
    fclose(f);
    return st;
}

static sl_status raw_read_from(FILE *f, const char *path, sl_type t, void **data, size_t *n,
                               char *why, size_t why_size)
{
    sl_status st;
    struct stat sb;
    size_t elem = SL_TYPE_SIZE(t);
    if (fstat(fileno(f), &sb) != 0) {
        st = fail(SL_ERR_IO, why, why_size, "%s: %s", path, strerror(errno));
    } else if ((unsigned long long)sb.st_size % elem != 0) {
        st = fail(SL_ERR_ARG, why, why_size,
                  "%s: %llu bytes is not a whole number of %zu-byte elements", path,
                  (unsigned long long)sb.st_size, elem);
    } else {
        *n = (size_t)((unsigned long long)sb.st_size / elem);
        st = read_data(f, path, *n, elem, 0, data, why, why_size);
    }
    return st;
}

sl_status verify_raw_read(const char *path, sl_type t, void **data, size_t *n, char *why,
                          size_t why_size)
{
    if (t >= SL_TYPE_COUNT)
        return fail(SL_ERR_ARG, why, why_size, "%s: a raw file needs its element type", path);
    sl_status st;
    FILE *f = open_read(path, &st, why, why_size);
    if (!f)
        return st;
    st = raw_read_from(f, path, t, data, n, why, why_size);
    fclose(f);
    return st;
}

sl_status verify_array_read(const char *path, sl_type raw_type, sl_type *type, void **data,
                            size_t *n, char *why, size_t why_size)
{
    sl_status st;
    FILE *f = open_read(path, &st, why, why_size);
    if (!f)
        return st;
    /* one open: the file read is the file whose magic was looked at */
    char magic[sizeof NPY_MAGIC];
    bool npy = fread(magic, 1, sizeof magic, f) == sizeof magic &&
               memcmp(magic, NPY_MAGIC, sizeof magic) == 0;
    rewind(f);
    if (npy) {
        st = npy_read_from(f, path, type, data, n, why, why_size);
    } else if (raw_type >= SL_TYPE_COUNT) {
        st = fail(SL_ERR_ARG, why, why_size,
                  "%s: not a .npy file (bad magic); give --type to read it as raw binary", path);
    } else {
        *type = raw_type;
        st = raw_read_from(f, path, raw_type, data, n, why, why_size);
    }
    fclose(f);
    return st;
}

/* --- writing -------------------------------------------------------------- */

sl_status verify_npy_write(const char *path, sl_type t, const void *data, size_t n, char *why,
                           size_t why_size)
{
    if (t >= SL_TYPE_COUNT || (n && !data))
        return fail(SL_ERR_ARG, why, why_size, "%s: nothing valid to write", path);
    char dict[128];
    int dlen = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (%zu,), }",
                        dtype_descr(t), n);
    /* Pad with spaces so that preamble + header + '\n' is a multiple of 64. */
    size_t total = NPY_PREAMBLE_V1 + (size_t)dlen + 1;
    size_t padded = (total + NPY_ALIGN - 1) / NPY_ALIGN * NPY_ALIGN;
    size_t hlen = padded - NPY_PREAMBLE_V1;
    unsigned char head[NPY_PREAMBLE_V1 + 192];
    memcpy(head, NPY_MAGIC, sizeof NPY_MAGIC);
    head[6] = 1;
    head[7] = 0;
    head[8] = (unsigned char)(hlen & 0xff);
    head[9] = (unsigned char)(hlen >> 8);
    memcpy(head + NPY_PREAMBLE_V1, dict, (size_t)dlen);
    memset(head + NPY_PREAMBLE_V1 + dlen, ' ', hlen - (size_t)dlen - 1);
    head[padded - 1] = '\n';

    const void *parts[2] = {head, data};
    size_t sizes[2] = {padded, n * SL_TYPE_SIZE(t)};
    return verify_output_write(path, parts, sizes, 2, why, why_size);
}
