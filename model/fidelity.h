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
    /* conflict rows ("measured_own"): the conflicts of the kernel's own
     * shared instructions, the counter less the wavefronts that other
     * traffic through the L1 data banks added */
    bool has_own;
    double own;
} model_fid_row;

typedef struct {
    char device[96], date[16];
    model_fid_row *rows;
    size_t nrows;
} model_fid;

/* The time metric, and the goals of docs/model-fidelity.md. */
#define MODEL_FID_TIME "gpu__time_duration.sum"
/* Shared wavefronts and conflicts as the l1tex counters give them (also
 * counting what other traffic cost the shared instructions), and the
 * wavefronts of the kernel's own shared instructions (SASS-attributed). */
#define MODEL_FID_CONFLICTS_LD "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"
#define MODEL_FID_CONFLICTS_ST "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"
#define MODEL_FID_WAVEFRONTS_LD "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
#define MODEL_FID_WAVEFRONTS_ST "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"
#define MODEL_FID_OWN_WAVEFRONTS_LD "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
#define MODEL_FID_OWN_WAVEFRONTS_ST "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum"
/* Global sectors (global load rows of polling kernels carry poll_sectors). */
#define MODEL_FID_SECTORS_LD "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
#define MODEL_FID_SECTORS_ST "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"
#define MODEL_FID_BIG_BYTES (1024.0 * 1024.0)
#define MODEL_FID_TIME_TOLERANCE 0.25

/* Reads path into f. SL_ERR_IO when it cannot be read (no GPU run recorded),
 * SL_ERR_ARG when it is not such a file (message on stderr), SL_ERR_NOMEM. */
sl_status model_fid_load(const char *path, model_fid *f);
void model_fid_free(model_fid *f);

/* Per metric: launches compared and predicted exactly; for the conflicts,
 * also over the rows that carry the conflicts of the kernel's own
 * instructions, predicted equal to those (own_total 0: none carry it). */
typedef struct {
    const char *metric;       /* points into the rows of the file summarised */
    size_t exact, total;
    size_t own_exact, own_total;
} model_fid_metric;

/* Whole i32 scans at n >= 2^24: the sum of a scan's time rows. */
#define MODEL_FID_PAIRS_MIN_N ((uint64_t)1 << 24)
typedef struct {
    char algo[40];
    uint64_t n;
    double predicted, measured;  /* ns */
    bool complete;               /* every row had a prediction */
} model_fid_scan;

/* The pairs of such scans at one n, and those in the right order. */
typedef struct {
    uint64_t n;
    size_t pairs, right;
} model_fid_pairs;

typedef struct {
    model_fid_metric metric[16];
    size_t nmetrics;
    /* launches whose l1tex shared wavefronts and conflicts (loads and
     * stores) were all measured, those predicted exactly, their kernels
     * (whatever the type) */
    size_t shared_exact, shared_total, shared_kernels;
    /* launches with the wavefronts of the kernel's own shared instructions
     * and the conflicts of those (measured_own on both conflict rows), all
     * four predicted exactly, their kernels; own_total 0: not measured */
    size_t own_exact, own_total, own_kernels;
    /* launches with all six of the l1tex shared wavefronts and conflicts
     * (loads and stores) and the global load and store sectors measured:
     * those all predicted exactly; of the others, those differing only
     * where the GPU's count depends on timing (a shared count beside the
     * kernel's own exact: other traffic; a polling kernel's load sectors)
     * and the rest; and those exact with each shared count held to the
     * kernel's own instructions' (polls still differences), as
     * tools/fidelity_data.py's six_counts */
    size_t six_total, six_equal, six_timing, six_code, six_own_equal;
    /* time: launches moving more than 1 MB, those within 25%, the median
     * of |predicted - measured| / measured over them */
    size_t time_big, time_within;
    double time_median_error;
    /* whole i32 scans at n >= 2^24: pairs compared, in the right order,
     * in all and per n (increasing; the first 8 sizes) */
    size_t pairs, pairs_right;
    model_fid_pairs pairs_n[8];
    size_t npairs_n;
} model_fid_summary;

/* Summarises f's rows (those with a measurement). SL_ERR_NOMEM. */
sl_status model_fid_summarise(const model_fid *f, model_fid_summary *s);

/* The whole i32 scans at n >= 2^24 of f (rows with a measurement), by n
 * and then measured time, into *scans (free it); *count 0 and *scans NULL
 * when there are none. SL_ERR_NOMEM. */
sl_status model_fid_scans(const model_fid *f, model_fid_scan **scans, size_t *count);

#endif
