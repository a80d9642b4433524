/* The seed of a test binary's random inputs: SCANLAB_SEED when set, else
 * the clock; printed so a failure can be replayed. */
#ifndef SCANLAB_TEST_SEED_H
#define SCANLAB_TEST_SEED_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static inline uint64_t test_seed(void)
{
    const char *env = getenv("SCANLAB_SEED");
    uint64_t seed = env && *env ? strtoull(env, NULL, 10) : (uint64_t)time(NULL);
    printf("# seed %" PRIu64 " (set SCANLAB_SEED to replay)\n", seed);
    return seed;
}

#endif
