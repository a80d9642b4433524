/* The run's record: every launch with its counts and findings, written
 * when the program exits, as text (to SCANLAB_RUN_REPORT for scanlab run
 * to print, else to stderr) and as one JSON document (SCANLAB_RUN_JSON). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/rt.h"

/* Launches listed one by one in the text; the JSON lists every one. */
#define TEXT_LAUNCHES 200

static rt_launch_rec *log_recs;
static size_t nrecs, caprecs;
static bool overflow;

void rt_log_add(const rt_launch_rec *r)
{
    if (nrecs == caprecs) {
        const size_t c = caprecs ? caprecs * 2 : 64;
        rt_launch_rec *n = realloc(log_recs, c * sizeof *n);
        if (!n) {
            overflow = true;
            return;
        }
        log_recs = n;
        caprecs = c;
    }
    log_recs[nrecs++] = *r;
}

static uint64_t total_findings(void)
{
    uint64_t f = 0;
    for (size_t i = 0; i < nrecs; i++)
        f += log_recs[i].findings;
    return f;
}

/* A kernel's name for the table: without its return type and parameter
 * list, template arguments nested deeper than one level as <...>, at most
 * NAME_WIDTH characters (the JSON has the whole name). */
#define NAME_WIDTH 140
static void short_name(const char *full, char *out, size_t size)
{
    const char *s = strncmp(full, "void ", 5) == 0 ? full + 5 : full;
    /* the parameter list: the last '(' at template depth 0 */
    const char *end = s + strlen(s);
    int depth = 0;
    for (const char *p = s; *p; p++) {
        depth += *p == '<' ? 1 : *p == '>' ? -1 : 0;
        if (*p == '(' && depth == 0)
            end = p;
    }
    size_t k = 0;
    depth = 0;
    for (const char *p = s; p < end && k + 4 < size; p++) {
        if (*p == '<' && ++depth == 2) {
            memcpy(out + k, "<...", 4);
            k += 4;
        } else if (*p == '>' && depth-- == 2) {
            out[k++] = '>';
        } else if (depth < 2) {
            out[k++] = *p;
        }
    }
    out[k] = '\0';
    if (k > NAME_WIDTH)
        memcpy(out + NAME_WIDTH - 3, "...", 4);
}

static void write_text(FILE *f)
{
    /* the header scanlab run reads (not printed): only where it reads it */
    if (f != stderr)
        fprintf(f, "scanlab-run launches=%zu findings=%llu refused=%u\n", nrecs, (unsigned long long)total_findings(),
            rt_nrefused);
    fprintf(f, "%zu launch%s on the simulator (%s)\n", nrecs, nrecs == 1 ? "" : "es",
            rt_cfg.device ? rt_cfg.device->gpu : "no device measured");
    for (size_t i = 0; i < nrecs; i++) {
        const rt_launch_rec *r = &log_recs[i];
        if (i < TEXT_LAUNCHES || r->findings || r->text) {
            char name[512];
            short_name(r->kernel, name, sizeof name);
            fprintf(f, "launch %zu: %s grid (%u,%u,%u) block (%u,%u,%u) shared %zu: %llu instructions, %llu barriers, "
                       "%llu bank conflicts, %llu+%llu global sectors (ld+st)",
                    i + 1, name, r->grid.x, r->grid.y, r->grid.z, r->block.x, r->block.y, r->block.z, r->shared,
                    (unsigned long long)r->instructions, (unsigned long long)r->barriers,
                    (unsigned long long)r->bank_conflicts, (unsigned long long)r->global_ld_sectors,
                    (unsigned long long)r->global_st_sectors);
            if (r->predicted_ns > 0)
                fprintf(f, ", predicted %.1f us", r->predicted_ns / 1e3);
            if (r->schedules > 1)
                fprintf(f, ", %u schedules", r->schedules);
            fprintf(f, "%s\n", r->stopped ? " (stopped)" : "");
        } else if (i == TEXT_LAUNCHES) {
            fprintf(f, "... (launches after %d without a finding are in --json)\n", TEXT_LAUNCHES);
        }
        if (r->search)
            fputs(r->search, f);
        if (r->text)
            fputs(r->text, f);
    }
    for (unsigned i = 0; i < rt_nrefused; i++)
        fprintf(f, "not supported: %s (the call returned cudaErrorNotSupported)\n", rt_refused[i]);
    if (overflow)
        fprintf(f, "note: out of memory for the launch log: launches are missing from it\n");
}

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        const unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", f);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

/* A launch's counts loads and stores apart, with the fields tools that
 * hold them against Nsight Compute's need (docs/run.md). */
static void write_split(FILE *f, const model_launch_counts *c)
{
    fprintf(f, ", \"shared_load_wavefronts\": %llu, \"shared_store_wavefronts\": %llu, "
               "\"shared_load_conflicts\": %llu, \"shared_store_conflicts\": %llu, "
               "\"global_poll_sectors\": %llu, \"global_atom_sectors\": %llu",
            (unsigned long long)c->shared_ld_wavefronts, (unsigned long long)c->shared_st_wavefronts,
            (unsigned long long)c->shared_ld_conflicts, (unsigned long long)c->shared_st_conflicts,
            (unsigned long long)c->global_poll_sectors, (unsigned long long)c->global_atom_sectors);
}

static void write_json(FILE *f)
{
    fprintf(f, "{\"device\": ");
    json_str(f, rt_cfg.device ? rt_cfg.device->gpu : "");
    fprintf(f, ", \"findings\": %llu, \"launches\": [", (unsigned long long)total_findings());
    for (size_t i = 0; i < nrecs; i++) {
        const rt_launch_rec *r = &log_recs[i];
        fprintf(f, "%s\n  {\"kernel\": ", i ? "," : "");
        json_str(f, r->kernel);
        fprintf(f, ", \"grid\": [%u, %u, %u], \"block\": [%u, %u, %u], \"shared\": %zu, \"instructions\": %llu, "
                   "\"barriers\": %llu, \"shared_wavefronts\": %llu, \"bank_conflicts\": %llu, "
                   "\"global_load_sectors\": %llu, \"global_store_sectors\": %llu, \"predicted_ns\": %.1f, "
                   "\"schedules\": %u, \"races\": %llu, \"findings\": %llu, \"stopped\": %s, \"messages\": ",
                r->grid.x, r->grid.y, r->grid.z, r->block.x, r->block.y, r->block.z, r->shared,
                (unsigned long long)r->instructions, (unsigned long long)r->barriers,
                (unsigned long long)r->shared_wavefronts, (unsigned long long)r->bank_conflicts,
                (unsigned long long)r->global_ld_sectors, (unsigned long long)r->global_st_sectors, r->predicted_ns,
                r->schedules, (unsigned long long)r->races, (unsigned long long)r->findings,
                r->stopped ? "true" : "false");
        json_str(f, r->text);
        fprintf(f, ", \"search\": ");
        json_str(f, r->search);
        write_split(f, &r->split);
        fputc('}', f);
    }
    fprintf(f, "\n], \"not_supported\": [");
    for (unsigned i = 0; i < rt_nrefused; i++) {
        fputs(i ? ", " : "", f);
        json_str(f, rt_refused[i]);
    }
    fprintf(f, "]}\n");
}

/* At exit (after the program's own exit handlers, which may still free
 * memory or synchronise): the record, if the program used the runtime. */
__attribute__((destructor)) static void rt_report(void)
{
    rt_init();
    if (nrecs == 0 && rt_nrefused == 0 && !rt_cfg.report)
        return;
    FILE *f = rt_cfg.report ? fopen(rt_cfg.report, "a") : stderr;
    if (!f) {
        fprintf(stderr, "scanlab: runtime: cannot write the report to %s\n", rt_cfg.report);
        f = stderr;
    }
    write_text(f);
    if (f != stderr)
        fclose(f);
    if (rt_cfg.json) {
        FILE *j = fopen(rt_cfg.json, "w");
        if (j) {
            write_json(j);
            if (fclose(j) != 0)
                fprintf(stderr, "scanlab: runtime: writing %s failed\n", rt_cfg.json);
        } else {
            fprintf(stderr, "scanlab: runtime: cannot write %s\n", rt_cfg.json);
        }
    }
}
