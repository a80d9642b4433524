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
#include "verify/harness/algos.h"
#include "verify/report/plot.h"

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

/* Long numeric data (a figure's), written column by column: DIR/<name>.json
 * {"section", "table", "caption", "rows", "columns": [{"key", "label",
 * "values": [...]}]} and DIR/<name>.csv; linked, not shown. */
#define REPORT_MAX_DATA_COLS 160
typedef struct {
    char name[REPORT_NAME_LEN];
    char caption[REPORT_TEXT_LEN];
    size_t rows, ncols;
    int digits;                     /* significant digits of every value */
    char *keys[REPORT_MAX_DATA_COLS], *labels[REPORT_MAX_DATA_COLS];
    double *values[REPORT_MAX_DATA_COLS];
} report_columns;

typedef enum {
    REPORT_ITEM_TEXT,
    REPORT_ITEM_TABLE,
    REPORT_ITEM_FIGURE,
    REPORT_ITEM_LINK,
    REPORT_ITEM_COLUMNS,
} report_item_kind;

typedef struct {
    report_item_kind kind;
    char *text;
    char *href;     /* links: the target; text is the paragraph before it */
    report_table *table;
    report_figure *figure;
    report_columns *columns;
} report_item;

struct report_kcov;

/* A user's kernel the report checks (report --kernel): what it computes
 * and on which sizes. */
typedef struct {
    const verify_algo *algo; /* its one-algorithm table (user_kernel.h) */
    sl_type type;
    sl_op op;
    bool exclusive;
    size_t *sizes;           /* --n, or NULL: the section's default */
    size_t nsizes;
    int block;               /* --block, or 0: the kernel's default */
} report_user_kernel;

/* What every section may read. */
typedef struct {
    const char *dir;         /* the directory being written (a temporary one) */
    bool quick;              /* the reduced selection */
    bool allow_unreached;    /* an unreached kernel site does not fail the report (coverage) */
    bool gnuplot;            /* whether gnuplot can be run */
    uint64_t seed;
    char command[512];       /* the command line that made the report */
    char date[64];           /* UTC */
    char machine[512];       /* uname -srm and the CPU model */
    /* which call sites each kernel's verification runs reached: the verify
     * section attributes, the coverage section reports (kernel_coverage.h);
     * NULL when out of memory */
    struct report_kcov *kcov;
    const report_user_kernel *kernel; /* --kernel, or NULL */
    const char *litmus_observed;      /* --litmus-observed, or NULL: the source tree's record, if any */
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

/* Add a column-wise data set of rows values a column, digits significant
 * digits; NULL when out of memory. */
report_columns *report_columns_add(report_section *s, const char *name, const char *caption, size_t rows,
                                   int digits);
/* Append a column (values[0..rows) copied; NaN is written as null). */
sl_status report_column(report_columns *c, const char *key, const char *label, const double *values);

/* Append one cell to the table's last row (rows fill left to right). */
sl_status report_cell(report_table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Rows in the table (complete ones). */
size_t report_rows(const report_table *t);

/* The cell at row r, column c. */
const char *report_get(const report_table *t, size_t r, size_t c);

/* Add a figure; the caller draws DIR/<stem>.svg (plot.h) and sets drawn or
 * note. NULL when out of memory. */
report_figure *report_figure_add(report_section *s, const char *stem, const char *caption);

/* Add a figure and draw it with gnuplot (plot.h): without gnuplot the
 * figure carries a note instead, which is no failure; a gnuplot that fails
 * fails the section. */
sl_status report_plot(report_section *s, const char *stem, const char *caption, const plot_spec *p);
/* The same for a heat map. */
sl_status report_heatmap(report_section *s, const char *stem, const char *caption, const plot_heatmap *h);

/* Mark the section failed with a reason; returns st. */
sl_status report_fail(report_section *s, sl_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* report_fail in a section the ranks of a campaign share (verify,
 * deadlock, accuracy: docs/scaling.md), before its results are gathered:
 * with several ranks the campaign stops at once (ranks_abort, naming the
 * rank), since the others would wait for this rank's share forever. */
sl_status report_fail_shared(report_section *s, sl_status st, const char *fmt, ...)
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

/* Small multiples by algorithm level (plot.h). */
typedef struct {
    size_t count;                      /* 1: one plot, no panel titles */
    char title[PLOT_MAX_PANELS][80];
    const char *titles[PLOT_MAX_PANELS];
} report_panels;

/* Put each of n algorithms (names[i], one colour group each) into a
 * panel: grouped by level (CPU and library scans, block-level scans,
 * device-level scans, reductions, applications) in table order, at most
 * PLOT_PANEL_GROUPS a panel; one panel when all of them fit. panel[i]
 * receives the index. */
void report_panels_make(report_panels *p, const char *const *names, size_t n, int *panel);

/* One measured error curve (accuracy figures) and the bound it must stay
 * under. */
typedef struct {
    const char *algo;         /* the algorithm: one colour group */
    int backend;              /* the variant within the group */
    const char *label;
    const double *x, *y, *bound;
    size_t n;
    char bound_label[128];    /* filled by report_error_series */
} report_err_series;

/* The series of an error figure into ser (room for 2 n): every
 * measurement in the given style, panels by level (report_panels_make on
 * the algorithms), and per panel one dashed bound curve for each distinct
 * bound sequence, in the colour of the first algorithm that has it.
 * Returns the number of series. */
size_t report_error_series(report_err_series *e, size_t n, plot_style style, plot_series *ser,
                           report_panels *panels);

/* A source file as the simulator names it (relative to the build folder,
 * or absolute), relative to the repository root: "cuda/block/x.cuh". */
const char *report_repo_path(const char *file);

/* The text of line `line` of a source file (repository-relative, read
 * from the tree SCANLAB_SOURCE_ROOT names, else the one this was built
 * from) into buf: blanks and control characters as single spaces, none at
 * either end, cut to fit with "...". False (buf "") where the file or
 * line cannot be read. */
bool report_source_line(const char *file, int line, char *buf, size_t size);

/* The source tree the report reads files of (test sets, recorded GPU
 * data, kernel sources): SCANLAB_SOURCE_ROOT in the environment, else the
 * one this was built from. */
const char *report_source_root(void);

/* Free everything a section holds. */
void report_section_free(report_section *s);

/* Write DIR/index.html, DIR/report.md and each table's CSV and JSON for the
 * sections run; incomplete names the first failed section (NULL: none). */
sl_status report_write(const report_ctx *ctx, report_section *secs, size_t count);

/* Fill date and machine from the clock, uname and /proc/cpuinfo. */
void report_provenance(report_ctx *ctx);

#endif
