/* The litmus section's progress part (report_progress.c). */
#ifndef SCANLAB_REPORT_PROGRESS_H
#define SCANLAB_REPORT_PROGRESS_H

#include "verify/report/report.h"

/* The project's progress litmus tests, each model's verdicts against
 * those the test states, as a table of section s; a difference fails a
 * check. */
sl_status report_progress_litmus(report_section *s);

#endif
