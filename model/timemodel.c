/* The time model (model/timemodel.h). A launch is priced from what the
 * simulator counted in it:
 *
 *   memory  = 32 * (global load + store + atomic sectors) / bandwidth, the
 *             bandwidth the smaller of: the copy bandwidth scaled by the
 *             share of SMs the grid can occupy; and the bytes the resident
 *             blocks have in flight (each issuing all its loads before the
 *             first returns: an upper bound) over a loaded DRAM round trip,
 *             taken as twice the unloaded one (Little's law);
 *   shared  = shared wavefronts / (wavefront rate * SMs in use);
 *   latency = waves * (DRAM round trip + (steps + barrier intervals)
 *             * shared round trip), a wave being the blocks resident at once:
 *             each block's own critical path, its first load from DRAM, then
 *             one dependent shared access per step and per barrier;
 *   chain   = chain links * link time (blocks that waited, in series, for
 *             a flag another block published);
 *   total   = launch + max(memory + shared, latency) + chain.
 *
 * Memory and shared time add: a block's global loads and stores and its
 * shared-memory work are separated by barriers. Both that and the in-flight
 * bound were chosen against the recorded H100 run (docs/model-fidelity.md,
 * tools/fidelity.sh --repredict), when 103 of its 147 launches came within
 * 25% against 58 for the larger of the three terms alone (the page gives
 * the share now).
 * Steps that include a cross-block chain are per block divided along it. */
#include <stdlib.h>
#include <string.h>

#include "model/timemodel.h"

#define MODEL_DEVICE(nm, gpu_, when, sms_, tps, bps, copy, dram, l2, link, wf, srtt, launch_) \
    {#nm, gpu_, when, sms_, tps, bps, copy, dram, l2, link, wf, srtt, launch_},
static const model_device devices[] = {
#include "model/devices.def"
    {NULL, NULL, NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}};
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

model_time model_time_predict(const model_device *d, const model_launch_stats *l)
{
    model_time t;
    memset(&t, 0, sizeof t);
    const model_launch_counts *c = &l->c;
    const double blocks = l->blocks ? l->blocks : 1;
    const double sms_used = blocks < d->sms ? blocks : d->sms;
    const uint64_t held = model_time_resident_blocks(d, l->threads_per_block, l->dyn_shared);
    const double waves = (double)((l->blocks + held - 1) / held);
    const double bytes = (double)MODEL_SECTOR_BYTES *
                         (double)(c->global_ld_sectors + c->global_st_sectors + c->global_atom_sectors);
    const double wavefronts = (double)(c->shared_ld_wavefronts + c->shared_st_wavefronts);
    const double steps = c->chain ? (double)l->steps / (double)(c->chain + 1) : (double)l->steps;
    const double intervals = (double)l->barriers / blocks;

    /* what the resident blocks have in flight at once */
    const double resident = blocks < (double)held ? blocks : (double)held;
    const double in_flight = resident * (double)MODEL_SECTOR_BYTES * (double)c->global_ld_sectors / blocks;
    double bandwidth = d->copy_bytes_per_ns * sms_used / d->sms;
    if (in_flight > 0 && in_flight / (2 * d->dram_rtt_ns) < bandwidth)
        bandwidth = in_flight / (2 * d->dram_rtt_ns);

    t.launch = d->launch_ns;
    t.memory = bytes / bandwidth;
    t.shared = wavefronts / (d->smem_wavefronts_per_ns * sms_used);
    t.latency = (waves > 1 ? waves : 1) * (d->dram_rtt_ns + (steps + intervals) * d->smem_rtt_ns);
    t.chain = (double)c->chain * d->chain_link_ns;
    const double mid = max2(t.memory + t.shared, t.latency);
    t.bound = t.latency > t.memory + t.shared ? "latency" : t.memory >= t.shared ? "memory" : "shared";
    t.total = t.launch + mid + t.chain;
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
