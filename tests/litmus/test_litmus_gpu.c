/* The host side of the litmus campaign on the GPU (tools/litmus_gpu), with
 * no GPU: results of fake launches counted and written as JSON, which
 * `scanlab litmus --observed` must accept when every state is allowed and
 * reject (exit 1) when one is forbidden; the placement of instances; the
 * kernel of every project test, assembled by ptxas where it is found; the
 * runner's messages without a GPU, and its loop on a driver that runs
 * nothing (fake_cuda.c).
 *
 *   test_litmus_gpu  (env SCANLAB, LITMUS_GPU, LITMUS_TESTS, LITMUS_FAKE_DRIVER; PTXAS optional) */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "run_cli.h"
#include "tap.h"
#include "tools/litmus_gpu/campaign.h"

static const char *scanlab, *runner, *tests_dir, *fake_driver, *progress_dir;
static char tmpdir[] = "/tmp/test_litmus_gpu.XXXXXX";

static lit_test *load(const char *name)
{
    static lit_test t;
    char path[1024], err[600];
    snprintf(path, sizeof path, "%s/%s.litmus", tests_dir, name);
    if (lit_parse_file(path, &t, err, sizeof err) < 0)
        fail_msg("%s", err);
    return &t;
}

static lit_test *parse_text(const char *text)
{
    static lit_test t;
    char err[600];
    if (lit_parse(text, "inline", &t, err, sizeof err) < 0)
        fail_msg("%s", err);
    return &t;
}

/* A record of MP+rel+acq.gpu from fake results (r1, r2 per instance). */
static void record_mp(lg_record *rec, const lit_test *t, const uint32_t *pairs, unsigned n)
{
    lg_results r;
    lg_result_layout(t, &r);
    assert_int_equal(r.nres, 2);
    lg_hist h;
    lg_hist_init(&h, t->nnamed);
    /* a second launch of the same results: counts add up */
    assert_int_equal(lg_hist_launch(&h, t, &r, n, pairs, NULL, NULL), 0);
    assert_int_equal(lg_hist_launch(&h, t, &r, n, pairs, NULL, NULL), 0);
    memset(rec, 0, sizeof *rec);
    snprintf(rec->name, sizeof rec->name, "%s", t->name);
    snprintf(rec->file, sizeof rec->file, "%s", t->path);
    rec->runs = 2ull * n;
    rec->launches = 2;
    rec->instances = n;
    assert_int_equal(lg_record_outcomes(rec, t, &h), 0);
    lg_hist_free(&h);
}

static void test_histogram_states(void **state)
{
    (void)state;
    lit_test *t = load("MP+rel+acq.gpu");
    /* r1 r2 of five instances */
    const uint32_t res[] = {1, 1, 0, 0, 1, 1, 0, 1, 1, 1};
    lg_record rec;
    record_mp(&rec, t, res, 5);
    assert_int_equal(rec.nout, 3);
    assert_string_equal(rec.out[0].state, "P1:r1=1 P1:r2=1");
    assert_int_equal(rec.out[0].count, 6);
    assert_false(rec.out[0].body);
    /* equal counts: by state */
    assert_string_equal(rec.out[1].state, "P1:r1=0 P1:r2=0");
    assert_string_equal(rec.out[2].state, "P1:r1=0 P1:r2=1");
    assert_int_equal(rec.out[2].count, 2);
    /* the weak state satisfies the body; negative values read as signed */
    const int32_t weak[] = {1, 0}, neg[] = {-1, 7};
    assert_true(lg_state_satisfies(t, weak));
    char buf[64];
    lg_state_string(t, neg, buf, sizeof buf);
    assert_string_equal(buf, "P1:r1=-1 P1:r2=7");
    lg_record_free(&rec);
    lit_free(t);
}

/* Locations come from memory, at the instance's shuffled addresses. */
static void test_location_states(void **state)
{
    (void)state;
    lit_test *t = load("RMW-atomicity");
    lg_results r;
    lg_result_layout(t, &r);
    assert_int_equal(t->nnamed, 1);
    assert_int_equal(r.nres, 0);
    assert_int_equal(r.slot[0], -1);
    const uint32_t mem[] = {1, 9, 9, 2, 9, 2};
    const uint32_t addr[] = {3, 0, 5}; /* instance i's x */
    lg_hist h;
    lg_hist_init(&h, t->nnamed);
    assert_int_equal(lg_hist_launch(&h, t, &r, 3, NULL, mem, addr), 0);
    lg_record rec = {0};
    assert_int_equal(lg_record_outcomes(&rec, t, &h), 0);
    assert_int_equal(rec.nout, 2);
    assert_string_equal(rec.out[0].state, "x=2");
    assert_int_equal(rec.out[0].count, 2);
    assert_false(rec.out[0].body);
    assert_string_equal(rec.out[1].state, "x=1");
    assert_true(rec.out[1].body); /* exists (x == 1): a lost increment */
    lg_record_free(&rec);
    lg_hist_free(&h);
    lit_free(t);
}

/* Many distinct states: the table grows and keeps every count. */
static void test_histogram_grows(void **state)
{
    (void)state;
    lg_hist h;
    lg_hist_init(&h, 3);
    for (int round = 0; round < 3; round++)
        for (int32_t i = 0; i < 5000; i++) {
            const int32_t key[3] = {i, -i, i % 7};
            assert_int_equal(lg_hist_add(&h, key, (uint64_t)(round + 1)), 0);
        }
    assert_int_equal(h.n, 5000);
    uint64_t total = 0;
    for (size_t s = 0; s < h.cap; s++)
        total += h.full[s] ? h.counts[s] : 0;
    assert_int_equal(total, 5000 * 6);
    lg_hist_free(&h);
}

static void write_doc(const char *path, lg_record *recs, unsigned n)
{
    lg_meta m = {"test", "no GPU", "2026-11-27T00:00:00Z", 0, 0, 1, 256, 16, 1, 64, 8, 20000, 0, 1, 1000, true};
    assert_int_equal(lg_write_json(path, &m, recs, n), 0);
    char partial[1100];
    snprintf(partial, sizeof partial, "%s.partial", path);
    assert_int_not_equal(access(partial, F_OK), 0);
}

/* The document through scanlab litmus --observed: allowed states pass,
 * a forbidden one is a finding (exit 1). */
static void test_observed_by_scanlab(void **state)
{
    (void)state;
    char mp_path[1024], rlx_path[1024], doc[1100];
    snprintf(mp_path, sizeof mp_path, "%s/MP+rel+acq.gpu.litmus", tests_dir);
    snprintf(rlx_path, sizeof rlx_path, "%s/MP+rlx.litmus", tests_dir);
    snprintf(doc, sizeof doc, "%s/observed.json", tmpdir);
    lg_record recs[3];
    /* MP+rlx shows its weak state (allowed); MP+rel+acq.gpu the others */
    const uint32_t weak[] = {1, 0, 1, 1, 0, 0};
    lit_test *t = load("MP+rlx");
    record_mp(&recs[0], t, weak, 3);
    lit_free(t);
    const uint32_t ok[] = {1, 1, 0, 0, 0, 1};
    t = load("MP+rel+acq.gpu");
    record_mp(&recs[1], t, ok, 3);
    memset(&recs[2], 0, sizeof recs[2]);
    snprintf(recs[2].name, sizeof recs[2].name, "SB+rlx");
    snprintf(recs[2].skipped, sizeof recs[2].skipped, "a reason");
    write_doc(doc, recs, 3);
    char *out = NULL, *err = NULL;
    int rc = test_run_cli(scanlab, (const char *const[]){"litmus", "--observed", doc, mp_path, rlx_path, NULL},
                          &out, &err);
    if (rc != 0)
        fail_msg("exit %d on allowed states:\n%s\n%s", rc, out, err);
    assert_non_null(strstr(out, "every GPU outcome allowed"));
    assert_non_null(strstr(out, "on the GPU: 6 runs, 3 distinct outcomes, 0 the model forbids"));
    free(out);
    free(err);
    /* the same with MP+rel+acq.gpu's forbidden state among them */
    lg_record_free(&recs[1]);
    const uint32_t bad[] = {1, 1, 1, 0, 0, 1};
    record_mp(&recs[1], t, bad, 3);
    write_doc(doc, recs, 3);
    rc = test_run_cli(scanlab, (const char *const[]){"litmus", "--observed", doc, mp_path, rlx_path, NULL}, &out,
                      &err);
    if (rc != 1)
        fail_msg("exit %d on a forbidden state:\n%s\n%s", rc, out, err);
    assert_non_null(strstr(out, "FINDING: the GPU showed P1:r1=1 P1:r2=0 (2 times), which the model forbids"));
    free(out);
    free(err);
    /* the skipped test is not taken for one run on the GPU */
    char sb_path[1024];
    snprintf(sb_path, sizeof sb_path, "%s/SB+rlx.litmus", tests_dir);
    rc = test_run_cli(scanlab, (const char *const[]){"litmus", "--observed", doc, sb_path, NULL}, &out, &err);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "on the GPU: not run"));
    free(out);
    free(err);
    for (int i = 0; i < 3; i++)
        lg_record_free(&recs[i]);
    lit_free(t);
}

static void test_placement(void **state)
{
    (void)state;
    lit_test *t = parse_text("PTX T\n{ x=5; y=0; }\n"
                             " P0@cta 4,gpu 0 | P1@cta 4,gpu 0 | P2@cta 7,gpu 0 | P3@cta 2,gpu 0 ;\n"
                             " st.relaxed.gpu x, 1 | ld.relaxed.gpu r1, x | ld.relaxed.gpu r2, y | st.weak y, 1 ;\n"
                             "exists (P1:r1 == 1 /\\ P2:r2 == 0)\n");
    assert_int_equal(t->nblocks, 3);
    const lg_geometry g = {16, 64, 150, 3};
    lg_launch L;
    assert_int_equal(lg_launch_alloc(&L, t, &g), 0);
    uint64_t rng = 12345;
    for (int launch = 0; launch < 3; launch++) {
        assert_int_equal(lg_place(&L, t, &g, &rng), g.instances);
        unsigned seen[150][LIT_MAX_THREADS], count[150][LIT_MAX_THREADS];
        memset(count, 0, sizeof count);
        memset(seen, 0, sizeof seen);
        unsigned per_cta[16] = {0};
        for (unsigned c = 0; c < g.grid; c++)
            for (unsigned s = 0; s < g.block; s++) {
                const uint32_t role = L.roles[c * g.block + s];
                if (role == LG_ROLE_STRESS)
                    continue;
                const unsigned i = (role - 1) / LIT_MAX_THREADS, k = (role - 1) % LIT_MAX_THREADS;
                assert_true(i < g.instances && k < t->nthreads);
                count[i][k]++;
                seen[i][k] = c;
                per_cta[c]++;
            }
        for (unsigned c = 0; c < g.grid; c++)
            assert_true(per_cta[c] <= lg_cta_capacity(&g));
        for (unsigned i = 0; i < g.instances; i++) {
            for (unsigned k = 0; k < t->nthreads; k++)
                assert_int_equal(count[i][k], 1);
            assert_int_equal(seen[i][0], seen[i][1]); /* one CTA of the test: one CTA */
            assert_int_not_equal(seen[i][0], seen[i][2]);
            assert_int_not_equal(seen[i][0], seen[i][3]);
            assert_int_not_equal(seen[i][2], seen[i][3]);
        }
        /* every location slot used once, at a multiple of the stride, with its initial value */
        char *used = calloc(L.mem_words, 1);
        for (unsigned j = 0; j < g.instances * t->nlocs; j++) {
            assert_int_equal(L.addr[j] % g.stride, 0);
            assert_true(L.addr[j] < L.mem_words);
            assert_false(used[L.addr[j]]);
            used[L.addr[j]] = 1;
            assert_int_equal(L.mem[L.addr[j]], (uint32_t)t->loc_init[j % t->nlocs]);
        }
        free(used);
    }
    /* a grid too small for every instance: fewer placed, none twice */
    const lg_geometry small = {3, 64, 150, 1};
    lg_launch S;
    assert_int_equal(lg_launch_alloc(&S, t, &small), 0);
    const unsigned placed = lg_place(&S, t, &small, &rng);
    assert_true(placed > 0 && placed < 150 && placed <= 3 * lg_cta_capacity(&small) / 4);
    lg_launch_free(&S);
    lg_launch_free(&L);
    lit_free(t);
}

static void test_inexpressible(void **state)
{
    (void)state;
    lit_test *t = parse_text("PTX L\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                             " st.relaxed.gpu x, 1 | LOOP: ;\n | ld.relaxed.gpu r1, x ;\n"
                             " | bne r1, 1, LOOP ;\nexists (P1:r1 == 1)\n");
    assert_non_null(strstr(lg_inexpressible(t, false), "loop"));
    lg_results r;
    lg_result_layout(t, &r);
    char err[600];
    assert_null(lg_kernel_ptx(t, &r, false, err, sizeof err));
    lit_free(t);
    t = parse_text("PTX B\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
                   " bar.sync 0 | bar.sync 0 ;\n bar.sync 0 | ld.weak r1, x ;\nexists (P1:r1 == 1)\n");
    assert_non_null(strstr(lg_inexpressible(t, false), "different numbers of barriers"));
    lit_free(t);
    t = parse_text("PTX G\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 1 ;\n"
                   " st.relaxed.sys x, 1 | ld.relaxed.sys r1, x ;\nexists (P1:r1 == 1)\n");
    assert_non_null(strstr(lg_inexpressible(t, false), "several GPUs"));
    lit_free(t);
    /* a forward branch is fine */
    t = load("MP+weak-data+rel+acq");
    assert_null(lg_inexpressible(t, false));
    lit_free(t);
}

/* Whether ptxas assembles the PTX text for sm_90. */
static bool assembles(const char *ptxas, const char *ptx)
{
    char file[1200], cmd[3000];
    snprintf(file, sizeof file, "%s/k.ptx", tmpdir);
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fputs(ptx, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "'%s' -arch=sm_90 '%s' -o /dev/null", ptxas, file);
    return system(cmd) == 0;
}

/* The .litmus files of dir, a path a line (pclose when done). */
static FILE *list_tests(const char *dir)
{
    char list[1200];
    snprintf(list, sizeof list, "ls %s/*.litmus", dir);
    FILE *ls = popen(list, "r");
    assert_non_null(ls);
    return ls;
}

/* ptxas: $PTXAS, else the toolkit's where installed, else NULL (the
 * kernels are then made but not assembled). */
static const char *find_ptxas(void)
{
    const char *ptxas = getenv("PTXAS");
    if (ptxas && *ptxas)
        return ptxas;
    return access("/usr/local/cuda/bin/ptxas", X_OK) == 0 ? "/usr/local/cuda/bin/ptxas" : NULL;
}

/* Every project test the campaign runs becomes a kernel holding its own
 * columns verbatim; ptxas (where found) assembles each for sm_90, and the
 * simulator's kernel of each test the campaign leaves out. */
static void test_kernels(void **state)
{
    (void)state;
    FILE *ls = list_tests(tests_dir);
    const char *ptxas = find_ptxas();
    unsigned made = 0, assembled = 0, skipped = 0;
    char path[1024];
    while (fgets(path, sizeof path, ls)) {
        path[strcspn(path, "\n")] = 0;
        static lit_test t;
        char err[600];
        assert_int_equal(lit_parse_file(path, &t, err, sizeof err), 0);
        if (lg_inexpressible(&t, false)) {
            /* what the campaign does not run (several GPUs, named barriers):
             * the simulator's kernel of it is still PTX that ptxas takes */
            char *sim = lit_ptx(&t, err, sizeof err);
            if (!sim)
                fail_msg("%s: no simulator kernel: %s", path, err);
            if (ptxas && !assembles(ptxas, sim))
                fail_msg("%s: ptxas rejects its simulator kernel", path);
            free(sim);
            skipped++;
            lit_free(&t);
            continue;
        }
        lg_results r;
        lg_result_layout(&t, &r);
        char *ptx = lg_kernel_ptx(&t, &r, false, err, sizeof err);
        if (!ptx)
            fail_msg("%s: no kernel: %s", path, err);
        made++;
        for (unsigned k = 0; k < t.nthreads; k++) {
            char *col = lit_ptx_column(&t, k, LIT_ADDR_REGS, err, sizeof err);
            assert_non_null(col);
            if (!strstr(ptx, col))
                fail_msg("%s: the kernel lacks thread %u's column:\n%s", path, k, col);
            free(col);
        }
        if (ptxas) {
            if (!assembles(ptxas, ptx))
                fail_msg("%s: ptxas rejects its kernel", path);
            assembled++;
        }
        free(ptx);
        lit_free(&t);
    }
    pclose(ls);
    assert_true(made >= 30);
    printf("# %u kernels made, %u assembled by ptxas; %u tests the campaign leaves out\n", made, assembled,
           skipped);
    if (!ptxas)
        skip();
}

/* A progress run's kernels (tests/litmus/progress): a test with a loop is
 * one the ordinary campaign skips; bounded, each label of each thread is
 * followed by the count of its visits and a way out to the thread's H
 * block, the start has no wait, and ptxas (where found) assembles it. */
static void test_progress_kernels(void **state)
{
    (void)state;
    FILE *ls = list_tests(progress_dir);
    const char *ptxas = find_ptxas();
    unsigned made = 0, loops = 0;
    char path[1024];
    while (fgets(path, sizeof path, ls)) {
        path[strcspn(path, "\n")] = 0;
        static lit_test t;
        char err[600];
        assert_int_equal(lit_parse_file(path, &t, err, sizeof err), 0);
        lg_results r;
        lg_result_layout(&t, &r);
        const char *why = lg_inexpressible(&t, false);
        char *ptx = lg_kernel_ptx(&t, &r, true, err, sizeof err);
        if (!ptx)
            fail_msg("%s: no bounded kernel: %s", path, err);
        made++;
        if (why && strstr(why, "loop")) {
            loops++;
            if (!strstr(ptx, "setp.ge.u32 %hp, %spin, %bound;\n    @%hp bra H"))
                fail_msg("%s: a loop without its bound:\n%s", path, ptx);
        }
        for (unsigned k = 0; k < t.nthreads; k++) {
            char label[16];
            snprintf(label, sizeof label, "\nH%u:\n", k);
            assert_non_null(strstr(ptx, label));
        }
        assert_non_null(strstr(ptx, "    bra.uni GO;\n"));
        if (ptxas && !assembles(ptxas, ptx))
            fail_msg("%s: ptxas rejects its bounded kernel", path);
        free(ptx);
        lit_free(&t);
    }
    pclose(ls);
    assert_true(made >= 10 && loops >= 8);
    printf("# %u progress kernels made, %u with loops%s\n", made, loops, ptxas ? ", assembled by ptxas" : "");
}

/* Without a driver the runner says so (exit 2); bad usage is exit 2. */
static void test_runner_without_gpu(void **state)
{
    (void)state;
    char mp[1024];
    snprintf(mp, sizeof mp, "%s/MP+rlx.litmus", tests_dir);
    setenv("LITMUS_GPU_DRIVER", "/nonexistent/libcuda.so.1", 1);
    char *out = NULL, *err = NULL;
    char doc[1100];
    snprintf(doc, sizeof doc, "%s/none.json", tmpdir);
    int rc = test_run_cli(runner, (const char *const[]){"--out", doc, mp, NULL}, &out, &err);
    assert_int_equal(rc, 2);
    assert_non_null(strstr(err, "litmus_gpu: no GPU here"));
    assert_int_not_equal(access(doc, F_OK), 0);
    free(out);
    free(err);
    rc = test_run_cli(runner, (const char *const[]){"--runs", "0", mp, NULL}, &out, &err);
    assert_int_equal(rc, 2);
    assert_non_null(strstr(err, "--runs"));
    free(out);
    free(err);
    rc = test_run_cli(runner, (const char *const[]){"--out", doc, "/dev/null", NULL}, &out, &err);
    assert_int_equal(rc, 2);
    assert_non_null(strstr(err, "not a PTX litmus test"));
    free(out);
    free(err);
    unsetenv("LITMUS_GPU_DRIVER");
}

static unsigned long long number_after(const char *from, const char *key)
{
    const char *k = strstr(from, key);
    if (!k)
        fail_msg("no %s in %s", key, from);
    return strtoull(k + strlen(key), NULL, 10);
}

/* The runner's loop on a driver that runs nothing (fake_cuda.c): every
 * run counted, records read back as the fill word (a state the model
 * forbids, which scanlab must report), locations as their initial
 * values, a loop skipped with its reason, the document whole. */
static void test_runner_fake_driver(void **state)
{
    (void)state;
    char mp[1024], rmw[1024], bar[1024], loop[1100], doc[1100];
    snprintf(mp, sizeof mp, "%s/MP+rel+acq.gpu.litmus", tests_dir);
    snprintf(rmw, sizeof rmw, "%s/RMW-atomicity.litmus", tests_dir);
    snprintf(bar, sizeof bar, "%s/MP+bar-samecta.litmus", tests_dir);
    snprintf(loop, sizeof loop, "%s/spin.litmus", tmpdir);
    snprintf(doc, sizeof doc, "%s/fake.json", tmpdir);
    FILE *f = fopen(loop, "w");
    assert_non_null(f);
    fputs("PTX spin\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.gpu x, 1 | L: ;\n"
          " | ld.relaxed.gpu r1, x ;\n | beq r1, 0, L ;\nexists (P1:r1 == 0)\n", f);
    fclose(f);
    setenv("LITMUS_GPU_DRIVER", fake_driver, 1);
    char *out = NULL, *err = NULL;
    int rc = test_run_cli(runner, (const char *const[]){"--out", doc, "--runs", "100000", "--seed", "7", mp, rmw, bar,
                                                        loop, NULL},
                          &out, &err);
    unsetenv("LITMUS_GPU_DRIVER");
    if (rc != 0)
        fail_msg("exit %d:\n%s\n%s", rc, out, err);
    assert_non_null(strstr(out, "fake GPU (4 multiprocessors, driver 13000), seed 7, 4 tests"));
    assert_non_null(strstr(out, "3 tests run, 1 skipped"));
    free(out);
    free(err);
    f = fopen(doc, "r");
    assert_non_null(f);
    static char text[1 << 16];
    text[fread(text, 1, sizeof text - 1, f)] = 0;
    fclose(f);
    assert_non_null(strstr(text, "\"complete\":true"));
    assert_non_null(strstr(text, "\"seed\":7"));
    static const struct {
        const char *name, *state;
        unsigned threads;
    } want[] = {{"MP+rel+acq.gpu", "P1:r1=-559038737 P1:r2=-559038737", 2},
                {"RMW-atomicity", "x=0", 2},
                {"MP+bar-samecta", "P1:r1=-559038737", 2}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        char key[128];
        snprintf(key, sizeof key, "\"name\":\"%s\"", want[i].name);
        const char *at = strstr(text, key);
        if (!at)
            fail_msg("no %s in %s", key, text);
        const unsigned long long runs = number_after(at, "\"runs\":");
        assert_true(runs >= 100000);
        assert_int_equal(number_after(at, "\"start_timeouts\":"), runs * want[i].threads);
        snprintf(key, sizeof key, "\"state\":\"%s\",\"count\":%llu", want[i].state, runs);
        if (!strstr(at, key))
            fail_msg("%s: no %s in %s", want[i].name, key, at);
    }
    assert_non_null(strstr(text, "\"test\":\"spin\""));
    assert_non_null(strstr(text, "a loop"));
    assert_null(strstr(text, "hung_threads"));
    /* a progress run takes the loop, on a grid twice what the GPU holds,
     * and records the bound and the threads that reached it (none: the
     * stand-in runs nothing) */
    setenv("LITMUS_GPU_DRIVER", fake_driver, 1);
    char pdoc[1200];
    snprintf(pdoc, sizeof pdoc, "%s.progress", doc);
    rc = test_run_cli(runner, (const char *const[]){"--out", pdoc, "--runs", "1000", "--seed", "7", "--progress",
                                                     "4096", "--oversubscribe", "2", loop, NULL},
                      &out, &err);
    unsetenv("LITMUS_GPU_DRIVER");
    if (rc != 0)
        fail_msg("exit %d:\n%s\n%s", rc, out, err);
    assert_non_null(strstr(out, "1 tests run, 0 skipped"));
    free(out);
    free(err);
    f = fopen(pdoc, "r");
    assert_non_null(f);
    text[fread(text, 1, sizeof text - 1, f)] = 0;
    fclose(f);
    assert_non_null(strstr(text, "\"loop_bound\":4096,\"oversubscribe\":2"));
    assert_true(number_after(text, "\"runs\":") >= 1000);
    assert_int_equal(number_after(text, "\"hung_threads\":"), 0);
    /* the fill word is no outcome of the model: scanlab names it */
    rc = test_run_cli(scanlab, (const char *const[]){"litmus", "--observed", doc, mp, rmw, NULL}, &out, &err);
    assert_int_equal(rc, 1);
    assert_non_null(strstr(out, "FINDING: the GPU showed P1:r1=-559038737 P1:r2=-559038737"));
    assert_non_null(strstr(out, "RMW-atomicity"));
    free(out);
    free(err);
}

int main(void)
{
    scanlab = getenv("SCANLAB");
    runner = getenv("LITMUS_GPU");
    tests_dir = getenv("LITMUS_TESTS");
    fake_driver = getenv("LITMUS_FAKE_DRIVER");
    progress_dir = getenv("LITMUS_PROGRESS");
    if (!scanlab || !runner || !tests_dir || !fake_driver || !progress_dir || !mkdtemp(tmpdir)) {
        fprintf(stderr, "test_litmus_gpu: needs SCANLAB, LITMUS_GPU, LITMUS_TESTS, LITMUS_PROGRESS and "
                        "LITMUS_FAKE_DRIVER\n");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_histogram_states), cmocka_unit_test(test_location_states),
        cmocka_unit_test(test_histogram_grows),  cmocka_unit_test(test_observed_by_scanlab),
        cmocka_unit_test(test_placement),        cmocka_unit_test(test_inexpressible),
        cmocka_unit_test(test_kernels),          cmocka_unit_test(test_progress_kernels),
        cmocka_unit_test(test_runner_without_gpu), cmocka_unit_test(test_runner_fake_driver),
    };
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0)
        fprintf(stderr, "test_litmus_gpu: could not remove %s\n", tmpdir);
    return failed;
}
