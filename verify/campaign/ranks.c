/* The ranks of a campaign (ranks.h): MPI when the build has it, else one
 * rank. */
#include "verify/campaign/ranks.h"

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"

#if SCANLAB_HAVE_MPI
#include <mpi.h>
#endif

static int rank_now, count_now = 1;
static bool joined;

/* How many ranks a launcher started, from the variables Open MPI, MPICH
 * (Hydra) and PMIx set in each process; 0 when none did. */
static long launcher_size(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v)
            return strtol(v, NULL, 10);
    }
    return 0;
}

/* Rank 0 alone writes the output: the others' stdout goes to /dev/null
 * (their stderr stays: a message from the rank that failed). */
static void quiet_stdout(void)
{
    fflush(stdout);
    const int fd = open("/dev/null", O_WRONLY);
    if (fd >= 0) {
        dup2(fd, STDOUT_FILENO);
        close(fd);
    }
}

int ranks_start(int *argc, char ***argv)
{
    const long size = launcher_size();
#if SCANLAB_HAVE_MPI
    if (size < 1)
        return 0; /* started plainly: one rank, no MPI at all */
    if (MPI_Init(argc, argv) != MPI_SUCCESS) {
        fprintf(stderr, "scanlab: MPI could not start this rank\n");
        return 2;
    }
    joined = true;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_now);
    MPI_Comm_size(MPI_COMM_WORLD, &count_now);
    if (rank_now != 0)
        quiet_stdout();
    return 0;
#else
    (void)argc;
    (void)argv;
    if (size > 1) {
        fprintf(stderr, "scanlab: started as %ld ranks by an MPI launcher, but this build has no MPI "
                        "(install libopenmpi-dev and rebuild: meson configure -Dmpi=enabled)\n", size);
        return 2;
    }
    return 0;
#endif
}

int ranks_finish(int rc)
{
#if SCANLAB_HAVE_MPI
    if (joined) {
        rc = ranks_max(rc);
        MPI_Finalize();
        joined = false;
    }
#endif
    return rc;
}

int ranks_rank(void) { return rank_now; }
int ranks_count(void) { return count_now; }

bool ranks_gather(const void *buf, size_t len, void **all, size_t **lens)
{
    *all = NULL;
    *lens = NULL;
    if (!joined) {
        size_t *l = malloc(sizeof *l);
        void *a = malloc(len ? len : 1);
        if (!l || !a) {
            free(l);
            free(a);
            fprintf(stderr, "scanlab: out of memory gathering results\n");
            return false;
        }
        if (len)
            memcpy(a, buf, len);
        l[0] = len;
        *all = a;
        *lens = l;
        return true;
    }
#if SCANLAB_HAVE_MPI
    /* MPI counts are ints: a rank's part beyond 2 GiB is refused, not cut */
    int mine = len > INT_MAX ? -1 : (int)len;
    int *counts = rank_now == 0 ? malloc((size_t)count_now * sizeof *counts) : NULL;
    int *displs = rank_now == 0 ? malloc((size_t)count_now * sizeof *displs) : NULL;
    if (rank_now == 0 && (!counts || !displs))
        ranks_abort(2, "out of memory gathering the ranks' results");
    bool ok = true;
    MPI_Gather(&mine, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
    size_t total = 0;
    if (rank_now == 0 && ok)
        for (int r = 0; r < count_now; r++) {
            if (counts[r] < 0 || total + (size_t)counts[r] > INT_MAX) {
                ok = false;
                break;
            }
            displs[r] = (int)total;
            total += (size_t)counts[r];
        }
    char *a = rank_now == 0 && ok ? malloc(total ? total : 1) : NULL;
    if (rank_now == 0 && !a)
        ok = false;
    /* every rank must take part in the transfer, even after a failure at
     * rank 0, or the others would wait for it forever: a failed rank 0
     * receives nothing (all counts sent, none taken) */
    if (rank_now == 0 && !ok)
        for (int r = 0; r < count_now; r++)
            counts[r] = displs[r] = 0;
    const int sent = mine < 0 ? 0 : mine;
    if (MPI_Gatherv(buf, sent, MPI_BYTE, a, counts, displs, MPI_BYTE, 0, MPI_COMM_WORLD) != MPI_SUCCESS)
        ok = false;
    if (rank_now != 0)
        return true;
    size_t *l = ok ? malloc((size_t)count_now * sizeof *l) : NULL;
    if (!l) {
        fprintf(stderr, "scanlab: gathering the ranks' results failed (out of memory, or a rank's part "
                        "beyond 2 GiB)\n");
        free(a);
        free(counts);
        free(displs);
        return false;
    }
    for (int r = 0; r < count_now; r++)
        l[r] = (size_t)counts[r];
    free(counts);
    free(displs);
    *all = a;
    *lens = l;
    return true;
#else
    return false;
#endif
}

bool ranks_broadcast(void *buf, size_t len)
{
    if (!joined)
        return true;
#if SCANLAB_HAVE_MPI
    const char *p = buf;
    while (len > 0) { /* in pieces: an MPI count is an int */
        const int n = len > (1u << 30) ? 1 << 30 : (int)len;
        if (MPI_Bcast((void *)p, n, MPI_BYTE, 0, MPI_COMM_WORLD) != MPI_SUCCESS)
            return false;
        p += n;
        len -= (size_t)n;
    }
#endif
    return true;
}

uint64_t ranks_sum(uint64_t v)
{
#if SCANLAB_HAVE_MPI
    if (joined) {
        uint64_t s = 0;
        MPI_Allreduce(&v, &s, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
        return s;
    }
#endif
    return v;
}

int ranks_max(int v)
{
#if SCANLAB_HAVE_MPI
    if (joined) {
        int m = v;
        MPI_Allreduce(&v, &m, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        return m;
    }
#endif
    return v;
}

void ranks_abort(int code, const char *fmt, ...)
{
    fflush(stdout);
    fprintf(stderr, "scanlab: ");
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
#if SCANLAB_HAVE_MPI
    if (joined) {
        fprintf(stderr, "scanlab: rank %d of %d stops the campaign\n", rank_now, count_now);
        MPI_Abort(MPI_COMM_WORLD, code);
    }
#else
    (void)code;
#endif
}

void ranks_test_failure(const char *what)
{
    const char *v = getenv("SCANLAB_TEST_RANK_FAIL");
    if (!joined || !v || !*v)
        return;
    char *end;
    const long r = strtol(v, &end, 10);
    if (end == v || r != rank_now)
        return;
    if (strcmp(end, ":error") == 0)
        ranks_abort(1, "%s: rank %d failed to compute its share (SCANLAB_TEST_RANK_FAIL, a test)", what, rank_now);
    fprintf(stderr, "scanlab: %s: rank %d dies during its share (SCANLAB_TEST_RANK_FAIL, a test)\n", what, rank_now);
    fflush(stderr);
    raise(SIGKILL);
}
