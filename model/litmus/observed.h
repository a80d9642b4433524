/* The outcomes a GPU showed for litmus tests, as tools/litmus_gpu records
 * them (docs/memory-model.md, "The litmus campaign on the GPU"), judged
 * against the outcomes the model allows: `scanlab litmus --observed` and
 * the report's litmus section both judge through here.
 *
 * The document: {"device", "date", "seed", "complete", "tests": [{"name",
 * "runs", "outcomes": [{"state": "P1:r1=1 P1:r2=0", "count"}]}],
 * "skipped": [{"test", "reason"}]}. A test is found by its "name" and
 * read up to the next "name" (the runner names nothing else so). */
#ifndef SCANLAB_LITMUS_OBSERVED_H
#define SCANLAB_LITMUS_OBSERVED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/litmus/litmus.h"

/* One state the GPU showed. */
typedef struct {
    char state[256];
    uint64_t count;
    bool allowed;   /* among the outcomes the model allows */
    bool satisfies; /* satisfies the condition's body (for exists: the weak outcome) */
} lit_seen;

typedef struct {
    bool run;           /* the document holds the test */
    uint64_t runs;
    unsigned nseen;     /* distinct states */
    unsigned nforbidden;
    lit_seen *seen;     /* nseen of them, in the document's order */
} lit_observed;

/* The whole file (malloc'ed, NUL-terminated), or NULL when it cannot be
 * read (or is past 128 MiB). */
char *lit_observed_read(const char *path);

/* What the document says of test t, whose model outcomes are r. 0 (o->run
 * false when the GPU did not run it); -1 when a state of the test does not
 * name each term the condition names (the document is of another test);
 * -2 out of memory. Free o with lit_observed_free either way. */
int lit_observed_check(const char *doc, const lit_test *t, const lit_result *r, lit_observed *o);
void lit_observed_free(lit_observed *o);

/* A string field of the document's top level ("device", "date") into buf,
 * "" when absent; whether "complete" is true. */
void lit_observed_field(const char *doc, const char *key, char *buf, size_t n);
bool lit_observed_complete(const char *doc);

/* Why the campaign skipped test name (its entry under "skipped") into
 * buf; false when it is not listed there. */
bool lit_observed_skipped(const char *doc, const char *name, char *buf, size_t n);

/* How a column or a message names a term: "P1:r2", "x". */
void lit_term_name(const lit_test *t, const lit_term *x, char *buf, size_t n);

#endif
