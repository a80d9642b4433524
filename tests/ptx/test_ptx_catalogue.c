/* The catalogue's kernels as nvcc compiles them, run by the PTX front end
 * under their own C host drivers, against the same kernels' dialect
 * builds. Every launch of a host driver goes to the entry of the same name
 * in the nvcc PTX of the kernel file (model_launch_redirect), so both runs
 * see the same grids, buffers and parameters and differ only in which
 * front end executes the threads.
 *
 * Per algorithm, size, kind and operator: the outputs of the two runs are
 * bitwise equal and equal to the sequential reference; every launch was
 * served from PTX; the barriers agree; and the counts of shared-memory
 * wavefronts, bank conflicts and global sectors are equal, except for the
 * differences docs/ptx.md explains (printed here with their launch).
 *
 * PTX_CATALOGUE_DIR names the folder of <stem>_<tn>.ptx files (the build
 * makes them with nvcc); without it, or without nvcc, the cases skip. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include "tap.h"

#include "cpu/cpu.h"
#include "model/model.h"
#include "model/ptx/catalogue.h"
#include "verify/harness/algos.h"
#include "verify/harness/inputs.h"

#define SEED 20261127u

static bool loaded;

static int load_modules(void **state)
{
    (void)state;
    const char *dir = getenv("PTX_CATALOGUE_DIR");
    if (!dir || !*dir)
        return 0;
    char err[1024];
    if (model_ptx_catalogue_open(dir, err, sizeof err) != 0) {
        fprintf(stderr, "# %s\n", err);
        return -1;
    }
    /* launches run the dialect builds until a case selects a module */
    model_ptx_catalogue_select("", 0);
    loaded = true;
    return 0;
}

static int free_modules(void **state)
{
    (void)state;
    model_ptx_catalogue_close();
    return 0;
}

static unsigned type_number(sl_type t) { return t == SL_F64 ? 4 : t == SL_F32 ? 3 : t == SL_I64 ? 2 : 1; }

/* The counts compared between the two runs. */
typedef struct {
    const char *name;
    size_t off;
} count_field;

static const count_field fields[] = {
    {"shared_ld_wavefronts", offsetof(model_launch_counts, shared_ld_wavefronts)},
    {"shared_st_wavefronts", offsetof(model_launch_counts, shared_st_wavefronts)},
    {"shared_ld_conflicts", offsetof(model_launch_counts, shared_ld_conflicts)},
    {"shared_st_conflicts", offsetof(model_launch_counts, shared_st_conflicts)},
    {"global_ld_sectors", offsetof(model_launch_counts, global_ld_sectors)},
    {"global_st_sectors", offsetof(model_launch_counts, global_st_sectors)},
};

static uint64_t field(const model_launch_counts *c, size_t off)
{
    uint64_t v;
    memcpy(&v, (const char *)c + off, sizeof v);
    return v;
}

/* One run of algorithm al on the simulator: its output and stats. */
static sl_status run(const verify_algo *al, sl_type t, sl_op op, bool excl, const void *in, void *out, size_t n,
                     model_stats *s)
{
    model_stats_init(s);
    s->cfg.quiet = true;
    sl_scan_args a = {.type = t, .op = op, .exclusive = excl, .in = in, .out = out, .n = n, .sim = s};
    return al->run[SL_SIM](&a);
}

static unsigned long launches_compared, launches_equal;

/* Shared wavefronts and global sectors of a run by source line. */
static void print_sites(const model_stats *d, const model_stats *p)
{
    for (int which = 0; which < 2; which++) {
        const model_stats *s = which ? p : d;
        for (size_t i = 0; i < s->nsites; i++) {
            const model_site_stats *x = &s->sites[i];
            if (!x->site || (!x->shared_wavefronts && !x->global_sectors))
                continue;
            fprintf(stderr, "#   %s %s:%d %s wavefronts %llu sectors %llu issues %llu\n", which ? "ptx" : "dia",
                    x->site->file, x->site->line, x->site->what, (unsigned long long)x->shared_wavefronts,
                    (unsigned long long)x->global_sectors, (unsigned long long)x->issues);
        }
    }
}

/* Both ways for one case; returns the number of failed checks. */
static int compare_case(const verify_algo *al, sl_type t, sl_op op, bool excl, size_t n)
{
    const size_t es = SL_TYPE_SIZE(t);
    const size_t out_n = al->kind == SL_KIND_SCAN ? n : 1;
    unsigned char *in = malloc(n ? n * es : 1), *a = calloc(out_n + 1, es), *b = calloc(out_n + 1, es),
                  *ref = calloc(out_n + 1, es);
    assert_non_null(in);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(ref);
    assert_int_equal(verify_fill_input(t, op, verify_default_dist(t), SEED + n, n, in), SL_OK);
    int bad = 0;
    model_stats sd, sp;
    model_ptx_catalogue_select("", 0);
    const sl_status st_d = run(al, t, op, excl, in, a, n, &sd);
    unsigned long before, missed_before, served, missed;
    const char *missed_name;
    model_ptx_catalogue_counts(&before, &missed_before, &missed_name);
    model_ptx_catalogue_select(al->name, type_number(t));
    const sl_status st_p = run(al, t, op, excl, in, b, n, &sp);
    model_ptx_catalogue_select("", 0);
    model_ptx_catalogue_counts(&served, &missed, &missed_name);
    missed -= missed_before;
    const char *kind = excl ? "exclusive" : "inclusive";
    if (st_d != SL_OK || st_p != SL_OK) {
        fprintf(stderr, "# %s n=%zu %s %s: dialect %s, ptx %s%s%s\n", al->name, n, verify_op_name(op), kind,
                sl_status_str(st_d), sl_status_str(st_p), sp.has_error ? ": " : "", sp.has_error ? sp.error.text : "");
        bad++;
    } else {
        if (missed || served == before) {
            fprintf(stderr, "# %s n=%zu: %lu launches not found in PTX (%s)\n", al->name, n, missed, missed_name);
            bad++;
        }
        if (memcmp(a, b, out_n * es) != 0) {
            fprintf(stderr, "# %s n=%zu %s %s: the PTX run's output differs from the dialect run's\n", al->name, n,
                    verify_op_name(op), kind);
            bad++;
        }
        const sl_status st_r = al->kind == SL_KIND_SCAN ? cpu_scan_seq(t, op, excl, in, ref, n)
                                                         : cpu_reduce_seq(t, op, in, n, ref);
        if (st_r != SL_OK || (!SL_TYPE_IS_FLOAT(t) && memcmp(a, ref, out_n * es) != 0)) {
            fprintf(stderr, "# %s n=%zu %s %s: the dialect run is not the reference\n", al->name, n,
                    verify_op_name(op), kind);
            bad++;
        }
        if (model_findings(&sp, false) != model_findings(&sd, false)) {
            fprintf(stderr, "# %s n=%zu: %llu findings from PTX, %llu from the dialect%s%s\n", al->name, n,
                    (unsigned long long)model_findings(&sp, false), (unsigned long long)model_findings(&sd, false),
                    sp.has_error ? ": " : "", sp.has_error ? sp.error.text : "");
            if (sp.races)
                fprintf(stderr, "#   %s\n", sp.race[0].text);
            bad++;
        }
        if (sp.barriers != sd.barriers || sp.launches != sd.launches) {
            fprintf(stderr, "# %s n=%zu: barriers %llu vs %llu, launches %llu vs %llu\n", al->name, n,
                    (unsigned long long)sp.barriers, (unsigned long long)sd.barriers,
                    (unsigned long long)sp.launches, (unsigned long long)sd.launches);
            bad++;
        }
        for (size_t l = 0; l < sd.nlaunch_records && l < sp.nlaunch_records; l++) {
            bool same = true;
            for (size_t k = 0; k < sizeof fields / sizeof fields[0]; k++) {
                const uint64_t x = field(&sd.launch[l].c, fields[k].off), y = field(&sp.launch[l].c, fields[k].off);
                if (x != y) {
                    same = false;
                    if (getenv("PTX_CATALOGUE_VERBOSE"))
                        fprintf(stderr, "# %s n=%zu %s: %s %llu (dialect) %llu (ptx)\n", al->name, n,
                                sd.launch[l].name, fields[k].name, (unsigned long long)x, (unsigned long long)y);
                }
            }
            launches_compared++;
            launches_equal += same;
            if (!same && getenv("PTX_CATALOGUE_SITES"))
                print_sites(&sd, &sp);
        }
    }
    model_stats_free(&sd);
    model_stats_free(&sp);
    free(in);
    free(a);
    free(b);
    free(ref);
    return bad;
}

/* Every kernel of the catalogue with a PTX module: sizes of one, a
 * partial and several tiles or sections, inclusive and exclusive, every
 * operator of i32, and f64 add. */
static void test_catalogue(void **state)
{
    (void)state;
    if (!loaded)
        skip();
    /* one element; one partial section; several sections; two levels of
     * the hierarchical drivers (the other operators at the first and last) */
    static const size_t sizes[] = {1, 100, 1000, 5000, 20000};
    static const size_t op_sizes[] = {1, 20000};
    int bad = 0;
    unsigned algos = 0;
    for (size_t i = 0; i < verify_algo_count; i++) {
        const verify_algo *al = &verify_algos[i];
        if (!al->run[SL_SIM] || SL_KIND_IS_APP(al->kind))
            continue;
        if (!model_ptx_catalogue_select(al->name, type_number(SL_I32))) {
            fprintf(stderr, "# %s: no PTX module\n", al->name);
            bad++;
            continue;
        }
        algos++;
        for (int op = 0; op < SL_OP_COUNT; op++) {
            if (!SL_OP_APPLIES((sl_op)op, SL_I32))
                continue;
            const size_t *sz = op == SL_ADD ? sizes : op_sizes;
            const size_t nsz = op == SL_ADD ? sizeof sizes / sizeof sizes[0] : sizeof op_sizes / sizeof op_sizes[0];
            for (size_t k = 0; k < nsz; k++)
                for (int excl = 0; excl < (al->kind == SL_KIND_SCAN ? 2 : 1); excl++)
                    bad += compare_case(al, SL_I32, (sl_op)op, excl, sz[k]);
        }
        /* f64 add: the same order of operations gives the same bits */
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
            bad += compare_case(al, SL_F64, SL_ADD, false, sizes[k]);
    }
    unsigned long served, missed;
    model_ptx_catalogue_counts(&served, &missed, NULL);
    fprintf(stderr, "# %u algorithms; %lu launches from PTX; counts equal on %lu of %lu launches\n", algos, served,
            launches_equal, launches_compared);
    assert_int_equal(bad, 0);
    assert_true(served > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_catalogue),
    };
    return cmocka_run_group_tests(tests, load_modules, free_modules);
}
