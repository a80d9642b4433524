/* Huge runs (`scanlab simulate --huge`, huge_check.c): a scan of more
 * elements than memory holds, to catch 32-bit index arithmetic where it
 * breaks (beyond 2^31 and 2^32 elements). The buffers are mapped lazily;
 * the input is zero (the identity of add) except in windows at the chosen elements, so untouched
 * pages stay untouched and the skipped blocks' tiles are exactly what they
 * would have computed; the simulator runs only the blocks around the chosen
 * elements (model_config.huge_n). Every nonzero value is a small integer,
 * so every partial sum is exact in any type and any order: the outputs in
 * the windows are checked bit for bit against a reference summed over the
 * windows alone. */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "verify/harness/huge.h"
#include "verify/harness/rng.h"

/* Elements of input (and of checked outputs) around each chosen element:
 * few enough to lie in the blocks run around it (the one holding it and its
 * neighbours) for any tile of 16 elements or more, since an input element
 * in a skipped block would be missing from every sum after it. */
#define HUGE_WINDOW 32

void *huge_buffer(size_t bytes)
{
    void *m = mmap(NULL, bytes ? bytes : 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    return m == MAP_FAILED ? NULL : m;
}

void huge_buffer_free(void *p, size_t bytes)
{
    if (p)
        munmap(p, bytes ? bytes : 1);
}

unsigned huge_positions(size_t n, uint64_t *at)
{
    unsigned k = 0;
    at[k++] = 0;
    if (n > (UINT64_C(1) << 31))
        at[k++] = UINT64_C(1) << 31;
    if (n > (UINT64_C(1) << 32))
        at[k++] = UINT64_C(1) << 32;
    if (n > 1)
        at[k++] = n - 1;
    return k;
}

/* The window of chosen element p: [lo, hi). */
static void window_of(size_t n, uint64_t p, uint64_t *lo, uint64_t *hi)
{
    *lo = p > HUGE_WINDOW / 2 ? p - HUGE_WINDOW / 2 : 0;
    *hi = *lo + HUGE_WINDOW < n ? *lo + HUGE_WINDOW : n;
}

static void put(sl_type t, void *a, uint64_t i, int v)
{
    switch (t) {
    case SL_I32: ((int32_t *)a)[i] = v; break;
    case SL_I64: ((int64_t *)a)[i] = v; break;
    case SL_F32: ((float *)a)[i] = (float)v; break;
    default: ((double *)a)[i] = v; break;
    }
}

static long long get(sl_type t, const void *a, uint64_t i)
{
    switch (t) {
    case SL_I32: return ((const int32_t *)a)[i];
    case SL_I64: return ((const int64_t *)a)[i];
    case SL_F32: return (long long)((const float *)a)[i];
    default: return (long long)((const double *)a)[i];
    }
}

void huge_fill(sl_type t, uint64_t seed, size_t n, void *in, const uint64_t *at, unsigned nat)
{
    verify_rng r;
    verify_rng_seed(&r, seed);
    for (unsigned k = 0; k < nat; k++) {
        uint64_t lo, hi;
        window_of(n, at[k], &lo, &hi);
        for (uint64_t i = lo; i < hi; i++)
            put(t, in, i, 1 + (int)verify_rng_below(&r, 7)); /* 1 .. 7 */
    }
}

/* The windows' union as sorted disjoint intervals: [lo[k], hi[k]). */
static unsigned merged_windows(size_t n, const uint64_t *at, unsigned nat, uint64_t *lo, uint64_t *hi)
{
    unsigned m = 0;
    for (unsigned k = 0; k < nat; k++) {
        uint64_t l, h;
        window_of(n, at[k], &l, &h);
        unsigned j = m++;
        for (; j > 0 && lo[j - 1] > l; j--) { /* insertion by start */
            lo[j] = lo[j - 1];
            hi[j] = hi[j - 1];
        }
        lo[j] = l;
        hi[j] = h;
    }
    unsigned out = 0;
    for (unsigned k = 0; k < m; k++)
        if (out > 0 && lo[k] <= hi[out - 1]) {
            if (hi[k] > hi[out - 1])
                hi[out - 1] = hi[k];
        } else {
            lo[out] = lo[k];
            hi[out] = hi[k];
            out++;
        }
    return out;
}

size_t huge_check(sl_type t, bool exclusive, size_t n, const void *in, const void *out, const uint64_t *at,
                  unsigned nat, size_t *first_bad, long long *want, long long *got)
{
    uint64_t lo[8], hi[8];
    const unsigned m = merged_windows(n, at, nat < 8 ? nat : 8, lo, hi);
    size_t bad = 0;
    /* every output of every window: the reference is the sum of the
     * nonzero inputs before it (inclusive: up to it), all in the windows */
    long long before = 0; /* the sum of the windows before window k */
    for (unsigned k = 0; k < m; k++) {
        long long s = before;
        for (uint64_t i = lo[k]; i < hi[k]; i++) {
            const long long x = get(t, in, i);
            if (!exclusive)
                s += x;
            if (get(t, out, i) != s && bad++ == 0) {
                *first_bad = (size_t)i;
                *want = s;
                *got = get(t, out, i);
            }
            if (exclusive)
                s += x;
        }
        before = s;
    }
    return bad;
}

long long huge_window_sum(sl_type t, size_t n, const void *in, const uint64_t *at, unsigned nat)
{
    uint64_t lo[8], hi[8];
    const unsigned m = merged_windows(n, at, nat < 8 ? nat : 8, lo, hi);
    long long sum = 0;
    for (unsigned k = 0; k < m; k++)
        for (uint64_t i = lo[k]; i < hi[k]; i++)
            sum += get(t, in, i);
    return sum;
}
