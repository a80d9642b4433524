/* Kernel coverage: which dialect call sites of each kernel the inputs run
 * in this process executed, from the simulator's list of every call site
 * of the program (model_sites, model/model.h).
 *
 * A kernel's sites are the call sites, grouped by file and line, of its
 * template and of the kernel headers the template includes (kernel_files.h
 * names them); SHARED_DYN, a declaration the simulator does not record, is
 * not counted. A line is reached when a call site on it ran. A header
 * shared by several kernels is compiled into each of them; when the runs
 * were attributed kernel by kernel (report_kcov_attribute after each
 * algorithm's runs) a shared line counts for a kernel only when that
 * kernel's own copy ran, and a shared line that only other kernels compile
 * is not the kernel's; what ran outside the attributed runs does not count. Without attribution (verify --coverage) a shared
 * line counts as reached when any of the given kernels that include it ran
 * it. */
#ifndef SCANLAB_KERNEL_COVERAGE_H
#define SCANLAB_KERNEL_COVERAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "cuda/status.h"
#include "verify/harness/algos.h"
#include "verify/report/kernel_files.h"

/* Call sites of one kernel on one line. */
typedef struct {
    const char *file; /* repository-relative */
    int line;
    bool reached;
    char what[48];    /* the dialect calls on the line: "LD, ST" */
    const char *by;   /* unreached, but this other kernel ran it (or NULL) */
    /* the reason the source gives on the line for a site no correct run
     * of the default configuration reaches ("" when none): a trailing
     * comment that opens with REPORT_KCOV_EXEMPT and gives the reason (a
     * spin's give-up, an emulated adversary, a torn read); such a line
     * never fails a check */
    char exempt[160];
} report_kcov_line;

/* The comment that marks a line exempt (see report_kcov_line). */
#define REPORT_KCOV_EXEMPT "/* not reached by verify: "

typedef struct {
    const char *name;                /* the algorithm */
    const report_kernel_files *src;  /* its sources */
    size_t sites, reached;           /* lines with call sites */
    size_t file_sites[REPORT_KERNEL_MAX_FILES], file_reached[REPORT_KERNEL_MAX_FILES];
    report_kcov_line *lines;         /* sites of the kernel, by file and line */
} report_kcov_kernel;

typedef struct {
    report_kcov_kernel *kernels;
    size_t count;
    bool attributed;                 /* per kernel (see above) or shared lines by any */
    size_t unknown;                  /* algorithms with a sim backend but no entry in kernel_files */
} report_kcov_result;

/* A tracker of attribution: notes which call sites have run so far. */
typedef struct report_kcov report_kcov;
report_kcov *report_kcov_new(void);
void report_kcov_free(report_kcov *c);
/* The call sites that ran since the last call (or since report_kcov_new)
 * ran for algorithm name. */
void report_kcov_attribute(report_kcov *c, const char *name);
/* The same, naming the event the runs were (report_kcov_attribute counts
 * its calls): the ranks of a campaign attribute each case at its index in
 * the list every rank knows, so that the earliest event over the ranks is
 * the one a single process would have attributed the site at. name NULL:
 * the sites are nobody's. */
void report_kcov_attribute_at(report_kcov *c, const char *name, uint64_t event);

/* Coverage shared by the ranks of a campaign (verify/campaign/): each
 * process's records as one number each, REPORT_KCOV_NOT_RUN, UNOWNED (ran,
 * attributed to nobody) or the event it was attributed at, so that the
 * smallest over the ranks is the merged state. */
#define REPORT_KCOV_NOT_RUN UINT64_MAX
#define REPORT_KCOV_UNOWNED (UINT64_MAX - 1)
/* The records of the program (the length of an export). */
size_t report_kcov_site_count(void);
/* This process's state of every record into out[0 .. report_kcov_site_count()); c NULL: run or not. */
void report_kcov_export(const report_kcov *c, uint64_t *out);
/* Makes merged (the smallest export of every rank) this process's
 * coverage: every later report_kcov_compute or report_kcov_print counts
 * what any rank ran, and c (when not NULL) takes each attributed record's
 * owner, name_of(event, ctx). */
sl_status report_kcov_import(report_kcov *c, const uint64_t *merged, const char *(*name_of)(uint64_t, const void *),
                             const void *ctx);

/* A collective of the ranks of a campaign (a no-op in one process): every
 * rank's coverage merged into rank 0's (report_kcov_import), c's owners
 * named by name_of(event, ctx); what names the command in messages. At
 * rank 0 SL_OK or the failure (printed); the others return SL_OK. */
sl_status report_kcov_share(report_kcov *c, const char *(*name_of)(uint64_t, const void *), const void *ctx,
                            const char *what);

/* The coverage of the kernels among algos[0..count) that have a sim
 * backend and an entry in kernel_files.h; c (NULL: none) attributes.
 * Free with report_kcov_result_free. */
sl_status report_kcov_compute(const report_kcov *c, const verify_algo *const *algos, size_t count,
                              report_kcov_result *out);
void report_kcov_result_free(report_kcov_result *r);

/* Whether unreached line ln of kernel k fails a check (verify's default
 * checks, the report): a line of the kernel's own template; or a line of a
 * shared header that no kernel reached at all while every catalogue
 * kernel that compiles the header is among algos[0..count). A header line
 * that another kernel reached, or that none of the selected kernels
 * reached while some that compile it are not selected, may be a function
 * the kernel never calls (each kernel compiles the whole header): it is
 * listed, not failed. An exempt line never fails. */
bool report_kcov_line_fails(const report_kcov_kernel *k, const report_kcov_line *ln, const verify_algo *const *algos,
                            size_t count);

/* The entry point of 'scanlab verify --coverage': after the run, print on
 * out one line per kernel of algos[0..count) (sites, reached, percent,
 * files), then every unreached line as "path:line: note: ..." (the form
 * editors and CI annotate). Returns SL_OK or SL_ERR_NOMEM. */
sl_status report_kcov_print(FILE *out, const verify_algo *const *algos, size_t count);

#endif
