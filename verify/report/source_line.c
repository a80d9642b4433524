/* The text of one line of a kernel's source, for a figure beside the
 * counts of its call site (report.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify/report/report.h"

const char *report_source_root(void)
{
    const char *root = getenv("SCANLAB_SOURCE_ROOT");
    return root && *root ? root : SCANLAB_SOURCE_ROOT;
}

bool report_source_line(const char *file, int line, char *buf, size_t size)
{
    if (size == 0)
        return false;
    buf[0] = '\0';
    if (!file || line < 1 || size < 4)
        return false;
    const char *root = getenv("SCANLAB_SOURCE_ROOT");
    char path[4096];
#ifdef SCANLAB_SOURCE_ROOT
    if (!root || !*root)
        root = SCANLAB_SOURCE_ROOT;
#endif
    if (file[0] == '/' || !root || !*root)
        snprintf(path, sizeof path, "%s", file);
    else
        snprintf(path, sizeof path, "%s/%s", root, file);
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    int c = 0, at = 1;
    while (at < line && (c = getc(f)) != EOF)
        if (c == '\n')
            at++;
    if (at < line) {
        fclose(f);
        return false;
    }
    /* the line, blanks and control characters as one space, none at the
     * ends; what does not fit is cut, with "..." (never inside a UTF-8
     * sequence) */
    size_t len = 0;
    bool blank = false, full = false, any = false;
    while ((c = getc(f)) != EOF) {
        any = true;
        if (c == '\n')
            break;
        if ((unsigned char)c <= ' ' || c == 0x7f) {
            blank = len > 0;
            continue;
        }
        if (len + (blank ? 2 : 1) >= size) {
            full = true;
            break;
        }
        if (blank)
            buf[len++] = ' ';
        buf[len++] = (char)c;
        blank = false;
    }
    fclose(f);
    if (!any)
        return false; /* past the last line */
    if (full) {
        len = size - 4;
        while (len > 0 && ((unsigned char)buf[len] & 0xc0) == 0x80)
            len--;
        while (len > 0 && buf[len - 1] == ' ')
            len--;
        memcpy(buf + len, "...", 3);
        len += 3;
    }
    buf[len] = '\0';
    return true;
}
