/* What the two analyses of a progress test's graph share (progress_cycles.c,
 * weak fairness; progress_strong.c, strong): components, the search's
 * order of states, and the pieces of a lasso. Not for use outside them. */
#ifndef SCANLAB_LITMUS_PROGRESS_CYCLES_H
#define SCANLAB_LITMUS_PROGRESS_CYCLES_H

#include <stdbool.h>
#include <stdint.h>

#include "model/litmus/progress.h"

/* An edge an infinite execution may take: a turn between two states alive
 * (the analysis weakened for tests: a turn that changes nothing). */
bool lit_pgraph_usable(const lit_pedge *x, const unsigned char *alive);

/* Which edges a search of components follows (edge index e of g). */
typedef bool (*lit_edge_pred)(const lit_pgraph *g, uint32_t e, const void *ctx);
/* The strongly connected components of the alive states over the edges
 * follow accepts (between alive states): comp[v] gets the component of v
 * (UINT32_MAX for a dead state). Returns their number, or -1 when out of
 * memory. */
long lit_pgraph_components(const lit_pgraph *g, const unsigned char *alive, lit_edge_pred follow, const void *ctx,
                           uint32_t *comp);

/* A breadth-first search from the initial state, transitions in thread
 * order: order[v] when it reaches v (UINT32_MAX: never), parent[v] the
 * edge it came by; queue is n words of scratch. */
void lit_pgraph_bfs(const lit_pgraph *g, uint32_t *order, uint32_t *parent, uint32_t *queue);

/* Appends thread's turn to a lasso's list (a dispatch, thread < 0, is no turn). */
void lit_lasso_step(int8_t *arr, unsigned *n, int32_t thread);
/* out's prefix: the turns of the search's path from the initial state to v.
 * 0, or -1 when out of memory. */
int lit_lasso_prefix(const lit_pgraph *g, const uint32_t *parent, uint32_t v, lit_lasso *out);

/* Walks inside one component (the states with comp[v] == c, alive, by
 * usable edges). parent, queue: n entries of scratch each; mark: n bytes,
 * zero before a walk and after it. */
typedef struct {
    const lit_pgraph *g;
    const uint32_t *comp;
    uint32_t c;
    uint32_t *parent;
    uint32_t *queue;
    unsigned char *mark;
    const unsigned char *alive;
} lit_walk;
/* A shortest walk from start to the nearest state v where met(v, ctx), its
 * turns appended to arr; returns v. */
typedef bool (*lit_state_pred)(uint32_t v, const void *ctx);
uint32_t lit_pgraph_walk(lit_walk *W, uint32_t start, lit_state_pred met, const void *ctx, int8_t *arr,
                         unsigned *n);

/* Strong fairness (progress_strong.c): lit_pgraph_nonterm's answer. */
int lit_pgraph_nonterm_strong(const lit_pgraph *g, lit_pmodel m, lit_lasso *out);

#endif
