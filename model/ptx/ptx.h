/* The PTX front end: a parsed module and the decoded instructions the
 * interpreter executes (model/ptx/exec.c), one per thread, on the same
 * fibers, memory model and counters as the dialect's kernels.
 *
 * The parser (parse.c, lex.c) turns nvcc's PTX text into this form once:
 * every register a slot of a flat per-thread file, every label an
 * instruction index, every immediate the bits of the type its operand has,
 * every variable a symbol. Nothing is looked up by name while a kernel
 * runs. */
#ifndef SCANLAB_PTX_H
#define SCANLAB_PTX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- the instruction table --------------------------------------------- */
enum {
    PTX_CLASS_ALU,
    PTX_CLASS_MEM,
    PTX_CLASS_SYNC,
    PTX_CLASS_CTRL,
};
typedef enum {
#define PTX_INSN(id, name, cls) PTX_I_##id,
#include "model/ptx/insns.def"
#undef PTX_INSN
    PTX_I_COUNT
} ptx_opcode;
/* "add", "ld", ... by opcode, and each opcode's class. */
extern const char *const ptx_opcode_name[PTX_I_COUNT];
extern const unsigned char ptx_opcode_class[PTX_I_COUNT];

/* ---- types --------------------------------------------------------------- */
typedef enum {
    PTX_T_NONE,
    PTX_T_PRED,
    PTX_T_B8, PTX_T_B16, PTX_T_B32, PTX_T_B64, PTX_T_B128,
    PTX_T_U8, PTX_T_U16, PTX_T_U32, PTX_T_U64,
    PTX_T_S8, PTX_T_S16, PTX_T_S32, PTX_T_S64,
    PTX_T_F16, PTX_T_F16X2, PTX_T_BF16, PTX_T_BF16X2, PTX_T_F32, PTX_T_F64,
    PTX_T_COUNT
} ptx_type;
/* Bytes of a value of type t (a predicate: 1; none: 0). */
unsigned ptx_type_bytes(ptx_type t);
bool ptx_type_signed(ptx_type t); /* .s8 to .s64 */
bool ptx_type_float(ptx_type t);  /* .f16 to .f64, .bf16 */
/* ".u32", ... */
const char *ptx_type_name(ptx_type t);

/* ---- modifiers ------------------------------------------------------------ */
/* Rounding: the float ones and cvt's integer ones. */
enum { PTX_RND_NONE, PTX_RND_RN, PTX_RND_RZ, PTX_RND_RM, PTX_RND_RP, PTX_RND_RNA, PTX_RND_RS,
       PTX_RND_RNI, PTX_RND_RZI, PTX_RND_RMI, PTX_RND_RPI };
/* Comparisons of setp and set (the u-suffixed ones are true when either
 * operand is NaN; lo, ls, hi, hs are the unsigned ones). */
enum { PTX_CMP_NONE, PTX_CMP_EQ, PTX_CMP_NE, PTX_CMP_LT, PTX_CMP_LE, PTX_CMP_GT, PTX_CMP_GE,
       PTX_CMP_LO, PTX_CMP_LS, PTX_CMP_HI, PTX_CMP_HS,
       PTX_CMP_EQU, PTX_CMP_NEU, PTX_CMP_LTU, PTX_CMP_LEU, PTX_CMP_GTU, PTX_CMP_GEU,
       PTX_CMP_NUM, PTX_CMP_NAN };
/* The boolean that combines setp's or set's result with a predicate, and
 * bar.red's and vote's reductions. */
enum { PTX_BOOL_NONE, PTX_BOOL_AND, PTX_BOOL_OR, PTX_BOOL_XOR, PTX_BOOL_POPC };
/* State spaces. */
enum { PTX_SPACE_GENERIC, PTX_SPACE_GLOBAL, PTX_SPACE_SHARED, PTX_SPACE_LOCAL, PTX_SPACE_PARAM,
       PTX_SPACE_CONST, PTX_SPACE_REG };
/* Memory semantics and scopes of ld, st, atom, red and fence. */
enum { PTX_SEM_WEAK, PTX_SEM_VOLATILE, PTX_SEM_RELAXED, PTX_SEM_ACQUIRE, PTX_SEM_RELEASE, PTX_SEM_ACQ_REL,
       PTX_SEM_SC, PTX_SEM_MMIO };
enum { PTX_SCOPE_NONE, PTX_SCOPE_CTA, PTX_SCOPE_CLUSTER, PTX_SCOPE_GPU, PTX_SCOPE_SYS };
/* Sub-operations: which one the `sub` field holds depends on the opcode. */
enum { PTX_SHFL_UP, PTX_SHFL_DOWN, PTX_SHFL_BFLY, PTX_SHFL_IDX };
enum { PTX_VOTE_ALL, PTX_VOTE_ANY, PTX_VOTE_UNI, PTX_VOTE_BALLOT };
enum { PTX_ATOM_ADD, PTX_ATOM_INC, PTX_ATOM_DEC, PTX_ATOM_EXCH, PTX_ATOM_CAS, PTX_ATOM_MIN, PTX_ATOM_MAX,
       PTX_ATOM_AND, PTX_ATOM_OR, PTX_ATOM_XOR };
enum { PTX_MATCH_ANY, PTX_MATCH_ALL };
/* redux.sync: add, min, max, and, or, xor (PTX_ATOM_* values reused). */
enum { PTX_BAR_SYNC, PTX_BAR_ARRIVE, PTX_BAR_RED, PTX_BAR_WARP_SYNC };
enum { PTX_FENCE_SC, PTX_FENCE_ACQ_REL, PTX_FENCE_MEMBAR };
enum { PTX_PRMT_DEFAULT, PTX_PRMT_F4E, PTX_PRMT_B4E, PTX_PRMT_RC8, PTX_PRMT_ECL, PTX_PRMT_ECR, PTX_PRMT_RC16 };
enum { PTX_TESTP_FINITE, PTX_TESTP_INFINITE, PTX_TESTP_NUMBER, PTX_TESTP_NAN, PTX_TESTP_NORMAL,
       PTX_TESTP_SUBNORMAL };
enum { PTX_GDC_WAIT, PTX_GDC_LAUNCH };

/* Flags (ptx_insn.flags). */
#define PTX_F_FTZ 0x1u
#define PTX_F_SAT 0x2u
#define PTX_F_APPROX 0x4u
#define PTX_F_FULL 0x8u
#define PTX_F_HI 0x10u
#define PTX_F_LO 0x20u
#define PTX_F_WIDE 0x40u
#define PTX_F_CC 0x80u       /* add.cc, sub.cc, mad.cc, addc.cc: write the carry */
#define PTX_F_UNI 0x100u     /* bra.uni, call.uni */
#define PTX_F_NC 0x200u      /* ld.global.nc */
#define PTX_F_TO 0x400u      /* cvta.to.<space>: generic to the space */
#define PTX_F_SHIFTAMT 0x800u /* bfind.shiftamt */
#define PTX_F_WRAP 0x1000u   /* shf.wrap (else clamp) */
#define PTX_F_LEFT 0x2000u   /* shf.l (else .r) */
#define PTX_F_ALIGNED 0x4000u /* bar.sync.aligned, barrier.sync.aligned */
#define PTX_F_NAN 0x8000u    /* min.NaN, max.NaN */
#define PTX_F_XORSIGN 0x10000u
#define PTX_F_ABS 0x20000u   /* min.abs, max.abs */
#define PTX_F_RELU 0x40000u  /* cvt.relu, fma.relu */
#define PTX_F_PRED_OUT 0x80000u /* shfl.sync d|p, match d|p: the second destination is present */
#define PTX_F_SYNC 0x100000u /* shfl.sync, vote.sync, ...: the .sync form */
#define PTX_F_NOFTZ 0x200000u

/* ---- operands ------------------------------------------------------------- */
typedef enum {
    PTX_O_NONE,
    PTX_O_REG,   /* a register slot; for a predicate source, neg is '!' */
    PTX_O_IMM,   /* imm: the bits, already of the operand's type */
    PTX_O_SREG,  /* a special register: sreg, comp (0 x, 1 y, 2 z) */
    PTX_O_ADDR,  /* [reg + off], [sym + off], [off]: reg < 0 when absent, sym < 0 when absent */
    PTX_O_VEC,   /* {a, b, c, d}: elems; a sink "_" is a register slot of -1 */
    PTX_O_LABEL, /* target: an instruction index in the same function */
    PTX_O_SYM,   /* a variable's name used as a value: its address in its space (mov %rd, sym) */
    PTX_O_FUNC,  /* call's callee: func, a function index of the module */
} ptx_okind;

/* Special registers. */
typedef enum {
    PTX_SR_TID, PTX_SR_NTID, PTX_SR_CTAID, PTX_SR_NCTAID, /* with comp */
    PTX_SR_LANEID, PTX_SR_WARPID, PTX_SR_NWARPID, PTX_SR_SMID, PTX_SR_NSMID, PTX_SR_GRIDID,
    PTX_SR_LANEMASK_EQ, PTX_SR_LANEMASK_LE, PTX_SR_LANEMASK_LT, PTX_SR_LANEMASK_GE, PTX_SR_LANEMASK_GT,
    PTX_SR_CLOCK, PTX_SR_CLOCK64, PTX_SR_GLOBALTIMER, PTX_SR_DYNAMIC_SMEM_SIZE, PTX_SR_TOTAL_SMEM_SIZE,
    PTX_SR_CLUSTERID, PTX_SR_NCLUSTERID, PTX_SR_CLUSTER_CTAID, PTX_SR_CLUSTER_NCTAID, /* with comp */
    PTX_SR_CLUSTER_CTARANK, PTX_SR_CLUSTER_NCTARANK, PTX_SR_IS_EXPLICIT_CLUSTER,
    PTX_SR_COUNT
} ptx_sreg;

/* One element of a vector operand: a register slot, or an immediate. */
typedef struct {
    int32_t reg; /* slot; -1: the sink "_" (or an immediate, when is_imm) */
    bool is_imm;
    uint64_t imm;
} ptx_velem;

typedef struct {
    uint8_t kind; /* ptx_okind */
    uint8_t neg;  /* PTX_O_REG predicate source: '!p' */
    uint8_t comp; /* PTX_O_SREG: x, y, z */
    uint8_t nelem; /* PTX_O_VEC */
    int32_t reg;   /* PTX_O_REG, PTX_O_ADDR (base; -1: none) */
    int32_t sym;   /* PTX_O_ADDR, PTX_O_SYM: module symbol index (-1: none) */
    int32_t target; /* PTX_O_LABEL: instruction index; PTX_O_FUNC: function index */
    uint16_t sreg; /* PTX_O_SREG */
    uint64_t imm;  /* PTX_O_IMM: bits; PTX_O_ADDR: the byte offset (signed) */
    ptx_velem elem[4]; /* PTX_O_VEC */
} ptx_operand;

#define PTX_MAX_OPERANDS 6

/* One decoded instruction. Destinations come first, as PTX writes them:
 * o[0] is the destination (for st and red, the address), o[1].. the
 * sources. A second destination (setp's q in p|q, shfl's predicate) is in
 * o2 with PTX_F_PRED_OUT set. */
typedef struct ptx_insn {
    uint16_t op;    /* ptx_opcode */
    uint8_t type;   /* the instruction's type (ptx_type): add.s32 -> S32; cvt's destination type */
    uint8_t type2;  /* a second type: cvt's source, setp's operand type is type; set's source type */
    uint8_t rnd;    /* PTX_RND_* */
    uint8_t cmp;    /* PTX_CMP_* */
    uint8_t boolop; /* PTX_BOOL_* */
    uint8_t sub;    /* the sub-operation for its opcode (PTX_SHFL_*, PTX_ATOM_*, ...) */
    uint8_t space;  /* PTX_SPACE_* of ld, st, atom, red, cvta, isspacep */
    uint8_t sem;    /* PTX_SEM_* */
    uint8_t scope;  /* PTX_SCOPE_* */
    uint8_t vec;    /* 1, 2, 4 (.v2, .v4) */
    uint8_t nops;   /* operands in o[] */
    uint8_t guard_neg; /* @!p */
    int32_t guard;  /* predicate slot guarding the instruction; -1: none */
    uint32_t flags; /* PTX_F_* */
    ptx_operand o[PTX_MAX_OPERANDS];
    ptx_operand o2; /* second destination (PTX_F_PRED_OUT) */
    /* call: the callee's return and argument params (module symbol
     * indices of the caller's .param variables), counts in nret, narg */
    int32_t *call_params;
    uint8_t nret, narg;
    uint32_t ptx_line; /* line in the PTX text */
    uint32_t loc_file; /* .loc before it: file number (0: none) */
    uint32_t loc_line;
    uint32_t loc_col;
    /* an instruction the parser does not know (its opcode and modifiers as
     * written): parsed, and a launch that reaches it stops with
     * "unsupported PTX instruction"; NULL for every supported one */
    char *unsupported;
    void *site;        /* the executor's site for this instruction (model_site *), made on first use */
} ptx_insn;

/* ---- symbols and functions ------------------------------------------------- */
typedef struct {
    char *name;
    uint8_t space;   /* PTX_SPACE_GLOBAL, _SHARED, _CONST, _LOCAL, _PARAM */
    bool external;   /* .extern .shared: the dynamic shared memory */
    int32_t func;    /* the function it belongs to; -1: module scope */
    uint64_t size;   /* bytes (0 for an unsized .extern array) */
    uint32_t align;
    uint64_t offset; /* _PARAM: offset in its function's parameter area; _LOCAL: in the frame's .local area */
    bool is_func_param; /* a parameter of its function (else a .param declared in its body) */
    bool is_return;     /* a .func's return parameter */
    unsigned char *init; /* initial bytes (size of them), or NULL: zero */
    uint32_t ptx_line;
} ptx_sym;

typedef struct {
    char *name;
    bool entry;      /* .entry (a kernel), else .func */
    bool defined;    /* has a body (else an .extern declaration) */
    int32_t *params; /* symbol indices of its parameters, in order */
    unsigned nparams;
    int32_t *rets;   /* symbol indices of its return parameters */
    unsigned nrets;
    uint64_t param_bytes; /* its parameter area: params and returns, then the .param variables of its body */
    uint64_t local_bytes; /* its .local variables */
    uint32_t nregs;  /* register slots */
    char **reg_names; /* slot -> name ("%r12"), for messages */
    uint8_t *reg_type; /* slot -> its declared type (ptx_type): a narrower load or cvt into it is extended to it */
    ptx_insn *insns;
    uint32_t ninsns;
    uint32_t maxntid[3], reqntid[3], minnctapersm; /* 0: not given */
    uint32_t ptx_line;
} ptx_func;

typedef struct ptx_module {
    char *path;      /* for messages */
    unsigned version_major, version_minor;
    unsigned sm;     /* .target sm_NN */
    unsigned address_size;
    ptx_func *funcs;
    unsigned nfuncs;
    ptx_sym *syms;
    unsigned nsyms;
    char **files;    /* .file N "path": files[N] (NULL where not given) */
    unsigned nfiles;
    void *exec;      /* the executor's per-module state (global variables' storage) */
} ptx_module;

/* Parses PTX text (len bytes, need not end in NUL) read from path. Returns
 * the module, or NULL with one message "path:line: error: ..." in err (text
 * that is not PTX, an unknown directive, an undeclared register, label or
 * variable). An instruction with an unknown opcode or modifier is kept with
 * ptx_insn.unsupported set: a module is refused only for what it runs. */
ptx_module *ptx_parse(const char *text, size_t len, const char *path, char *err, size_t errlen);
void ptx_free(ptx_module *m);
/* The function named name, or -1. */
int ptx_find_func(const ptx_module *m, const char *name);

/* ---- the arithmetic (alu.c) ------------------------------------------------- */
/* Executes an instruction of class ALU. src[k] holds the bits of source
 * operand k + 1 (o[k + 1]), read from registers or immediates and
 * zero-extended; a vector source (mov's pack) gives its elements in
 * src[k], src[k + 1], ... . Writes the destination's bits to dst[0]
 * (zero-extended to 64 bits; a vector destination, mov's unpack: dst[0..]),
 * and the second destination (setp's q, PTX_F_PRED_OUT) to dst[PTX_ALU_DST2].
 * *carry is the thread's carry flag (add.cc, addc, ...), read and written.
 * Returns 0, or -1 for a form it does not implement (the executor then
 * stops with "unsupported PTX instruction"). */
#define PTX_ALU_DST2 4
int ptx_alu(const ptx_insn *in, const uint64_t *src, uint64_t *dst, unsigned char *carry);

#endif
