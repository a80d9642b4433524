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
/* Series share a colour when they belong together (a measurement and its
 * bound); beyond the palette, the point type tells them apart. */
#define PLOT_POINT_TYPES 5

/* Colour-blind-safe qualitative palette (Okabe and Ito). */
static const char *const palette[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                      "#E69F00", "#56B4E9", "#000000", "#999999"};
#define PALETTE_SIZE (sizeof palette / sizeof palette[0])

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

/* One entry of the plot command: bands are drawn first so that the
 * measurements stay visible on top of them. */
static void write_series(FILE *f, const plot_spec *p, size_t s, const char *stem, size_t written)
{
    const plot_series *ser = &p->series[s];
    const char *color = palette[(size_t)ser->color % PALETTE_SIZE];
    static const int point_types[PLOT_POINT_TYPES] = {7, 5, 9, 11, 13};
    int pt = point_types[((size_t)ser->color / PALETTE_SIZE) % PLOT_POINT_TYPES];
    if (written)
        fputs(", \\\n     ", f);
    if (ser->expr)
        fprintf(f, "%s", ser->expr);
    else
        fprintf(f, "'%s.dat' index %zu using 1:2", stem, s);
    fputs(" title ", f);
    gp_string(f, ser->label);
    fputs(" noenhanced", f);
    switch (ser->style) {
    case PLOT_LINESPOINTS:
        fprintf(f, " with linespoints lw 1.5 pt %d ps 0.8 lc rgb '%s'", pt, color);
        break;
    case PLOT_POINTS:
        fprintf(f, " with points pt %d ps 0.25 lc rgb '%s'", pt, color);
        break;
    case PLOT_LINES:
        fprintf(f, " with lines lw 1.2 lc rgb '%s'", color);
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

static sl_status write_script(const plot_spec *p, const char *path, const char *stem)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return SL_ERR_IO;
    fprintf(f, "# Redraw with: cd src && gnuplot %s.gp\n", stem);
    /* a long key goes below the plot in columns, so the plot keeps its width */
    bool below = p->nseries > PLOT_KEY_ROWS;
    int height = PLOT_HEIGHT;
    if (below)
        height += (int)((p->nseries + PLOT_KEY_COLS - 1) / PLOT_KEY_COLS) * PLOT_KEY_ROW_PX;
    fprintf(f, "set terminal svg size %d,%d dynamic font 'Helvetica,14' background rgb 'white'\n",
            PLOT_WIDTH, height);
    fprintf(f, "set output '../%s.svg'\n", stem);
    fputs("set datafile missing '?'\nset samples 400\nset border 3\nset tics nomirror out\n"
          "set grid back lc rgb '#e0e0e0' lw 1\n", f);
    if (below)
        fprintf(f, "set key outside below center horizontal Left reverse maxcols %d samplen 2.5 font ',11'\n",
                PLOT_KEY_COLS);
    else
        fputs("set key outside right top vertical Left reverse samplen 2.5 spacing 1.05 font ',11'\n", f);
    fputs("set title ", f);
    gp_string(f, p->title);
    fputs(" noenhanced\nset xlabel ", f);
    gp_string(f, p->xlabel);
    fputs(" noenhanced\nset ylabel ", f);
    gp_string(f, p->ylabel);
    fputs(" noenhanced\n", f);
    if (p->logx)
        fputs("set logscale x 2\nset format x '2^{%L}'\n", f);
    if (p->logy)
        fputs("set logscale y 10\nset format y '10^{%L}'\n", f);
    if (p->xmin != 0 || p->xmax != 0)
        fprintf(f, "set xrange [%.10g:%.10g]\n", p->xmin, p->xmax);
    fputs("plot ", f);
    size_t written = 0;
    for (int pass = 0; pass < 2; pass++)
        for (size_t s = 0; s < p->nseries; s++)
            if ((p->series[s].style == PLOT_BAND) == (pass == 0))
                write_series(f, p, s, stem, written++);
    fputc('\n', f);
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

sl_status plot_svg(const plot_spec *p, const char *dir, const char *stem, char *why, size_t why_size)
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
    if (write_data(p, data) != SL_OK || write_script(p, script_path, stem) != SL_OK) {
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
