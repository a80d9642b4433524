/* Progress of a long command on stderr: "scanlab: verify: 120/480 cases,
 * 35 s, lookback". On a terminal the line is redrawn at most once a second;
 * otherwise (a pipe, a CI log) a full line is printed at most every 20
 * seconds, so that a log shows a few lines a minute and a short run none.
 * SCANLAB_PROGRESS_SECONDS sets that interval (seconds; 0: every update). */
#ifndef SCANLAB_PROGRESS_H
#define SCANLAB_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct cli_progress_ {
    const char *cmd;   /* "verify" */
    const char *unit;  /* "cases" */
    size_t total;
    double start, last, interval;
    bool tty, drawn;
} cli_progress;

void cli_progress_start(cli_progress *p, const char *cmd, const char *unit, size_t total);
/* done of total finished; current names what runs now (or NULL). */
void cli_progress_update(cli_progress *p, size_t done, const char *current);
/* Clears a redrawn line on a terminal. */
void cli_progress_end(cli_progress *p);

#endif
