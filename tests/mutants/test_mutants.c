/* The mutation check: planted bugs in copies of the catalogue's kernels
 * (tests/mutants/kernels.def, docs/mutants.md), each checked the way a user
 * checks a kernel, and each required to be CAUGHT with the signal written
 * next to it in the table below:
 *
 *   verify    `scanlab verify` (verify_main over this folder's table) on the
 *             sim backend, every type, operator and kind, the default set
 *             of sizes up to 1025 ("edges..1025"); the line verdicts and the
 *             first failure of each line (a wrong value and the size where
 *             it shows, or the simulator's finding naming the kernel lines)
 *             are checked;
 *   schedules the mutant run through the C API under explored schedules
 *             (model_config.schedule = 1..K): a wrong result in some, none
 *             in the default schedule, no finding (a stale value or an
 *             order of tiles that only another schedule produces);
 *   deadlock  the mutant run with fewer residency slots than blocks (and
 *             the schedule search under occupancy-bound progress): the
 *             simulator reports a deadlock at the wait.
 *
 * A mutant that needs a configuration to be caught also has a `blind`
 * verify run under which it passes: the reason the configuration is there.
 * Every family has a control, the catalogue's kernel copied unchanged,
 * which must pass every check its mutants fail (no false alarm).
 *
 * The inputs come from the seed SCANLAB_SEED (default 1), printed on
 * stderr; a verify run prints the replay command of each failed line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "tap.h"

#include "cuda/depth.h"
#include "tests/mutants/mutant.h"
#include "tests/mutants/mutant_entry.h"
#include "verify/cli/simulate.h"
#include "verify/cli/verify_plan.h"

#define SL_KERNEL MUT_KERNEL_DECL
#include "tests/mutants/kernels.def"
#undef SL_KERNEL

static const verify_algo table[] = {
#define SL_KERNEL MUT_KERNEL_ENTRY
#include "tests/mutants/kernels.def"
#undef SL_KERNEL
};
static const size_t table_count = sizeof table / sizeof table[0];

static mut_ctx ctx = {table, sizeof table / sizeof table[0], 1};

/* ---- the expectations -------------------------------------------------- */

/* Sizes: the default set of `verify` up to 1025 (0..3, 31..33, 1000,
 * 1023..1025, every 2^k and 2^k +- 1, 3 random sizes): every boundary a
 * block or section of 32 to 512 elements has, in a fraction of the default
 * set's time (which goes to 4097). */
#define SIZES "--n edges..1025"
/* Block scans: sections of 128 or 256, so that 1025 elements take two
 * levels of section totals. */
#define BLOCK_ARGS "--both " SIZES " --block 128"
/* Single-pass scans: tiles of 32 x 1 elements, so that 1025 elements make
 * 33 tiles, a block each (the simulator's single-pass grids cover their
 * tiles unless a run sets the occupancy). */
#define TILE_ARGS "--both " SIZES " --block 32 --param 1"
/* Adverse dispatch: 8 tiles of 32, a block each, on 2 slots, dispatched
 * last block first. */
#define DEADLOCK_RUN {.n = 256, .block = 32, .param = 1, .slots = 2, .order = MODEL_ORDER_REVERSED}
/* Explored schedules: 1000 elements (32 tiles, a block each), schedules
 * 1..8; each schedule-dependent mutant gives a wrong result in all 8 for
 * the seeds tried (docs/mutants.md), so 8 leave a wide margin. */
#define SCHED_RUN {.n = 1000, .block = 32, .param = 1, .schedules = 8}
/* The default checks of verify (no --n: sizes from the kernel's geometry,
 * an explored schedule up to 1025 elements, a persistent grid, a huge
 * check), one type; and verify's sizes before them, which the mutants
 * caught by the defaults pass. */
#define DEFAULTS "--type i32"
#define OLD_DEFAULT_SIZES "--type i32 --n edges"
/* TILE_ARGS under the default schedule alone (no explored schedule) */
#define TILE_ARGS_ONE_SCHEDULE TILE_ARGS " --schedules 1"
#define CONTROL(n) {.name = n, .control = n, .category = "control", .change = "none", .signal = SIG_CONTROL}

#define KS "tests/mutants/ks_family.cuh"
#define KS_READ {NULL, "temp = OP(LD(xy, t - stride), LD(xy, t));", 0}
#define SP_STATUS "tests/mutants/sp_status.cuh"
#define SPLIT "tests/mutants/split_status.cuh"
#define SPLIT_SITES \
    {{NULL, "MUT_SPLIT_ST_VALUE((T *)ts.value, k, v);", 0}, {NULL, "return MUT_SPLIT_LD_VALUE(", 0}}
#define SPLIT_WHY "the plain value's store and load are unordered at the first hand-off (n = 33, 2 tiles)"

#define MG "cuda/device/multi_gpu_tmpl.cuh"
/* three simulated devices; from n = 2 two of them pass a total on */
#define MG_ARGS "--both --n 1,2,33,1025 --param 3"
#define MG_SITES \
    {{NULL, "SL_MG_PUBLISH(tb.flag[h], dev, epoch);", 0}, {NULL, "seen = SL_MG_OBSERVE(tb.flag[dev], lane) == epoch;", 0}}
#define MG_WHY "the flag of a GPU scope is not morally strong across devices: a race at the first carry (n >= 1)"

static const mutant mutants[] = {
    /* Kogge-Stone in place (cuda/block/kogge_stone_tmpl.cuh) */
    CONTROL("ks"),
    {.name = "ks-no-write-barrier", .control = "ks", .category = "missing barrier",
     .change = "the barrier between a step's reads and writes removed",
     .signal = SIG_RACE, .args = BLOCK_ARGS, .file = KS,
     .site = {KS_READ, {"MUT_KS_NO_WRITE_BARRIER", "ST(xy, t, temp);", 0}},
     .why = "every step of every section races: any size of 2 or more"},
    {.name = "ks-barrier-moved", .control = "ks", .category = "moved barrier",
     .change = "the step loop's first barrier moved from its top to its end",
     .signal = SIG_RACE, .args = BLOCK_ARGS, .file = KS,
     .site = {KS_READ, {NULL, "ST(xy, t, SL_KN(hier_load)(in, i, n, shift));", 0}},
     .why = "the first step's reads race with the section's load: any size of 2 or more"},
    {.name = "ks-divergent-barrier", .control = "ks", .category = "barrier in divergent code",
     .change = "the write barrier inside if (t >= stride)",
     .signal = SIG_DIVERGENCE, .args = BLOCK_ARGS, .file = KS,
     .site = {{"for (unsigned stride = 1; stride < b", "SYNCTHREADS();", 0},
              {"MUT_KS_DIVERGENT_BARRIER", "SYNCTHREADS(); /* mutated", 0}},
     .why = "thread 0 never takes the branch: the first step of any section"},
    {.name = "ks-off-by-one", .control = "ks", .category = "off-by-one",
     .change = "if (t > stride) for if (t >= stride)",
     .signal = SIG_VALUE, .args = BLOCK_ARGS, .first_n = 2,
     .why = "element 1 misses element 0 at n = 2 already, for every operator"},
    {.name = "ks-swapped", .control = "ks", .category = "swapped operands",
     .change = "OP(xy[t], xy[t - stride]) for OP(xy[t - stride], xy[t])",
     .signal = SIG_VALUE, .args = BLOCK_ARGS, .fail_ops = "affine", .pass_ops = "add,max,min", .first_n = 2,
     .why = "only the non-commutative operator sees the order; n = 2 is the first combination"},
    /* Kogge-Stone double-buffered (cuda/block/kogge_stone_db_tmpl.cuh) */
    CONTROL("ksdb"),
    {.name = "ksdb-in-place", .control = "ksdb", .category = "in-place race",
     .change = "a step writes the buffer it reads (pin for pout)",
     .signal = SIG_RACE, .args = BLOCK_ARGS, .file = "tests/mutants/ksdb_family.cuh",
     .site = {{"MUT_KSDB_IN_PLACE", "ST(buf, pin * b + t, OP(", 0}},
     .why = "thread t + stride reads the word thread t writes, in every step: any size of 2 or more"},
    /* Brent-Kung (cuda/block/brent_kung_tmpl.cuh) */
    CONTROL("bk"),
    {.name = "bk-stride-off-by-one", .control = "bk", .category = "off-by-one stride",
     .change = "the up-sweep ends at stride < B (for <= B)",
     .signal = SIG_VALUE, .args = BLOCK_ARGS, .first_n = 256, .blind = "--both --n edges..255 --block 128",
     .why = "the skipped level feeds output 2B - 1 only: caught from n = 2 x 128 = 256, blind below"},
    {.name = "bk-no-load-bound", .control = "bk", .category = "missing bounds check",
     .change = "the section's load without i < n",
     .signal = SIG_OOB, .args = BLOCK_ARGS, .file = "tests/mutants/bk_family.cuh",
     .site = {{NULL, "x = LD(in, i - (size_t)shift);", 0}}, .blind = "--both --n 256 --block 128",
     .why = "reads past n whenever a section is partly filled, at any level of the recursion over "
            "the section totals: every size but one full section (blind at n = 256)"},
    /* Blelloch (cuda/block/blelloch_body.cuh) */
    CONTROL("bl"),
    {.name = "bl-zero-identity", .control = "bl", .category = "wrong identity",
     .change = "the root cleared to 0 before the down-sweep",
     .signal = SIG_VALUE, .args = BLOCK_ARGS, .fail_ops = "max,min,affine", .pass_ops = "add", .first_n = 1,
     .why = "0 is add's identity only: max, min and affine differ at n = 1 (the exclusive output)"},
    /* Interleaved reduction (cuda/reduce/reduce_interleaved_tmpl.cuh) */
    CONTROL("rdi"),
    {.name = "rdi-no-bound", .control = "rdi", .category = "missing bounds check",
     .change = "in[i] loaded without i < n",
     .signal = SIG_OOB, .args = SIZES, .file = "tests/mutants/rdi_family.cuh",
     .site = {{NULL, "ST(x, t, LD(in, i));", 0}}, .blind = "--n 256",
     .why = "reads past n whenever a block is partly filled, at any level of the reduction of the "
            "partials: every size but one full block (blind at n = 256)"},
    {.name = "rdi-mod-stride", .control = "rdi", .category = "in-place race",
     .change = "t % s == 0 for t % (2 * s) == 0 selects the active threads",
     .signal = SIG_RACE, .args = SIZES, .file = "tests/mutants/rdi_family.cuh",
     .site = {{"MUT_RDI_MOD_STRIDE", "ST(x, t, OP(LD(x, t), LD(x, t + s)));", 0}},
     .why = "thread t writes x[t] after thread t - s read it, in every block: any size"},
    {.name = "rdi-u32-index", .control = "rdi", .category = "32-bit index arithmetic",
     .change = "unsigned i = blockIdx.x * blockDim.x + t",
     .signal = SIG_HUGE, .file = "tests/mutants/rdi_family.cuh",
     .site = {{"the bounds check i < n dropped", "i < n ? LD(in, i)", 0}}, .blind = SIZES,
     .why = "the index wraps at 2^32 elements: only a huge run (chosen blocks of 2^32 + 2^10 elements) "
            "shows it, as a 32-bit index into a larger array at the load"},
    /* Warp-shuffle reduction (cuda/reduce/reduce_shfl_tmpl.cuh) */
    CONTROL("rds"),
    {.name = "rds-no-barrier", .control = "rds", .category = "missing barrier",
     .change = "warp 0 reads the warp totals with no barrier after their stores",
     .signal = SIG_RACE, .args = SIZES, .file = "tests/mutants/rds_family.cuh",
     .site = {{NULL, "ST(warp_totals, w, x);", 0}, {"(T)0", "LD(warp_totals, lane)", 0}},
     .why = "warp 0 reads what the other warps' lanes 0 store: every block of 256 threads"},
    {.name = "rds-zero-pad", .control = "rds", .category = "wrong identity",
     .change = "warp 0 pads the warp totals with 0",
     .signal = SIG_VALUE, .args = SIZES, .fail_ops = "max,min,affine", .pass_ops = "add", .first_n = 1,
     .why = "the padding shows when every element is negative (max) or positive (min), as at "
            "n = 1 half the time, and always for affine"},
    {.name = "rds-swapped", .control = "rds", .category = "swapped operands",
     .change = "OP(y, x) for OP(x, y) in the warp's shuffle tree",
     .signal = SIG_VALUE, .args = SIZES, .fail_ops = "affine", .pass_ops = "add,max,min", .first_n = 2,
     .why = "only the non-commutative operator sees the order"},
    /* Warp-shuffle scan (cuda/block/warp_shfl_tmpl.cuh) */
    CONTROL("ws"),
    {.name = "ws-full-mask", .control = "ws", .category = "full-mask shuffle in a partial warp",
     .change = "SHFL_UP(v, d) for SHFL_UP_MASK(mask, v, d)",
     .signal = SIG_WARP, .args = "--both " SIZES " --block 100", .file = "tests/mutants/ws_family.cuh",
     .site = {{"MUT_WS_FULL_MASK", "T y = SHFL_UP(v, d);", 0}}, .blind = BLOCK_ARGS,
     .why = "a block of 100 threads ends with a warp of 4 lanes; blind with blocks of whole warps"},
    {.name = "ws-no-store-bound", .control = "ws", .category = "missing bounds check",
     .change = "out[i] stored without i < n",
     .signal = SIG_OOB, .args = BLOCK_ARGS, .file = "tests/mutants/ws_family.cuh",
     .site = {{NULL, "ST(out, i, v); /* mutated", 0}}, .blind = "--both --n 128 --block 128",
     .why = "writes past n whenever a section is partly filled, at any level of the recursion over "
            "the section totals: every size but one full section (blind at n = 128)"},
    /* Chained scan with tickets (cuda/device/chained_ticket_tmpl.cuh and
     * the files it includes) */
    CONTROL("ct"),
    {.name = "ct-block-id", .control = "ct", .category = "block id instead of ticket",
     .change = "tile = blockIdx.x for the ticket",
     .signal = SIG_DEADLOCK, .args = TILE_ARGS, .file = SP_STATUS,
     .site = {{NULL, "LD_RELAXED((const uint64_t *)words, k)", 4},
              {NULL, "LD_RELAXED((const sl_u64x2 *)words, k)", 8}},
     .run = DEADLOCK_RUN, .blind = "--both --n edges..127 --block 32 --param 1 --schedules 1",
     .why = "8 blocks on 2 slots, dispatched last first: the resident blocks wait for tiles of blocks "
            "never dispatched; blind under in-order dispatch with a block per tile (up to 4 tiles: from 5 on "
            "verify's persistent run scans blockIdx's tiles only, and outputs are missing)"},
    {.name = "ct-carry-swapped", .control = "ct", .category = "section combine beyond one section",
     .change = "a tile publishes OP(total, prefix) for OP(prefix, total)",
     .signal = SIG_VALUE, .args = DEFAULTS " --op affine", .fail_ops = "affine",
     .first_n = 2 * 9216 + 1, .blind = OLD_DEFAULT_SIZES " --op affine",
     .why = "tiles of 384 x 24 = 9216 elements: the third tile's prefix is the first wrong one, for the "
            "non-commutative operator; blind on verify's sizes up to 4097 (one tile), caught by the sizes "
            "of the kernel's geometry (two full tiles and a partial third)"},
    {.name = "ct-plain-poll", .control = "ct", .category = "memory ordering: reader",
     .change = "the status word polled by a plain load (for ld.relaxed)",
     .signal = SIG_RACE, .args = TILE_ARGS, .file = SP_STATUS,
     .site = {{NULL, "const uint64_t w = LD((const uint64_t *)words, k);", 4},
              {NULL, "ST_RELAXED((uint64_t *)words, k, (tag << 32) | bits);", 4},
              {NULL, "const sl_u64x2 w = LD((const sl_u64x2 *)words, k);", 8},
              {NULL, "ST_RELAXED((sl_u64x2 *)words, k, w);", 8}},
     .why = "a plain load against the publishing strong store is a data race at the first "
            "hand-off (n = 33, 2 tiles)"},
    {.name = "ct-no-syncwarp", .control = "ct", .category = "missing barrier",
     .change = "the warp barrier between a tile's staged stores and its transposed loads removed",
     .signal = SIG_RACE, .args = "--both " SIZES " --block 32 --param 2",
     .file = "tests/mutants/tile_scan_copy.cuh",
     .site = {{NULL, "ST(stage, SL_TILE_PAD(k * SL_WARP_SIZE + lane), x[k]);", 0},
              {NULL, "x[k] = LD(stage, first_pad + k);", 0}},
     .blind = TILE_ARGS,
     .why = "with 2 items per thread lane l reads words lanes 2l and 2l + 1 stored: an intra-warp "
            "race in the first tile; blind with 1 item (each lane reads back its own word)"},
    /* Decoupled look-back (cuda/device/lookback_tmpl.cuh and the files it
     * includes) */
    CONTROL("lb"),
    {.name = "lb-two-stores", .control = "lb", .category = "memory ordering: packed word as two stores",
     .change = "the status word written as two stores, value then status",
     .signal = SIG_RACE, .args = TILE_ARGS, .file = SP_STATUS,
     .site = {{NULL, "LD_RELAXED((const uint64_t *)words, k)", 4},
              {NULL, "ST_RELAXED((uint32_t *)words, 2 * k, bits);", 4},
              {NULL, "LD_RELAXED((const sl_u64x2 *)words, k)", 8},
              {NULL, "ST_RELAXED((uint64_t *)words, 2 * k, w.lo);", 8}},
     .why = "a whole-word load against half-word stores is not morally strong: a race at the first "
            "look-back (n = 33, 2 tiles)"},
    {.name = "lb-swapped", .control = "lb", .category = "swapped operands",
     .change = "the look-back window reduced later tile first (OP(v, u) for OP(u, v))",
     .signal = SIG_SCHEDULES, .args = TILE_ARGS, .fail_ops = "affine", .run = SCHED_RUN,
     .blind = TILE_ARGS_ONE_SCHEDULE,
     .why = "the window holds two or more aggregates only when a predecessor has not published "
            "its prefix yet, which the default schedule never shows: explored schedules, affine"},
    {.name = "lb-pipe-stage", .control = "lb", .category = "persistent path",
     .change = "a pipelined block scans tile a from tile b's staging area (stages[cur] for stages[cur ^ 1])",
     .signal = SIG_VALUE, .args = DEFAULTS " --op add", .fail_ops = "add", .first_n = 4 * 3072 + 1,
     .blind = OLD_DEFAULT_SIZES " --op add",
     .why = "only a persistent grid pipelines (two tiles a block or more), which the simulator runs when a "
            "grid of a block per tile has more than 4 blocks: from 5 tiles of 128 x 24; blind up to 4097"},
    /* Multi-GPU scan: the carry between devices (multi_gpu_tmpl.cuh) */
    CONTROL("mg"),
    {.name = "mg-gpu-scope", .control = "mg", .category = "memory ordering: scope",
     .change = "st.release.sys / ld.acquire.sys of a shard total's flag made GPU-scoped",
     .signal = SIG_RACE, .args = MG_ARGS, .file = MG, .site = MG_SITES, .why = MG_WHY},
    /* Chained scan, flag and value apart, release/acquire (split_status.cuh) */
    CONTROL("split-relacq"),
    {.name = "split-publish-relaxed", .control = "split-relacq", .category = "memory ordering: writer",
     .change = "st.release of the flag made relaxed",
     .signal = SIG_RACE, .args = TILE_ARGS, .file = SPLIT, .site = SPLIT_SITES, .why = SPLIT_WHY},
    {.name = "split-wait-relaxed", .control = "split-relacq", .category = "memory ordering: reader",
     .change = "ld.acquire of the flag made relaxed",
     .signal = SIG_RACE, .args = TILE_ARGS, .file = SPLIT, .site = SPLIT_SITES, .why = SPLIT_WHY},
    {.name = "split-flag-first", .control = "split-relacq", .category = "memory ordering: flag before value",
     .change = "the flag published (st.release) before the value",
     .signal = SIG_RACE, .args = TILE_ARGS, .file = SPLIT, .site = SPLIT_SITES, .why = SPLIT_WHY},
    /* Chained scan, flag and value apart, fences (split_status.cuh) */
    CONTROL("split-fences"),
    {.name = "split-no-writer-fence", .control = "split-fences", .category = "memory ordering: writer",
     .change = "the fence before the publish removed",
     .signal = SIG_RACE, .args = TILE_ARGS, .file = SPLIT, .site = SPLIT_SITES, .why = SPLIT_WHY},
    {.name = "split-no-reader-fence", .control = "split-fences", .category = "memory ordering: reader",
     .change = "the fence after the flag's read removed",
     .signal = SIG_RACE, .args = TILE_ARGS, .file = SPLIT, .site = SPLIT_SITES, .why = SPLIT_WHY},
    /* Chained scan, flag and value apart, fences, strong values (split_status.cuh) */
    CONTROL("split-strong"),
    {.name = "split-strong-no-writer-fence", .control = "split-strong", .category = "memory ordering: writer",
     .change = "the fence before the publish removed; the value relaxed (strong)",
     .signal = SIG_SCHEDULES, .args = TILE_ARGS, .fail_ops = "add,max,min,affine", .run = SCHED_RUN,
     .blind = TILE_ARGS_ONE_SCHEDULE,
     .why = "no data race (the value is strong): only an explored schedule makes the value's store "
            "visible after the flag's"},
    {.name = "split-strong-no-reader-fence", .control = "split-strong", .category = "memory ordering: reader",
     .change = "the fence after the flag's read removed; the value relaxed (strong)",
     .signal = SIG_SCHEDULES, .args = TILE_ARGS, .fail_ops = "add,max,min,affine", .run = SCHED_RUN,
     .blind = TILE_ARGS_ONE_SCHEDULE,
     .why = "no data race (the value is strong): only an explored schedule lets the value's load "
            "return an older store"},
    /* Stream compaction (cuda/apps/compact_tmpl.cuh, app_scan.cuh) */
    CONTROL("compact"),
    {.name = "compact-no-reuse-barrier", .control = "compact", .category = "missing barrier",
     .change = "the block scan's closing barrier (its shared array is used again) removed",
     .signal = SIG_RACE, .args = SIZES " --block 32", .file = "tests/mutants/app_scan_copy.cuh",
     .site = {{NULL, "const uint64_t before = t > 0 ? LD(s, t - 1) : 0;", 0}, {NULL, "ST(s, t, v);", 0}},
     .blind = SIZES " --block 256",
     .why = "only the one-block scan of the tile counts calls the block scan twice, when there are "
            "more than 31 tiles: n >= 1000 with blocks of 32; blind with blocks of 256"},
    /* Single-pass compaction (cuda/apps/select_pass.cuh, count_status.cuh) */
    CONTROL("sel"),
    {.name = "sel-publish-early", .control = "sel", .category = "look-back: count published before counting",
     .change = "the tile's count published (as 0) before its elements are counted",
     .signal = SIG_RACE, .args = "--n 64,100,1000 --block 32 --param 1", .file = "tests/mutants/sel_family.cuh",
     .site = {{NULL, "ST(out, kept_at + q, v);", 0}}, .blind = "--n 1,2,17,31,32 --block 32 --param 1",
     .why = "tile 0 publishes an inclusive prefix of 0, which tile 1 takes: both write their kept "
            "elements from out[0], two blocks' unordered stores to one word (a race) once both keep "
            "some (two full tiles of 32); blind on one tile"},
    {.name = "sel-inclusive-rank", .control = "sel", .category = "inclusive offset for exclusive",
     .change = "a thread's kept items staged from its inclusive rank (rank + its count)",
     .signal = SIG_VALUE, .args = SIZES " --block 32 --param 1", .first_n = 1},
};
static const size_t mutant_count = sizeof mutants / sizeof mutants[0];

/* ---- the cases --------------------------------------------------------- */

/* A mutant is caught with its signal; where a configuration is needed it
 * passes without it. */
static void check_mutant(const mutant *m)
{
    const verify_algo *al = mut_algo(&ctx, m->name);
    if (mut_verify_signal(m->signal))
        mut_expect_verify_catches(&ctx, m);
    else if (m->signal == SIG_SCHEDULES) {
        mut_check_schedules(&ctx, al, m, true);
        /* verify explores a schedule by default (up to 1025 elements) */
        mut_expect_verify_fails(&ctx, m->name, m->args);
    }
    else if (m->signal == SIG_DEADLOCK)
        mut_check_deadlock(&ctx, al, m, true);
    if (m->blind)
        mut_expect_verify_passes(&ctx, m->name, m->blind);
    if (m->signal == SIG_HUGE) {
        mut_check_huge(&ctx, al, m, true);
        mut_check_huge(&ctx, mut_algo(&ctx, m->control), m, false);
        /* and verify's default checks catch it, its control passes them */
        mut_expect_default_huge(&ctx, m, m->name, true);
        mut_expect_default_huge(&ctx, m, m->control, false);
    }
}

/* A control passes every check of its family's mutants. */
static void check_control(const mutant *c)
{
    const char *done[16];
    size_t ndone = 0;
    for (size_t i = 0; i < mutant_count; i++) {
        const mutant *m = &mutants[i];
        if (m->signal == SIG_CONTROL || strcmp(m->control, c->name) != 0)
            continue;
        const char *runs[2] = {m->args, m->blind};
        for (int k = 0; k < 2; k++) {
            bool seen = runs[k] == NULL;
            for (size_t d = 0; d < ndone && !seen; d++)
                seen = strcmp(done[d], runs[k]) == 0;
            if (seen)
                continue;
            mut_expect_verify_passes(&ctx, c->name, runs[k]);
            assert_true(ndone < 16);
            done[ndone++] = runs[k];
        }
        if (m->signal == SIG_SCHEDULES)
            mut_check_schedules(&ctx, mut_algo(&ctx, c->name), m, false);
        if (m->signal == SIG_DEADLOCK)
            mut_check_deadlock(&ctx, mut_algo(&ctx, c->name), m, false);
    }
    assert_true(ndone > 0);
}

static void test_one(void **state)
{
    const mutant *m = *state;
    if (m->signal == SIG_CONTROL)
        check_control(m);
    else
        check_mutant(m);
}

/* The table and kernels.def list the same algorithms; every mutant names
 * a control of its table; every category of the issue has a mutant. */
static void test_table(void **state)
{
    (void)state;
    static const char *const categories[] = {
        "missing barrier", "moved barrier", "barrier in divergent code", "off-by-one stride",
        "in-place race", "wrong identity", "missing bounds check", "swapped operands",
        "memory ordering: writer", "memory ordering: reader", "memory ordering: flag before value",
        "memory ordering: packed word as two stores", "block id instead of ticket",
        "full-mask shuffle in a partial warp", "32-bit index arithmetic", "section combine beyond one section",
        "persistent path",
    };
    assert_int_equal(mutant_count, table_count);
    for (size_t i = 0; i < mutant_count; i++) {
        (void)mut_algo(&ctx, mutants[i].name);
        const mutant *c = NULL;
        for (size_t k = 0; k < mutant_count; k++)
            if (strcmp(mutants[k].name, mutants[i].control) == 0)
                c = &mutants[k];
        assert_non_null(c);
        assert_int_equal(c->signal, SIG_CONTROL);
    }
    for (size_t k = 0; k < sizeof categories / sizeof categories[0]; k++) {
        bool found = false;
        for (size_t i = 0; i < mutant_count; i++)
            found |= strcmp(mutants[i].category, categories[k]) == 0;
        if (!found)
            fail_msg("no mutant of the category '%s'", categories[k]);
    }
}

int main(int argc, char **argv)
{
    if (argc > 2 && strcmp(argv[1], "verify") == 0)
        return verify_main(argc - 1, argv + 1, table, table_count, stdout);
    if (argc > 2 && strcmp(argv[1], "simulate") == 0)
        return simulate_main(argc - 1, argv + 1, table, table_count);
    const char *env = getenv("SCANLAB_SEED");
    ctx.seed = env && *env ? strtoull(env, NULL, 10) : 1;
    fprintf(stderr, "# mutants: seed %llu (SCANLAB_SEED replays it)\n", (unsigned long long)ctx.seed);
    struct CMUnitTest *tests = calloc(mutant_count + 1, sizeof *tests);
    assert_non_null(tests);
    tests[0] = (struct CMUnitTest)cmocka_unit_test(test_table);
    for (size_t i = 0; i < mutant_count; i++) {
        tests[i + 1].name = mutants[i].name;
        tests[i + 1].test_func = test_one;
        tests[i + 1].initial_state = (void *)&mutants[i];
    }
    const int failed = test_tap_run_group("mutants", tests, mutant_count + 1, NULL, NULL);
    free(tests);
    return failed;
}
