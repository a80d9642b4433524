/* Float add-scan runs against the exact reference, shared by the report's
 * accuracy sections (docs/accuracy.md). */
#include <stdlib.h>
#include <string.h>

#include "verify/harness/accuracy.h"
#include "verify/harness/accuracy_inputs.h"
#include "verify/harness/algos.h"
#include "verify/harness/ref_exact.h"
#include "verify/report/report.h"

void report_float_input_free(report_float_input *in)
{
    free(in->x);
    free(in->exact);
    free(in->abs_prefix);
    memset(in, 0, sizeof *in);
}

sl_status report_float_input_make(sl_type t, size_t n, uint64_t seed, report_float_input *in)
{
    size_t es = SL_TYPE_SIZE(t);
    memset(in, 0, sizeof *in);
    in->type = t;
    in->n = n;
    in->x = malloc(n * es + 1);
    in->exact = malloc(n * es + 1);
    in->abs_prefix = malloc(n * sizeof *in->abs_prefix + 1);
    sl_status st = in->x && in->exact && in->abs_prefix ? SL_OK : SL_ERR_NOMEM;
    if (st == SL_OK)
        st = verify_accuracy_fill(t, ACC_DIST_UNIFORM01, 1.0, seed, n, in->x);
    if (st == SL_OK)
        st = verify_exact_scan(t, false, in->x, n, in->exact, in->abs_prefix);
    if (st != SL_OK)
        report_float_input_free(in);
    return st;
}

sl_status report_float_errors(const void *algo, int backend, const report_float_input *in, double *ulps,
                              double *eta)
{
    const verify_algo *a = algo;
    void *out = malloc(in->n * SL_TYPE_SIZE(in->type) + 1);
    if (!out)
        return SL_ERR_NOMEM;
    sl_scan_args args = {.type = in->type, .op = SL_ADD, .in = in->x, .out = out, .n = in->n};
    sl_status st = a->run[backend](&args);
    if (st == SL_OK)
        verify_accuracy_errors(in->type, out, in->exact, in->abs_prefix, in->n, ulps, eta);
    free(out);
    return st;
}
