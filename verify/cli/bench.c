/* What every backend's benchmark shares: the clock, the median, and the
 * table or JSON document the rows are printed as. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "verify/cli/bench.h"
#include "verify/formats/json.h"

double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double bench_median(double *v, size_t count)
{
    if (count == 0)
        return 0.0;
    qsort(v, count, sizeof *v, cmp_double);
    return count % 2 ? v[count / 2] : 0.5 * (v[count / 2 - 1] + v[count / 2]);
}

void bench_report(const bench_options *o, const bench_row *rows, size_t count, int reps)
{
    const char *type = verify_type_name(o->type), *op = verify_op_name(o->op);
    if (o->w) {
        json_writer *w = o->w;
        for (size_t i = 0; i < count; i++) {
            json_begin_object(w, NULL);
            json_string(w, "algo", rows[i].algo);
            json_string(w, "backend", rows[i].backend);
            json_string(w, "type", type);
            json_string(w, "op", op);
            json_bool(w, "exclusive", o->exclusive);
            json_uint(w, "n", o->n);
            json_int(w, "threads", rows[i].threads);
            json_int(w, "repeat", reps);
            json_double(w, "median_ms", rows[i].median_ms);
            json_double(w, "gbps", rows[i].gbps);
            json_double(w, "frac_of_copy", rows[i].frac_of_copy);
            json_end_object(w);
        }
        return;
    }
    printf("n = %zu, %s %s, %s; GB/s counts 2 * n * %u bytes; median of %d repetitions\n\n",
           o->n, type, op, o->exclusive ? "exclusive" : "inclusive", SL_TYPE_SIZE(o->type), reps);
    printf("%-22s %-7s %7s %11s %8s %8s\n", "algorithm", "backend", "threads", "median ms", "GB/s",
           "of copy");
    for (size_t i = 0; i < count; i++)
        printf("%-22s %-7s %7d %11.3f %8.2f %8.3f\n", rows[i].algo, rows[i].backend, rows[i].threads,
               rows[i].median_ms, rows[i].gbps, rows[i].frac_of_copy);
}
