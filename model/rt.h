/* The simulator's runtime ABI: what the C side of cuda/dialect.h calls.
 *
 * Kernels never include this directly; the dialect's macros expand to these
 * calls. Every simulated thread is a fiber; model_cur points at the thread
 * that is running now (one per host thread, so blocks may later run on
 * several host threads).
 *
 * Loads and stores take an inline fast path: a bounds check against the two
 * allocations the lane touched last and one append to the lane's trace.
 * Everything else (grouping into warp accesses, banks, sectors, the race
 * shadow) happens once per warp when its lanes have parked. */
#ifndef SCANLAB_MODEL_RT_H
#define SCANLAB_MODEL_RT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuda/launch.h"
#include "cuda/status.h"

/* One call site of the dialect in a kernel source. Each macro expansion
 * owns one static instance; the model interns (file, line) into id on
 * first use so that the per-site tables are plain arrays. Access sites
 * also carry their element size and kind (fixed per expansion), so that a
 * trace entry is just the address and the site. */
typedef struct {
    const char *file;
    int line;
    const char *what; /* "LD", "ST", "SYNCTHREADS", ... */
    int id;           /* 0 until interned */
    unsigned size;    /* access sites: bytes per element (0 until known) */
    int kind;         /* access sites: MODEL_RD / MODEL_WR | flags */
    /* access sites: the index expression's type, bytes (0: not an access
     * site) and whether it is signed: what it can address (the check of
     * 32-bit index arithmetic on arrays beyond 2^31 elements) */
    unsigned char index_bytes, index_signed;
} model_site;

/* The linker section that holds every model_site of the program. */
#define MODEL_SITE_SECTION "scanlab_sites"

/* One recorded memory access of a lane, between two sync points. */
typedef struct {
    uintptr_t addr;
    const model_site *site;
} model_trace_ent;

/* Allocations remembered by a lane for the inline bounds check. */
#define MODEL_LANE_RANGES 2

/* The part of a simulated thread that the dialect's macros read. */
typedef struct model_lane {
    sl_dim3 thread_idx;
    const sl_dim3 *block_idx, *block_dim, *grid_dim;
    unsigned char *id_read; /* set when the thread reads blockIdx */
    uint64_t ops; /* operator applications in the current barrier interval */
    model_trace_ent *tr_next, *tr_end; /* free part of the trace */
    uintptr_t lo[MODEL_LANE_RANGES], len[MODEL_LANE_RANGES]; /* [lo, lo + len) */
    /* the front end's state of this thread (model_launch_state's bytes,
     * zeroed at the thread's start; kept in schedule snapshots), or NULL */
    void *xstate;
} model_lane;

extern __thread model_lane *model_cur __attribute__((tls_model("initial-exec")));

/* Kinds of memory access recorded in a lane's trace. Plain accesses are
 * weak in the PTX sense; volatile, relaxed, acquire, release and atomic
 * accesses are strong (volatile is relaxed of system scope). */
enum {
    MODEL_RD = 0,
    MODEL_WR = 1,
    MODEL_VOL = 2,
    MODEL_ATOMIC = 4,
    MODEL_RELAXED = 8,
    MODEL_ACQUIRE = 16,
    MODEL_RELEASE = 32,
};
#define MODEL_STRONG (MODEL_VOL | MODEL_ATOMIC | MODEL_RELAXED | MODEL_ACQUIRE | MODEL_RELEASE)
/* Scopes of fences and strong accesses. */
enum { MODEL_SCOPE_CTA, MODEL_SCOPE_GPU, MODEL_SCOPE_SYS };
/* Or'ed into model_fence's scope: a fence.sc, whose fences of one scope
 * are totally ordered (each synchronises with the later ones); without
 * it a fence has acquire and release semantics only. */
#define MODEL_FENCE_SC 4
/* A strong access's scope, in its kind: the dialect's accesses carry none
 * (volatile is of system scope, the others of GPU scope); PTX's carry the
 * scope they name (ld.relaxed.cta, atom.sys, ...). */
#define MODEL_KIND_SCOPE_SHIFT 6
#define MODEL_KIND_SCOPED 256 /* the kind names its scope in the two bits above */
#define MODEL_KIND_WITH_SCOPE(kind, scope) ((kind) | MODEL_KIND_SCOPED | (scope) << MODEL_KIND_SCOPE_SHIFT)
/* The scope of a strong access of that kind. */
static inline int model_scope_of_kind(int kind)
{
    if (kind & MODEL_KIND_SCOPED)
        return kind >> MODEL_KIND_SCOPE_SHIFT & 3;
    return (kind & MODEL_VOL) ? MODEL_SCOPE_SYS : MODEL_SCOPE_GPU;
}

/* A checked access to elements base[i] of size bytes: returns &base[i], or
 * never returns (the launch is stopped) when it is out of bounds. */
void *model_access(const void *base, long long i, size_t size, int kind, model_site *site);

/* A strong (or volatile) load of base[i], size 4, 8 or 16 bytes: the model
 * chooses the value the memory model allows and writes it to out. */
void model_load(const void *base, long long i, size_t size, int kind, model_site *site, void *out);
/* Where a deferred load stood in its thread's order (opaque to callers). */
typedef struct {
    uint32_t w[3];
} model_at;
/* A relaxed (or volatile) load of base[i] whose value the caller can take
 * later (load buffering, docs/memory-model.md): in an explored schedule of
 * global memory the model checks and records the access now, writes where
 * it stands to at and returns true; the caller then must call
 * model_load_bind before anything its value, its destination or an
 * ordering point of the thread depends on (for a weak load of a litmus
 * run, model_weak_free: before anything its value or destination depends
 * on, an access that overlaps it or a barrier). Otherwise it is
 * model_load, its value in out, and returns false. */
bool model_load_defer(const void *base, size_t size, int kind, model_site *site, void *out, model_at *at);
/* Binds a deferred load of size bytes at p (the address model_load_defer
 * checked, at where it stood): a point where other threads may run, then
 * the value the memory model allows, written to out. */
void model_load_bind(const void *p, size_t size, int kind, model_site *site, const model_at *at, void *out);
/* A strong (or volatile) store of size bytes from v to base[i]. */
void model_store(void *base, long long i, size_t size, int kind, model_site *site, const void *v);

/* Whether a load or store of kind (not strong) is weak as PTX has it, free
 * to return or to take in coherence order what the model allows: in a
 * litmus run (a chooser answers every choice) only; elsewhere a weak access
 * that is not ordered is a race, reported as such, and reads the newest
 * value. */
bool model_weak_free(int kind);
/* A weak store of size bytes from v at base (PTX's ld/st.weak): kept in the
 * location's history where model_weak_free, else a plain store. The race
 * detector sees it as a plain store either way. */
void model_store_weak(void *base, size_t size, model_site *site, const void *v);
/* A strong (or volatile) store of size bytes from v to base[i]. */
void model_store(void *base, long long i, size_t size, int kind, model_site *site, const void *v);

/* The fast path of a plain load or store (site->size and site->kind set by
 * the macro): in bounds of a remembered allocation and room in the trace,
 * else the full model_access. */
static inline void *model_access_fast(const void *base, long long i, size_t size, int kind, model_site *site)
{
    model_lane *l = model_cur;
    const uintptr_t b = (uintptr_t)base, p = b + (uintptr_t)i * size;
    model_trace_ent *e = l->tr_next;
    if (__builtin_expect(e < l->tr_end, 1)) {
        for (int k = 0; k < MODEL_LANE_RANGES; k++) {
            const uintptr_t off = p - l->lo[k];
            if (off < l->len[k] && off + size <= l->len[k] && b - l->lo[k] <= l->len[k]) {
                e->addr = p;
                e->site = site;
                l->tr_next = e + 1;
                return (void *)p;
            }
        }
    }
    return model_access(base, i, size, kind, site);
}

/* The k-th static shared array executed by this thread (the block's k-th
 * allocation), and the block's dynamic shared memory. */
void *model_shared(size_t bytes, size_t align, model_site *site);
void *model_shared_dyn(model_site *site);
/* The same, naming the array for findings (unnamed: site->what names it). */
void *model_shared_named(size_t bytes, size_t align, const char *name, model_site *site);
void *model_shared_dyn_named(const char *name, model_site *site);

/* Synchronisation points: the calling fiber parks here. */
void model_syncthreads(model_site *site);
/* PTX's barrier id (0..15) with a thread count (a multiple of the warp
 * size; 0: every thread of the block), waiting (bar.sync) or only
 * arriving (bar.arrive): a warp arrives once its live lanes have, and the
 * round completes when count threads' warps have arrived; warps that
 * arrive later begin the next round (model/nbar.c). */
void model_named_barrier(unsigned id, unsigned count, bool arrive, model_site *site);
void model_syncwarp(unsigned mask, model_site *site);
/* A fence of the given scope (__threadfence_block, __threadfence,
 * __threadfence_system). */
void model_fence(int scope, model_site *site);
/* A back-off in a spin loop: other blocks run. */
void model_nanosleep(unsigned ns, model_site *site);
/* A named protocol state reached (PROBE): counted per site. */
void model_probe(model_site *site);
/* What the calling thread waits for (WAITS_FOR; NULL: nothing): the
 * deadlock explorer's words for a hang, with the site where it is parked. */
void model_waits_for(const char *what, long long index);

enum { MODEL_SHFL_UP, MODEL_SHFL_DOWN, MODEL_SHFL_IDX, MODEL_SHFL_XOR,
       /* PTX's shfl.sync: arg holds b (bits 0-4) and c (bits 5-17, the
        * clamp and segment mask); the result is the value with the
        * predicate (whether the source lane was in range) in bit 32 */
       MODEL_SHFL_PTX_UP, MODEL_SHFL_PTX_DOWN, MODEL_SHFL_PTX_BFLY, MODEL_SHFL_PTX_IDX };
uint64_t model_shfl(int kind, unsigned mask, uint64_t value, int arg, model_site *site);
enum { MODEL_VOTE_BALLOT, MODEL_VOTE_ALL, MODEL_VOTE_ANY, MODEL_VOTE_UNI };
unsigned model_vote(int kind, unsigned mask, int pred, model_site *site);
/* match.sync: the lanes of mask whose value equals the caller's (any), or
 * mask when all are equal and 0 otherwise (all, with bit 32 set when
 * equal). */
enum { MODEL_MATCH_ANY, MODEL_MATCH_ALL };
uint64_t model_match(int kind, unsigned mask, uint64_t value, model_site *site);
/* redux.sync on 32-bit values of the lanes of mask. */
enum { MODEL_REDUX_ADD, MODEL_REDUX_MIN, MODEL_REDUX_MAX, MODEL_REDUX_UMIN, MODEL_REDUX_UMAX, MODEL_REDUX_AND,
       MODEL_REDUX_OR, MODEL_REDUX_XOR };
uint32_t model_redux(int kind, unsigned mask, uint32_t value, model_site *site);

enum { MODEL_AT_ADD, MODEL_AT_MAX, MODEL_AT_MIN, MODEL_AT_CAS, MODEL_AT_EXCH };
/* An atomic read-modify-write on a 4- or 8-byte integer; returns the old
 * value. is_unsigned selects the comparison of MAX and MIN. */
uint64_t model_atomic(int kind, void *p, size_t size, int is_unsigned, uint64_t a, uint64_t b,
                      model_site *site);

/* A read-modify-write of any kind on size (4 or 8) bytes at p: new_value
 * computes the value to store from the old one (ctx is its argument) and
 * returns whether to store it; returns the old value. kind is MODEL_ATOMIC
 * with MODEL_ACQUIRE and/or MODEL_RELEASE for its semantics and a scope
 * (MODEL_KIND_WITH_SCOPE); without a scope it is of GPU scope. */
typedef int (*model_rmw_fn)(uint64_t old, uint64_t *nv, const void *ctx);
uint64_t model_rmw(void *p, size_t size, int kind, model_rmw_fn new_value, const void *ctx, model_site *site);

/* Host side: what an occupancy query answers in the run in progress
 * (model_config.occupancy, else fallback). */
unsigned model_occupancy(unsigned fallback);
/* The same for a grid-stride kernel of `block` threads and dyn_shared
 * bytes of dynamic shared memory: with model_config.occupancy_device set
 * (and no occupancy), what that device holds at once of such blocks. */
unsigned model_occupancy_of(unsigned block, size_t dyn_shared, unsigned fallback);
/* Host side: a grid of `blocks` blocks that the caller fixed whatever n
 * (two-level's block count C), returned as it is; the launch records say so
 * (model_launch_stats.fixed_grid), for tools that scale a launch to a
 * larger n. */
unsigned model_fixed_grid(unsigned blocks);

/* Host side: device memory is host memory registered with the model, which
 * needs it for bounds checks and race shadows. */
sl_status model_dev_alloc(void **p, size_t bytes);
/* The same with at least guard bytes after the allocation that belong to
 * none: an access that runs past its end by up to guard bytes is out of
 * bounds, not an access to the next allocation (the CUDA runtime's). */
sl_status model_dev_alloc_guarded(void **p, size_t bytes, size_t guard);
/* model_dev_alloc naming the allocation for findings: the host's pointer
 * expression (the dialect's sl_dev_alloc passes its text). */
sl_status model_dev_alloc_named(void **p, size_t bytes, const char *name);
/* Names the allocation that holds p for findings, its elements counted
 * from p (a PTX kernel's pointer parameters); nothing when p is in none. */
void model_dev_name(const void *p, const char *name);
void model_dev_free(void *p);
/* memmove and memset that leave alone the pages of a large buffer that
 * were never touched on either side (they read as zero). */
void model_dev_copy(void *dst, const void *src, size_t bytes);
void model_dev_memset(void *dst, int byte, size_t bytes);

/* A kernel launch: run entry(args) on every thread of the grid. */
typedef void (*model_entry)(const void *args);
sl_status model_launch(const sl_launch *cfg, model_entry entry, const void *args, const char *name);
/* Names the role in its driver of the launches that follow, for the launch
 * table ("section scan", "totals scan", "add-back"; NULL: none); returns
 * the role before, which the driver puts back when its launches end. */
const char *model_launch_role(const char *role);
/* Makes the launches that follow run several simulated devices at once:
 * the grid is cut into devices of blocks_per_device consecutive blocks
 * each (0: one device), and an ordering of GPU scope (fence, release,
 * acquire, a strong access's moral strength) holds between threads of one
 * device only; system scope spans them all. Each device's grid is
 * resident at once. Returns the setting before. */
unsigned model_launch_devices(unsigned blocks_per_device);
/* Where set, every launch of a dialect kernel's C build is offered to
 * this function first (name: the kernel's instantiated name, args: each
 * parameter's address); it returns true when it ran the launch (its status
 * in *st). The tests of the PTX front end run the catalogue's nvcc PTX
 * under the C host drivers this way. NULL: none. */
extern bool (*model_launch_redirect)(const sl_launch *cfg, const char *name, const void *const *args, unsigned nargs,
                                     sl_status *st);

/* The same with xstate_bytes of zeroed state per thread for a front end
 * (model_lane.xstate): the PTX interpreter keeps its registers there, so
 * that the schedule search's snapshots hold them. */
sl_status model_launch_state(const sl_launch *cfg, model_entry entry, const void *args, const char *name,
                             size_t xstate_bytes);
/* The same with accounting off (fibers and barriers kept): the speed
 * baseline for kernels compiled with SL_SIM_PLAIN. */
sl_status model_launch_plain(const sl_launch *cfg, model_entry entry, const void *args, const char *name);

#endif
