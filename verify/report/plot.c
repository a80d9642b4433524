/* gnuplot driving for the report's figures: one data file and one script
 * per figure in DIR/src/, run by gnuplot with its output in DIR/. */
#include "verify/report/plot.h"
#include "verify/report/report_dir.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* gnuplot draws a figure in well under a second; a run that takes longer
 * than this is stuck and is killed, so the report never hangs. */
#define PLOT_TIMEOUT_S 60
#define PLOT_POLL_NS 10000000L
#define PLOT_WIDTH 960
#define PLOT_HEIGHT 520
/* Taller figures for long keys: this many key entries fit the height. */
#define PLOT_KEY_ROWS 22
#define PLOT_KEY_ROW_PX 20
#define PLOT_KEY_COLS 3
/* Small multiples: two panels a row, each this tall plus its key. */
#define PANEL_COLS 2
#define PANEL_WIDTH 1040
#define PANEL_HEIGHT 330
#define PANEL_KEY_COLS 2
#define PANEL_KEY_ROW_PX 17
/* Heat maps: pixels per row and the margins around the rows. */
#define HEAT_ROW_PX 17
#define HEAT_EXTRA_PX 190
#define HEAT_WIDTH 1040
/* With row notes: the room for them right of the cells, and for the
 * colour scale (its box, tics and label) right of them; the rows' margins
 * above (title) and below (n's tics and label), fixed so that the colour
 * scale can be placed beside the rows. */
#define HEAT_NOTES_PX 600
#define HEAT_CB_PX 140
#define HEAT_CB_BOX_PX 14
#define HEAT_TOP_PX 60
#define HEAT_BOTTOM_PX 70
#define POINT_TYPES 5

/* Colour-blind-safe qualitative palette (Okabe and Ito, "Color Universal
 * Design", 2008), without its yellow, which is too pale on white. */
static const char *const palette[PLOT_PALETTE_SIZE] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                                       "#E69F00", "#56B4E9", "#000000"};
/* Filled circle, square, triangle, diamond, pentagon. */
static const int point_types[POINT_TYPES] = {7, 5, 9, 13, 15};

bool plot_gnuplot_available(void)
{
    static int found = -1;
    if (found >= 0)
        return found;
    found = 0;
    const char *path = getenv("PATH");
    if (!path)
        return false;
    char *copy = strdup(path);
    if (!copy)
        return false;
    for (char *save = NULL, *d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
        char exe[4096];
        snprintf(exe, sizeof exe, "%s/gnuplot", *d ? d : ".");
        found = access(exe, X_OK) == 0;
    }
    free(copy);
    return found;
}

/* A label inside a gnuplot double-quoted string. */
static void gp_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static void write_value(FILE *f, double v, bool log_axis)
{
    if (!isfinite(v) || (log_axis && v <= 0))
        fputs("?", f);
    else
        fprintf(f, "%.10g", v);
}

static sl_status write_data(const plot_spec *p, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return SL_ERR_IO;
    for (size_t s = 0; s < p->nseries; s++) {
        const plot_series *ser = &p->series[s];
        fprintf(f, "# %s\n", ser->label);
        for (size_t i = 0; ser->x && i < ser->n; i++) {
            write_value(f, ser->x[i], p->logx);
            fputc(' ', f);
            write_value(f, ser->y[i], p->logy);
            fputc('\n', f);
        }
        if (!ser->x || ser->n == 0)
            fputs("? ?\n", f); /* keeps the block numbering of 'index' */
        fputs("\n\n", f);
    }
    bool bad = ferror(f) != 0;
    return fclose(f) != 0 || bad ? SL_ERR_IO : SL_OK;
}

bool plot_spans_decades(const double *y, size_t n)
{
    double lo = INFINITY, hi = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(y[i]) && y[i] > 0) {
            lo = fmin(lo, y[i]);
            hi = fmax(hi, y[i]);
        }
    return hi > 0 && hi / lo > 100;
}

/* The palette slot of series s: colour groups are numbered in order of
 * first appearance within their panel, so that each panel starts from the
 * first colour and no two groups of a panel share one. */
static size_t slot_of(const plot_spec *p, size_t s)
{
    size_t slot = 0;
    for (size_t j = 0; j < s; j++) {
        const plot_series *a = &p->series[j];
        if (a->panel != p->series[s].panel)
            continue;
        if (a->color == p->series[s].color)
            return slot_of(p, j);
        bool first = true; /* a's group is new at j */
        for (size_t k = 0; k < j && first; k++)
            first = !(p->series[k].panel == a->panel && p->series[k].color == a->color);
        slot += first;
    }
    return slot;
}

/* One entry of the plot command. */
static void write_series(FILE *f, const plot_spec *p, size_t s, const char *stem, size_t written)
{
    const plot_series *ser = &p->series[s];
    size_t slot = slot_of(p, s);
    const char *color = palette[slot % PLOT_PALETTE_SIZE];
    int pt = point_types[((size_t)ser->variant + slot / PLOT_PALETTE_SIZE) % POINT_TYPES];
    if (written)
        fputs(", \\\n     ", f);
    if (ser->expr)
        fprintf(f, "%s", ser->expr);
    else
        fprintf(f, "'%s.dat' index %zu using 1:2", stem, s);
    if (ser->label && *ser->label) {
        fputs(" title ", f);
        gp_string(f, ser->label);
        fputs(" noenhanced", f);
    } else {
        fputs(" notitle", f);
    }
    /* solid for a group's first series, never the dashes of a bound */
    static const int dashes[] = {1, 4, 5, 3};
    int dt = dashes[(size_t)ser->variant % (sizeof dashes / sizeof dashes[0])];
    switch (ser->style) {
    case PLOT_LINESPOINTS:
        fprintf(f, " with linespoints lw 1.5 dt %d pt %d ps 0.8 lc rgb '%s'", dt, pt, color);
        break;
    case PLOT_POINTS:
        fprintf(f, " with points pt %d ps 0.25 lc rgb '%s'", pt, color);
        break;
    case PLOT_LINES:
        fprintf(f, " with lines lw 1.2 dt %d lc rgb '%s'", dt, color);
        break;
    case PLOT_DASHED:
        fprintf(f, " with lines lw 1.5 dt 2 lc rgb '%s'", color);
        break;
    case PLOT_BAND:
        /* '#AARRGGBB': AA = 0xA0 leaves about a third of the colour */
        fprintf(f, " with lines lw 9 lc rgb '#A0%s'", color + 1);
        break;
    }
}

/* The range of the data on one axis (positive values only on a log axis);
 * false when there is none. */
static bool data_range(const plot_spec *p, bool y_axis, bool log_axis, double *lo, double *hi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    for (size_t s = 0; s < p->nseries; s++)
        for (size_t i = 0; p->series[s].x && i < p->series[s].n; i++) {
            double v = y_axis ? p->series[s].y[i] : p->series[s].x[i];
            if (!isfinite(v) || (log_axis && v <= 0))
                continue;
            *lo = fmin(*lo, v);
            *hi = fmax(*hi, v);
        }
    return *lo <= *hi;
}

/* Shared axes of small multiples: every panel shows the same ranges. */
static void shared_ranges(FILE *f, const plot_spec *p)
{
    double lo, hi;
    if (p->xmin != 0 || p->xmax != 0)
        fprintf(f, "set xrange [%.10g:%.10g]\n", p->xmin, p->xmax);
    else if (data_range(p, false, p->logx, &lo, &hi) && lo < hi)
        fprintf(f, "set xrange [%.10g:%.10g]\n", lo, hi);
    if (data_range(p, true, p->logy, &lo, &hi)) {
        if (p->logy)
            fprintf(f, "set yrange [%.10g:%.10g]\n", lo / 1.5, hi * 1.5);
        else
            fprintf(f, "set yrange [%.10g:%.10g]\n", fmin(lo, 0), hi > 0 ? hi * 1.05 : 1);
    }
}

static size_t panel_entries(const plot_spec *p, size_t panel)
{
    size_t n = 0;
    for (size_t s = 0; s < p->nseries; s++)
        n += (size_t)p->series[s].panel == panel;
    return n;
}

/* The plot command of one panel: bands first, so that the measurements
 * stay visible on top of them. */
static void write_plot(FILE *f, const plot_spec *p, const char *stem, int panel)
{
    fputs("plot ", f);
    size_t written = 0;
    for (int pass = 0; pass < 2; pass++)
        for (size_t s = 0; s < p->nseries; s++)
            if (p->series[s].panel == panel && (p->series[s].style == PLOT_BAND) == (pass == 0))
                write_series(f, p, s, stem, written++);
    fputc('\n', f);
}

static sl_status write_script(const plot_spec *p, const char *path, const char *stem)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return SL_ERR_IO;
    fprintf(f, "# Redraw with: cd src && gnuplot %s.gp\n", stem);
    bool multi = p->npanels > 1;
    size_t rows = multi ? (p->npanels + PANEL_COLS - 1) / PANEL_COLS : 1;
    size_t most = 0;
    for (size_t k = 0; k < (multi ? p->npanels : 1); k++)
        most = multi ? (panel_entries(p, k) > most ? panel_entries(p, k) : most) : p->nseries;
    /* a long key goes below the plot in columns, so the plot keeps its width */
    bool below = multi || p->nseries > PLOT_KEY_ROWS;
    int width = multi ? PANEL_WIDTH : PLOT_WIDTH, height = PLOT_HEIGHT;
    if (multi)
        height = (int)rows * (PANEL_HEIGHT + (int)((most + PANEL_KEY_COLS - 1) / PANEL_KEY_COLS) * PANEL_KEY_ROW_PX);
    else if (below)
        height += (int)((p->nseries + PLOT_KEY_COLS - 1) / PLOT_KEY_COLS) * PLOT_KEY_ROW_PX;
    fprintf(f, "set terminal svg size %d,%d dynamic font 'Helvetica,14' background rgb 'white'\n", width, height);
    fprintf(f, "set output '../%s.svg'\n", stem);
    fputs("set datafile missing '?'\nset samples 400\nset border 3\nset tics nomirror out\n"
          "set grid back lc rgb '#e0e0e0' lw 1\n", f);
    if (multi)
        fprintf(f, "set key outside below left Left reverse maxcols %d samplen 2.5 font ',10'\n", PANEL_KEY_COLS);
    else if (below)
        fprintf(f, "set key outside below center horizontal Left reverse maxcols %d samplen 2.5 font ',11'\n",
                PLOT_KEY_COLS);
    else
        fputs("set key outside right top vertical Left reverse samplen 2.5 spacing 1.05 font ',11'\n", f);
    fputs("set xlabel ", f);
    gp_string(f, p->xlabel);
    fputs(" noenhanced\nset ylabel ", f);
    gp_string(f, p->ylabel);
    fputs(" noenhanced\n", f);
    if (p->logx)
        fputs("set logscale x 2\nset format x '2^{%L}'\n", f);
    if (p->logy)
        fputs("set logscale y 10\nset format y '10^{%L}'\n", f);
    if (multi) {
        shared_ranges(f, p);
        fprintf(f, "set multiplot layout %zu,%d title ", rows, PANEL_COLS);
        gp_string(f, p->title);
        fputs(" noenhanced font ',16'\n", f);
        for (size_t k = 0; k < p->npanels; k++) {
            fputs("set title ", f);
            gp_string(f, p->panels[k]);
            fputs(" noenhanced font ',13'\n", f);
            write_plot(f, p, stem, (int)k);
        }
        fputs("unset multiplot\n", f);
    } else {
        if (p->xmin != 0 || p->xmax != 0)
            fprintf(f, "set xrange [%.10g:%.10g]\n", p->xmin, p->xmax);
        fputs("set title ", f);
        gp_string(f, p->title);
        fputs(" noenhanced\n", f);
        write_plot(f, p, stem, 0);
    }
    bool bad = ferror(f) != 0;
    return fclose(f) != 0 || bad ? SL_ERR_IO : SL_OK;
}

/* Run gnuplot on script in srcdir, its output in log; killed after
 * PLOT_TIMEOUT_S. */
static sl_status run_gnuplot(const char *srcdir, const char *script, const char *log, char *why,
                             size_t why_size)
{
    /* the child is known to the interrupt handler (report_dir.h) from its
     * first instant, so that an interrupt never leaves it writing */
    sigset_t all, old;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &old);
    pid_t pid = fork();
    if (pid > 0)
        report_dir_child = pid;
    int fork_errno = errno;
    if (pid != 0)
        sigprocmask(SIG_SETMASK, &old, NULL);
    if (pid < 0) {
        snprintf(why, why_size, "cannot start gnuplot: %s", strerror(fork_errno));
        return SL_ERR_IO;
    }
    if (pid == 0) {
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        signal(SIGHUP, SIG_DFL);
        sigprocmask(SIG_SETMASK, &old, NULL);
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || chdir(srcdir) != 0)
            _exit(127);
        dup2(fd, STDOUT_FILENO);
        dup2(fd, STDERR_FILENO);
        execlp("gnuplot", "gnuplot", script, (char *)NULL);
        _exit(127);
    }
    struct timespec nap = {0, PLOT_POLL_NS};
    long polls = PLOT_TIMEOUT_S * (1000000000L / PLOT_POLL_NS);
    int wstatus = 0;
    pid_t r;
    while ((r = waitpid(pid, &wstatus, WNOHANG)) == 0 && polls-- > 0)
        nanosleep(&nap, NULL);
    if (r == 0) {
        kill(pid, SIGKILL);
        waitpid(pid, &wstatus, 0);
    }
    report_dir_child = 0;
    if (r == 0) {
        snprintf(why, why_size, "gnuplot did not finish in %d s", PLOT_TIMEOUT_S);
        return SL_ERR_IO;
    }
    if (r < 0 || !WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0) {
        snprintf(why, why_size, "gnuplot failed (see %s)", log);
        return SL_ERR_IO;
    }
    return SL_OK;
}

/* Write the data and the script of a figure (plot_spec or plot_heatmap). */
typedef sl_status (*write_fn)(const void *fig, const char *data, const char *script, const char *stem);

static sl_status write_lines(const void *fig, const char *data, const char *script, const char *stem)
{
    const plot_spec *p = fig;
    return write_data(p, data) == SL_OK && write_script(p, script, stem) == SL_OK ? SL_OK : SL_ERR_IO;
}

/* Data and script in dir/src/, gnuplot run there, the figure in dir/. */
static sl_status render(const void *fig, write_fn write, const char *dir, const char *stem, char *why,
                        size_t why_size)
{
    char src[4096], data[4200], script[4200], log[4200], svg[4200];
    snprintf(src, sizeof src, "%s/src", dir);
    if (mkdir(src, 0755) != 0 && errno != EEXIST) {
        snprintf(why, why_size, "cannot create %s: %s", src, strerror(errno));
        return SL_ERR_IO;
    }
    snprintf(data, sizeof data, "%s/%s.dat", src, stem);
    snprintf(script, sizeof script, "%s.gp", stem);
    snprintf(log, sizeof log, "%s/%s.log", src, stem);
    snprintf(svg, sizeof svg, "%s/%s.svg", dir, stem);
    char script_path[8400];
    snprintf(script_path, sizeof script_path, "%s/%s", src, script);
    if (write(fig, data, script_path, stem) != SL_OK) {
        snprintf(why, why_size, "cannot write the data or script of %s", stem);
        return SL_ERR_IO;
    }
    sl_status st = run_gnuplot(src, script, log, why, why_size);
    if (st != SL_OK)
        return st;
    struct stat sb;
    if (stat(svg, &sb) != 0 || sb.st_size == 0) {
        snprintf(why, why_size, "gnuplot wrote no %s.svg (see %s)", stem, log);
        return SL_ERR_IO;
    }
    remove(log);
    return SL_OK;
}

sl_status plot_svg(const plot_spec *p, const char *dir, const char *stem, char *why, size_t why_size)
{
    return render(p, write_lines, dir, stem, why, why_size);
}

/* --- heat maps ------------------------------------------------------------ */

/* Perceptually uniform and colour-blind safe (matplotlib's viridis). */
static const char viridis[] = "(0 '#440154', 1 '#414487', 2 '#2a788e', 3 '#22a884', 4 '#7ad151', 5 '#fde725')";
/* Cell labels switch from white to black text above this fraction of the
 * colour scale, where viridis turns light. */
#define HEAT_LIGHT_FROM 0.6

/* The row notes as the right axis's tic labels (monospace: they are
 * code), the rows' margins fixed and the colour scale moved right of the
 * notes. */
static void write_heat_notes(FILE *f, const plot_heatmap *h, int width, size_t height)
{
    const double w = width, ht = (double)height;
    fprintf(f, "set rmargin at screen %.6f\n", (w - HEAT_NOTES_PX - HEAT_CB_PX) / w);
    fprintf(f, "set tmargin at screen %.6f\nset bmargin at screen %.6f\n", 1 - HEAT_TOP_PX / ht,
            HEAT_BOTTOM_PX / ht);
    fprintf(f, "set colorbox vertical user origin screen %.6f, screen %.6f size screen %.6f, screen %.6f\n",
            (w - HEAT_CB_PX + 10) / w, HEAT_BOTTOM_PX / ht, HEAT_CB_BOX_PX / w,
            (ht - HEAT_TOP_PX - HEAT_BOTTOM_PX) / ht);
    fprintf(f, "set y2range [%zu.5:-0.5]\nset y2tics (", h->nrows - 1);
    for (size_t r = 0; r < h->nrows; r++) {
        fputs(r ? ", " : "", f);
        gp_string(f, h->row_notes[r] ? h->row_notes[r] : "");
        fprintf(f, " %zu", r);
    }
    fputs(") noenhanced font 'Courier,10' left\nset cblabel offset 2,0\n", f);
}

static sl_status write_heat(const void *fig, const char *data, const char *script, const char *stem)
{
    const plot_heatmap *h = fig;
    double lo = INFINITY, hi = 0;
    for (size_t i = 0; i < h->nrows * h->ncols; i++)
        if (isfinite(h->z[i]) && h->z[i] > 0) {
            lo = fmin(lo, h->z[i]);
            hi = fmax(hi, h->z[i]);
        }
    FILE *f = fopen(data, "w");
    if (!f)
        return SL_ERR_IO;
    fputs("# column row value label text-colour\n", f);
    bool any = false;
    for (size_t r = 0; r < h->nrows; r++)
        for (size_t c = 0; c < h->ncols; c++) {
            double z = h->z[r * h->ncols + c];
            if (!isfinite(z) || z <= 0)
                continue;
            double at = hi > lo ? (h->logcb ? log(z / lo) / log(hi / lo) : (z - lo) / (hi - lo)) : 1;
            fprintf(f, "%zu %zu %.10g \"%.4g\" %d\n", c, r, z, z, at > HEAT_LIGHT_FROM ? 0x000000 : 0xffffff);
            any = true;
        }
    if (!any)
        fputs("? ? ? \"\" 0\n", f);
    bool bad = ferror(f) != 0;
    if (fclose(f) != 0 || bad)
        return SL_ERR_IO;
    f = fopen(script, "w");
    if (!f)
        return SL_ERR_IO;
    const int width = HEAT_WIDTH + (h->row_notes ? HEAT_NOTES_PX + HEAT_CB_PX : 0);
    const size_t height = h->nrows * HEAT_ROW_PX + HEAT_EXTRA_PX;
    fprintf(f, "# Redraw with: cd src && gnuplot %s.gp\n", stem);
    fprintf(f, "set terminal svg size %d,%zu dynamic font 'Helvetica,12' background rgb 'white'\n", width, height);
    fprintf(f, "set output '../%s.svg'\n", stem);
    fputs("set datafile missing '?'\nunset key\nset border 3\nset tics nomirror out\n"
          "set style fill solid 1.0 noborder\n", f);
    fprintf(f, "set palette defined %s\n", viridis);
    if (h->logcb)
        fputs("set logscale cb 10\n", f);
    if (any)
        fprintf(f, "set cbrange [%.10g:%.10g]\n", lo, hi > lo ? hi : lo * 10);
    static const char *const what[] = {"title", "xlabel", "ylabel", "cblabel"};
    const char *text[] = {h->title, h->xlabel, h->ylabel, h->cblabel};
    for (size_t i = 0; i < 4; i++) {
        fprintf(f, "set %s ", what[i]);
        gp_string(f, text[i]);
        fputs(" noenhanced\n", f);
    }
    fprintf(f, "set xrange [-0.5:%zu.5]\nset yrange [%zu.5:-0.5]\n", h->ncols - 1, h->nrows - 1);
    fputs("set xtics (", f);
    for (size_t c = 0; c < h->ncols; c++) {
        fputs(c ? ", " : "", f);
        gp_string(f, h->col_labels[c]);
        fprintf(f, " %zu", c);
    }
    fputs(") noenhanced\nset ytics (", f);
    for (size_t r = 0; r < h->nrows; r++) {
        fputs(r ? ", " : "", f);
        gp_string(f, h->row_labels[r]);
        fprintf(f, " %zu", r);
    }
    fputs(") noenhanced font ',10'\n", f);
    if (h->row_notes)
        write_heat_notes(f, h, width, height);
    fprintf(f, "plot '%s.dat' using 1:2:(0.5):(0.5):3 with boxxyerror lc palette, \\\n"
               "     '' using 1:2:4:5 with labels font ',9' tc rgb variable\n", stem);
    bad = ferror(f) != 0;
    return fclose(f) != 0 || bad ? SL_ERR_IO : SL_OK;
}

sl_status plot_heatmap_svg(const plot_heatmap *h, const char *dir, const char *stem, char *why, size_t why_size)
{
    if (h->nrows == 0 || h->ncols == 0) {
        snprintf(why, why_size, "the heat map %s has no cells", stem);
        return SL_ERR_ARG;
    }
    return render(h, write_heat, dir, stem, why, why_size);
}
