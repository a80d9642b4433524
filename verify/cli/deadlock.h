/* The engine of `scanlab deadlock`, over any algorithm table, so that a
 * test (or a user's own table) can search its kernels' schedules through
 * the command. */
#ifndef SCANLAB_DEADLOCK_CMD_H
#define SCANLAB_DEADLOCK_CMD_H

#include <stddef.h>
#include "verify/harness/algos.h"

/* 'scanlab deadlock' over algos[0..count): argv[0] is the subcommand name.
 * Prints on stdout and stderr; returns the exit status. */
int deadlock_main(int argc, char **argv, const verify_algo *algos, size_t count);

/* 'scanlab deadlock --litmus TEST...': progress litmus tests
 * (deadlock_litmus.c); returns the exit status. */
int deadlock_litmus_main(int argc, char **argv);

#endif
