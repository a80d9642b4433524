/* The report behind 'scanlab report': a list of sections, each a run
 * function that fills tables, figures and paragraphs. The framework writes
 * them as one HTML page, one Markdown file and a CSV and a JSON file per
 * table. A new section is one file report_<name>.c plus one line in
 * report_sections.def. */
#ifndef SCANLAB_REPORT_H
#define SCANLAB_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuda/ops.h"
#include "cuda/status.h"

#define REPORT_MAX_COLS 16
#define REPORT_NAME_LEN 64
#define REPORT_TEXT_LEN 1024

/* A column: key is the CSV/JSON name, label the heading shown (with unit). */
typedef struct {
    const char *key, *label;
} report_col;

typedef struct {
    char name[REPORT_NAME_LEN];     /* file stem: DIR/<name>.csv, DIR/<name>.json */
    char caption[REPORT_TEXT_LEN];
    size_t ncols;
    report_col cols[REPORT_MAX_COLS];
    size_t ncells, cap;             /* cells filled row by row */
    char **cells;
    bool data_only;                 /* written as CSV/JSON, linked but not shown */
} report_table;

typedef struct {
    char stem[REPORT_NAME_LEN];     /* DIR/<stem>.svg */
    char caption[REPORT_TEXT_LEN];
    bool drawn;                     /* false: note says why not */
    char note[REPORT_TEXT_LEN];
} report_figure;

typedef enum { REPORT_ITEM_TEXT, REPORT_ITEM_TABLE, REPORT_ITEM_FIGURE, REPORT_ITEM_LINK } report_item_kind;

typedef struct {
    report_item_kind kind;
    char *text;
    char *href;     /* links: the target; text is the paragraph before it */
    report_table *table;
    report_figure *figure;
} report_item;

/* What every section may read. */
typedef struct {
    const char *dir;         /* the directory being written (a temporary one) */
    bool quick;              /* the reduced selection */
    bool gnuplot;            /* whether gnuplot can be run */
    uint64_t seed;
    char command[512];       /* the command line that made the report */
    char date[64];           /* UTC */
    char machine[512];       /* uname -srm and the CPU model */
} report_ctx;

struct report_section_def;

typedef struct {
    const struct report_section_def *def;
    const report_ctx *ctx;
    report_item *items;
    size_t nitems, cap;
    sl_status status;        /* SL_OK: the section completed */
    char why[REPORT_TEXT_LEN];
    unsigned failed_checks;  /* checks that failed (the report then exits 1) */
    double seconds;
} report_section;

typedef sl_status (*report_run_fn)(report_section *s);

typedef struct report_section_def {
    const char *name, *title;
    report_run_fn run;
} report_section_def;

/* The sections, in page order (report_sections.def). */
#define REPORT_SECTION(fn, name, title) sl_status fn(report_section *s);
#include "verify/report/report_sections.def"
#undef REPORT_SECTION
extern const report_section_def report_sections[];
extern const size_t report_section_count;

/* Add a paragraph (plain text; the writers escape it). */
sl_status report_text(report_section *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Add a paragraph "text <a href=href>href</a>." (a relative or absolute URL). */
sl_status report_link(report_section *s, const char *text, const char *href);

/* Add a table with these columns; NULL when out of memory. */
report_table *report_table_add(report_section *s, const char *name, const char *caption,
                               const report_col *cols, size_t ncols);

/* Append one cell to the table's last row (rows fill left to right). */
sl_status report_cell(report_table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Rows in the table (complete ones). */
size_t report_rows(const report_table *t);

/* The cell at row r, column c. */
const char *report_get(const report_table *t, size_t r, size_t c);

/* Add a figure; the caller draws DIR/<stem>.svg (plot.h) and sets drawn or
 * note. NULL when out of memory. */
report_figure *report_figure_add(report_section *s, const char *stem, const char *caption);

/* Add a figure and draw it with gnuplot (plot.h; p is a plot_spec *):
 * without gnuplot the figure carries a note instead, which is no failure;
 * a gnuplot that fails fails the section. */
sl_status report_plot(report_section *s, const char *stem, const char *caption, const void *p);

/* Mark the section failed with a reason; returns st. */
sl_status report_fail(report_section *s, sl_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Helpers shared by sections (report_sim.c). */
/* Run algorithm a (which has a sim backend) on one block of n elements of
 * type t (add) in the simulator, choosing the block size that makes one
 * block (else the algorithm's default); *stats (a model_stats *) receives
 * the counts and *block the threads per block used (0: default).
 * The caller frees stats with model_stats_free. */
sl_status report_sim_block(const void *algo, sl_type t, size_t n, uint64_t seed, void *stats, int *block);

/* A float add-scan input of n elements of type t (uniform in [0, 1), from
 * seed) with its exact prefixes and sums of magnitudes (report_float.c);
 * free with report_float_input_free. */
typedef struct {
    sl_type type;
    size_t n;
    void *x, *exact;
    double *abs_prefix;
} report_float_input;
sl_status report_float_input_make(sl_type t, size_t n, uint64_t seed, report_float_input *in);
void report_float_input_free(report_float_input *in);

/* Run algorithm a (a verify_algo *) on backend b over in (inclusive add)
 * and write each prefix's error in ulps and eta (n doubles each). */
sl_status report_float_errors(const void *algo, int backend, const report_float_input *in, double *ulps,
                              double *eta);

/* Free everything a section holds. */
void report_section_free(report_section *s);

/* Write DIR/index.html, DIR/report.md and each table's CSV and JSON for the
 * sections run; incomplete names the first failed section (NULL: none). */
sl_status report_write(const report_ctx *ctx, report_section *secs, size_t count);

/* Fill date and machine from the clock, uname and /proc/cpuinfo. */
void report_provenance(report_ctx *ctx);

#endif
