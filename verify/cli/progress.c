#include "verify/cli/progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* Seconds between lines when stderr is not a terminal, and between
 * redraws when it is. */
#define PIPE_INTERVAL 20.0
#define TTY_INTERVAL 1.0

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void cli_progress_start(cli_progress *p, const char *cmd, const char *unit, size_t total)
{
    p->cmd = cmd;
    p->unit = unit;
    p->total = total;
    p->start = p->last = now();
    p->tty = isatty(STDERR_FILENO);
    p->drawn = false;
    p->interval = p->tty ? TTY_INTERVAL : PIPE_INTERVAL;
    const char *env = getenv("SCANLAB_PROGRESS_SECONDS");
    if (env && *env) {
        char *end;
        double v = strtod(env, &end);
        if (*end == '\0' && v >= 0.0)
            p->interval = v;
    }
}

void cli_progress_update(cli_progress *p, size_t done, const char *current)
{
    double t = now();
    if (t - p->last < p->interval)
        return;
    p->last = t;
    fprintf(stderr, "%sscanlab: %s: %zu/%zu %s, %.0f s%s%s%s", p->tty ? "\r\033[K" : "", p->cmd,
            done, p->total, p->unit, t - p->start, current ? ", " : "", current ? current : "",
            p->tty ? "" : "\n");
    fflush(stderr);
    p->drawn = p->tty;
}

void cli_progress_end(cli_progress *p)
{
    if (p->drawn)
        fputs("\r\033[K", stderr);
    p->drawn = false;
}
