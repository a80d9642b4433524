/* Figures for 'scanlab report', drawn by gnuplot as SVG: the data and the
 * script are written next to the figure (DIR/src/) so that every figure can
 * be redrawn or restyled by hand.
 *
 * Colours come from a colour-blind-safe palette (Okabe and Ito) of
 * PLOT_PALETTE_SIZE colours. A figure with more series than that is drawn
 * as small multiples: panels side by side on shared axes, each with at
 * most PLOT_PANEL_GROUPS colour groups, so that no two series of a panel
 * share a colour. */
#ifndef SCANLAB_PLOT_H
#define SCANLAB_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include "cuda/status.h"

#define PLOT_PALETTE_SIZE 7
/* Colour groups per panel: the palette, less one for legibility. */
#define PLOT_PANEL_GROUPS 6
#define PLOT_MAX_PANELS 12

typedef enum {
    PLOT_LINESPOINTS, /* measured data */
    PLOT_POINTS,      /* many measured points */
    PLOT_LINES,       /* a dense measured curve (error against index) */
    PLOT_DASHED,      /* a bound */
    PLOT_BAND,        /* a closed form: a broad pale line behind the measurements */
} plot_style;

typedef struct {
    const char *label;   /* NULL or "": not in the key */
    const double *x, *y; /* n points, or NULL with expr */
    size_t n;
    const char *expr;    /* a gnuplot expression in x, drawn as a curve */
    plot_style style;
    int color;           /* colour group: a measurement and its bound share one */
    int panel;           /* index into plot_spec.panels (0 with one panel) */
    int variant;         /* within a group: 0 solid, then other dashes and point types
                          * (a second backend or type) */
} plot_series;

typedef struct {
    const char *title, *xlabel, *ylabel;
    bool logx, logy;
    double xmin, xmax;   /* both 0: from the data */
    const plot_series *series;
    size_t nseries;
    const char *const *panels; /* panel titles; npanels 0 or 1: one plot */
    size_t npanels;
} plot_spec;

/* A heat map: a grid of rows (labelled) and columns (x values), one colour
 * per cell on a colour-blind-safe sequential scale (viridis); cells <= 0 or
 * not finite stay blank. Each cell is also labelled with its value. */
typedef struct {
    const char *title, *xlabel, *ylabel, *cblabel;
    size_t nrows, ncols;
    const char *const *row_labels; /* nrows, drawn top to bottom */
    const char *const *col_labels; /* ncols */
    const double *z;               /* nrows * ncols, row-major */
    bool logcb;                    /* a logarithmic colour scale */
    /* nrows texts drawn to the right of the rows, beside their cells (the
     * source line of a call site), the colour scale after them; or NULL */
    const char *const *row_notes;
} plot_heatmap;

/* Whether gnuplot can be run (searched on PATH, once). */
bool plot_gnuplot_available(void);

/* Whether the positive values of y[0..n) span more than two decades (a
 * logarithmic axis shows them better). */
bool plot_spans_decades(const double *y, size_t n);

/* Draw p into dir/<stem>.svg (data and script in dir/src/). On failure
 * why says what went wrong. */
sl_status plot_svg(const plot_spec *p, const char *dir, const char *stem, char *why, size_t why_size);

/* Draw h into dir/<stem>.svg, the same way. */
sl_status plot_heatmap_svg(const plot_heatmap *h, const char *dir, const char *stem, char *why, size_t why_size);

#endif
