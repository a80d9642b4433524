/* The writers of 'scanlab report': index.html (inline CSS, SVG figures),
 * report.md with the same tables, and per table a CSV and a JSON file. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "verify/formats/json.h"
#include "verify/report/report.h"

static const char css[] =
    "body{font-family:'Source Serif Pro',Georgia,'Times New Roman',serif;max-width:62rem;margin:2rem auto;"
    "padding:0 1.5rem;color:#1a1a1a;line-height:1.5;background:#fff}"
    "h1{font-size:1.9rem;margin-bottom:.2rem}h2{font-size:1.35rem;border-bottom:1px solid #ccc;"
    "padding-bottom:.2rem;margin-top:2.5rem}"
    ".prov{color:#555;font-size:.92rem}.prov code,p code{font-size:.88rem;background:#f4f4f4;padding:0 .2rem}"
    "nav ol{columns:2;font-size:.95rem}"
    "table{border-collapse:collapse;margin:1rem 0;font-size:.88rem;font-variant-numeric:tabular-nums}"
    "caption{caption-side:top;text-align:left;font-style:italic;padding-bottom:.3rem;color:#333}"
    "th,td{padding:.2rem .6rem;border-bottom:1px solid #e3e3e3;text-align:left;vertical-align:top}"
    "th{border-bottom:2px solid #555;font-weight:600}td.num{text-align:right}"
    "tr.fail td{background:#fde8e8}"
    "figure{margin:1.5rem 0;text-align:center}figure img{max-width:100%;height:auto}"
    "figcaption{font-size:.9rem;color:#333;text-align:left;margin-top:.4rem}"
    "figcaption .how{display:block;color:#666;font-size:.82rem;margin-top:.2rem}"
    ".banner{background:#b00020;color:#fff;font-weight:700;padding:.8rem 1rem;margin:1rem 0;font-size:1.1rem}"
    ".failed{border-left:4px solid #b00020;padding-left:.8rem;color:#b00020}"
    ".note{color:#555;font-style:italic}.data{font-size:.88rem}";

static void html_escape(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

/* Markdown table cells: a '|' would split the cell. */
static void md_escape(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '|')
            fputs("\\|", f);
        else if (*s == '\n')
            fputc(' ', f);
        else
            fputc(*s, f);
    }
}

static bool is_number(const char *s)
{
    if (!*s)
        return false;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    return *end == '\0' && errno == 0 && isfinite(v);
}

/* --- CSV and JSON ------------------------------------------------------------ */

static void csv_cell(FILE *f, const char *s)
{
    if (strpbrk(s, ",\"\n") == NULL) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static FILE *open_in(const char *dir, const char *name, const char *ext)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s%s", dir, name, ext);
    return fopen(path, "w");
}

static sl_status close_checked(FILE *f)
{
    bool bad = ferror(f) != 0;
    return fclose(f) != 0 || bad ? SL_ERR_IO : SL_OK;
}

static sl_status write_csv(const char *dir, const report_table *t)
{
    FILE *f = open_in(dir, t->name, ".csv");
    if (!f)
        return SL_ERR_IO;
    for (size_t c = 0; c < t->ncols; c++) {
        csv_cell(f, t->cols[c].key);
        fputc(c + 1 < t->ncols ? ',' : '\n', f);
    }
    for (size_t r = 0; r < report_rows(t); r++)
        for (size_t c = 0; c < t->ncols; c++) {
            csv_cell(f, report_get(t, r, c));
            fputc(c + 1 < t->ncols ? ',' : '\n', f);
        }
    return close_checked(f);
}

static sl_status write_json(const char *dir, const char *section, const report_table *t)
{
    FILE *f = open_in(dir, t->name, ".json");
    if (!f)
        return SL_ERR_IO;
    json_writer w;
    json_init(&w, f);
    json_begin_object(&w, NULL);
    json_string(&w, "section", section);
    json_string(&w, "table", t->name);
    json_string(&w, "caption", t->caption);
    json_begin_array(&w, "columns");
    for (size_t c = 0; c < t->ncols; c++) {
        json_begin_object(&w, NULL);
        json_string(&w, "key", t->cols[c].key);
        json_string(&w, "label", t->cols[c].label);
        json_end_object(&w);
    }
    json_end_array(&w);
    json_begin_array(&w, "rows");
    for (size_t r = 0; r < report_rows(t); r++) {
        json_begin_object(&w, NULL);
        for (size_t c = 0; c < t->ncols; c++) {
            const char *v = report_get(t, r, c);
            if (!*v)
                json_null(&w, t->cols[c].key);
            else if (is_number(v))
                json_double(&w, t->cols[c].key, strtod(v, NULL));
            else
                json_string(&w, t->cols[c].key, v);
        }
        json_end_object(&w);
    }
    json_end_array(&w);
    json_end_object(&w);
    json_finish(&w);
    return close_checked(f);
}

/* --- HTML --------------------------------------------------------------------- */

/* Rows whose cells say FAIL are shaded. */
static bool row_failed(const report_table *t, size_t r)
{
    for (size_t c = 0; c < t->ncols; c++)
        if (strcmp(report_get(t, r, c), "FAIL") == 0)
            return true;
    return false;
}

static void html_table(FILE *f, const report_table *t)
{
    if (t->data_only) {
        fprintf(f, "<p class=\"data\">%s: %zu rows in <a href=\"%s.csv\">%s.csv</a> and "
                   "<a href=\"%s.json\">%s.json</a>.</p>\n",
                t->caption, report_rows(t), t->name, t->name, t->name, t->name);
        return;
    }
    fputs("<table>\n<caption>", f);
    html_escape(f, t->caption);
    fprintf(f, " <span class=\"data\">(<a href=\"%s.csv\">CSV</a>, <a href=\"%s.json\">JSON</a>)</span>"
               "</caption>\n<thead><tr>", t->name, t->name);
    for (size_t c = 0; c < t->ncols; c++) {
        fputs("<th>", f);
        html_escape(f, t->cols[c].label);
        fputs("</th>", f);
    }
    fputs("</tr></thead>\n<tbody>\n", f);
    for (size_t r = 0; r < report_rows(t); r++) {
        fputs(row_failed(t, r) ? "<tr class=\"fail\">" : "<tr>", f);
        for (size_t c = 0; c < t->ncols; c++) {
            const char *v = report_get(t, r, c);
            fputs(is_number(v) ? "<td class=\"num\">" : "<td>", f);
            html_escape(f, v);
            fputs("</td>", f);
        }
        fputs("</tr>\n", f);
    }
    fputs("</tbody>\n</table>\n", f);
}

static void html_figure(FILE *f, const report_ctx *ctx, const report_figure *g)
{
    if (!g->drawn) {
        fputs("<p class=\"note\">Figure not drawn: ", f);
        html_escape(f, g->note);
        fputs(" (the data is in the section's CSV files).</p>\n", f);
        return;
    }
    fprintf(f, "<figure><img src=\"%s.svg\" alt=\"", g->stem);
    html_escape(f, g->caption);
    fputs("\"><figcaption>", f);
    html_escape(f, g->caption);
    fputs("<span class=\"how\">Produced by <code>", f);
    html_escape(f, ctx->command);
    fputs("</code> on ", f);
    html_escape(f, ctx->date);
    fputs(", ", f);
    html_escape(f, ctx->machine);
    fprintf(f, "; drawn by gnuplot from <a href=\"src/%s.gp\">src/%s.gp</a>.</span></figcaption></figure>\n",
            g->stem, g->stem);
}

static void html_section(FILE *f, const report_ctx *ctx, const report_section *s)
{
    fprintf(f, "<section id=\"%s\">\n<h2>", s->def->name);
    html_escape(f, s->def->title);
    fputs("</h2>\n", f);
    if (s->status != SL_OK) {
        fputs("<p class=\"failed\">This section failed: ", f);
        html_escape(f, s->why);
        fputs("</p>\n", f);
    }
    for (size_t i = 0; i < s->nitems; i++) {
        const report_item *it = &s->items[i];
        if (it->kind == REPORT_ITEM_TEXT) {
            fputs("<p>", f);
            html_escape(f, it->text);
            fputs("</p>\n", f);
        } else if (it->kind == REPORT_ITEM_LINK) {
            fputs("<p>", f);
            html_escape(f, it->text);
            fputs(" <a href=\"", f);
            html_escape(f, it->href);
            fputs("\">", f);
            html_escape(f, it->href);
            fputs("</a>.</p>\n", f);
        } else if (it->kind == REPORT_ITEM_TABLE) {
            html_table(f, it->table);
        } else {
            html_figure(f, ctx, it->figure);
        }
    }
    fprintf(f, "<p class=\"note\">Section computed in %.1f s.</p>\n</section>\n", s->seconds);
}

static sl_status write_html(const report_ctx *ctx, const report_section *secs, size_t count,
                            const report_section *failed)
{
    FILE *f = open_in(ctx->dir, "index", ".html");
    if (!f)
        return SL_ERR_IO;
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
          "<title>scanlab report</title>\n<style>", f);
    fputs(css, f);
    fputs("</style>\n</head>\n<body>\n<h1>scanlab report</h1>\n", f);
    if (failed) {
        fputs("<div class=\"banner\">INCOMPLETE: section ", f);
        html_escape(f, failed->def->name);
        fputs(" failed: ", f);
        html_escape(f, failed->why);
        fputs("</div>\n", f);
    }
    fputs("<p class=\"prov\">Parallel prefix-sum (scan) algorithms: correctness, work, steps, bank "
          "conflicts and floating-point accuracy.<br>Made by <code>", f);
    html_escape(f, ctx->command);
    fputs("</code> (scanlab " SCANLAB_VERSION ", CUDA ", f);
    fputs(SCANLAB_HAVE_CUDA ? "built" : "not built", f);
    fputs(", OpenMP ", f);
    fputs(SCANLAB_HAVE_OPENMP ? "built" : "not built", f);
    fprintf(f, ", seed %llu) on ", (unsigned long long)ctx->seed);
    html_escape(f, ctx->date);
    fputs(".<br>Machine: ", f);
    html_escape(f, ctx->machine);
    fputs(".</p>\n<nav><ol>\n", f);
    for (size_t i = 0; i < count; i++) {
        fprintf(f, "<li><a href=\"#%s\">", secs[i].def->name);
        html_escape(f, secs[i].def->title);
        fputs("</a></li>\n", f);
    }
    fputs("</ol></nav>\n", f);
    for (size_t i = 0; i < count; i++)
        html_section(f, ctx, &secs[i]);
    fputs("<p class=\"note\">The same tables are in <a href=\"report.md\">report.md</a>.</p>\n"
          "</body>\n</html>\n", f);
    return close_checked(f);
}

/* --- Markdown ------------------------------------------------------------------ */

static void md_table(FILE *f, const report_table *t)
{
    if (t->data_only) {
        fprintf(f, "%s: %zu rows in [%s.csv](%s.csv) and [%s.json](%s.json).\n\n", t->caption,
                report_rows(t), t->name, t->name, t->name, t->name);
        return;
    }
    fprintf(f, "*%s* ([CSV](%s.csv), [JSON](%s.json))\n\n|", t->caption, t->name, t->name);
    for (size_t c = 0; c < t->ncols; c++) {
        fputc(' ', f);
        md_escape(f, t->cols[c].label);
        fputs(" |", f);
    }
    fputs("\n|", f);
    for (size_t c = 0; c < t->ncols; c++)
        fputs(" --- |", f);
    fputc('\n', f);
    for (size_t r = 0; r < report_rows(t); r++) {
        fputc('|', f);
        for (size_t c = 0; c < t->ncols; c++) {
            fputc(' ', f);
            md_escape(f, report_get(t, r, c));
            fputs(" |", f);
        }
        fputc('\n', f);
    }
    fputc('\n', f);
}

static sl_status write_md(const report_ctx *ctx, const report_section *secs, size_t count,
                          const report_section *failed)
{
    FILE *f = open_in(ctx->dir, "report", ".md");
    if (!f)
        return SL_ERR_IO;
    fputs("# scanlab report\n\n", f);
    if (failed)
        fprintf(f, "**INCOMPLETE: section %s failed: %s**\n\n", failed->def->name, failed->why);
    fprintf(f, "Made by `%s` (scanlab %s, seed %llu) on %s.  \nMachine: %s.\n\n", ctx->command,
            SCANLAB_VERSION, (unsigned long long)ctx->seed, ctx->date, ctx->machine);
    for (size_t i = 0; i < count; i++) {
        const report_section *s = &secs[i];
        fprintf(f, "## %s\n\n", s->def->title);
        if (s->status != SL_OK)
            fprintf(f, "**This section failed: %s**\n\n", s->why);
        for (size_t k = 0; k < s->nitems; k++) {
            const report_item *it = &s->items[k];
            if (it->kind == REPORT_ITEM_TEXT)
                fprintf(f, "%s\n\n", it->text);
            else if (it->kind == REPORT_ITEM_LINK)
                fprintf(f, "%s [%s](%s).\n\n", it->text, it->href, it->href);
            else if (it->kind == REPORT_ITEM_TABLE)
                md_table(f, it->table);
            else if (it->figure->drawn)
                fprintf(f, "![%s](%s.svg)\n\n*%s* (produced by `%s` on %s, %s)\n\n", it->figure->caption,
                        it->figure->stem, it->figure->caption, ctx->command, ctx->date, ctx->machine);
            else
                fprintf(f, "*Figure not drawn: %s.*\n\n", it->figure->note);
        }
    }
    return close_checked(f);
}

sl_status report_write(const report_ctx *ctx, report_section *secs, size_t count)
{
    const report_section *failed = NULL;
    for (size_t i = 0; i < count && !failed; i++)
        if (secs[i].status != SL_OK)
            failed = &secs[i];
    sl_status st = SL_OK;
    for (size_t i = 0; i < count && st == SL_OK; i++)
        for (size_t k = 0; k < secs[i].nitems && st == SL_OK; k++)
            if (secs[i].items[k].kind == REPORT_ITEM_TABLE) {
                st = write_csv(ctx->dir, secs[i].items[k].table);
                if (st == SL_OK)
                    st = write_json(ctx->dir, secs[i].def->name, secs[i].items[k].table);
            }
    if (st == SL_OK)
        st = write_md(ctx, secs, count, failed);
    if (st == SL_OK)
        st = write_html(ctx, secs, count, failed);
    return st;
}
