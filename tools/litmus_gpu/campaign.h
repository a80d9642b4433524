/* The litmus campaign on the GPU (docs/memory-model.md, "The litmus
 * campaign on the GPU"): each PTX litmus test run many times at once under
 * stress, its final states counted, in the JSON that `scanlab litmus
 * --observed` reads. This header is the host side, which needs no GPU: the
 * stressed kernel around the test's own instructions (kernel.c), where the
 * instances' threads and locations go in one launch (place.c), and the
 * histogram of outcomes with its JSON (outcomes.c). driver.c runs it. */
#ifndef SCANLAB_LITMUS_GPU_CAMPAIGN_H
#define SCANLAB_LITMUS_GPU_CAMPAIGN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/litmus/litmus.h"

/* A grid thread's role, one word each: 0 stresses memory; otherwise
 * 1 + instance * LIT_MAX_THREADS + thread (the kernel takes the thread
 * from the low 3 bits). */
#define LG_ROLE_STRESS 0u
_Static_assert(LIT_MAX_THREADS == 8, "the kernel decodes a role with 3 bits of thread");

/* The kernel's launch parameters: words of its params array. */
enum {
    LG_P_ITERS,      /* stress accesses (pairs) by each stressing thread */
    LG_P_PRE_ITERS,  /* the same by each testing thread before it starts */
    LG_P_PATTERN,    /* bit 1: first access a load; bit 0: second a load */
    LG_P_LINES,      /* scratchpad lines the stress goes to (>= 1) */
    LG_P_LINE_WORDS, /* words from one line to the next (>= 32: a warp's lanes a word each) */
    LG_P_SPIN,       /* bound of the start's wait, in polls */
    LG_P_TIMEOUTS,   /* written by the kernel: threads whose wait ran out */
    LG_P_LOOP_BOUND, /* progress runs: label visits a testing thread may make */
    LG_P_HUNG,       /* written by the kernel: testing threads that reached it */
    LG_P_WORDS
};

/* Where the condition's registers go in an instance's result record. */
typedef struct {
    int slot[LIT_MAX_NODES]; /* t->named[k]: its word, or -1 for a location (read from memory) */
    unsigned nres;           /* words of one record */
} lg_results;
void lg_result_layout(const lit_test *t, lg_results *r);

/* ---- kernel.c ---- */
/* Why the campaign cannot run t (a static text), or NULL: what the model
 * does not cover, a loop (a spin could last forever on the GPU) unless
 * loops are bounded (a progress run), barriers passed a different number
 * of times by the threads of a CTA. */
const char *lg_inexpressible(const lit_test *t, bool bounded_loops);
/* The campaign's kernel for t as PTX (malloc'ed), entry "litmus_gpu",
 * params (mem, out, roles, addr, sync, scratch, params), every one a u64
 * pointer: the test's columns as lit_ptx_column translates them, each
 * location's address taken from the instance's row of addr, around them
 * the stress, the start and the stores of the results. NULL with a
 * message in err.
 * bounded_loops (a progress run, docs/deadlock.md): the threads of an
 * instance start as they are dispatched, without waiting for each other
 * (whether one may wait forever for another is the question), and a
 * thread that has visited its labels LG_P_LOOP_BOUND times in all stops
 * there, counts itself in LG_P_HUNG and stores its registers: a spin that
 * did not end within the bound. */
char *lg_kernel_ptx(lit_test *t, const lg_results *r, bool bounded_loops, char *err, size_t errlen);

/* ---- place.c ---- */
typedef struct {
    unsigned grid, block; /* CTAs, threads per CTA */
    unsigned instances;   /* of the test per launch */
    unsigned stride;      /* words between two location slots */
} lg_geometry;

/* One launch's placement, made on the host. */
typedef struct {
    uint32_t *roles;  /* [grid * block] */
    uint32_t *addr;   /* [instances * nlocs]: word offset of instance i's location l */
    uint32_t *mem;    /* [mem_words]: the locations' initial values where addr puts them */
    size_t mem_words;
    uint32_t *slots;  /* scratch: the shuffled location slots */
    uint32_t *used;   /* scratch: testing threads per CTA */
} lg_launch;

int lg_launch_alloc(lg_launch *L, const lit_test *t, const lg_geometry *g);
void lg_launch_free(lg_launch *L);
/* The most testing threads one CTA takes: the rest of it stresses. */
unsigned lg_cta_capacity(const lg_geometry *g);
/* Places g->instances instances of t: each CTA of the test in a CTA of
 * the grid of its own (distinct CTAs for distinct CTAs of the test), each
 * thread at a random free thread of its CTA (warp and lane at random), the
 * locations at slots shuffled over the region. Returns how many instances
 * were placed (fewer only when the grid is full). */
unsigned lg_place(lg_launch *L, const lit_test *t, const lg_geometry *g, uint64_t *rng);

/* splitmix64: the campaign's random stream, from a printed seed. */
static inline uint64_t lg_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static inline uint32_t lg_below(uint64_t *s, uint32_t n) { return (uint32_t)(((lg_rand(s) >> 32) * n) >> 32); }

/* ---- outcomes.c ---- */
/* Final states, each the values of what the condition names, counted. */
typedef struct {
    unsigned width; /* t->nnamed */
    size_t n, cap;  /* distinct states; slots of the table */
    int32_t *keys;  /* [cap * width] */
    uint64_t *counts;
    bool *full;
} lg_hist;

void lg_hist_init(lg_hist *h, unsigned width);
void lg_hist_free(lg_hist *h);
/* Counts one state count times. -1 when out of memory. */
int lg_hist_add(lg_hist *h, const int32_t *key, uint64_t count);
/* One launch: instance i's registers from out[i * r->nres + slot], its
 * locations from mem[addr[i * nlocs + l]]. -1 when out of memory. */
int lg_hist_launch(lg_hist *h, const lit_test *t, const lg_results *r, unsigned instances, const uint32_t *out,
                   const uint32_t *mem, const uint32_t *addr);

/* A state as --observed reads it: "P1:r1=1 P1:r2=0 x=2" (what the
 * condition names, in its order, values as signed 32-bit). */
void lg_state_string(const lit_test *t, const int32_t *v, char *buf, size_t n);
/* Whether the condition's body holds in the state. */
bool lg_state_satisfies(const lit_test *t, const int32_t *v);

typedef struct {
    char state[256];
    uint64_t count;
    bool body; /* the condition's body holds */
} lg_outcome;

/* One test of the campaign, as the JSON records it. */
typedef struct {
    char name[96], file[512];
    char skipped[400]; /* non-empty: why it was not run */
    uint64_t runs, launches, timeouts;
    uint64_t hung; /* progress runs: testing threads stopped at the loop bound */
    unsigned instances; /* per launch */
    double seconds;
    lg_outcome *out; /* most frequent first */
    unsigned nout;
} lg_record;

/* Fills rec's outcomes from h (sorted by count, then state). -1 when out
 * of memory. */
int lg_record_outcomes(lg_record *rec, const lit_test *t, const lg_hist *h);
void lg_record_free(lg_record *rec);

typedef struct {
    const char *command, *device, *date;
    int driver, sms;
    uint64_t seed;
    unsigned block, grid, stride, stress_iters, pre_iters, spin;
    unsigned loop_bound, oversubscribe; /* a progress run's bound (0: not one); grid / resident CTAs */
    uint64_t runs_wanted;
    bool complete; /* every test done (false while the campaign runs) */
} lg_meta;

/* The document {"tests": [...], "skipped": [...]} written to path through
 * a temporary file renamed over it, so that the file is always a whole
 * document. -1 with errno when it cannot be written. */
int lg_write_json(const char *path, const lg_meta *m, const lg_record *recs, unsigned n);

#endif
