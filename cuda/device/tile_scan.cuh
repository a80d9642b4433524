/* One tile of a device-level scan, kept in registers: B threads (a
 * multiple of 32) each hold `items` consecutive elements.
 *
 *   load    warp-striped (each load instruction of a warp reads 32
 *           consecutive elements), through the warp's shared staging area
 *           into the blocked arrangement (thread t holds elements
 *           t*items .. t*items + items - 1): every load of the tile is in
 *           flight before the first one is used (CUB's
 *           BLOCK_LOAD_WARP_TRANSPOSE);
 *   reduce  each thread folds its items serially, the warp scans the
 *           thread totals with shuffles, the warp totals meet in shared
 *           memory (one barrier) and every thread folds them in order;
 *   scan    from the tile's prefix (look-back, carry, ...) each thread
 *           combines its exclusive prefix and walks its items serially:
 *           inclusive or exclusive outputs are made in registers;
 *   store   back through the staging area, warp-striped.
 *
 * The staging area of a warp is padded (tile_geom.h) so that neither the
 * striped nor the blocked accesses of the default layout meet in a bank:
 * the simulator counts no bank conflicts for them.
 *
 * Every combination keeps the earlier operand first; the order of
 * operations is fixed by (B, items), so results are deterministic given
 * the tile's prefix.
 *
 * Everything here is defined once per instantiation with SL_KN names;
 * the type-independent layout is in tile_geom.h. */
#include "cuda/device/tile_geom.h"

/* ---- per instantiation (T) ---------------------------------------------- */

/* Items per thread this instantiation holds at most (register arrays are
 * indexed only with constants after unrolling). */
#define SL_TILE_MAXI SL_TILE_ITEMS_FOR(sizeof(T))

/* Staging index of element i of a warp's area (tile_geom.h). */
#define SL_TILE_PAD(i) ((i) + (i) / SL_TILE_PAD_PERIOD(sizeof(T)))

/* Whether a thread's items (blocked: elements lane * items + k) never
 * straddle a pad: when items divides the pad period (lane * items and the
 * next multiple of the period are both multiples of items). Their staging
 * indices are then SL_TILE_PAD(lane * items) + k: said here because the
 * compiler cannot see it, and would otherwise divide for every item. The
 * same addresses either way. */
#define SL_TILE_STRAIGHT(items) (SL_TILE_PAD_PERIOD(sizeof(T)) % (items) == 0)

/* Reads the calling thread's items (blocked) from its warp's staging
 * area, where tile_load left the tile: x[k] = element lane * items + k. */
SL_DEVICE void SL_KN(tile_stage_read)(const T *stage, unsigned items, T *x)
{
    const unsigned first = LANE_ID() * items, first_pad = SL_TILE_PAD(first);
    if (SL_TILE_STRAIGHT(items)) {
        SL_UNROLL
        for (unsigned k = 0; k < SL_TILE_MAXI; k++)
            if (k == 0 || k < items)
                x[k] = LD(stage, first_pad + k);
    } else {
        SL_UNROLL
        for (unsigned k = 0; k < SL_TILE_MAXI; k++)
            if (k == 0 || k < items)
                x[k] = LD(stage, SL_TILE_PAD(first + k)); /* not reached by verify: items not the default */
    }
}

/* Loads the tile of B * items elements at base into x[] (blocked: thread
 * t of the block gets elements t * items + k). Past n: the identity. stage
 * is the calling warp's staging area, where the tile stays until the warp
 * writes it again (tile_stage_read reads it back). items >= 1 (item 0 is
 * always there, which the compilers can see). */
SL_DEVICE void SL_KN(tile_load)(const T *in, size_t base, size_t n, unsigned items, T *stage, T *x)
{
    const unsigned lane = LANE_ID();
    const size_t wbase = base + (size_t)WARP_ID() * SL_WARP_SIZE * items;
    if (wbase + (size_t)SL_WARP_SIZE * items <= n) {
        SL_UNROLL
        for (unsigned k = 0; k < SL_TILE_MAXI; k++)
            if (k == 0 || k < items)
                x[k] = LD(in, wbase + k * SL_WARP_SIZE + lane);
    } else {
        SL_UNROLL
        for (unsigned k = 0; k < SL_TILE_MAXI; k++)
            if (k == 0 || k < items) {
                const size_t i = wbase + k * SL_WARP_SIZE + lane;
                x[k] = i < n ? LD(in, i) : IDENTITY();
            }
    }
    SL_UNROLL
    for (unsigned k = 0; k < SL_TILE_MAXI; k++)
        if (k == 0 || k < items)
            ST(stage, SL_TILE_PAD(k * SL_WARP_SIZE + lane), x[k]);
    SYNCWARP();
    SL_KN(tile_stage_read)(stage, items, x);
    SYNCWARP();
}

/* Stores y[] (blocked, as tile_load left it) to the tile at base, the
 * elements below n only. */
SL_DEVICE void SL_KN(tile_store)(T *out, size_t base, size_t n, unsigned items, T *stage, const T *y)
{
    const unsigned lane = LANE_ID();
    const size_t wbase = base + (size_t)WARP_ID() * SL_WARP_SIZE * items;
    const unsigned first = lane * items, first_pad = SL_TILE_PAD(first);
    if (SL_TILE_STRAIGHT(items)) {
        SL_UNROLL
        for (unsigned k = 0; k < SL_TILE_MAXI; k++)
            if (k < items)
                ST(stage, first_pad + k, y[k]);
    } else {
        SL_UNROLL
        for (unsigned k = 0; k < SL_TILE_MAXI; k++)
            if (k < items)
                ST(stage, SL_TILE_PAD(first + k), y[k]); /* not reached by verify: items not the default */
    }
    SYNCWARP();
    if (wbase + (size_t)SL_WARP_SIZE * items <= n) {
        SL_UNROLL
        for (unsigned k = 0; k < SL_TILE_MAXI; k++)
            if (k < items)
                ST(out, wbase + k * SL_WARP_SIZE + lane, LD(stage, SL_TILE_PAD(k * SL_WARP_SIZE + lane)));
    } else {
        SL_UNROLL
        for (unsigned k = 0; k < SL_TILE_MAXI; k++)
            if (k < items) {
                const size_t i = wbase + k * SL_WARP_SIZE + lane;
                if (i < n)
                    ST(out, i, LD(stage, SL_TILE_PAD(k * SL_WARP_SIZE + lane)));
            }
    }
    SYNCWARP();
}

/* The reduction of a thread's items, in order. */
SL_DEVICE T SL_KN(tile_thread_reduce)(const T *x, unsigned items)
{
    T r = x[0];
    SL_UNROLL
    for (unsigned k = 1; k < SL_TILE_MAXI; k++)
        if (k < items)
            r = OP(r, x[k]);
    return r;
}

/* Inclusive Kogge-Stone scan over the warp's lanes (the value d lanes
 * below is the earlier operand). */
SL_DEVICE T SL_KN(tile_warp_iscan)(T v)
{
    const unsigned lane = LANE_ID();
    SL_UNROLL
    for (unsigned d = 1; d < SL_WARP_SIZE; d *= 2) {
        const T u = SHFL_UP(v, d);
        if (lane >= d)
            v = OP(u, v);
    }
    return v;
}

/* Where a thread stands in its tile, from tile_block_reduce. */
typedef struct {
    T excl;   /* the combination of every item before the thread's own */
    int have; /* 0 for thread 0: nothing before it */
    T total;  /* the tile's aggregate */
} SL_FN(sl_tile_pos);

/* The block's part of a tile: each thread's exclusive prefix within the
 * tile and the tile's aggregate. wsum is a shared array of one element per
 * warp. Contains one barrier; the caller needs another before it calls
 * this again (wsum is rewritten). */
SL_DEVICE SL_FN(sl_tile_pos) SL_KN(tile_block_reduce)(const T *x, unsigned items, T *wsum)
{
    const unsigned lane = LANE_ID(), w = WARP_ID(), nw = blockDim.x / SL_WARP_SIZE;
    SL_FN(sl_tile_pos) p;
    T incl = SL_KN(tile_warp_iscan)(SL_KN(tile_thread_reduce)(x, items));
    const T lane_excl = SHFL_UP(incl, 1);
    if (lane == SL_WARP_SIZE - 1)
        ST(wsum, w, incl);
    SYNCTHREADS();
    /* every thread folds the warp totals in order: those before its warp,
     * then the rest for the tile's aggregate */
    T before = IDENTITY(), total = LD(wsum, 0);
    for (unsigned j = 1; j < nw; j++) {
        if (j == w)
            before = total;
        total = OP(total, LD(wsum, j));
    }
    p.total = total;
    if (w == 0) {
        p.have = lane > 0;
        p.excl = lane_excl;
    } else {
        p.have = 1;
        p.excl = lane > 0 ? OP(before, lane_excl) : before;
    }
    return p;
}

/* The tile's prefix as a thread takes it after the barrier that follows
 * its hand-off in sh[0]: sh[0] where there is one (have), else otherwise.
 * Every thread loads sh[0] whether or not it uses it (where it is not
 * used, a value never written), as nvcc compiles the conditional load
 * anyway: the simulator then counts the shared loads the GPU executes
 * (the PTX is the same either way). */
SL_DEVICE T SL_KN(tile_take_prefix)(const T *sh, int have, T otherwise)
{
    const T p = LD(sh, 0);
    return have ? p : otherwise;
}

/* The outputs of a thread's items, given the tile's prefix (have_prefix =
 * 0: nothing before the tile) and its position: y[k] = prefix op excl op
 * x[0] op ... op x[k] (inclusive) or the same up to x[k - 1] (exclusive,
 * the identity for the very first element). y may be x. */
SL_DEVICE void SL_KN(tile_thread_scan)(T *y, const T *x, unsigned items, int exclusive, T prefix,
                                       int have_prefix, SL_FN(sl_tile_pos) pos)
{
    T acc = pos.excl;
    int have = pos.have;
    if (have_prefix) {
        acc = have ? OP(prefix, acc) : prefix;
        have = 1;
    }
    if (exclusive) {
        SL_UNROLL
        for (unsigned k = 0; k < SL_TILE_MAXI; k++)
            if (k < items) {
                const T xk = x[k];
                y[k] = have ? acc : IDENTITY();
                acc = have ? OP(acc, xk) : xk;
                have = 1;
            }
    } else {
        SL_UNROLL
        for (unsigned k = 0; k < SL_TILE_MAXI; k++)
            if (k < items) {
                acc = have ? OP(acc, x[k]) : x[k];
                have = 1;
                y[k] = acc;
            }
    }
}

/* The tile's aggregate, for a reduction pass: each thread folds its items,
 * each warp reduces its threads' totals with a shuffle tree (at distance d
 * lane l puts lane l + d's range after its own), the warp totals meet in
 * shared memory (one barrier) and thread 0 folds them in order. The result
 * is meaningful in thread 0 only. The caller needs a barrier before it
 * calls this again (wsum is rewritten). */
SL_DEVICE T SL_KN(tile_block_total)(const T *x, unsigned items, T *wsum)
{
    const unsigned lane = LANE_ID(), nw = blockDim.x / SL_WARP_SIZE;
    T v = SL_KN(tile_thread_reduce)(x, items);
    SL_UNROLL
    for (unsigned d = 1; d < SL_WARP_SIZE; d *= 2) {
        const T u = SHFL_DOWN(v, d);
        if (lane + d < SL_WARP_SIZE)
            v = OP(v, u);
    }
    if (lane == 0)
        ST(wsum, WARP_ID(), v);
    SYNCTHREADS();
    T total = v;
    if (threadIdx.x == 0)
        for (unsigned j = 1; j < nw; j++)
            total = OP(total, LD(wsum, j));
    return total;
}
