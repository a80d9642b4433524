/* Figures for 'scanlab report', drawn by gnuplot as SVG: the data and the
 * script are written next to the figure (DIR/src/) so that every figure can
 * be redrawn or restyled by hand. */
#ifndef SCANLAB_PLOT_H
#define SCANLAB_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include "cuda/status.h"

typedef enum {
    PLOT_LINESPOINTS, /* measured data */
    PLOT_POINTS,      /* many measured points */
    PLOT_LINES,       /* a dense measured curve (error against index) */
    PLOT_DASHED,      /* a bound */
    PLOT_BAND,        /* a closed form: a broad pale line behind the measurements */
} plot_style;

typedef struct {
    const char *label;
    const double *x, *y; /* n points, or NULL with expr */
    size_t n;
    const char *expr;    /* a gnuplot expression in x, drawn as a curve */
    plot_style style;
    int color;           /* palette index: a measurement and its bound share one */
} plot_series;

typedef struct {
    const char *title, *xlabel, *ylabel;
    bool logx, logy;
    double xmin, xmax;   /* both 0: gnuplot chooses */
    const plot_series *series;
    size_t nseries;
} plot_spec;

/* Whether gnuplot can be run (searched on PATH, once). */
bool plot_gnuplot_available(void);

/* Draw p into dir/<stem>.svg (data and script in dir/src/). On failure
 * why says what went wrong. */
sl_status plot_svg(const plot_spec *p, const char *dir, const char *stem, char *why, size_t why_size);

#endif
