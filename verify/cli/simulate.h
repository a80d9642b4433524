/* The engine of `scanlab simulate`, over any algorithm table, so that a
 * test (or a user's own table) can run its kernels through the command. */
#ifndef SCANLAB_SIMULATE_H
#define SCANLAB_SIMULATE_H

#include <stddef.h>
#include "verify/harness/algos.h"

/* 'scanlab simulate' over algos[0..count): argv[0] is the subcommand name.
 * Prints on stdout and stderr; returns the exit status. */
int simulate_main(int argc, char **argv, const verify_algo *algos, size_t count);

#endif
