/* The last step of 'scanlab report -o DIR': the finished report in the
 * staging folder takes DIR's place by one rename (report_swap.c). */
#ifndef SCANLAB_REPORT_SWAP_H
#define SCANLAB_REPORT_SWAP_H

#include <stddef.h>
#include "verify/report/report_dir.h"

/* Carry the user's files of DIR into the staging folder, write the marker
 * there (command, then the report's files), exchange the two folders and
 * remove the earlier report's files. On failure (SL_ERR_IO, why says it)
 * DIR is as it was and the report stays in the staging folder. */
sl_status report_swap(const report_dir *d, const char *command, char *why, size_t why_size);

#endif
