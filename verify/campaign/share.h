/* The results of a list of items dealt over the ranks of a campaign
 * (ranks_mine), put back in item order at rank 0.
 *
 * Every rank knows the same n items in the same order; each computes the
 * items ranks_mine names and puts one record per item, in item order; the
 * collective share_collect brings every record to rank 0, where
 * share_get(i) is item i's, whichever rank computed it. Records are raw
 * bytes: the ranks are one binary on one kind of machine (pointers do not
 * travel: their addresses differ between processes). With one rank this
 * is a list of the records put. */
#ifndef SCANLAB_VERIFY_CAMPAIGN_SHARE_H
#define SCANLAB_VERIFY_CAMPAIGN_SHARE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    size_t n;           /* items, at every rank */
    char *buf;          /* this rank's records: a size_t length, then the bytes */
    size_t len, cap, put;
    /* at rank 0 after share_collect */
    void *all;
    const char **rec;   /* item i's record, its length in rec_len[i] */
    size_t *rec_len;
} share;

/* A list of n items; what names the work in messages ("verify"). */
void share_init(share *s, size_t n);

/* The record of this rank's next item (the items ranks_mine names, in
 * order). False when out of memory: under a launcher the rank then stops
 * the campaign (ranks_abort, which names it); alone the caller fails. */
bool share_put(share *s, const void *rec, size_t len, const char *what);

/* A collective, once every item of this rank is put: every record at
 * rank 0. When a rank's records are missing or the transfer failed, the
 * campaign stops (ranks_abort, the message naming the rank); in one
 * process false (out of memory, printed). True at the other ranks, which
 * have nothing to read. SCANLAB_TEST_RANK_FAIL is honoured here
 * (ranks_test_failure). */
bool share_collect(share *s, const char *what);

/* Item i's record at rank 0 after share_collect (its length in *len). */
const void *share_get(const share *s, size_t i, size_t *len);

void share_free(share *s);

#endif
