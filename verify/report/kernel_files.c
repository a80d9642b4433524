/* Look-up in the generated kernel source table (kernel_files.h). */
#include "verify/report/kernel_files.h"

#include <string.h>

const report_kernel_files *report_kernel_files_of(const char *name)
{
    for (size_t i = 0; i < report_kernel_files_count; i++)
        if (strcmp(report_kernel_files_table[i].name, name) == 0)
            return &report_kernel_files_table[i];
    return NULL;
}
