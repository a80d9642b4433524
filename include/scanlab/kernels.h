/* libscanlab, kernels: the algorithm table. Every scan, reduction and
 * application scanlab knows, each with its run function per backend
 * (sequential, OpenMP, the simulator, and the GPU where CUDA was built). */
#ifndef SCANLAB_PUBLIC_KERNELS_H
#define SCANLAB_PUBLIC_KERNELS_H

#include <scanlab/types.h>

#ifdef __cplusplus
extern "C" {
#endif

extern const verify_algo verify_algos[];
extern const size_t verify_algo_count;

/* The algorithm called name ("blelloch", "lookback", ...), or NULL; with
 * complain set, a miss lists the valid names on stderr. */
const verify_algo *verify_find_algo(const char *name, bool complain);

/* Whether algorithm a runs on backend b in this build. */
bool verify_algo_runs_on(const verify_algo *a, sl_backend b);

/* Whether backend b was compiled in (cuda may be absent). */
bool verify_backend_built(sl_backend b);

#ifdef __cplusplus
}
#endif

#endif
