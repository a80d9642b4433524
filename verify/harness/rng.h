/* A small seeded generator for test inputs: xoshiro256** seeded through
 * splitmix64. Every random input scanlab makes comes from one printed seed
 * and a key naming what the numbers are for, so a case can be replayed
 * alone. */
#ifndef SCANLAB_RNG_H
#define SCANLAB_RNG_H

#include <stdint.h>

typedef struct {
    uint64_t s[4];
} verify_rng;

/* One splitmix64 step: a good 64-bit mixer for deriving keys and seeds. */
uint64_t verify_mix64(uint64_t x);
/* Derive a new seed from a seed and one more key word (order matters). */
uint64_t verify_derive_seed(uint64_t seed, uint64_t key);
/* Initialise the state from a 64-bit seed (any value, zero included). */
void verify_rng_seed(verify_rng *r, uint64_t seed);
/* The next 64 random bits. */
uint64_t verify_rng_next(verify_rng *r);
/* Uniform in [0, bound), without modulo bias; 0 when bound is 0. */
uint64_t verify_rng_below(verify_rng *r, uint64_t bound);
/* Uniform double in [0, 1) with 53 random bits. */
double verify_rng_unit(verify_rng *r);
/* A standard normal deviate (Box-Muller). */
double verify_rng_normal(verify_rng *r);

#endif
