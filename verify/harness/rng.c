#include "verify/harness/rng.h"

#include <math.h>

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t verify_mix64(uint64_t x)
{
    x += UINT64_C(0x9e3779b97f4a7c15);
    x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
    return x ^ (x >> 31);
}

uint64_t verify_derive_seed(uint64_t seed, uint64_t key)
{
    /* Mixing before combining keeps (a, b) and (b, a) apart. */
    return verify_mix64(verify_mix64(seed) ^ rotl(key, 17) ^ key);
}

void verify_rng_seed(verify_rng *r, uint64_t seed)
{
    /* splitmix64 never yields four zero words, the one state xoshiro
     * must avoid. */
    for (int i = 0; i < 4; i++) {
        seed += UINT64_C(0x9e3779b97f4a7c15);
        uint64_t z = seed;
        z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
        z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
        r->s[i] = z ^ (z >> 31);
    }
}

uint64_t verify_rng_next(verify_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint64_t verify_rng_below(verify_rng *r, uint64_t bound)
{
    if (bound == 0)
        return 0;
    /* Reject the top partial copy of [0, bound) so every value is equally
     * likely. */
    uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
    uint64_t x;
    do
        x = verify_rng_next(r);
    while (x >= limit);
    return x % bound;
}

double verify_rng_unit(verify_rng *r) { return (double)(verify_rng_next(r) >> 11) * 0x1p-53; }

double verify_rng_normal(verify_rng *r)
{
    /* 1 - unit is in (0, 1], so the logarithm is finite. */
    double u1 = 1.0 - verify_rng_unit(r), u2 = verify_rng_unit(r);
    return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}
