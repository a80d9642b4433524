/* The folder of 'scanlab report -o DIR': claimed when the report starts,
 * filled only when it is complete, and never a place where scanlab deletes
 * what it did not write.
 *
 *   claim    DIR is created when missing; DIR/.scanlab-report.lock (our pid)
 *            holds it for the whole run; sections write into the staging
 *            folder DIR.tmp-XXXXXX next to it.
 *   install  a complete report takes DIR's place whole, by one rename
 *            that exchanges the staging folder and DIR (report_swap.h):
 *            what DIR held that is not the earlier report's moves along
 *            first; the regular files the earlier report listed in
 *            DIR/.scanlab-report (plain names in DIR or in a real DIR/src,
 *            nothing else) go with the earlier folder. No link is followed.
 *   release  after a failure: the staging folder stays (the incomplete
 *            report); DIR is left as it was (removed again only when this
 *            run created it and it is empty).
 *   guard    SIGINT, SIGTERM, SIGHUP: the staging folder and the claim are
 *            removed, then the process dies of the signal. */
#ifndef SCANLAB_REPORT_DIR_H
#define SCANLAB_REPORT_DIR_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include "cuda/status.h"

/* Marks a folder as a report; lists the files that report wrote. */
#define REPORT_MARKER ".scanlab-report"
/* Held by a running report: its pid. */
#define REPORT_LOCK ".scanlab-report.lock"

typedef struct {
    char dir[PATH_MAX];       /* DIR, without trailing slashes */
    char tmp[PATH_MAX + 16];  /* DIR.tmp-XXXXXX: the staging folder */
    char lock[PATH_MAX + 32]; /* DIR/.scanlab-report.lock */
    bool created_dir;     /* this run made DIR */
    dev_t dev;            /* DIR's identity when claimed */
    ino_t ino, lock_ino;
} report_dir;

/* Check DIR and claim it. Refused (SL_ERR_ARG, why says it): a symbolic
 * link, the working directory or one of its parents, something that is
 * not a directory, a directory holding anything but an earlier report, a
 * report another scanlab is writing. SL_ERR_IO: it cannot be created or
 * written. */
sl_status report_dir_claim(report_dir *d, const char *path, char *why, size_t why_size);

/* Put the staged report in DIR's place (see above) and drop the claim.
 * On failure DIR is as it was and the staging folder keeps the report. */
sl_status report_dir_install(report_dir *d, const char *command, char *why, size_t why_size);

/* Drop the claim after a failure, keeping the staging folder. */
void report_dir_release(report_dir *d);

/* Install the signal handlers for this claim (d must live until
 * report_dir_unguard), and remove them. */
void report_dir_guard(report_dir *d);
void report_dir_unguard(void);

/* The gnuplot child now running (0: none), killed by the handlers. */
extern volatile pid_t report_dir_child;

#endif
