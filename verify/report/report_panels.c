/* Helpers of the report's figures and tables: panels by algorithm level
 * and repository-relative source paths. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify/report/kernel_files.h"
#include "verify/report/report.h"

/* Levels in panel order; algorithms outside cuda/kernels.def (the CPU
 * scans, compensated, CUB) come first. */
static const struct {
    const char *level, *title;
} levels[] = {
    {NULL, "sequential, OpenMP and library scans"},
    {"block", "block-level scans"},
    {"device", "device-level scans"},
    {"reduce", "reductions"},
    {"apps", "applications"},
};
#define LEVELS (sizeof levels / sizeof levels[0])

static size_t level_of(const char *name)
{
    const report_kernel_files *k = report_kernel_files_of(name);
    for (size_t l = 1; k && l < LEVELS; l++)
        if (strcmp(levels[l].level, k->level) == 0)
            return l;
    return 0;
}

void report_panels_make(report_panels *p, const char *const *names, size_t n, int *panel)
{
    memset(p, 0, sizeof *p);
    if (n <= PLOT_PANEL_GROUPS) {
        for (size_t i = 0; i < n; i++)
            panel[i] = 0;
        p->count = 1;
        p->titles[0] = p->title[0];
        return;
    }
    for (size_t l = 0; l < LEVELS; l++) {
        size_t m = 0;
        for (size_t i = 0; i < n; i++)
            m += level_of(names[i]) == l;
        if (m == 0)
            continue;
        size_t parts = (m + PLOT_PANEL_GROUPS - 1) / PLOT_PANEL_GROUPS, per = (m + parts - 1) / parts, seen = 0;
        size_t first = p->count;
        for (size_t part = 0; part < parts && p->count < PLOT_MAX_PANELS; part++, p->count++) {
            if (parts == 1)
                snprintf(p->title[p->count], sizeof p->title[p->count], "%s", levels[l].title);
            else
                snprintf(p->title[p->count], sizeof p->title[p->count], "%s (%zu of %zu)", levels[l].title,
                         part + 1, parts);
            p->titles[p->count] = p->title[p->count];
        }
        for (size_t i = 0; i < n; i++)
            if (level_of(names[i]) == l) {
                size_t k = first + seen++ / per;
                panel[i] = (int)(k < PLOT_MAX_PANELS ? k : PLOT_MAX_PANELS - 1);
            }
    }
}

const char *report_repo_path(const char *file)
{
#ifdef SCANLAB_SOURCE_ROOT
    size_t root = strlen(SCANLAB_SOURCE_ROOT);
    if (strncmp(file, SCANLAB_SOURCE_ROOT, root) == 0 && file[root] == '/')
        return file + root + 1;
#endif
    for (;;) {
        if (strncmp(file, "./", 2) == 0)
            file += 2;
        else if (strncmp(file, "../", 3) == 0)
            file += 3;
        else
            return file;
    }
}

static bool same_bound(const report_err_series *a, const report_err_series *b)
{
    return a->n == b->n && memcmp(a->bound, b->bound, a->n * sizeof a->bound[0]) == 0;
}

size_t report_error_series(report_err_series *e, size_t n, plot_style style, plot_series *ser,
                           report_panels *panels)
{
    const char **names = calloc(n + 1, sizeof *names);
    int *group = malloc((n + 1) * sizeof *group), *panel = malloc((n + 1) * sizeof *panel);
    size_t algos = 0, m = 0;
    if (!names || !group || !panel) {
        free(names);
        free(group);
        free(panel);
        memset(panels, 0, sizeof *panels);
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        size_t g = 0;
        while (g < algos && strcmp(names[g], e[i].algo) != 0)
            g++;
        if (g == algos)
            names[algos++] = e[i].algo;
        group[i] = (int)g;
    }
    report_panels_make(panels, names, algos, panel);
    for (size_t i = 0; i < n; i++) {
        int variant = 0; /* the backends of one algorithm, in order */
        for (size_t j = 0; j < i; j++)
            variant += group[j] == group[i];
        ser[m++] = (plot_series){e[i].label, e[i].x, e[i].y, e[i].n, NULL, style, group[i], panel[group[i]],
                                 variant};
    }
    for (size_t i = 0; i < n; i++) {
        int p = panel[group[i]];
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++)
            seen = panel[group[j]] == p && same_bound(&e[j], &e[i]);
        if (seen)
            continue;
        size_t others = 0;
        for (size_t j = i + 1; j < n; j++) {
            bool counted = false; /* one per algorithm */
            for (size_t k = i + 1; k < j && !counted; k++)
                counted = group[k] == group[j] && panel[group[k]] == p && same_bound(&e[k], &e[i]);
            others += panel[group[j]] == p && group[j] != group[i] && !counted && same_bound(&e[j], &e[i]);
        }
        if (others)
            snprintf(e[i].bound_label, sizeof e[i].bound_label, "bound D: %s and %zu more", e[i].algo, others);
        else
            snprintf(e[i].bound_label, sizeof e[i].bound_label, "bound D: %s", e[i].algo);
        ser[m++] = (plot_series){e[i].bound_label, e[i].x, e[i].bound, e[i].n, NULL, PLOT_DASHED, group[i], p, 0};
    }
    free(names);
    free(group);
    free(panel);
    return m;
}
