/* Register compaction (model/ptx/regalloc.c) on small functions: how many
 * slots it leaves, and that it never gives one slot to two values that can
 * be live at once (a guarded write, a loop's carried value, an
 * instruction's destinations against its sources, registers of different
 * types). What it means for results is checked by every test that runs
 * PTX: the instruction set against the H100, the catalogue against its
 * dialect builds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include "tap.h"

#include "model/ptx/ptx.h"
#include "model/ptx/regalloc.h"

#define HDR ".version 8.0\n.target sm_90\n.address_size 64\n"

/* Parses one .entry k(.param .u64 p) with the given declarations and body,
 * and compacts its registers. */
static ptx_module *compacted(const char *decls, const char *body, uint32_t *before)
{
    char text[4096], err[512];
    snprintf(text, sizeof text, HDR ".visible .entry k(.param .u64 p)\n{\n%s\n.reg .b64 %%rd<4>;\n"
                                    "ld.param.u64 %%rd1, [p];\n%s\nret;\n}\n",
             decls, body);
    ptx_module *m = ptx_parse(text, strlen(text), "t.ptx", err, sizeof err);
    if (!m)
        fail_msg("parse error: %s", err);
    *before = m->funcs[0].nregs;
    assert_int_equal(ptx_compact_registers(&m->funcs[0]), 0);
    return m;
}

/* The index of the n-th instruction with opcode op (n from 0). */
static const ptx_insn *nth(const ptx_func *f, unsigned op, unsigned n)
{
    for (uint32_t i = 0; i < f->ninsns; i++)
        if (f->insns[i].op == op && n-- == 0)
            return &f->insns[i];
    fail_msg("no instruction %u", op);
    return NULL;
}

/* A chain of adds, each value read once: two b32 slots do (a destination
 * never shares its instruction's source), one b64 for the address. */
static void test_chain(void **state)
{
    (void)state;
    uint32_t before;
    ptx_module *m = compacted(".reg .b32 %r<9>;",
                              "mov.u32 %r1, 1;\nadd.s32 %r2, %r1, 1;\nadd.s32 %r3, %r2, 1;\nadd.s32 %r4, %r3, 1;\n"
                              "add.s32 %r5, %r4, 1;\nadd.s32 %r6, %r5, 1;\nadd.s32 %r7, %r6, 1;\n"
                              "add.s32 %r8, %r7, 1;\nst.global.u32 [%rd1], %r8;",
                              &before);
    const ptx_func *f = &m->funcs[0];
    assert_true(before >= 13);
    unsigned b32 = 0, b64 = 0;
    for (uint32_t s = 0; s < f->nregs; s++) {
        b32 += f->reg_type[s] == PTX_T_B32;
        b64 += f->reg_type[s] == PTX_T_B64;
    }
    assert_int_equal(b32, 2);
    assert_int_equal(b64, 1);
    for (unsigned k = 0; k < 7; k++) {
        const ptx_insn *in = nth(f, PTX_I_add, k);
        assert_int_not_equal(in->o[0].reg, in->o[1].reg);
        assert_int_equal(f->reg_type[in->o[0].reg], PTX_T_B32);
    }
    ptx_free(m);
}

/* %r2 is written only under a guard: when the guard is false the store
 * reads its value from before (undefined, so live from the entry), which
 * must not be %r1's, although %r1 is dead by then. */
static void test_guarded_write(void **state)
{
    (void)state;
    uint32_t before;
    ptx_module *m = compacted(".reg .b32 %r<4>;\n.reg .pred %p<2>;",
                              "setp.eq.u64 %p1, %rd1, 0;\nmov.u32 %r1, 7;\nst.global.u32 [%rd1], %r1;\n"
                              "@%p1 mov.u32 %r2, 5;\nst.global.u32 [%rd1+4], %r2;",
                              &before);
    const ptx_func *f = &m->funcs[0];
    assert_int_not_equal(nth(f, PTX_I_st, 0)->o[1].reg, nth(f, PTX_I_st, 1)->o[1].reg);
    ptx_free(m);
}

/* A value carried around a loop (%r1) stays apart from the loop's
 * temporaries, and the counter (%r2) from both. */
static void test_loop(void **state)
{
    (void)state;
    uint32_t before;
    ptx_module *m = compacted(".reg .b32 %r<6>;\n.reg .pred %p<2>;",
                              "mov.u32 %r1, 0;\nmov.u32 %r2, 0;\nLOOP:\nmul.lo.s32 %r3, %r2, 3;\n"
                              "add.s32 %r1, %r1, %r3;\nadd.s32 %r2, %r2, 1;\nsetp.lt.u32 %p1, %r2, 10;\n"
                              "@%p1 bra LOOP;\nst.global.u32 [%rd1], %r1;",
                              &before);
    const ptx_func *f = &m->funcs[0];
    const ptx_insn *mul = nth(f, PTX_I_mul, 0), *acc = nth(f, PTX_I_add, 0), *inc = nth(f, PTX_I_add, 1);
    const int32_t r1 = acc->o[0].reg, r2 = inc->o[0].reg, r3 = mul->o[0].reg;
    assert_int_equal(acc->o[1].reg, r1);
    assert_int_equal(mul->o[1].reg, r2);
    assert_int_not_equal(r1, r2);
    assert_int_not_equal(r1, r3);
    assert_int_not_equal(r2, r3);
    ptx_free(m);
}

/* A vector load's destinations are written together: distinct slots. */
static void test_vector(void **state)
{
    (void)state;
    uint32_t before;
    ptx_module *m = compacted(".reg .b32 %r<6>;",
                              "ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1];\nadd.s32 %r5, %r1, %r4;\n"
                              "st.global.u32 [%rd1], %r5;",
                              &before);
    const ptx_insn *ld = nth(&m->funcs[0], PTX_I_ld, 1);
    for (int a = 0; a < 4; a++)
        for (int b = a + 1; b < 4; b++)
            assert_int_not_equal(ld->o[0].elem[a].reg, ld->o[0].elem[b].reg);
    ptx_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chain),
        cmocka_unit_test(test_guarded_write),
        cmocka_unit_test(test_loop),
        cmocka_unit_test(test_vector),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
