/* The PTX parser (model/ptx/parse.c, lex.c): the decoded fields of small
 * inline snippets, one feature each; the error cases, each with its
 * "path:LINE: error:" message; the PTX nvcc wrote for the fixtures of
 * tests/ptx/data (PTX_TEST_DATA names the folder), parsed whole and checked
 * where nvcc's own output has a shape worth pinning down; and robustness:
 * every fixture truncated and with bytes flipped must give a module or an
 * error, never a crash or a leak (run under ASan/UBSan/LSan). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include "tap.h"

#include "model/ptx/ptx.h"

/* Every snippet starts with these three lines: its own lines are 4 on. */
#define HDR ".version 8.0\n.target sm_90\n.address_size 64\n"
#define PATH "t.ptx"

/* ---- helpers ------------------------------------------------------------ */
/* Parses len bytes from an exact-size heap copy without a NUL, so that
 * AddressSanitizer sees any read past the text's end. */
static ptx_module *parse_bytes(const char *text, size_t len, const char *path, char *err, size_t errlen)
{
    char *copy = malloc(len ? len : 1);
    assert_non_null(copy);
    memcpy(copy, text, len);
    err[0] = '\0';
    ptx_module *m = ptx_parse(copy, len, path, err, errlen);
    free(copy);
    return m;
}

static ptx_module *must_parse(const char *text)
{
    char err[512];
    ptx_module *m = parse_bytes(text, strlen(text), PATH, err, sizeof err);
    if (!m)
        fail_msg("unexpected parse error: %s", err);
    return m;
}

/* The parse must fail with "t.ptx:LINE: error: ..." containing what. */
static void expect_error_n(const char *text, size_t len, unsigned line, const char *what)
{
    char err[512], prefix[64];
    ptx_module *m = parse_bytes(text, len, PATH, err, sizeof err);
    if (m) {
        ptx_free(m);
        fail_msg("parsed, expected an error at line %u (%s)", line, what);
    }
    snprintf(prefix, sizeof prefix, PATH ":%u: error: ", line);
    if (strncmp(err, prefix, strlen(prefix)) != 0 || !strstr(err, what))
        fail_msg("message '%s', expected '%s...%s'", err, prefix, what);
}

static void expect_error(const char *text, unsigned line, const char *what)
{
    expect_error_n(text, strlen(text), line, what);
}

static const ptx_func *func_named(const ptx_module *m, const char *name)
{
    const int i = ptx_find_func(m, name);
    if (i < 0)
        fail_msg("no function '%s'", name);
    return &m->funcs[i];
}

/* The nth symbol (0-based) named name, or a failure. */
static int sym_nth(const ptx_module *m, const char *name, int nth)
{
    for (unsigned i = 0; i < m->nsyms; i++)
        if (strcmp(m->syms[i].name, name) == 0 && nth-- == 0)
            return (int)i;
    fail_msg("no symbol '%s'", name);
    return -1;
}

static const ptx_sym *sym(const ptx_module *m, const char *name) { return &m->syms[sym_nth(m, name, 0)]; }

/* The slot a register name has in f (names of range slots are filled in
 * as the body uses them). */
static int slot_of(const ptx_func *f, const char *name)
{
    for (uint32_t i = 0; i < f->nregs; i++)
        if (f->reg_names[i] && strcmp(f->reg_names[i], name) == 0)
            return (int)i;
    fail_msg("no register '%s'", name);
    return -1;
}

static unsigned count_unsupported(const ptx_module *m)
{
    unsigned n = 0;
    for (unsigned i = 0; i < m->nfuncs; i++)
        for (uint32_t k = 0; k < m->funcs[i].ninsns; k++)
            n += m->funcs[i].insns[k].unsupported != NULL;
    return n;
}

static unsigned long count_insns(const ptx_module *m)
{
    unsigned long n = 0;
    for (unsigned i = 0; i < m->nfuncs; i++)
        n += m->funcs[i].ninsns;
    return n;
}

/* The index of the first instruction at or after from with opcode op and
 * (unless PTX_T_NONE) type t: the fixtures' instructions are found the way
 * their PTX names them, not by position. */
static uint32_t find_insn_t(const ptx_func *f, unsigned op, unsigned t, uint32_t from)
{
    for (uint32_t i = from; i < f->ninsns; i++)
        if (f->insns[i].op == op && (t == PTX_T_NONE || f->insns[i].type == t))
            return i;
    fail_msg("no '%s%s' in %s after %u", ptx_opcode_name[op], ptx_type_name((ptx_type)t), f->name, from);
    return 0;
}

static uint32_t find_insn(const ptx_func *f, unsigned op, uint32_t from)
{
    return find_insn_t(f, op, PTX_T_NONE, from);
}

/* ---- fixtures ------------------------------------------------------------- */
typedef struct {
    char *data;
    size_t len;
    char path[512];
} fixture;

static bool load_fixture(const char *name, fixture *fx)
{
    const char *dir = getenv("PTX_TEST_DATA");
    if (!dir) {
        print_error("PTX_TEST_DATA is not set (the folder of the .ptx fixtures)\n");
        return false;
    }
    snprintf(fx->path, sizeof fx->path, "%s/%s", dir, name);
    FILE *f = fopen(fx->path, "rb");
    if (!f) {
        print_error("cannot open %s\n", fx->path);
        return false;
    }
    fseek(f, 0, SEEK_END);
    const long n = ftell(f);
    rewind(f);
    fx->data = malloc(n > 0 ? (size_t)n : 1);
    fx->len = n > 0 && fx->data ? fread(fx->data, 1, (size_t)n, f) : 0;
    fclose(f);
    return fx->data && fx->len == (size_t)n;
}

static ptx_module *parse_fixture(const char *name, fixture *fx)
{
    if (!load_fixture(name, fx))
        fail_msg("fixture %s not readable", name);
    char err[512];
    ptx_module *m = parse_bytes(fx->data, fx->len, fx->path, err, sizeof err);
    if (!m)
        fail_msg("%s", err);
    return m;
}

/* The fixtures: nvcc -ptx -lineinfo -arch=sm_90 X.cu -o X.ptx (warp_sm75:
 * -arch=sm_75, the oldest target nvcc 13 has; cub_apps: --extended-lambda
 * for its device lambda). The instruction counts are those of these
 * files: a change means the parser reads statements differently. */
static const struct {
    const char *name;
    unsigned nfuncs, nentries;
    unsigned long ninsns;
} fixtures[] = {
    {"calls.ptx", 2, 1, 28},       {"local_array.ptx", 1, 1, 41}, {"globals.ptx", 1, 1, 25},
    {"dyn_shared.ptx", 1, 1, 22},  {"inline_asm.ptx", 1, 1, 18},  {"atomics.ptx", 1, 1, 17},
    {"warp.ptx", 1, 1, 33},        {"warp_sm75.ptx", 1, 1, 31},   {"cub_apps.ptx", 11, 11, 10142},
};
#define NFIXTURES (sizeof fixtures / sizeof fixtures[0])

static void test_fixtures_parse(void **state)
{
    (void)state;
    for (size_t i = 0; i < NFIXTURES; i++) {
        fixture fx;
        ptx_module *m = parse_fixture(fixtures[i].name, &fx);
        unsigned entries = 0;
        for (unsigned k = 0; k < m->nfuncs; k++)
            entries += m->funcs[k].entry;
        if (m->nfuncs != fixtures[i].nfuncs || entries != fixtures[i].nentries ||
            count_insns(m) != fixtures[i].ninsns || count_unsupported(m) != 0)
            fail_msg("%s: %u functions (%u entries), %lu instructions, %u unsupported; expected %u (%u), %lu, 0",
                     fixtures[i].name, m->nfuncs, entries, count_insns(m), count_unsupported(m),
                     fixtures[i].nfuncs, fixtures[i].nentries, fixtures[i].ninsns);
        assert_int_equal(m->address_size, 64);
        assert_int_equal(m->sm, strcmp(fixtures[i].name, "warp_sm75.ptx") == 0 ? 75 : 90);
        /* every call reaches a function of the module, every branch an
         * instruction of its own function */
        for (unsigned k = 0; k < m->nfuncs; k++) {
            const ptx_func *f = &m->funcs[k];
            for (uint32_t j = 0; j < f->ninsns; j++) {
                const ptx_insn *in = &f->insns[j];
                if (in->op == PTX_I_call) {
                    assert_int_equal(in->o[0].kind, PTX_O_FUNC);
                    assert_in_range(in->o[0].target, 0, m->nfuncs - 1);
                }
                if (in->op == PTX_I_bra) {
                    assert_int_equal(in->o[0].kind, PTX_O_LABEL);
                    assert_in_range(in->o[0].target, 0, f->ninsns - 1);
                }
            }
        }
        ptx_free(m);
        free(fx.data);
    }
}

/* calls.ptx: a .func with a return value, called twice; each call's
 * .params live in a brace block of their own, named alike, and reuse the
 * same offsets of the caller's parameter area. */
static void test_fixture_calls(void **state)
{
    (void)state;
    fixture fx;
    ptx_module *m = parse_fixture("calls.ptx", &fx);
    const int callee = ptx_find_func(m, "_Z7combineii");
    assert_true(callee >= 0);
    const ptx_func *g = &m->funcs[callee], *k = func_named(m, "calls");
    assert_false(g->entry);
    assert_true(g->defined);
    assert_int_equal(g->nrets, 1);
    assert_int_equal(g->nparams, 2);
    assert_true(m->syms[g->rets[0]].is_return);
    assert_string_equal(m->syms[g->params[1]].name, "_Z7combineii_param_1");
    assert_int_equal(k->nparams, 2);
    uint32_t c0 = find_insn(k, PTX_I_call, 0), c1 = find_insn(k, PTX_I_call, c0 + 1);
    const ptx_insn *a = &k->insns[c0], *b = &k->insns[c1];
    for (int i = 0; i < 2; i++) {
        const ptx_insn *c = i ? b : a;
        assert_int_equal(c->o[0].target, callee);
        assert_true(c->flags & PTX_F_UNI);
        assert_int_equal(c->nret, 1);
        assert_int_equal(c->narg, 2);
        assert_string_equal(m->syms[c->call_params[0]].name, "retval0");
        assert_string_equal(m->syms[c->call_params[1]].name, "param0");
        assert_string_equal(m->syms[c->call_params[2]].name, "param1");
        /* the load after the call reads this call's retval0 */
        assert_int_equal(k->insns[(i ? c1 : c0) + 1].op, PTX_I_ld);
        assert_int_equal(k->insns[(i ? c1 : c0) + 1].o[1].sym, c->call_params[0]);
    }
    /* two distinct param0 symbols at the same offset: the first block's
     * space is free again once it closes */
    assert_int_not_equal(a->call_params[1], b->call_params[1]);
    for (int j = 0; j < 3; j++)
        assert_int_equal(m->syms[a->call_params[j]].offset, m->syms[b->call_params[j]].offset);
    assert_int_equal(m->syms[a->call_params[1]].offset, 16); /* after the two .u64 kernel params */
    assert_int_equal(m->syms[a->call_params[2]].offset, 20);
    assert_int_equal(m->syms[a->call_params[0]].offset, 24);
    assert_int_equal(k->param_bytes, 28);
    assert_string_equal(m->files[1] + strlen(m->files[1]) - strlen("calls.cu"), "calls.cu");
    ptx_free(m);
    free(fx.data);
}

/* local_array.ptx: the .local depot and %SP/%SPL. */
static void test_fixture_local_array(void **state)
{
    (void)state;
    fixture fx;
    ptx_module *m = parse_fixture("local_array.ptx", &fx);
    const ptx_func *f = func_named(m, "local_array");
    const int d = sym_nth(m, "__local_depot0", 0);
    assert_int_equal(m->syms[d].space, PTX_SPACE_LOCAL);
    assert_int_equal(m->syms[d].size, 64);
    assert_int_equal(m->syms[d].align, 16);
    assert_int_equal(m->syms[d].offset, 0);
    assert_int_equal(m->syms[d].func, 0);
    assert_int_equal(f->local_bytes, 64);
    const int spl = slot_of(f, "%SPL");
    assert_int_equal(f->reg_type[spl], PTX_T_B64);
    assert_int_equal(f->reg_type[slot_of(f, "%SP")], PTX_T_B64);
    /* mov.u64 %SPL, __local_depot0: the depot's address */
    const ptx_insn *mv = &f->insns[0];
    assert_int_equal(mv->op, PTX_I_mov);
    assert_int_equal(mv->o[0].reg, spl);
    assert_int_equal(mv->o[1].kind, PTX_O_SYM);
    assert_int_equal(mv->o[1].sym, d);
    /* st.local.v4.u32 [%rd5+16], {%r11, %r10, %r9, %r8} */
    bool seen = false;
    for (uint32_t i = 0; i < f->ninsns; i++) {
        const ptx_insn *in = &f->insns[i];
        if (in->op == PTX_I_st && in->space == PTX_SPACE_LOCAL && in->o[0].imm == 16) {
            assert_int_equal(in->vec, 4);
            assert_int_equal(in->o[1].kind, PTX_O_VEC);
            assert_int_equal(in->o[1].nelem, 4);
            assert_int_equal(in->o[1].elem[0].reg, slot_of(f, "%r11"));
            assert_int_equal(in->o[1].elem[3].reg, slot_of(f, "%r8"));
            seen = true;
        }
    }
    assert_true(seen);
    ptx_free(m);
    free(fx.data);
}

/* globals.ptx: initialisers as nvcc writes them (a .b8 array for the int
 * array, fewer bytes than the array for the constant one), and an
 * instruction's line taken from the .loc's inlined_at. */
static void test_fixture_globals(void **state)
{
    (void)state;
    fixture fx;
    ptx_module *m = parse_fixture("globals.ptx", &fx);
    const ptx_sym *c = sym(m, "g_count"), *s = sym(m, "g_scale"), *t = sym(m, "g_table"), *w = sym(m, "c_weights");
    assert_int_equal(c->space, PTX_SPACE_GLOBAL);
    assert_int_equal(c->func, -1);
    assert_int_equal(c->size, 4);
    assert_memory_equal(c->init, "\x2a\0\0\0", 4);
    assert_memory_equal(s->init, "\x00\x00\xc0\x3f", 4);
    assert_int_equal(t->size, 16);
    assert_memory_equal(t->init, "\x01\0\0\0\xfe\xff\xff\xff\x03\0\0\0\xff\xff\xff\x7f", 16);
    assert_int_equal(w->space, PTX_SPACE_CONST);
    assert_memory_equal(w->init, "\x0a\0\0\0\x14\0\0\0\x1e\0\0\0\x28\0\0\0", 16);
    const ptx_func *f = func_named(m, "globals");
    const uint32_t a = find_insn(f, PTX_I_atom, 0);
    assert_int_equal(f->insns[a].loc_file, 1);
    assert_int_equal(f->insns[a].loc_line, 12);
    assert_int_equal(f->insns[a].loc_col, 5);
    assert_int_equal(f->insns[a].sub, PTX_ATOM_ADD);
    const uint32_t cv = find_insn_t(f, PTX_I_cvt, PTX_T_F32, 0); /* cvt.rn.f32.s32 */
    assert_int_equal(f->insns[cv].type, PTX_T_F32);
    assert_int_equal(f->insns[cv].type2, PTX_T_S32);
    assert_int_equal(f->insns[cv].rnd, PTX_RND_RN);
    assert_int_equal(m->nfiles, 3);
    ptx_free(m);
    free(fx.data);
}

static void test_fixture_dyn_shared(void **state)
{
    (void)state;
    fixture fx;
    ptx_module *m = parse_fixture("dyn_shared.ptx", &fx);
    const ptx_sym *b = sym(m, "buf");
    assert_int_equal(b->space, PTX_SPACE_SHARED);
    assert_true(b->external);
    assert_int_equal(b->size, 0);
    assert_int_equal(b->align, 16);
    const ptx_func *f = func_named(m, "dyn_shared");
    const uint32_t bar = find_insn(f, PTX_I_bar, 0);
    assert_int_equal(f->insns[bar].sub, PTX_BAR_SYNC);
    assert_int_equal(f->insns[bar].o[0].kind, PTX_O_IMM);
    assert_int_equal(f->insns[bar].o[0].imm, 0);
    ptx_free(m);
    free(fx.data);
}

/* inline_asm.ptx: two blocks each declaring r0 and p: four slots, each
 * block's instructions using their own. */
static void test_fixture_inline_asm(void **state)
{
    (void)state;
    fixture fx;
    ptx_module *m = parse_fixture("inline_asm.ptx", &fx);
    const ptx_func *f = func_named(m, "inline_asm");
    const uint32_t add = find_insn_t(f, PTX_I_add, PTX_T_S32, 0);
    const uint32_t sp1 = find_insn(f, PTX_I_setp, 0), sel = find_insn(f, PTX_I_selp, 0);
    const uint32_t mul = find_insn_t(f, PTX_I_mul, PTX_T_S32, 0), sp2 = find_insn(f, PTX_I_setp, sp1 + 1);
    const uint32_t ng = find_insn(f, PTX_I_neg, 0);
    const int r0a = f->insns[add].o[0].reg, r0b = f->insns[mul].o[0].reg;
    const int pa = f->insns[sp1].o[0].reg, pb = f->insns[sp2].o[0].reg;
    assert_int_not_equal(r0a, r0b);
    assert_int_not_equal(pa, pb);
    assert_string_equal(f->reg_names[r0a], "r0");
    assert_string_equal(f->reg_names[pb], "p");
    assert_int_equal(f->reg_type[r0a], PTX_T_S32);
    assert_int_equal(f->reg_type[pa], PTX_T_PRED);
    assert_int_equal(f->insns[sp1].o[1].reg, r0a);
    assert_int_equal(f->insns[sel].o[3].reg, pa);
    assert_int_equal(f->insns[sel].o[2].imm, 10);
    assert_int_equal(f->insns[ng].guard, pb);
    assert_int_equal(f->insns[ng].o[1].reg, r0b);
    ptx_free(m);
    free(fx.data);
}

/* atomics.ptx: the memory-model forms, and an instruction inlined through
 * a chain of six functions: its line is the kernel's. */
static void test_fixture_atomics(void **state)
{
    (void)state;
    fixture fx;
    ptx_module *m = parse_fixture("atomics.ptx", &fx);
    const ptx_func *f = func_named(m, "atomics");
    const ptx_insn *st = &f->insns[find_insn(f, PTX_I_st, 0)];
    assert_int_equal(st->sem, PTX_SEM_RELEASE);
    assert_int_equal(st->scope, PTX_SCOPE_GPU);
    assert_int_equal(st->space, PTX_SPACE_GENERIC);
    const ptx_insn *fe = &f->insns[find_insn(f, PTX_I_fence, 0)];
    assert_int_equal(fe->sub, PTX_FENCE_SC);
    assert_int_equal(fe->scope, PTX_SCOPE_GPU);
    assert_int_equal(fe->loc_line, 10);
    const ptx_insn *ld = &f->insns[find_insn(f, PTX_I_ld, 3)];
    assert_int_equal(ld->sem, PTX_SEM_ACQUIRE);
    assert_int_equal(ld->type, PTX_T_U32);
    const uint32_t cas = find_insn(f, PTX_I_atom, 0), add = find_insn(f, PTX_I_atom, cas + 1);
    assert_int_equal(f->insns[cas].sub, PTX_ATOM_CAS);
    assert_int_equal(f->insns[cas].sem, PTX_SEM_ACQ_REL);
    assert_int_equal(f->insns[cas].space, PTX_SPACE_GLOBAL);
    assert_int_equal(f->insns[cas].nops, 4);
    assert_int_equal(f->insns[add].sub, PTX_ATOM_ADD);
    assert_int_equal(f->insns[add].loc_file, 1);
    assert_int_equal(f->insns[add].loc_line, 15);
    assert_int_equal(f->insns[add].loc_col, 5);
    const uint32_t ld2 = find_insn(f, PTX_I_ld, add);
    assert_int_equal(f->insns[ld2].type, PTX_T_B32);
    assert_int_equal(f->insns[ld2].loc_file, 1);
    assert_int_equal(f->insns[ld2].loc_line, 16);
    ptx_free(m);
    free(fx.data);
}

/* warp.ptx: the warp collectives, __syncthreads_count/_or as bar.red, and
 * a brace block redeclaring %p1 over the function's %p<6>. */
static void test_fixture_warp(void **state)
{
    (void)state;
    fixture fx;
    ptx_module *m = parse_fixture("warp.ptx", &fx);
    const ptx_func *f = func_named(m, "warp");
    const ptx_insn *sh = &f->insns[find_insn(f, PTX_I_shfl, 0)];
    assert_int_equal(sh->sub, PTX_SHFL_UP);
    assert_true(sh->flags & PTX_F_SYNC);
    assert_true(sh->flags & PTX_F_PRED_OUT);
    assert_int_equal(sh->nops, 5);
    const int p1 = slot_of(f, "%p1");
    assert_int_equal(sh->o2.reg, p1);
    assert_int_equal(sh->loc_line, 6); /* inlined_at 1 6 5 */
    const ptx_insn *vo = &f->insns[find_insn(f, PTX_I_vote, 0)];
    assert_int_equal(vo->sub, PTX_VOTE_BALLOT);
    const ptx_insn *ma = &f->insns[find_insn(f, PTX_I_match, 0)];
    assert_int_equal(ma->sub, PTX_MATCH_ANY);
    assert_int_equal(ma->type, PTX_T_B32);
    const ptx_insn *rx = &f->insns[find_insn(f, PTX_I_redux, 0)];
    assert_int_equal(rx->sub, PTX_ATOM_ADD);
    assert_true(rx->flags & PTX_F_SYNC);
    const uint32_t b1 = find_insn(f, PTX_I_bar, 0), b2 = find_insn(f, PTX_I_bar, b1 + 1);
    assert_int_equal(f->insns[b1].sub, PTX_BAR_RED);
    assert_int_equal(f->insns[b1].boolop, PTX_BOOL_POPC);
    assert_int_equal(f->insns[b2].sub, PTX_BAR_RED);
    assert_int_equal(f->insns[b2].boolop, PTX_BOOL_OR);
    assert_int_equal(f->insns[b2].type, PTX_T_PRED);
    /* the block's %p1 is a slot of its own */
    assert_int_equal(f->insns[b1 - 1].op, PTX_I_setp);
    assert_int_not_equal(f->insns[b1 - 1].o[0].reg, p1);
    assert_int_equal(f->insns[b1].o[2].reg, f->insns[b1 - 1].o[0].reg);
    assert_int_equal(m->nfiles, 5);
    ptx_free(m);
    free(fx.data);

    m = parse_fixture("warp_sm75.ptx", &fx);
    f = func_named(m, "warp");
    for (uint32_t i = 0; i < f->ninsns; i++)
        assert_int_not_equal(f->insns[i].op, PTX_I_redux);
    ptx_free(m);
    free(fx.data);
}

/* ---- snippets: decoded fields -------------------------------------------- */
static void test_types_and_rounding(void **state)
{
    (void)state;
    ptx_module *m = must_parse(HDR ".visible .entry k()\n{\n"
                                   ".reg .b32 %r<3>;\n.reg .f32 %f<3>;\n.reg .b64 %rd<3>;\n.reg .f64 %fd<2>;\n"
                                   "cvt.rn.f32.s32 %f1, %r1;\n"      /* 0 */
                                   "cvt.rzi.s32.f32 %r1, %f1;\n"     /* 1 */
                                   "cvt.u64.u32 %rd1, %r1;\n"        /* 2 */
                                   "cvt.rn.ftz.sat.f32.f64 %f1, %fd1;\n" /* 3 */
                                   "add.rz.f64 %fd1, %fd1, %fd1;\n"  /* 4 */
                                   "rcp.rn.f64 %fd1, %fd1;\n"        /* 5 */
                                   "ex2.approx.ftz.f32 %f1, %f2;\n"  /* 6 */
                                   "add.sat.s32 %r1, %r1, %r2;\n"    /* 7 */
                                   "fma.rm.f32 %f1, %f1, %f2, %f2;\n" /* 8 */
                                   "ret;\n}\n");
    const ptx_insn *in = m->funcs[0].insns;
    assert_int_equal(in[0].op, PTX_I_cvt);
    assert_int_equal(in[0].type, PTX_T_F32);
    assert_int_equal(in[0].type2, PTX_T_S32);
    assert_int_equal(in[0].rnd, PTX_RND_RN);
    assert_int_equal(in[1].type, PTX_T_S32);
    assert_int_equal(in[1].type2, PTX_T_F32);
    assert_int_equal(in[1].rnd, PTX_RND_RZI);
    assert_int_equal(in[2].type, PTX_T_U64);
    assert_int_equal(in[2].type2, PTX_T_U32);
    assert_int_equal(in[2].rnd, PTX_RND_NONE);
    assert_int_equal(in[3].flags, PTX_F_FTZ | PTX_F_SAT);
    assert_int_equal(in[3].type2, PTX_T_F64);
    assert_int_equal(in[4].rnd, PTX_RND_RZ);
    assert_int_equal(in[4].type, PTX_T_F64);
    assert_int_equal(in[5].op, PTX_I_rcp);
    assert_int_equal(in[5].rnd, PTX_RND_RN);
    assert_int_equal(in[6].flags, PTX_F_APPROX | PTX_F_FTZ);
    assert_int_equal(in[7].flags, PTX_F_SAT);
    assert_int_equal(in[8].rnd, PTX_RND_RM);
    assert_int_equal(in[8].nops, 4);
    assert_int_equal(in[9].op, PTX_I_ret);
    assert_int_equal(in[9].nops, 0);
    ptx_free(m);
}

static void test_compare_and_bool(void **state)
{
    (void)state;
    ptx_module *m = must_parse(HDR ".visible .entry k()\n{\n"
                                   ".reg .pred %p<4>;\n.reg .b32 %r<3>;\n.reg .f32 %f<2>;\n"
                                   "setp.ne.and.s32 %p1|%p2, %r1, %r2, %p3;\n" /* 0 */
                                   "setp.eq.or.s32 %p1, %r1, 5, !%p2;\n"       /* 1 */
                                   "setp.ltu.f32 %p1, %f1, %f1;\n"             /* 2 */
                                   "setp.hs.u32 %p1, %r1, %r2;\n"              /* 3 */
                                   "set.gt.xor.u32.s32 %r1, %r1, %r2, %p1;\n"  /* 4 */
                                   "selp.b32 %r1, %r1, -2, %p3;\n"             /* 5 */
                                   "ret;\n}\n");
    const ptx_func *f = &m->funcs[0];
    const ptx_insn *in = f->insns;
    assert_int_equal(in[0].cmp, PTX_CMP_NE);
    assert_int_equal(in[0].boolop, PTX_BOOL_AND);
    assert_int_equal(in[0].type, PTX_T_S32);
    assert_true(in[0].flags & PTX_F_PRED_OUT);
    assert_int_equal(in[0].o[0].reg, slot_of(f, "%p1"));
    assert_int_equal(in[0].o2.kind, PTX_O_REG);
    assert_int_equal(in[0].o2.reg, slot_of(f, "%p2"));
    assert_int_equal(in[0].nops, 4);
    assert_int_equal(in[0].o[3].reg, slot_of(f, "%p3"));
    assert_int_equal(in[0].o[3].neg, 0);
    assert_int_equal(in[1].cmp, PTX_CMP_EQ);
    assert_int_equal(in[1].boolop, PTX_BOOL_OR);
    assert_false(in[1].flags & PTX_F_PRED_OUT);
    assert_int_equal(in[1].o[2].kind, PTX_O_IMM);
    assert_int_equal(in[1].o[2].imm, 5);
    assert_int_equal(in[1].o[3].kind, PTX_O_REG);
    assert_int_equal(in[1].o[3].reg, slot_of(f, "%p2"));
    assert_int_equal(in[1].o[3].neg, 1);
    assert_int_equal(in[2].cmp, PTX_CMP_LTU);
    assert_int_equal(in[2].type, PTX_T_F32);
    assert_int_equal(in[3].cmp, PTX_CMP_HS);
    assert_int_equal(in[4].op, PTX_I_set);
    assert_int_equal(in[4].cmp, PTX_CMP_GT);
    assert_int_equal(in[4].boolop, PTX_BOOL_XOR);
    assert_int_equal(in[4].type, PTX_T_U32);
    assert_int_equal(in[4].type2, PTX_T_S32);
    assert_int_equal(in[5].o[2].imm, 0xfffffffe);
    assert_int_equal(in[5].o[3].reg, slot_of(f, "%p3"));
    ptx_free(m);
}

static void test_space_sem_scope(void **state)
{
    (void)state;
    ptx_module *m = must_parse(HDR ".visible .entry k()\n{\n"
                                   ".reg .b32 %r<5>;\n.reg .b64 %rd<3>;\n"
                                   "ld.relaxed.gpu.global.v2.u32 {%r1, %r2}, [%rd1];\n" /* 0 */
                                   "st.release.cta.shared.u32 [%r1], %r2;\n"            /* 1 */
                                   "atom.acq_rel.gpu.global.cas.b32 %r1, [%rd1], %r2, %r3;\n" /* 2 */
                                   "ld.volatile.shared.u32 %r1, [%r2];\n"               /* 3 */
                                   "ld.global.nc.L1::no_allocate.u32 %r1, [%rd1];\n"    /* 4 */
                                   "atom.global.add.u32 %r1, [%rd1], 1;\n"              /* 5 */
                                   "red.relaxed.sys.global.max.s32 [%rd1], %r1;\n"      /* 6 */
                                   "fence.acq_rel.cta;\n"                               /* 7 */
                                   "membar.gl;\n"                                       /* 8 */
                                   "ld.param.u64 %rd1, [%rd2];\n"                       /* 9 */
                                   "atom.shared::cta.exch.b64 %rd1, [%r1], %rd2;\n"     /* 10 */
                                   "ld.acquire.cluster.b32 %r1, [%rd1];\n"              /* 11 */
                                   "ret;\n}\n");
    const ptx_insn *in = m->funcs[0].insns;
    assert_int_equal(in[0].op, PTX_I_ld);
    assert_int_equal(in[0].sem, PTX_SEM_RELAXED);
    assert_int_equal(in[0].scope, PTX_SCOPE_GPU);
    assert_int_equal(in[0].space, PTX_SPACE_GLOBAL);
    assert_int_equal(in[0].vec, 2);
    assert_int_equal(in[0].type, PTX_T_U32);
    assert_int_equal(in[0].o[0].kind, PTX_O_VEC);
    assert_int_equal(in[0].o[0].nelem, 2);
    assert_int_equal(in[1].op, PTX_I_st);
    assert_int_equal(in[1].sem, PTX_SEM_RELEASE);
    assert_int_equal(in[1].scope, PTX_SCOPE_CTA);
    assert_int_equal(in[1].space, PTX_SPACE_SHARED);
    assert_int_equal(in[1].vec, 1);
    assert_int_equal(in[1].o[0].kind, PTX_O_ADDR);
    assert_int_equal(in[2].op, PTX_I_atom);
    assert_int_equal(in[2].sub, PTX_ATOM_CAS);
    assert_int_equal(in[2].sem, PTX_SEM_ACQ_REL);
    assert_int_equal(in[2].scope, PTX_SCOPE_GPU);
    assert_int_equal(in[2].space, PTX_SPACE_GLOBAL);
    assert_int_equal(in[2].type, PTX_T_B32);
    assert_int_equal(in[2].nops, 4);
    assert_int_equal(in[3].sem, PTX_SEM_VOLATILE);
    assert_int_equal(in[3].space, PTX_SPACE_SHARED);
    assert_int_equal(in[4].flags, PTX_F_NC);
    assert_null(in[4].unsupported);
    assert_int_equal(in[5].sem, PTX_SEM_WEAK);
    assert_int_equal(in[5].scope, PTX_SCOPE_NONE);
    assert_int_equal(in[5].sub, PTX_ATOM_ADD);
    assert_int_equal(in[5].o[2].imm, 1);
    assert_int_equal(in[6].op, PTX_I_red);
    assert_int_equal(in[6].sub, PTX_ATOM_MAX);
    assert_int_equal(in[6].scope, PTX_SCOPE_SYS);
    assert_int_equal(in[6].type, PTX_T_S32);
    assert_int_equal(in[7].sub, PTX_FENCE_ACQ_REL);
    assert_int_equal(in[7].scope, PTX_SCOPE_CTA);
    assert_int_equal(in[8].op, PTX_I_membar);
    assert_int_equal(in[8].sub, PTX_FENCE_MEMBAR);
    assert_int_equal(in[8].scope, PTX_SCOPE_GPU);
    assert_int_equal(in[9].space, PTX_SPACE_PARAM);
    assert_int_equal(in[10].space, PTX_SPACE_SHARED);
    assert_int_equal(in[10].sub, PTX_ATOM_EXCH);
    assert_int_equal(in[10].type, PTX_T_B64);
    assert_int_equal(in[11].scope, PTX_SCOPE_CLUSTER);
    assert_int_equal(in[11].space, PTX_SPACE_GENERIC);
    ptx_free(m);
}

static void test_flags(void **state)
{
    (void)state;
    ptx_module *m = must_parse(HDR ".visible .entry k()\n{\n"
                                   ".reg .pred %p<2>;\n.reg .b32 %r<5>;\n.reg .b64 %rd<3>;\n.reg .f32 %f<3>;\n"
                                   "mul.wide.s32 %rd1, %r1, 4;\n"          /* 0 */
                                   "mul.hi.u32 %r1, %r2, %r3;\n"           /* 1 */
                                   "mad.lo.cc.u32 %r1, %r2, %r3, %r4;\n"   /* 2 */
                                   "div.full.f32 %f1, %f2, %f2;\n"         /* 3 */
                                   "shf.l.wrap.b32 %r1, %r2, %r3, %r4;\n"  /* 4 */
                                   "shf.r.clamp.b32 %r1, %r2, %r3, 8;\n"   /* 5 */
                                   "cvta.to.global.u64 %rd1, %rd2;\n"      /* 6 */
                                   "cvta.shared.u64 %rd1, %rd2;\n"         /* 7 */
                                   "addc.cc.u32 %r1, %r2, %r3;\n"          /* 8 */
                                   "mul.lo.s32 %r1, %r2, %r3;\n"           /* 9 */
                                   "bfind.shiftamt.u32 %r1, %r2;\n"        /* 10 */
                                   "min.NaN.f32 %f1, %f2, %f2;\n"          /* 11 */
                                   "bar.warp.sync -1;\n"                   /* 12 */
                                   "barrier.sync.aligned 1, 64;\n"         /* 13 */
                                   "shfl.sync.bfly.b32 %r1|%p1, %r2, 1, 31, -1;\n" /* 14 */
                                   "mad.wide.s32 %rd1, %r1, %r2, -1;\n"    /* 15 */
                                   "ret;\n}\n");
    const ptx_func *f = &m->funcs[0];
    const ptx_insn *in = f->insns;
    assert_int_equal(in[0].flags, PTX_F_WIDE);
    assert_int_equal(in[0].type, PTX_T_S32);
    assert_int_equal(in[0].o[2].imm, 4);
    assert_int_equal(in[1].flags, PTX_F_HI);
    assert_int_equal(in[2].op, PTX_I_mad);
    assert_int_equal(in[2].flags, PTX_F_LO | PTX_F_CC);
    assert_int_equal(in[3].flags, PTX_F_FULL);
    assert_int_equal(in[4].flags, PTX_F_LEFT | PTX_F_WRAP);
    assert_int_equal(in[5].flags, 0);
    assert_int_equal(in[5].o[3].imm, 8);
    assert_int_equal(in[6].flags, PTX_F_TO);
    assert_int_equal(in[6].space, PTX_SPACE_GLOBAL);
    assert_int_equal(in[6].type, PTX_T_U64);
    assert_int_equal(in[7].flags, 0);
    assert_int_equal(in[7].space, PTX_SPACE_SHARED);
    assert_int_equal(in[8].op, PTX_I_addc);
    assert_int_equal(in[8].flags, PTX_F_CC);
    assert_int_equal(in[9].flags, PTX_F_LO);
    assert_int_equal(in[10].flags, PTX_F_SHIFTAMT);
    assert_int_equal(in[11].flags, PTX_F_NAN);
    assert_int_equal(in[12].sub, PTX_BAR_WARP_SYNC);
    assert_true(in[12].flags & PTX_F_SYNC);
    assert_int_equal(in[12].o[0].imm, 0xffffffff);
    assert_int_equal(in[13].op, PTX_I_barrier);
    assert_int_equal(in[13].sub, PTX_BAR_SYNC);
    assert_int_equal(in[13].flags, PTX_F_ALIGNED);
    assert_int_equal(in[13].nops, 2);
    assert_int_equal(in[13].o[1].imm, 64);
    assert_int_equal(in[14].sub, PTX_SHFL_BFLY);
    assert_int_equal(in[14].flags, PTX_F_SYNC | PTX_F_PRED_OUT);
    assert_int_equal(in[14].o2.reg, slot_of(f, "%p1"));
    assert_int_equal(in[14].o[4].imm, 0xffffffff);
    assert_int_equal(in[14].o[3].imm, 31);
    /* mad.wide's addend is twice as wide as its factors */
    assert_int_equal(in[15].o[3].imm, UINT64_MAX);
    ptx_free(m);
}

static void test_registers(void **state)
{
    (void)state;
    ptx_module *m = must_parse(HDR ".visible .entry k()\n{\n"
                                   ".reg .pred %p<2>;\n"      /* slots 0, 1 */
                                   ".reg .b16 %rs<3>;\n"      /* 2..4 */
                                   ".reg .f32 %f<2>;\n"       /* 5, 6 */
                                   ".reg .b64 %rd<2>;\n"      /* 7, 8 */
                                   ".reg .u32 %single, %other;\n" /* 9, 10 */
                                   ".reg .f64 %fd<1>;\n"      /* 11 */
                                   "mov.b16 %rs2, %rs0;\n"
                                   "mov.u32 %single, %other;\n"
                                   "mov.f64 %fd0, 0d0000000000000000;\n"
                                   "mov.b64 %rd1, %rd0;\n"
                                   "mov.pred %p1, %p0;\n"
                                   "ret;\n}\n");
    const ptx_func *f = &m->funcs[0];
    static const uint8_t types[] = {PTX_T_PRED, PTX_T_PRED, PTX_T_B16, PTX_T_B16, PTX_T_B16, PTX_T_F32, PTX_T_F32,
                                    PTX_T_B64,  PTX_T_B64,  PTX_T_U32, PTX_T_U32, PTX_T_F64};
    assert_int_equal(f->nregs, sizeof types);
    for (unsigned i = 0; i < sizeof types; i++)
        assert_int_equal(f->reg_type[i], types[i]);
    const ptx_insn *in = f->insns;
    assert_int_equal(in[0].o[0].kind, PTX_O_REG);
    assert_int_equal(in[0].o[0].reg, 4);
    assert_int_equal(in[0].o[1].reg, 2);
    assert_int_equal(in[1].o[0].reg, 9);
    assert_int_equal(in[1].o[1].reg, 10);
    assert_int_equal(in[2].o[0].reg, 11);
    assert_int_equal(in[3].o[0].reg, 8);
    assert_int_equal(in[4].o[0].reg, 1);
    assert_int_equal(in[4].o[1].reg, 0);
    assert_string_equal(f->reg_names[4], "%rs2");
    assert_string_equal(f->reg_names[9], "%single");
    assert_int_equal(in[0].guard, -1);
    ptx_free(m);

    /* %r<4> declares %r0..%r3: %r4 is not one of them, nor %r01 */
    expect_error(HDR ".entry k()\n{\n.reg .b32 %r<4>;\nmov.u32 %r3, 1;\nmov.u32 %r4, 1;\n}\n", 8, "%r4");
    expect_error(HDR ".entry k()\n{\n.reg .b32 %r<4>;\nmov.u32 %r01, 1;\n}\n", 7, "%r01");
}

static void test_guards(void **state)
{
    (void)state;
    ptx_module *m = must_parse(HDR ".visible .entry k()\n{\n"
                                   ".reg .pred %p<3>;\n.reg .b32 %r<2>;\n"
                                   "@%p1 add.s32 %r1, %r1, 1;\n"
                                   "@!%p2 add.s32 %r1, %r1, 1;\n"
                                   "add.s32 %r1, %r1, 1;\n"
                                   "ret;\n}\n");
    const ptx_func *f = &m->funcs[0];
    assert_int_equal(f->insns[0].guard, slot_of(f, "%p1"));
    assert_int_equal(f->insns[0].guard_neg, 0);
    assert_int_equal(f->insns[1].guard, slot_of(f, "%p2"));
    assert_int_equal(f->insns[1].guard_neg, 1);
    assert_int_equal(f->insns[2].guard, -1);
    assert_int_equal(f->insns[0].ptx_line, 8);
    assert_int_equal(f->insns[1].ptx_line, 9);
    ptx_free(m);
}

static void test_immediates(void **state)
{
    (void)state;
    ptx_module *m = must_parse(HDR ".visible .entry k()\n{\n"
                                   ".reg .b16 %rs<2>;\n.reg .b32 %r<3>;\n.reg .f32 %f<2>;\n"
                                   ".reg .f64 %fd<2>;\n.reg .b64 %rd<2>;\n"
                                   "add.s32 %r1, %r2, -1;\n"              /* 0 */
                                   "mov.f32 %f1, 0f3F800000;\n"           /* 1 */
                                   "mov.f64 %fd1, 0d3FF0000000000000;\n"  /* 2 */
                                   "mov.f32 %f1, 1.5;\n"                  /* 3 */
                                   "mov.f64 %fd1, 3;\n"                   /* 4 */
                                   "mov.u32 %r1, 0xFf;\n"                 /* 5 */
                                   "mov.u32 %r1, 017;\n"                  /* 6 */
                                   "mov.u32 %r1, 0b101;\n"                /* 7 */
                                   "mov.u32 %r1, 12U;\n"                  /* 8 */
                                   "mov.b64 %rd1, -1;\n"                  /* 9 */
                                   "mov.f32 %f1, -0f3F800000;\n"          /* 10 */
                                   "mov.f64 %fd1, 0f3F800000;\n"          /* 11 */
                                   "add.s16 %rs1, %rs1, -1;\n"            /* 12 */
                                   "shl.b64 %rd1, %rd1, 3;\n"             /* 13 */
                                   "mov.f32 %f1, -2.5e-1;\n"              /* 14 */
                                   "mov.u32 %r1, 0;\n"                    /* 15 */
                                   "mov.b32 %r1, 0f7FC00000;\n"           /* 16 */
                                   "mov.u64 %rd1, 0xFFFFFFFFFFFFFFFF;\n"  /* 17 */
                                   "mov.f64 %fd1, -1;\n"                  /* 18 */
                                   "ret;\n}\n");
    const ptx_insn *in = m->funcs[0].insns;
    assert_int_equal(in[0].o[2].kind, PTX_O_IMM);
    assert_int_equal(in[0].o[2].imm, 0xffffffffu);
    assert_int_equal(in[1].o[1].imm, 0x3f800000u);
    assert_int_equal(in[2].o[1].imm, UINT64_C(0x3ff0000000000000));
    assert_int_equal(in[3].o[1].imm, 0x3fc00000u);
    assert_int_equal(in[4].o[1].imm, UINT64_C(0x4008000000000000));
    assert_int_equal(in[5].o[1].imm, 255);
    assert_int_equal(in[6].o[1].imm, 15);
    assert_int_equal(in[7].o[1].imm, 5);
    assert_int_equal(in[8].o[1].imm, 12);
    assert_int_equal(in[9].o[1].imm, UINT64_MAX);
    assert_int_equal(in[10].o[1].imm, 0xbf800000u);
    assert_int_equal(in[11].o[1].imm, UINT64_C(0x3ff0000000000000));
    assert_int_equal(in[12].o[2].imm, 0xffff);
    assert_int_equal(in[13].o[2].imm, 3);
    assert_int_equal(in[14].o[1].imm, 0xbe800000u);
    assert_int_equal(in[15].o[1].kind, PTX_O_IMM);
    assert_int_equal(in[15].o[1].imm, 0);
    assert_int_equal(in[16].o[1].imm, 0x7fc00000u);
    assert_int_equal(in[17].o[1].imm, UINT64_MAX);
    assert_int_equal(in[18].o[1].imm, UINT64_C(0xbff0000000000000));
    ptx_free(m);
}

static void test_addresses(void **state)
{
    (void)state;
    ptx_module *m = must_parse(HDR ".global .align 8 .b8 gbuf[32];\n"
                                   ".visible .entry k()\n{\n"
                                   ".reg .b32 %r<2>;\n.reg .b64 %rd<3>;\n"
                                   "ld.global.u32 %r1, [%rd1+4];\n"   /* 0 */
                                   "ld.global.u32 %r1, [%rd1+-4];\n"  /* 1 */
                                   "ld.global.u32 %r1, [gbuf];\n"     /* 2 */
                                   "ld.global.u32 %r1, [gbuf+8];\n"   /* 3 */
                                   "ld.global.u32 %r1, [%rd2];\n"     /* 4 */
                                   "ld.global.u32 %r1, [%rd1-8];\n"   /* 5 */
                                   "st.global.u32 [%rd2+12], %r1;\n"  /* 6 */
                                   "ld.global.u32 %r1, [64];\n"       /* 7 */
                                   "mov.u64 %rd1, gbuf;\n"            /* 8 */
                                   "mov.u64 %rd2, gbuf+16;\n"         /* 9 */
                                   "ld.global.u32 %r1, [%rd1+0x10];\n" /* 10 */
                                   "ret;\n}\n");
    const ptx_func *f = &m->funcs[0];
    const ptx_insn *in = f->insns;
    const int rd1 = slot_of(f, "%rd1"), rd2 = slot_of(f, "%rd2"), g = sym_nth(m, "gbuf", 0);
    assert_int_equal(in[0].o[1].kind, PTX_O_ADDR);
    assert_int_equal(in[0].o[1].reg, rd1);
    assert_int_equal(in[0].o[1].sym, -1);
    assert_int_equal(in[0].o[1].imm, 4);
    assert_int_equal(in[1].o[1].imm, (uint64_t)-4);
    assert_int_equal(in[2].o[1].reg, -1);
    assert_int_equal(in[2].o[1].sym, g);
    assert_int_equal(in[2].o[1].imm, 0);
    assert_int_equal(in[3].o[1].sym, g);
    assert_int_equal(in[3].o[1].imm, 8);
    assert_int_equal(in[4].o[1].reg, rd2);
    assert_int_equal(in[4].o[1].imm, 0);
    assert_int_equal(in[5].o[1].imm, (uint64_t)-8);
    assert_int_equal(in[6].o[0].kind, PTX_O_ADDR);
    assert_int_equal(in[6].o[0].reg, rd2);
    assert_int_equal(in[6].o[0].imm, 12);
    assert_int_equal(in[6].o[1].kind, PTX_O_REG);
    assert_int_equal(in[7].o[1].reg, -1);
    assert_int_equal(in[7].o[1].sym, -1);
    assert_int_equal(in[7].o[1].imm, 64);
    assert_int_equal(in[8].o[1].kind, PTX_O_SYM);
    assert_int_equal(in[8].o[1].sym, g);
    assert_int_equal(in[8].o[1].imm, 0);
    assert_int_equal(in[9].o[1].kind, PTX_O_SYM);
    assert_int_equal(in[9].o[1].imm, 16);
    assert_int_equal(in[10].o[1].imm, 16);
    ptx_free(m);
}

static void test_vectors(void **state)
{
    (void)state;
    ptx_module *m = must_parse(HDR ".visible .entry k()\n{\n"
                                   ".reg .b32 %r<4>;\n.reg .b64 %rd<2>;\n.reg .f32 %f<2>;\n"
                                   "ld.global.v4.u32 {%r1, _, %r2, _}, [%rd1];\n" /* 0 */
                                   "st.global.v2.u32 [%rd1], {%r1, %r2};\n"       /* 1 */
                                   "mov.b64 %rd1, {%r1, %r2};\n"                  /* 2 */
                                   "mov.b64 {%r1, %r3}, %rd1;\n"                  /* 3 */
                                   "st.global.v2.u32 [%rd1], {1, -1};\n"          /* 4 */
                                   "st.global.v2.f32 [%rd1], {%f1, 0f3F800000};\n" /* 5 */
                                   "ret;\n}\n");
    const ptx_func *f = &m->funcs[0];
    const ptx_insn *in = f->insns;
    const int r1 = slot_of(f, "%r1"), r2 = slot_of(f, "%r2");
    assert_int_equal(in[0].vec, 4);
    assert_int_equal(in[0].o[0].kind, PTX_O_VEC);
    assert_int_equal(in[0].o[0].nelem, 4);
    assert_int_equal(in[0].o[0].elem[0].reg, r1);
    assert_int_equal(in[0].o[0].elem[1].reg, -1);
    assert_false(in[0].o[0].elem[1].is_imm);
    assert_int_equal(in[0].o[0].elem[2].reg, r2);
    assert_int_equal(in[0].o[0].elem[3].reg, -1);
    assert_int_equal(in[1].vec, 2);
    assert_int_equal(in[1].o[1].kind, PTX_O_VEC);
    assert_int_equal(in[1].o[1].nelem, 2);
    assert_int_equal(in[1].o[1].elem[1].reg, r2);
    assert_int_equal(in[2].o[1].kind, PTX_O_VEC);
    assert_int_equal(in[2].vec, 1);
    assert_int_equal(in[3].o[0].kind, PTX_O_VEC);
    assert_int_equal(in[3].o[0].elem[1].reg, slot_of(f, "%r3"));
    assert_true(in[4].o[1].elem[0].is_imm);
    assert_int_equal(in[4].o[1].elem[0].imm, 1);
    assert_int_equal(in[4].o[1].elem[1].imm, 0xffffffffu);
    assert_false(in[5].o[1].elem[0].is_imm);
    assert_true(in[5].o[1].elem[1].is_imm);
    assert_int_equal(in[5].o[1].elem[1].imm, 0x3f800000u);
    ptx_free(m);
}

static void test_labels(void **state)
{
    (void)state;
    ptx_module *m = must_parse(HDR ".visible .entry k()\n{\n"
                                   ".reg .pred %p<2>;\n.reg .b32 %r<2>;\n"
                                   "$L__top:\n"
                                   "add.s32 %r1, %r1, 1;\n"        /* 0 */
                                   "setp.lt.s32 %p1, %r1, 10;\n"   /* 1 */
                                   "@%p1 bra $L__top;\n"           /* 2: backward */
                                   "@!%p1 bra.uni $L__end;\n"      /* 3: forward */
                                   "bra.uni $L__mid;\n"            /* 4 */
                                   "mov.u32 %r1, 0;\n"             /* 5 */
                                   "$L__mid:\n$L__mid2:\n"
                                   "mov.u32 %r1, 1;\n"             /* 6 */
                                   "bra $L__mid2;\n"               /* 7 */
                                   "$L__end:\n"
                                   "ret;\n"                        /* 8 */
                                   "}\n"
                                   ".visible .entry k2()\n{\n"
                                   "bra.uni $L__top;\n"            /* its own $L__top, below */
                                   "ret;\n"
                                   "$L__top:\n"
                                   "ret;\n}\n");
    const ptx_insn *in = m->funcs[0].insns;
    assert_int_equal(m->funcs[0].ninsns, 9);
    assert_int_equal(in[2].op, PTX_I_bra);
    assert_int_equal(in[2].o[0].kind, PTX_O_LABEL);
    assert_int_equal(in[2].o[0].target, 0);
    assert_int_equal(in[2].guard, slot_of(&m->funcs[0], "%p1"));
    assert_int_equal(in[3].o[0].target, 8);
    assert_int_equal(in[3].guard_neg, 1);
    assert_true(in[3].flags & PTX_F_UNI);
    assert_int_equal(in[4].o[0].target, 6);
    assert_int_equal(in[7].o[0].target, 6);
    assert_int_equal(in[7].nops, 1);
    assert_int_equal(m->funcs[1].insns[0].o[0].target, 2);
    ptx_free(m);
}

static void test_special_registers(void **state)
{
    (void)state;
    ptx_module *m = must_parse(HDR ".visible .entry k()\n{\n"
                                   ".reg .b32 %r<2>;\n.reg .b64 %rd<2>;\n"
                                   "mov.u32 %r1, %tid.y;\n"         /* 0 */
                                   "mov.u32 %r1, %laneid;\n"        /* 1 */
                                   "mov.u32 %r1, %lanemask_lt;\n"   /* 2 */
                                   "mov.u64 %rd1, %clock64;\n"      /* 3 */
                                   "mov.u32 %r1, %ctaid.z;\n"       /* 4 */
                                   "mov.u32 %r1, %nctaid.x;\n"      /* 5 */
                                   "mov.u32 %r1, %clock;\n"         /* 6 */
                                   "mov.u32 %r1, %dynamic_smem_size;\n" /* 7 */
                                   "mov.u32 %r1, %ntid.x;\n"        /* 8 */
                                   "ret;\n}\n");
    const ptx_insn *in = m->funcs[0].insns;
    static const struct {
        uint16_t sr;
        uint8_t comp;
    } want[] = {{PTX_SR_TID, 1},   {PTX_SR_LANEID, 0}, {PTX_SR_LANEMASK_LT, 0},
                {PTX_SR_CLOCK64, 0}, {PTX_SR_CTAID, 2}, {PTX_SR_NCTAID, 0},
                {PTX_SR_CLOCK, 0}, {PTX_SR_DYNAMIC_SMEM_SIZE, 0}, {PTX_SR_NTID, 0}};
    for (unsigned i = 0; i < sizeof want / sizeof want[0]; i++) {
        assert_int_equal(in[i].o[1].kind, PTX_O_SREG);
        assert_int_equal(in[i].o[1].sreg, want[i].sr);
        assert_int_equal(in[i].o[1].comp, want[i].comp);
    }
    ptx_free(m);
    /* %tid has no .w, and %laneid no component */
    expect_error(HDR ".entry k()\n{\n.reg .b32 %r<2>;\nmov.u32 %r1, %tid.w;\n}\n", 7, "%tid.w");
    expect_error(HDR ".entry k()\n{\n.reg .b32 %r<2>;\nmov.u32 %r1, %laneid.x;\n}\n", 7, "%laneid.x");
}

/* .loc: the line of the instructions after it; with inlined_at, the
 * innermost frame of the chain of inlined calls outside the CUDA toolkit's
 * headers (an intrinsic's body is not the user's line). .file numbers
 * index files[]. */
static void test_loc_and_files(void **state)
{
    (void)state;
    ptx_module *m = must_parse(HDR ".visible .entry k()\n{\n"
                                   ".reg .b32 %r<2>;\n"
                                   "mov.u32 %r1, 1;\n"                                               /* 0 */
                                   ".loc 1 10 3\n"
                                   "mov.u32 %r1, 2;\n"                                               /* 1 */
                                   ".loc 2 20 7, function_name $L__info_string0, inlined_at 1 11 5\n"
                                   "mov.u32 %r1, 3;\n"                                               /* 2 */
                                   ".loc 3 30 1, function_name $L__info_string1, inlined_at 2 20 7\n"
                                   "mov.u32 %r1, 4;\n"                                               /* 3 */
                                   ".loc 1 12 0\n"
                                   ".loc 3 40 2, function_name $L__info_string1, inlined_at 1 12 9\n"
                                   "mov.u32 %r1, 5;\n"                                               /* 4 */
                                   ".loc 1 13\n"
                                   "ret;\n"                                                          /* 5 */
                                   "}\n"
                                   ".visible .entry k2()\n{\nret;\n}\n"
                                   ".file 1 \"/src/a.cu\"\n"
                                   ".file 2 \"/usr/local/cuda/targets/x86_64-linux/include/b.h\", 1700000000, 1234\n"
                                   ".file 3 \"/usr/local/cuda/targets/x86_64-linux/include/crt/c.hpp\"\n"
                                   ".file 5 \"e.h\"\n"
                                   ".section .debug_str\n{\n$L__info_string0:\n.b8 65,0\n"
                                   "$L__info_string1:\n.b8 66,0\n}\n");
    const ptx_insn *in = m->funcs[0].insns;
    static const uint32_t want[][3] = {{0, 0, 0}, {1, 10, 3}, {1, 11, 5}, {1, 11, 5}, {1, 12, 9}, {1, 13, 0}};
    for (unsigned i = 0; i < 6; i++) {
        if (in[i].loc_file != want[i][0] || in[i].loc_line != want[i][1] || in[i].loc_col != want[i][2])
            fail_msg("instruction %u: .loc %u %u %u, expected %u %u %u", i, in[i].loc_file, in[i].loc_line,
                     in[i].loc_col, want[i][0], want[i][1], want[i][2]);
    }
    assert_int_equal(in[0].ptx_line, 7);
    assert_int_equal(in[5].ptx_line, 18);
    /* a function's instructions start without a .loc of the one before */
    assert_int_equal(m->funcs[1].insns[0].loc_file, 0);
    assert_int_equal(m->nfiles, 6);
    assert_null(m->files[0]);
    assert_string_equal(m->files[1], "/src/a.cu");
    assert_string_equal(m->files[2], "/usr/local/cuda/targets/x86_64-linux/include/b.h");
    assert_non_null(m->files[3]);
    assert_null(m->files[4]);
    assert_string_equal(m->files[5], "e.h");
    ptx_free(m);

    /* a user's own header keeps its line: the device function's, not its caller's */
    m = must_parse(HDR ".visible .entry k()\n{\n"
                       ".reg .b32 %r<2>;\n"
                       ".loc 1 11 5\n"
                       ".loc 2 20 7, function_name $L__info_string0, inlined_at 1 11 5\n"
                       "mov.u32 %r1, 3;\n"
                       "}\n"
                       ".file 1 \"/src/a.cu\"\n"
                       ".file 2 \"/src/scan.cuh\"\n");
    assert_int_equal(m->funcs[0].insns[0].loc_file, 2);
    assert_int_equal(m->funcs[0].insns[0].loc_line, 20);
    ptx_free(m);
}

/* Parameters laid out in declaration order, each at its alignment; .local
 * variables likewise in the frame's local area; launch bounds. */
static void test_symbols_layout(void **state)
{
    (void)state;
    ptx_module *m = must_parse(HDR ".visible .entry k(\n"
                                   "  .param .u8 p_a,\n"
                                   "  .param .u64 p_b,\n"
                                   "  .param .u32 p_c,\n"
                                   "  .param .align 16 .b8 p_d[20],\n"
                                   "  .param .f64 p_e\n"
                                   ")\n"
                                   ".maxntid 256, 1, 1\n"
                                   ".minnctapersm 2\n"
                                   "{\n"
                                   ".local .align 8 .b8 l_x[12];\n"
                                   ".local .u32 l_y;\n"
                                   ".local .align 16 .b8 l_z[4];\n"
                                   ".shared .align 4 .b8 s_buf[100];\n"
                                   ".shared .v4 .u32 s_v[3];\n"
                                   ".reg .b64 %rd<2>;\n"
                                   "ld.param.u64 %rd1, [p_b];\n"
                                   "mov.u64 %rd1, l_z;\n"
                                   "ret;\n}\n"
                                   ".entry k2(.param .u32 q)\n"
                                   ".reqntid 32, 4\n"
                                   "{\nret;\n}\n");
    const ptx_func *f = func_named(m, "k");
    assert_true(f->entry);
    assert_true(f->defined);
    assert_int_equal(f->nparams, 5);
    static const struct {
        const char *name;
        uint64_t off, size;
        uint32_t align;
    } want[] = {{"p_a", 0, 1, 1}, {"p_b", 8, 8, 8}, {"p_c", 16, 4, 4}, {"p_d", 32, 20, 16}, {"p_e", 56, 8, 8}};
    for (unsigned i = 0; i < 5; i++) {
        const ptx_sym *s = &m->syms[f->params[i]];
        assert_string_equal(s->name, want[i].name);
        assert_int_equal(s->space, PTX_SPACE_PARAM);
        assert_int_equal(s->func, 0);
        assert_true(s->is_func_param);
        assert_false(s->is_return);
        assert_int_equal(s->offset, want[i].off);
        assert_int_equal(s->size, want[i].size);
        assert_int_equal(s->align, want[i].align);
    }
    assert_int_equal(f->param_bytes, 64);
    assert_int_equal(sym(m, "l_x")->offset, 0);
    assert_int_equal(sym(m, "l_x")->size, 12);
    assert_int_equal(sym(m, "l_x")->align, 8);
    assert_int_equal(sym(m, "l_y")->offset, 12);
    assert_int_equal(sym(m, "l_z")->offset, 16);
    assert_int_equal(sym(m, "l_z")->space, PTX_SPACE_LOCAL);
    assert_int_equal(f->local_bytes, 32);
    assert_int_equal(sym(m, "s_buf")->space, PTX_SPACE_SHARED);
    assert_int_equal(sym(m, "s_buf")->size, 100);
    assert_int_equal(sym(m, "s_buf")->func, 0);
    assert_false(sym(m, "s_buf")->external);
    assert_int_equal(sym(m, "s_v")->size, 48);
    assert_int_equal(sym(m, "s_v")->align, 16);
    assert_int_equal(f->insns[0].o[1].sym, f->params[1]);
    assert_int_equal(f->insns[1].o[1].kind, PTX_O_SYM);
    assert_int_equal(f->insns[1].o[1].sym, sym_nth(m, "l_z", 0));
    assert_int_equal(f->maxntid[0], 256);
    assert_int_equal(f->maxntid[1], 1);
    assert_int_equal(f->maxntid[2], 1);
    assert_int_equal(f->minnctapersm, 2);
    assert_int_equal(f->reqntid[0], 0);
    const ptx_func *g = func_named(m, "k2");
    assert_int_equal(g->reqntid[0], 32);
    assert_int_equal(g->reqntid[1], 4);
    assert_int_equal(g->reqntid[2], 0);
    assert_int_equal(g->maxntid[0], 0);
    assert_int_equal(g->param_bytes, 4);
    assert_int_equal(g->local_bytes, 0);
    ptx_free(m);
}

/* A .func's return parameters come first in its parameter area; a call's
 * .params in a brace block are laid out after the caller's own and their
 * space is reused once the block closes; the deepest use sets the area's
 * size. */
static void test_call_params(void **state)
{
    (void)state;
    ptx_module *m = must_parse(HDR ".func (.param .b64 f_ret) f(.param .b32 f_a, .param .b64 f_b)\n"
                                   "{\n.reg .b64 %rd<2>;\n.param .b32 f_tmp;\n"
                                   "ld.param.b64 %rd1, [f_b];\nst.param.b64 [f_ret], %rd1;\nret;\n}\n"
                                   ".func g(.param .b32 g_a)\n{\nret;\n}\n"
                                   ".visible .entry k(.param .u64 k_p)\n{\n"
                                   ".reg .b32 %r<2>;\n.reg .b64 %rd<2>;\n"
                                   "{\n"
                                   ".param .b32 param0;\n"
                                   ".param .b64 param1;\n"
                                   ".param .b64 retval0;\n"
                                   "st.param.b32 [param0+0], %r1;\n"
                                   "st.param.b64 [param1+0], %rd1;\n"
                                   "call.uni (retval0), f, (param0, param1);\n"
                                   "ld.param.b64 %rd1, [retval0+0];\n"
                                   "}\n"
                                   "{\n"
                                   ".param .b32 param0;\n"
                                   "st.param.b32 [param0+0], %r1;\n"
                                   "call.uni g, (param0);\n"
                                   "}\n"
                                   "call.uni g, ();\n"
                                   "ret;\n}\n");
    const ptx_func *f = func_named(m, "f"), *g = func_named(m, "g"), *k = func_named(m, "k");
    assert_int_equal(f->nrets, 1);
    assert_int_equal(f->nparams, 2);
    assert_true(m->syms[f->rets[0]].is_return);
    assert_true(m->syms[f->rets[0]].is_func_param);
    assert_int_equal(m->syms[f->rets[0]].offset, 0);
    assert_int_equal(m->syms[f->params[0]].offset, 8);
    assert_int_equal(m->syms[f->params[1]].offset, 16);
    /* a .param of the body goes after the parameters */
    assert_false(sym(m, "f_tmp")->is_func_param);
    assert_int_equal(sym(m, "f_tmp")->offset, 24);
    assert_int_equal(f->param_bytes, 28);
    assert_int_equal(g->nrets, 0);
    assert_int_equal(g->param_bytes, 4);

    assert_int_equal(k->ninsns, 8);
    const ptx_insn *c1 = &k->insns[2], *c2 = &k->insns[5], *c3 = &k->insns[6];
    assert_int_equal(c1->op, PTX_I_call);
    assert_null(c1->unsupported);
    assert_int_equal(c1->o[0].kind, PTX_O_FUNC);
    assert_int_equal(c1->o[0].target, ptx_find_func(m, "f"));
    assert_int_equal(c1->nret, 1);
    assert_int_equal(c1->narg, 2);
    const int p0 = sym_nth(m, "param0", 0), p1 = sym_nth(m, "param1", 0), r0 = sym_nth(m, "retval0", 0);
    assert_int_equal(c1->call_params[0], r0);
    assert_int_equal(c1->call_params[1], p0);
    assert_int_equal(c1->call_params[2], p1);
    assert_int_equal(m->syms[p0].offset, 8);
    assert_int_equal(m->syms[p1].offset, 16);
    assert_int_equal(m->syms[r0].offset, 24);
    assert_false(m->syms[p0].is_func_param);
    assert_int_equal(m->syms[p0].func, ptx_find_func(m, "k"));
    assert_int_equal(k->insns[0].o[0].sym, p0);
    assert_int_equal(k->insns[3].o[1].sym, r0);
    /* the second block's param0: a symbol of its own, at the same offset */
    const int q0 = sym_nth(m, "param0", 1);
    assert_int_equal(m->syms[q0].offset, 8);
    assert_int_equal(k->insns[4].o[0].sym, q0);
    assert_int_equal(c2->o[0].target, ptx_find_func(m, "g"));
    assert_int_equal(c2->nret, 0);
    assert_int_equal(c2->narg, 1);
    assert_int_equal(c2->call_params[0], q0);
    assert_int_equal(c3->narg, 0);
    assert_int_equal(c3->nret, 0);
    assert_int_equal(k->param_bytes, 32);
    ptx_free(m);

    /* after the block, its .params are out of scope */
    expect_error(HDR ".func g(.param .b32 a)\n{\nret;\n}\n"
                     ".entry k()\n{\n.reg .b32 %r<2>;\n{\n.param .b32 param0;\n}\n"
                     "st.param.b32 [param0], %r1;\n}\n",
                 14, "param0");
}

/* Initialisers: the bytes of each element, little-endian, zero past the
 * last one given. */
static void test_initialisers(void **state)
{
    (void)state;
    ptx_module *m = must_parse(HDR ".global .align 4 .u32 g_a = 0x11223344;\n"
                                   ".global .align 2 .u16 g_h[3] = {1, -1, 0x8000};\n"
                                   ".global .align 4 .f32 g_f[3] = {1.5, 0f40000000, 2};\n"
                                   ".global .align 8 .u64 g_q = -2;\n"
                                   ".global .align 8 .f64 g_d = 3;\n"
                                   ".global .align 1 .b8 g_b[6] = {1, 2, 3};\n"
                                   ".const .align 4 .s32 c_m[2][2] = {{1, 2}, {3, -4}};\n"
                                   ".global .u32 g_zero;\n"
                                   ".visible .global .align 4 .s8 g_s = -128;\n"
                                   ".visible .entry k()\n{\nret;\n}\n");
    assert_memory_equal(sym(m, "g_a")->init, "\x44\x33\x22\x11", 4);
    assert_int_equal(sym(m, "g_h")->size, 6);
    assert_memory_equal(sym(m, "g_h")->init, "\x01\x00\xff\xff\x00\x80", 6);
    assert_memory_equal(sym(m, "g_f")->init, "\x00\x00\xc0\x3f\x00\x00\x00\x40\x00\x00\x00\x40", 12);
    assert_memory_equal(sym(m, "g_q")->init, "\xfe\xff\xff\xff\xff\xff\xff\xff", 8);
    assert_memory_equal(sym(m, "g_d")->init, "\x00\x00\x00\x00\x00\x00\x08\x40", 8);
    assert_int_equal(sym(m, "g_b")->size, 6);
    assert_int_equal(sym(m, "g_b")->align, 1);
    assert_memory_equal(sym(m, "g_b")->init, "\x01\x02\x03\x00\x00\x00", 6);
    const ptx_sym *c = sym(m, "c_m");
    assert_int_equal(c->space, PTX_SPACE_CONST);
    assert_int_equal(c->size, 16);
    assert_memory_equal(c->init, "\x01\0\0\0\x02\0\0\0\x03\0\0\0\xfc\xff\xff\xff", 16);
    assert_null(sym(m, "g_zero")->init);
    assert_int_equal(sym(m, "g_zero")->size, 4);
    assert_int_equal(sym(m, "g_zero")->align, 4);
    assert_memory_equal(sym(m, "g_s")->init, "\x80", 1);
    ptx_free(m);

    /* more elements than the variable holds */
    expect_error(HDR ".global .u32 g[2] = {1, 2, 3};\n", 4, "g");
}

static void test_dynamic_shared(void **state)
{
    (void)state;
    ptx_module *m = must_parse(HDR ".extern .shared .align 16 .b8 dyn[];\n"
                                   ".shared .align 4 .b8 fixed[64];\n"
                                   ".visible .entry k()\n{\n.reg .b32 %r<2>;\n"
                                   "mov.u32 %r1, dyn;\n"
                                   "ld.shared.u32 %r1, [dyn+4];\n"
                                   "ret;\n}\n");
    const ptx_sym *d = sym(m, "dyn"), *s = sym(m, "fixed");
    assert_true(d->external);
    assert_int_equal(d->size, 0);
    assert_int_equal(d->space, PTX_SPACE_SHARED);
    assert_int_equal(d->align, 16);
    assert_int_equal(d->func, -1);
    assert_false(s->external);
    assert_int_equal(s->size, 64);
    const ptx_insn *in = m->funcs[0].insns;
    assert_int_equal(in[0].o[1].kind, PTX_O_SYM);
    assert_int_equal(in[0].o[1].sym, sym_nth(m, "dyn", 0));
    assert_int_equal(in[1].o[1].sym, sym_nth(m, "dyn", 0));
    assert_int_equal(in[1].o[1].imm, 4);
    ptx_free(m);
}

/* Registers declared in a brace block (inline assembly's), without '%':
 * each block's are its own, and gone after it. */
static void test_scoped_registers(void **state)
{
    (void)state;
    ptx_module *m = must_parse(HDR ".visible .entry k()\n{\n"
                                   ".reg .b32 %r<3>;\n"
                                   "{\n.reg .s32 r0;\n.reg .pred p;\n"
                                   "add.s32 r0, %r1, 1;\n"         /* 0 */
                                   "setp.gt.s32 p, r0, 10;\n"      /* 1 */
                                   "@p mov.s32 %r2, r0;\n"         /* 2 */
                                   "}\n"
                                   "{\n.reg .s32 r0;\n.reg .pred p;\n"
                                   "add.s32 r0, %r1, 2;\n"         /* 3 */
                                   "setp.lt.s32 p, r0, 0;\n"       /* 4 */
                                   "@!p mov.s32 %r2, r0;\n"        /* 5 */
                                   "{\n.reg .s32 r0;\nmov.s32 r0, 7;\n}\n" /* 6: inner r0 */
                                   "mov.s32 %r1, r0;\n"            /* 7: the block's r0 again */
                                   "}\n"
                                   "ret;\n}\n");
    const ptx_func *f = &m->funcs[0];
    const ptx_insn *in = f->insns;
    const int a = in[0].o[0].reg, b = in[3].o[0].reg, c = in[6].o[0].reg;
    assert_true(a >= 3 && b >= 3 && c >= 3);
    assert_int_not_equal(a, b);
    assert_int_not_equal(b, c);
    assert_int_equal(in[1].o[1].reg, a);
    assert_int_equal(in[2].guard, in[1].o[0].reg);
    assert_int_equal(in[5].guard, in[4].o[0].reg);
    assert_int_equal(in[5].guard_neg, 1);
    assert_int_not_equal(in[2].guard, in[5].guard);
    assert_int_equal(in[7].o[1].reg, b);
    assert_int_equal(f->reg_type[a], PTX_T_S32);
    assert_int_equal(f->reg_type[in[1].o[0].reg], PTX_T_PRED);
    assert_int_equal(f->nregs, 8);
    ptx_free(m);

    /* r0 is not known after its block */
    expect_error(HDR ".entry k()\n{\n{\n.reg .s32 r0;\n}\nmov.s32 r0, 1;\n}\n", 9, "r0");
}

/* Opcodes and modifiers the interpreter does not know are kept, with
 * their text, so that only a launch that reaches them fails. */
static void test_unsupported(void **state)
{
    (void)state;
    ptx_module *m = must_parse(HDR ".visible .entry k()\n{\n"
                                   ".reg .b32 %r<3>;\n.reg .b64 %rd<2>;\n.reg .f32 %f<9>;\n"
                                   "cp.async.ca.shared.global [%r1], [%rd1], 16;\n" /* 0 */
                                   "add.bogus.s32 %r1, %r1, 1;\n"                  /* 1 */
                                   "ld.global.u32 %r1, [%rd1];\n"                  /* 2 */
                                   "mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 "
                                   "{%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, {%r1, %r2}, {%r1, %r2}, "
                                   "{%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8};\n"   /* 3 */
                                   "tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [tex0, {%f5, %f6}];\n" /* 4 */
                                   "add.s32.s32.s32 %r1, %r1, 1;\n"                /* 5: a third type */
                                   "ret;\n}\n");
    const ptx_insn *in = m->funcs[0].insns;
    assert_int_equal(m->funcs[0].ninsns, 7);
    assert_non_null(in[0].unsupported);
    assert_string_equal(in[0].unsupported, "cp.async.ca.shared.global");
    assert_int_equal(in[0].op, PTX_I_COUNT);
    assert_string_equal(in[1].unsupported, "add.bogus.s32");
    assert_null(in[2].unsupported);
    assert_int_equal(in[2].op, PTX_I_ld);
    assert_string_equal(in[3].unsupported, "mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32");
    assert_string_equal(in[4].unsupported, "tex.2d.v4.f32.f32");
    assert_string_equal(in[5].unsupported, "add.s32.s32.s32");
    assert_null(in[6].unsupported);
    assert_int_equal(count_unsupported(m), 5);
    ptx_free(m);

    /* an indirect call (through a register, with a prototype): kept as
     * unsupported, its parameters still resolved */
    m = must_parse(HDR ".func (.param .b32 r) f(.param .b32 a)\n{\nret;\n}\n"
                       ".visible .entry k(.param .u64 k_p)\n{\n.reg .b32 %r<2>;\n.reg .b64 %rd<2>;\n"
                       "ld.param.u64 %rd1, [k_p];\n"
                       "{\n.param .b32 param0;\n.param .b32 retval0;\n"
                       "prototype_0 : .callprototype (.param .b32 _) _ (.param .b32 _);\n"
                       "call (retval0), %rd1, (param0), prototype_0;\n"
                       "ld.param.b32 %r1, [retval0];\n"
                       "}\n"
                       "{\n.param .b32 param0;\n.param .b32 retval0;\n"
                       "call.uni (retval0), f, (param0);\n"
                       "}\n"
                       "ret;\n}\n");
    const ptx_func *k = func_named(m, "k");
    assert_int_equal(k->ninsns, 5);
    assert_int_equal(k->insns[1].op, PTX_I_call);
    assert_non_null(k->insns[1].unsupported);
    assert_string_equal(k->insns[1].unsupported, "call");
    assert_null(k->insns[3].unsupported);
    assert_int_equal(k->insns[3].o[0].target, ptx_find_func(m, "f"));
    assert_int_equal(count_unsupported(m), 1);
    ptx_free(m);
}

/* Forms nvcc writes that the fixtures do not all show: an .extern .func
 * prototype called, .weak and .common, .pragma in a body, packing halves
 * into a register and back, and instructions without operands. */
static void test_nvcc_forms(void **state)
{
    (void)state;
    ptx_module *m = must_parse(HDR ".extern .func (.param .b32 r) ext(.param .b32 a);\n"
                                   ".weak .func w()\n{\nret;\n}\n"
                                   ".common .global .align 4 .u32 cg;\n"
                                   ".visible .entry k()\n{\n"
                                   ".reg .b32 %r<3>;\n.reg .b16 %rs<3>;\n.reg .f32 %f<2>;\n"
                                   ".pragma \"nounroll\";\n"
                                   "{\n.param .b32 param0;\n.param .b32 retval0;\n"
                                   "call.uni (retval0), ext, (param0);\n}\n" /* 0 */
                                   "call.uni w, ();\n"                       /* 1 */
                                   "cvt.rn.f16.f32 %rs1, %f1;\n"             /* 2 */
                                   "mov.b32 %r1, {%rs1, %rs2};\n"            /* 3 */
                                   "mov.b32 {%rs1, _}, %r1;\n"               /* 4 */
                                   "mov.b16 %rs1, 0x3C00;\n"                 /* 5 */
                                   "prmt.b32 %r1, %r1, %r2, 0x3210;\n"       /* 6 */
                                   "activemask.b32 %r1;\n"                   /* 7 */
                                   "nanosleep.u32 100;\n"                    /* 8 */
                                   "st.global.u32 [cg], %r1;\n"              /* 9 */
                                   "trap;\n"                                 /* 10 */
                                   "exit;\n}\n");
    const ptx_func *ext = func_named(m, "ext"), *k = func_named(m, "k");
    assert_false(ext->defined);
    assert_false(ext->entry);
    assert_int_equal(ext->nrets, 1);
    assert_int_equal(ext->nparams, 1);
    assert_int_equal(ext->ninsns, 0);
    assert_true(func_named(m, "w")->defined);
    assert_int_equal(k->ninsns, 12);
    assert_int_equal(k->insns[0].o[0].target, ptx_find_func(m, "ext"));
    assert_int_equal(k->insns[1].o[0].target, ptx_find_func(m, "w"));
    assert_int_equal(k->insns[2].type, PTX_T_F16);
    assert_int_equal(k->insns[2].type2, PTX_T_F32);
    assert_int_equal(k->insns[3].o[1].kind, PTX_O_VEC);
    assert_int_equal(k->insns[3].o[1].elem[1].reg, slot_of(k, "%rs2"));
    assert_int_equal(k->insns[4].o[0].kind, PTX_O_VEC);
    assert_int_equal(k->insns[4].o[0].elem[1].reg, -1);
    assert_int_equal(k->insns[5].o[1].imm, 0x3c00);
    assert_int_equal(k->insns[6].o[3].imm, 0x3210);
    assert_int_equal(k->insns[7].op, PTX_I_activemask);
    assert_int_equal(k->insns[8].o[0].imm, 100);
    assert_int_equal(k->insns[9].o[0].sym, sym_nth(m, "cg", 0));
    assert_int_equal(k->insns[10].op, PTX_I_trap);
    assert_int_equal(k->insns[11].op, PTX_I_exit);
    assert_int_equal(count_unsupported(m), 0);
    ptx_free(m);
}

/* ---- errors: NULL and "path:LINE: error: ..." ------------------------------- */
static void test_error_not_ptx(void **state)
{
    (void)state;
    expect_error(".target sm_90\n.address_size 64\n", 1, "not PTX");
    expect_error("mov.u32 %r1, 1;\n", 1, "not PTX");
    expect_error("", 1, "not PTX");
    expect_error("// only a comment\n\n", 3, "not PTX");
    expect_error("\n\n.target sm_90\n.version 8.0\n", 3, "not PTX");
    static const char elf[] = "\x7f" "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x02\0\x3e\0\xff\xfe";
    expect_error_n(elf, sizeof elf - 1, 1, "not PTX");
    static const char zeros[16] = {0};
    expect_error_n(zeros, sizeof zeros, 1, "not PTX");
    expect_error(".version\n", 2, "version");
    expect_error(".version 8\n", 1, "version");
    expect_error(HDR "}\n", 4, "expected a directive");
}

static void test_error_directives(void **state)
{
    (void)state;
    expect_error(HDR ".bogus 1;\n", 4, "unknown directive '.bogus'");
    expect_error(HDR ".entry k()\n{\n.reg .b32 %r<2>;\n.bogusdir 1;\nret;\n}\n", 7,
                 "unknown directive '.bogusdir' in a function body");
    expect_error(".version 8.0\n.target sm_90\n.address_size 32\n", 3, "address_size");
    expect_error(HDR ".entry k()\n{\nret;\n}\n.entry k()\n{\nret;\n}\n", 8, "defined twice");
    expect_error(HDR ".alias a, b;\n", 4, ".alias");
}

static void test_error_undeclared(void **state)
{
    (void)state;
    expect_error(HDR ".entry k()\n{\n.reg .b32 %r<2>;\nadd.s32 %r1, %r1, %r7;\n}\n", 7,
                 "undeclared register '%r7'");
    expect_error(HDR ".entry k()\n{\n.reg .b32 %r<2>;\nret;\nld.global.u32 %r1, [%rd1];\n}\n", 8,
                 "undeclared register '%rd1'");
    expect_error(HDR ".entry k()\n{\n@%p1 ret;\n}\n", 6, "undeclared register '%p1'");
    expect_error(HDR ".entry k()\n{\n.reg .b64 %rd<2>;\nst.global.v2.u32 [%rd1], {%r1, %r2};\n}\n", 7,
                 "undeclared register '%r1'");
    expect_error(HDR ".entry k()\n{\nret;\n\nbra.uni $L__nowhere;\n}\n", 8, "undeclared label '$L__nowhere'");
    expect_error(HDR ".entry k()\n{\n.reg .b64 %rd<2>;\nmov.u64 %rd1, nosuch;\n}\n", 7,
                 "undeclared variable 'nosuch'");
    expect_error(HDR ".entry k()\n{\n.reg .b32 %r<2>;\nld.global.u32 %r1, [nosuch+4];\n}\n", 7,
                 "undeclared variable 'nosuch'");
    expect_error(HDR ".entry k()\n{\nret;\ncall.uni nosuch, ();\nret;\n}\n", 7,
                 "call of undeclared function 'nosuch'");
    /* a label of another function is not this one's */
    expect_error(HDR ".entry a()\n{\n$L__x:\nret;\n}\n.entry b()\n{\nbra.uni $L__x;\n}\n", 11,
                 "undeclared label");
    /* a variable of another function is not this one's */
    expect_error(HDR ".entry a()\n{\n.local .u32 v;\nret;\n}\n.entry b()\n{\n.reg .b64 %rd<2>;\n"
                     "mov.u64 %rd1, v;\n}\n",
                 12, "undeclared variable 'v'");
}

static void test_error_unterminated(void **state)
{
    (void)state;
    expect_error(HDR ".entry k()\n/* never\nclosed\n", 5, "unterminated comment");
    expect_error(HDR "/", 4, "");
    expect_error(HDR ".file 1 \"abc\n", 4, "unterminated string");
    expect_error(HDR ".file 1 \"abc", 4, "unterminated string");
    expect_error(HDR ".entry k()\n{\nret;\n", 7, "unexpected end of file in the body of 'k'");
    expect_error(HDR ".entry k()\n{\n{\nret;\n}\n", 9, "end of file");
    expect_error(HDR ".section .debug_str\n{\n.b8 1,2\n", 7, "unterminated .section");
    expect_error(HDR ".section .debug_str\n", 5, "unterminated .section");
    expect_error(HDR ".entry k(.param .u32 a,\n", 5, "");
    expect_error(HDR ".entry k()\n{\n.reg .b32 %r<2>;\nmov.u32 %r1, 1\n}\n", 8, "expected ',' or ';'");
}

static void test_error_numbers_and_operands(void **state)
{
    (void)state;
#define K HDR ".entry k()\n{\n.reg .b32 %r<2>;\n"
    expect_error(K "add.s32 %r1, %r1, 12z;\n}\n", 7, "malformed number");
    expect_error(K "add.s32 %r1, %r1, 0b102;\n}\n", 7, "malformed number");
    expect_error(K "add.s32 %r1, %r1, 0x;\n}\n", 7, "malformed number");
    expect_error(K "add.s32 %r1, %r1, 09;\n}\n", 7, "malformed number");
    expect_error(K "mov.b32 %r1, 0f3F80000;\n}\n", 7, "malformed number");
    expect_error(K "mov.b32 %r1, 1.5.5;\n}\n", 7, "malformed number");
    expect_error(K "mov.b32 %r1, 99999999999999999999;\n}\n", 7, "does not fit 64 bits");
    expect_error(K "add.s32 %r1, %r1, %r1, %r1, %r1, %r1, %r1;\n}\n", 7, "more than 6 operands");
    expect_error(K "add.s32 %r1, %r1, 1.5;\n}\n", 7, "floating-point literal for an integer operand");
    expect_error(K "add.s32 %r1, %r1, 1e3;\n}\n", 7, "floating-point literal for an integer operand");
    expect_error(K "ld.global.u32 %r1, [%r1+1.5];\n}\n", 7, "integer");
    expect_error(K "mov.b32 %r1, !1;\n}\n", 7, "predicate");
    expect_error(K "st.global.v4.u32 [%r1], {%r1, %r1, %r1, %r1, %r1};\n}\n", 7, "more than 4");
    expect_error(K "mov.u32 %r1, ;\n}\n", 7, "expected an operand");
    expect_error(K "mov.u32 %r1 %r1;\n}\n", 7, "expected ',' or ';'");
    expect_error(K "mov.u32 %r1, );\n}\n", 7, "malformed operand");
#undef K
    expect_error(HDR ".entry k()\n{\n.reg .b32 %r<99999999999>;\n}\n", 6, "");
    expect_error(HDR ".global .align 3 .u32 g;\n", 4, "power of two");
    expect_error(HDR ".global g;\n", 4, "");
}

static void test_error_textures(void **state)
{
    (void)state;
    expect_error(HDR ".global .texref tex0;\n", 4, "textures");
    expect_error(HDR ".entry k(\n.param .u64 a,\n.param .texref t\n)\n{\nret;\n}\n", 6, "textures");
    expect_error(HDR ".global .samplerref s0;\n", 4, "samplers");
}

/* ---- robustness --------------------------------------------------------------- */
/* A parse of anything gives a module or one well-formed message. */
static void check_outcome(const char *text, size_t len, const char *path, const char *what, size_t at)
{
    char err[512];
    ptx_module *m = parse_bytes(text, len, path, err, sizeof err);
    if (m) {
        ptx_free(m);
        return;
    }
    const size_t n = strlen(path);
    if (strncmp(err, path, n) != 0 || err[n] != ':' || !strstr(err, ": error: "))
        fail_msg("%s %s at %zu: no module and a malformed message '%s'", path, what, at, err);
}

/* Every prefix of a small module, to the byte: a text may end anywhere. */
static void test_truncated_snippet(void **state)
{
    (void)state;
    static const char text[] =
        "//\n" HDR ".file 1 \"k.cu\"\n"
        ".global .align 4 .b8 g[8] = {1, 2, 3};\n.extern .shared .align 16 .b8 s[];\n"
        ".func (.param .b32 r) f(.param .b32 a)\n{\n.reg .b32 %r<2>;\n"
        "ld.param.b32 %r1, [a];\nst.param.b32 [r+0], %r1;\nret;\n}\n"
        ".func g(.param .b32 b, .param .b32 c)\n{\nret;\n}\n"
        ".visible .entry k(.param .u64 p)\n.maxntid 64, 1, 1\n{\n"
        ".local .align 8 .b8 d[16];\n.reg .pred %p<2>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<3>;\n"
        ".loc 1 3 5\n/* c */ ld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\n"
        "{ .reg .pred q; setp.ne.and.s32 %p1|q, %r1, 0x1F, !%p1; @!q bra $L__e; }\n"
        "{\n.param .b32 param0;\n.param .b32 retval0;\nst.param.b32 [param0+0], %r1;\n"
        "call.uni (retval0), f, (param0);\nld.param.b32 %r2, [retval0+0];\n}\n"
        "{\n.param .b32 param0;\n.param .b32 param1;\ncall.uni g, (param0, param1);\n}\n"
        "mov.f32 %r3, 0f3F800000;\nst.global.v2.u32 [%rd1+-8], {%r2, _};\n"
        "$L__e:\nret;\n}\n.section .debug_str\n{\n$L__s:\n.b8 65,0\n}\n";
    check_outcome(text, sizeof text - 1, PATH, "whole", 0);
    char err[512];
    ptx_module *m = parse_bytes(text, sizeof text - 1, PATH, err, sizeof err);
    if (!m)
        fail_msg("%s", err);
    ptx_free(m);
    for (size_t len = 0; len < sizeof text - 1; len++)
        check_outcome(text, len, PATH, "truncated", len);
}

/* Text built to break a parser: nesting deep enough to exhaust a
 * recursive one's stack, names and numbers longer than any buffer, counts
 * past any sane limit. Each gives a module or an error. */
static void test_pathological(void **state)
{
    (void)state;
    enum { N = 200000 };
    char *buf = malloc(N + 256);
    assert_non_null(buf);
    char err[512];
    static const char *const heads[] = {
        HDR ".global .u32 g[1] = ",           /* initialiser braces */
        HDR ".entry k()\n",                   /* body braces, never closed */
        HDR ".func ",                         /* return-list parentheses */
        HDR ".entry k()\n{\n",                /* an opcode of N letters */
        HDR ".entry k()\n{\n.reg .b32 %r<2>;\nmov.u32 %r1, ", /* a number of N digits */
        HDR ".entry k()\n{\n.reg .b32 %",     /* a register name of N letters */
    };
    static const char fill[] = {'{', '{', '(', 'a', '7', 'r'};
    for (unsigned h = 0; h < sizeof heads / sizeof heads[0]; h++) {
        const size_t n = strlen(heads[h]);
        memcpy(buf, heads[h], n);
        memset(buf + n, fill[h], N);
        check_outcome(buf, n + N, PATH, "pathological", h);
        memcpy(buf + n + N, ";\n}\n", 4);
        check_outcome(buf, n + N + 4, PATH, "pathological, closed", h);
    }
    /* balanced braces, deeper than the parser keeps .param offsets for */
    {
        static const char head[] = HDR ".entry k()\n{\n";
        size_t n = sizeof head - 1;
        memcpy(buf, head, n);
        for (size_t i = 0; i < 1000; i++)
            buf[n++] = '{';
        for (size_t i = 0; i < 1000; i++)
            buf[n++] = '}';
        memcpy(buf + n, "ret;\n}\n", 7);
        ptx_module *m = parse_bytes(buf, n + 7, PATH, err, sizeof err);
        if (!m)
            fail_msg("%s", err);
        assert_int_equal(m->funcs[0].ninsns, 1);
        ptx_free(m);
    }
    free(buf);
    /* 40 levels: past any array's dimensions */
    expect_error(HDR ".global .u32 g[1] = {{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{"
                     "1}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}};\n",
                 4, "nested too deeply");
    expect_error(HDR ".file 4000000000 \"a.cu\"\n", 4, "");
    expect_error(HDR ".entry k()\n{\n.reg .b32 %r<4294967295>;\n}\n", 6, "too many registers");
    /* a text that ends right after the target's digits */
    static const char tail[] = ".version 8.0\n.target sm_75";
    ptx_module *m = parse_bytes(tail, sizeof tail - 1, PATH, err, sizeof err);
    assert_non_null(m);
    assert_int_equal(m->sm, 75);
    assert_int_equal(m->version_major, 8);
    assert_int_equal(m->nfuncs, 0);
    ptx_free(m);
}

/* The fixtures cut at every 97th byte (the large CUB module at a sample of
 * those offsets, its prefixes being slow to parse one by one). */
static void test_truncated_fixtures(void **state)
{
    (void)state;
    for (size_t i = 0; i < NFIXTURES; i++) {
        fixture fx;
        if (!load_fixture(fixtures[i].name, &fx))
            fail_msg("fixture %s not readable", fixtures[i].name);
        const size_t stride = fx.len > 100000 ? 97 * 1009 : 97;
        for (size_t off = 0; off < fx.len; off += stride)
            check_outcome(fx.data, off, fx.path, "truncated", off);
        free(fx.data);
    }
}

static uint64_t rng_state;
static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* Each fixture with a few bytes changed: flipped bits, or PTX's own
 * punctuation and digits put where they do not belong. The seed is fixed:
 * a failure replays. */
static void test_mutated_fixtures(void **state)
{
    (void)state;
    static const char syntax[] = "{}[]();,.:%@!|_-+<>\"/*0123456789 \n";
    rng_state = UINT64_C(0x9e3779b97f4a7c15);
    for (size_t i = 0; i < NFIXTURES; i++) {
        fixture fx;
        if (!load_fixture(fixtures[i].name, &fx))
            fail_msg("fixture %s not readable", fixtures[i].name);
        char *buf = malloc(fx.len);
        assert_non_null(buf);
        const unsigned rounds = fx.len > 100000 ? 8 : 250;
        for (unsigned r = 0; r < rounds; r++) {
            memcpy(buf, fx.data, fx.len);
            const unsigned nflips = 1 + (unsigned)(rng() % 3);
            for (unsigned k = 0; k < nflips; k++) {
                const size_t at = (size_t)(rng() % fx.len);
                if (rng() & 1)
                    buf[at] = (char)(buf[at] ^ (char)(1 + rng() % 255));
                else
                    buf[at] = syntax[rng() % (sizeof syntax - 1)];
            }
            check_outcome(buf, fx.len, fx.path, "mutated, round", r);
        }
        free(buf);
        free(fx.data);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_types_and_rounding),
        cmocka_unit_test(test_compare_and_bool),
        cmocka_unit_test(test_space_sem_scope),
        cmocka_unit_test(test_flags),
        cmocka_unit_test(test_registers),
        cmocka_unit_test(test_guards),
        cmocka_unit_test(test_immediates),
        cmocka_unit_test(test_addresses),
        cmocka_unit_test(test_vectors),
        cmocka_unit_test(test_labels),
        cmocka_unit_test(test_special_registers),
        cmocka_unit_test(test_loc_and_files),
        cmocka_unit_test(test_symbols_layout),
        cmocka_unit_test(test_call_params),
        cmocka_unit_test(test_initialisers),
        cmocka_unit_test(test_dynamic_shared),
        cmocka_unit_test(test_scoped_registers),
        cmocka_unit_test(test_unsupported),
        cmocka_unit_test(test_nvcc_forms),
        cmocka_unit_test(test_error_not_ptx),
        cmocka_unit_test(test_error_directives),
        cmocka_unit_test(test_error_undeclared),
        cmocka_unit_test(test_error_unterminated),
        cmocka_unit_test(test_error_numbers_and_operands),
        cmocka_unit_test(test_error_textures),
        cmocka_unit_test(test_fixtures_parse),
        cmocka_unit_test(test_fixture_calls),
        cmocka_unit_test(test_fixture_local_array),
        cmocka_unit_test(test_fixture_globals),
        cmocka_unit_test(test_fixture_dyn_shared),
        cmocka_unit_test(test_fixture_inline_asm),
        cmocka_unit_test(test_fixture_atomics),
        cmocka_unit_test(test_fixture_warp),
        cmocka_unit_test(test_truncated_snippet),
        cmocka_unit_test(test_pathological),
        cmocka_unit_test(test_truncated_fixtures),
        cmocka_unit_test(test_mutated_fixtures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
