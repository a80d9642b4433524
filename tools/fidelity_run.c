/* fidelity_run: runs the same list of launches in the simulator or on the
 * GPU, for tools/fidelity.sh, which holds the simulator's counts against
 * Nsight Compute's (docs/model-fidelity.md).
 *
 *   fidelity_run sim  CASES [DEVICE] [SCALE]   one JSON object per launch on stdout
 *   fidelity_run cuda CASES                    runs each case on the GPU
 *
 * CASES has one case a line, "algo type n block param" (block and param 0:
 * the algorithm's default; '#' starts a comment). Every case is an
 * inclusive add scan (or reduction) of the input the seed 1 gives, checked
 * against the sequential one. DEVICE, a "key = value" file of
 * tools/fidelity_ubench ("-": none), adds each launch's predicted time.
 * SCALE > 1 reports the launches a second time, those of more than one
 * block with their counts and blocks multiplied by SCALE, and n too: the
 * launches of a SCALE times larger input, whose full tiles do what the
 * simulated ones did (for sizes too large to simulate; one-block launches
 * are kept as they are, "scaled": true marks them). A grid that does not
 * grow with n (an occupancy query's, or one the caller fixed) keeps its
 * size; a fixed grid's blocks take the rest of the factor in their steps.
 *
 * Exit status: 0 every case ran and was right, 1 one was not, 2 bad usage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu.h"
#include "model/model.h"
#include "model/ptx/catalogue.h"
#include "model/timemodel.h"
#include "verify/harness/algos.h"
#include "verify/harness/catalog.h"
#include "verify/harness/inputs.h"

#define SEED 1

typedef struct {
    char algo[64];
    sl_type type;
    size_t n;
    int block, param;
} fcase;

/* The input and reference of the last (type, n), reused by the next case. */
typedef struct {
    sl_type type;
    size_t n;
    void *in, *scan, *reduce, *out;
} inputs;

static int usage(void)
{
    fprintf(stderr, "usage: fidelity_run sim CASES [DEVICE] [SCALE] | fidelity_run cuda CASES\n");
    return 2;
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t len = 0, cap = 0, got;
    do {
        if (len + 4096 + 1 > cap) {
            cap = 2 * cap + 8192;
            char *b = realloc(buf, cap);
            if (!b) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = b;
        }
        got = fread(buf + len, 1, 4096, f);
        len += got;
    } while (got > 0);
    fclose(f);
    buf[len] = '\0';
    return buf;
}

/* Parses one case line; 0 blank, 1 a case, -1 malformed. */
static int parse_case(char *line, fcase *c)
{
    char *hash = strchr(line, '#');
    if (hash)
        *hash = '\0';
    char type[16];
    unsigned long long n;
    int fields = sscanf(line, "%63s %15s %llu %d %d", c->algo, type, &n, &c->block, &c->param);
    if (fields <= 0)
        return 0;
    if (fields != 5 || verify_parse_type(type, &c->type, NULL, 0) != SL_OK || c->block < 0 || c->param < 0)
        return -1;
    c->n = (size_t)n;
    return 1;
}

static sl_status prepare(inputs *in, const fcase *c)
{
    if (in->in && in->type == c->type && in->n == c->n)
        return SL_OK;
    free(in->in);
    free(in->scan);
    free(in->reduce);
    free(in->out);
    memset(in, 0, sizeof *in);
    const size_t es = SL_TYPE_SIZE(c->type), bytes = (c->n ? c->n : 1) * es;
    in->in = malloc(bytes);
    in->scan = malloc(bytes);
    in->reduce = malloc(es);
    in->out = malloc(bytes);
    if (!in->in || !in->scan || !in->reduce || !in->out)
        return SL_ERR_NOMEM;
    sl_status st = verify_fill_input(c->type, SL_ADD, verify_default_dist(c->type), SEED, c->n, in->in);
    if (st == SL_OK)
        st = cpu_scan_seq(c->type, SL_ADD, false, in->in, in->scan, c->n);
    if (st == SL_OK)
        st = cpu_reduce_seq(c->type, SL_ADD, in->in, c->n, in->reduce);
    in->type = c->type;
    in->n = c->n;
    return st;
}

/* Integers only are compared here (exactly): float add depends on the
 * order of additions, which is the kernel's. */
static bool right(const inputs *in, const verify_algo *al, const fcase *c)
{
    if (SL_TYPE_IS_FLOAT(c->type))
        return true;
    const size_t es = SL_TYPE_SIZE(c->type);
    return al->kind == SL_KIND_SCAN ? memcmp(in->out, in->scan, c->n * es) == 0
                                    : memcmp(in->out, in->reduce, es) == 0;
}

/* name without the backend suffix: ksdb_scan_i32_add_sim -> ksdb_scan_i32_add */
static void print_kernel(const char *name)
{
    const char *us = strrchr(name, '_');
    int len = us && strcmp(us, "_sim") == 0 ? (int)(us - name) : (int)strlen(name);
    printf("\"kernel\": \"%.*s\"", len, name);
}

static void print_launch(const fcase *c, size_t index, size_t k, const model_launch_stats *l0,
                         const model_device *dev, double scale, bool ok)
{
    model_launch_stats l = *l0;
    if (scale > 1 && l.blocks > 1) {
        model_launch_counts *x = &l.c;
        uint64_t *v[] = {&x->shared_ld, &x->shared_st, &x->shared_ld_wavefronts, &x->shared_st_wavefronts,
                         &x->shared_ld_conflicts, &x->shared_st_conflicts, &x->shared_atom,
                         &x->global_ld_sectors, &x->global_st_sectors, &x->global_poll_sectors,
                         &x->global_atom_sectors, &x->divergent_branches, &l.work, &l.barriers};
        for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
            *v[i] = (uint64_t)((double)*v[i] * scale + 0.5);
        /* a chain through every block grows with them; a short one does not */
        if (x->chain + 1 >= l.blocks)
            x->chain = (uint64_t)((double)(x->chain + 1) * scale + 0.5) - 1;
        const unsigned blocks0 = l.blocks;
        l.blocks = (unsigned)((double)l.blocks * scale + 0.5);
        /* a grid sized by an occupancy query (grid-stride and persistent
         * kernels) grows with n only up to what the GPU holds at once, and
         * a grid the caller fixed (two-level's C) not at all */
        if (l.occupancy_grid && dev) {
            const uint64_t held = model_time_resident_blocks(dev, l.threads_per_block, l.dyn_shared);
            if (l.blocks > held)
                l.blocks = (unsigned)held;
        }
        /* a fixed grid's blocks do the rest of the factor in series: their
         * steps grow by it. (Not so an occupancy-sized grid's: the
         * simulator runs a persistent grid's tiles a block each, and their
         * steps hold the spin of a chain the GPU does not wait through.) */
        if (l.fixed_grid && l.blocks > l.fixed_grid) {
            l.blocks = l.fixed_grid; /* the simulated grid was at most that */
            const double more = scale * (double)blocks0 / (double)l.blocks;
            l.steps = (uint64_t)((double)l.steps * more + 0.5);
            x->load_rounds = (uint64_t)((double)x->load_rounds * more + 0.5);
            x->own_steps = (uint64_t)((double)x->own_steps * more + 0.5);
        }
    }
    const model_launch_counts *x = &l.c;
    printf("{\"case\": %zu, \"algo\": \"%s\", \"type\": \"%s\", \"n\": %llu, \"asked_block\": %d, "
           "\"param\": %d, \"launch\": %zu, ",
           index, c->algo, verify_type_name(c->type), (unsigned long long)((double)c->n * (scale > 1 ? scale : 1)),
           c->block, c->param, k);
    print_kernel(l.name);
    printf(", \"block\": %u, \"blocks\": %u, \"work\": %llu, \"steps\": %llu, \"barriers\": %llu, "
           "\"dyn_shared\": %zu, ",
           l.threads_per_block, l.blocks, (unsigned long long)l.work, (unsigned long long)l.steps,
           (unsigned long long)l.barriers, l.dyn_shared);
    printf("\"shared_ld\": %llu, \"shared_st\": %llu, \"shared_ld_wavefronts\": %llu, "
           "\"shared_st_wavefronts\": %llu, \"shared_ld_conflicts\": %llu, \"shared_st_conflicts\": %llu, "
           "\"shared_atom\": %llu, \"global_ld_sectors\": %llu, \"global_st_sectors\": %llu, "
           "\"global_poll_sectors\": %llu, \"global_atom_sectors\": %llu, \"divergent_branches\": %llu, "
           "\"chain\": %llu, \"load_rounds\": %llu, \"own_steps\": %llu, ",
           (unsigned long long)x->shared_ld, (unsigned long long)x->shared_st,
           (unsigned long long)x->shared_ld_wavefronts, (unsigned long long)x->shared_st_wavefronts,
           (unsigned long long)x->shared_ld_conflicts, (unsigned long long)x->shared_st_conflicts,
           (unsigned long long)x->shared_atom, (unsigned long long)x->global_ld_sectors,
           (unsigned long long)x->global_st_sectors, (unsigned long long)x->global_poll_sectors,
           (unsigned long long)x->global_atom_sectors, (unsigned long long)x->divergent_branches,
           (unsigned long long)x->chain, (unsigned long long)x->load_rounds,
           (unsigned long long)x->own_steps);
    if (dev) {
        model_time t = model_time_predict(dev, &l);
        printf("\"predicted_ns\": %.1f, \"bound\": \"%s\", ", t.total, t.bound);
    }
    printf("\"scaled\": %s, \"correct\": %s}\n", scale > 1 ? "true" : "false", ok ? "true" : "false");
}

/* SCANLAB_PTX_DIR: the folder of the catalogue's nvcc PTX, or NULL. */
static const char *ptx_dir;

/* One case in the simulator: one line per recorded launch. */
static bool run_sim(const verify_algo *al, const fcase *c, size_t index, inputs *in, const model_device *dev,
                    double scale)
{
    model_stats s;
    model_stats_init(&s);
    s.cfg.quiet = true;
    /* grid-stride kernels get the grid the device holds (as on the GPU,
     * where their occupancy query answers it), not the simulator's few */
    s.cfg.occupancy_device = dev;
    sl_scan_args a = {.type = c->type, .op = SL_ADD, .in = in->in, .out = in->out, .n = c->n,
                      .block = c->block, .param = c->param, .sim = &s};
    /* with SCANLAB_PTX_DIR, the kernels run from nvcc's PTX (the PTX front
     * end) under the same host driver: every launch must be found there */
    unsigned long served0 = 0, missed0 = 0, served = 0, missed = 0;
    if (ptx_dir && !model_ptx_catalogue_select(al->name, c->type == SL_I64 ? 2 : c->type == SL_F64 ? 4 : c->type == SL_F32 ? 3 : 1)) {
        fprintf(stderr, "fidelity_run: case %zu (%s): no PTX module in %s\n", index, c->algo, ptx_dir);
        model_stats_free(&s);
        return false;
    }
    model_ptx_catalogue_counts(&served0, &missed0, NULL);
    sl_status st = al->run[SL_SIM](&a);
    model_ptx_catalogue_counts(&served, &missed, NULL);
    bool ok = st == SL_OK && model_findings(&s, false) == 0 && right(in, al, c) && missed == missed0 &&
              (!ptx_dir || served - served0 == s.launches);
    if (s.launches > s.nlaunch_records) {
        fprintf(stderr, "fidelity_run: case %zu (%s): %llu launches, only %d recorded\n", index, c->algo,
                (unsigned long long)s.launches, MODEL_MAX_LAUNCH_RECORDS);
        ok = false;
    }
    for (size_t k = 0; k < s.nlaunch_records; k++)
        print_launch(c, index, k, &s.launch[k], dev, 1, ok);
    for (size_t k = 0; scale > 1 && k < s.nlaunch_records; k++)
        print_launch(c, index, k, &s.launch[k], dev, scale, ok);
    if (!ok)
        fprintf(stderr, "fidelity_run: sim case %zu (%s %s n=%zu block %d): %s%s%s\n", index, c->algo,
                verify_type_name(c->type), c->n, c->block, sl_status_str(st), s.has_error ? ": " : "",
                s.has_error ? s.error.text : (st == SL_OK ? "wrong result or finding" : ""));
    model_stats_free(&s);
    return ok;
}

/* One case on the GPU: its launches are what Nsight Compute profiles. */
static bool run_cuda(const verify_algo *al, const fcase *c, size_t index, inputs *in)
{
    sl_scan_args a = {.type = c->type, .op = SL_ADD, .in = in->in, .out = in->out, .n = c->n,
                      .block = c->block, .param = c->param};
    sl_status st = al->run[SL_CUDA](&a);
    bool ok = st == SL_OK && right(in, al, c);
    printf("case %zu %s %s %zu %d %d: %s\n", index, c->algo, verify_type_name(c->type), c->n, c->block,
           c->param, ok ? "ok" : st != SL_OK ? sl_status_str(st) : "WRONG");
    fflush(stdout);
    return ok;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return usage();
    const bool sim = strcmp(argv[1], "sim") == 0;
    if (!sim && strcmp(argv[1], "cuda") != 0)
        return usage();
    if ((sim && argc > 5) || (!sim && argc != 3))
        return usage();
    model_device dev_buf;
    const model_device *dev = NULL;
    char *dev_text = NULL;
    if (sim && argc >= 4 && strcmp(argv[3], "-") != 0) {
        dev_text = read_file(argv[3]);
        int bad = dev_text ? model_device_parse(dev_text, &dev_buf) : -2;
        if (bad != 0) {
            fprintf(stderr, "fidelity_run: %s: %s\n", argv[3],
                    bad == -2 ? "cannot read" : bad == -1 ? "a constant is missing or not positive"
                                                          : "a line is not 'key = value'");
            free(dev_text);
            return 2;
        }
        dev = &dev_buf;
    }
    double scale = sim && argc == 5 ? strtod(argv[4], NULL) : 1;
    if (!(scale >= 1)) {
        free(dev_text);
        return usage();
    }
    ptx_dir = sim ? getenv("SCANLAB_PTX_DIR") : NULL;
    if (ptx_dir && *ptx_dir) {
        char err[1024];
        if (model_ptx_catalogue_open(ptx_dir, err, sizeof err) != 0) {
            fprintf(stderr, "fidelity_run: SCANLAB_PTX_DIR: %s\n", err);
            free(dev_text);
            return 2;
        }
    } else {
        ptx_dir = NULL;
    }
    char *text = read_file(argv[2]);
    if (!text) {
        fprintf(stderr, "fidelity_run: cannot read %s\n", argv[2]);
        free(dev_text);
        return 2;
    }
    int status = 0;
    size_t index = 0, lineno = 0;
    inputs in;
    memset(&in, 0, sizeof in);
    for (char *line = text, *next; line && *line; line = next) {
        lineno++;
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        fcase c;
        int r = parse_case(line, &c);
        if (r == 0)
            continue;
        const verify_algo *al = r > 0 ? verify_find_algo(c.algo, false) : NULL;
        if (!al || !al->run[sim ? SL_SIM : SL_CUDA] || !(al->kind == SL_KIND_SCAN || al->kind == SL_KIND_REDUCE)) {
            fprintf(stderr, "fidelity_run: %s:%zu: not a case (algo type n block param, a scan or reduction "
                            "with this backend)\n", argv[2], lineno);
            status = 2;
            break;
        }
        sl_status st = prepare(&in, &c);
        if (st != SL_OK) {
            fprintf(stderr, "fidelity_run: case %zu: input: %s\n", index, sl_status_str(st));
            status = 1;
            break;
        }
        bool ok = sim ? run_sim(al, &c, index, &in, dev, scale) : run_cuda(al, &c, index, &in);
        if (!ok)
            status = 1;
        index++;
    }
    free(in.in);
    free(in.scan);
    free(in.reduce);
    free(in.out);
    free(text);
    free(dev_text);
    if (ptx_dir)
        model_ptx_catalogue_close();
    return status;
}
