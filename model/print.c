/* A readable table of a run's counts, worst sites and findings. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "model/timemodel.h"

#define WORST_SITES 5

/* Most conflicts first; ties by file and line, so that the table does not
 * depend on the order in which sites were first seen. */
static int cmp_conflicts(const void *a, const void *b)
{
    const model_site_stats *x = *(model_site_stats *const *)a, *y = *(model_site_stats *const *)b;
    if (x->bank_conflicts != y->bank_conflicts)
        return x->bank_conflicts < y->bank_conflicts ? 1 : -1;
    int c = strcmp(x->site->file, y->site->file);
    if (c != 0)
        return c;
    return (x->site->line > y->site->line) - (x->site->line < y->site->line);
}

void model_print(FILE *f, const model_stats *s)
{
    fprintf(f, "%-24s %llu\n", "launches", (unsigned long long)s->launches);
    fprintf(f, "%-24s %llu\n", "blocks", (unsigned long long)s->blocks);
    fprintf(f, "%-24s %llu\n", "work", (unsigned long long)s->work);
    fprintf(f, "%-24s %llu\n", "steps", (unsigned long long)s->steps);
    fprintf(f, "%-24s %llu\n", "barriers", (unsigned long long)s->barriers);
    fprintf(f, "%-24s %llu\n", "shared accesses", (unsigned long long)s->shared_accesses);
    fprintf(f, "%-24s %llu\n", "shared wavefronts", (unsigned long long)s->shared_wavefronts);
    fprintf(f, "%-24s %llu\n", "bank conflicts", (unsigned long long)s->bank_conflicts);
    fprintf(f, "%-24s %llu elements, %llu sectors\n", "global loads", (unsigned long long)s->global_load_elems,
            (unsigned long long)s->global_load_sectors);
    fprintf(f, "%-24s %llu elements, %llu sectors\n", "global stores", (unsigned long long)s->global_store_elems,
            (unsigned long long)s->global_store_sectors);
    fprintf(f, "%-24s %llu of %llu\n", "divergent issues", (unsigned long long)s->divergent_issues,
            (unsigned long long)s->warp_issues);
    fprintf(f, "%-24s %llu\n", "divergent branches", (unsigned long long)s->divergent_branches);
    fprintf(f, "%-24s %llu\n", "races", (unsigned long long)s->races);
    fprintf(f, "%-24s %llu\n", "barrier divergence", (unsigned long long)s->barrier_divergence);
    fprintf(f, "%-24s %llu\n", "deadlocks", (unsigned long long)s->deadlocks);
    if (s->nlaunch_records) {
        fprintf(f, "\n%-36s %8s %13s %12s %8s %10s  %s\n", "launch", "blocks", "threads/block", "work", "steps",
                "barriers", "role");
        for (size_t i = 0; i < s->nlaunch_records; i++) {
            const model_launch_stats *l = &s->launch[i];
            fprintf(f, "%-36s %8u %13u %12llu %8llu %10llu  %s\n", l->name, l->blocks, l->threads_per_block,
                    (unsigned long long)l->work, (unsigned long long)l->steps, (unsigned long long)l->barriers,
                    l->role ? l->role : "-");
        }
    }
    if (s->nlaunch_records) {
        fprintf(f, "\nper launch, as Nsight Compute counts (shared: warp-level instructions, wavefronts, conflicts;\n"
                   "global: 32-byte sectors; chain: cross-block waits in series):\n");
        fprintf(f, "%-36s %15s %15s %15s %15s %11s %6s\n", "launch", "shared ld", "shared st", "global ld", "global st",
                "div branch", "chain");
        for (size_t i = 0; i < s->nlaunch_records; i++) {
            const model_launch_counts *c = &s->launch[i].c;
            char ld[48], st[48];
            snprintf(ld, sizeof ld, "%llu/%llu/%llu", (unsigned long long)c->shared_ld,
                     (unsigned long long)c->shared_ld_wavefronts, (unsigned long long)c->shared_ld_conflicts);
            snprintf(st, sizeof st, "%llu/%llu/%llu", (unsigned long long)c->shared_st,
                     (unsigned long long)c->shared_st_wavefronts, (unsigned long long)c->shared_st_conflicts);
            fprintf(f, "%-36s %15s %15s %15llu %15llu %11llu %6llu\n", s->launch[i].name, ld, st,
                    (unsigned long long)c->global_ld_sectors, (unsigned long long)c->global_st_sectors,
                    (unsigned long long)c->divergent_branches, (unsigned long long)c->chain);
        }
    }
    const model_site_stats **worst = malloc((s->nsites + 1) * sizeof *worst);
    size_t nw = 0;
    for (size_t i = 0; worst && i < s->nsites; i++)
        if (s->sites[i].site && s->sites[i].bank_conflicts)
            worst[nw++] = &s->sites[i];
    if (nw) {
        qsort(worst, nw, sizeof *worst, cmp_conflicts);
        fprintf(f, "\nworst bank-conflict sites (degree = most wavefronts in one access):\n");
        for (size_t i = 0; i < nw && i < WORST_SITES; i++)
            fprintf(f, "  %s:%d %-4s conflicts %llu over %llu accesses, degree %llu\n", worst[i]->site->file,
                    worst[i]->site->line, worst[i]->site->what, (unsigned long long)worst[i]->bank_conflicts,
                    (unsigned long long)worst[i]->shared_accesses, (unsigned long long)worst[i]->worst_degree);
    }
    free(worst);
    bool probes = false;
    for (size_t i = 0; i < s->nsites; i++)
        if (s->sites[i].site && s->sites[i].probes) {
            if (!probes)
                fprintf(f, "\nprotocol states reached (PROBE sites):\n");
            probes = true;
            fprintf(f, "  %-40s %10llu  %s:%d\n", s->sites[i].site->what, (unsigned long long)s->sites[i].probes,
                    s->sites[i].site->file, s->sites[i].site->line);
        }
    for (uint64_t i = 0; i < s->races && i < MODEL_MAX_REPORTS; i++)
        fprintf(f, "%s%s\n", i ? "" : "\n", s->race[i].text);
    if (s->has_error)
        fprintf(f, "\nerror: %s\n", s->error.text);
}

uint64_t model_findings(const model_stats *s, bool allow_races)
{
    uint64_t n = s->barrier_divergence + s->deadlocks + s->oob + s->misaligned + s->warp_errors + s->narrow_index +
                 s->undefined;
    if (!allow_races)
        n += s->races;
    /* a launch stopped for another cause (a limit, a stack overflow) */
    if (n == 0 && s->has_error)
        n = 1;
    return n;
}

static void print_finding(FILE *f, const model_finding *x)
{
    if (x->site[0])
        fprintf(f, "%s:%d: error: %s\n", x->site[0]->file, x->site[0]->line, x->text);
    else
        fprintf(f, "scanlab: error: %s\n", x->text);
}

void model_print_findings(FILE *f, const model_stats *s)
{
    for (uint64_t i = 0; i < s->races && i < MODEL_MAX_REPORTS; i++)
        print_finding(f, &s->race[i]);
    if (s->races > MODEL_MAX_REPORTS)
        fprintf(f, "scanlab: error: %llu more races not shown\n",
                (unsigned long long)(s->races - MODEL_MAX_REPORTS));
    if (s->has_error)
        print_finding(f, &s->error);
}

void model_time_print(FILE *f, const model_stats *s, const model_device *d)
{
    if (!d) {
        fprintf(f, "\npredicted time: no GPU measured yet (tools/gpu-check.sh fidelity measures one)\n");
        return;
    }
    if (!s->nlaunch_records)
        return;
    fprintf(f, "\npredicted time on %s (%s; constants measured %s):\n", d->name, d->gpu, d->measured);
    fprintf(f, "%-36s %12s %10s %10s %10s %10s %10s %10s  %s\n", "launch", "total us", "launch", "memory",
            "shared", "barrier", "latency", "chain", "bound");
    double sum = 0;
    for (size_t i = 0; i < s->nlaunch_records; i++) {
        model_time t = model_time_predict(d, &s->launch[i]);
        sum += t.total;
        fprintf(f, "%-36s %12.2f %10.2f %10.2f %10.2f %10.2f %10.2f %10.2f  %s\n", s->launch[i].name,
                t.total / 1e3, t.launch / 1e3, t.memory / 1e3, t.shared / 1e3, t.barrier / 1e3, t.latency / 1e3,
                t.chain / 1e3, t.bound);
    }
    fprintf(f, "%-36s %12.2f%s\n", "all launches", sum / 1e3,
            s->launches > s->nlaunch_records ? " (the recorded launches only)" : "");
}
