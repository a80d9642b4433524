/* scanlab deadlock --litmus: progress litmus tests (docs/deadlock.md,
 * "Progress litmus tests"): whether every execution each progress model
 * allows terminates, under weak and strong fairness, with an infinite
 * execution (a prefix, then a cycle for ever) when one does not. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/litmus/litmus.h"
#include "model/litmus/progress.h"
#include "verify/cli/cli.h"
#include "verify/cli/deadlock.h"
#include "verify/formats/json.h"

/* States a test's search may reach before it is cut (no answer). */
#define MAX_STATES 200000u
/* Seconds a test's search may take by default (--budget), as a kernel's. */
#define DEFAULT_BUDGET_S 120

static const char usage[] =
    "usage: scanlab deadlock --litmus [--model M[,M...]|all] [--fairness weak|strong|both] [--budget S]\n"
    "                        [--json[=FILE]] TEST...\n"
    "Explores every interleaving of each progress litmus test's threads (PTX, herd/Dat3M format,\n"
    "one thread a block; or a test of Sorensen et al.'s suite, THREAD0 then atomic_store,\n"
    "atomic_chk_branch and atomic_exch_branch lines, told by its content) and says, for each\n"
    "progress model (obe, lobe, hsa, hsa+obe, fair) and for weak and strong fairness, whether\n"
    "every execution the model allows terminates. When one does\n"
    "not, it prints one: a prefix from the start, then a cycle the threads repeat for ever (a spin,\n"
    "or threads that keep changing values in a loop), in which every thread the model must schedule\n"
    "is scheduled.\n"
    "  --model M       the models answered (default all)\n"
    "  --fairness F    weak, strong or both (default both)\n"
    "  --budget S      seconds a test's search may take; past them (or past 200000 states: a\n"
    "                  test whose state grows for ever) the test has no answer (default 120)\n"
    "  --json[=FILE]   one JSON document {\"results\": [...]} on stdout, or written to FILE\n"
    "Exit status: 0 every test answered (verdicts are answers, not failures); 1 a search that was\n"
    "cut or stopped by a finding; 2 bad usage, a file that is not a test or a test that cannot be\n"
    "asked (threads sharing a block, a loop with no strong access).\n";

typedef struct {
    unsigned models;   /* mask of 1u << lit_pmodel */
    unsigned fairness; /* bit 0 weak, bit 1 strong */
    const char *json;  /* NULL: text; "-": stdout; else a file */
    int budget;        /* seconds a test's search may take */
} plan;

static int parse_models(const char *arg, unsigned *mask)
{
    *mask = 0;
    char buf[128];
    snprintf(buf, sizeof buf, "%s", arg);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (strcmp(tok, "all") == 0) {
            *mask = (1u << LIT_PM_COUNT) - 1;
            continue;
        }
        const int m = lit_pmodel_parse(tok);
        if (m < 0)
            return cli_usage_error("deadlock: --litmus: unknown progress model '%.40s' (obe, lobe, hsa, hsa+obe, "
                                   "fair, all)", tok);
        *mask |= 1u << m;
    }
    return *mask ? CLI_EXIT_OK : cli_usage_error("deadlock: --model names no model");
}

/* The name of the thread with the model's id id. */
static const char *thread_name(const lit_test *t, int id)
{
    for (unsigned k = 0; k < t->nthreads; k++) {
        unsigned rank = 0;
        for (unsigned j = 0; j < t->nthreads; j++)
            rank += t->th[j].cta < t->th[k].cta;
        if ((int)rank == id)
            return t->th[k].name;
    }
    return "?";
}

static void print_steps(FILE *f, const lit_test *t, const int8_t *s, unsigned n)
{
    if (n == 0)
        fputs(" (none)", f);
    for (unsigned i = 0; i < n && i < LIT_LASSO_MAX; i++)
        fprintf(f, " %s", thread_name(t, s[i]));
    if (n > LIT_LASSO_MAX)
        fprintf(f, " ... (%u turns)", n);
}

static void json_steps(json_writer *w, const char *key, const lit_test *t, const int8_t *s, unsigned n)
{
    json_begin_array(w, key);
    for (unsigned i = 0; i < n && i < LIT_LASSO_MAX; i++)
        json_string(w, NULL, thread_name(t, s[i]));
    json_end_array(w);
}

static const char *const fair_name[2] = {"weak", "strong"};

static void print_text(const plan *p, const lit_test *t, const lit_presult *r)
{
    printf("%s (%s): %u threads, %llu states, %.2f s\n", t->name, t->path, t->nthreads,
           (unsigned long long)r->states, r->seconds);
    if (!r->answered) {
        printf("  no answer: %s\n", r->why);
        return;
    }
    for (int m = 0; m < LIT_PM_COUNT; m++) {
        if (!(p->models >> m & 1u))
            continue;
        printf("  %-8s", lit_pmodel_name((lit_pmodel)m));
        for (int f = 0; f < 2; f++)
            if (p->fairness >> f & 1u)
                printf("  %s: %-17s", fair_name[f], r->v[m][f].terminates ? "terminates" : "MAY NOT TERMINATE");
        printf("\n");
    }
    for (int m = 0; m < LIT_PM_COUNT; m++)
        for (int f = 0; f < 2; f++) {
            if (!(p->models >> m & 1u) || !(p->fairness >> f & 1u) || r->v[m][f].terminates)
                continue;
            const lit_lasso *l = &r->v[m][f].lasso;
            printf("    %s, %s fairness: turns", lit_pmodel_name((lit_pmodel)m), fair_name[f]);
            print_steps(stdout, t, l->prefix, l->nprefix);
            printf(", then for ever:");
            print_steps(stdout, t, l->cycle, l->ncycle);
            printf("\n");
        }
}

static void print_json(json_writer *w, const plan *p, const lit_test *t, const lit_presult *r)
{
    json_begin_object(w, NULL);
    json_string(w, "name", t->name);
    json_string(w, "file", t->path);
    json_uint(w, "threads", t->nthreads);
    json_uint(w, "states", r->states);
    json_uint(w, "transitions", r->edges);
    json_double(w, "seconds", r->seconds);
    json_bool(w, "answered", r->answered);
    if (r->answered)
        json_null(w, "why");
    else
        json_string(w, "why", r->why);
    json_begin_object(w, "models");
    for (int m = 0; m < LIT_PM_COUNT && r->answered; m++) {
        if (!(p->models >> m & 1u))
            continue;
        json_begin_object(w, lit_pmodel_name((lit_pmodel)m));
        for (int f = 0; f < 2; f++) {
            if (!(p->fairness >> f & 1u))
                continue;
            json_begin_object(w, fair_name[f]);
            json_bool(w, "terminates", r->v[m][f].terminates);
            if (r->v[m][f].terminates) {
                json_null(w, "trace");
            } else {
                const lit_lasso *l = &r->v[m][f].lasso;
                json_begin_object(w, "trace");
                /* at most LIT_LASSO_MAX turns of each are listed; the counts are whole */
                json_steps(w, "prefix", t, l->prefix, l->nprefix);
                json_steps(w, "cycle", t, l->cycle, l->ncycle);
                json_uint(w, "prefix_turns", l->nprefix);
                json_uint(w, "cycle_turns", l->ncycle);
                json_end_object(w);
            }
            json_end_object(w);
        }
        json_end_object(w);
    }
    json_end_object(w);
    json_end_object(w);
}

static int parse_args(int argc, char **argv, plan *p, int *files, int *nfiles)
{
    *p = (plan){(1u << LIT_PM_COUNT) - 1, 3u, NULL, DEFAULT_BUDGET_S};
    *nfiles = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--litmus") == 0)
            continue;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage, stdout);
            return -1;
        }
        if (strcmp(a, "--json") == 0) {
            p->json = "-";
        } else if (strncmp(a, "--json=", 7) == 0) {
            if (!a[7])
                return cli_usage_error("deadlock: --json= needs a file name");
            p->json = a + 7;
        } else if (strcmp(a, "--model") == 0 || strcmp(a, "--fairness") == 0 || strcmp(a, "--budget") == 0) {
            if (i + 1 >= argc)
                return cli_usage_error("deadlock: %s needs a value", a);
            const char *v = argv[++i];
            if (a[2] == 'b') {
                if (cli_parse_int("--budget", v, 1, 86400, &p->budget) != SL_OK)
                    return CLI_EXIT_USAGE;
            } else if (a[2] == 'm') {
                if (parse_models(v, &p->models) != CLI_EXIT_OK)
                    return CLI_EXIT_USAGE;
            } else if (strcmp(v, "weak") == 0 || strcmp(v, "strong") == 0 || strcmp(v, "both") == 0) {
                p->fairness = v[0] == 'w' ? 1u : v[0] == 's' ? 2u : 3u;
            } else {
                return cli_usage_error("deadlock: --fairness must be weak, strong or both, not '%.40s'", v);
            }
        } else if (strncmp(a, "--", 2) == 0) {
            return cli_usage_error("deadlock: --litmus takes --model, --fairness, --budget and --json, not "
                                   "'%.40s' (see scanlab deadlock --litmus --help)", a);
        } else {
            files[(*nfiles)++] = i;
        }
    }
    if (*nfiles == 0)
        return cli_usage_error("deadlock: --litmus: no test file given");
    return CLI_EXIT_OK;
}

int deadlock_litmus_main(int argc, char **argv)
{
    cli_set_command("deadlock");
    int *files = malloc((size_t)argc * sizeof *files), nfiles;
    lit_test *t = calloc((size_t)argc, sizeof *t);
    if (!files || !t) {
        free(files);
        free(t);
        fprintf(stderr, "scanlab: deadlock: out of memory\n");
        return CLI_EXIT_FAILED;
    }
    plan p;
    int rc = parse_args(argc, argv, &p, files, &nfiles);
    int parsed = 0;
    /* every file is read and checked before any search: a bad one is
     * refused at once, with nothing printed for the others */
    for (; rc == CLI_EXIT_OK && parsed < nfiles; parsed++) {
        char err[600];
        if (lit_parse_progress_file(argv[files[parsed]], &t[parsed], err, sizeof err) < 0 ||
            lit_progress_check(&t[parsed], err, sizeof err) < 0) {
            rc = cli_usage_error("deadlock: --litmus: %s", err);
            parsed++;
        }
    }
    const char *weaken = getenv("SCANLAB_TEST_WEAKEN_PROGRESS");
    bool ignore_registers = false;
    if (rc == CLI_EXIT_OK && weaken && *weaken) {
        const unsigned mask = strcmp(weaken, "cycles") == 0     ? LIT_WEAKEN_CYCLES
                              : strcmp(weaken, "fairness") == 0 ? LIT_WEAKEN_FAIRNESS
                                                                : 0u;
        ignore_registers = strcmp(weaken, "registers") == 0;
        if (!mask && !ignore_registers) {
            rc = cli_usage_error("deadlock: SCANLAB_TEST_WEAKEN_PROGRESS must be 'cycles', 'fairness' or "
                                 "'registers'");
        } else {
            fprintf(stderr, "scanlab: deadlock: WEAKENED ANALYSIS (%s ignored), for testing the tests only\n",
                    weaken);
            lit_pgraph_weaken(mask);
        }
    }
    FILE *out = stdout;
    char tmp[600] = "";
    if (rc == CLI_EXIT_OK && p.json && strcmp(p.json, "-") != 0) {
        /* written whole under another name, then renamed: never a part of
         * a document under the name asked */
        snprintf(tmp, sizeof tmp, "%s.part", p.json);
        if (!(out = fopen(tmp, "w")))
            rc = cli_usage_error("deadlock: cannot write '%.200s'", p.json);
    }
    json_writer w;
    if (rc == CLI_EXIT_OK && p.json) {
        json_init(&w, out);
        json_begin_object(&w, NULL);
        json_begin_array(&w, "results");
    }
    const lit_popts opts = {MAX_STATES, p.budget, false, ignore_registers};
    for (int i = 0; rc != CLI_EXIT_USAGE && rc != -1 && i < nfiles; i++) {
        lit_presult r;
        char err[600];
        if (lit_progress_run(&t[i], &opts, &r, err, sizeof err) < 0) {
            /* the test stays in the output, without an answer */
            fprintf(stderr, "scanlab: deadlock: %s\n", err);
            snprintf(r.why, sizeof r.why, "%.399s", err);
            r.answered = false;
        }
        if (!r.answered)
            rc = CLI_EXIT_FAILED;
        if (p.json)
            print_json(&w, &p, &t[i], &r);
        else
            print_text(&p, &t[i], &r);
    }
    if (rc != CLI_EXIT_USAGE && rc != -1 && p.json) {
        json_end_array(&w);
        json_end_object(&w);
        json_finish(&w);
    }
    if (tmp[0] && out) {
        const bool ok = fclose(out) == 0 && rc != CLI_EXIT_USAGE;
        if (!ok || rename(tmp, p.json) != 0) {
            remove(tmp);
            if (rc == CLI_EXIT_OK) {
                fprintf(stderr, "scanlab: deadlock: cannot write '%s'\n", p.json);
                rc = CLI_EXIT_FAILED;
            }
        }
    }
    lit_pgraph_weaken(0);
    for (int i = 0; i < parsed; i++)
        lit_free(&t[i]);
    free(files);
    free(t);
    return rc == -1 ? CLI_EXIT_OK : rc;
}
