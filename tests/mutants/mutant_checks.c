/* The checks of the mutation check (mutant.h): verify runs read back as
 * JSON, runs through the C API under explored schedules and adverse
 * dispatch, and the schedule search. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <cmocka.h>

#include "cpu/cpu.h"
#include "run_cli.h"
#include "tests/mutants/mutant.h"
#include "verify/cli/simulate.h"
#include "verify/cli/verify_plan.h"
#include "verify/harness/catalog.h"
#include "verify/harness/inputs.h"

const verify_algo *mut_algo(const mut_ctx *c, const char *name)
{
    for (size_t i = 0; i < c->count; i++)
        if (strcmp(c->table[i].name, name) == 0)
            return &c->table[i];
    fail_msg("no algorithm %s in tests/mutants/kernels.def", name);
    return NULL;
}

/* The line number of a site in file (relative to the source root); fails
 * the test when the text is not there. */
static int site_line(const char *file, const mut_site *s)
{
    const char *root = getenv("SCANLAB_SOURCE_ROOT");
    assert_non_null(root);
    char path[4096], text[1024];
    snprintf(path, sizeof path, "%s/%s", root, file);
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot open %s", path);
    int line = 0, found = 0;
    bool anchored = s->after == NULL;
    while (!found && fgets(text, sizeof text, f)) {
        line++;
        if (anchored && strstr(text, s->text))
            found = line;
        else if (!anchored && strstr(text, s->after))
            anchored = true;
    }
    fclose(f);
    if (!found)
        fail_msg("%s: no line with \"%s\"%s%s", file, s->text, s->after ? " after " : "",
                 s->after ? s->after : "");
    return found;
}

static int verify_entry(int argc, char **argv, void *ctx)
{
    const mut_ctx *c = ctx;
    return verify_main(argc, argv, c->table, c->count, stdout);
}

static int simulate_entry(int argc, char **argv, void *ctx)
{
    const mut_ctx *c = ctx;
    return simulate_main(argc, argv, c->table, c->count);
}

/* One line of verify's JSON: the text of its object. */
typedef struct {
    const char *begin, *end;
} json_line;

/* The value of "key": in [l.begin, l.end), copied into buf ("" when absent). */
static const char *field(json_line l, const char *key, char *buf, size_t size)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    buf[0] = '\0';
    const char *p = strstr(l.begin, pat);
    if (!p || p >= l.end)
        return buf;
    p += strlen(pat);
    if (*p == '"')
        p++;
    size_t k = 0;
    while (p < l.end && *p != '"' && *p != ',' && *p != '}' && k + 1 < size)
        buf[k++] = *p++;
    buf[k] = '\0';
    return buf;
}

/* Whether the comma-separated list contains word. */
static bool in_list(const char *list, const char *word)
{
    if (!list)
        return false;
    const size_t len = strlen(word);
    for (const char *p = list; *p;) {
        const size_t k = strcspn(p, ",");
        if (k == len && strncmp(p, word, len) == 0)
            return true;
        p += k + (p[k] == ',');
    }
    return false;
}

/* `verify --algo algo --backend sim --seed <the context's> --json` and
 * opts (space-separated) over the mutants' table; the JSON document in
 * *out (malloc'ed). Returns the exit status. */
static int verify_json(const mut_ctx *c, const char *algo, const char *opts, char **out)
{
    char seedbuf[32], optbuf[512];
    snprintf(seedbuf, sizeof seedbuf, "%llu", (unsigned long long)c->seed);
    snprintf(optbuf, sizeof optbuf, "%s", opts ? opts : "");
    const char *argv[40] = {"verify", "--algo", algo, "--backend", "sim", "--seed", seedbuf, "--json"};
    int argc = 8;
    for (char *tok = strtok(optbuf, " "); tok && argc < 39; tok = strtok(NULL, " "))
        argv[argc++] = tok;
    argv[argc] = NULL;
    char *err = NULL;
    const int rc = test_run_main(verify_entry, (void *)c, argv, out, &err);
    free(err);
    return rc;
}

void mut_expect_verify_passes(const mut_ctx *c, const char *algo, const char *opts)
{
    char *out;
    const int rc = verify_json(c, algo, opts, &out);
    if (rc != 0 || !strstr(out, "\"failed\":0,"))
        fail_msg("%s with %s: verify exit %d, expected every line OK:\n%s", algo, opts, rc, out);
    assert_null(strstr(out, "\"status\":\"SKIPPED\""));
    free(out);
}

void mut_expect_verify_fails(const mut_ctx *c, const char *algo, const char *opts)
{
    char *out;
    const int rc = verify_json(c, algo, opts, &out);
    if (rc != 1 || !strstr(out, "\"status\":\"FAILED\"") || !strstr(out, "\"where\":\"value\"") ||
        strstr(out, "\"where\":\"finding\""))
        fail_msg("%s with %s: verify exit %d, expected 1 with a wrong value and no finding:\n%s", algo, opts, rc,
                 out);
    free(out);
}

/* Whether the findings of a failed line name file:line. */
static bool names_line(json_line l, const char *file, int line)
{
    char pat[512];
    const int len = snprintf(pat, sizeof pat, "%s:%d", file, line);
    const char *f = strstr(l.begin, "\"findings\":[");
    if (!f || f >= l.end)
        return false;
    for (const char *p = strstr(f, pat); p && p < l.end; p = strstr(p + 1, pat))
        if (p[len] < '0' || p[len] > '9')
            return true;
    return false;
}

static const char *finding_word(mut_signal s)
{
    switch (s) {
    case SIG_RACE: return "error: race";
    case SIG_OOB: return "error: out of bounds";
    case SIG_DIVERGENCE: return "error: barrier divergence";
    case SIG_WARP: return "error: undefined warp operation";
    default: return NULL;
    }
}

/* The element size of a line's type. */
static unsigned type_size(const char *type)
{
    return strcmp(type, "i32") == 0 || strcmp(type, "f32") == 0 ? 4 : 8;
}

void mut_expect_verify_catches(const mut_ctx *c, const mutant *m)
{
    char *out;
    const int rc = verify_json(c, m->name, m->args, &out);
    if (rc != 1)
        fail_msg("%s with %s: verify exit %d, expected 1 (caught):\n%s", m->name, m->args, rc, out);
    unsigned failed_ops = 0;
    size_t lines = 0;
    const char *word = finding_word(m->signal);
    for (const char *p = strstr(out, "{\"algo\":"); p; lines++) {
        const char *next = strstr(p + 1, "{\"algo\":");
        json_line l = {p, next ? next : p + strlen(p)};
        char op[16], type[16], kind[16], status[16], where[32], nbuf[32];
        field(l, "op", op, sizeof op);
        field(l, "type", type, sizeof type);
        field(l, "kind", kind, sizeof kind);
        field(l, "status", status, sizeof status);
        const bool failed = strcmp(status, "FAILED") == 0;
        if (in_list(m->pass_ops, op) && failed)
            fail_msg("%s: %s %s %s failed, expected to pass (blind spot)", m->name, type, op, kind);
        if (!m->fail_ops && !in_list(m->pass_ops, op) && !failed)
            fail_msg("%s: %s %s %s passed, expected to fail", m->name, type, op, kind);
        if (failed) {
            for (unsigned k = 0; k < SL_OP_COUNT; k++)
                if (strcmp(op, verify_op_name((sl_op)k)) == 0)
                    failed_ops |= 1u << k;
            const char *ff = strstr(l.begin, "\"first_failure\":{");
            assert_true(ff && ff < l.end);
            json_line f = {ff, l.end};
            if (m->signal == SIG_VALUE) {
                field(f, "where", where, sizeof where);
                const size_t n = (size_t)strtoull(field(f, "n", nbuf, sizeof nbuf), NULL, 10);
                if (strcmp(where, "value") != 0 || n < m->first_n)
                    fail_msg("%s: %s %s %s: first failure at n = %zu, where '%s'; expected a wrong "
                             "value at n >= %zu", m->name, type, op, kind, n, where, m->first_n);
            } else {
                const char *w = strstr(f.begin, word);
                if (!w || w >= f.end)
                    fail_msg("%s: %s %s %s: no '%s' in the first failure", m->name, type, op, kind, word);
                for (size_t s = 0; s < 4 && m->site[s].text; s++) {
                    if (m->site[s].esize && m->site[s].esize != type_size(type))
                        continue;
                    const int line = site_line(m->file, &m->site[s]);
                    if (!names_line(f, m->file, line))
                        fail_msg("%s: %s %s %s: the finding does not name %s:%d (%s)", m->name, type, op,
                                 kind, m->file, line, m->site[s].text);
                }
            }
        }
        p = next;
    }
    assert_true(lines > 0);
    for (unsigned k = 0; k < SL_OP_COUNT; k++)
        if (in_list(m->fail_ops, verify_op_name((sl_op)k)) && !(failed_ops & (1u << k)))
            fail_msg("%s: no %s line failed", m->name, verify_op_name((sl_op)k));
    free(out);
}

/* One run through the C API on seeded input: the status, the findings,
 * whether an output differs from the sequential reference. */
typedef struct {
    sl_status st;
    uint64_t findings, deadlocks;
    model_find_kind kind;
    char text[400];
    bool wrong;
} api_result;

static void api_run(const mut_ctx *c, const verify_algo *al, sl_type type, sl_op op, const mut_run *r,
                    uint64_t schedule, uint64_t input_seed, api_result *res)
{
    const size_t es = SL_TYPE_SIZE(type);
    assert_int_equal(al->kind, SL_KIND_SCAN);
    unsigned char *in = malloc(r->n * es), *out = malloc(r->n * es), *ref = malloc(r->n * es);
    assert_true(in && out && ref);
    assert_int_equal(verify_fill_input(type, op, verify_default_dist(type), input_seed, r->n, in), SL_OK);
    memset(out, 0xa5, r->n * es);
    model_stats s;
    model_stats_init(&s);
    s.cfg.quiet = true;
    s.cfg.schedule = schedule;
    s.cfg.slots = r->slots;
    s.cfg.order = r->order;
    s.cfg.seed = c->seed;
    sl_scan_args a = {.type = type, .op = op, .in = in, .out = out, .n = r->n, .block = r->block,
                      .param = r->param, .sim = &s};
    memset(res, 0, sizeof *res);
    res->st = al->run[SL_SIM](&a);
    res->findings = model_findings(&s, false);
    res->deadlocks = s.deadlocks;
    res->kind = s.error.kind;
    if (s.has_error)
        snprintf(res->text, sizeof res->text, "%s", s.error.text);
    else if (s.races)
        snprintf(res->text, sizeof res->text, "%s", s.race[0].text);
    assert_int_equal(cpu_scan_seq(type, op, false, in, ref, r->n), SL_OK);
    res->wrong = res->st == SL_OK && memcmp(out, ref, r->n * es) != 0;
    model_stats_free(&s);
    free(in);
    free(out);
    free(ref);
}

/* The (type, operator) pairs of an API run for the operators in ops,
 * where the sequential reference is exact (float add rounds in another
 * order). */
static size_t api_pairs(const char *ops, sl_type *types, sl_op *opv)
{
    size_t k = 0;
    for (int t = 0; t < SL_TYPE_COUNT; t++)
        for (int o = 0; o < SL_OP_COUNT; o++)
            if (in_list(ops, verify_op_name((sl_op)o)) && SL_OP_APPLIES((sl_op)o, (sl_type)t) &&
                !(SL_TYPE_IS_FLOAT((sl_type)t) && o == SL_ADD)) {
                types[k] = (sl_type)t;
                opv[k++] = (sl_op)o;
            }
    return k;
}

/* The explored schedules of m's run: the mutant (expect_wrong) gives a
 * wrong result in at least one and none in the default schedule; the
 * control in none. Neither has a finding. Schedule k scans the input of
 * seed + k: a stale load returns what the word held before the launch,
 * and the simulator's fresh allocations keep the C heap's bytes, which
 * after a run of the same input are the right values. */
void mut_check_schedules(const mut_ctx *c, const verify_algo *al, const mutant *m, bool expect_wrong)
{
    sl_type types[SL_TYPE_COUNT * SL_OP_COUNT];
    sl_op ops[SL_TYPE_COUNT * SL_OP_COUNT];
    const size_t pairs = api_pairs(m->fail_ops, types, ops);
    assert_true(pairs > 0);
    for (size_t p = 0; p < pairs; p++) {
        unsigned wrong = 0;
        for (uint64_t sched = 0; sched <= m->run.schedules; sched++) {
            api_result r;
            api_run(c, al, types[p], ops[p], &m->run, sched, c->seed + sched, &r);
            if (r.st != SL_OK || r.findings)
                fail_msg("%s (%s of %s) schedule %llu: status %d, %llu findings: %s", al->name,
                         verify_op_name(ops[p]), m->name, (unsigned long long)sched, r.st,
                         (unsigned long long)r.findings, r.text);
            if (sched == 0 && r.wrong)
                fail_msg("%s: wrong in the default schedule", al->name);
            wrong += r.wrong;
        }
        if (expect_wrong && wrong == 0)
            fail_msg("%s %s %s: right in all %u explored schedules", m->name, verify_type_name(types[p]),
                     verify_op_name(ops[p]), m->run.schedules);
        if (!expect_wrong && wrong)
            fail_msg("%s (control of %s): wrong in %u explored schedules", al->name, m->name, wrong);
        fprintf(stderr, "# %s %s %s: wrong in %u of %u explored schedules\n", al->name,
                verify_type_name(types[p]), verify_op_name(ops[p]), wrong, m->run.schedules);
    }
}

typedef struct {
    const verify_algo *al;
    const mut_run *run;
    model_stats *stats;
} search_ctx;

/* One run of the search: the mutant on a fixed i32 add input (whether it
 * deadlocks does not depend on the values). */
static sl_status search_once(void *p)
{
    const search_ctx *c = p;
    const size_t n = c->run->n;
    int32_t *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
    if (!in || !out) {
        free(in);
        free(out);
        return SL_ERR_NOMEM;
    }
    for (size_t i = 0; i < n; i++)
        in[i] = (int32_t)(i % 7) - 3;
    sl_scan_args a = {.type = SL_I32, .op = SL_ADD, .in = in, .out = out, .n = n, .block = c->run->block,
                      .param = c->run->param, .sim = c->stats};
    const sl_status st = c->al->run[SL_SIM](&a);
    free(in);
    free(out);
    return st;
}

/* `scanlab simulate` with m's run's settings (a block per tile, as the C
 * API's run has: --occupancy tiles): a deadlock fails it, named as
 * path:line: error: deadlock at the wait (i32). */
static void simulate_deadlock(const mut_ctx *c, const verify_algo *al, const mutant *m, bool expect)
{
    char n[32], block[16], param[16], slots[16], seedbuf[32], pat[512];
    snprintf(n, sizeof n, "%zu", m->run.n);
    snprintf(block, sizeof block, "%d", m->run.block);
    snprintf(param, sizeof param, "%d", m->run.param);
    snprintf(slots, sizeof slots, "%u", m->run.slots);
    snprintf(seedbuf, sizeof seedbuf, "%llu", (unsigned long long)c->seed);
    assert_int_equal(m->run.order, MODEL_ORDER_REVERSED);
    const char *argv[] = {"simulate", "--algo", al->name, "--n", n, "--block", block, "--param", param,
                          "--slots", slots, "--order", "reversed", "--occupancy", "tiles", "--seed", seedbuf, NULL};
    char *out, *err;
    const int rc = test_run_main(simulate_entry, (void *)c, argv, &out, &err);
    snprintf(pat, sizeof pat, "%s:%d: error: deadlock", m->file, site_line(m->file, &m->site[0]));
    if (expect && (rc != 1 || !strstr(err, pat)))
        fail_msg("simulate %s: exit %d, expected 1 and '%s':\n%s", al->name, rc, pat, err);
    if (!expect && rc != 0)
        fail_msg("simulate %s (control of %s): exit %d:\n%s", al->name, m->name, rc, err);
    free(out);
    free(err);
}

/* m's run with few slots and an adverse dispatch order (through the C
 * API and `scanlab simulate`), and the search of block schedules under
 * occupancy-bound progress: the mutant deadlocks at its wait, the control
 * completes. */
void mut_check_deadlock(const mut_ctx *c, const verify_algo *al, const mutant *m, bool expect)
{
    simulate_deadlock(c, al, m, expect);
    const sl_type types[] = {SL_I32, SL_I64};
    for (size_t t = 0; t < 2; t++) {
        api_result r;
        api_run(c, al, types[t], SL_ADD, &m->run, 0, c->seed, &r);
        if (!expect) {
            if (r.st != SL_OK || r.findings || r.wrong)
                fail_msg("%s (control of %s): status %d, %llu findings: %s", al->name, m->name, r.st,
                         (unsigned long long)r.findings, r.text);
            continue;
        }
        if (r.st != SL_ERR_SIM || r.deadlocks != 1 || r.kind != MODEL_FIND_DEADLOCK)
            fail_msg("%s %s: status %d, %llu deadlocks, expected a deadlock: %s", m->name,
                     verify_type_name(types[t]), r.st, (unsigned long long)r.deadlocks, r.text);
        for (size_t s = 0; s < 4 && m->site[s].text; s++) {
            if (m->site[s].esize && m->site[s].esize != SL_TYPE_SIZE(types[t]))
                continue;
            char pat[512];
            snprintf(pat, sizeof pat, "waits at %s:%d", m->file, site_line(m->file, &m->site[s]));
            if (!strstr(r.text, pat))
                fail_msg("%s: the deadlock does not name the wait (%s): %s", m->name, pat, r.text);
        }
    }
    /* the search: random block schedules under occupancy-bound progress */
    model_stats s;
    model_stats_init(&s);
    s.cfg.quiet = true;
    s.cfg.slots = m->run.slots;
    model_search_cfg sc = {.progress = MODEL_PROGRESS_OBE, .samples = 4, .seed = c->seed};
    model_search_result res;
    search_ctx ctx = {al, &m->run, &s};
    assert_int_equal(model_search_run(&sc, search_once, &ctx, &s, &res), SL_OK);
    model_stats_free(&s);
    if (expect && res.verdict != MODEL_VERDICT_DEADLOCK)
        fail_msg("%s: the obe search found no deadlock (verdict %d)", m->name, res.verdict);
    if (!expect && res.verdict != MODEL_VERDICT_FREE)
        fail_msg("%s (control of %s): the obe search says %d", al->name, m->name, res.verdict);
}

/* m's run (or its control's, expect false) over 2^32 + 2^10 i32 elements
 * in the simulator's huge mode: the blocks around elements 0, 2^32 and
 * n - 1 run, on an input mapped lazily and zero (add's identity) but for
 * small integers at the start and around 2^32, so that the sum is known
 * exactly. A mutant fails with the index-width finding at m's site; the
 * control completes with the exact sum and no finding. */
void mut_check_huge(const mut_ctx *c, const verify_algo *al, const mutant *m, bool expect)
{
    const size_t n = ((size_t)1 << 32) + 1024, at = (size_t)1 << 32;
    const size_t bytes = n * sizeof(int32_t);
    int32_t *in = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    assert_true(in != MAP_FAILED);
    int64_t want = 0;
    uint64_t x = c->seed | 1;
    for (size_t k = 0; k < 64; k++) {
        const size_t i = k < 32 ? k : at - 48 + k; /* 0..31 and 2^32 - 16 .. 2^32 + 15 */
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        in[i] = 1 + (int32_t)(x % 7);
        want += in[i];
    }
    int32_t out = -1;
    model_stats s;
    model_stats_init(&s);
    s.cfg.quiet = true;
    s.cfg.huge_n = n;
    s.cfg.huge_at[s.cfg.nhuge_at++] = at;
    sl_scan_args a = {.type = SL_I32, .op = SL_ADD, .in = in, .out = &out, .n = n, .block = 256, .sim = &s};
    const sl_status st = al->run[SL_SIM](&a);
    char text[sizeof s.error.text];
    snprintf(text, sizeof text, "%s", s.has_error ? s.error.text : "");
    const uint64_t narrow = s.narrow_index, skipped = s.skipped_blocks, findings = model_findings(&s, false);
    model_stats_free(&s);
    munmap(in, bytes);
    if (!expect) {
        if (st != SL_OK || findings || out != want || skipped == 0)
            fail_msg("%s (control of %s), huge: status %d, %llu findings, sum %d (expected %lld), %llu blocks "
                     "skipped: %s", al->name, m->name, st, (unsigned long long)findings, out, (long long)want,
                     (unsigned long long)skipped, text);
        return;
    }
    if (st != SL_ERR_SIM || narrow != 1)
        fail_msg("%s, huge: status %d, %llu index-width findings, sum %d (expected %lld): %s", m->name, st,
                 (unsigned long long)narrow, out, (long long)want, text);
    char pat[512];
    snprintf(pat, sizeof pat, "index too narrow: LD at %s:%d", m->file, site_line(m->file, &m->site[0]));
    if (!strstr(text, pat))
        fail_msg("%s: the finding does not name the load (%s): %s", m->name, pat, text);
}

void mut_expect_default_huge(const mut_ctx *c, const mutant *m, const char *algo, bool expect)
{
    char *out;
    const int rc = verify_json(c, algo, "--type i32 --op add", &out);
    if (!expect) {
        if (rc != 0 || !strstr(out, "\"failed\":0,") || !strstr(out, "\"kind\":\"huge\""))
            fail_msg("%s (control of %s), default checks: verify exit %d, expected every line OK with a huge "
                     "line:\n%s", algo, m->name, rc, out);
        free(out);
        return;
    }
    char pat[512];
    snprintf(pat, sizeof pat, "index too narrow: LD at %s:%d", m->file, site_line(m->file, &m->site[0]));
    const char *h = strstr(out, "\"kind\":\"huge\",\"exclusive\":false,\"status\":\"FAILED\"");
    if (rc != 1 || !h || !strstr(h, pat))
        fail_msg("%s, default checks: verify exit %d, expected 1 with a FAILED huge line naming %s:\n%s", algo, rc,
                 pat, out);
    free(out);
}
