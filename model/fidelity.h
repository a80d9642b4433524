/* The recorded comparison of the simulator with a GPU
 * (docs/data/fidelity-<gpu>.json, written by tools/fidelity.sh): its rows
 * and their summary, for `scanlab report`. tools/fidelity_data.py computes
 * the same summary for docs/model-fidelity.md. */
#ifndef SCANLAB_MODEL_FIDELITY_H
#define SCANLAB_MODEL_FIDELITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuda/status.h"

/* One launch and metric. */
typedef struct {
    char algo[40], kernel[64], type[8], metric[72];
    uint64_t n;
    unsigned block;
    int launch;               /* within its case; -1: the case's launches as a whole */
    bool has_predicted, has_measured;
    double predicted, measured;
    double bytes;             /* time rows: global bytes the simulator counted */
    double poll_sectors;      /* global load rows: of the predicted sectors, polls */
} model_fid_row;

typedef struct {
    char device[96], date[16];
    model_fid_row *rows;
    size_t nrows;
} model_fid;

/* The time metric, and the goals of docs/model-fidelity.md. */
#define MODEL_FID_TIME "gpu__time_duration.sum"
#define MODEL_FID_BIG_BYTES (1024.0 * 1024.0)
#define MODEL_FID_TIME_TOLERANCE 0.25

/* Reads path into f. SL_ERR_IO when it cannot be read (no GPU run recorded),
 * SL_ERR_ARG when it is not such a file (message on stderr), SL_ERR_NOMEM. */
sl_status model_fid_load(const char *path, model_fid *f);
void model_fid_free(model_fid *f);

/* Per metric: launches compared and predicted exactly. */
typedef struct {
    const char *metric;
    size_t exact, total;
} model_fid_metric;

typedef struct {
    model_fid_metric metric[16];
    size_t nmetrics;
    /* time: launches moving more than 1 MB, those within 25%, the median
     * of |predicted - measured| / measured over them */
    size_t time_big, time_within;
    double time_median_error;
    /* whole i32 scans at n >= 2^24: pairs compared, in the right order */
    size_t pairs, pairs_right;
} model_fid_summary;

/* Summarises f's rows (those with a measurement). */
void model_fid_summarise(const model_fid *f, model_fid_summary *s);

#endif
