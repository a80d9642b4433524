/* An exhaustive schedule search split over the campaign's ranks: the
 * model's search hooks (model_search_hooks) carried by MPI
 * (docs/scaling.md). */
#ifndef SCANLAB_VERIFY_CAMPAIGN_SEARCH_RANKS_H
#define SCANLAB_VERIFY_CAMPAIGN_SEARCH_RANKS_H

#include "model/model.h"

/* The hooks for model_search_cfg.hooks: NULL when there is one rank. Every
 * rank must run the same searches in the same order (each search's
 * messages carry its number). */
const model_search_hooks *search_ranks_hooks(void);

#endif
