/* The closed forms of closed_form.h, one block of n = 2^k elements each:
 * work and steps from the literature cited in docs/algorithms.md, barriers
 * and bank conflicts from each kernel's phases (docs/report.md). */
#include "verify/report/closed_form.h"

#include <stdio.h>
#include <string.h>

#define WARP 32
#define BANKS 32
#define MAX_BLOCK 1024

static unsigned lg(size_t n)
{
    unsigned l = 0;
    while (((size_t)1 << l) < n)
        l++;
    return l;
}

static bool pow2(size_t n) { return n && (n & (n - 1)) == 0; }

static unsigned gcd(unsigned a, unsigned b)
{
    while (b) {
        unsigned r = a % b;
        a = b;
        b = r;
    }
    return a;
}

uint64_t closed_form_strided(unsigned lo, unsigned hi, unsigned stride)
{
    const unsigned period = BANKS / gcd(stride, BANKS);
    uint64_t sum = 0;
    for (unsigned w = lo / WARP * WARP; w < hi; w += WARP) {
        unsigned a0 = lo > w ? lo : w, a1 = hi < w + WARP ? hi : w + WARP;
        if (a1 > a0)
            sum += (a1 - a0 + period - 1) / period - 1;
    }
    return sum;
}

/* --- block sizes ---------------------------------------------------------- */

/* One element a thread: B = n. */
static unsigned block_n(size_t n, const char **why)
{
    if (n < 2 || n > MAX_BLOCK) {
        *why = "n is more than the 1024 threads of a block (one element a thread)";
        return 0;
    }
    return (unsigned)n;
}

/* Two elements a thread: B = n / 2. */
static unsigned block_half(size_t n, const char **why)
{
    if (n < 2 || n / 2 > MAX_BLOCK) {
        *why = "n / 2 is more than the 1024 threads of a block";
        return 0;
    }
    return (unsigned)(n / 2);
}

/* brent-kung-radix, k = 4: n = 4^M, B = n / 4. */
#define RADIX 4
static unsigned block_radix(size_t n, const char **why)
{
    size_t s = 1;
    while (s < n)
        s *= RADIX;
    if (s != n || n < RADIX || n / RADIX > MAX_BLOCK) {
        *why = "n is not a power of the radix 4 (the form is for S = 4^M)";
        return 0;
    }
    return (unsigned)(n / RADIX);
}

/* sengupta, p = 2 passes: B = n / 4. */
#define PASSES 2
static unsigned block_sengupta(size_t n, const char **why)
{
    if (n < (2u << PASSES) || n >> PASSES > MAX_BLOCK) {
        *why = "n / 4 is not a block size from 2 to 1024";
        return 0;
    }
    return (unsigned)(n >> PASSES);
}

/* coarsened, C = 8: B = n / 8. */
#define COARSE 8
static unsigned block_coarse(size_t n, const char **why)
{
    if (n < 2 * COARSE || n / COARSE > MAX_BLOCK) {
        *why = "n / 8 is not a block size from 2 to 1024";
        return 0;
    }
    return (unsigned)(n / COARSE);
}

/* warp-shfl: B = n, whole warps. */
static unsigned block_warps(size_t n, const char **why)
{
    if (n < WARP || n > MAX_BLOCK) {
        *why = "n is not a block of whole warps (32 to 1024 threads)";
        return 0;
    }
    return (unsigned)n;
}

/* --- Kogge-Stone (in place and double-buffered) ---------------------------- */

static uint64_t ks_work(size_t n) { return (uint64_t)n * lg(n) - (n - 1); }
static uint64_t ks_steps(size_t n) { return lg(n); }
static uint64_t ks_barriers(size_t n) { return 2 * (uint64_t)lg(n); }
static uint64_t db_barriers(size_t n) { return lg(n); }
static uint64_t zero(size_t n) { return (void)n, 0; }

/* --- Blelloch and its padded layout --------------------------------------- */

static uint64_t bl_work(size_t n) { return 2 * ((uint64_t)n - 1); }
static uint64_t bl_steps(size_t n) { return 2 * (uint64_t)lg(n); }
static uint64_t bl_barriers(size_t n) { return 2 * (uint64_t)lg(n) + 1; }
/* At offset o, threads [0, n / 2o) touch words o(2t+1) - 1 and o(2t+2) - 1:
 * 3 accesses up (LD, LD, ST), 4 down (LD, LD, ST, ST). */
static uint64_t bl_conflicts(size_t n)
{
    uint64_t c = 0;
    for (size_t o = 1; o < n; o *= 2)
        c += 7 * closed_form_strided(0, (unsigned)(n / (2 * o)), (unsigned)(2 * o));
    return c;
}
/* Padding leaves one 2-way conflict per warp of the inclusive store (slot
 * j + 1 of lane 31 lands on lane 0's bank): n / 32 warp stores from 64 on. */
static uint64_t cf_conflicts(size_t n) { return n >= 2 * WARP ? n / WARP : 0; }

/* --- Brent-Kung ------------------------------------------------------------ */

static uint64_t bk_work(size_t n) { return 2 * (uint64_t)n - 2 - lg(n); }
static uint64_t bk_steps(size_t n) { return 2 * (uint64_t)lg(n) - 1; }
static uint64_t bk_barriers(size_t n) { return 2 * (uint64_t)lg(n); }
static uint64_t bkl_barriers(size_t n) { return 2 * (uint64_t)lg(n) + 1; }
/* B = n / 2 threads, index (t+1) 2s - 1, 3 accesses a level: up-sweep
 * threads [0, B/s), down-sweep [0, B/s - 1), stride 2s words. */
static uint64_t bk_conflicts(size_t n)
{
    const unsigned b = (unsigned)(n / 2);
    uint64_t c = 0;
    for (unsigned s = 1; s <= b; s *= 2)
        c += 3 * closed_form_strided(0, b / s, 2 * s);
    for (unsigned s = b / 2; s >= 1; s /= 2)
        c += 3 * closed_form_strided(0, b / s - 1, 2 * s);
    return c;
}
/* Levels contiguous: per level of cnt nodes, threads [0, cnt/2) make 5
 * stride-2 accesses (2 up, 3 down): 5 (n / 32 - 1). */
static uint64_t bkl_conflicts(size_t n) { return n >= WARP ? 5 * ((uint64_t)n / WARP - 1) : 0; }

/* --- radix-4 Brent-Kung (S = n = 4^M) ------------------------------------- */

static unsigned radix_levels(size_t n)
{
    unsigned m = 0;
    for (size_t s = 1; s < n; s *= RADIX)
        m++;
    return m;
}
static uint64_t rx_work(size_t n)
{
    return 2 * (uint64_t)n - 1 - RADIX - (uint64_t)(RADIX - 1) * (radix_levels(n) - 1);
}
static uint64_t rx_steps(size_t n) { return (uint64_t)(2 * radix_levels(n) - 1) * (RADIX - 1); }
static uint64_t rx_barriers(size_t n) { return 2 * (uint64_t)radix_levels(n); }
/* A group of k nodes at stride s: 2k - 1 accesses at stride k s words, by
 * threads [0, S / ks) up and [1, S / ks) down. */
static uint64_t rx_conflicts(size_t n)
{
    const unsigned S = (unsigned)n;
    uint64_t c = 0;
    for (unsigned s = 1; s < S; s *= RADIX)
        c += (2 * RADIX - 1) * closed_form_strided(0, S / (RADIX * s), RADIX * s);
    for (unsigned s = S / RADIX / RADIX; s >= 1; s /= RADIX)
        c += (2 * RADIX - 1) * closed_form_strided(1, S / (RADIX * s), RADIX * s);
    return c;
}

/* --- Sengupta-Lefohn-Owens, p = 2 (S = n, B = n / 4) ------------------------ */

static uint64_t sg_work(size_t n)
{
    const uint64_t b = n >> PASSES;
    return 2 * (n - b) - PASSES + b * lg(b) - (b - 1);
}
static uint64_t sg_steps(size_t n) { return 2 * ((1u << PASSES) - 1) + lg(n >> PASSES); }
static uint64_t sg_barriers(size_t n) { return 2 * PASSES + 2 * (uint64_t)lg(n >> PASSES) + 1; }
/* Reduce at stride s: S/2s nodes in rounds of B threads, stride 2s; the
 * Hillis-Steele phase over nodes (t+1) 2^p - 1: threads [d, B) at stride
 * 2^p; the down-sweep as the reduce, one node less per level. 3 accesses
 * each. */
static uint64_t sg_conflicts(size_t n)
{
    const unsigned b = (unsigned)(n >> PASSES), d = 1u << PASSES, S = (unsigned)n;
    uint64_t c = 0;
    for (unsigned s = 1; s < d; s *= 2)
        for (unsigned j0 = 0; j0 < S / (2 * s); j0 += b)
            c += 3 * closed_form_strided(0, S / (2 * s) - j0 < b ? S / (2 * s) - j0 : b, 2 * s);
    for (unsigned st = 1; st < b; st *= 2)
        c += 3 * closed_form_strided(st, b, d);
    for (unsigned s = d / 2; s >= 1; s /= 2)
        for (unsigned j0 = 0; j0 + 1 < S / (2 * s); j0 += b) {
            unsigned active = S / (2 * s) - 1 - j0;
            c += 3 * closed_form_strided(0, active < b ? active : b, 2 * s);
        }
    return c;
}

/* --- coarsened, C = 8 (B = n / 8) ------------------------------------------- */

static uint64_t co_work(size_t n)
{
    const uint64_t b = n / COARSE;
    return b * (COARSE - 1) + b * lg(b) - (b - 1) + (b - 1) * (COARSE - 1);
}
static uint64_t co_steps(size_t n) { return 2 * (COARSE - 1) + lg(n / COARSE); }
static uint64_t co_barriers(size_t n) { return 2 * (uint64_t)lg(n / COARSE) + 3; }
/* Every shared access of the three phases is at stride C words: phase 1
 * 1 + 2 (C - 1) by all threads (the running value stays in a register),
 * phase 2 3 a level by threads [stride, B), phase 3 1 + 2 (C - 1) by
 * threads [1, B). */
static uint64_t co_conflicts(size_t n)
{
    const unsigned b = (unsigned)(n / COARSE);
    uint64_t c = (1 + 2 * (COARSE - 1)) * closed_form_strided(0, b, COARSE);
    for (unsigned st = 1; st < b; st *= 2)
        c += 3 * closed_form_strided(st, b, COARSE);
    return c + (1 + 2 * (COARSE - 1)) * closed_form_strided(1, b, COARSE);
}

/* --- warp shuffles (B = n = 32 W) ------------------------------------------- */

static uint64_t ws_work(size_t n)
{
    const uint64_t w = n / WARP, l = lg(w);
    return 129 * w + WARP * l - (((uint64_t)1 << l) - 1) + n - WARP;
}
static uint64_t ws_steps(size_t n) { return n / WARP == 1 ? 5 : 6 + (uint64_t)lg(n / WARP); }
static uint64_t ws_barriers(size_t n) { return (void)n, 2; }

static const closed_form forms[] = {
    {"kogge-stone", "one block of n threads, one element each", block_n, ks_work, ks_steps, ks_barriers, zero,
     "n log2 n - (n - 1)", "log2 n", "2 log2 n", "0 (stride-1 accesses)"},
    {"kogge-stone-db", "one block of n threads, one element each", block_n, ks_work, ks_steps, db_barriers,
     zero, "n log2 n - (n - 1)", "log2 n", "log2 n", "0 (stride-1 accesses)"},
    {"blelloch", "one block of n/2 threads, two elements each", block_half, bl_work, bl_steps, bl_barriers,
     bl_conflicts, "2(n - 1)", "2 log2 n", "2 log2 n + 1", "7 sum_o C(0, n/2o, 2o)"},
    {"blelloch-cf", "one block of n/2 threads, two elements each", block_half, bl_work, bl_steps,
     bl_barriers, cf_conflicts, "2(n - 1)", "2 log2 n", "2 log2 n + 1", "n/32 (n >= 64; inclusive)"},
    {"brent-kung", "one block of n/2 threads, two elements each", block_half, bk_work, bk_steps, bk_barriers,
     bk_conflicts, "2n - 2 - log2 n", "2 log2 n - 1", "2 log2 n",
     "3 sum_s C(0, B/s, 2s) + 3 sum_s C(0, B/s - 1, 2s)"},
    {"brent-kung-levels", "one block of n/2 threads, two elements each", block_half, bk_work, bk_steps,
     bkl_barriers, bkl_conflicts, "2n - 2 - log2 n", "2 log2 n - 1", "2 log2 n + 1", "5 (n/32 - 1)"},
    {"brent-kung-radix", "radix k = 4, one section S = n = 4^M, n/4 threads", block_radix, rx_work, rx_steps,
     rx_barriers, rx_conflicts, "2S - 1 - k - (k - 1)(M - 1)", "(2M - 1)(k - 1)", "2M",
     "(2k - 1) sum_s [C(0, S/ks, ks) + C(1, S/ks, ks)]"},
    {"sengupta", "p = 2 passes, one section S = n, B = n/4 threads", block_sengupta, sg_work, sg_steps,
     sg_barriers, sg_conflicts, "2(S - B) - p + B log2 B - (B - 1)", "2(2^p - 1) + log2 B",
     "2p + 2 log2 B + 1", "reduce, Hillis-Steele and down-sweep phases (docs/algorithms.md)"},
    {"coarsened", "C = 8 elements a thread, one tile of n, B = n/8 threads", block_coarse, co_work, co_steps,
     co_barriers, co_conflicts, "B(C - 1) + B log2 B - (B - 1) + (B - 1)(C - 1)", "2(C - 1) + log2 B",
     "2 log2 B + 3", "3(C - 1) C(0, B, C) + 3 sum C(st, B, C) + (2C - 1) C(1, B, C)"},
    {"warp-shfl", "one block of n threads, whole warps, W = n/32, L = log2 W", block_warps, ws_work, ws_steps,
     ws_barriers, zero, "129 W + 32 L - (2^L - 1) + n - 32", "5 + L + 1 (5 for W = 1)", "2",
     "0 (stride-1 accesses)"},
};

/* An entry without block_for is a form not derived yet (tools/new-variant.py
 * writes such an empty one): no closed form, as for an algorithm without. */
const closed_form *closed_form_of(const char *name)
{
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++)
        if (strcmp(forms[i].name, name) == 0)
            return forms[i].block_for ? &forms[i] : NULL;
    return NULL;
}

bool closed_form_fits(const closed_form *f, size_t n, unsigned block, uint64_t launches, uint64_t blocks,
                      char *why, size_t size)
{
    const char *reason = NULL;
    unsigned want = pow2(n) ? f->block_for(n, &reason) : 0;
    if (!pow2(n))
        reason = "n is not a power of two";
    if (want == 0) {
        snprintf(why, size, "%s", reason);
        return false;
    }
    if (launches != 1 || blocks != 1) {
        snprintf(why, size, "ran as %llu block%s in %llu launch%s; the form is for one block",
                 (unsigned long long)blocks, blocks == 1 ? "" : "s", (unsigned long long)launches,
                 launches == 1 ? "" : "es");
        return false;
    }
    if (block != want) {
        snprintf(why, size, "ran with %u threads a block; the form is for %u", block, want);
        return false;
    }
    why[0] = '\0';
    return true;
}
