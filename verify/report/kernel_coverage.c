/* Kernel coverage from the simulator's call-site records
 * (kernel_coverage.h). */
#include "verify/report/kernel_coverage.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "verify/report/report.h"

/* Owners of records: none yet, or the index of the name they ran for. */
#define NO_OWNER (-1)
#define MAX_NAMES 256

struct report_kcov {
    const model_site *sites;
    size_t count;
    bool *seen;   /* had run at the last snapshot */
    int *owner;   /* index into names, or NO_OWNER */
    uint64_t *event; /* the event it was attributed at (owned records) */
    uint64_t calls;  /* report_kcov_attribute's events */
    const char *names[MAX_NAMES];
    size_t nnames;
};

/* The records other ranks of a campaign ran (report_kcov_import), by
 * index into model_sites: what this process ran or they did counts as
 * run. NULL until an import. */
static bool *ran_elsewhere;
static size_t nran_elsewhere;

static bool ran(const model_site *sites, size_t i)
{
    return sites[i].id != 0 || (i < nran_elsewhere && ran_elsewhere[i]);
}

report_kcov *report_kcov_new(void)
{
    report_kcov *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->count = model_sites(&c->sites);
    c->seen = calloc(c->count + 1, sizeof *c->seen);
    c->owner = malloc((c->count + 1) * sizeof *c->owner);
    c->event = calloc(c->count + 1, sizeof *c->event);
    if (!c->seen || !c->owner || !c->event) {
        report_kcov_free(c);
        return NULL;
    }
    for (size_t i = 0; i < c->count; i++) {
        c->seen[i] = c->sites[i].id != 0;
        c->owner[i] = NO_OWNER; /* what ran before the tracker is nobody's */
    }
    return c;
}

void report_kcov_free(report_kcov *c)
{
    if (!c)
        return;
    free(c->seen);
    free(c->owner);
    free(c->event);
    free(c);
}

/* The index of name among c's names (added), or NO_OWNER when full. */
static int name_index(report_kcov *c, const char *name)
{
    for (size_t i = 0; i < c->nnames; i++)
        if (strcmp(c->names[i], name) == 0)
            return (int)i;
    if (c->nnames == MAX_NAMES)
        return NO_OWNER;
    c->names[c->nnames] = name;
    return (int)c->nnames++;
}

void report_kcov_attribute_at(report_kcov *c, const char *name, uint64_t event)
{
    if (!c)
        return;
    const int k = name ? name_index(c, name) : NO_OWNER;
    for (size_t i = 0; i < c->count; i++)
        if (!c->seen[i] && c->sites[i].id != 0) {
            c->seen[i] = true;
            c->owner[i] = k;
            c->event[i] = event;
        }
}

void report_kcov_attribute(report_kcov *c, const char *name)
{
    if (c)
        report_kcov_attribute_at(c, name, c->calls++);
}

size_t report_kcov_site_count(void)
{
    const model_site *sites;
    return model_sites(&sites);
}

void report_kcov_export(const report_kcov *c, uint64_t *out)
{
    const model_site *sites;
    const size_t n = model_sites(&sites);
    for (size_t i = 0; i < n; i++)
        out[i] = c && i < c->count && c->owner[i] != NO_OWNER ? c->event[i]
                 : ran(sites, i)                              ? REPORT_KCOV_UNOWNED
                                                              : REPORT_KCOV_NOT_RUN;
}

sl_status report_kcov_import(report_kcov *c, const uint64_t *merged, const char *(*name_of)(uint64_t, const void *),
                             const void *ctx)
{
    const model_site *sites;
    const size_t n = model_sites(&sites);
    bool *r = realloc(ran_elsewhere, (n + 1) * sizeof *r);
    if (!r)
        return SL_ERR_NOMEM;
    ran_elsewhere = r;
    nran_elsewhere = n;
    for (size_t i = 0; i < n; i++) {
        r[i] = merged[i] != REPORT_KCOV_NOT_RUN;
        if (!c || i >= c->count || merged[i] >= REPORT_KCOV_UNOWNED)
            continue;
        const char *name = name_of(merged[i], ctx);
        c->seen[i] = true;
        c->owner[i] = name ? name_index(c, name) : NO_OWNER;
        c->event[i] = merged[i];
    }
    return SL_OK;
}

/* Whether a call site is counted: SHARED_DYN declares the block's dynamic
 * shared array, which the simulator hands out without recording the site,
 * so it never shows as run. */
static bool counted(const model_site *s)
{
    return strcmp(s->what, "SHARED_DYN") != 0;
}

static bool in_files(const report_kernel_files *src, const char *file, size_t *index)
{
    for (size_t f = 0; src->files[f]; f++)
        if (strcmp(src->files[f], file) == 0) {
            if (index)
                *index = f;
            return true;
        }
    return false;
}

/* One record as coverage sees it. */
typedef struct {
    const char *file; /* repository-relative */
    int line;
    const char *what;
    bool ran;
    const char *owner; /* the algorithm it ran for, or NULL (unknown) */
} record;

static int by_place(const void *x, const void *y)
{
    const record *a = x, *b = y;
    int c = strcmp(a->file, b->file);
    return c ? c : a->line - b->line;
}

static void add_what(char *list, size_t size, const char *what)
{
    if (strstr(list, what)) /* the names are distinct words: LD, ST, SYNCTHREADS, ... */
        return;
    size_t len = strlen(list);
    snprintf(list + len, size - len, "%s%s", len ? ", " : "", what);
}

/* The lines of kernel k from the records sorted by place. */
/* The reason of REPORT_KCOV_EXEMPT on line `line` of the source file
 * (repository-relative) into buf, or "": read from the source tree
 * (SCANLAB_SOURCE_ROOT in the environment, else the one this was built
 * from); without the sources no line is exempt. */
static void exempt_reason(const char *file, int line, char *buf, size_t size)
{
    const char *root = getenv("SCANLAB_SOURCE_ROOT");
    char path[4096], text[1024];
    buf[0] = '\0';
    snprintf(path, sizeof path, "%s/%s", root && *root ? root : SCANLAB_SOURCE_ROOT, file);
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    for (int k = 1; fgets(text, sizeof text, f); k++)
        if (k == line) {
            const char *m = strstr(text, REPORT_KCOV_EXEMPT);
            if (m) {
                m += strlen(REPORT_KCOV_EXEMPT);
                const char *end = strstr(m, "*/");
                snprintf(buf, size, "%.*s", (int)(end ? end - m : (ptrdiff_t)strcspn(m, "\n")), m);
                for (size_t e = strlen(buf); e > 0 && buf[e - 1] == ' '; e--)
                    buf[e - 1] = '\0';
            }
            break;
        }
    fclose(f);
}

static sl_status kernel_lines(report_kcov_kernel *k, const record *r, size_t n, bool attributed,
                              const verify_algo *const *algos, size_t count)
{
    k->lines = calloc(n + 1, sizeof *k->lines);
    if (!k->lines)
        return SL_ERR_NOMEM;
    size_t nl = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i, fi = 0;
        while (j < n && r[j].line == r[i].line && strcmp(r[j].file, r[i].file) == 0)
            j++;
        if (!in_files(k->src, r[i].file, &fi)) {
            i = j;
            continue;
        }
        /* is the line the kernel's, and did the kernel reach it? */
        bool mine = false, reached = false, own_file = fi == 0;
        const char *by = NULL;
        char what[48] = "";
        for (size_t m = i; m < j; m++) {
            add_what(what, sizeof what, r[m].what);
            /* with attribution, a record that ran outside the attributed
             * runs (before the tracker, or for other work afterwards) was
             * not run by the inputs that are counted */
            if (!r[m].ran || (attributed && !r[m].owner)) {
                mine = true; /* compiled somewhere and not run */
                continue;
            }
            if (!attributed) {
                /* any given kernel that includes the file may have run it */
                bool ours = own_file;
                for (size_t a = 0; a < count && !ours; a++) {
                    const report_kernel_files *src = report_kernel_files_of(algos[a]->name);
                    ours = src && in_files(src, r[m].file, NULL);
                }
                mine |= ours;
                reached |= ours;
            } else if (r[m].owner && strcmp(r[m].owner, k->name) == 0) {
                mine = reached = true;
            } else {
                by = r[m].owner;
            }
        }
        if (own_file)
            mine = true;
        if (mine) {
            report_kcov_line *l = &k->lines[nl++];
            l->file = r[i].file;
            l->line = r[i].line;
            l->reached = reached;
            l->by = reached ? NULL : by;
            snprintf(l->what, sizeof l->what, "%s", what);
            if (!reached)
                exempt_reason(l->file, l->line, l->exempt, sizeof l->exempt);
            k->sites++;
            k->reached += reached;
            k->file_sites[fi]++;
            k->file_reached[fi] += reached;
        }
        i = j;
    }
    return SL_OK;
}

/* Whether every catalogue kernel that compiles file is among algos. */
static bool includers_selected(const char *file, const verify_algo *const *algos, size_t count)
{
    for (size_t i = 0; i < report_kernel_files_count; i++) {
        const report_kernel_files *k = &report_kernel_files_table[i];
        bool includes = false, selected = false;
        for (size_t f = 0; k->files[f] && !includes; f++)
            includes = strcmp(k->files[f], file) == 0;
        for (size_t a = 0; a < count && includes && !selected; a++)
            selected = strcmp(algos[a]->name, k->name) == 0;
        if (includes && !selected)
            return false;
    }
    return true;
}

bool report_kcov_line_fails(const report_kcov_kernel *k, const report_kcov_line *ln, const verify_algo *const *algos,
                            size_t count)
{
    if (ln->reached || ln->exempt[0])
        return false;
    if (strcmp(ln->file, k->src->files[0]) == 0)
        return true;
    return !ln->by && includers_selected(ln->file, algos, count);
}

sl_status report_kcov_compute(const report_kcov *c, const verify_algo *const *algos, size_t count,
                              report_kcov_result *out)
{
    memset(out, 0, sizeof *out);
    out->attributed = c != NULL;
    const model_site *sites;
    size_t n = model_sites(&sites);
    record *r = calloc(n + 1, sizeof *r);
    out->kernels = calloc(count + 1, sizeof *out->kernels);
    if (!r || !out->kernels) {
        free(r);
        free(out->kernels);
        out->kernels = NULL;
        return SL_ERR_NOMEM;
    }
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (!counted(&sites[i]))
            continue;
        r[m] = (record){report_repo_path(sites[i].file), sites[i].line, sites[i].what, ran(sites, i), NULL};
        if (c && i < c->count && c->owner[i] != NO_OWNER)
            r[m].owner = c->names[c->owner[i]];
        m++;
    }
    n = m;
    qsort(r, n, sizeof *r, by_place);

    sl_status st = SL_OK;
    for (size_t a = 0; a < count && st == SL_OK; a++) {
        if (!verify_algo_runs_on(algos[a], SL_SIM))
            continue;
        const report_kernel_files *src = report_kernel_files_of(algos[a]->name);
        if (!src) {
            out->unknown++;
            continue;
        }
        report_kcov_kernel *k = &out->kernels[out->count++];
        k->name = algos[a]->name;
        k->src = src;
        st = kernel_lines(k, r, n, out->attributed, algos, count);
    }
    free(r);
    if (st != SL_OK)
        report_kcov_result_free(out);
    return st;
}

void report_kcov_result_free(report_kcov_result *r)
{
    for (size_t i = 0; r->kernels && i < r->count; i++)
        free(r->kernels[i].lines);
    free(r->kernels);
    memset(r, 0, sizeof *r);
}

sl_status report_kcov_print(FILE *out, const verify_algo *const *algos, size_t count)
{
    report_kcov_result res;
    sl_status st = report_kcov_compute(NULL, algos, count, &res);
    if (st != SL_OK)
        return st;
    fputs("\nkernel coverage: dialect call sites (grouped by line) of each kernel's template and the kernel\n"
          "headers it includes, and how many of them these inputs reached; a line of a header that several\n"
          "of the selected kernels include counts when any of them reached it (one --algo at a time gives\n"
          "a kernel's own count)\n", out);
    if (res.count == 0) {
        fputs("  no selected kernel ran in the simulator (select --backend sim)\n", out);
    } else {
        fprintf(out, "%-20s %6s %8s %7s  %s\n", "kernel", "sites", "reached", "%", "files");
        size_t sites = 0, reached = 0;
        for (size_t i = 0; i < res.count; i++) {
            const report_kcov_kernel *k = &res.kernels[i];
            fprintf(out, "%-20s %6zu %8zu %6.1f%%  ", k->name, k->sites, k->reached,
                    k->sites ? 100.0 * (double)k->reached / (double)k->sites : 0.0);
            for (size_t f = 0; k->src->files[f]; f++)
                fprintf(out, "%s%s", f ? ", " : "", k->src->files[f]);
            fputc('\n', out);
            sites += k->sites;
            reached += k->reached;
        }
        fprintf(out, "%-20s %6zu %8zu %6.1f%%\n", "all", sites, reached,
                sites ? 100.0 * (double)reached / (double)sites : 0.0);
        for (size_t i = 0; i < res.count; i++)
            for (size_t l = 0; l < res.kernels[i].sites; l++) {
                const report_kcov_line *x = &res.kernels[i].lines[l];
                if (!x->reached)
                    fprintf(out, "%s:%d: note: %s: call site not reached by these inputs (%s)\n", x->file, x->line,
                            res.kernels[i].name, x->what);
            }
    }
    if (res.unknown)
        fprintf(out, "  %zu algorithm%s outside cuda/kernels.def: sources not known, not counted\n", res.unknown,
                res.unknown == 1 ? "" : "s");
    report_kcov_result_free(&res);
    return ferror(out) ? SL_ERR_IO : SL_OK;
}
