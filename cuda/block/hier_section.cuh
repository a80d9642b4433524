/* What a block-level section kernel needs from the hierarchical driver
 * (hier_driver.cuh): the layout record and the shifted load. Included at
 * the top of a *_tmpl.cuh file, once per instantiation. */

#ifndef SL_HIER_SECTION_ONCE
#define SL_HIER_SECTION_ONCE
#include <stdbool.h>

/* The GPU's limit on gridDim.x (2^31 - 1). */
#define SL_MAX_GRID_X ((size_t)0x7fffffff)
/* Dynamic shared memory a block may use without an opt-in (48 KiB). */
#define SL_BLOCK_SHARED_BYTES ((size_t)48 * 1024)

/* How a block-level scan is laid out, as its host driver resolved it. */
typedef struct {
    unsigned block;     /* threads per block */
    size_t section;     /* elements scanned per block (>= 2) */
    size_t shmem;       /* dynamic shared bytes per block */
    int param;          /* the algorithm's own parameter, resolved */
    bool sections_only; /* scan each section on its own (no totals, no add-back) */
} sl_hier;

/* Whether b is a power of two (b > 0). */
static inline bool sl_hier_pow2(unsigned b) { return b > 0 && (b & (b - 1)) == 0; }
#endif

/* Element i of the array being scanned: in[i], or in[i - 1] when shift = 1
 * (an exclusive scan as the inclusive scan of the input shifted by one);
 * the identity at index 0 when shifted and past the end. */
SL_DEVICE T SL_KN(hier_load)(const T *in, size_t i, size_t n, int shift)
{
    if (i < n && (!shift || i > 0))
        return LD(in, i - (size_t)shift);
    return IDENTITY();
}

