#include "verify/harness/catalog.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "config.h"

static const char *const type_names[SL_TYPE_COUNT] = {"i32", "i64", "f32", "f64"};
static const char *const op_names[SL_OP_COUNT] = {"add", "max", "min", "affine"};
static const char *const backend_names[SL_BACKEND_COUNT] = {"seq", "omp", "sim", "cuda"};

const char *verify_type_name(sl_type t) { return t < SL_TYPE_COUNT ? type_names[t] : "?"; }
const char *verify_op_name(sl_op op) { return op < SL_OP_COUNT ? op_names[op] : "?"; }
const char *verify_backend_name(sl_backend b) { return b < SL_BACKEND_COUNT ? backend_names[b] : "?"; }

/* The reason into why (size bytes), when given; returns SL_ERR_ARG. */
static sl_status refuse(char *why, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static sl_status refuse(char *why, size_t size, const char *fmt, ...)
{
    if (why && size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, size, fmt, ap);
        va_end(ap);
    }
    return SL_ERR_ARG;
}

static sl_status parse_name(const char *what, const char *s, const char *const *names, int count,
                            int *out, char *why, size_t size)
{
    for (int i = 0; i < count; i++)
        if (strcmp(s, names[i]) == 0) {
            *out = i;
            return SL_OK;
        }
    char valid[128] = "";
    for (int i = 0, len = 0; i < count && len < (int)sizeof valid; i++)
        len += snprintf(valid + len, sizeof valid - (size_t)len, "%s%s", i ? ", " : "", names[i]);
    return refuse(why, size, "unknown %s '%s' (valid: %s)", what, s, valid);
}

static sl_status parse_list(const char *what, const char *s, const char *const *names, int count,
                            unsigned *mask, char *why, size_t size)
{
    *mask = 0;
    if (strcmp(s, "all") == 0) {
        *mask = (1u << count) - 1;
        return SL_OK;
    }
    char buf[256];
    if (strlen(s) >= sizeof buf)
        return refuse(why, size, "%s list too long", what);
    strcpy(buf, s);
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int v = 0; /* set by parse_name whenever it returns SL_OK */
        sl_status st = parse_name(what, tok, names, count, &v, why, size);
        if (st != SL_OK)
            return st;
        *mask |= 1u << v;
    }
    if (*mask == 0)
        return refuse(why, size, "empty %s list", what);
    return SL_OK;
}

sl_status verify_parse_type(const char *s, sl_type *out, char *why, size_t size)
{
    int v = 0;
    sl_status st = parse_name("type", s, type_names, SL_TYPE_COUNT, &v, why, size);
    *out = (sl_type)v;
    return st;
}

sl_status verify_parse_op(const char *s, sl_op *out, char *why, size_t size)
{
    int v = 0;
    sl_status st = parse_name("operator", s, op_names, SL_OP_COUNT, &v, why, size);
    *out = (sl_op)v;
    return st;
}

sl_status verify_parse_backend(const char *s, sl_backend *out, char *why, size_t size)
{
    int v = 0;
    sl_status st = parse_name("backend", s, backend_names, SL_BACKEND_COUNT, &v, why, size);
    *out = (sl_backend)v;
    return st;
}

sl_status verify_parse_type_list(const char *s, unsigned *mask, char *why, size_t size)
{
    return parse_list("type", s, type_names, SL_TYPE_COUNT, mask, why, size);
}

sl_status verify_parse_op_list(const char *s, unsigned *mask, char *why, size_t size)
{
    return parse_list("operator", s, op_names, SL_OP_COUNT, mask, why, size);
}

sl_status verify_parse_backend_list(const char *s, unsigned *mask, char *why, size_t size)
{
    return parse_list("backend", s, backend_names, SL_BACKEND_COUNT, mask, why, size);
}

bool verify_backend_built(sl_backend b)
{
    switch (b) {
    case SL_SEQ:
    case SL_SIM:
        return true;
    case SL_OMP:
        return SCANLAB_HAVE_OPENMP;
    case SL_CUDA:
        return SCANLAB_HAVE_CUDA;
    default:
        return false;
    }
}

const char *sl_status_str(sl_status s)
{
    switch (s) {
    case SL_OK: return "ok";
    case SL_ERR_ARG: return "bad argument";
    case SL_ERR_NOMEM: return "out of memory";
    case SL_ERR_UNSUPPORTED: return "not supported";
    case SL_ERR_NO_GPU: return "no GPU present";
    case SL_ERR_CUDA: return "CUDA error";
    case SL_ERR_TIMEOUT: return "GPU spin timed out";
    case SL_ERR_SIM: return "the simulator found an error in the kernel";
    case SL_ERR_IO: return "I/O error";
    case SL_ERR_CHECK: return "check failed";
    }
    return "unknown status";
}
