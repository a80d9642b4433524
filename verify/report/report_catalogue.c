/* Report section "catalogue": the algorithm table as this build has it,
 * so that every later section's rows can be read against it. */
#include <stdio.h>
#include <string.h>

#include "verify/harness/algos.h"
#include "verify/report/report.h"

static const char *kind_name(sl_algo_kind k)
{
    switch (k) {
    case SL_KIND_SCAN: return "scan";
    case SL_KIND_REDUCE: return "reduce";
    default: return "application";
    }
}

sl_status report_run_catalogue(report_section *s)
{
    static const report_col cols[] = {{"algorithm", "algorithm"}, {"kind", "kind"},
                                      {"backends", "backends (this build)"}, {"summary", "summary"}};
    report_text(s, "Every command walks one algorithm table; a kernel variant is one kernel file plus "
                   "one line in cuda/kernels.def. Backends: seq and omp run on the CPU, sim runs a GPU "
                   "kernel thread by thread in the step-level simulator, cuda runs it on the GPU.");
    report_table *t = report_table_add(s, "catalogue", "The algorithm table", cols, 4);
    if (!t)
        return report_fail(s, SL_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < verify_algo_count; i++) {
        const verify_algo *a = &verify_algos[i];
        char backends[64] = "";
        for (int b = 0; b < SL_BACKEND_COUNT; b++) {
            if (!a->run[b] && !(b == SL_CUDA && a->run[SL_SIM]))
                continue;
            size_t len = strlen(backends);
            snprintf(backends + len, sizeof backends - len, "%s%s%s", len ? ", " : "",
                     verify_backend_name((sl_backend)b),
                     verify_algo_runs_on(a, (sl_backend)b) ? "" : " (not built)");
        }
        if (report_cell(t, "%s", a->name) || report_cell(t, "%s", kind_name(a->kind)) ||
            report_cell(t, "%s", backends) || report_cell(t, "%s", a->summary))
            return report_fail(s, SL_ERR_NOMEM, "out of memory");
    }
    return SL_OK;
}
