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
#include "model/litmus/observed.h"
#include "verify/campaign/ranks.h"
#include "verify/campaign/share.h"
#include "verify/cli/cli.h"
#include "verify/cli/commands.h"
#include "verify/cli/options.h"
#include "verify/formats/json.h"

static const char usage[] =
    "usage: scanlab litmus [--json] [--bound T] [--observed FILE] TEST.litmus...\n"
    "Enumerates every execution of each PTX litmus test (herd/Dat3M format) that the simulator's\n"
    "memory model allows (every interleaving of the threads' events and every store a strong load\n"
    "may return; executions that differ only in the order of independent events run once) and\n"
    "prints the outcomes (the values the final condition names, with the executions ending in\n"
    "each), the verdict (allowed/forbidden for exists and ~exists, holds/fails for forall), the\n"
    "executions explored and the time. Executions that never end (threads waiting at a barrier\n"
    "that cannot complete) are counted as hanging and kept out of the verdict. A test using what\n"
    "the model does not cover (proxies, textures, surfaces) is reported unsupported, never answered.\n"
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

/* Checks the observed outcomes of test t; returns the forbidden ones seen
 * (printed), -1 when the file has the test's states in another shape, -2
 * when the GPU did not run the test, -3 when out of memory. */
static long check_observed(FILE *out, const char *obs, const lit_test *t, const lit_result *r, json_writer *w,
                           unsigned long long *runs_out, unsigned *seen_out)
{
    lit_observed o;
    const int rc = lit_observed_check(obs, t, r, &o);
    *runs_out = o.runs;
    *seen_out = o.nseen;
    const long bad = rc == -1 ? -1 : rc < 0 ? -3 : !o.run ? -2 : (long)o.nforbidden;
    if (bad < -1) {
        lit_observed_free(&o);
        return bad;
    }
    if (w)
        json_begin_array(w, "observed");
    for (unsigned i = 0; i < o.nseen; i++) {
        const lit_seen *x = &o.seen[i];
        if (!w && !x->allowed)
            fprintf(out, "  FINDING: the GPU showed %s (%llu times), which the model forbids\n", x->state,
                    (unsigned long long)x->count);
        if (w) {
            json_begin_object(w, NULL);
            json_string(w, "state", x->state);
            json_uint(w, "count", x->count);
            json_bool(w, "allowed_by_model", x->allowed);
            json_end_object(w);
        }
    }
    if (w) /* closed also on a state of another shape, so that what is written stays JSON */
        json_end_array(w);
    lit_observed_free(&o);
    return bad;
}

static void print_outcomes(FILE *out, const lit_test *t, const lit_result *r)
{
    for (unsigned i = 0; i < r->nout; i++) {
        fprintf(out, "  ");
        for (unsigned k = 0; k < t->nnamed; k++) {
            char nm[48];
            lit_term_name(t, &t->named[k], nm, sizeof nm);
            fprintf(out, "%s=%lld; ", nm, (long long)r->out[i].v[k]);
        }
        fprintf(out, "%llu execution%s%s\n", (unsigned long long)r->out[i].count, r->out[i].count == 1 ? "" : "s",
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
            lit_term_name(t, &t->named[k], nm, sizeof nm);
            json_int(w, nm, (long long)r->out[i].v[k]);
        }
        json_end_object(w);
        json_uint(w, "executions", r->out[i].count);
        json_bool(w, "satisfies_body", r->out[i].sat);
        json_end_object(w);
    }
    json_end_array(w);
}

/* What every test of a run shares. */
typedef struct {
    bool json;
    unsigned bound;
    const char *obs;      /* --observed's text, or NULL */
    const char *obs_path;
    const char *weakened; /* SCANLAB_TEST_WEAKEN_MODEL, or NULL */
} litmus_run;

/* What one test's part says besides its text: the record of a test, then
 * its text (its lines, or its JSON object) and the message of a usage
 * error (a string, empty when none). */
typedef struct {
    int rc;       /* CLI_EXIT_OK, CLI_EXIT_FAILED (incomplete, a GPU finding) or CLI_EXIT_USAGE: the run stops */
    bool counted; /* parsed: counts among the tests */
    bool unsup, finding;
    size_t text_len;
} test_head;

/* Test path explored, its part written on out (its lines, or its JSON
 * object); a usage error's message into err. */
static void test_part(const litmus_run *run, const char *path, FILE *out, test_head *h, char *err, size_t errlen)
{
    lit_test *t = malloc(sizeof *t);
    char why[600];
    if (!t) {
        h->rc = CLI_EXIT_USAGE;
        snprintf(err, errlen, "litmus: out of memory");
        return;
    }
    if (lit_parse_file(path, t, why, sizeof why) < 0) {
        free(t);
        h->rc = CLI_EXIT_USAGE;
        snprintf(err, errlen, "litmus: %s", why);
        return;
    }
    h->counted = true;
    if (cli_dry_run()) { /* the command line is checked: nothing runs */
        lit_free(t);
        free(t);
        return;
    }
    lit_result r;
    memset(&r, 0, sizeof r);
    const bool unsup = t->unsupported[0] || lit_explore(t, run->bound, &r, why, sizeof why) < 0;
    if (unsup && !t->unsupported[0]) {
        lit_free(t);
        free(t);
        h->rc = CLI_EXIT_USAGE;
        snprintf(err, errlen, "litmus: %s", why);
        return;
    }
    h->unsup = unsup;
    const char *v = unsup ? "unsupported" : verdict_of(t, &r);
    const bool incomplete = !unsup && (r.bounded || r.stuck || r.capped || (r.executions == 0 && r.hangs == 0));
    if (incomplete)
        h->rc = CLI_EXIT_FAILED;
    json_writer w;
    if (run->json) {
        json_init(&w, out);
        json_begin_object(&w, NULL);
        json_string(&w, "name", t->name);
        json_string(&w, "file", path);
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
            json_uint(&w, "hangs", r.hangs);
            json_bool(&w, "capped", r.capped);
            json_uint(&w, "racy_executions", r.racy);
            if (r.finding[0])
                json_string(&w, "finding", r.finding);
            json_double(&w, "seconds", r.seconds);
        }
    } else if (unsup) {
        fprintf(out, "%s (%s): unsupported: %s\n", t->name, path, t->unsupported);
    } else {
        fprintf(out, "%s (%s): %s; condition %s; %llu executions (%llu equivalent paths pruned), %.3f s\n", t->name,
                path, v, condition_true(t, &r) ? "true" : "false", (unsigned long long)r.executions,
                (unsigned long long)r.pruned, r.seconds);
        print_outcomes(out, t, &r);
        if (r.racy)
            fprintf(out, "  data race in %llu execution%s: %s\n", (unsigned long long)r.racy, r.racy == 1 ? "" : "s",
                    r.finding);
        if (r.bounded)
            fprintf(out, "  INCOMPLETE: %llu executions cut at %u turns (a loop); raise --bound\n",
                    (unsigned long long)r.bounded, run->bound);
        if (r.stuck)
            fprintf(out, "  %llu executions stopped: %s\n", (unsigned long long)r.stuck, r.finding);
        if (r.capped)
            fprintf(out, "  INCOMPLETE: exploration stopped after %d paths (spin loops of several threads); the "
                    "outcomes are those of the executions run\n", LIT_MAX_PATHS);
        if (r.hangs)
            fprintf(out, "  %llu execution%s hang%s: every thread left waits at a barrier that can never complete "
                    "(the kernel never ends; the verdict is over the %llu that end)\n", (unsigned long long)r.hangs,
                    r.hangs == 1 ? "" : "s", r.hangs == 1 ? "s" : "", (unsigned long long)r.executions);
    }
    if (run->obs && !unsup) {
        unsigned long long runs;
        unsigned seen;
        const long bad = check_observed(out, run->obs, t, &r, run->json ? &w : NULL, &runs, &seen);
        if (bad == -1 || bad == -3) {
            if (run->json)
                json_end_object(&w);
            h->rc = CLI_EXIT_USAGE;
            if (bad == -3)
                snprintf(err, errlen, "litmus: out of memory");
            else
                snprintf(err, errlen, "litmus: --observed: the states of %s do not name what its condition names",
                         path);
        } else {
            if (run->json) {
                json_uint(&w, "gpu_runs", runs);
                json_int(&w, "gpu_forbidden_outcomes", bad < 0 ? 0 : bad);
            } else if (bad >= 0) {
                fprintf(out, "  on the GPU: %llu runs, %u distinct outcomes, %ld the model forbids\n", runs, seen,
                        bad);
            } else {
                fprintf(out, "  on the GPU: not run\n");
            }
            if (bad > 0) {
                h->finding = true;
                h->rc = CLI_EXIT_FAILED;
            }
        }
    }
    if (run->json && h->rc != CLI_EXIT_USAGE)
        json_end_object(&w);
    lit_result_free(&r);
    lit_free(t);
    free(t);
}

/* Test path run and its record put (test_head, text, message); false when
 * out of memory. */
static bool put_test(const litmus_run *run, const char *path, share *sh)
{
    char *text = NULL, err[800] = "";
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (!out)
        return false;
    test_head h = {.rc = CLI_EXIT_OK};
    test_part(run, path, out, &h, err, sizeof err);
    const bool written = fclose(out) == 0;
    h.text_len = len;
    const size_t elen = strlen(err) + 1, total = sizeof h + len + elen;
    char *rec = written ? malloc(total) : NULL;
    bool ok = rec != NULL;
    if (ok) {
        memcpy(rec, &h, sizeof h);
        memcpy(rec + sizeof h, text, len);
        memcpy(rec + sizeof h + len, err, elen);
        ok = share_put(sh, rec, total, "litmus");
    }
    free(rec);
    free(text);
    return ok;
}

/* Every test's part in file order (rank 0), then the summary; returns the
 * exit status. */
static int print_tests(const litmus_run *run, const share *sh)
{
    json_writer w;
    if (run->json) {
        json_init(&w, stdout);
        json_begin_object(&w, NULL);
        json_string(&w, "command", "litmus");
        if (run->weakened)
            json_string(&w, "weakened_model", run->weakened);
        json_begin_array(&w, "results");
    }
    int rc = CLI_EXIT_OK;
    unsigned ntests = 0, nunsup = 0, nfind = 0;
    for (size_t i = 0; i < sh->n; i++) {
        size_t len;
        const char *rec = share_get(sh, i, &len);
        test_head h;
        memcpy(&h, rec, sizeof h);
        const char *text = rec + sizeof h, *err = text + h.text_len;
        ntests += h.counted;
        nunsup += h.unsup;
        nfind += h.finding;
        if (h.text_len && run->json)
            json_raw_value(&w, text, h.text_len);
        else if (h.text_len)
            fwrite(text, 1, h.text_len, stdout);
        if (h.rc == CLI_EXIT_USAGE) {
            rc = cli_usage_error("%s", err);
            break;
        }
        if (h.rc == CLI_EXIT_FAILED && rc == CLI_EXIT_OK)
            rc = CLI_EXIT_FAILED;
    }
    if (run->json) {
        json_end_array(&w);
        json_uint(&w, "tests", ntests);
        json_uint(&w, "unsupported", nunsup);
        if (run->obs_path)
            json_uint(&w, "gpu_findings", nfind);
        json_end_object(&w);
        json_finish(&w);
    } else if (rc != CLI_EXIT_USAGE) {
        printf("%u test%s, %u unsupported%s\n", ntests, ntests == 1 ? "" : "s", nunsup,
               run->obs_path ? (nfind ? "; the GPU showed outcomes the model forbids" : "; every GPU outcome allowed")
                             : "");
    }
    return rc;
}

int cmd_litmus(int argc, char **argv)
{
    cli_set_command("litmus");
    bool json = false;
    unsigned bound = LIT_DEFAULT_BOUND;
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
    if (obs_path && !(obs = lit_observed_read(obs_path)))
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
        if (ranks_rank() == 0)
            fprintf(stderr, "scanlab: litmus: WEAKENED MODEL (%s), for testing the tests only\n", weaken);
    }
    model_set_weaken(wmask);
    /* every rank parses every file (a file that is not a test stops the
     * run there, at every rank alike); the tests are dealt over the ranks
     * of a campaign and rank 0 prints each one's part in file order */
    const litmus_run run = {json, bound, obs, obs_path, wmask ? weaken : NULL};
    int ntotal = 0;
    while (first + ntotal < argc) {
        lit_test *t = malloc(sizeof *t);
        char err[600];
        const bool parsed = t && lit_parse_file(argv[first + ntotal], t, err, sizeof err) == 0;
        if (parsed)
            lit_free(t);
        free(t);
        ntotal++;
        if (!parsed)
            break; /* the last item: its error */
    }
    share sh;
    share_init(&sh, (size_t)ntotal);
    for (int i = 0; i < ntotal; i++)
        if (ranks_mine((size_t)i) && !put_test(&run, argv[first + i], &sh)) {
            share_free(&sh);
            free(obs);
            model_set_weaken(0);
            fprintf(stderr, "scanlab: litmus: out of memory\n");
            return CLI_EXIT_FAILED;
        }
    model_set_weaken(0);
    free(obs);
    int rc = CLI_EXIT_OK;
    if (!share_collect(&sh, "litmus"))
        rc = CLI_EXIT_FAILED;
    else if (ranks_rank() == 0)
        rc = print_tests(&run, &sh);
    share_free(&sh);
    return rc;
}
