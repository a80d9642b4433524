/* The kernel sources of every algorithm of cuda/kernels.def, made at build
 * time from the templates' #include lines (kernel_files.py): what the
 * report's panels group by level and what kernel coverage counts. */
#ifndef SCANLAB_KERNEL_FILES_H
#define SCANLAB_KERNEL_FILES_H

#include <stddef.h>

#define REPORT_KERNEL_MAX_FILES 12

typedef struct {
    const char *name;  /* the algorithm, as in the table */
    const char *level; /* its folder: block, device, reduce, apps */
    /* cuda/<level>/<file>_tmpl.cuh first, then the kernel sources it
     * includes (repository-relative), NULL-terminated */
    const char *files[REPORT_KERNEL_MAX_FILES + 1];
} report_kernel_files;

extern const report_kernel_files report_kernel_files_table[];
extern const size_t report_kernel_files_count;

/* The entry of algorithm name, or NULL (CPU algorithms, other tables). */
const report_kernel_files *report_kernel_files_of(const char *name);

#endif
