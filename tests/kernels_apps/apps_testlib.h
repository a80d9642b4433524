/* Helpers of the application suites: run an application by table name on
 * a backend with a given block and parameter, and compare with the
 * reference. */
#ifndef SCANLAB_APPS_TESTLIB_H
#define SCANLAB_APPS_TESTLIB_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/apps/app_defs.h"
#include "model/model.h"
#include "verify/harness/algos.h"
#include "verify/harness/app_ref.h"

/* The run of one application: its status, and the output (header + data)
 * in a buffer of verify_app_out_bytes bytes that the caller frees. */
typedef struct {
    sl_status status;
    unsigned char *out;
    size_t bytes;
} app_run;

/* Runs algorithm name on backend b; stats (may be NULL) receives the
 * simulator's counts. */
static inline app_run apps_run(const char *name, sl_backend b, sl_type t, const void *in, size_t n,
                               int block, int param, model_stats *stats)
{
    app_run r = {SL_ERR_ARG, NULL, 0};
    const verify_algo *al = verify_find_algo(name, false);
    if (!al || !al->run[b])
        return r;
    r.bytes = verify_app_out_bytes(al->kind, t, n, param);
    if (r.bytes == 0)
        r.bytes = SL_APP_HEADER_BYTES + 1; /* invalid param: the run must refuse it */
    r.out = malloc(r.bytes);
    if (!r.out) {
        r.status = SL_ERR_NOMEM;
        return r;
    }
    memset(r.out, 0xa5, r.bytes);
    sl_scan_args a = {.type = t, .op = SL_ADD, .in = in, .out = r.out, .n = n, .block = block,
                      .param = param, .sim = stats};
    r.status = al->run[b](&a);
    return r;
}

/* The output's count header. */
static inline uint64_t apps_count(const unsigned char *out)
{
    uint64_t c;
    memcpy(&c, out, sizeof c);
    return c;
}

/* Whether run r equals the reference of its application: the count and
 * the elements the contract defines. */
static inline bool apps_matches_reference(const char *name, sl_type t, const void *in, size_t n,
                                          int param, const app_run *r)
{
    const verify_algo *al = verify_find_algo(name, false);
    size_t elem = 0, cap = 0;
    if (!al || r->status != SL_OK || verify_app_layout(al->kind, t, n, param, &elem, &cap) != SL_OK)
        return false;
    unsigned char *ref = calloc(1, r->bytes);
    if (!ref)
        return false;
    bool ok = verify_app_reference(al->kind, t, in, n, param, ref) == SL_OK;
    uint64_t count = apps_count(ref);
    size_t defined = sl_app_defines_all(al->kind) ? n : (size_t)count;
    ok = ok && apps_count(r->out) == count &&
         memcmp(ref + SL_APP_HEADER_BYTES, r->out + SL_APP_HEADER_BYTES, defined * elem) == 0;
    free(ref);
    return ok;
}

#endif
