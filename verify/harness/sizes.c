#include "verify/harness/sizes.h"

#include <stdlib.h>

#include "verify/harness/rng.h"

/* Hardware edges named once: a kernel's tile boundaries sit here. */
enum { WARP_SIZE = 32, BLOCK_SIZE = 1024, ROUND_SIZE = 1000 };
/* A key that separates the size draw from every input draw. */
#define SIZES_KEY UINT64_C(0x73697a6573) /* "sizes" */

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

size_t verify_sort_sizes(size_t *sizes, size_t count)
{
    if (count == 0)
        return 0;
    qsort(sizes, count, sizeof *sizes, cmp_size);
    size_t k = 1;
    for (size_t i = 1; i < count; i++)
        if (sizes[i] != sizes[k - 1])
            sizes[k++] = sizes[i];
    return k;
}

sl_status verify_default_sizes(size_t max_n, uint64_t seed, size_t **sizes, size_t *count)
{
    const size_t edges[] = {0, 1, 2, 3, WARP_SIZE - 1, WARP_SIZE, WARP_SIZE + 1,
                            BLOCK_SIZE - 1, BLOCK_SIZE, BLOCK_SIZE + 1, ROUND_SIZE};
    /* The fixed edges, 3 per power of two (at most 64 of them), the random
     * ones. */
    size_t cap = sizeof edges / sizeof edges[0] + 3 * 64 + VERIFY_RANDOM_SIZES;
    size_t *v = malloc(cap * sizeof *v);
    if (!v)
        return SL_ERR_NOMEM;
    size_t k = 0;
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
        if (edges[i] <= max_n)
            v[k++] = edges[i];
    for (size_t p = 1; p != 0 && p <= max_n; p <<= 1) {
        v[k++] = p - 1;
        v[k++] = p;
        v[k++] = p + 1;
    }
    verify_rng r;
    verify_rng_seed(&r, verify_derive_seed(seed, SIZES_KEY));
    for (int i = 0; i < VERIFY_RANDOM_SIZES && max_n > 0; i++)
        v[k++] = 1 + (size_t)verify_rng_below(&r, max_n);
    *count = verify_sort_sizes(v, k);
    *sizes = v;
    return SL_OK;
}
