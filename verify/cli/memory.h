/* How much memory a command will need, and whether this machine can give
 * it: every command estimates its peak from measured per-element costs
 * (memory.c holds the constants and the commands that measured them) and
 * refuses, before allocating, a run that cannot fit. */
#ifndef SCANLAB_MEMORY_H
#define SCANLAB_MEMORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuda/status.h"

/* What this process may use: the smallest of physical memory, the cgroup's
 * limit (v2 memory.max, v1 memory.limit_in_bytes) and RLIMIT_AS. *what
 * names the one that bounds it. 0 when nothing could be read. */
uint64_t cli_memory_available(const char **what);

/* The bytes of n elements of elem bytes, or UINT64_MAX when they do not
 * fit in 64 bits: a product that wrapped would pass the memory check and
 * size a buffer too small (cli_check_peak refuses UINT64_MAX). */
uint64_t cli_bytes(uint64_t n, uint64_t elem);

/* Peak bytes of one simulator run of an algorithm that reads in_bytes and
 * writes out_bytes of global memory with threads resident threads at most
 * (slots x block size; 0: the default, 8 x 1024): the host's copies of
 * input, output and reference, the simulated device memory and its shadow
 * (the race detector's and the sectors' records), and the simulator's
 * fixed part. */
uint64_t cli_peak_simulate(uint64_t in_bytes, uint64_t out_bytes, uint64_t threads);
/* The same without the host's copies (a caller that counts them itself). */
uint64_t cli_peak_simulator(uint64_t in_bytes, uint64_t out_bytes, uint64_t threads);

/* Peak bytes of a CPU run holding copies arrays of n elements of elem
 * bytes (plus the process's fixed part). */
uint64_t cli_peak_cpu(uint64_t n, uint64_t elem, uint64_t copies);

/* Refuse, with one message naming cmd, the size and both amounts, a run
 * whose peak exceeds what is available (or overflows): returns
 * SL_ERR_ARG then. n is the size as the user gave it. */
sl_status cli_check_peak(const char *cmd, uint64_t n, uint64_t peak);

#endif
