/* fuzz_fail (fuzz.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fuzz.h"

void fuzz_fail(const char *target, const char *fmt, ...)
{
    /* to the descriptor: a target may have put the stderr stream aside */
    va_list ap;
    va_start(ap, fmt);
    dprintf(STDERR_FILENO, "fuzz: %s: ", target);
    vdprintf(STDERR_FILENO, fmt, ap);
    dprintf(STDERR_FILENO, "\n");
    va_end(ap);
    abort();
}
