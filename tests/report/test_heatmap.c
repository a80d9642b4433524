/* The bank-conflict heat map's code column: a call site's line of source
 * read from the tree (blanks folded, cut with "...", never inside a UTF-8
 * character), and drawn to the right of the site's cells, escaped for
 * gnuplot's string and, by gnuplot, for the SVG. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "verify/report/plot.h"
#include "verify/report/report.h"

static char root[] = "/tmp/scanlab-heatmap-test-XXXXXX";

/* A long line: 31 letters, then "é" (2 bytes) repeated. */
static void write_source(void)
{
    char path[256];
    snprintf(path, sizeof path, "%s/k.cuh", root);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("// first\n", f);
    fputs("\t    ST(x, t, OP(LD(x, t),\t LD(x, t + s)));   \t\r\n", f);
    fputs("if (a < b && s[i] == \"q\\\\\") {}\n", f);
    fputs("abcdefghijklmnopqrstuvwxyzabcde", f);
    for (int i = 0; i < 40; i++)
        fputs("\xc3\xa9", f);
    fputs("\n", f);
    fputs("last without a newline", f);
    fclose(f);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = calloc(1, 1 << 20);
    assert_non_null(buf);
    size_t n = fread(buf, 1, (1 << 20) - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static void test_source_line(void **state)
{
    (void)state;
    char buf[40];
    assert_true(report_source_line("k.cuh", 2, buf, sizeof buf));
    assert_string_equal(buf, "ST(x, t, OP(LD(x, t), LD(x, t + s)));");
    assert_true(report_source_line("k.cuh", 3, buf, sizeof buf));
    assert_string_equal(buf, "if (a < b && s[i] == \"q\\\\\") {}");
    assert_true(report_source_line("k.cuh", 5, buf, sizeof buf));
    assert_string_equal(buf, "last without a newline");
    /* cut to the buffer: at most 36 bytes of text, "..." and the
     * terminator; the 36th byte is the first of an "é", so the text stops
     * before that "é" */
    assert_true(report_source_line("k.cuh", 4, buf, sizeof buf));
    assert_string_equal(buf, "abcdefghijklmnopqrstuvwxyzabcde\xc3\xa9\xc3\xa9...");
    char wide[16];
    assert_true(report_source_line("k.cuh", 2, wide, sizeof wide));
    assert_string_equal(wide, "ST(x, t, OP(...");
    /* what cannot be read is "" and false */
    assert_false(report_source_line("k.cuh", 6, buf, sizeof buf));
    assert_string_equal(buf, "");
    assert_false(report_source_line("k.cuh", 0, buf, sizeof buf));
    assert_false(report_source_line("missing.cuh", 1, buf, sizeof buf));
    assert_string_equal(buf, "");
}

static void test_notes_drawn(void **state)
{
    (void)state;
    char code[80];
    assert_true(report_source_line("k.cuh", 3, code, sizeof code));
    const char *rows[] = {"algo  k.cuh:3 LD", "algo  k.cuh:2 ST"};
    const char *notes[] = {code, ""};
    const char *cols[] = {"32", "64"};
    const double z[] = {1, 2, 0, 4};
    plot_heatmap h = {"t", "n", "site", "conflicts", 2, 2, rows, cols, z, true, notes};
    char why[256] = "";
    sl_status st = plot_heatmap_svg(&h, root, "heat", why, sizeof why);
    char path[256];
    snprintf(path, sizeof path, "%s/src/heat.gp", root);
    char *gp = slurp(path);
    assert_non_null(gp);
    /* the code as a gnuplot string: its quote and backslashes escaped */
    assert_non_null(strstr(gp, "set y2tics (\"if (a < b && s[i] == \\\"q\\\\\\\\\\\") {}\" 0, \"\" 1) noenhanced"));
    free(gp);
    if (!plot_gnuplot_available()) {
        print_message("gnuplot is not on PATH: the SVG is not checked\n");
        return;
    }
    if (st != SL_OK)
        fail_msg("%s", why);
    snprintf(path, sizeof path, "%s/heat.svg", root);
    char *svg = slurp(path);
    assert_non_null(svg);
    assert_non_null(strstr(svg, "if (a &lt; b &amp;&amp; s[i] == \"q\\\\\") {}"));
    free(svg);
    /* without notes the map is drawn as before: no right-hand axis */
    h.row_notes = NULL;
    assert_int_equal(plot_heatmap_svg(&h, root, "plain", why, sizeof why), SL_OK);
    snprintf(path, sizeof path, "%s/src/plain.gp", root);
    gp = slurp(path);
    assert_non_null(gp);
    assert_null(strstr(gp, "y2tics"));
    free(gp);
}

int main(void)
{
    if (!mkdtemp(root))
        return 1;
    setenv("SCANLAB_SOURCE_ROOT", root, 1);
    write_source();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_source_line),
        cmocka_unit_test(test_notes_drawn),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    if (system(cmd) != 0)
        rc = rc ? rc : 1;
    return rc;
}
