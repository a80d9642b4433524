/* A user's scan kernel from outside the tree (--kernel FILE.cu|FILE.ptx
 * --entry NAME): compiled with nvcc when it is CUDA source, parsed as PTX,
 * and offered to simulate, verify and deadlock as a one-algorithm table
 * whose sim backend launches it on the simulator (docs/ptx.md). */
#ifndef SCANLAB_USER_KERNEL_H
#define SCANLAB_USER_KERNEL_H

#include <stddef.h>
#include "verify/harness/algos.h"

/* A command's main over an algorithm table (simulate_main, ...). */
typedef int (*user_kernel_main_fn)(int argc, char **argv, const verify_algo *algos, size_t count);

/* Runs main as cmd with the catalogue, or, where the command line names
 * --kernel, with the user's kernel as its one algorithm (the kernel's
 * options checked and removed, --algo set to the entry's name). */
int user_kernel_dispatch(const char *cmd, int argc, char **argv, user_kernel_main_fn main_fn);

#endif
