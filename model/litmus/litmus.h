/* Litmus tests in the herd/Dat3M PTX format (docs/memory-model.md,
 * "Litmus tests"): a few threads, each a column of PTX instructions and a
 * placement (P0@cta 0,gpu 0), an initial state, and a final condition.
 * A test becomes a tiny PTX kernel whose threads sit in the blocks the
 * header names; the explorer enumerates every execution the simulator's
 * memory model allows and collects the final states. */
#ifndef SCANLAB_LITMUS_H
#define SCANLAB_LITMUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define LIT_MAX_THREADS 8
#define LIT_MAX_LOCS 16
#define LIT_MAX_REGS 16   /* per thread */
#define LIT_MAX_INSNS 64  /* per thread */
#define LIT_MAX_NODES 256 /* nodes of the condition */
/* Turns an execution may take before it is cut (a loop): `scanlab litmus`
 * without --bound, and the report */
#define LIT_DEFAULT_BOUND 200
/* Paths (replays) one test may take before its exploration stops: spin
 * loops of several threads multiply the interleavings up to the bound */
#define LIT_MAX_PATHS 20000
/* The threads of a warp: a litmus thread is lane 0 of one (parse.c) */
#define LIT_WARP 32

typedef enum { LIT_EXISTS, LIT_NOT_EXISTS, LIT_FORALL } lit_quant;

/* A term of the condition: a thread's register, a location, a constant. */
typedef struct {
    enum { LIT_T_REG, LIT_T_LOC, LIT_T_CONST } kind;
    int thread, index; /* register: thread and its register index; location: its index */
    int64_t value;
} lit_term;

typedef struct {
    enum { LIT_C_TRUE, LIT_C_EQ, LIT_C_NE, LIT_C_NOT, LIT_C_AND, LIT_C_OR } op;
    int a, b;          /* children (node indices) of NOT, AND, OR */
    lit_term l, r;     /* EQ, NE */
} lit_node;

typedef struct {
    char name[64];
    unsigned cta, gpu;      /* as the header says */
    unsigned block, lane;   /* where the kernel runs it */
    unsigned ninsns;
    char *insn[LIT_MAX_INSNS]; /* the column's cells, trimmed, empty ones left out */
    unsigned nregs;
    char reg[LIT_MAX_REGS][16];
    int64_t reg_init[LIT_MAX_REGS];
} lit_thread;

typedef struct {
    char name[96];
    char path[512];
    unsigned nthreads;
    lit_thread th[LIT_MAX_THREADS];
    unsigned nblocks, block_threads; /* the grid: blocks, threads per block (a warp per thread of the largest CTA) */
    unsigned ngpus;          /* GPUs the header names */
    unsigned blocks_per_gpu; /* several GPUs: each GPU's blocks (a simulated device each); 0: one GPU */
    unsigned nlocs;
    char loc[LIT_MAX_LOCS][32];
    int64_t loc_init[LIT_MAX_LOCS];
    lit_quant quant;
    lit_node node[LIT_MAX_NODES];
    unsigned nnodes, root;
    /* what the condition names, in the order it first names them */
    lit_term named[LIT_MAX_NODES];
    unsigned nnamed;
    /* non-empty: what the test uses that the simulator does not model
     * (proxies, textures, surfaces, several GPUs...); never answered */
    char unsupported[400];
    int barrier_id; /* the id of the test's bar.sync, -1 when none (set by lit_ptx) */
} lit_test;

/* Parses a test from text (path names it in messages). Returns 0, or -1
 * with one "path:line: message" in err (a file that is not a test). A
 * test that parses but uses what is not modelled returns 0 with
 * t->unsupported set. */
int lit_parse(const char *text, const char *path, lit_test *t, char *err, size_t errlen);
int lit_parse_file(const char *path, lit_test *t, char *err, size_t errlen);
/* The same for a progress test (scanlab deadlock --litmus): a file in the
 * format above, or one of Sorensen et al.'s tests (alloy.c), told apart by
 * its content. */
int lit_parse_progress_file(const char *path, lit_test *t, char *err, size_t errlen);

/* Sorensen et al.'s progress tests (OOPSLA 2021 artifact, alloy.c): whether
 * text is one (its first line THREADk), and the test it is, its threads
 * T0, T1... each in a block of its own (0, or -1 with "path:line: message"
 * in err). */
bool lit_alloy_recognise(const char *text);
int lit_alloy_parse(const char *text, const char *path, lit_test *t, char *err, size_t errlen);

/* The whole file at path, NUL-terminated (malloc'ed; its length, the NUL
 * aside, in *len), or NULL with *why: LIT_READ_OPEN (errno says why),
 * LIT_READ_BIG (more than max bytes), LIT_READ_NOMEM, LIT_READ_IO. */
enum { LIT_READ_OPEN = 1, LIT_READ_BIG, LIT_READ_NOMEM, LIT_READ_IO };
char *lit_read_text(const char *path, size_t max, size_t *len, int *why);
void lit_free(lit_test *t);

/* A location or register by name: its index, or -1 (create: added). */
int lit_loc_index(lit_test *t, const char *name, bool create);
int lit_reg_index(lit_thread *th, const char *name, bool create);

/* The kernel of the test as PTX text (malloc'ed), entry "litmus", params
 * (u64 mem, u64 out): location i at mem + 4 i, each thread's private word
 * after them, thread k's register j stored at out + 4 (k LIT_MAX_REGS + j).
 * NULL with a message in err when an instruction cannot be translated
 * (t->unsupported is set then). */
char *lit_ptx(lit_test *t, char *err, size_t errlen);
/* The test's kernel (lit_ptx) loaded into the simulator's PTX front end,
 * or NULL with a message in err (model/litmus/explore.c: the GPU runner,
 * which compiles this header without the simulator, never calls it). */
struct ptx_module;
struct ptx_module *lit_module(lit_test *t, char *err, size_t errlen);
/* How a column names location i: [%base+4 i] in the kernel above; [%a<i>],
 * a register holding its address, in the GPU campaign's kernel
 * (tools/litmus_gpu), where every instance of a test has locations of its
 * own. */
typedef enum { LIT_ADDR_BASE, LIT_ADDR_REGS } lit_addr_mode;
/* Thread k's column alone as PTX (malloc'ed), as lit_ptx translates it:
 * registers %v<k LIT_MAX_REGS + j>, scratch %x and %p, labels L<k>_*,
 * bar.sync as "call litmus_bar;" (t->barrier_id records its id: set it to
 * -1 before the first column). NULL with a message in err when an
 * instruction cannot be translated (t->unsupported is set then). */
char *lit_ptx_column(lit_test *t, unsigned k, lit_addr_mode mode, char *err, size_t errlen);
/* The value of the condition's body on a final state. */
bool lit_eval(const lit_test *t, const int64_t *regs /* [thread][LIT_MAX_REGS] */, const int64_t *locs);

/* What a test of the project's set (tests/litmus/tests) states in its
 * quoted comments (stated.c): "expected: V (reason)", the PTX memory
 * model's verdict, and, where scanlab's model is known to differ,
 * "model: V: reason", the verdict the model gives and why. The files are
 * the one list of known differences: the test `litmus` and the report's
 * litmus section read these lines. */
typedef struct {
    char expected[16]; /* "" when the file states none */
    char expected_why[400];
    char model[16];    /* "" when no difference is stated */
    char model_why[400];
} lit_stated;
/* Reads them from the file at path: 0, or -1 when it cannot be read. */
int lit_stated_read(const char *path, lit_stated *s);

/* ---- the explorer (explore.c) ---- */
/* One final state: the values of what the condition names (t->named),
 * how many executions end in it, and whether the condition's body holds. */
typedef struct {
    int64_t v[LIT_MAX_NODES];
    uint64_t count;
    bool sat;
} lit_outcome;

typedef struct {
    lit_outcome *out;
    unsigned nout, capout;
    uint64_t executions; /* complete executions, each counted in one outcome */
    uint64_t pruned;     /* paths cut as equivalent to one explored (sleep sets) */
    uint64_t bounded;    /* executions cut at the bound on turns (loops) */
    uint64_t stuck;      /* executions that stopped on a finding */
    uint64_t hangs;      /* executions that never end: every thread left waits at a barrier that cannot complete
                          * (not outcomes: the verdict is over the executions that end, as in Dat3M) */
    uint64_t racy;       /* executions with a data race */
    bool capped;         /* stopped after LIT_MAX_PATHS paths: not every execution explored */
    char finding[400];   /* the first finding's text */
    bool exists;         /* some complete execution satisfies the body */
    bool all;            /* every complete execution satisfies it (true when every execution hangs) */
    double seconds;
} lit_result;

/* Runs every execution of t that the simulator's memory model allows (by
 * replay, one thread a turn, with sleep sets so that executions that
 * differ only in the order of independent events run once), at most
 * max_turns turns each. Returns 0, or -1 with a message in err (the
 * kernel could not be made or launched). */
int lit_explore(lit_test *t, unsigned max_turns, lit_result *r, char *err, size_t errlen);
void lit_result_free(lit_result *r);

#endif
