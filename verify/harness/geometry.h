/* An algorithm's geometry as its own launches show it on the simulator,
 * and the sizes verification needs from it: two full sections and a
 * partial one, the level of section totals above them, and, for scans
 * whose blocks wait for each other, enough tiles for the look-back's
 * second window and for persistent blocks of two tiles or more.
 *
 * The section is found by probing, not by reading the kernel: the largest
 * n whose first launch has one block (found by doubling, then bisection,
 * on a zero input, in the simulator). So a user's own variant gets sizes
 * of its own geometry without declaring it. */
#ifndef SCANLAB_GEOMETRY_H
#define SCANLAB_GEOMETRY_H

#include <stdbool.h>
#include <stddef.h>
#include "verify/harness/algos.h"

/* The largest size the geometry adds: beyond it a probe gives up (no
 * section found) and the many-tile size is cut to the tiles that fit. */
#define VERIFY_GEOMETRY_MAX_N ((size_t)1 << 17)
/* Tiles of the many-tile size of a scan whose blocks wait for each other:
 * more than two warp-wide windows of 32 tiles (a look-back reaches its
 * second window; lookback-det's window prefixes combine two windows),
 * plus a partial one. */
#define VERIFY_GEOMETRY_TILES 66

typedef struct {
    size_t section; /* elements one block of the first launch covers; 0: not found */
    bool waits;     /* its blocks wait for each other's results (strong loads of global memory) */
} verify_geometry;

/* Probe algorithm a on the simulator for elements of type t with the
 * given block and param (0: its defaults). Returns SL_OK with g filled
 * (g->section 0 when no launch of up to VERIFY_GEOMETRY_MAX_N elements has
 * more than one block), or the status of a probe that failed. */
sl_status verify_probe_geometry(const verify_algo *a, sl_type t, int block, int param, verify_geometry *g);

/* The sizes g calls for (S the section): S - 1, S, S + 1, 2S, 2S + 1 and
 * 2S + S/2 (two full sections and a partial third); for waiting blocks
 * also VERIFY_GEOMETRY_TILES S + S/2, or as many tiles as fit
 * VERIFY_GEOMETRY_MAX_N. Written to sizes (room for 8); returns how many. */
size_t verify_geometry_sizes(const verify_geometry *g, size_t *sizes);

#endif
