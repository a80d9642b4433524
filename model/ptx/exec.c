/* The PTX interpreter: every simulated thread runs its own program
 * counter over the decoded instructions of its kernel, on the simulator's
 * fibers. Each memory access, barrier, fence, warp operation and atomic is
 * a call into the same model the dialect's macros call (model/rt.h), so
 * races, the weak memory model, the schedule explorer, the deadlock search
 * and the counters see PTX kernels exactly as they see dialect kernels.
 *
 * Addresses: a global or generic address is the host address of the
 * simulator's memory; a shared-space address is the offset into the
 * block's shared arena, so that 32-bit shared addresses work as on the
 * GPU; a local-space address is the offset into the thread's stack of
 * frames (its state, model_lane.xstate). cvta converts between them.
 *
 * A thread's whole state (program counter, call frames, registers, .local
 * and .param areas) lives in model_lane.xstate, which the schedule
 * search's snapshots save and restore with the fiber. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/internal.h"
#include "model/ptx/ptx.h"
#include "model/ptx/regalloc.h"
#include "model/ptx/run.h"

/* What %nsmid answers, and %smid counts to: the H100's SMs (the model has
 * no SMs; blocks are placed round-robin). */
#define PTX_SM_COUNT 132u
/* Calls nested deeper than this stop the launch (recursion). */
#define PTX_MAX_DEPTH 32
#define FRAME_ALIGN 16

typedef struct {
    uint32_t func;
    uint32_t ret_pc;    /* the caller's instruction after the call */
    uint32_t reg_off;   /* its registers: byte offset in the data area */
    uint32_t param_off; /* its .param area */
    uint32_t local_off; /* its .local area (local-space addresses are data offsets) */
    uint32_t end;       /* first byte after the frame */
} pframe;

/* A relaxed load whose value is not bound yet (load buffering,
 * docs/memory-model.md): its instruction (destinations, type, site), the
 * host address and the model's kind of the access. */
#define PTX_MAX_PENDING 4
typedef struct {
    ptx_insn *in;
    unsigned char *p;
    uint32_t size;
    int kind;
    model_at at; /* where it stood */
} ppending;

typedef struct {
    uint32_t pc, depth;
    uint8_t carry;
    uint8_t started;
    uint32_t npend; /* pending loads, oldest first */
    ppending pend[PTX_MAX_PENDING];
    pframe frame[PTX_MAX_DEPTH];
} pthread_hdr;

/* What a module keeps for the executor. */
typedef struct {
    void **addr;         /* per symbol: device storage of module-scope .global and .const variables */
    model_site *sym_site; /* per symbol: the site its shared allocation is made at */
    char **what;         /* per function and instruction: site names (freed with the module) */
    size_t nwhat, capwhat;
    model_site **sites;  /* every site made, freed with the module */
    size_t nsites, capsites;
    struct phot **hot;   /* per function: the compact records of its instructions */
} pmodule;

/* One launch, read by every thread. */
typedef struct {
    ptx_module *m;
    const ptx_func *entry;
    int entry_index;
    unsigned char *params; /* the kernel's parameter bytes */
    uint64_t param_bytes;
    int32_t *shared_syms;  /* the shared variables its functions use, in allocation order */
    unsigned nshared;
    uint64_t *shared_off;  /* per symbol: offset in the shared arena (this launch) */
    bool *reach;           /* per function: reachable from the entry */
    size_t data_bytes;     /* the data area a thread may need */
} plaunch;

static unsigned long long instructions;

unsigned long long model_ptx_instructions(void) { return instructions; }

/* ---- findings ---------------------------------------------------------------- */
static const char *file_of(const ptx_module *m, const ptx_insn *in)
{
    if (in->loc_file && in->loc_file < m->nfiles && m->files[in->loc_file])
        return m->files[in->loc_file];
    return m->path;
}

static int line_of(const ptx_insn *in) { return in->loc_file && in->loc_line ? (int)in->loc_line : (int)in->ptx_line; }

/* Stops the launch with a finding at the instruction (never returns). */
static void fail(mthread *t, const ptx_module *m, const ptx_insn *in, model_find_kind kind, sl_status st,
                 const char *fmt, ...)
{
    model_finding f;
    memset(&f, 0, sizeof f);
    f.kind = kind;
    f.site[0] = in ? (const model_site *)in->site : NULL;
    f.block[0] = t->blk->lin;
    f.thread[0] = t->lin;
    f.interval = t->blk->epoch;
    char what[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    char who[96];
    model_thread_desc(t, who, sizeof who);
    if (in)
        snprintf(f.text, sizeof f.text, "%s at %s:%d (PTX line %u) by %s", what, file_of(m, in), line_of(in),
                 in->ptx_line, who);
    else
        snprintf(f.text, sizeof f.text, "%s by %s", what, who);
    model_fail(t, &f, st);
}

/* ---- sites ------------------------------------------------------------------- */
static bool grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return true;
    size_t n = *cap ? *cap * 2 : 64;
    while (n < need)
        n *= 2;
    void *q = realloc(*p, n * elem);
    if (!q)
        return false;
    *p = q;
    *cap = n;
    return true;
}

static const char *space_name(unsigned space)
{
    static const char *const names[] = {"", ".global", ".shared", ".local", ".param", ".const", ""};
    return space < sizeof names / sizeof names[0] ? names[space] : "";
}

/* The model's site for an instruction: its CUDA source line (or PTX line),
 * named by its opcode and PTX line so that each instruction is a site of
 * its own (the warp's accesses are grouped by site). */
static model_site *site_of(ptx_module *m, ptx_insn *in, mthread *t)
{
    if (in->site)
        return in->site;
    pmodule *pm = m->exec;
    char buf[96];
    snprintf(buf, sizeof buf, "%s%s (PTX line %u)", in->op < PTX_I_COUNT ? ptx_opcode_name[in->op] : "unsupported",
             in->op == PTX_I_ld || in->op == PTX_I_st || in->op == PTX_I_atom || in->op == PTX_I_red
                 ? space_name(in->space)
                 : "",
             in->ptx_line);
    char *what = strdup(buf);
    model_site *s = calloc(1, sizeof *s);
    if (!what || !s || !grow((void **)&pm->sites, &pm->capsites, pm->nsites + 1, sizeof *pm->sites) ||
        !grow((void **)&pm->what, &pm->capwhat, pm->nwhat + 1, sizeof *pm->what)) {
        free(what);
        free(s);
        fail(t, m, NULL, MODEL_FIND_LIMIT, SL_ERR_NOMEM, "out of memory for PTX sites");
    }
    s->file = file_of(m, in);
    s->line = line_of(in);
    s->what = what;
    pm->sites[pm->nsites++] = s;
    pm->what[pm->nwhat++] = what;
    in->site = s;
    return s;
}

/* The site of a memory instruction, with the size and kind of its access
 * fixed as a dialect macro fixes them (the lanes' fast path records an
 * access by its site alone). */
static model_site *access_site(ptx_module *m, ptx_insn *in, mthread *t, size_t size, int kind)
{
    model_site *s = site_of(m, in, t);
    if (s->size == 0) {
        s->size = (unsigned)size;
        s->kind = kind;
    }
    return s;
}

/* ---- the thread's state --------------------------------------------------------- */
typedef struct {
    mthread *t;
    model_lane *l;
    pthread_hdr *h;
    unsigned char *data; /* the frames' area */
    const plaunch *L;
    ptx_module *m;
    const ptx_func *f;   /* the function running */
    const struct phot *hot; /* its instructions' compact records */
    uint64_t *R;         /* its registers */
} pctx;

static void enter_frame(pctx *c)
{
    const pframe *fr = &c->h->frame[c->h->depth - 1];
    c->f = &c->m->funcs[fr->func];
    c->hot = ((pmodule *)c->m->exec)->hot[fr->func];
    c->R = (uint64_t *)(c->data + fr->reg_off);
}

static uint32_t align_up(uint64_t v, uint64_t a) { return (uint32_t)((v + a - 1) / a * a); }

/* Pushes a frame for function fi after the current top (false: too deep or
 * beyond the area computed for the launch). */
static bool push_frame(pctx *c, uint32_t fi, uint32_t ret_pc)
{
    pthread_hdr *h = c->h;
    if (h->depth >= PTX_MAX_DEPTH)
        return false;
    const ptx_func *f = &c->m->funcs[fi];
    const uint32_t base = h->depth ? h->frame[h->depth - 1].end : 0;
    pframe *fr = &h->frame[h->depth];
    fr->func = fi;
    fr->ret_pc = ret_pc;
    fr->reg_off = base;
    fr->param_off = align_up(base + (uint64_t)f->nregs * 8, FRAME_ALIGN);
    fr->local_off = align_up(fr->param_off + f->param_bytes, FRAME_ALIGN);
    const uint64_t end = align_up(fr->local_off + f->local_bytes, FRAME_ALIGN);
    if (end > c->L->data_bytes)
        return false;
    fr->end = (uint32_t)end;
    memset(c->data + base, 0, end - base);
    h->depth++;
    return true;
}

/* ---- operands ------------------------------------------------------------------ */
static uint64_t sreg_value(pctx *c, const ptx_operand *o)
{
    model_lane *l = c->l;
    const mthread *t = c->t;
    const unsigned comp = o->comp;
#define DIM3(d) (comp == 0 ? (d).x : comp == 1 ? (d).y : (d).z)
    switch (o->sreg) {
    case PTX_SR_TID: return DIM3(l->thread_idx);
    case PTX_SR_NTID: return DIM3(*l->block_dim);
    case PTX_SR_CTAID:
        *l->id_read = 1;
        return DIM3(*l->block_idx);
    case PTX_SR_NCTAID: return DIM3(*l->grid_dim);
    case PTX_SR_LANEID: return t->lane;
    case PTX_SR_WARPID: return t->warp;
    case PTX_SR_NWARPID: return MODEL_MAX_BLOCK_THREADS / MODEL_WARP_SIZE * 2;
    case PTX_SR_SMID: return t->blk->lin % PTX_SM_COUNT;
    case PTX_SR_NSMID: return PTX_SM_COUNT;
    case PTX_SR_GRIDID: return 0;
    case PTX_SR_LANEMASK_EQ: return UINT32_C(1) << t->lane;
    case PTX_SR_LANEMASK_LE: return (uint32_t)((UINT64_C(2) << t->lane) - 1);
    case PTX_SR_LANEMASK_LT: return (uint32_t)((UINT64_C(1) << t->lane) - 1);
    case PTX_SR_LANEMASK_GE: return (uint32_t)~((UINT64_C(1) << t->lane) - 1);
    case PTX_SR_LANEMASK_GT: return (uint32_t)~((UINT64_C(2) << t->lane) - 1);
    /* the simulator's clock: the thread's steps (deterministic; a kernel
     * that times itself sees the model's time, not the host's) */
    case PTX_SR_CLOCK: return (uint32_t)model_clock(t);
    case PTX_SR_CLOCK64: return model_clock(t);
    case PTX_SR_GLOBALTIMER: return model_clock(t) * 1000u;
    case PTX_SR_DYNAMIC_SMEM_SIZE: return model_L.shmem;
    case PTX_SR_TOTAL_SMEM_SIZE: return model_L.shared_limit;
    case PTX_SR_CLUSTERID:
    case PTX_SR_CLUSTER_CTAID:
        return 0;
    case PTX_SR_NCLUSTERID:
    case PTX_SR_CLUSTER_NCTAID:
        return 1;
    case PTX_SR_CLUSTER_CTARANK: return 0;
    case PTX_SR_CLUSTER_NCTARANK: return 1;
    default: return 0;
    }
#undef DIM3
}

/* The address a symbol names in its own state space. */
static uint64_t sym_address(pctx *c, int32_t si)
{
    const ptx_sym *s = &c->m->syms[si];
    const pmodule *pm = c->m->exec;
    switch (s->space) {
    case PTX_SPACE_SHARED: return c->L->shared_off[si];
    case PTX_SPACE_LOCAL: return c->h->frame[c->h->depth - 1].local_off + s->offset;
    case PTX_SPACE_PARAM: return s->offset;
    default: return (uint64_t)(uintptr_t)pm->addr[si];
    }
}

static uint64_t fetch_other(pctx *c, const ptx_operand *o);

/* An operand's value: registers and immediates inline (most operands). */
static inline __attribute__((always_inline)) uint64_t fetch(pctx *c, const ptx_operand *o)
{
    if (__builtin_expect(o->kind == PTX_O_REG && !o->neg, 1))
        return c->R[o->reg];
    if (o->kind == PTX_O_IMM)
        return o->imm;
    return fetch_other(c, o);
}

static uint64_t fetch_other(pctx *c, const ptx_operand *o)
{
    switch (o->kind) {
    case PTX_O_REG: return o->neg ? !c->R[o->reg] : c->R[o->reg];
    case PTX_O_IMM: return o->imm;
    case PTX_O_SREG: return sreg_value(c, o);
    case PTX_O_SYM: return sym_address(c, o->sym) + o->imm;
    default: return 0;
    }
}

static uint64_t address(pctx *c, const ptx_operand *o)
{
    uint64_t a = o->imm;
    if (o->reg >= 0)
        a += c->R[o->reg];
    if (o->sym >= 0)
        a += sym_address(c, o->sym);
    return a;
}

static uint64_t width_mask(unsigned bytes) { return bytes >= 8 ? ~UINT64_C(0) : (UINT64_C(1) << (8 * bytes)) - 1; }

/* A value of type ty (bytes of it in v) as the register slot holds it: an
 * integer narrower than the register is extended by its signedness (PTX:
 * ld.s8 into a .b32 register sign-extends), then cut to the register. */
static uint64_t to_reg(const pctx *c, int32_t slot, unsigned ty, uint64_t v)
{
    const unsigned vb = ptx_type_bytes(ty), rb = ptx_type_bytes(c->f->reg_type[slot]);
    if (c->f->reg_type[slot] == PTX_T_PRED)
        return v != 0;
    if (vb && vb < 8) {
        v &= width_mask(vb);
        if (ptx_type_signed(ty) && (v >> (8 * vb - 1) & 1))
            v |= ~width_mask(vb);
    }
    return rb ? v & width_mask(rb) : v;
}

static void store_reg(pctx *c, int32_t slot, unsigned ty, uint64_t v)
{
    if (slot >= 0)
        c->R[slot] = to_reg(c, slot, ty, v);
}

/* ---- memory ------------------------------------------------------------------- */
enum { WHERE_GLOBAL, WHERE_SHARED, WHERE_LOCAL, WHERE_PARAM, WHERE_CONST };

typedef struct {
    int where;
    unsigned char *p; /* host address */
} ploc;

static int model_kind_of(const ptx_insn *in, bool write)
{
    int k = write ? MODEL_WR : MODEL_RD;
    int scope = in->scope == PTX_SCOPE_CTA ? MODEL_SCOPE_CTA
                : in->scope == PTX_SCOPE_SYS ? MODEL_SCOPE_SYS
                                             : MODEL_SCOPE_GPU;
    switch (in->sem) {
    case PTX_SEM_VOLATILE: return k | MODEL_VOL; /* relaxed of system scope */
    case PTX_SEM_RELAXED: return MODEL_KIND_WITH_SCOPE(k | MODEL_RELAXED, scope);
    case PTX_SEM_ACQUIRE: return MODEL_KIND_WITH_SCOPE(k | MODEL_ACQUIRE, scope);
    case PTX_SEM_RELEASE: return MODEL_KIND_WITH_SCOPE(k | MODEL_RELEASE, scope);
    case PTX_SEM_ACQ_REL:
    case PTX_SEM_SC: return MODEL_KIND_WITH_SCOPE(k | MODEL_ACQUIRE | MODEL_RELEASE, scope);
    case PTX_SEM_MMIO: return MODEL_KIND_WITH_SCOPE(k | MODEL_RELAXED, MODEL_SCOPE_SYS);
    default: return k;
    }
}

/* Where an address of the instruction's space points, and its host
 * address; a local or parameter access outside its area stops the launch. */
static ploc locate(pctx *c, const ptx_insn *in, uint64_t a, size_t size)
{
    mblock *b = c->t->blk;
    ploc r = {WHERE_GLOBAL, (unsigned char *)(uintptr_t)a};
    unsigned space = in->space;
    if (space == PTX_SPACE_GENERIC) {
        /* a generic address: which window it falls in */
        if (a - (uintptr_t)b->smem < MODEL_MAX_SHARED_LIMIT)
            return (ploc){WHERE_SHARED, (unsigned char *)(uintptr_t)a};
        if (a - (uintptr_t)c->data < c->L->data_bytes) {
            space = PTX_SPACE_LOCAL;
            a -= (uintptr_t)c->data;
        } else if (a - (uintptr_t)c->L->params < c->L->param_bytes) {
            /* a kernel parameter's generic address (cvta.param) */
            if (a + size - (uintptr_t)c->L->params > c->L->param_bytes || in->op != PTX_I_ld)
                fail(c->t, c->m, in, MODEL_FIND_OOB, SL_ERR_SIM,
                     "out of bounds: %s of %zu bytes at a kernel parameter's address", ptx_opcode_name[in->op],
                     size);
            return (ploc){WHERE_PARAM, (unsigned char *)(uintptr_t)a};
        } else {
            return r;
        }
    }
    switch (space) {
    case PTX_SPACE_SHARED:
        r.where = WHERE_SHARED;
        r.p = b->smem + a; /* outside the block's allocations: the model reports it */
        if (a >= MODEL_MAX_SHARED_LIMIT)
            r.p = (unsigned char *)(uintptr_t)a; /* no allocation there: out of bounds */
        return r;
    case PTX_SPACE_LOCAL: {
        /* within some frame's .local area (a callee may use its caller's) */
        const pthread_hdr *h = c->h;
        for (uint32_t d = 0; d < h->depth; d++) {
            const pframe *fr = &h->frame[d];
            const uint64_t lb = c->m->funcs[fr->func].local_bytes;
            if (a >= fr->local_off && a + size <= fr->local_off + lb)
                return (ploc){WHERE_LOCAL, c->data + a};
        }
        fail(c->t, c->m, in, MODEL_FIND_OOB, SL_ERR_SIM,
             "out of bounds: %s of %zu bytes at local address %#llx, outside the thread's .local variables",
             ptx_opcode_name[in->op], size, (unsigned long long)a);
        return r;
    }
    case PTX_SPACE_PARAM: {
        /* a kernel's own parameters come first in its parameter space (read
         * only); the .param variables of its call sequences, and a
         * function's parameters, are in the frame */
        const pframe *fr = &c->h->frame[c->h->depth - 1];
        if (c->h->depth == 1 && a < c->L->param_bytes) {
            if (a + size <= c->L->param_bytes && in->op == PTX_I_ld)
                return (ploc){WHERE_PARAM, c->L->params + a};
        } else if (a + size <= c->f->param_bytes) {
            return (ploc){WHERE_PARAM, c->data + fr->param_off + a};
        }
        fail(c->t, c->m, in, MODEL_FIND_OOB, SL_ERR_SIM,
             "out of bounds: %s of %zu bytes at parameter offset %llu, beyond the parameters (%llu bytes)",
             ptx_opcode_name[in->op], size, (unsigned long long)a, (unsigned long long)c->f->param_bytes);
        return r;
    }
    case PTX_SPACE_CONST: r.where = WHERE_CONST; return r;
    default: return r;
    }
}

/* Reads size bytes at a (in the instruction's space) into buf. */
static void mem_read(pctx *c, ptx_insn *in, uint64_t a, size_t size, unsigned char *buf)
{
    const ploc at = locate(c, in, a, size);
    if (at.where == WHERE_LOCAL || at.where == WHERE_PARAM) {
        memcpy(buf, at.p, size);
        return;
    }
    const bool weak = in->sem == PTX_SEM_WEAK || in->op == PTX_I_ldu;
    const int kind = weak ? MODEL_RD : model_kind_of(in, false);
    model_site *s = access_site(c->m, in, c->t, size, kind);
    if (weak) {
        const void *p = model_access_fast(at.p, 0, size, MODEL_RD, s);
        memcpy(buf, p, size);
    } else {
        model_load(at.p, 0, size, kind, s, buf);
    }
}

static void mem_write(pctx *c, ptx_insn *in, uint64_t a, size_t size, const unsigned char *buf)
{
    const ploc at = locate(c, in, a, size);
    if (at.where == WHERE_LOCAL || at.where == WHERE_PARAM) {
        memcpy(at.p, buf, size);
        return;
    }
    if (at.where == WHERE_CONST)
        fail(c->t, c->m, in, MODEL_FIND_OOB, SL_ERR_SIM, "a store to constant memory");
    const int kind = in->sem == PTX_SEM_WEAK ? MODEL_WR : model_kind_of(in, true);
    model_site *s = access_site(c->m, in, c->t, size, kind);
    if (in->sem == PTX_SEM_WEAK && at.where == WHERE_GLOBAL && model_weak_free(MODEL_WR)) {
        model_store_weak(at.p, size, s, buf);
    } else if (in->sem == PTX_SEM_WEAK) {
        void *p = model_access_fast(at.p, 0, size, MODEL_WR, s);
        memcpy(p, buf, size);
    } else {
        model_store(at.p, 0, size, kind, s, buf);
    }
}

/* A load's bytes (w a element, as many as its vector has) to its
 * destination registers. */
static void ld_result(pctx *c, const ptx_insn *in, const unsigned char *buf)
{
    const unsigned w = ptx_type_bytes(in->type), n = in->vec ? in->vec : 1;
    const ptx_operand *d = &in->o[0];
    for (unsigned k = 0; k < n; k++) {
        uint64_t v = 0;
        memcpy(&v, buf + (size_t)k * w, w < 8 ? w : 8);
        const int32_t slot = d->kind == PTX_O_VEC ? d->elem[k].reg : d->reg;
        store_reg(c, slot, in->type, v);
    }
}

/* ---- load buffering ------------------------------------------------------------ */
/* A relaxed or volatile load of global memory need not take its value where
 * it stands: PTX lets a later store of its thread be performed first (LB),
 * as long as nothing depends on the value. So in an explored schedule the
 * load is checked and recorded at once and its value bound later, at the
 * first of: an instruction that reads or writes one of its destination
 * registers (a data, address or control dependency: no value out of thin
 * air), an access that overlaps its location, an ordering point of the
 * thread (acquire, release, fence, barrier, warp operation, atomic), a
 * call, a return or the exit. The binding is a point where other threads
 * run first. */
static bool names_reg(const ptx_operand *o, int32_t slot)
{
    switch (o->kind) {
    case PTX_O_REG:
    case PTX_O_ADDR: return o->reg == slot;
    case PTX_O_VEC:
        for (unsigned e = 0; e < o->nelem; e++)
            if (!o->elem[e].is_imm && o->elem[e].reg == slot)
                return true;
        return false;
    default: return false;
    }
}

static bool uses_reg(const ptx_insn *in, int32_t slot)
{
    if (slot < 0)
        return false;
    if (in->guard == slot)
        return true;
    for (unsigned k = 0; k < in->nops; k++)
        if (names_reg(&in->o[k], slot))
            return true;
    return (in->flags & PTX_F_PRED_OUT) && names_reg(&in->o2, slot);
}

/* Which pending loads (a bit each) must be bound before in runs (NULL: the
 * end of a body). A weak pending load (litmus runs) passes fences,
 * atomics, acquires and releases: its value is chosen from where it stood
 * (model_load_bind), and no acquire pattern begins with a weak load. */
static unsigned pending_hit(pctx *c, const ptx_insn *in)
{
    const pthread_hdr *h = c->h;
    const unsigned all = (1u << h->npend) - 1;
    if (!in)
        return all;
    unsigned strong = 0;
    for (unsigned k = 0; k < h->npend; k++)
        if (h->pend[k].kind & MODEL_STRONG)
            strong |= 1u << k;
    unsigned hit = 0;
    switch (in->op) {
    case PTX_I_ld:
    case PTX_I_ldu:
    case PTX_I_st:
        if (in->sem != PTX_SEM_WEAK && in->sem != PTX_SEM_VOLATILE && in->sem != PTX_SEM_RELAXED)
            hit = strong;
        break;
    case PTX_I_atom:
    case PTX_I_red:
        /* a relaxed read-modify-write of another location orders nothing
         * (PTX lets a load pass it); one that acquires or releases does */
        if (in->sem != PTX_SEM_WEAK && in->sem != PTX_SEM_RELAXED)
            hit = strong;
        break;
    case PTX_I_membar:
    case PTX_I_fence:
        hit = strong;
        break;
    case PTX_I_bar:
    case PTX_I_barrier:
    case PTX_I_shfl:
    case PTX_I_vote:
    case PTX_I_match:
    case PTX_I_redux:
    case PTX_I_call:
    case PTX_I_ret:
    case PTX_I_exit:
    case PTX_I_trap:
    case PTX_I_brkpt:
    case PTX_I_brx:
        return all;
    default:
        break;
    }
    const bool access = (in->op == PTX_I_ld || in->op == PTX_I_ldu || in->op == PTX_I_st || in->op == PTX_I_atom ||
                         in->op == PTX_I_red) &&
                        (in->space == PTX_SPACE_GLOBAL || in->space == PTX_SPACE_GENERIC);
    uint64_t a = 0, size = 0;
    if (access) {
        a = address(c, &in->o[in->op == PTX_I_st || in->op == PTX_I_red ? 0 : 1]);
        size = (uint64_t)ptx_type_bytes(in->type) * (in->vec ? in->vec : 1);
    }
    for (unsigned k = 0; k < h->npend; k++) {
        const ppending *q = &h->pend[k];
        const ptx_operand *d = &q->in->o[0];
        bool dep = false;
        if (d->kind == PTX_O_VEC) {
            for (unsigned e = 0; e < d->nelem && !dep; e++)
                dep = uses_reg(in, d->elem[e].reg);
        } else {
            dep = uses_reg(in, d->reg);
        }
        if (access && a < (uintptr_t)q->p + q->size && (uintptr_t)q->p < a + size)
            dep = true;
        if (dep)
            hit |= 1u << k;
    }
    return hit;
}

/* Binds the pending loads named by the bits of hit, oldest first. */
static void bind_pending(pctx *c, unsigned hit)
{
    pthread_hdr *h = c->h;
    for (unsigned k = 0; k < h->npend;) {
        if (!(hit >> k & 1)) {
            k++;
            continue;
        }
        const ppending q = h->pend[k];
        memmove(&h->pend[k], &h->pend[k + 1], (h->npend - k - 1) * sizeof h->pend[0]);
        h->npend--;
        hit = (hit & ((1u << k) - 1)) | (hit >> (k + 1)) << k;
        unsigned char buf[64];
        model_load_bind(q.p, q.size, q.kind, site_of(c->m, q.in, c->t), &q.at, buf);
        ld_result(c, q.in, buf);
    }
}

/* A relaxed load of global memory in an explored schedule, or a weak one
 * in a litmus run (model_weak_free): left pending (LD_PENDING), or taken
 * now by the model (LD_DONE, its bytes in buf); LD_NOT for any other
 * load. */
enum { LD_NOT, LD_DONE, LD_PENDING };
static int defer_ld(pctx *c, ptx_insn *in, uint64_t a, size_t size, unsigned char *buf)
{
    const bool weak = in->sem == PTX_SEM_WEAK && model_weak_free(MODEL_RD);
    if (!model_L.explore || in->op != PTX_I_ld ||
        (in->sem != PTX_SEM_RELAXED && in->sem != PTX_SEM_VOLATILE && !weak) ||
        (in->space != PTX_SPACE_GLOBAL && in->space != PTX_SPACE_GENERIC))
        return LD_NOT;
    const ploc at = locate(c, in, a, size);
    if (at.where != WHERE_GLOBAL)
        return LD_NOT;
    if (c->h->npend == PTX_MAX_PENDING)
        bind_pending(c, 1);
    const int kind = weak ? MODEL_RD : model_kind_of(in, false);
    model_at stood;
    if (!model_load_defer(at.p, size, kind, access_site(c->m, in, c->t, size, kind), buf, &stood))
        return LD_DONE;
    c->h->pend[c->h->npend++] = (ppending){in, at.p, (uint32_t)size, kind, stood};
    return LD_PENDING;
}

static void exec_ld(pctx *c, ptx_insn *in)
{
    const unsigned w = ptx_type_bytes(in->type), n = in->vec ? in->vec : 1;
    unsigned char buf[64];
    if (w == 0 || (size_t)w * n > sizeof buf)
        fail(c->t, c->m, in, MODEL_FIND_LIMIT, SL_ERR_UNSUPPORTED, "unsupported PTX instruction '%s' (type)",
             ptx_opcode_name[in->op]);
    const uint64_t a = address(c, &in->o[1]);
    const int how = defer_ld(c, in, a, (size_t)w * n, buf);
    if (how == LD_PENDING)
        return;
    if (how == LD_NOT)
        mem_read(c, in, a, (size_t)w * n, buf);
    ld_result(c, in, buf);
}

static void exec_st(pctx *c, ptx_insn *in)
{
    const unsigned w = ptx_type_bytes(in->type), n = in->vec ? in->vec : 1;
    unsigned char buf[64];
    if (w == 0 || (size_t)w * n > sizeof buf)
        fail(c->t, c->m, in, MODEL_FIND_LIMIT, SL_ERR_UNSUPPORTED, "unsupported PTX instruction '%s' (type)",
             ptx_opcode_name[in->op]);
    const ptx_operand *s = &in->o[1];
    for (unsigned k = 0; k < n; k++) {
        uint64_t v;
        if (s->kind == PTX_O_VEC)
            v = s->elem[k].is_imm ? s->elem[k].imm : s->elem[k].reg >= 0 ? c->R[s->elem[k].reg] : 0;
        else
            v = fetch(c, s);
        memcpy(buf + (size_t)k * w, &v, w < 8 ? w : 8);
    }
    mem_write(c, in, address(c, &in->o[0]), (size_t)w * n, buf);
}

/* ---- atomics ------------------------------------------------------------------- */
typedef struct {
    unsigned op, type, bytes;
    uint64_t b, c;
} prmw;

static double as_f(uint64_t v, unsigned bytes)
{
    if (bytes == 4) {
        float f;
        uint32_t u = (uint32_t)v;
        memcpy(&f, &u, 4);
        return f;
    }
    double d;
    memcpy(&d, &v, 8);
    return d;
}

static uint64_t from_f(double d, unsigned bytes)
{
    if (bytes == 4) {
        float f = (float)d;
        uint32_t u;
        memcpy(&u, &f, 4);
        return u;
    }
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

static int64_t as_s(uint64_t v, unsigned bytes)
{
    return bytes == 4 ? (int64_t)(int32_t)(uint32_t)v : (int64_t)v;
}

/* The new value of an atom or red (PTX ISA: atom's operations). */
static int rmw_new(uint64_t old, uint64_t *nv, const void *ctx)
{
    const prmw *r = ctx;
    const uint64_t m = width_mask(r->bytes), b = r->b & m;
    const bool fl = ptx_type_float(r->type), sg = ptx_type_signed(r->type);
    switch (r->op) {
    case PTX_ATOM_ADD:
        if (fl) {
            if (r->bytes == 4) {
                float x = (float)as_f(old, 4) + (float)as_f(b, 4);
                *nv = from_f(x, 4);
            } else {
                *nv = from_f(as_f(old, 8) + as_f(b, 8), 8);
            }
        } else {
            *nv = (old + b) & m;
        }
        return 1;
    case PTX_ATOM_INC: *nv = old >= b ? 0 : old + 1; return 1;
    case PTX_ATOM_DEC: *nv = (old == 0 || old > b) ? b : old - 1; return 1;
    case PTX_ATOM_EXCH: *nv = b; return 1;
    case PTX_ATOM_CAS: *nv = r->c & m; return old == b;
    case PTX_ATOM_MIN:
        if (fl)
            *nv = as_f(b, r->bytes) < as_f(old, r->bytes) ? b : old;
        else
            *nv = (sg ? as_s(b, r->bytes) < as_s(old, r->bytes) : b < old) ? b : old;
        return 1;
    case PTX_ATOM_MAX:
        if (fl)
            *nv = as_f(b, r->bytes) > as_f(old, r->bytes) ? b : old;
        else
            *nv = (sg ? as_s(b, r->bytes) > as_s(old, r->bytes) : b > old) ? b : old;
        return 1;
    case PTX_ATOM_AND: *nv = old & b; return 1;
    case PTX_ATOM_OR: *nv = old | b; return 1;
    case PTX_ATOM_XOR: *nv = old ^ b; return 1;
    default: return 0;
    }
}

static void exec_atom(pctx *c, ptx_insn *in)
{
    const bool red = in->op == PTX_I_red;
    const unsigned bytes = ptx_type_bytes(in->type);
    if ((bytes != 4 && bytes != 8) || in->vec > 1)
        fail(c->t, c->m, in, MODEL_FIND_LIMIT, SL_ERR_UNSUPPORTED,
             "unsupported PTX instruction '%s' (only 32- and 64-bit scalar atomics)", ptx_opcode_name[in->op]);
    const ptx_operand *ao = red ? &in->o[0] : &in->o[1];
    prmw r = {in->sub, in->type, bytes, fetch(c, red ? &in->o[1] : &in->o[2]), 0};
    if (in->sub == PTX_ATOM_CAS)
        r.c = fetch(c, &in->o[3]);
    const ploc at = locate(c, in, address(c, ao), bytes);
    if (at.where == WHERE_LOCAL || at.where == WHERE_PARAM || at.where == WHERE_CONST)
        fail(c->t, c->m, in, MODEL_FIND_OOB, SL_ERR_SIM, "an atomic on %s memory",
             at.where == WHERE_LOCAL ? "local" : at.where == WHERE_PARAM ? "parameter" : "constant");
    int kind = MODEL_ATOMIC;
    if (in->sem == PTX_SEM_ACQUIRE || in->sem == PTX_SEM_ACQ_REL || in->sem == PTX_SEM_SC)
        kind |= MODEL_ACQUIRE;
    if (in->sem == PTX_SEM_RELEASE || in->sem == PTX_SEM_ACQ_REL || in->sem == PTX_SEM_SC)
        kind |= MODEL_RELEASE;
    const int scope = in->scope == PTX_SCOPE_CTA ? MODEL_SCOPE_CTA
                      : in->scope == PTX_SCOPE_SYS ? MODEL_SCOPE_SYS
                                                   : MODEL_SCOPE_GPU;
    const uint64_t old = model_rmw(at.p, bytes, MODEL_KIND_WITH_SCOPE(kind, scope), rmw_new, &r,
                                   access_site(c->m, in, c->t, bytes, MODEL_RD | MODEL_ATOMIC));
    if (!red)
        store_reg(c, in->o[0].reg, in->type, old);
}

/* ---- barriers and warps ---------------------------------------------------------- */
/* bar.red: each thread adds its value to its block's word for this barrier
 * round, kept at the top of the block's shared arena (so that snapshots
 * hold it); two words alternate by the barrier's parity, each tagged with
 * the block's interval stamp (unique in the process) so that the round's
 * first arrival clears it. */
static void exec_bar(pctx *c, ptx_insn *in)
{
    model_site *s = site_of(c->m, in, c->t);
    if (in->sub == PTX_BAR_WARP_SYNC) {
        model_syncwarp((unsigned)fetch(c, &in->o[0]), s);
        return;
    }
    const uint64_t id = fetch(c, &in->o[in->sub == PTX_BAR_RED ? 1 : 0]);
    const unsigned nthreads_op = in->sub == PTX_BAR_RED ? 2 : 1;
    const bool counted = in->nops > nthreads_op && in->o[nthreads_op].kind != PTX_O_NONE &&
                         !(in->sub == PTX_BAR_RED && in->nops == 3);
    const uint64_t count = counted ? fetch(c, &in->o[nthreads_op]) : 0;
    if (in->sub == PTX_BAR_RED && (id != 0 || (counted && count != (uint64_t)model_L.nth)))
        fail(c->t, c->m, in, MODEL_FIND_LIMIT, SL_ERR_UNSUPPORTED,
             "unsupported PTX instruction 'bar.red' (named barriers and thread counts are not modelled for it)");
    if (in->sub != PTX_BAR_RED) {
        /* the block-wide barrier keeps the interval order; one with another
         * id, a thread count or only arriving is a named barrier
         * (model/nbar.c) */
        if (id == 0 && !counted && in->sub == PTX_BAR_SYNC)
            model_syncthreads(s);
        else
            model_named_barrier(id > 0xffff ? 0xffff : (unsigned)id, count > 0xffffff ? 0xffffff : (unsigned)count,
                                in->sub == PTX_BAR_ARRIVE, s);
        return;
    }
    mblock *b = c->t->blk;
    /* the reduction's words: in the block's arena above every allocation
     * of the launch (checked at launch: the words fit the shared limit) */
    uint32_t *word = (uint32_t *)(b->smem + model_L.shared_limit) - 4;
    b->smem_dirty = model_L.shared_limit; /* snapshots keep the words */
    const unsigned par = b->epoch & 1;
    if (word[2 + par] != b->stamp) { /* the round's first arrival */
        word[2 + par] = b->stamp;
        word[par] = in->boolop == PTX_BOOL_AND ? 1 : 0;
    }
    const uint64_t v = fetch(c, &in->o[in->nops - 1]);
    if (in->boolop == PTX_BOOL_POPC)
        word[par] += v != 0;
    else if (in->boolop == PTX_BOOL_AND)
        word[par] &= v != 0;
    else
        word[par] |= v != 0;
    model_syncthreads(s);
    store_reg(c, in->o[0].reg, in->type == PTX_T_PRED ? PTX_T_PRED : PTX_T_U32, word[par]);
}

static void exec_fence(pctx *c, ptx_insn *in)
{
    int scope = MODEL_SCOPE_GPU;
    if (in->scope == PTX_SCOPE_CTA)
        scope = MODEL_SCOPE_CTA;
    else if (in->scope == PTX_SCOPE_SYS)
        scope = MODEL_SCOPE_SYS;
    /* fence.sc and membar (fence.sc in PTX's terms) are totally ordered */
    model_fence(scope | (in->sub != PTX_FENCE_ACQ_REL ? MODEL_FENCE_SC : 0), site_of(c->m, in, c->t));
}

static void exec_shfl(pctx *c, ptx_insn *in)
{
    /* shfl.sync.mode.b32 d[|p], a, b, c, membermask */
    const uint64_t a = fetch(c, &in->o[1]), bv = fetch(c, &in->o[2]), cv = fetch(c, &in->o[3]);
    const unsigned mask = in->nops > 4 ? (unsigned)fetch(c, &in->o[4]) : 0xffffffffu;
    static const int kinds[] = {MODEL_SHFL_PTX_UP, MODEL_SHFL_PTX_DOWN, MODEL_SHFL_PTX_BFLY, MODEL_SHFL_PTX_IDX};
    const int arg = (int)((bv & 31) | (cv & 0x1fff) << 5);
    const uint64_t r = model_shfl(kinds[in->sub & 3], mask, a & 0xffffffffu, arg, site_of(c->m, in, c->t));
    store_reg(c, in->o[0].reg, PTX_T_B32, r & 0xffffffffu);
    if (in->flags & PTX_F_PRED_OUT)
        store_reg(c, in->o2.reg, PTX_T_PRED, r >> 32 & 1);
}

/* The lanes of the thread's warp that have not exited (activemask, and the
 * mask of the pre-Volta forms without .sync). */
static unsigned live_lanes(const mthread *t)
{
    const mblock *b = t->blk;
    unsigned lo = t->warp * MODEL_WARP_SIZE, m = 0;
    for (unsigned i = lo; i < lo + MODEL_WARP_SIZE && i < b->nth; i++)
        if (b->th[i].state != TS_EXIT)
            m |= 1u << (i - lo);
    return m;
}

static void exec_vote(pctx *c, ptx_insn *in)
{
    const uint64_t p = fetch(c, &in->o[1]);
    const unsigned mask = (in->flags & PTX_F_SYNC) && in->nops > 2 ? (unsigned)fetch(c, &in->o[2]) : live_lanes(c->t);
    static const int kinds[] = {MODEL_VOTE_ALL, MODEL_VOTE_ANY, MODEL_VOTE_UNI, MODEL_VOTE_BALLOT};
    const unsigned r = model_vote(kinds[in->sub & 3], mask, p != 0, site_of(c->m, in, c->t));
    store_reg(c, in->o[0].reg, in->sub == PTX_VOTE_BALLOT ? PTX_T_B32 : PTX_T_PRED, r);
}

static void exec_match(pctx *c, ptx_insn *in)
{
    const uint64_t v = fetch(c, &in->o[1]);
    const unsigned mask = (unsigned)fetch(c, &in->o[2]);
    const uint64_t r = model_match(in->sub == PTX_MATCH_ALL ? MODEL_MATCH_ALL : MODEL_MATCH_ANY, mask, v,
                                   site_of(c->m, in, c->t));
    store_reg(c, in->o[0].reg, PTX_T_B32, r & 0xffffffffu);
    if (in->flags & PTX_F_PRED_OUT)
        store_reg(c, in->o2.reg, PTX_T_PRED, r >> 32 & 1);
}

static void exec_redux(pctx *c, ptx_insn *in)
{
    const uint32_t v = (uint32_t)fetch(c, &in->o[1]);
    const unsigned mask = (unsigned)fetch(c, &in->o[2]);
    const bool sg = ptx_type_signed(in->type);
    int kind;
    switch (in->sub) {
    case PTX_ATOM_ADD: kind = MODEL_REDUX_ADD; break;
    case PTX_ATOM_MIN: kind = sg ? MODEL_REDUX_MIN : MODEL_REDUX_UMIN; break;
    case PTX_ATOM_MAX: kind = sg ? MODEL_REDUX_MAX : MODEL_REDUX_UMAX; break;
    case PTX_ATOM_AND: kind = MODEL_REDUX_AND; break;
    case PTX_ATOM_OR: kind = MODEL_REDUX_OR; break;
    case PTX_ATOM_XOR: kind = MODEL_REDUX_XOR; break;
    default:
        fail(c->t, c->m, in, MODEL_FIND_LIMIT, SL_ERR_UNSUPPORTED, "unsupported PTX instruction 'redux'");
        return;
    }
    store_reg(c, in->o[0].reg, PTX_T_B32, model_redux(kind, mask, v, site_of(c->m, in, c->t)));
}

/* ---- conversions of addresses --------------------------------------------------- */
static void exec_cvta(pctx *c, ptx_insn *in)
{
    uint64_t a = fetch(c, &in->o[1]), base = 0;
    switch (in->space) {
    case PTX_SPACE_SHARED: base = (uintptr_t)c->t->blk->smem; break;
    case PTX_SPACE_LOCAL: base = (uintptr_t)c->data; break;
    case PTX_SPACE_PARAM: base = (uintptr_t)c->L->params; break;
    default: break; /* global and const addresses are generic ones */
    }
    a = (in->flags & PTX_F_TO) ? a - base : a + base;
    store_reg(c, in->o[0].reg, in->type, a & width_mask(ptx_type_bytes(in->type)));
}

static void exec_isspacep(pctx *c, ptx_insn *in)
{
    const uint64_t a = fetch(c, &in->o[1]);
    const mblock *b = c->t->blk;
    bool r;
    switch (in->space) {
    case PTX_SPACE_SHARED: r = a - (uintptr_t)b->smem < MODEL_MAX_SHARED_LIMIT; break;
    case PTX_SPACE_LOCAL: r = a - (uintptr_t)c->data < c->L->data_bytes; break;
    case PTX_SPACE_PARAM: r = a - (uintptr_t)c->L->params < c->L->param_bytes; break;
    default:
        r = !(a - (uintptr_t)b->smem < MODEL_MAX_SHARED_LIMIT) && !(a - (uintptr_t)c->data < c->L->data_bytes);
        break;
    }
    store_reg(c, in->o[0].reg, PTX_T_PRED, r);
}

/* ---- calls ----------------------------------------------------------------------- */
static unsigned char *param_area(pctx *c, uint32_t depth) { return c->data + c->h->frame[depth].param_off; }

static void exec_call(pctx *c, ptx_insn *in)
{
    const int32_t fi = in->o[0].target;
    const ptx_func *callee = &c->m->funcs[fi];
    if (!callee->defined)
        fail(c->t, c->m, in, MODEL_FIND_LIMIT, SL_ERR_UNSUPPORTED, "call of %s, which has no body in the module",
             callee->name);
    if (in->narg != callee->nparams || in->nret > callee->nrets)
        fail(c->t, c->m, in, MODEL_FIND_LIMIT, SL_ERR_SIM, "call of %s with %u arguments (it takes %u)",
             callee->name, in->narg, callee->nparams);
    const uint32_t caller_depth = c->h->depth - 1;
    if (!push_frame(c, (uint32_t)fi, c->h->pc))
        fail(c->t, c->m, in, MODEL_FIND_LIMIT, SL_ERR_SIM, "calls nested deeper than %d (recursion)", PTX_MAX_DEPTH);
    /* the arguments, from the caller's .param variables to the callee's parameters */
    const unsigned char *from = param_area(c, caller_depth);
    unsigned char *to = param_area(c, c->h->depth - 1);
    for (unsigned k = 0; k < in->narg; k++) {
        const ptx_sym *a = &c->m->syms[in->call_params[in->nret + k]], *p = &c->m->syms[callee->params[k]];
        const uint64_t n = a->size < p->size ? a->size : p->size;
        memcpy(to + p->offset, from + a->offset, n);
    }
    enter_frame(c);
    c->h->pc = 0;
}

/* Returns from a .func: its return values to the caller's .param
 * variables named at the call. */
static void exec_ret(pctx *c)
{
    pthread_hdr *h = c->h;
    const pframe *fr = &h->frame[h->depth - 1];
    const ptx_func *callee = &c->m->funcs[fr->func];
    const uint32_t ret_pc = fr->ret_pc;
    const ptx_insn *call = &c->m->funcs[h->frame[h->depth - 2].func].insns[ret_pc - 1];
    const unsigned char *from = param_area(c, h->depth - 1);
    unsigned char *to = param_area(c, h->depth - 2);
    for (unsigned k = 0; k < call->nret && k < callee->nrets; k++) {
        const ptx_sym *r = &c->m->syms[callee->rets[k]], *d = &c->m->syms[call->call_params[k]];
        memcpy(to + d->offset, from + r->offset, r->size < d->size ? r->size : d->size);
    }
    h->depth--;
    h->pc = ret_pc;
    enter_frame(c);
}

/* ---- the interpreter ---------------------------------------------------------------- */
static void unsupported(pctx *c, ptx_insn *in, const char *text)
{
    site_of(c->m, in, c->t);
    fail(c->t, c->m, in, MODEL_FIND_LIMIT, SL_ERR_UNSUPPORTED, "unsupported PTX instruction '%s'", text);
}

static void exec_alu(pctx *c, ptx_insn *in)
{
    uint64_t src[8] = {0}, dst[8] = {0};
    unsigned k = 0;
    for (unsigned i = 1; i < in->nops && k < 8; i++) {
        const ptx_operand *o = &in->o[i];
        if (o->kind == PTX_O_VEC) {
            for (unsigned e = 0; e < o->nelem && k < 8; e++)
                src[k++] = o->elem[e].is_imm ? o->elem[e].imm : o->elem[e].reg >= 0 ? c->R[o->elem[e].reg] : 0;
        } else {
            src[k++] = fetch(c, o);
        }
    }
    if (ptx_alu(in, src, dst, &c->h->carry) != 0) {
        char text[80];
        snprintf(text, sizeof text, "%s%s", ptx_opcode_name[in->op], ptx_type_name(in->type));
        unsupported(c, in, text);
    }
    const ptx_operand *d = &in->o[0];
    if (d->kind == PTX_O_VEC) {
        for (unsigned e = 0; e < d->nelem && e < PTX_ALU_DST2; e++)
            if (d->elem[e].reg >= 0)
                c->R[d->elem[e].reg] = dst[e];
    } else if (d->kind == PTX_O_REG && in->op == PTX_I_cvt) {
        /* cvt's destination may be wider than its type: the result is
         * extended by the type's signedness, as a narrow load's is
         * (cvt.s8.s32 into a .b16 register: 0x80 becomes 0xff80) */
        store_reg(c, d->reg, in->type, dst[0]);
    } else if (d->kind == PTX_O_REG) {
        c->R[d->reg] = c->f->reg_type[d->reg] == PTX_T_PRED ? dst[0] != 0 : dst[0];
    }
    if ((in->flags & PTX_F_PRED_OUT) && in->o2.kind == PTX_O_REG)
        c->R[in->o2.reg] = dst[PTX_ALU_DST2] != 0;
}

/* Shortcuts for the integer instructions that dominate nvcc's code: the
 * same results as ptx_alu for their forms (32- and 64-bit integers, no
 * .sat, no carry, no second destination), taken without its dispatch. */
enum { FAST_NONE, FAST_END, FAST_BRA, FAST_MOV, FAST_MOV_PRED, FAST_ADD, FAST_SUB, FAST_MUL_LO, FAST_MAD_LO,
       FAST_MUL_WIDE_S32, FAST_MUL_WIDE_U32, FAST_AND, FAST_OR, FAST_XOR, FAST_SHL, FAST_SHR_U, FAST_SHR_S,
       FAST_SETP_S, FAST_SETP_U, FAST_SELP, FAST_COUNT };

/* What the inner loop reads of every instruction, in 40 bytes: its guard
 * and, for the frequent integer instructions and bra, the shortcut with its
 * operands. The decoded instruction (ptx_insn, most of a kilobyte with its
 * operands) is read only for the rest: kept apart, the records of a kernel's
 * hot loop stay in the first-level cache. */
typedef struct phot {
    uint8_t fast;      /* FAST_*; FAST_NONE: the general path reads insns[pc] */
    uint8_t w64;       /* 64-bit operation (else 32-bit) */
    uint8_t cmp;       /* setp's comparison */
    uint8_t guard_neg; /* @!p */
    uint8_t imm;       /* bit k: source k is an immediate in s[k] (else a register slot) */
    int32_t guard;     /* predicate slot; -1: none */
    int32_t dst;       /* destination slot; bra: the target */
    uint64_t s[3];     /* sources o[1..3]: register slots or immediates' bits */
} phot;

static bool int3264(unsigned t)
{
    return t == PTX_T_B32 || t == PTX_T_U32 || t == PTX_T_S32 || t == PTX_T_B64 || t == PTX_T_U64 || t == PTX_T_S64;
}

/* The shortcut of an instruction of f: integer forms whose sources are
 * plain registers or immediates, and a destination register of its type. */
static uint8_t choose_fast(const ptx_func *f, const ptx_insn *in)
{
    const unsigned t = in->type;
    if (in->unsupported)
        return FAST_NONE;
    if (in->op == PTX_I_bra)
        return FAST_BRA;
    if (in->nops < 2 || in->nops > 4 || in->o[0].kind != PTX_O_REG || in->o[0].reg < 0 ||
        (in->flags & (PTX_F_SAT | PTX_F_CC | PTX_F_PRED_OUT)) || in->type2)
        return FAST_NONE;
    for (unsigned k = 1; k < in->nops; k++)
        if (!((in->o[k].kind == PTX_O_REG && !in->o[k].neg && in->o[k].reg >= 0) || in->o[k].kind == PTX_O_IMM))
            return FAST_NONE;
    const bool plain = !(in->flags & (PTX_F_HI | PTX_F_WIDE | PTX_F_LO));
    const bool pred_dst = f->reg_type[in->o[0].reg] == PTX_T_PRED;
    switch (in->op) {
    case PTX_I_mov:
        if (in->nops != 2)
            return FAST_NONE;
        return t == PTX_T_PRED ? FAST_MOV_PRED : int3264(t) && !pred_dst ? FAST_MOV : FAST_NONE;
    case PTX_I_add: return int3264(t) && plain ? FAST_ADD : FAST_NONE;
    case PTX_I_sub: return int3264(t) && plain ? FAST_SUB : FAST_NONE;
    case PTX_I_mul:
        if ((in->flags & PTX_F_LO) && int3264(t))
            return FAST_MUL_LO;
        if (in->flags & PTX_F_WIDE)
            return t == PTX_T_S32 ? FAST_MUL_WIDE_S32 : t == PTX_T_U32 ? FAST_MUL_WIDE_U32 : FAST_NONE;
        return FAST_NONE;
    case PTX_I_mad: return (in->flags & PTX_F_LO) && int3264(t) && in->nops == 4 ? FAST_MAD_LO : FAST_NONE;
    case PTX_I_and: return int3264(t) || t == PTX_T_PRED ? FAST_AND : FAST_NONE;
    case PTX_I_or: return int3264(t) || t == PTX_T_PRED ? FAST_OR : FAST_NONE;
    case PTX_I_xor: return int3264(t) || t == PTX_T_PRED ? FAST_XOR : FAST_NONE;
    case PTX_I_shl: return int3264(t) ? FAST_SHL : FAST_NONE;
    case PTX_I_shr: return !int3264(t) ? FAST_NONE : t == PTX_T_S32 || t == PTX_T_S64 ? FAST_SHR_S : FAST_SHR_U;
    case PTX_I_setp:
        if (!int3264(t) || in->boolop != PTX_BOOL_NONE || in->cmp < PTX_CMP_EQ || in->cmp > PTX_CMP_HS)
            return FAST_NONE;
        return t == PTX_T_S32 || t == PTX_T_S64 ? FAST_SETP_S : FAST_SETP_U;
    case PTX_I_selp: return int3264(t) ? FAST_SELP : FAST_NONE;
    default: return FAST_NONE;
    }
}

/* The compact records of f's instructions. */
static phot *make_hot(const ptx_func *f)
{
    phot *hot = calloc((size_t)f->ninsns + 1, sizeof *hot);
    if (!hot)
        return NULL;
    hot[f->ninsns] = (phot){.fast = FAST_END, .guard = -1};
    for (uint32_t i = 0; i < f->ninsns; i++) {
        const ptx_insn *in = &f->insns[i];
        phot *h = &hot[i];
        h->guard = in->guard;
        h->guard_neg = in->guard_neg;
        h->fast = choose_fast(f, in);
        h->w64 = in->type == PTX_T_B64 || in->type == PTX_T_U64 || in->type == PTX_T_S64;
        h->cmp = in->cmp;
        if (h->fast == FAST_BRA)
            h->dst = in->o[0].target;
        else if (h->fast != FAST_NONE) {
            h->dst = in->o[0].reg;
            for (unsigned k = 1; k < in->nops; k++) {
                const bool imm = in->o[k].kind == PTX_O_IMM;
                h->imm |= (uint8_t)(imm << (k - 1));
                h->s[k - 1] = imm ? in->o[k].imm : (uint64_t)in->o[k].reg;
            }
        }
    }
    return hot;
}

/* Signed view of a 32- or 64-bit value by its type. */
static inline int64_t as_signed(uint64_t v, bool w64) { return w64 ? (int64_t)v : (int64_t)(int32_t)(uint32_t)v; }

/* Source k of a record. */
static inline __attribute__((always_inline)) uint64_t hot_src(const uint64_t *R, const phot *h, unsigned k)
{
    return h->imm >> k & 1 ? h->s[k] : R[h->s[k]];
}

/* setp's comparison of a record (FAST_SETP_S or FAST_SETP_U). */
static inline __attribute__((always_inline)) uint64_t setp_fast(const phot *h, uint64_t a, uint64_t b)
{
    const uint64_t mask = h->w64 ? ~UINT64_C(0) : UINT64_C(0xffffffff);
    const uint64_t ux = a & mask, uy = b & mask;
    const bool sg = h->fast == FAST_SETP_S;
    const int64_t x = as_signed(a, h->w64), y = as_signed(b, h->w64);
    switch (h->cmp) {
    case PTX_CMP_EQ: return ux == uy;
    case PTX_CMP_NE: return ux != uy;
    case PTX_CMP_LT: return sg ? x < y : ux < uy;
    case PTX_CMP_LE: return sg ? x <= y : ux <= uy;
    case PTX_CMP_GT: return sg ? x > y : ux > uy;
    case PTX_CMP_GE: return sg ? x >= y : ux >= uy;
    case PTX_CMP_LO: return ux < uy;
    case PTX_CMP_LS: return ux <= uy;
    case PTX_CMP_HI: return ux > uy;
    default: return ux >= uy;
    }
}

/* Runs the thread from its entry until it exits. The program counter,
 * the function's records and its registers are kept in locals while no
 * call or return changes the frame; the counter and the operation count
 * are written back before anything that may park the thread (a snapshot of
 * a schedule search copies them then).
 *
 * Dispatch is threaded: every handler ends in a jump of its own through the
 * table, so the processor predicts the next handler from the one before it
 * (the sequence of a kernel's loop repeats) instead of through one shared
 * jump. A record past the last instruction (FAST_END) ends a body. */
#define PTX_DISPATCH()                                                                                             \
    do {                                                                                                           \
        if (__builtin_expect(npend != 0, 0))                                                                       \
            goto pending;                                                                                          \
        PTX_DISPATCH_NOW();                                                                                        \
    } while (0)
#define PTX_DISPATCH_NOW()                                                                                         \
    do {                                                                                                           \
        hr = &hot[pc++];                                                                                           \
        count++;                                                                                                   \
        if (hr->guard >= 0 && (R[hr->guard] != 0) == (hr->guard_neg != 0))                                        \
            goto skipped;                                                                                          \
        ops++;                                                                                                     \
        goto *handler[hr->fast];                                                                                   \
    } while (0)
#define SRC(k) hot_src(R, hr, k)
#define MASK (hr->w64 ? ~UINT64_C(0) : UINT64_C(0xffffffff))
#define BITS (hr->w64 ? 64u : 32u)

static void run(pctx *c)
{
    static const void *const handler[FAST_COUNT] = {
        [FAST_NONE] = &&h_slow, [FAST_END] = &&h_end, [FAST_BRA] = &&h_bra, [FAST_MOV] = &&h_mov,
        [FAST_MOV_PRED] = &&h_mov_pred, [FAST_ADD] = &&h_add, [FAST_SUB] = &&h_sub, [FAST_MUL_LO] = &&h_mul_lo,
        [FAST_MAD_LO] = &&h_mad_lo, [FAST_MUL_WIDE_S32] = &&h_mul_wide_s32, [FAST_MUL_WIDE_U32] = &&h_mul_wide_u32,
        [FAST_AND] = &&h_and, [FAST_OR] = &&h_or, [FAST_XOR] = &&h_xor, [FAST_SHL] = &&h_shl,
        [FAST_SHR_U] = &&h_shr_u, [FAST_SHR_S] = &&h_shr_s, [FAST_SETP_S] = &&h_setp, [FAST_SETP_U] = &&h_setp,
        [FAST_SELP] = &&h_selp,
    };
    pthread_hdr *h = c->h;
    model_lane *l = c->l;
    unsigned long long count = 0, ops = 0;
    ptx_insn *insns;
    const phot *hot, *hr;
    uint64_t *R;
    uint32_t pc, npend;
frame_changed:
    insns = c->f->insns;
    hot = c->hot;
    R = c->R;
    pc = h->pc;
    npend = h->npend;
    PTX_DISPATCH();
pending: {
    /* pending loads (explored schedules only): those the next instruction
     * depends on are bound first, which may park the thread */
    const unsigned hit = pending_hit(c, pc < c->f->ninsns ? &insns[pc] : NULL);
    if (hit) {
        h->pc = pc;
        l->ops += ops;
        ops = 0;
        bind_pending(c, hit);
        npend = h->npend;
    }
    PTX_DISPATCH_NOW();
}
skipped:
    PTX_DISPATCH();
h_bra:
    pc = (uint32_t)hr->dst;
    PTX_DISPATCH();
h_mov:
    R[hr->dst] = SRC(0) & MASK;
    PTX_DISPATCH();
h_mov_pred:
    R[hr->dst] = SRC(0) != 0;
    PTX_DISPATCH();
h_add:
    R[hr->dst] = (SRC(0) + SRC(1)) & MASK;
    PTX_DISPATCH();
h_sub:
    R[hr->dst] = (SRC(0) - SRC(1)) & MASK;
    PTX_DISPATCH();
h_mul_lo:
    R[hr->dst] = (SRC(0) * SRC(1)) & MASK;
    PTX_DISPATCH();
h_mad_lo:
    R[hr->dst] = (SRC(0) * SRC(1) + SRC(2)) & MASK;
    PTX_DISPATCH();
h_mul_wide_s32:
    R[hr->dst] = (uint64_t)((int64_t)(int32_t)(uint32_t)SRC(0) * (int64_t)(int32_t)(uint32_t)SRC(1));
    PTX_DISPATCH();
h_mul_wide_u32:
    R[hr->dst] = (uint64_t)(uint32_t)SRC(0) * (uint32_t)SRC(1);
    PTX_DISPATCH();
h_and:
    R[hr->dst] = SRC(0) & SRC(1);
    PTX_DISPATCH();
h_or:
    R[hr->dst] = SRC(0) | SRC(1);
    PTX_DISPATCH();
h_xor:
    R[hr->dst] = SRC(0) ^ SRC(1);
    PTX_DISPATCH();
h_shl: {
    const uint64_t sh = (uint32_t)SRC(1);
    R[hr->dst] = sh >= BITS ? 0 : (SRC(0) << sh) & MASK;
    PTX_DISPATCH();
}
h_shr_u: {
    const uint64_t sh = (uint32_t)SRC(1);
    R[hr->dst] = sh >= BITS ? 0 : (SRC(0) & MASK) >> sh;
    PTX_DISPATCH();
}
h_shr_s: {
    const uint64_t sh = (uint32_t)SRC(1);
    /* PTX: a shift past the width fills with the sign */
    R[hr->dst] = (uint64_t)(as_signed(SRC(0), hr->w64) >> (sh >= BITS ? BITS - 1 : sh)) & MASK;
    PTX_DISPATCH();
}
h_setp:
    R[hr->dst] = setp_fast(hr, SRC(0), SRC(1));
    PTX_DISPATCH();
h_selp:
    R[hr->dst] = (SRC(2) ? SRC(0) : SRC(1)) & MASK;
    PTX_DISPATCH();
h_end:
    /* falling off the end of a body is a return (the record past the end
     * is no instruction) */
    pc--;
    count--;
    ops--;
    h->pc = pc;
    l->ops += ops;
    ops = 0;
    if (h->depth == 1)
        goto done;
    exec_ret(c);
    goto frame_changed;
h_slow: {
    l->ops += ops;
    ops = 0;
    ptx_insn *in = &insns[pc - 1];
    h->pc = pc;
    if (__builtin_expect(in->unsupported != NULL, 0))
        unsupported(c, in, in->unsupported);
    switch (in->op) {
    case PTX_I_ld:
    case PTX_I_ldu: exec_ld(c, in); break;
    case PTX_I_st: exec_st(c, in); break;
    case PTX_I_atom:
    case PTX_I_red: exec_atom(c, in); break;
    case PTX_I_cvta: exec_cvta(c, in); break;
    case PTX_I_isspacep: exec_isspacep(c, in); break;
    case PTX_I_prefetch:
    case PTX_I_prefetchu:
    case PTX_I_applypriority:
    case PTX_I_discard:
    case PTX_I_griddepcontrol:
    case PTX_I_pmevent: break;
    case PTX_I_bar:
    case PTX_I_barrier: exec_bar(c, in); break;
    case PTX_I_membar:
    case PTX_I_fence: exec_fence(c, in); break;
    case PTX_I_shfl: exec_shfl(c, in); break;
    case PTX_I_vote: exec_vote(c, in); break;
    case PTX_I_match: exec_match(c, in); break;
    case PTX_I_redux: exec_redux(c, in); break;
    case PTX_I_activemask: store_reg(c, in->o[0].reg, PTX_T_B32, live_lanes(c->t)); break;
    case PTX_I_nanosleep: model_nanosleep((unsigned)fetch(c, &in->o[0]), site_of(c->m, in, c->t)); break;
    case PTX_I_call: exec_call(c, in); goto frame_changed;
    case PTX_I_ret:
        if (h->depth == 1)
            goto done;
        exec_ret(c);
        goto frame_changed;
    case PTX_I_exit: goto done;
    case PTX_I_trap:
    case PTX_I_brkpt:
        site_of(c->m, in, c->t);
        fail(c->t, c->m, in, MODEL_FIND_LIMIT, SL_ERR_SIM, "%s executed (the kernel aborts)",
             ptx_opcode_name[in->op]);
        break;
    case PTX_I_brx: unsupported(c, in, "brx.idx"); break;
    default: exec_alu(c, in); break;
    }
    npend = h->npend;
    PTX_DISPATCH();
}
done:
    l->ops += ops;
    instructions += count;
}
#undef PTX_DISPATCH
#undef PTX_DISPATCH_NOW
#undef SRC
#undef MASK
#undef BITS

static void thread_entry(const void *args)
{
    const plaunch *L = args;
    pctx c;
    c.t = (mthread *)model_cur;
    c.l = model_cur;
    c.L = L;
    c.m = L->m;
    c.h = c.l->xstate;
    c.data = (unsigned char *)c.h + align_up(sizeof(pthread_hdr), FRAME_ALIGN);
    pmodule *pm = c.m->exec;
    /* the block's shared variables, in the same order by every thread:
     * the first thread of a block allocates them */
    for (unsigned k = 0; k < L->nshared; k++) {
        const ptx_sym *s = &c.m->syms[L->shared_syms[k]];
        if (s->external)
            (void)model_shared_dyn(&pm->sym_site[L->shared_syms[k]]);
        else
            (void)model_shared(s->size ? s->size : 1, s->align ? s->align : 4, &pm->sym_site[L->shared_syms[k]]);
    }
    c.h->depth = 0;
    c.h->npend = 0;
    if (!push_frame(&c, (uint32_t)L->entry_index, 0))
        fail(c.t, c.m, NULL, MODEL_FIND_LIMIT, SL_ERR_SIM, "the kernel's frame does not fit");
    enter_frame(&c);
    c.h->pc = 0;
    run(&c);
}

/* ---- loading ---------------------------------------------------------------------- */
static void exec_free(ptx_module *m)
{
    pmodule *pm = m->exec;
    if (!pm)
        return;
    for (unsigned i = 0; i < m->nsyms; i++)
        if (pm->addr[i])
            model_dev_free(pm->addr[i]);
    for (size_t i = 0; i < pm->nsites; i++) {
        model_site_forget(pm->sites[i]);
        free(pm->sites[i]);
    }
    for (unsigned i = 0; pm->sym_site && i < m->nsyms; i++)
        model_site_forget(&pm->sym_site[i]);
    for (size_t i = 0; i < pm->nwhat; i++)
        free(pm->what[i]);
    for (unsigned f = 0; pm->hot && f < m->nfuncs; f++)
        free(pm->hot[f]);
    free(pm->hot);
    free(pm->sites);
    free(pm->what);
    free(pm->addr);
    free(pm->sym_site);
    free(pm);
    m->exec = NULL;
}

/* Device storage for the module's .global and .const variables, with
 * their initial values. */
static sl_status exec_prepare(ptx_module *m, char *err, size_t errlen)
{
    pmodule *pm = calloc(1, sizeof *pm);
    if (!pm)
        return SL_ERR_NOMEM;
    m->exec = pm;
    pm->addr = calloc(m->nsyms ? m->nsyms : 1, sizeof *pm->addr);
    pm->sym_site = calloc(m->nsyms ? m->nsyms : 1, sizeof *pm->sym_site);
    pm->hot = calloc(m->nfuncs ? m->nfuncs : 1, sizeof *pm->hot);
    if (!pm->addr || !pm->sym_site || !pm->hot)
        return SL_ERR_NOMEM;
    for (unsigned f = 0; f < m->nfuncs; f++)
        if (ptx_compact_registers(&m->funcs[f]) != 0 || !(pm->hot[f] = make_hot(&m->funcs[f])))
            return SL_ERR_NOMEM;
    for (unsigned i = 0; i < m->nsyms; i++) {
        const ptx_sym *s = &m->syms[i];
        pm->sym_site[i] = (model_site){m->path, (int)s->ptx_line, s->name, 0, 0, 0, 0, 0};
        if (s->func >= 0 || (s->space != PTX_SPACE_GLOBAL && s->space != PTX_SPACE_CONST))
            continue;
        if (s->external && s->size == 0) {
            snprintf(err, errlen, "%s:%u: error: variable '%s' is declared .extern with no storage in the module",
                     m->path, s->ptx_line, s->name);
            return SL_ERR_ARG;
        }
        if (model_dev_alloc_named(&pm->addr[i], s->size ? s->size : 1, s->name) != SL_OK)
            return SL_ERR_NOMEM;
        model_dev_memset(pm->addr[i], 0, s->size ? s->size : 1);
        if (s->init)
            memcpy(pm->addr[i], s->init, s->size);
    }
    return SL_OK;
}

ptx_module *model_ptx_load(const char *text, size_t len, const char *path, char *err, size_t errlen)
{
    ptx_module *m = ptx_parse(text, len, path, err, errlen);
    if (!m)
        return NULL;
    const sl_status st = exec_prepare(m, err, errlen);
    if (st != SL_OK) {
        if (st == SL_ERR_NOMEM)
            snprintf(err, errlen, "%s: error: out of memory for the module's variables", path);
        model_ptx_unload(m);
        return NULL;
    }
    return m;
}

ptx_module *model_ptx_load_file(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: error: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (len == cap) {
            char *n = cap < ((size_t)1 << 30) ? realloc(buf, cap * 2) : NULL;
            if (!n) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = n;
            cap *= 2;
        }
        const size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    const bool bad = ferror(f);
    fclose(f);
    if (!buf || bad) {
        free(buf);
        snprintf(err, errlen, "%s: error: %s", path, bad ? "read error" : "out of memory (or larger than 1 GiB)");
        return NULL;
    }
    ptx_module *m = model_ptx_load(buf, len, path, err, errlen);
    free(buf);
    return m;
}

void model_ptx_unload(ptx_module *m)
{
    if (!m)
        return;
    exec_free(m);
    ptx_free(m);
}

int model_ptx_entry(const ptx_module *m, const char *name, char *err, size_t errlen)
{
    const int fi = ptx_find_func(m, name);
    if (fi < 0) {
        int n = snprintf(err, errlen, "%s: error: no kernel named '%s'; the module's kernels:", m->path, name);
        for (unsigned i = 0; i < m->nfuncs && n >= 0 && (size_t)n < errlen; i++)
            if (m->funcs[i].entry && m->funcs[i].defined)
                n += snprintf(err + n, errlen - (size_t)n, " %s", m->funcs[i].name);
        return -1;
    }
    if (!m->funcs[fi].entry || !m->funcs[fi].defined) {
        snprintf(err, errlen, "%s:%u: error: '%s' is %s, not a kernel", m->path, m->funcs[fi].ptx_line, name,
                 m->funcs[fi].entry ? "declared without a body" : "a .func");
        return -1;
    }
    return fi;
}

unsigned model_ptx_nparams(const ptx_module *m, int entry) { return m->funcs[entry].nparams; }

size_t model_ptx_param_size(const ptx_module *m, int entry, unsigned k)
{
    return m->syms[m->funcs[entry].params[k]].size;
}

void *model_ptx_symbol(ptx_module *m, const char *name, size_t *bytes)
{
    const pmodule *pm = m->exec;
    for (unsigned i = 0; i < m->nsyms; i++)
        if (pm->addr[i] && strcmp(m->syms[i].name, name) == 0) {
            if (bytes)
                *bytes = m->syms[i].size;
            return pm->addr[i];
        }
    return NULL;
}

/* The functions reachable from the entry by calls, and the bytes of the
 * deepest chain of frames among them (recursion: PTX_MAX_DEPTH frames of
 * the largest). */
static uint64_t frame_bytes(const ptx_func *f)
{
    return align_up((uint64_t)f->nregs * 8, FRAME_ALIGN) + align_up(f->param_bytes, FRAME_ALIGN) +
           align_up(f->local_bytes, FRAME_ALIGN);
}

static uint64_t chain_bytes(const ptx_module *m, unsigned fi, bool *reach, unsigned char *on_path, unsigned depth,
                            bool *recursive)
{
    reach[fi] = true;
    if (on_path[fi] || depth >= PTX_MAX_DEPTH) {
        *recursive = true;
        return 0;
    }
    on_path[fi] = 1;
    const ptx_func *f = &m->funcs[fi];
    uint64_t deepest = 0;
    for (uint32_t i = 0; i < f->ninsns; i++)
        if (f->insns[i].op == PTX_I_call && !f->insns[i].unsupported && f->insns[i].o[0].kind == PTX_O_FUNC) {
            const uint64_t b = chain_bytes(m, (unsigned)f->insns[i].o[0].target, reach, on_path, depth + 1, recursive);
            if (b > deepest)
                deepest = b;
        }
    on_path[fi] = 0;
    return frame_bytes(f) + deepest;
}

static void launch_free(plaunch *L)
{
    free(L->params);
    free(L->shared_syms);
    free(L->shared_off);
    free(L->reach);
}

/* The shared variables the reachable functions use: module-scope ones
 * they name, and those declared in their bodies (nvcc's demoted
 * variables), each once, in symbol order; the dynamic one last. */
static sl_status collect_shared(plaunch *L)
{
    const ptx_module *m = L->m;
    bool *used = calloc(m->nsyms ? m->nsyms : 1, sizeof *used);
    L->shared_syms = calloc(m->nsyms ? m->nsyms : 1, sizeof *L->shared_syms);
    L->shared_off = calloc(m->nsyms ? m->nsyms : 1, sizeof *L->shared_off);
    if (!used || !L->shared_syms || !L->shared_off) {
        free(used);
        return SL_ERR_NOMEM;
    }
    for (unsigned fi = 0; fi < m->nfuncs; fi++) {
        if (!L->reach[fi])
            continue;
        const ptx_func *f = &m->funcs[fi];
        for (uint32_t i = 0; i < f->ninsns; i++)
            for (unsigned k = 0; k < f->insns[i].nops; k++) {
                const ptx_operand *o = &f->insns[i].o[k];
                if ((o->kind == PTX_O_ADDR || o->kind == PTX_O_SYM) && o->sym >= 0 &&
                    m->syms[o->sym].space == PTX_SPACE_SHARED)
                    used[o->sym] = true;
            }
    }
    for (unsigned si = 0; si < m->nsyms; si++) {
        const ptx_sym *s = &m->syms[si];
        if (s->space == PTX_SPACE_SHARED && !s->external && (used[si] || (s->func >= 0 && L->reach[s->func])))
            L->shared_syms[L->nshared++] = (int32_t)si;
    }
    for (unsigned si = 0; si < m->nsyms; si++)
        if (m->syms[si].space == PTX_SPACE_SHARED && m->syms[si].external && used[si])
            L->shared_syms[L->nshared++] = (int32_t)si;
    free(used);
    return SL_OK;
}

/* Offsets in the shared arena of each shared variable, as model_shared
 * lays them out: dynamic memory first, then each static variable aligned. */
static uint64_t layout_shared(plaunch *L, size_t dyn)
{
    uint64_t off = dyn;
    for (unsigned k = 0; k < L->nshared; k++) {
        const ptx_sym *s = &L->m->syms[L->shared_syms[k]];
        if (s->external) {
            L->shared_off[L->shared_syms[k]] = 0;
            continue;
        }
        const uint64_t a = s->align ? s->align : 4;
        off = (off + a - 1) / a * a;
        L->shared_off[L->shared_syms[k]] = off;
        off += s->size ? s->size : 1;
    }
    return off;
}

sl_status model_ptx_launch(ptx_module *m, int entry, const sl_launch *cfg, const void *const *args, char *err,
                           size_t errlen)
{
    return model_ptx_launch_named(m, entry, cfg, args, NULL, err, errlen);
}

sl_status model_ptx_launch_named(ptx_module *m, int entry, const sl_launch *cfg, const void *const *args,
                                 const char *name, char *err, size_t errlen)
{
    if (entry < 0 || (unsigned)entry >= m->nfuncs || !m->funcs[entry].entry || !m->funcs[entry].defined) {
        snprintf(err, errlen, "%s: error: no such kernel", m->path);
        return SL_ERR_ARG;
    }
    const ptx_func *f = &m->funcs[entry];
    const unsigned long long nth = (unsigned long long)cfg->block.x * cfg->block.y * cfg->block.z;
    if (f->reqntid[0] && (cfg->block.x != f->reqntid[0] || cfg->block.y != (f->reqntid[1] ? f->reqntid[1] : 1) ||
                          cfg->block.z != (f->reqntid[2] ? f->reqntid[2] : 1))) {
        snprintf(err, errlen, "%s:%u: error: %s requires blocks of %ux%ux%u threads (.reqntid); launched with %ux%ux%u",
                 m->path, f->ptx_line, f->name, f->reqntid[0], f->reqntid[1] ? f->reqntid[1] : 1,
                 f->reqntid[2] ? f->reqntid[2] : 1, cfg->block.x, cfg->block.y, cfg->block.z);
        return SL_ERR_ARG;
    }
    if (f->maxntid[0]) {
        const unsigned long long mx = (unsigned long long)f->maxntid[0] * (f->maxntid[1] ? f->maxntid[1] : 1) *
                                      (f->maxntid[2] ? f->maxntid[2] : 1);
        if (nth > mx) {
            snprintf(err, errlen, "%s:%u: error: %s takes at most %llu threads a block (.maxntid); launched with %llu",
                     m->path, f->ptx_line, f->name, mx, nth);
            return SL_ERR_ARG;
        }
    }
    plaunch L;
    memset(&L, 0, sizeof L);
    L.m = m;
    L.entry = f;
    L.entry_index = entry;
    /* the kernel's parameters, each at its offset */
    uint64_t pbytes = 0;
    for (unsigned k = 0; k < f->nparams; k++) {
        const ptx_sym *p = &m->syms[f->params[k]];
        if (p->offset + p->size > pbytes)
            pbytes = p->offset + p->size;
    }
    L.param_bytes = pbytes;
    L.params = calloc(pbytes ? pbytes : 1, 1);
    L.reach = calloc(m->nfuncs, sizeof *L.reach);
    unsigned char *on_path = calloc(m->nfuncs, 1);
    sl_status st = L.params && L.reach && on_path ? SL_OK : SL_ERR_NOMEM;
    if (st == SL_OK) {
        for (unsigned k = 0; k < f->nparams; k++) {
            const ptx_sym *p = &m->syms[f->params[k]];
            if (args && args[k])
                memcpy(L.params + p->offset, args[k], p->size);
            /* a pointer parameter names what it points into for findings: param_1[1024] */
            uint64_t v = 0;
            if (p->size == sizeof v && args && args[k]) {
                memcpy(&v, L.params + p->offset, sizeof v);
                const char *tail = strstr(p->name, "_param_");
                model_dev_name((const void *)(uintptr_t)v, tail ? tail + 1 : p->name);
            }
        }
        bool recursive = false;
        uint64_t chain = chain_bytes(m, (unsigned)entry, L.reach, on_path, 0, &recursive);
        if (recursive) {
            uint64_t largest = 0;
            for (unsigned fi = 0; fi < m->nfuncs; fi++)
                if (L.reach[fi] && frame_bytes(&m->funcs[fi]) > largest)
                    largest = frame_bytes(&m->funcs[fi]);
            chain = largest * PTX_MAX_DEPTH;
        }
        if (chain > ((uint64_t)1 << 24)) {
            snprintf(err, errlen, "%s:%u: error: %s needs %llu bytes of registers and local memory a thread",
                     m->path, f->ptx_line, f->name, (unsigned long long)chain);
            st = SL_ERR_UNSUPPORTED;
        }
        L.data_bytes = chain;
    }
    if (st == SL_OK)
        st = collect_shared(&L);
    if (st == SL_OK) {
        const uint64_t static_end = layout_shared(&L, cfg->shmem);
        const model_stats *s = model_current();
        size_t limit = s->cfg.shared_limit ? s->cfg.shared_limit : MODEL_DEFAULT_SHARED_LIMIT;
        if (limit > MODEL_MAX_SHARED_LIMIT)
            limit = MODEL_MAX_SHARED_LIMIT;
        /* bar.red keeps 16 bytes at the top of the arena */
        if (static_end + 16 > limit) {
            snprintf(err, errlen,
                     "%s:%u: error: %s needs %llu bytes of shared memory a block (%zu dynamic), over the limit of %zu",
                     m->path, f->ptx_line, f->name, (unsigned long long)static_end, cfg->shmem, limit);
            st = SL_ERR_ARG;
        }
    }
    free(on_path);
    if (st == SL_OK) {
        const size_t xbytes = align_up(sizeof(pthread_hdr), FRAME_ALIGN) + L.data_bytes;
        st = model_launch_state(cfg, thread_entry, &L, name ? name : f->name, xbytes);
        if (st != SL_OK && err && errlen) {
            const model_stats *s = model_current();
            snprintf(err, errlen, "%s: error: %s", m->path,
                     s->has_error ? s->error.text : st == SL_ERR_NOMEM ? "out of memory" : "the launch failed");
        }
    } else if (st == SL_ERR_NOMEM) {
        snprintf(err, errlen, "%s: error: out of memory", m->path);
    }
    launch_free(&L);
    return st;
}
