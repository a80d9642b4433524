/* The section framework of 'scanlab report': tables, figures and
 * paragraphs collected per section (the writers are in report_write.c). */
#include "verify/report/report.h"
#include "verify/campaign/ranks.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

const report_section_def report_sections[] = {
#define REPORT_SECTION(fn, name, title) {name, title, fn},
#include "verify/report/report_sections.def"
#undef REPORT_SECTION
};
const size_t report_section_count = sizeof report_sections / sizeof report_sections[0];

static report_item *new_item(report_section *s, report_item_kind kind)
{
    if (s->nitems == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 8;
        report_item *p = realloc(s->items, cap * sizeof *p);
        if (!p)
            return NULL;
        s->items = p;
        s->cap = cap;
    }
    report_item *it = &s->items[s->nitems++];
    memset(it, 0, sizeof *it);
    it->kind = kind;
    return it;
}

sl_status report_text(report_section *s, const char *fmt, ...)
{
    char buf[2 * REPORT_TEXT_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    char *copy = strdup(buf);
    report_item *it = copy ? new_item(s, REPORT_ITEM_TEXT) : NULL;
    if (!it) {
        free(copy);
        return SL_ERR_NOMEM;
    }
    it->text = copy;
    return SL_OK;
}

sl_status report_link(report_section *s, const char *text, const char *href)
{
    char *t = strdup(text), *h = strdup(href);
    report_item *it = t && h ? new_item(s, REPORT_ITEM_LINK) : NULL;
    if (!it) {
        free(t);
        free(h);
        return SL_ERR_NOMEM;
    }
    it->text = t;
    it->href = h;
    return SL_OK;
}

report_table *report_table_add(report_section *s, const char *name, const char *caption,
                               const report_col *cols, size_t ncols)
{
    if (ncols == 0 || ncols > REPORT_MAX_COLS)
        return NULL;
    report_table *t = calloc(1, sizeof *t);
    report_item *it = t ? new_item(s, REPORT_ITEM_TABLE) : NULL;
    if (!it) {
        free(t);
        return NULL;
    }
    snprintf(t->name, sizeof t->name, "%s", name);
    snprintf(t->caption, sizeof t->caption, "%s", caption);
    t->ncols = ncols;
    memcpy(t->cols, cols, ncols * sizeof *cols);
    it->table = t;
    return t;
}

sl_status report_cell(report_table *t, const char *fmt, ...)
{
    if (t->ncells == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 16 * t->ncols;
        char **p = realloc(t->cells, cap * sizeof *p);
        if (!p)
            return SL_ERR_NOMEM;
        t->cells = p;
        t->cap = cap;
    }
    char buf[REPORT_TEXT_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    char *copy = strdup(buf);
    if (!copy)
        return SL_ERR_NOMEM;
    t->cells[t->ncells++] = copy;
    return SL_OK;
}

report_columns *report_columns_add(report_section *s, const char *name, const char *caption, size_t rows,
                                   int digits)
{
    report_columns *c = calloc(1, sizeof *c);
    report_item *it = c ? new_item(s, REPORT_ITEM_COLUMNS) : NULL;
    if (!it) {
        free(c);
        return NULL;
    }
    snprintf(c->name, sizeof c->name, "%s", name);
    snprintf(c->caption, sizeof c->caption, "%s", caption);
    c->rows = rows;
    c->digits = digits;
    it->columns = c;
    return c;
}

sl_status report_column(report_columns *c, const char *key, const char *label, const double *values)
{
    if (c->ncols == REPORT_MAX_DATA_COLS)
        return SL_ERR_ARG;
    char *k = strdup(key), *l = strdup(label);
    double *v = malloc((c->rows + 1) * sizeof *v);
    if (!k || !l || !v) {
        free(k);
        free(l);
        free(v);
        return SL_ERR_NOMEM;
    }
    memcpy(v, values, c->rows * sizeof *v);
    c->keys[c->ncols] = k;
    c->labels[c->ncols] = l;
    c->values[c->ncols++] = v;
    return SL_OK;
}

size_t report_rows(const report_table *t) { return t->ncells / t->ncols; }

const char *report_get(const report_table *t, size_t r, size_t c) { return t->cells[r * t->ncols + c]; }

report_figure *report_figure_add(report_section *s, const char *stem, const char *caption)
{
    report_figure *f = calloc(1, sizeof *f);
    report_item *it = f ? new_item(s, REPORT_ITEM_FIGURE) : NULL;
    if (!it) {
        free(f);
        return NULL;
    }
    snprintf(f->stem, sizeof f->stem, "%s", stem);
    snprintf(f->caption, sizeof f->caption, "%s", caption);
    it->figure = f;
    return f;
}

sl_status report_fail(report_section *s, sl_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->why, sizeof s->why, fmt, ap);
    va_end(ap);
    s->status = st == SL_OK ? SL_ERR_CHECK : st;
    return s->status;
}

sl_status report_fail_shared(report_section *s, sl_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->why, sizeof s->why, fmt, ap);
    va_end(ap);
    /* the other ranks would wait for this one's share forever */
    if (ranks_many())
        ranks_abort(1, "report: section %s: %s", s->def ? s->def->name : "?", s->why);
    s->status = st == SL_OK ? SL_ERR_CHECK : st;
    return s->status;
}

void report_section_free(report_section *s)
{
    for (size_t i = 0; i < s->nitems; i++) {
        report_item *it = &s->items[i];
        free(it->text);
        free(it->href);
        if (it->table) {
            for (size_t c = 0; c < it->table->ncells; c++)
                free(it->table->cells[c]);
            free(it->table->cells);
            free(it->table);
        }
        free(it->figure);
        if (it->columns) {
            for (size_t c = 0; c < it->columns->ncols; c++) {
                free(it->columns->keys[c]);
                free(it->columns->labels[c]);
                free(it->columns->values[c]);
            }
            free(it->columns);
        }
    }
    free(s->items);
    s->items = NULL;
    s->nitems = s->cap = 0;
}

/* The "model name" line of /proc/cpuinfo (x86), else "CPU" or "Hardware"
 * (ARM), else "unknown CPU". */
static void cpu_model(char *buf, size_t size)
{
    snprintf(buf, size, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) && strncmp(line, "Hardware", 8) && strncmp(line, "CPU part", 8))
            continue;
        char *colon = strchr(line, ':');
        if (!colon)
            continue;
        char *v = colon + 1;
        while (*v == ' ' || *v == '\t')
            v++;
        v[strcspn(v, "\n")] = '\0';
        if (*v) {
            snprintf(buf, size, "%s", v);
            break;
        }
    }
    fclose(f);
}

void report_provenance(report_ctx *ctx)
{
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(ctx->date, sizeof ctx->date, "%Y-%m-%d %H:%M UTC", &tm);
    struct utsname u;
    char cpu[160];
    cpu_model(cpu, sizeof cpu);
    if (uname(&u) == 0)
        snprintf(ctx->machine, sizeof ctx->machine, "%s %s %s, %s", u.sysname, u.release, u.machine, cpu);
    else
        snprintf(ctx->machine, sizeof ctx->machine, "%s", cpu);
}

/* Draw with draw(fig) into a new figure of s (see report_plot). */
static sl_status add_figure(report_section *s, const char *stem, const char *caption, const void *fig,
                            sl_status (*draw)(const void *, const char *, const char *, char *, size_t))
{
    report_figure *f = report_figure_add(s, stem, caption);
    if (!f)
        return report_fail(s, SL_ERR_NOMEM, "out of memory");
    if (!s->ctx->gnuplot) {
        snprintf(f->note, sizeof f->note, "gnuplot was not found on PATH");
        return SL_OK;
    }
    char why[REPORT_TEXT_LEN];
    sl_status st = draw(fig, s->ctx->dir, stem, why, sizeof why);
    if (st != SL_OK) {
        snprintf(f->note, sizeof f->note, "%s", why);
        return report_fail(s, st, "figure %s: %s", stem, why);
    }
    f->drawn = true;
    return SL_OK;
}

static sl_status draw_lines(const void *fig, const char *dir, const char *stem, char *why, size_t size)
{
    return plot_svg(fig, dir, stem, why, size);
}

static sl_status draw_heat(const void *fig, const char *dir, const char *stem, char *why, size_t size)
{
    return plot_heatmap_svg(fig, dir, stem, why, size);
}

sl_status report_plot(report_section *s, const char *stem, const char *caption, const plot_spec *p)
{
    return add_figure(s, stem, caption, p, draw_lines);
}

sl_status report_heatmap(report_section *s, const char *stem, const char *caption, const plot_heatmap *h)
{
    return add_figure(s, stem, caption, h, draw_heat);
}
