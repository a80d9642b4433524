/* Register compaction: the PTX nvcc emits names a fresh virtual register
 * for nearly every value (a block scan's kernel declares over a hundred),
 * most of them live for a few instructions. Every simulated thread keeps
 * its own registers, and a block's thousand threads run in turn, so the
 * registers' footprint decides whether they stay in the processor's cache.
 * This pass gives registers whose values are never live at the same time
 * one slot, by liveness over the function's control flow and a greedy
 * colouring, as a compiler's register allocator does (with no limit on the
 * slots, so nothing spills).
 *
 * What it keeps exact: a slot holds registers of one declared type (a
 * narrower load or cvt into a register is extended by that type); a
 * guarded write does not end its register's previous value (the guard may
 * be false); an instruction's destinations get slots apart from its own
 * sources and from each other. A register read before any write (undefined
 * in PTX) is live from the function's entry, so it shares a slot with no
 * register written while it is live. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/ptx/ptx.h"
#include "model/ptx/regalloc.h"

typedef uint64_t word;
#define WBITS 64u

static inline void bit_set(word *s, uint32_t i) { s[i / WBITS] |= (word)1 << (i % WBITS); }
static inline bool bit_get(const word *s, uint32_t i) { return s[i / WBITS] >> (i % WBITS) & 1; }

/* Whether the instruction's first operand is a destination. */
static bool writes_first(const ptx_insn *in)
{
    if (in->unsupported)
        return false; /* its operands are only read here: a launch stops at it anyway */
    switch (in->op) {
    case PTX_I_st:
    case PTX_I_red:
    case PTX_I_bra:
    case PTX_I_brx:
    case PTX_I_call:
    case PTX_I_ret:
    case PTX_I_exit:
    case PTX_I_membar:
    case PTX_I_fence:
    case PTX_I_prefetch:
    case PTX_I_prefetchu:
    case PTX_I_applypriority:
    case PTX_I_discard:
    case PTX_I_griddepcontrol:
    case PTX_I_pmevent:
    case PTX_I_nanosleep:
    case PTX_I_trap:
    case PTX_I_brkpt: return false;
    case PTX_I_bar:
    case PTX_I_barrier: return in->sub == PTX_BAR_RED;
    default: return in->nops > 0;
    }
}

/* Calls fn(slot pointer, is a destination, ctx) for every register operand
 * of the instruction, the guard included. */
typedef void (*reg_fn)(int32_t *slot, bool def, void *ctx);

static void each_reg(ptx_insn *in, reg_fn fn, void *ctx)
{
    if (in->guard >= 0)
        fn(&in->guard, false, ctx);
    const bool w0 = writes_first(in);
    for (unsigned k = 0; k < in->nops && k < PTX_MAX_OPERANDS; k++) {
        ptx_operand *o = &in->o[k];
        const bool def = k == 0 && w0;
        switch (o->kind) {
        case PTX_O_REG:
            if (o->reg >= 0)
                fn(&o->reg, def, ctx);
            break;
        case PTX_O_ADDR:
            if (o->reg >= 0)
                fn(&o->reg, false, ctx);
            break;
        case PTX_O_VEC:
            for (unsigned e = 0; e < o->nelem && e < 4; e++)
                if (!o->elem[e].is_imm && o->elem[e].reg >= 0)
                    fn(&o->elem[e].reg, def, ctx);
            break;
        default: break;
        }
    }
    if ((in->flags & PTX_F_PRED_OUT) && in->o2.kind == PTX_O_REG && in->o2.reg >= 0)
        fn(&in->o2.reg, !in->unsupported, ctx);
}

/* ---- liveness ----------------------------------------------------------------- */
typedef struct {
    word *use, *def; /* per instruction */
    size_t words;
    uint32_t i;
} usedef;

static void note_usedef(int32_t *slot, bool def, void *ctx)
{
    usedef *u = ctx;
    bit_set((def ? u->def : u->use) + (size_t)u->i * u->words, (uint32_t)*slot);
}

/* The instructions control may go to after instruction i: at most two. */
static unsigned successors(const ptx_func *f, uint32_t i, uint32_t succ[2])
{
    const ptx_insn *in = &f->insns[i];
    const bool guarded = in->guard >= 0;
    unsigned n = 0;
    switch (in->op) {
    case PTX_I_bra:
        if (in->o[0].kind == PTX_O_LABEL && in->o[0].target >= 0 && (uint32_t)in->o[0].target < f->ninsns)
            succ[n++] = (uint32_t)in->o[0].target;
        if (!guarded)
            return n;
        break;
    case PTX_I_ret:
    case PTX_I_exit:
    case PTX_I_trap:
        if (!guarded)
            return 0;
        break;
    default: break;
    }
    if (i + 1 < f->ninsns)
        succ[n++] = i + 1;
    return n;
}

/* What is live after instruction i: the union of its successors' live_in. */
static void live_out(const ptx_func *f, uint32_t i, const word *live_in, size_t words, word *out)
{
    uint32_t succ[2];
    const unsigned ns = successors(f, i, succ);
    memset(out, 0, words * sizeof *out);
    for (unsigned s = 0; s < ns; s++)
        for (size_t w = 0; w < words; w++)
            out[w] |= live_in[(size_t)succ[s] * words + w];
}

/* ---- the pass --------------------------------------------------------------------- */
typedef struct {
    const int32_t *map;
} renamer;

static void rename_reg(int32_t *slot, bool def, void *ctx)
{
    (void)def;
    *slot = ((const renamer *)ctx)->map[*slot];
}

int ptx_compact_registers(ptx_func *f)
{
    const uint32_t R = f->nregs, N = f->ninsns;
    if (R < 2 || N == 0)
        return 0;
    const size_t words = (R + WBITS - 1) / WBITS;
    int rc = -1;
    word *use = calloc((size_t)N * words, sizeof *use), *def = calloc((size_t)N * words, sizeof *def);
    word *live_in = calloc((size_t)N * words, sizeof *live_in), *out = calloc(words, sizeof *out);
    word *conflict = calloc((size_t)R * words, sizeof *conflict);
    int32_t *map = malloc((size_t)R * sizeof *map);
    word *slot_members = NULL;
    uint8_t *slot_type = NULL;
    if (!use || !def || !live_in || !out || !conflict || !map)
        goto done;

    usedef u = {use, def, words, 0};
    for (u.i = 0; u.i < N; u.i++)
        each_reg(&f->insns[u.i], note_usedef, &u);

    /* live_in[i] = use[i] | (out[i] & ~kill[i]), backwards to a fixed point;
     * a guarded instruction kills nothing */
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t i = N; i-- > 0;) {
            live_out(f, i, live_in, words, out);
            const bool kills = f->insns[i].guard < 0;
            word *in_i = live_in + (size_t)i * words;
            for (size_t w = 0; w < words; w++) {
                const word v = use[(size_t)i * words + w] | (out[w] & (kills ? ~def[(size_t)i * words + w] : ~(word)0));
                if (v != in_i[w]) {
                    in_i[w] = v;
                    changed = true;
                }
            }
        }
    }

    /* each destination conflicts with what is live after its instruction,
     * with the instruction's sources and with its other destinations */
    for (uint32_t i = 0; i < N; i++) {
        live_out(f, i, live_in, words, out);
        const word *d = def + (size_t)i * words, *us = use + (size_t)i * words;
        for (size_t w = 0; w < words; w++) {
            for (word bits = d[w]; bits; bits &= bits - 1) {
                const uint32_t r = (uint32_t)(w * WBITS + (uint32_t)__builtin_ctzll(bits));
                word *row = conflict + (size_t)r * words;
                for (size_t x = 0; x < words; x++)
                    row[x] |= out[x] | us[x] | d[x];
            }
        }
    }
    /* symmetric, and a register never conflicts with itself */
    for (uint32_t r = 0; r < R; r++)
        for (uint32_t q = 0; q < R; q++)
            if (bit_get(conflict + (size_t)r * words, q))
                bit_set(conflict + (size_t)q * words, r);

    /* greedy colouring in declaration order, within each declared type */
    slot_members = calloc((size_t)R * words, sizeof *slot_members);
    slot_type = malloc(R);
    if (!slot_members || !slot_type)
        goto done;
    uint32_t nslots = 0;
    for (uint32_t r = 0; r < R; r++) {
        const word *row = conflict + (size_t)r * words;
        uint32_t s = 0;
        for (; s < nslots; s++) {
            if (slot_type[s] != f->reg_type[r])
                continue;
            const word *mem = slot_members + (size_t)s * words;
            bool clash = false;
            for (size_t w = 0; w < words && !clash; w++)
                clash = (row[w] & mem[w]) != 0;
            if (!clash)
                break;
        }
        if (s == nslots)
            slot_type[nslots++] = f->reg_type[r];
        bit_set(slot_members + (size_t)s * words, r);
        map[r] = (int32_t)s;
    }

    /* rewrite the operands; a slot keeps the name of its first register */
    char **names = calloc(nslots, sizeof *names);
    if (!names)
        goto done;
    renamer rn = {map};
    for (uint32_t i = 0; i < N; i++)
        each_reg(&f->insns[i], rename_reg, &rn);
    for (uint32_t r = 0; r < R; r++) {
        if (!names[map[r]])
            names[map[r]] = f->reg_names[r];
        else
            free(f->reg_names[r]);
    }
    free(f->reg_names);
    f->reg_names = names;
    memcpy(f->reg_type, slot_type, nslots);
    f->nregs = nslots;
    rc = 0;
done:
    free(use);
    free(def);
    free(live_in);
    free(out);
    free(conflict);
    free(map);
    free(slot_members);
    free(slot_type);
    return rc;
}
