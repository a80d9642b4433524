/* What scanlab run needs to know of a program before it runs it: how it
 * is linked to the CUDA runtime, read from its ELF headers. */
#ifndef SCANLAB_PROGRAM_CHECK_H
#define SCANLAB_PROGRAM_CHECK_H

#include <stddef.h>

typedef enum {
    PROGRAM_CUDART_SHARED, /* needs libcudart.so.N: the simulator's runtime takes its place */
    PROGRAM_CUDART_STATIC, /* device code, and no libcudart.so.N: nvcc's default -cudart static */
    PROGRAM_NO_CUDA,       /* no device code and no libcudart (a script, or a program that loads it itself) */
    PROGRAM_NOT_ELF,       /* not a 64-bit ELF file: run as it is */
} program_link;

typedef struct {
    program_link link;
    unsigned cudart_major; /* PROGRAM_CUDART_SHARED: N of libcudart.so.N */
    int has_rpath;         /* a DT_RPATH, which the loader searches before LD_LIBRARY_PATH */
} program_info;

/* Reads path's ELF headers; 0, or -1 with a reason in why (unreadable,
 * truncated headers). */
int program_check(const char *path, program_info *info, char *why, size_t whylen);

#endif
