/* Report section "coverage": a link to the gcovr report of the test suite
 * when coverage/run.sh has made one. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "verify/report/report.h"

#define COVERAGE_INDEX "build-coverage/coverage/index.html"

/* The path of target relative to the directory from (both absolute). */
static void relative_path(const char *from, const char *target, char *out, size_t size)
{
    size_t common = 0, flen = strlen(from);
    for (size_t i = 0; from[i] && from[i] == target[i]; i++)
        if (from[i] == '/')
            common = i + 1;
    if (strncmp(from, target, flen) == 0 && target[flen] == '/')
        common = flen + 1; /* target lies inside from */
    size_t len = 0;
    out[0] = '\0';
    for (const char *p = from + common; p && *p && len < size; p = strchr(p, '/') ? strchr(p, '/') + 1 : NULL)
        len += (size_t)snprintf(out + len, size - len, "../");
    if (len < size)
        snprintf(out + len, size - len, "%s", target + common);
}

sl_status report_run_coverage(report_section *s)
{
    char target[PATH_MAX], from[PATH_MAX];
    if (!realpath(COVERAGE_INDEX, target)) {
        report_text(s, "No coverage report was found (" COVERAGE_INDEX " relative to the working "
                       "directory). Run coverage/run.sh from the repository root to make one, then "
                       "run the report again from there.");
        return SL_OK;
    }
    if (!realpath(s->ctx->dir, from))
        return report_fail(s, SL_ERR_IO, "cannot resolve %s", s->ctx->dir);
    char rel[2 * PATH_MAX];
    relative_path(from, target, rel, sizeof rel);
    if (report_link(s, "The line and branch coverage of the test suite (gcovr, made by coverage/run.sh from "
                       "the repository root) is at", rel) != SL_OK)
        return report_fail(s, SL_ERR_NOMEM, "out of memory");
    return SL_OK;
}
