/* The exhaustive search over ranks (search_ranks.h). Each rank's first
 * process sends every other rank what its processes newly recorded (a
 * state's hash and depth, or a transition that ends a schedule) in
 * non-blocking messages, and puts what arrives into its table; at the end
 * each rank says how many messages it sent to each other one, and waits
 * until it has every rank's word and every message announced. Then every
 * table holds the same entries, and the ranks' summaries are merged. */
#include "verify/campaign/search_ranks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "verify/campaign/ranks.h"

#if SCANLAB_HAVE_MPI
#include <mpi.h>

/* Entries a message carries at most (16 bytes each). */
#define CHUNK 4096
/* Tags: two a search (its entries, its last word), numbered modulo this
 * many searches; MPI promises tags up to 32767. */
#define SEARCHES_IN_TAGS 8192

/* A message on its way: its buffer lives until every send of it is done. */
typedef struct sending {
    struct sending *next;
    MPI_Request *req;
    int nreq;
    void *buf;
} sending;

static struct {
    unsigned search; /* searches finished so far: the tags of the current one */
    int nranks, me;
    uint64_t *sent, *got; /* messages of entries sent to, received from, each rank */
    uint64_t *announced;  /* from each rank's last word: how many it sent here */
    bool *said_done;
    int ndone;
    sending *pending;
    model_search_entry buf[CHUNK];
    const char *planted; /* SCANLAB_TEST_RANK_FAIL */
} X;

static int data_tag(void) { return (int)(2 * (X.search % SEARCHES_IN_TAGS)); }
static int done_tag(void) { return data_tag() + 1; }

/* A failure planted by a test (SCANLAB_TEST_RANK_FAIL=R: rank R stops the
 * campaign as a rank that cannot go on does; R:exit: rank R's process
 * ends without a word, as one that crashed). For the tests alone. */
static void planted_failure(void)
{
    if (!X.planted || atoi(X.planted) != X.me)
        return;
    if (strstr(X.planted, ":exit")) {
        fprintf(stderr, "scanlab: rank %d exits as SCANLAB_TEST_RANK_FAIL asks (a test)\n", X.me);
        _exit(3);
    }
    ranks_abort(1, "deadlock: rank %d fails as SCANLAB_TEST_RANK_FAIL asks (a test)", X.me);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        ranks_abort(2, "deadlock: out of memory exchanging the search's states");
    return p;
}

/* Sends len bytes at buf (the message takes them) to every other rank. */
static void send_all(void *buf, int len, int tag)
{
    sending *m = xmalloc(sizeof *m);
    m->req = xmalloc((size_t)X.nranks * sizeof *m->req);
    m->nreq = 0;
    m->buf = buf;
    for (int r = 0; r < X.nranks; r++)
        if (r != X.me)
            MPI_Isend(buf, len, MPI_BYTE, r, tag, MPI_COMM_WORLD, &m->req[m->nreq++]);
    m->next = X.pending;
    X.pending = m;
}

/* Frees the messages whose sends are done; with wait, waits for all. */
static void reap(bool wait)
{
    for (sending **p = &X.pending; *p;) {
        sending *m = *p;
        int done = 0;
        if (wait)
            MPI_Waitall(m->nreq, m->req, MPI_STATUSES_IGNORE), done = 1;
        else
            MPI_Testall(m->nreq, m->req, &done, MPI_STATUSES_IGNORE);
        if (!done) {
            p = &m->next;
            continue;
        }
        *p = m->next;
        free(m->buf);
        free(m->req);
        free(m);
    }
}

/* What this rank's processes recorded, to every other rank. */
static void send_new(void)
{
    size_t n;
    while ((n = model_search_outbox(X.buf, CHUNK)) > 0) {
        void *b = xmalloc(n * sizeof X.buf[0]);
        memcpy(b, X.buf, n * sizeof X.buf[0]);
        send_all(b, (int)(n * sizeof X.buf[0]), data_tag());
        for (int r = 0; r < X.nranks; r++)
            X.sent[r] += r != X.me;
    }
}

/* Everything that has arrived for the current search. */
static void receive(void)
{
    for (;;) {
        int flag = 0;
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, data_tag(), MPI_COMM_WORLD, &flag, &st);
        if (flag) {
            int len = 0;
            MPI_Get_count(&st, MPI_BYTE, &len);
            MPI_Recv(X.buf, len, MPI_BYTE, st.MPI_SOURCE, data_tag(), MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            model_search_inbox(X.buf, (size_t)len / sizeof X.buf[0]);
            X.got[st.MPI_SOURCE]++;
            continue;
        }
        MPI_Iprobe(MPI_ANY_SOURCE, done_tag(), MPI_COMM_WORLD, &flag, &st);
        if (!flag)
            return;
        uint64_t count = 0;
        MPI_Recv(&count, 1, MPI_UINT64_T, st.MPI_SOURCE, done_tag(), MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        X.announced[st.MPI_SOURCE] = count;
        X.said_done[st.MPI_SOURCE] = true;
        X.ndone++;
    }
}

static void exchange(void *ctx)
{
    (void)ctx;
    planted_failure();
    receive();
    send_new();
    reap(false);
}

static bool all_arrived(void)
{
    if (X.ndone < X.nranks - 1)
        return false;
    for (int r = 0; r < X.nranks; r++)
        if (r != X.me && X.got[r] != X.announced[r])
            return false;
    return true;
}

static void finish(void *ctx)
{
    (void)ctx;
    planted_failure();
    send_new();
    /* the last word: how many messages of entries went to each rank */
    for (int r = 0; r < X.nranks; r++)
        if (r != X.me) {
            uint64_t *count = xmalloc(sizeof *count);
            *count = X.sent[r];
            sending *m = xmalloc(sizeof *m);
            m->req = xmalloc(sizeof *m->req);
            m->nreq = 1;
            m->buf = count;
            MPI_Isend(count, 1, MPI_UINT64_T, r, done_tag(), MPI_COMM_WORLD, &m->req[0]);
            m->next = X.pending;
            X.pending = m;
        }
    /* waiting politely: on a machine with fewer cores than ranks, the
     * ranks still searching need the processor */
    while (!all_arrived()) {
        receive();
        reap(false);
        const struct timespec ts = {0, 200000};
        nanosleep(&ts, NULL);
    }
    reap(true);
    for (int r = 0; r < X.nranks; r++)
        X.sent[r] = X.got[r] = X.announced[r] = 0, X.said_done[r] = false;
    X.ndone = 0;
    X.search++;
}

static void combine(void *ctx, model_search_summary *sum)
{
    (void)ctx;
    void *all = NULL;
    size_t *lens = NULL;
    if (!ranks_gather(sum, sizeof *sum, &all, &lens))
        ranks_abort(2, "deadlock: gathering the ranks' search results failed");
    if (X.me == 0) {
        const model_search_summary *each = all;
        for (int r = 1; r < X.nranks; r++) {
            if (lens[r] != sizeof *sum)
                ranks_abort(2, "deadlock: rank %d sent a result of %zu bytes, not %zu", r, lens[r], sizeof *sum);
            model_search_merge(sum, &each[r]);
        }
        if (sum->disagree)
            ranks_abort(1, "deadlock: the ranks' tables of states differ after the search (a fault in the "
                           "exchange): no verdict");
    }
    free(all);
    free(lens);
    if (!ranks_broadcast(sum, sizeof *sum))
        ranks_abort(2, "deadlock: sharing the search's result failed");
}

static void share(void *ctx, model_search_result *r)
{
    (void)ctx;
    if (!ranks_broadcast(r, sizeof *r))
        ranks_abort(2, "deadlock: sharing the deadlock's trace failed");
}

const model_search_hooks *search_ranks_hooks(void)
{
    static model_search_hooks hooks;
    if (!ranks_many())
        return NULL;
    if (!X.sent) {
        X.nranks = ranks_count();
        X.me = ranks_rank();
        X.sent = xmalloc((size_t)X.nranks * sizeof *X.sent);
        X.got = xmalloc((size_t)X.nranks * sizeof *X.got);
        X.announced = xmalloc((size_t)X.nranks * sizeof *X.announced);
        X.said_done = xmalloc((size_t)X.nranks * sizeof *X.said_done);
        for (int r = 0; r < X.nranks; r++)
            X.sent[r] = X.got[r] = X.announced[r] = 0, X.said_done[r] = false;
        X.planted = getenv("SCANLAB_TEST_RANK_FAIL");
        hooks = (model_search_hooks){.ranks = (unsigned)X.nranks, .rank = (unsigned)X.me, .exchange = exchange,
                                     .finish = finish, .combine = combine, .share = share};
    }
    return &hooks;
}

#else

const model_search_hooks *search_ranks_hooks(void) { return NULL; }

#endif
