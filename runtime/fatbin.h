/* The PTX inside an nvcc fat binary (the wrapper __cudaRegisterFatBinary
 * receives), decompressed where nvcc compressed it. */
#ifndef SCANLAB_RUNTIME_FATBIN_H
#define SCANLAB_RUNTIME_FATBIN_H

#include <stddef.h>

/* The PTX text of the wrapper's fat binary: of its PTX entries, the one
 * for the highest architecture, NUL-terminated in *text (malloc'd, *len
 * bytes). Returns 0, or -1 with one sentence in err: a wrapper or
 * container that is not nvcc's, no PTX entry (built with only SASS, such
 * as -arch=sm_90a with code=sm_90a), a compression whose library cannot be
 * loaded. */
int rt_fatbin_ptx(const void *wrapper, char **text, size_t *len, unsigned *sm, char *err, size_t errlen);

#endif
