/* The ranks of a campaign: one scanlab command run as P processes under
 * an MPI launcher (mpirun -np P, srun), sharing its work (docs/scaling.md).
 *
 * Started under a launcher, every rank runs the same command line; rank 0
 * alone writes the command's output, the others' stdout goes nowhere.
 * Started plainly, or in a build without MPI, there is one rank and every
 * call here is the trivial one, so commands use the same code either way.
 * A launcher's ranks that find a build without MPI stop with a clear
 * message (exit 2) instead of each running the whole job. */
#ifndef SCANLAB_VERIFY_CAMPAIGN_RANKS_H
#define SCANLAB_VERIFY_CAMPAIGN_RANKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Joins the launcher's ranks when started by one (calls MPI_Init): 0, or
 * 2 (the message printed) when started by a launcher with more than one
 * rank in a build without MPI. Call once, first thing in main. */
int ranks_start(int *argc, char ***argv);

/* Leaves the ranks (MPI_Finalize); rc is this rank's exit status, and
 * the worst of every rank's is returned (1 over 0, 2 over both), so that
 * every rank exits with the campaign's status. */
int ranks_finish(int rc);

int ranks_rank(void);  /* this process's rank, 0 .. ranks_count() - 1 */
int ranks_count(void); /* 1 when not under a launcher */
static inline bool ranks_many(void) { return ranks_count() > 1; }

/* Whether case i (of a list every rank knows in the same order) is this
 * rank's: cases are dealt round-robin, so neighbouring cases, which tend
 * to cost alike, spread over the ranks. */
static inline bool ranks_mine(size_t i) { return i % (size_t)ranks_count() == (size_t)ranks_rank(); }

/* Every rank's len bytes, concatenated in rank order, at rank 0: *all
 * (malloc'd, the caller frees) and lens[r] for each rank r (ranks_count()
 * entries, malloc'd). Other ranks get NULL for both. A collective: every
 * rank calls it. False when memory or the transfer failed (at rank 0, the
 * message printed). */
bool ranks_gather(const void *buf, size_t len, void **all, size_t **lens);

/* Rank 0's len bytes, at every rank: root's buf is sent, the others' is
 * received into (len the same at every rank). A collective. */
bool ranks_broadcast(void *buf, size_t len);

/* The sum over every rank of v, at every rank. A collective. */
uint64_t ranks_sum(uint64_t v);

/* The largest v over every rank, at every rank. A collective. */
int ranks_max(int v);

/* Stops every rank at once (MPI_Abort) after printing "scanlab: <why>"
 * on stderr: for a rank that cannot go on, so that no other rank waits
 * for it forever and no partial result is printed as whole. Returns only
 * when not under a launcher (then the caller goes on to fail as usual). */
void ranks_abort(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* For the tests of rank failures only (tests/mpi_shard): under a launcher,
 * SCANLAB_TEST_RANK_FAIL=R makes rank R die (SIGKILL, as the kernel's
 * out-of-memory killer would) when it reaches this point of its share,
 * and R:error makes it stop the campaign as a rank that failed to compute
 * its share does (ranks_abort). what names the work. Ignored when not
 * under a launcher. Called once per share, from share_collect. */
void ranks_test_failure(const char *what);

#endif
