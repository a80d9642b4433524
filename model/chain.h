/* Cross-block wait chains (model_launch_counts.chain): which blocks of a
 * launch waited for a value another block published, and how long the
 * longest chain of such waits is. Internal to model/. */
#ifndef SCANLAB_MODEL_CHAIN_H
#define SCANLAB_MODEL_CHAIN_H

#include <stdint.h>
#include "internal.h"

/* Notes one warp-level strong (volatile, relaxed, acquire, release) access
 * of global memory at site by n lanes of block b, at addr[0..n). */
void model_chain_note(model_stats *s, const mblock *b, const model_site *site, const uintptr_t *addr,
                      unsigned n);

/* Whether accesses at site take part in chains: strong, not atomic. */
static inline int model_chain_site(const model_site *site)
{
    return (site->kind & (MODEL_VOL | MODEL_RELAXED | MODEL_ACQUIRE | MODEL_RELEASE)) &&
           !(site->kind & MODEL_ATOMIC);
}

#endif
