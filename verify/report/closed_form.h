/* Closed forms of the block-level scans: work, steps, barriers and the
 * shared-memory bank conflicts of one block scanning one full section of
 * n = 2^k elements (i32 add, inclusive, the algorithm's default parameter);
 * docs/report.md ("Closed forms") lists them with their derivation. The report prints them beside the
 * simulator's counts and marks the rows whose run does not fit; the tests
 * check them against the simulator.
 *
 * Bank conflicts follow one model for 4-byte words in 32 banks: a warp
 * access where a lanes touch words c + d t (t the thread) needs
 * ceil(a / (32 / gcd(d, 32))) wavefronts, one of them ideal; a phase's
 * conflicts C(lo, hi, d) sum that over the warps of threads [lo, hi). */
#ifndef SCANLAB_CLOSED_FORM_H
#define SCANLAB_CLOSED_FORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    const char *name;    /* the algorithm */
    const char *assumes; /* the configuration the forms are for */
    /* the threads per block that make n one full section, or 0 when no
     * block size does (why then says so) */
    unsigned (*block_for)(size_t n, const char **why);
    /* each form at n (n a power of two that block_for accepts) */
    uint64_t (*work)(size_t n), (*steps)(size_t n), (*barriers)(size_t n);
    uint64_t (*conflicts)(size_t n); /* 4-byte elements */
    const char *work_text, *steps_text, *barriers_text, *conflicts_text;
} closed_form;

/* The forms of algorithm name, or NULL when it has none. */
const closed_form *closed_form_of(const char *name);

/* Whether a run fits the forms: n accepted, one launch of one block of
 * block_for(n) threads. When it does not, why (size bytes) says how it
 * differs. */
bool closed_form_fits(const closed_form *f, size_t n, unsigned block, uint64_t launches, uint64_t blocks,
                      char *why, size_t size);

/* C(lo, hi, d) of the model above (exported for the tests). */
uint64_t closed_form_strided(unsigned lo, unsigned hi, unsigned stride);

#endif
