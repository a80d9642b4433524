/* scanlab litmus: PTX litmus tests (herd/Dat3M format) against the
 * simulator's memory model: every outcome the model allows, the verdict
 * on the test's condition, and, with --observed, the outcomes a GPU
 * showed (docs/memory-model.md, "Litmus tests"). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/choice.h"
#include "model/litmus/litmus.h"
#include "verify/cli/cli.h"
#include "verify/cli/commands.h"
#include "verify/cli/options.h"
#include "verify/formats/json.h"

#define DEFAULT_BOUND 200

static const char usage[] =
    "usage: scanlab litmus [--json] [--bound T] [--observed FILE] TEST.litmus...\n"
    "Enumerates every execution of each PTX litmus test (herd/Dat3M format) that the simulator's\n"
    "memory model allows (every interleaving of the threads' events and every store a strong load\n"
    "may return; executions that differ only in the order of independent events run once) and\n"
    "prints the outcomes (the values the final condition names, with the executions ending in\n"
    "each), the verdict (allowed/forbidden for exists and ~exists, holds/fails for forall), the\n"
    "executions explored and the time. A test using what the model does not cover (proxies,\n"
    "textures, surfaces, several GPUs) is reported unsupported, never answered.\n"
    "  --json         one JSON document {\"results\": [...]} on stdout\n"
    "  --bound T      at most T turns an execution (loops); default 200\n"
    "  --observed F   outcomes seen on a GPU (docs/data/litmus-h100.json): one the model\n"
    "                 forbids is a finding\n"
    "Exit status: 0 done (verdicts are answers, not failures); 1 an observed outcome the model\n"
    "forbids, or a test whose executions could not all be explored; 2 bad usage or a file that\n"
    "is not a litmus test.\n";

static const char *verdict_of(const lit_test *t, const lit_result *r)
{
    if (t->quant == LIT_FORALL)
        return r->all ? "holds" : "fails";
    return r->exists ? "allowed" : "forbidden";
}

static bool condition_true(const lit_test *t, const lit_result *r)
{
    return t->quant == LIT_EXISTS ? r->exists : t->quant == LIT_NOT_EXISTS ? !r->exists : r->all;
}

static void term_name(const lit_test *t, const lit_term *x, char *buf, size_t n)
{
    if (x->kind == LIT_T_REG)
        snprintf(buf, n, "P%d:%s", x->thread, t->th[x->thread].reg[x->index]);
    else
        snprintf(buf, n, "%s", t->loc[x->index]);
}

/* ---- --observed: {"tests": [{"name": N, "runs": R, "outcomes": [{"state": "P0:r1=1 x=2", "count": C}]}]} */
static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, len = 0;
    char *b = malloc(cap);
    while (b) {
        size_t got = fread(b + len, 1, cap - len - 1, f);
        len += got;
        if (got == 0)
            break;
        if (len + 1 == cap) {
            char *nb = cap < (64u << 20) ? realloc(b, cap * 2) : NULL;
            if (!nb) {
                free(b);
                b = NULL;
                break;
            }
            b = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (b)
        b[len] = 0;
    return b;
}

/* The next string value of "key" after *p (before end), into buf. */
static const char *next_string(const char *p, const char *end, const char *key, char *buf, size_t n)
{
    char pat[32];
    snprintf(pat, sizeof pat, "\"%s\"", key);
    const char *k = strstr(p, pat);
    if (!k || (end && k >= end))
        return NULL;
    const char *q = strchr(k + strlen(pat), '"');
    if (!q)
        return NULL;
    const char *e = strchr(q + 1, '"');
    if (!e || (size_t)(e - q - 1) >= n)
        return NULL;
    memcpy(buf, q + 1, (size_t)(e - q - 1));
    buf[e - q - 1] = 0;
    return e + 1;
}

/* The number after the ':' that follows a key at k (0 when there is none:
 * a malformed file reads as no count rather than a crash). */
static unsigned long long number_after(const char *k)
{
    const char *colon = strchr(k, ':');
    return colon ? strtoull(colon + 1, NULL, 10) : 0;
}

/* Whether the model allows the observed state "P0:r1=1 x=2": it names
 * each term the condition names. -1: the state does not name them. */
static int allowed_state(const lit_test *t, const lit_result *r, const char *state)
{
    int64_t v[LIT_MAX_NODES];
    bool got[LIT_MAX_NODES] = {0};
    const char *p = state;
    while (*p) {
        while (*p == ' ' || *p == ';')
            p++;
        if (!*p)
            break;
        const char *eq = strchr(p, '=');
        if (!eq)
            return -1;
        char name[48];
        if ((size_t)(eq - p) >= sizeof name)
            return -1;
        memcpy(name, p, (size_t)(eq - p));
        name[eq - p] = 0;
        char *end;
        const long long x = strtoll(eq + 1, &end, 10);
        if (end == eq + 1)
            return -1;
        p = end;
        for (unsigned k = 0; k < t->nnamed; k++) {
            char nm[48];
            term_name(t, &t->named[k], nm, sizeof nm);
            if (strcmp(nm, name) == 0) {
                v[k] = (int32_t)x;
                got[k] = true;
            }
        }
    }
    for (unsigned k = 0; k < t->nnamed; k++)
        if (!got[k])
            return -1;
    for (unsigned i = 0; i < r->nout; i++)
        if (memcmp(r->out[i].v, v, t->nnamed * sizeof v[0]) == 0)
            return 1;
    return 0;
}

/* Checks the observed outcomes of test t; returns the forbidden ones seen
 * (printed), -1 when the file has the test's states in another shape. */
static long check_observed(const char *obs, const lit_test *t, const lit_result *r, json_writer *w,
                           unsigned long long *runs_out, unsigned *seen_out)
{
    char name[128], buf[256];
    const char *p = obs;
    const char *at = NULL;
    while ((p = next_string(p, NULL, "name", name, sizeof name)) != NULL)
        if (strcmp(name, t->name) == 0) {
            at = p;
            break;
        }
    *runs_out = 0;
    *seen_out = 0;
    if (!at)
        return -2; /* not run on the GPU */
    const char *stop = strstr(at, "\"name\"");
    const char *rs = strstr(at, "\"runs\"");
    if (rs && (!stop || rs < stop))
        *runs_out = number_after(rs);
    long bad = 0;
    if (w)
        json_begin_array(w, "observed");
    for (const char *q = at; (q = next_string(q, stop, "state", buf, sizeof buf)) != NULL;) {
        const char *c = strstr(q, "\"count\"");
        const unsigned long long count = c && (!stop || c < stop) ? number_after(c) : 0;
        const int ok = allowed_state(t, r, buf);
        if (ok < 0)
            return -1;
        (*seen_out)++;
        if (!ok) {
            bad++;
            if (!w)
                printf("  FINDING: the GPU showed %s (%llu times), which the model forbids\n", buf, count);
        }
        if (w) {
            json_begin_object(w, NULL);
            json_string(w, "state", buf);
            json_uint(w, "count", count);
            json_bool(w, "allowed_by_model", ok == 1);
            json_end_object(w);
        }
    }
    if (w)
        json_end_array(w);
    return bad;
}

static void print_outcomes(const lit_test *t, const lit_result *r)
{
    for (unsigned i = 0; i < r->nout; i++) {
        printf("  ");
        for (unsigned k = 0; k < t->nnamed; k++) {
            char nm[48];
            term_name(t, &t->named[k], nm, sizeof nm);
            printf("%s=%lld; ", nm, (long long)r->out[i].v[k]);
        }
        printf("%llu execution%s%s\n", (unsigned long long)r->out[i].count, r->out[i].count == 1 ? "" : "s",
               r->out[i].sat ? "  <- the condition's body" : "");
    }
}

static void json_outcomes(json_writer *w, const lit_test *t, const lit_result *r)
{
    json_begin_array(w, "outcomes");
    for (unsigned i = 0; i < r->nout; i++) {
        json_begin_object(w, NULL);
        json_begin_object(w, "state");
        for (unsigned k = 0; k < t->nnamed; k++) {
            char nm[48];
            term_name(t, &t->named[k], nm, sizeof nm);
            json_int(w, nm, (long long)r->out[i].v[k]);
        }
        json_end_object(w);
        json_uint(w, "executions", r->out[i].count);
        json_bool(w, "satisfies_body", r->out[i].sat);
        json_end_object(w);
    }
    json_end_array(w);
}

int cmd_litmus(int argc, char **argv)
{
    cli_set_command("litmus");
    bool json = false;
    unsigned bound = DEFAULT_BOUND;
    const char *obs_path = NULL;
    int first = argc;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(usage, stdout);
            return CLI_EXIT_OK;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = true;
        } else if (strcmp(argv[i], "--bound") == 0 || strcmp(argv[i], "--observed") == 0) {
            if (i + 1 >= argc)
                return cli_usage_error("litmus: %s needs a value", argv[i]);
            if (argv[i][2] == 'b') {
                int b;
                if (cli_parse_int("--bound", argv[i + 1], 1, 100000, &b) != SL_OK)
                    return CLI_EXIT_USAGE;
                bound = (unsigned)b;
            } else {
                if (obs_path)
                    return cli_usage_error("litmus: --observed given twice");
                obs_path = argv[i + 1];
            }
            i++;
        } else if (strncmp(argv[i], "--", 2) == 0 && argv[i][2]) {
            char buf[64];
            return cli_usage_error("litmus: unknown option '%s' (see scanlab litmus --help)",
                                   cli_printable(argv[i], -1, buf, sizeof buf));
        } else {
            first = i;
            break;
        }
    }
    if (first >= argc)
        return cli_usage_error("litmus: no test file given (see scanlab litmus --help)");
    for (int i = first; i < argc; i++)
        if (strncmp(argv[i], "--", 2) == 0)
            return cli_usage_error("litmus: options come before the test files ('%s')", argv[i]);
    char *obs = NULL;
    if (obs_path && !(obs = read_all(obs_path)))
        return cli_usage_error("litmus: --observed: cannot read '%s'", obs_path);
    /* a deliberately wrong model for the tests of the test set only */
    const char *weaken = getenv("SCANLAB_TEST_WEAKEN_MODEL");
    unsigned wmask = 0;
    if (weaken && *weaken) {
        wmask = strcmp(weaken, "fence") == 0   ? MODEL_WEAKEN_FENCE
                : strcmp(weaken, "scope") == 0 ? MODEL_WEAKEN_SCOPE
                                               : 0;
        if (!wmask) {
            free(obs);
            return cli_usage_error("litmus: SCANLAB_TEST_WEAKEN_MODEL must be 'fence' or 'scope'");
        }
        fprintf(stderr, "scanlab: litmus: WEAKENED MODEL (%s), for testing the tests only\n", weaken);
    }
    model_set_weaken(wmask);
    json_writer w;
    if (json) {
        json_init(&w, stdout);
        json_begin_object(&w, NULL);
        json_string(&w, "command", "litmus");
        if (wmask)
            json_string(&w, "weakened_model", weaken);
        json_begin_array(&w, "results");
    }
    int rc = CLI_EXIT_OK;
    unsigned ntests = 0, nunsup = 0, nfind = 0;
    for (int i = first; i < argc && rc != CLI_EXIT_USAGE; i++) {
        lit_test *t = malloc(sizeof *t);
        char err[600];
        if (!t) {
            rc = cli_usage_error("litmus: out of memory");
            break;
        }
        if (lit_parse_file(argv[i], t, err, sizeof err) < 0) {
            free(t);
            rc = cli_usage_error("litmus: %s", err);
            break;
        }
        ntests++;
        if (cli_dry_run()) { /* the command line is checked: nothing runs */
            lit_free(t);
            free(t);
            continue;
        }
        lit_result r;
        memset(&r, 0, sizeof r);
        const bool unsup = t->unsupported[0] || lit_explore(t, bound, &r, err, sizeof err) < 0;
        if (unsup && !t->unsupported[0]) {
            lit_free(t);
            free(t);
            rc = cli_usage_error("litmus: %s", err);
            break;
        }
        nunsup += unsup;
        const char *v = unsup ? "unsupported" : verdict_of(t, &r);
        const bool incomplete = !unsup && (r.bounded || r.stuck || r.executions == 0);
        if (incomplete)
            rc = rc == CLI_EXIT_OK ? CLI_EXIT_FAILED : rc;
        if (json) {
            json_begin_object(&w, NULL);
            json_string(&w, "name", t->name);
            json_string(&w, "file", argv[i]);
            json_string(&w, "verdict", v);
            json_string(&w, "quantifier", t->quant == LIT_EXISTS ? "exists" : t->quant == LIT_NOT_EXISTS ? "~exists"
                                                                                                          : "forall");
            if (unsup) {
                json_null(&w, "condition_true");
                json_string(&w, "unsupported", t->unsupported);
            } else {
                json_bool(&w, "condition_true", condition_true(t, &r));
                json_outcomes(&w, t, &r);
                json_uint(&w, "executions", r.executions);
                json_uint(&w, "pruned", r.pruned);
                json_uint(&w, "bounded", r.bounded);
                json_uint(&w, "stuck", r.stuck);
                json_uint(&w, "racy_executions", r.racy);
                if (r.finding[0])
                    json_string(&w, "finding", r.finding);
                json_double(&w, "seconds", r.seconds);
            }
        } else if (unsup) {
            printf("%s (%s): unsupported: %s\n", t->name, argv[i], t->unsupported);
        } else {
            printf("%s (%s): %s; condition %s; %llu executions (%llu equivalent paths pruned), %.3f s\n",
                   t->name, argv[i], v, condition_true(t, &r) ? "true" : "false",
                   (unsigned long long)r.executions, (unsigned long long)r.pruned, r.seconds);
            print_outcomes(t, &r);
            if (r.racy)
                printf("  data race in %llu execution%s: %s\n", (unsigned long long)r.racy, r.racy == 1 ? "" : "s",
                       r.finding);
            if (r.bounded)
                printf("  INCOMPLETE: %llu executions cut at %u turns (a loop); raise --bound\n",
                       (unsigned long long)r.bounded, bound);
            if (r.stuck)
                printf("  %llu executions stopped: %s\n", (unsigned long long)r.stuck, r.finding);
        }
        if (obs && !unsup) {
            unsigned long long runs;
            unsigned seen;
            const long bad = check_observed(obs, t, &r, json ? &w : NULL, &runs, &seen);
            if (bad == -1) {
                if (json)
                    json_end_object(&w);
                lit_result_free(&r);
                lit_free(t);
                free(t);
                rc = cli_usage_error("litmus: --observed: the states of %s do not name what its condition names",
                                     argv[i]);
                break;
            }
            if (json) {
                json_uint(&w, "gpu_runs", runs);
                json_int(&w, "gpu_forbidden_outcomes", bad < 0 ? 0 : bad);
            } else if (bad >= 0) {
                printf("  on the GPU: %llu runs, %u distinct outcomes, %ld the model forbids\n", runs, seen, bad);
            } else {
                printf("  on the GPU: not run\n");
            }
            if (bad > 0) {
                nfind++;
                rc = rc == CLI_EXIT_OK ? CLI_EXIT_FAILED : rc;
            }
        }
        if (json)
            json_end_object(&w);
        lit_result_free(&r);
        lit_free(t);
        free(t);
    }
    model_set_weaken(0);
    free(obs);
    if (json) {
        json_end_array(&w);
        json_uint(&w, "tests", ntests);
        json_uint(&w, "unsupported", nunsup);
        if (obs_path)
            json_uint(&w, "gpu_findings", nfind);
        json_end_object(&w);
        json_finish(&w);
    } else if (rc != CLI_EXIT_USAGE) {
        printf("%u test%s, %u unsupported%s\n", ntests, ntests == 1 ? "" : "s", nunsup,
               obs_path ? (nfind ? "; the GPU showed outcomes the model forbids" : "; every GPU outcome allowed")
                        : "");
    }
    return rc;
}
