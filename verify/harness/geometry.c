/* Probing an algorithm's geometry on the simulator (geometry.h). */
#include "verify/harness/geometry.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "model/model.h"
#include "verify/harness/app_ref.h"

/* The first size probed, and the factor between probes until a launch
 * has two blocks (then bisection between the last two). */
#define PROBE_FIRST 64
#define PROBE_STEP 8

typedef struct {
    unsigned blocks; /* of the first launch; 0 when it launched nothing */
    bool waits;
} probe_result;

static sl_status probe(const verify_algo *a, sl_type t, int block, int param, size_t n, probe_result *r)
{
    const size_t esize = SL_TYPE_SIZE(t);
    size_t out_bytes = n * esize;
    if (SL_KIND_IS_APP(a->kind))
        out_bytes = verify_app_out_bytes(a->kind, t, n, param);
    else if (a->kind == SL_KIND_REDUCE)
        out_bytes = esize;
    void *in = calloc(n ? n : 1, esize), *out = calloc(out_bytes ? out_bytes : 1, 1);
    if (!in || !out) {
        free(in);
        free(out);
        return SL_ERR_NOMEM;
    }
    model_stats s;
    model_stats_init(&s);
    s.cfg.quiet = true;
    sl_scan_args args = {.type = t, .op = SL_ADD, .in = in, .out = out, .n = n, .block = block, .param = param,
                         .sim = &s};
    sl_status st = a->run[SL_SIM](&args);
    r->blocks = s.nlaunch_records ? s.launch[0].blocks : 0;
    r->waits = s.global_polls > 0;
    model_stats_free(&s);
    free(in);
    free(out);
    return st;
}

static sl_status probe_all(const verify_algo *a, sl_type t, int block, int param, verify_geometry *g)
{
    probe_result r;
    size_t lo = 1, hi = 0; /* one block at lo, two or more at hi */
    for (size_t n = PROBE_FIRST; n <= VERIFY_GEOMETRY_MAX_N && !hi; n *= PROBE_STEP) {
        sl_status st = probe(a, t, block, param, n, &r);
        if (st != SL_OK)
            return st;
        if (r.blocks >= 2)
            hi = n;
        else
            lo = n;
    }
    if (!hi)
        return SL_OK;
    while (hi - lo > 1) {
        const size_t mid = lo + (hi - lo) / 2;
        sl_status st = probe(a, t, block, param, mid, &r);
        if (st != SL_OK)
            return st;
        if (r.blocks >= 2)
            hi = mid;
        else
            lo = mid;
    }
    g->section = lo;
    /* three sections: the second and third wait for the ones before */
    sl_status st = probe(a, t, block, param, 3 * lo, &r);
    g->waits = st == SL_OK && r.waits;
    return st;
}

/* The probes run in a child process: their runs are not checks, so the
 * call sites they reach must not count toward kernel coverage, which the
 * simulator records process-wide (model_sites). Where no child can be
 * made they run here. */
sl_status verify_probe_geometry(const verify_algo *a, sl_type t, int block, int param, verify_geometry *g)
{
    g->section = 0;
    g->waits = false;
    if (!a->run[SL_SIM])
        return SL_ERR_UNSUPPORTED;
    int fd[2];
    if (pipe(fd) != 0)
        return probe_all(a, t, block, param, g);
    fflush(NULL);
    const pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return probe_all(a, t, block, param, g);
    }
    if (pid == 0) {
        close(fd[0]);
        struct {
            sl_status st;
            verify_geometry g;
        } msg;
        msg.st = probe_all(a, t, block, param, &msg.g);
        _exit(write(fd[1], &msg, sizeof msg) == (ssize_t)sizeof msg ? 0 : 1);
    }
    close(fd[1]);
    struct {
        sl_status st;
        verify_geometry g;
    } msg;
    ssize_t got = 0;
    for (ssize_t k; got < (ssize_t)sizeof msg; got += k)
        if ((k = read(fd[0], (char *)&msg + got, sizeof msg - (size_t)got)) <= 0)
            break;
    close(fd[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        continue;
    if (got != (ssize_t)sizeof msg)
        return SL_ERR_IO;
    *g = msg.g;
    return msg.st;
}

size_t verify_geometry_sizes(const verify_geometry *g, size_t *sizes)
{
    const size_t s = g->section;
    size_t k = 0;
    if (s == 0)
        return 0;
    sizes[k++] = s - 1;
    sizes[k++] = s;
    sizes[k++] = s + 1;
    sizes[k++] = 2 * s;
    sizes[k++] = 2 * s + 1;
    sizes[k++] = 2 * s + s / 2;
    if (g->waits) {
        size_t tiles = VERIFY_GEOMETRY_TILES;
        while (tiles > 3 && tiles * s + s / 2 > VERIFY_GEOMETRY_MAX_N)
            tiles--;
        if (tiles > 3)
            sizes[k++] = tiles * s + s / 2;
    }
    return k;
}
