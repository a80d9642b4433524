/* The time model (model/timemodel.h). A launch is priced from what the
 * simulator counted in it, B being the blocks resident on an SM at once
 * and a wave the blocks the whole GPU holds at once:
 *
 *   stream  = 32 * (global load + store + atomic sectors) / the copy
 *             bandwidth, scaled by the share of SMs the grid occupies;
 *   memory  = the same bytes over what the resident blocks keep in flight:
 *             a block's loads of one load round (a barrier interval that
 *             loads) all at once, over a loaded DRAM round trip, taken as
 *             twice the unloaded one (Little's law; never below stream);
 *   shared  = shared wavefronts / (wavefront rate * SMs in use);
 *   barrier = per SM, the rounds of B blocks it runs, times each block's
 *             barrier intervals, times the longer of a lone block's
 *             interval (barrier_ns + barrier_ns_per_warp * its warps) and
 *             barrier_ns_per_warp * the SM's resident warps;
 *   latency = waves * own, own = load rounds * loaded DRAM round trip +
 *             own steps * shared round trip + intervals * a lone block's
 *             interval: one block's own critical path (its steps without
 *             the waits for other blocks, which the chain prices);
 *   chain   = chain links * link time (blocks that waited, in series, for
 *             a flag another block published);
 *   work    = max(stream, shared + barrier) + min(stream, shared +
 *             barrier) / B: while one block waits at its barriers the other
 *             B - 1 can stream, so the shorter side hides but for 1/B;
 *   total   = launch + max(work, memory, latency, chain + own).
 *
 * The chain runs beside the work: a block loads its tile and combines it
 * before it waits, so the other blocks' work goes on while the chain
 * passes from block to block, and only the last block's own path follows
 * the chain's last link. (A chain through every tile is the time itself;
 * a chain of a few links, as the windows of lookback-det, hides.)
 *
 * The barrier constants come from tools/fidelity_ubench, an interval of
 * nothing but a barrier: a level of a tree in shared memory costs at least
 * that for every warp resident, active or not. */
#include <stdlib.h>
#include <string.h>

#include "model/timemodel.h"

#define MODEL_DEVICE(nm, gpu_, when, sms_, tps, bps, copy, dram, l2, link, wf, srtt, launch_, bar, bar_warp) \
    {#nm, gpu_, when, sms_, tps, bps, copy, dram, l2, link, wf, srtt, launch_, bar, bar_warp},
static const model_device devices[] = {
#include "model/devices.def"
    {NULL, NULL, NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}};
#undef MODEL_DEVICE

size_t model_devices(const model_device **begin)
{
    *begin = devices;
    return sizeof devices / sizeof devices[0] - 1;
}

const model_device *model_device_find(const char *name)
{
    const model_device *d;
    size_t n = model_devices(&d);
    for (size_t i = 0; i < n; i++)
        if (!name || strcmp(d[i].name, name) == 0)
            return &d[i];
    return NULL;
}

/* Shared memory per SM and per block on Hopper (228 and 227 KiB), and
 * what the runtime reserves per block (1 KiB). */
#define SM_SHARED_BYTES (228u * 1024)
#define BLOCK_RESERVED_BYTES 1024u

unsigned model_time_blocks_per_sm(const model_device *d, unsigned threads, size_t dyn_shared)
{
    const unsigned warps = (threads + MODEL_WARP_SIZE - 1) / MODEL_WARP_SIZE;
    unsigned by_threads = warps ? d->threads_per_sm / (warps * MODEL_WARP_SIZE) : d->blocks_per_sm;
    unsigned by_shared = (unsigned)(SM_SHARED_BYTES / (dyn_shared + BLOCK_RESERVED_BYTES));
    unsigned b = d->blocks_per_sm;
    if (by_threads < b)
        b = by_threads;
    if (by_shared < b)
        b = by_shared;
    return b ? b : 1;
}

uint64_t model_time_resident_blocks(const model_device *d, unsigned threads, size_t dyn_shared)
{
    return (uint64_t)d->sms * model_time_blocks_per_sm(d, threads, dyn_shared);
}

static double max2(double a, double b) { return a > b ? a : b; }
static double min2(double a, double b) { return a < b ? a : b; }

model_time model_time_predict(const model_device *d, const model_launch_stats *l)
{
    model_time t;
    memset(&t, 0, sizeof t);
    const model_launch_counts *c = &l->c;
    /* whole blocks and SMs; rounds up in integers (no libm) */
    const uint64_t nb = l->blocks ? l->blocks : 1, sms_in_use = nb < d->sms ? nb : d->sms;
    const uint64_t per_sm = model_time_blocks_per_sm(d, l->threads_per_block, l->dyn_shared);
    const uint64_t held = d->sms * per_sm, on_sm = (nb + d->sms - 1) / d->sms;
    /* blocks resident on a busy SM at once, and the rounds of them it runs */
    const uint64_t at_once = on_sm < per_sm ? on_sm : per_sm;
    const double blocks = (double)nb, sms_used = (double)sms_in_use, together = (double)at_once;
    const double waves = (double)((nb + held - 1) / held);
    const double sets = (double)((nb + sms_in_use * at_once - 1) / (sms_in_use * at_once));
    const double warps = (double)((l->threads_per_block + MODEL_WARP_SIZE - 1) / MODEL_WARP_SIZE);
    const double bytes = (double)MODEL_SECTOR_BYTES *
                         (double)(c->global_ld_sectors + c->global_st_sectors + c->global_atom_sectors);
    const double wavefronts = (double)(c->shared_ld_wavefronts + c->shared_st_wavefronts);
    const double steps = (double)c->own_steps;
    const double intervals = (double)l->barriers / blocks;
    const double rounds = (double)c->load_rounds;
    const double loaded_rtt = 2 * d->dram_rtt_ns;

    const double copy_bw = d->copy_bytes_per_ns * sms_used / d->sms;
    const double stream = bytes / copy_bw;
    /* what the resident blocks have in flight at once: one load round each */
    const double in_flight = min2(blocks, (double)held) * (double)MODEL_SECTOR_BYTES *
                             (double)c->global_ld_sectors / blocks / max2(rounds, 1);
    t.memory = in_flight > 0 ? bytes / min2(copy_bw, in_flight / loaded_rtt) : stream;
    t.shared = wavefronts / (d->smem_wavefronts_per_ns * sms_used);
    const double lone = d->barrier_ns + d->barrier_ns_per_warp * warps;
    t.barrier = sets * intervals * max2(lone, d->barrier_ns_per_warp * warps * together);
    const double own = rounds * loaded_rtt + steps * d->smem_rtt_ns + intervals * lone;
    t.latency = waves * own;
    t.chain = (double)c->chain * d->chain_link_ns;
    t.launch = d->launch_ns;
    const double inside = t.shared + t.barrier;
    const double work = max2(stream, inside) + min2(stream, inside) / together;
    const double mid = max2(work, max2(t.memory, t.latency));
    const double chained = t.chain + own; /* without a chain, own <= latency */
    t.bound = chained > mid        ? "chain"
              : t.latency >= mid ? "latency"
              : t.memory >= mid || stream >= inside ? "memory"
              : t.shared >= t.barrier ? "shared"
                                      : "barrier";
    t.total = t.launch + max2(mid, chained);
    return t;
}

/* --- "key = value" constants ---------------------------------------------- */

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    char *e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
        *--e = '\0';
    return s;
}

int model_device_parse(char *text, model_device *d)
{
    memset(d, 0, sizeof *d);
    struct {
        const char *key;
        double *dv;
        unsigned *uv;
    } num[] = {
        {"sms", NULL, &d->sms},
        {"threads_per_sm", NULL, &d->threads_per_sm},
        {"blocks_per_sm", NULL, &d->blocks_per_sm},
        {"copy_bytes_per_ns", &d->copy_bytes_per_ns, NULL},
        {"dram_rtt_ns", &d->dram_rtt_ns, NULL},
        {"l2_rtt_ns", &d->l2_rtt_ns, NULL},
        {"chain_link_ns", &d->chain_link_ns, NULL},
        {"smem_wavefronts_per_ns", &d->smem_wavefronts_per_ns, NULL},
        {"smem_rtt_ns", &d->smem_rtt_ns, NULL},
        {"launch_ns", &d->launch_ns, NULL},
        {"barrier_ns", &d->barrier_ns, NULL},
        {"barrier_ns_per_warp", &d->barrier_ns_per_warp, NULL},
    };
    const size_t nnum = sizeof num / sizeof num[0];
    int lineno = 0;
    for (char *line = text, *next; line && *line; line = next) {
        lineno++;
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *s = trim(line);
        if (*s == '\0')
            continue;
        char *eq = strchr(s, '=');
        if (!eq)
            return lineno;
        *eq = '\0';
        char *key = trim(s), *val = trim(eq + 1);
        if (strcmp(key, "name") == 0) {
            d->name = val;
        } else if (strcmp(key, "gpu") == 0) {
            d->gpu = val;
        } else if (strcmp(key, "measured") == 0) {
            d->measured = val;
        } else {
            size_t k = 0;
            while (k < nnum && strcmp(num[k].key, key) != 0)
                k++;
            if (k == nnum)
                return lineno;
            char *end;
            double v = strtod(val, &end);
            if (end == val || *trim(end) != '\0')
                return lineno;
            if (num[k].dv)
                *num[k].dv = v;
            else
                *num[k].uv = v > 0 && v < 4e9 ? (unsigned)v : 0;
        }
    }
    if (!d->name || !d->gpu || !d->measured)
        return -1;
    for (size_t k = 0; k < nnum; k++)
        if (num[k].dv ? !(*num[k].dv > 0) : *num[k].uv == 0)
            return -1;
    return 0;
}
