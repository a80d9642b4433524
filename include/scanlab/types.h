/* libscanlab: the vocabulary every part shares. Status values, element
 * types, operators, backends, and the arguments of one scan.
 *
 * These declarations mirror the ones the library is built from
 * (cuda/status.h, cuda/ops.h, verify/harness/catalog.h and algos.h);
 * tests/lib checks that their layout and values agree. */
#ifndef SCANLAB_PUBLIC_TYPES_H
#define SCANLAB_PUBLIC_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What every fallible function returns. */
typedef enum {
    SL_OK = 0,
    SL_ERR_ARG,         /* bad argument: the caller's mistake */
    SL_ERR_NOMEM,       /* an allocation failed or would be too large */
    SL_ERR_UNSUPPORTED, /* this algorithm/backend/type/operator is not built */
    SL_ERR_NO_GPU,      /* the CUDA backend is built but no GPU is present */
    SL_ERR_CUDA,        /* a CUDA runtime call failed */
    SL_ERR_TIMEOUT,     /* a bounded spin on the GPU gave up */
    SL_ERR_SIM,         /* the simulator stopped the kernel (out of bounds, deadlock, ...) */
    SL_ERR_IO,          /* a file could not be read or written */
    SL_ERR_CHECK,       /* a check failed */
} sl_status;

/* A short English description of a status value. */
const char *sl_status_str(sl_status s);

/* Element types and scan operators. affine (integers only) composes maps
 * x -> a*x + b: associative, not commutative. */
typedef enum { SL_I32, SL_I64, SL_F32, SL_F64, SL_TYPE_COUNT } sl_type;
typedef enum { SL_ADD, SL_MAX, SL_MIN, SL_AFFINE, SL_OP_COUNT } sl_op;
#define SL_TYPE_SIZE(t) ((t) == SL_I32 || (t) == SL_F32 ? 4u : 8u)

/* Where a scan runs: sequential C, OpenMP, the step-level simulator, a GPU. */
typedef enum { SL_SEQ, SL_OMP, SL_SIM, SL_CUDA, SL_BACKEND_COUNT } sl_backend;

/* Names as the command line spells them ("i32", "add", "sim"). */
const char *verify_type_name(sl_type t);
const char *verify_op_name(sl_op op);
const char *verify_backend_name(sl_backend b);

typedef enum {
    SL_KIND_SCAN,      /* out[0..n) is the inclusive or exclusive scan */
    SL_KIND_REDUCE,    /* out[0] is the reduction */
    SL_KIND_COMPACT,   /* applications built on scan: a uint64_t count, then elements */
    SL_KIND_PARTITION,
    SL_KIND_SORT,
    SL_KIND_PACK,
    SL_KIND_PARTITION_REV,
} sl_algo_kind;

/* One scan's arguments. in and out are host memory of n elements of type
 * (out: 1 element for a reduction); in may equal out. */
typedef struct {
    sl_type type;
    sl_op op;
    bool exclusive;
    const void *in;
    void *out;
    size_t n;
    int threads; /* OpenMP threads; 0 = the runtime's default */
    int block;   /* threads per block for kernels; 0 = the algorithm's default */
    int param;   /* the algorithm's own parameter (radix, passes, ...); 0 = default */
    void *sim;   /* sim backend: where counts go (sl_sim_sink, simulator.h), or NULL */
    int adversary; /* single-pass scans: an adversarial dispatch to emulate (SL_ADVERSARY_*) */
} sl_scan_args;

/* Adversarial dispatches the single-pass scans emulate: none; tiles in the
 * reverse of blockIdx (block-numbered scans); the first half of the blocks
 * starting late (ticketed scans). */
enum { SL_ADVERSARY_NONE, SL_ADVERSARY_REVERSED, SL_ADVERSARY_LATE };

typedef sl_status (*sl_scan_fn)(const sl_scan_args *a);
/* The addition-tree depth behind output i (the float accuracy bound). */
typedef size_t (*sl_depth_fn)(const sl_scan_args *a, size_t i);

/* One entry of the algorithm table: a run function per backend (NULL where
 * that backend does not run it). */
typedef struct {
    const char *name;
    const char *summary;
    sl_algo_kind kind;
    sl_scan_fn run[SL_BACKEND_COUNT];
    sl_depth_fn depth; /* NULL: sequential order */
} verify_algo;

#ifdef __cplusplus
}
#endif

#endif
