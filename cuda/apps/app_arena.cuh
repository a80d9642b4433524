/* The three-phase drivers inside a device arena (cuda/bench/dev_arena.h:
 * `scanlab bench --backend cuda` timing a driver): a->in and a->out are
 * device buffers, a->out in the layout of app_defs.h, and nothing is
 * copied to or from the host but what the algorithm itself reads back.
 * Included inside each *_3phase_tmpl.cuh after app_scan.cuh (SL_KN
 * names, no include guard). */

/* out[0] = *from, or value where from is NULL: the count header, written
 * on the device. */
SL_GLOBAL SL_KN(app_put_count)(uint64_t *out, const uint64_t *from, uint64_t value)
{
    if (threadIdx.x == 0)
        ST(out, 0, from ? LD(from, 0) : value); /* not reached by verify: only the GPU benchmark's arena runs it */
}
SL_DEFINE_LAUNCH(SL_KN(app_put_count), (uint64_t *, out), (const uint64_t *, from), (uint64_t, value))

/* Writes the count header of the device output out (one thread). */
static inline sl_status SL_KN(app_arena_count)(void *out, const uint64_t *from, uint64_t value)
{
    return SL_LAUNCH(app_put_count)(sl_launch_1d(1, 1, 0), (uint64_t *)out, from, value);
}
