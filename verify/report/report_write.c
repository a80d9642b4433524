/* The writers of 'scanlab report': index.html (inline CSS, SVG figures),
 * report.md with the same tables, and per table a CSV and a JSON file. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
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
    "tr.fail td{background:#fde8e8}tr.marked td{background:#fff6d6}"
    "figure{margin:1.5rem 0;text-align:center}figure img{max-width:100%;height:auto}"
    "figcaption{font-size:.9rem;color:#333;text-align:left;margin-top:.4rem}"
    "figcaption .how{display:block;color:#666;font-size:.82rem;margin-top:.2rem}"
    ".banner{background:#b00020;color:#fff;font-weight:700;padding:.8rem 1rem;margin:1rem 0;font-size:1.1rem}"
    ".failed{border-left:4px solid #b00020;padding-left:.8rem;color:#b00020}"
    ".note{color:#555;font-style:italic}.data{font-size:.88rem}";

/* The length of the valid UTF-8 sequence at s (overlong forms, surrogates
 * and code points above U+10FFFF are invalid), or 0. */
/* A section that completed with nothing to show: left out of the pages. */
static bool report_section_empty(const report_section *s) { return s->status == SL_OK && s->nitems == 0; }

static size_t utf8_len(const unsigned char *s)
{
    if (s[0] < 0x80)
        return 1;
    size_t len = s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : s[0] >= 0xe0 && s[0] <= 0xef ? 3
               : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : 0;
    for (size_t i = 1; i < len; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    if ((len == 3 && s[0] == 0xe0 && s[1] < 0xa0) || (len == 3 && s[0] == 0xed && s[1] >= 0xa0) ||
        (len == 4 && s[0] == 0xf0 && s[1] < 0x90) || (len == 4 && s[0] == 0xf4 && s[1] >= 0x90))
        return 0;
    return len;
}

/* Text as valid UTF-8: a byte that is not part of a valid sequence (a
 * file name from a non-UTF-8 locale) is written as the four characters
 * \xNN, so every file of the report is valid UTF-8 and its JSON valid. */
static void put_text(FILE *f, const char *text, void (*put)(FILE *, const char *, size_t))
{
    const unsigned char *s = (const unsigned char *)text;
    while (*s) {
        size_t len = utf8_len(s);
        if (len == 0) {
            char esc[8];
            snprintf(esc, sizeof esc, "\\x%02X", *s);
            for (int i = 0; i < 4; i++) /* escaped again by the format */
                put(f, esc + i, 1);
            s++;
        } else {
            put(f, (const char *)s, len);
            s += len;
        }
    }
}

static void put_raw(FILE *f, const char *s, size_t len) { fwrite(s, 1, len, f); }

static void put_html(FILE *f, const char *s, size_t len)
{
    if (len > 1) {
        fwrite(s, 1, len, f);
        return;
    }
    switch (*s) {
    case '<': fputs("&lt;", f); break;
    case '>': fputs("&gt;", f); break;
    case '&': fputs("&amp;", f); break;
    case '"': fputs("&quot;", f); break;
    default: fputc(*s, f);
    }
}

/* Markdown table cells: a '|' would split the cell. */
static void put_md(FILE *f, const char *s, size_t len)
{
    if (len == 1 && *s == '|')
        fputs("\\|", f);
    else if (len == 1 && *s == '\n')
        fputc(' ', f);
    else
        fwrite(s, 1, len, f);
}

static void put_json(FILE *f, const char *s, size_t len)
{
    if (len > 1) {
        fwrite(s, 1, len, f);
        return;
    }
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
        fprintf(f, "\\%c", c);
    else if (c == '\n')
        fputs("\\n", f);
    else if (c == '\t')
        fputs("\\t", f);
    else if (c == '\r')
        fputs("\\r", f);
    else if (c < 0x20)
        fprintf(f, "\\u%04x", c);
    else
        fputc(c, f);
}

static void html_escape(FILE *f, const char *s) { put_text(f, s, put_html); }
static void md_escape(FILE *f, const char *s) { put_text(f, s, put_md); }
static void md_text(FILE *f, const char *s) { put_text(f, s, put_raw); }

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    put_text(f, s, put_json);
    fputc('"', f);
}

/* A number as JSON writes it: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
 * A table cell that is one is written as it is, with the digits the
 * section chose. */
static bool is_json_number(const char *s)
{
    if (*s == '-')
        s++;
    if (*s == '0')
        s++;
    else if (*s >= '1' && *s <= '9')
        while (*s >= '0' && *s <= '9')
            s++;
    else
        return false;
    if (*s == '.') {
        if (!(*++s >= '0' && *s <= '9'))
            return false;
        while (*s >= '0' && *s <= '9')
            s++;
    }
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '+' || *s == '-')
            s++;
        if (!(*s >= '0' && *s <= '9'))
            return false;
        while (*s >= '0' && *s <= '9')
            s++;
    }
    return *s == '\0';
}

static bool is_number(const char *s) { return is_json_number(s); }

/* --- CSV and JSON ------------------------------------------------------------ */

static void put_csv_quoted(FILE *f, const char *s, size_t len)
{
    if (len == 1 && *s == '"')
        fputc('"', f);
    fwrite(s, 1, len, f);
}

static void csv_cell(FILE *f, const char *s)
{
    if (strpbrk(s, ",\"\n\r") == NULL) {
        put_text(f, s, put_raw);
        return;
    }
    fputc('"', f);
    put_text(f, s, put_csv_quoted);
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
    fputs("{\"section\":", f);
    json_str(f, section);
    fputs(",\"table\":", f);
    json_str(f, t->name);
    fputs(",\"caption\":", f);
    json_str(f, t->caption);
    fputs(",\"columns\":[", f);
    for (size_t c = 0; c < t->ncols; c++) {
        fputs(c ? ",{\"key\":" : "{\"key\":", f);
        json_str(f, t->cols[c].key);
        fputs(",\"label\":", f);
        json_str(f, t->cols[c].label);
        fputc('}', f);
    }
    fputs("],\"rows\":[", f);
    for (size_t r = 0; r < report_rows(t); r++) {
        fputs(r ? ",\n{" : "\n{", f);
        for (size_t c = 0; c < t->ncols; c++) {
            const char *v = report_get(t, r, c);
            if (c)
                fputc(',', f);
            json_str(f, t->cols[c].key);
            fputc(':', f);
            if (!*v)
                fputs("null", f);
            else if (is_json_number(v))
                fputs(v, f);
            else
                json_str(f, v);
        }
        fputc('}', f);
    }
    fputs("]}\n", f);
    return close_checked(f);
}

/* A column-wise data set: JSON with one array a column, and CSV. */
static sl_status write_columns(const char *dir, const char *section, const report_columns *d)
{
    FILE *f = open_in(dir, d->name, ".json");
    if (!f)
        return SL_ERR_IO;
    fputs("{\"section\":", f);
    json_str(f, section);
    fputs(",\"table\":", f);
    json_str(f, d->name);
    fputs(",\"caption\":", f);
    json_str(f, d->caption);
    fprintf(f, ",\"rows\":%zu,\"columns\":[", d->rows);
    for (size_t c = 0; c < d->ncols; c++) {
        fputs(c ? ",\n{\"key\":" : "\n{\"key\":", f);
        json_str(f, d->keys[c]);
        fputs(",\"label\":", f);
        json_str(f, d->labels[c]);
        fputs(",\"values\":[", f);
        for (size_t r = 0; r < d->rows; r++) {
            double v = d->values[c][r];
            if (r)
                fputc(',', f);
            if (isfinite(v))
                fprintf(f, "%.*g", d->digits, v);
            else
                fputs("null", f);
        }
        fputs("]}", f);
    }
    fputs("]}\n", f);
    sl_status st = close_checked(f);
    if (st != SL_OK || !(f = open_in(dir, d->name, ".csv")))
        return SL_ERR_IO;
    for (size_t c = 0; c < d->ncols; c++) {
        csv_cell(f, d->keys[c]);
        fputc(c + 1 < d->ncols ? ',' : '\n', f);
    }
    for (size_t r = 0; r < d->rows; r++)
        for (size_t c = 0; c < d->ncols; c++) {
            if (isfinite(d->values[c][r]))
                fprintf(f, "%.*g", d->digits, d->values[c][r]);
            fputc(c + 1 < d->ncols ? ',' : '\n', f);
        }
    return close_checked(f);
}

/* --- HTML --------------------------------------------------------------------- */

/* Rows with a cell that starts with FAIL are shaded red, rows with one
 * that starts with "n/a" (a configuration a closed form does not cover)
 * are shaded as marked. */
static const char *row_class(const report_table *t, size_t r)
{
    const char *cls = NULL;
    for (size_t c = 0; c < t->ncols; c++) {
        const char *v = report_get(t, r, c);
        if (strncmp(v, "FAIL", 4) == 0)
            return "fail";
        if (strncmp(v, "n/a", 3) == 0)
            cls = "marked";
    }
    return cls;
}

static void html_table(FILE *f, const report_table *t)
{
    if (t->data_only) {
        fputs("<p class=\"data\">", f);
        html_escape(f, t->caption);
        fprintf(f, ": %zu rows in <a href=\"%s.csv\">%s.csv</a> and <a href=\"%s.json\">%s.json</a>.</p>\n",
                report_rows(t), t->name, t->name, t->name, t->name);
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
        const char *cls = row_class(t, r);
        if (cls)
            fprintf(f, "<tr class=\"%s\">", cls);
        else
            fputs("<tr>", f);
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
        } else if (it->kind == REPORT_ITEM_COLUMNS) {
            fputs("<p class=\"data\">", f);
            html_escape(f, it->columns->caption);
            fprintf(f, ": %zu columns of %zu values in <a href=\"%s.json\">%s.json</a> (column-wise) and "
                       "<a href=\"%s.csv\">%s.csv</a>.</p>\n",
                    it->columns->ncols, it->columns->rows, it->columns->name, it->columns->name,
                    it->columns->name, it->columns->name);
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
        if (report_section_empty(&secs[i]))
            continue;
        fprintf(f, "<li><a href=\"#%s\">", secs[i].def->name);
        html_escape(f, secs[i].def->title);
        fputs("</a></li>\n", f);
    }
    fputs("</ol></nav>\n", f);
    for (size_t i = 0; i < count; i++)
        if (!report_section_empty(&secs[i]))
            html_section(f, ctx, &secs[i]);
    fputs("<p class=\"note\">The same tables are in <a href=\"report.md\">report.md</a>; "
          "<a href=\"report.json\">report.json</a> lists the sections, tables and figures.</p>\n"
          "</body>\n</html>\n", f);
    return close_checked(f);
}

/* --- Markdown ------------------------------------------------------------------ */

static void md_table(FILE *f, const report_table *t)
{
    if (t->data_only) {
        md_text(f, t->caption);
        fprintf(f, ": %zu rows in [%s.csv](%s.csv) and [%s.json](%s.json).\n\n", report_rows(t), t->name,
                t->name, t->name, t->name);
        return;
    }
    fputc('*', f);
    md_text(f, t->caption);
    fprintf(f, "* ([CSV](%s.csv), [JSON](%s.json))\n\n|", t->name, t->name);
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

/* "Made by `command` ... on date" with the machine: the provenance line. */
static void md_provenance(FILE *f, const report_ctx *ctx)
{
    fputs("`", f);
    md_text(f, ctx->command);
    fputs("` on ", f);
    md_text(f, ctx->date);
    fputs(", ", f);
    md_text(f, ctx->machine);
}

static void md_item(FILE *f, const report_ctx *ctx, const report_item *it)
{
    switch (it->kind) {
    case REPORT_ITEM_TEXT:
        md_text(f, it->text);
        fputs("\n\n", f);
        break;
    case REPORT_ITEM_LINK:
        md_text(f, it->text);
        fputs(" [", f);
        md_text(f, it->href);
        fputs("](", f);
        md_text(f, it->href);
        fputs(").\n\n", f);
        break;
    case REPORT_ITEM_TABLE:
        md_table(f, it->table);
        break;
    case REPORT_ITEM_COLUMNS:
        md_text(f, it->columns->caption);
        fprintf(f, ": %zu columns of %zu values in [%s.json](%s.json) (column-wise) and [%s.csv](%s.csv).\n\n",
                it->columns->ncols, it->columns->rows, it->columns->name, it->columns->name, it->columns->name,
                it->columns->name);
        break;
    case REPORT_ITEM_FIGURE:
        if (it->figure->drawn) {
            fputs("![", f);
            md_text(f, it->figure->caption);
            fprintf(f, "](%s.svg)\n\n*", it->figure->stem);
            md_text(f, it->figure->caption);
            fputs("* (produced by ", f);
            md_provenance(f, ctx);
            fprintf(f, "; drawn by gnuplot from [src/%s.gp](src/%s.gp))\n\n", it->figure->stem, it->figure->stem);
        } else {
            fputs("*Figure not drawn: ", f);
            md_text(f, it->figure->note);
            fputs(".*\n\n", f);
        }
        break;
    }
}

static sl_status write_md(const report_ctx *ctx, const report_section *secs, size_t count,
                          const report_section *failed)
{
    FILE *f = open_in(ctx->dir, "report", ".md");
    if (!f)
        return SL_ERR_IO;
    fputs("# scanlab report\n\n", f);
    if (failed) {
        fprintf(f, "**INCOMPLETE: section %s failed: ", failed->def->name);
        md_text(f, failed->why);
        fputs("**\n\n", f);
    }
    fputs("Made by ", f);
    md_provenance(f, ctx);
    fprintf(f, " (scanlab %s, seed %llu).\n\n", SCANLAB_VERSION, (unsigned long long)ctx->seed);
    for (size_t i = 0; i < count; i++) {
        const report_section *s = &secs[i];
        if (report_section_empty(s))
            continue;
        fprintf(f, "## %s\n\n", s->def->title);
        if (s->status != SL_OK) {
            fputs("**This section failed: ", f);
            md_text(f, s->why);
            fputs("**\n\n", f);
        }
        for (size_t k = 0; k < s->nitems; k++)
            md_item(f, ctx, &s->items[k]);
    }
    return close_checked(f);
}

static void json_names(FILE *f, const char *key, const report_section *s, report_item_kind kind)
{
    fprintf(f, ",\"%s\":[", key);
    bool first = true;
    for (size_t k = 0; k < s->nitems; k++) {
        const report_item *it = &s->items[k];
        if (it->kind != kind)
            continue;
        fputs(first ? "" : ",", f);
        first = false;
        json_str(f, kind == REPORT_ITEM_TABLE ? it->table->name : kind == REPORT_ITEM_FIGURE ? it->figure->stem
                                                                                          : it->columns->name);
    }
    fputc(']', f);
}

/* report.json: what the report holds and how it was made, for programs. */
static sl_status write_index(const report_ctx *ctx, const report_section *secs, size_t count,
                             const report_section *failed)
{
    FILE *f = open_in(ctx->dir, "report", ".json");
    if (!f)
        return SL_ERR_IO;
    fputs("{\"scanlab\":\"" SCANLAB_VERSION "\",\"command\":", f);
    json_str(f, ctx->command);
    fputs(",\"date\":", f);
    json_str(f, ctx->date);
    fputs(",\"machine\":", f);
    json_str(f, ctx->machine);
    fprintf(f, ",\"seed\":%llu,\"quick\":%s,\"cuda\":%s,\"openmp\":%s,\"complete\":%s,\"sections\":[",
            (unsigned long long)ctx->seed, ctx->quick ? "true" : "false", SCANLAB_HAVE_CUDA ? "true" : "false",
            SCANLAB_HAVE_OPENMP ? "true" : "false", failed ? "false" : "true");
    for (size_t i = 0; i < count; i++) {
        const report_section *s = &secs[i];
        fputs(i ? ",\n{\"name\":" : "\n{\"name\":", f);
        json_str(f, s->def->name);
        fputs(",\"title\":", f);
        json_str(f, s->def->title);
        fprintf(f, ",\"completed\":%s,\"failed_checks\":%u,\"seconds\":%.1f", s->status == SL_OK ? "true" : "false",
                s->failed_checks, s->seconds);
        if (s->status != SL_OK) {
            fputs(",\"why\":", f);
            json_str(f, s->why);
        }
        json_names(f, "tables", s, REPORT_ITEM_TABLE);
        json_names(f, "data", s, REPORT_ITEM_COLUMNS);
        json_names(f, "figures", s, REPORT_ITEM_FIGURE);
        fputc('}', f);
    }
    fputs("]}\n", f);
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
        for (size_t k = 0; k < secs[i].nitems && st == SL_OK; k++) {
            const report_item *it = &secs[i].items[k];
            if (it->kind == REPORT_ITEM_TABLE) {
                st = write_csv(ctx->dir, it->table);
                if (st == SL_OK)
                    st = write_json(ctx->dir, secs[i].def->name, it->table);
            } else if (it->kind == REPORT_ITEM_COLUMNS) {
                st = write_columns(ctx->dir, secs[i].def->name, it->columns);
            }
        }
    if (st == SL_OK)
        st = write_index(ctx, secs, count, failed);
    if (st == SL_OK)
        st = write_md(ctx, secs, count, failed);
    if (st == SL_OK)
        st = write_html(ctx, secs, count, failed);
    return st;
}
