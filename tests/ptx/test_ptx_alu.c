/* ptx_alu against hand-written bits from the PTX ISA's definitions, and,
 * where the ISA leaves the result open or the GPU departs from its text
 * (NaN bits, division by zero, the carry of sub.cc, bfe.b64's operands,
 * .ftz's tininess), the H100's results. Instructions are built by hand:
 * the parser is not needed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include "tap.h"

#include "model/ptx/ptx.h"

/* An instruction with its destination and nsrc register sources. */
static ptx_insn mk(unsigned op, unsigned type, unsigned nsrc)
{
    ptx_insn in;
    memset(&in, 0, sizeof in);
    in.op = (uint16_t)op;
    in.type = (uint8_t)type;
    in.guard = -1;
    in.nops = (uint8_t)(1 + nsrc);
    for (unsigned k = 0; k <= nsrc && k < PTX_MAX_OPERANDS; k++)
        in.o[k].kind = PTX_O_REG;
    return in;
}

static ptx_insn mkf(unsigned op, unsigned type, unsigned nsrc, unsigned rnd, uint32_t flags)
{
    ptx_insn in = mk(op, type, nsrc);
    in.rnd = (uint8_t)rnd;
    in.flags = flags;
    return in;
}

static ptx_insn mkcvt(unsigned to, unsigned from, unsigned rnd, uint32_t flags)
{
    ptx_insn in = mkf(PTX_I_cvt, to, 1, rnd, flags);
    in.type2 = (uint8_t)from;
    return in;
}

/* Runs in on sources a, b, c, e with the carry flag *cf; the destinations
 * land in dst. */
static void run(const ptx_insn *in, uint64_t a, uint64_t b, uint64_t c, uint64_t e, uint64_t *dst,
                unsigned char *cf, int line)
{
    uint64_t src[8] = {a, b, c, e, 0, 0, 0, 0};
    for (int k = 0; k < 8; k++)
        dst[k] = 0xdeadbeefdeadbeefull;
    if (ptx_alu(in, src, dst, cf) != 0)
        fail_msg("line %d: ptx_alu refused op %u type %u", line, in->op, in->type);
}

static uint64_t eval(const ptx_insn *in, uint64_t a, uint64_t b, uint64_t c, uint64_t e, int line)
{
    uint64_t dst[8];
    unsigned char cf = 0;
    run(in, a, b, c, e, dst, &cf, line);
    return dst[0];
}

static void expect_at(const ptx_insn *in, uint64_t a, uint64_t b, uint64_t c, uint64_t e, uint64_t want, int line)
{
    uint64_t got = eval(in, a, b, c, e, line);
    if (got != want)
        fail_msg("line %d: op %u type %u (%llx, %llx, %llx): got %llx, want %llx", line, in->op, in->type,
                 (unsigned long long)a, (unsigned long long)b, (unsigned long long)c, (unsigned long long)got,
                 (unsigned long long)want);
}

#define EXPECT1(in, a, want) expect_at(&(in), (a), 0, 0, 0, (want), __LINE__)
#define EXPECT2(in, a, b, want) expect_at(&(in), (a), (b), 0, 0, (want), __LINE__)
#define EXPECT3(in, a, b, c, want) expect_at(&(in), (a), (b), (c), 0, (want), __LINE__)
#define EXPECT4(in, a, b, c, e, want) expect_at(&(in), (a), (b), (c), (e), (want), __LINE__)
#define REFUSED(in) assert_int_equal(refused(in), 1)

static int refused(ptx_insn in)
{
    uint64_t src[8] = {0}, dst[8];
    unsigned char cf = 0;
    return ptx_alu(&in, src, dst, &cf) == -1;
}

/* f32 bit patterns */
#define F_ONE 0x3f800000u
#define F_MONE 0xbf800000u
#define F_HALF 0x3f000000u
#define F_2P_24 0x33800000u /* 2^-24: half an ulp of 1.0 */
#define F_INF 0x7f800000u
#define F_QNAN 0x7fc00000u
#define F_NAN 0x7fffffffu /* the GPU's canonical NaN */
#define F_MZERO 0x80000000u

/* ---- integer ------------------------------------------------------------------ */

static void test_wraparound(void **state)
{
    (void)state;
    ptx_insn add32 = mk(PTX_I_add, PTX_T_S32, 2), add16 = mk(PTX_I_add, PTX_T_U16, 2);
    ptx_insn sub64 = mk(PTX_I_sub, PTX_T_U64, 2), sats = mkf(PTX_I_add, PTX_T_S32, 2, 0, PTX_F_SAT);
    ptx_insn subsat = mkf(PTX_I_sub, PTX_T_S32, 2, 0, PTX_F_SAT);
    EXPECT2(add32, 0x7fffffff, 1, 0x80000000); /* zero-extended, not sign-extended */
    EXPECT2(add16, 0xffff, 2, 1);
    EXPECT2(sub64, 0, 1, 0xffffffffffffffffull);
    EXPECT2(sats, 0x7fffffff, 1, 0x7fffffff);
    EXPECT2(sats, 0x80000000, 0xffffffff, 0x80000000);
    EXPECT2(subsat, 0x80000000, 1, 0x80000000);
    EXPECT2(subsat, 0x7fffffff, 0xffffffff, 0x7fffffff);
    EXPECT2(subsat, 5, 7, 0xfffffffe);
}

static void test_mul(void **state)
{
    (void)state;
    ptx_insn hiu = mkf(PTX_I_mul, PTX_T_U32, 2, 0, PTX_F_HI), his = mkf(PTX_I_mul, PTX_T_S32, 2, 0, PTX_F_HI);
    ptx_insn wu = mkf(PTX_I_mul, PTX_T_U32, 2, 0, PTX_F_WIDE), ws = mkf(PTX_I_mul, PTX_T_S32, 2, 0, PTX_F_WIDE);
    ptx_insn lo16 = mkf(PTX_I_mul, PTX_T_S16, 2, 0, PTX_F_LO), w16 = mkf(PTX_I_mul, PTX_T_S16, 2, 0, PTX_F_WIDE);
    ptx_insn hiu64 = mkf(PTX_I_mul, PTX_T_U64, 2, 0, PTX_F_HI), his64 = mkf(PTX_I_mul, PTX_T_S64, 2, 0, PTX_F_HI);
    EXPECT2(hiu, 0xffffffff, 0xffffffff, 0xfffffffe);
    EXPECT2(his, 0xffffffff, 0xffffffff, 0); /* -1 * -1 */
    EXPECT2(his, 0x80000000, 0x80000000, 0x40000000);
    EXPECT2(his, 0xfffffffe, 3, 0xffffffff); /* -6: high half all ones */
    EXPECT2(wu, 0xffffffff, 0xffffffff, 0xfffffffe00000001ull);
    EXPECT2(ws, 0xfffffffe, 3, 0xfffffffffffffffaull);
    EXPECT2(lo16, 0x8000, 2, 0);
    EXPECT2(w16, 0x8000, 0x8000, 0x40000000);
    EXPECT2(hiu64, ~0ull, ~0ull, 0xfffffffffffffffeull);
    EXPECT2(his64, ~0ull, 2, ~0ull);
    EXPECT2(his64, 0x8000000000000000ull, 0x8000000000000000ull, 0x4000000000000000ull);
}

static void test_mad(void **state)
{
    (void)state;
    ptx_insn lo = mkf(PTX_I_mad, PTX_T_U32, 3, 0, PTX_F_LO), hi = mkf(PTX_I_mad, PTX_T_U32, 3, 0, PTX_F_HI);
    ptx_insn hisat = mkf(PTX_I_mad, PTX_T_S32, 3, 0, PTX_F_HI | PTX_F_SAT);
    ptx_insn wide = mkf(PTX_I_mad, PTX_T_S16, 3, 0, PTX_F_WIDE);
    EXPECT3(lo, 3, 5, 7, 22);
    EXPECT3(lo, 0x10000, 0x10000, 5, 5);
    EXPECT3(hi, 0x80000000, 4, 1, 3);
    EXPECT3(hisat, 0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff);
    EXPECT3(hisat, 0x80000000, 0x7fffffff, 0x80000000, 0x80000000);
    EXPECT3(wide, 0xffff, 0xffff, 0xfffffffe, 0xffffffff); /* 1 + -2 */
}

static void test_mul24(void **state)
{
    (void)state;
    ptx_insn lou = mkf(PTX_I_mul24, PTX_T_U32, 2, 0, PTX_F_LO), hiu = mkf(PTX_I_mul24, PTX_T_U32, 2, 0, PTX_F_HI);
    ptx_insn los = mkf(PTX_I_mul24, PTX_T_S32, 2, 0, PTX_F_LO), his = mkf(PTX_I_mul24, PTX_T_S32, 2, 0, PTX_F_HI);
    ptx_insn madhi = mkf(PTX_I_mad24, PTX_T_U32, 3, 0, PTX_F_HI);
    EXPECT2(lou, 0x01000003, 2, 6);                  /* the top 8 bits are ignored */
    EXPECT2(hiu, 0xffffff, 0xffffff, 0xfffffe00);    /* bits 47..16 of 0xfffffe000001 */
    EXPECT2(los, 0x00800000, 2, 0xff000000);         /* -2^23 * 2 */
    EXPECT2(his, 0x00ffffff, 2, 0xffffffff);         /* -1 * 2: bits 47..16 of -2 */
    EXPECT3(madhi, 0x10000, 0x10000, 5, 0x10005);    /* 2^32 >> 16, plus 5 */
}

static void test_sad_abs_neg_minmax(void **state)
{
    (void)state;
    ptx_insn sadu = mk(PTX_I_sad, PTX_T_U32, 3), sads = mk(PTX_I_sad, PTX_T_S32, 3);
    ptx_insn abs32 = mk(PTX_I_abs, PTX_T_S32, 1), neg32 = mk(PTX_I_neg, PTX_T_S32, 1);
    ptx_insn abs16 = mk(PTX_I_abs, PTX_T_S16, 1), neg64 = mk(PTX_I_neg, PTX_T_S64, 1);
    ptx_insn mins = mk(PTX_I_min, PTX_T_S32, 2), minu = mk(PTX_I_min, PTX_T_U32, 2);
    ptx_insn maxrelu = mkf(PTX_I_max, PTX_T_S32, 2, 0, PTX_F_RELU), max64 = mk(PTX_I_max, PTX_T_S64, 2);
    EXPECT3(sadu, 1, 0xffffffff, 10, 8); /* 0xfffffffe + 10, wrapped */
    EXPECT3(sads, 1, 0xffffffff, 10, 12); /* |1 - -1| + 10 */
    EXPECT1(abs32, 0x80000000, 0x80000000);
    EXPECT1(abs32, 0xfffffff9, 7);
    EXPECT1(neg32, 0x80000000, 0x80000000);
    EXPECT1(neg32, 1, 0xffffffff);
    EXPECT1(abs16, 0x8000, 0x8000);
    EXPECT1(neg64, 0x8000000000000000ull, 0x8000000000000000ull);
    EXPECT2(mins, 0xffffffff, 1, 0xffffffff);
    EXPECT2(minu, 0xffffffff, 1, 1);
    EXPECT2(maxrelu, 0xfffffff0, 0xfffffff8, 0);
    EXPECT2(maxrelu, 0xfffffff0, 3, 3);
    EXPECT2(max64, 0x8000000000000000ull, 0, 0);
}

static void test_div_rem(void **state)
{
    (void)state;
    ptx_insn divs = mk(PTX_I_div, PTX_T_S32, 2), rems = mk(PTX_I_rem, PTX_T_S32, 2);
    ptx_insn divu = mk(PTX_I_div, PTX_T_U32, 2), remu = mk(PTX_I_rem, PTX_T_U32, 2);
    ptx_insn divs64 = mk(PTX_I_div, PTX_T_S64, 2), rems64 = mk(PTX_I_rem, PTX_T_S64, 2);
    ptx_insn divs16 = mk(PTX_I_div, PTX_T_S16, 2);
    EXPECT2(divs, 0x80000000, 0xffffffff, 0x80000000); /* INT_MIN / -1 */
    EXPECT2(rems, 0x80000000, 0xffffffff, 0);
    EXPECT2(divs, 0xfffffff9, 2, 0xfffffffd); /* -7 / 2 = -3: toward zero */
    EXPECT2(rems, 0xfffffff9, 2, 0xffffffff); /* -7 % 2 = -1: the dividend's sign */
    EXPECT2(rems, 7, 0xfffffffe, 1);          /* 7 % -2 = 1 */
    EXPECT2(divu, 0xfffffff9, 2, 0x7ffffffc);
    EXPECT2(remu, 0xfffffff9, 2, 1);
    EXPECT2(divs64, 0x8000000000000000ull, ~0ull, 0x8000000000000000ull);
    EXPECT2(rems64, 0x8000000000000000ull, ~0ull, 0);
    EXPECT2(divs16, 0x8000, 0xffff, 0x8000);
    /* by zero: unspecified in the ISA; all ones on the GPU, signed or not */
    EXPECT2(divu, 7, 0, 0xffffffff);
    EXPECT2(divs, 7, 0, 0xffffffff);
    EXPECT2(divs, 0xfffffff9, 0, 0xffffffff);
    EXPECT2(remu, 7, 0, 0xffffffff);
    EXPECT2(rems64, 7, 0, ~0ull);
}

static void test_carry_chains(void **state)
{
    (void)state;
    ptx_insn addcc = mkf(PTX_I_add, PTX_T_U32, 2, 0, PTX_F_CC), addc = mk(PTX_I_addc, PTX_T_U32, 2);
    ptx_insn addccc = mkf(PTX_I_addc, PTX_T_U32, 2, 0, PTX_F_CC), addcc64 = mkf(PTX_I_add, PTX_T_U64, 2, 0, PTX_F_CC);
    ptx_insn subcc = mkf(PTX_I_sub, PTX_T_U32, 2, 0, PTX_F_CC), subc = mk(PTX_I_subc, PTX_T_U32, 2);
    ptx_insn madcc = mkf(PTX_I_mad, PTX_T_U32, 3, 0, PTX_F_CC | PTX_F_LO);
    ptx_insn madc = mkf(PTX_I_madc, PTX_T_U32, 3, 0, PTX_F_HI);
    uint64_t d[8];
    unsigned char cf = 0;
    /* 0x00000001_ffffffff + 0x00000000_00000001, word by word */
    run(&addcc, 0xffffffff, 1, 0, 0, d, &cf, __LINE__);
    assert_int_equal(d[0], 0);
    assert_int_equal(cf, 1);
    run(&addccc, 1, 0, 0, 0, d, &cf, __LINE__);
    assert_int_equal(d[0], 2);
    assert_int_equal(cf, 0);
    cf = 1;
    run(&addc, 0xffffffff, 0xffffffff, 0, 0, d, &cf, __LINE__);
    assert_int_equal(d[0], 0xffffffff);
    assert_int_equal(cf, 1); /* addc without .cc leaves the flag */
    run(&addcc64, ~0ull, 2, 0, 0, d, &cf, __LINE__);
    assert_int_equal(d[0], 1);
    assert_int_equal(cf, 1);
    /* sub.cc: the GPU's flag is a carry, set when nothing is borrowed */
    run(&subcc, 0, 1, 0, 0, d, &cf, __LINE__);
    assert_int_equal(d[0], 0xffffffff);
    assert_int_equal(cf, 0);
    run(&subc, 1, 0, 0, 0, d, &cf, __LINE__); /* 2^32 - 1: the high word */
    assert_int_equal(d[0], 0);
    cf = 1;
    run(&subc, 5, 3, 0, 0, d, &cf, __LINE__);
    assert_int_equal(d[0], 2);
    run(&subcc, 5, 3, 0, 0, d, &cf, __LINE__);
    assert_int_equal(cf, 1);
    /* mad.lo.cc then madc.hi: the full 64-bit a * b + c */
    run(&madcc, 0xffffffff, 0xffffffff, 0xffffffff, 0, d, &cf, __LINE__);
    assert_int_equal(d[0], 0); /* 0x00000001 + 0xffffffff */
    assert_int_equal(cf, 1);
    run(&madc, 0xffffffff, 0xffffffff, 0, 0, d, &cf, __LINE__);
    assert_int_equal(d[0], 0xffffffff); /* 0xfffffffe + carry */
}

/* ---- bits ---------------------------------------------------------------------- */

static void test_shifts(void **state)
{
    (void)state;
    ptx_insn shl = mk(PTX_I_shl, PTX_T_B32, 2), shru = mk(PTX_I_shr, PTX_T_U32, 2);
    ptx_insn shrs = mk(PTX_I_shr, PTX_T_S32, 2), shl64 = mk(PTX_I_shl, PTX_T_B64, 2);
    ptx_insn shrs64 = mk(PTX_I_shr, PTX_T_S64, 2), shrs16 = mk(PTX_I_shr, PTX_T_S16, 2);
    static const uint64_t amounts[] = {0, 31, 32, 33, 255};
    static const uint64_t want_shl[] = {0x80000001, 0x80000000, 0, 0, 0};
    static const uint64_t want_shru[] = {0x80000001, 1, 0, 0, 0};
    static const uint64_t want_shrs[] = {0x80000001, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff};
    for (unsigned i = 0; i < 5; i++) {
        EXPECT2(shl, 0x80000001, amounts[i], want_shl[i]);
        EXPECT2(shru, 0x80000001, amounts[i], want_shru[i]);
        EXPECT2(shrs, 0x80000001, amounts[i], want_shrs[i]);
    }
    EXPECT2(shrs, 0x40000000, 33, 0);
    EXPECT2(shl, 1, 0x100000001ull, 2); /* the amount is a u32 */
    EXPECT2(shl64, 1, 63, 0x8000000000000000ull);
    EXPECT2(shl64, 1, 64, 0);
    EXPECT2(shrs64, 0x8000000000000000ull, 64, ~0ull);
    EXPECT2(shrs64, 0x8000000000000000ull, 4, 0xf800000000000000ull);
    EXPECT2(shrs16, 0x8000, 15, 0xffff);
}

static void test_shf(void **state)
{
    (void)state;
    ptx_insn lw = mkf(PTX_I_shf, PTX_T_B32, 3, 0, PTX_F_LEFT | PTX_F_WRAP), lc = mkf(PTX_I_shf, PTX_T_B32, 3, 0, PTX_F_LEFT);
    ptx_insn rw = mkf(PTX_I_shf, PTX_T_B32, 3, 0, PTX_F_WRAP), rc = mkf(PTX_I_shf, PTX_T_B32, 3, 0, 0);
    const uint64_t a = 0x12345678, b = 0x9abcdef0;
    EXPECT3(lw, a, b, 4, 0xabcdef01);
    EXPECT3(lw, a, b, 36, 0xabcdef01); /* wrap: 36 & 31 */
    EXPECT3(lw, a, b, 32, b);          /* wrap: 0 */
    EXPECT3(lc, a, b, 36, a);          /* clamp: 32 */
    EXPECT3(lc, a, b, 0, b);
    EXPECT3(rw, a, b, 4, 0x01234567);
    EXPECT3(rw, a, b, 0, a);
    EXPECT3(rc, a, b, 32, b);
    EXPECT3(rc, a, b, 0xffffffff, b);
}

static void test_bfe_bfi(void **state)
{
    (void)state;
    ptx_insn u32 = mk(PTX_I_bfe, PTX_T_U32, 3), s32 = mk(PTX_I_bfe, PTX_T_S32, 3);
    ptx_insn u64 = mk(PTX_I_bfe, PTX_T_U64, 3), s64 = mk(PTX_I_bfe, PTX_T_S64, 3);
    ptx_insn bfi = mk(PTX_I_bfi, PTX_T_B32, 4), bfi64 = mk(PTX_I_bfi, PTX_T_B64, 4);
    EXPECT3(u32, 0xf0f0f0f0, 4, 8, 0x0f);
    EXPECT3(s32, 0x000000f0, 4, 4, 0xffffffff);  /* the field's top bit replicated */
    EXPECT3(s32, 0x000000f0, 4, 0, 0);           /* len 0: 0, even signed */
    EXPECT3(u32, 0xffffffff, 0, 0, 0);
    EXPECT3(u32, 0xf0000000, 28, 8, 0xf);        /* the field runs past the msb */
    EXPECT3(s32, 0x80000000, 28, 8, 0xfffffff8); /* then a's msb is the sign */
    EXPECT3(s32, 0x80000000, 40, 4, 0xffffffff); /* pos past the msb: all sign */
    EXPECT3(u32, 0x80000000, 40, 4, 0);
    EXPECT3(u32, 0xf0f0f0f0, 0x104, 0x108, 0x0f); /* pos, len: the low 8 bits */
    EXPECT3(u32, 0x12345678, 0, 32, 0x12345678);
    EXPECT3(u32, 0x12345678, 0, 40, 0x12345678);
    EXPECT3(s64, 0x8000000000000000ull, 60, 8, 0xfffffffffffffff8ull);
    /* the GPU's 64-bit forms take the whole u32 position and length */
    EXPECT3(u64, 0xf0f0f0f0f0f0f0f0ull, 0x104, 8, 0);
    EXPECT3(s64, 0x8000000000000000ull, 0x104, 8, ~0ull);
    EXPECT3(u64, 0xf0f0f0f0f0f0f0f0ull, 4, 0x108, 0x0f0f0f0f0f0f0f0full);
    EXPECT4(bfi, 0xff, 0, 4, 4, 0xf0);
    EXPECT4(bfi, 0xff, 0x12345678, 4, 0, 0x12345678);  /* len 0: b */
    EXPECT4(bfi, 0xff, 0x12345678, 40, 4, 0x12345678); /* pos past the msb: b */
    EXPECT4(bfi, 0xff, 0, 28, 8, 0xf0000000);
    EXPECT4(bfi, 0xff, 0, 0x104, 0x104, 0xf0);
    EXPECT4(bfi64, 0xff, 0, 60, 8, 0xf000000000000000ull);
    EXPECT4(bfi64, 0xff, 0, 0x104, 4, 0);
}

static void test_bmsk_szext(void **state)
{
    (void)state;
    ptx_insn bc = mk(PTX_I_bmsk, PTX_T_B32, 2), bw = mkf(PTX_I_bmsk, PTX_T_B32, 2, 0, PTX_F_WRAP);
    ptx_insn zc = mk(PTX_I_szext, PTX_T_U32, 2), sc = mk(PTX_I_szext, PTX_T_S32, 2);
    ptx_insn sw = mkf(PTX_I_szext, PTX_T_S32, 2, 0, PTX_F_WRAP);
    EXPECT2(bw, 1, 2, 6); /* the ISA's example */
    EXPECT2(bc, 0, 32, 0xffffffff);
    EXPECT2(bc, 4, 40, 0xfffffff0);
    EXPECT2(bc, 32, 4, 0);
    EXPECT2(bw, 36, 4, 0xf0);
    EXPECT2(bw, 0, 32, 0);          /* b wraps to 0: no bits */
    EXPECT2(zc, 0xffffffff, 0, 0);  /* the ISA's example (.wrap) */
    EXPECT2(zc, 0xffffffff, 8, 0xff);
    EXPECT2(sc, 0x80, 8, 0xffffff80);
    EXPECT2(sc, 0x12345680, 40, 0x12345680); /* clamp: whole */
    EXPECT2(sw, 0x12345680, 40, 0xffffff80); /* wrap: 8 */
}

static void test_counts(void **state)
{
    (void)state;
    ptx_insn bu = mk(PTX_I_bfind, PTX_T_U32, 1), bs = mk(PTX_I_bfind, PTX_T_S32, 1);
    ptx_insn bsh = mkf(PTX_I_bfind, PTX_T_U32, 1, 0, PTX_F_SHIFTAMT), bs64 = mk(PTX_I_bfind, PTX_T_S64, 1);
    ptx_insn clz = mk(PTX_I_clz, PTX_T_B32, 1), clz64 = mk(PTX_I_clz, PTX_T_B64, 1);
    ptx_insn popc = mk(PTX_I_popc, PTX_T_B32, 1), popc64 = mk(PTX_I_popc, PTX_T_B64, 1);
    ptx_insn brev = mk(PTX_I_brev, PTX_T_B32, 1), brev64 = mk(PTX_I_brev, PTX_T_B64, 1);
    EXPECT1(bu, 0, 0xffffffff);
    EXPECT1(bu, 0xffffffff, 31);
    EXPECT1(bs, 0, 0xffffffff);
    EXPECT1(bs, 0xffffffff, 0xffffffff); /* -1: no bit but sign bits */
    EXPECT1(bs, 0xfffffff0, 3);
    EXPECT1(bsh, 1, 31);
    EXPECT1(bsh, 0, 0xffffffff);
    EXPECT1(bs64, 0x7fffffffffffffffull, 62);
    EXPECT1(clz, 0, 32);
    EXPECT1(clz, 0xffffffff, 0);
    EXPECT1(clz, 1, 31);
    EXPECT1(clz64, 0, 64);
    EXPECT1(clz64, ~0ull, 0);
    EXPECT1(popc, 0, 0);
    EXPECT1(popc, 0xffffffff, 32);
    EXPECT1(popc64, ~0ull, 64);
    EXPECT1(brev, 0, 0);
    EXPECT1(brev, 0xffffffff, 0xffffffff);
    EXPECT1(brev, 1, 0x80000000);
    EXPECT1(brev64, 0x3, 0xc000000000000000ull);
}

static void test_prmt(void **state)
{
    (void)state;
    const uint64_t a = 0x44332211, b = 0x88776655;
    static const struct {
        unsigned mode;
        uint64_t c, want;
    } cases[] = {
        {PTX_PRMT_DEFAULT, 0x3210, 0x44332211},
        {PTX_PRMT_DEFAULT, 0x7654, 0x88776655},
        {PTX_PRMT_DEFAULT, 0x000f, 0x111111ff}, /* selector 8..15: the byte's sign */
        {PTX_PRMT_DEFAULT, 0x0008, 0x11111100},
        {PTX_PRMT_F4E, 1, 0x55443322},
        {PTX_PRMT_F4E, 3, 0x77665544},
        {PTX_PRMT_B4E, 0, 0x66778811},
        {PTX_PRMT_B4E, 3, 0x11223344},
        {PTX_PRMT_RC8, 2, 0x33333333},
        {PTX_PRMT_ECL, 1, 0x44332222},
        {PTX_PRMT_ECL, 3, 0x44444444},
        {PTX_PRMT_ECR, 2, 0x33332211},
        {PTX_PRMT_ECR, 0, 0x11111111},
        {PTX_PRMT_RC16, 1, 0x44334433},
        {PTX_PRMT_RC16, 2, 0x22112211},
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ptx_insn in = mk(PTX_I_prmt, PTX_T_B32, 3);
        in.sub = (uint8_t)cases[i].mode;
        EXPECT3(in, a, b, cases[i].c, cases[i].want);
    }
}

static void test_lop3_logic(void **state)
{
    (void)state;
    ptx_insn lop = mk(PTX_I_lop3, PTX_T_B32, 4);
    const uint64_t a = 0xff00ff00, b = 0xf0f0f0f0, c = 0xcccccccc;
    EXPECT4(lop, a, b, c, 0x96, a ^ b ^ c);
    EXPECT4(lop, a, b, c, 0xe8, (a & b) | (a & c) | (b & c));
    EXPECT4(lop, a, b, c, 0xf0, a);
    EXPECT4(lop, a, b, c, 0xcc, b);
    EXPECT4(lop, a, b, c, 0xaa, c);
    EXPECT4(lop, a, b, c, 0x00, 0);
    EXPECT4(lop, a, b, c, 0xff, 0xffffffff);
    ptx_insn lopor = mk(PTX_I_lop3, PTX_T_B32, 5);
    lopor.boolop = PTX_BOOL_OR;
    lopor.flags = PTX_F_PRED_OUT;
    uint64_t src[8] = {0, 0, 0, 0x80, 0}, d[8];
    unsigned char cf = 0;
    assert_int_equal(ptx_alu(&lopor, src, d, &cf), 0);
    assert_int_equal(d[0], 0);
    assert_int_equal(d[PTX_ALU_DST2], 0); /* (0 != 0) || false */
    src[4] = 1;
    assert_int_equal(ptx_alu(&lopor, src, d, &cf), 0);
    assert_int_equal(d[PTX_ALU_DST2], 1);

    ptx_insn and16 = mk(PTX_I_and, PTX_T_B16, 2), not64 = mk(PTX_I_not, PTX_T_B64, 1);
    ptx_insn cnot = mk(PTX_I_cnot, PTX_T_B32, 1), xorp = mk(PTX_I_xor, PTX_T_PRED, 2);
    ptx_insn notp = mk(PTX_I_not, PTX_T_PRED, 1);
    EXPECT2(and16, 0x1ffff, 0xff0f, 0xff0f);
    EXPECT1(not64, 0, ~0ull);
    EXPECT1(cnot, 0, 1);
    EXPECT1(cnot, 0x80000000, 0);
    EXPECT2(xorp, 1, 1, 0);
    EXPECT2(xorp, 0, 1, 1);
    EXPECT1(notp, 1, 0);
    EXPECT1(notp, 0, 1);
}

static void test_dot(void **state)
{
    (void)state;
    ptx_insn uu = mk(PTX_I_dp4a, PTX_T_U32, 3), ss = mk(PTX_I_dp4a, PTX_T_S32, 3);
    ptx_insn us = mk(PTX_I_dp4a, PTX_T_U32, 3);
    us.type2 = PTX_T_S32;
    uu.type2 = PTX_T_U32;
    ss.type2 = PTX_T_S32;
    ptx_insn lo = mkf(PTX_I_dp2a, PTX_T_S32, 3, 0, PTX_F_LO), hi = mkf(PTX_I_dp2a, PTX_T_S32, 3, 0, PTX_F_HI);
    lo.type2 = PTX_T_U32;
    hi.type2 = PTX_T_U32;
    EXPECT3(uu, 0x01020304, 0x01010101, 10, 20);
    EXPECT3(uu, 0xff000000, 0x02000000, 0, 0x1fe);
    EXPECT3(ss, 0xff000000, 0x02000000, 0, 0xfffffffe);
    EXPECT3(us, 0xff000000, 0xff000000, 0, 0xffffff01); /* 255 * -1 */
    EXPECT3(lo, 0xffff0002, 0x04030201, 5, 5);          /* 2 * 1 + -1 * 2 */
    EXPECT3(hi, 0xffff0002, 0x04030201, 0, 2);          /* 2 * 3 + -1 * 4 */
}

/* ---- floating point ------------------------------------------------------------------ */

static void test_f32_rounding(void **state)
{
    (void)state;
    static const unsigned rnd[] = {PTX_RND_RN, PTX_RND_RZ, PTX_RND_RM, PTX_RND_RP, PTX_RND_NONE};
    static const uint64_t up[] = {F_ONE, F_ONE, F_ONE, F_ONE + 1, F_ONE};              /* 1 + 2^-24 */
    static const uint64_t down[] = {F_MONE, F_MONE, F_MONE + 1, F_MONE, F_MONE};       /* -1 - 2^-24 */
    static const uint64_t more[] = {F_ONE + 1, F_ONE, F_ONE, F_ONE + 1, F_ONE + 1};    /* 1 + 3*2^-25 */
    for (unsigned i = 0; i < 5; i++) {
        ptx_insn add = mkf(PTX_I_add, PTX_T_F32, 2, rnd[i], 0), sub = mkf(PTX_I_sub, PTX_T_F32, 2, rnd[i], 0);
        EXPECT2(add, F_ONE, F_2P_24, up[i]);
        EXPECT2(sub, F_MONE, F_2P_24, down[i]);
        EXPECT2(add, F_ONE, 0x33c00000, more[i]);
    }
    ptx_insn addrm = mkf(PTX_I_add, PTX_T_F32, 2, PTX_RND_RM, 0), addrn = mkf(PTX_I_add, PTX_T_F32, 2, PTX_RND_RN, 0);
    EXPECT2(addrm, F_ONE, F_MONE, F_MZERO); /* x - x is -0 rounding down */
    EXPECT2(addrn, F_ONE, F_MONE, 0);
    EXPECT2(addrn, 0x7f7fffff, 0x7f7fffff, F_INF);
    ptx_insn addrz = mkf(PTX_I_add, PTX_T_F32, 2, PTX_RND_RZ, 0);
    EXPECT2(addrz, 0x7f7fffff, 0x7f7fffff, 0x7f7fffff);
    ptx_insn mulrn = mkf(PTX_I_mul, PTX_T_F32, 2, PTX_RND_RN, 0);
    EXPECT2(mulrn, 0x00000001, F_HALF, 0); /* 2^-150 ties to even: 0 */
    EXPECT2(mulrn, 0x00000003, F_HALF, 2); /* 1.5 * 2^-149 ties to 2 * 2^-149 */
}

static void test_f32_ftz_sat(void **state)
{
    (void)state;
    ptx_insn addftz = mkf(PTX_I_add, PTX_T_F32, 2, PTX_RND_RN, PTX_F_FTZ);
    ptx_insn add = mkf(PTX_I_add, PTX_T_F32, 2, PTX_RND_RN, 0);
    ptx_insn mulftz = mkf(PTX_I_mul, PTX_T_F32, 2, PTX_RND_RN, PTX_F_FTZ), mul = mkf(PTX_I_mul, PTX_T_F32, 2, PTX_RND_RN, 0);
    ptx_insn addsat = mkf(PTX_I_add, PTX_T_F32, 2, PTX_RND_RN, PTX_F_SAT);
    EXPECT2(add, 0x00000001, 0, 0x00000001);
    EXPECT2(addftz, 0x00000001, 0, 0);
    EXPECT2(addftz, 0x80000001, 0, 0);       /* -sub + +0 = -0 + +0 = +0 */
    EXPECT2(addftz, 0x00800001, 0x80800000, 0); /* the result 2^-149 is flushed */
    EXPECT2(addftz, 0x80800001, 0x00800000, F_MZERO);
    /* (1 - 2^-24) * 2^-126 rounds up to 2^-126, but is tiny: the GPU flushes it */
    EXPECT2(mul, 0x00ffffff, F_HALF, 0x00800000);
    EXPECT2(mulftz, 0x00ffffff, F_HALF, 0);
    EXPECT2(mulftz, 0x00800000, F_ONE, 0x00800000);
    EXPECT2(addsat, 0x3f400000, F_HALF, F_ONE); /* 0.75 + 0.5 */
    EXPECT2(addsat, F_MONE, F_HALF, 0);         /* -0.5: +0 */
    EXPECT2(addsat, F_MZERO, F_MZERO, 0);       /* -0: +0 */
    EXPECT2(addsat, F_QNAN, F_ONE, 0);          /* NaN: +0 */
    EXPECT2(addsat, 0x3e800000, F_HALF, 0x3f400000);
}

static void test_fma(void **state)
{
    (void)state;
    const uint64_t x = 0x3f800800; /* 1 + 2^-12 */
    ptx_insn fma = mkf(PTX_I_fma, PTX_T_F32, 3, PTX_RND_RN, 0), mul = mkf(PTX_I_mul, PTX_T_F32, 2, PTX_RND_RN, 0);
    ptx_insn add = mkf(PTX_I_add, PTX_T_F32, 2, PTX_RND_RN, 0);
    EXPECT3(fma, x, x, F_MONE, 0x3a000400); /* 2^-11 + 2^-24, exact */
    uint64_t p = eval(&mul, x, x, 0, 0, __LINE__);
    assert_int_equal(p, 0x3f801000); /* the tie 1 + 2^-11 + 2^-24 goes to even */
    EXPECT2(add, p, F_MONE, 0x3a000000);
    ptx_insn fmarz = mkf(PTX_I_fma, PTX_T_F32, 3, PTX_RND_RZ, 0), fmarp = mkf(PTX_I_fma, PTX_T_F32, 3, PTX_RND_RP, 0);
    EXPECT3(fmarz, F_ONE, F_ONE, 0x33000000, F_ONE);     /* 1 + 2^-25 */
    EXPECT3(fmarp, F_ONE, F_ONE, 0x33000000, F_ONE + 1);
    EXPECT3(fma, 0, F_INF, F_ONE, F_NAN); /* 0 * inf */
    ptx_insn fma64 = mkf(PTX_I_fma, PTX_T_F64, 3, PTX_RND_RN, 0);
    EXPECT3(fma64, 0x3ff0000000000001ull, 0x3ff0000000000001ull, 0xbff0000000000000ull, 0x3cc0000000000000ull);
    REFUSED(mkf(PTX_I_fma, PTX_T_F32, 3, PTX_RND_NONE, 0)); /* fma needs a rounding */
}

static void test_f16_bf16(void **state)
{
    (void)state;
    ptx_insn addh = mkf(PTX_I_add, PTX_T_F16, 2, PTX_RND_RN, 0), mulb = mkf(PTX_I_mul, PTX_T_BF16, 2, PTX_RND_RN, 0);
    ptx_insn fmah2 = mkf(PTX_I_fma, PTX_T_F16X2, 3, PTX_RND_RN, 0);
    ptx_insn relu = mkf(PTX_I_fma, PTX_T_F16, 3, PTX_RND_RN, PTX_F_RELU);
    ptx_insn negh = mk(PTX_I_neg, PTX_T_F16, 1), absb = mk(PTX_I_abs, PTX_T_BF16, 1);
    EXPECT2(addh, 0x3c00, 0x3c00, 0x4000);
    EXPECT2(addh, 0x7bff, 0x7bff, 0x7c00); /* 65504 * 2: inf */
    EXPECT2(addh, 0x3c00, 0x1000, 0x3c00); /* 1 + 2^-11: the tie to even */
    EXPECT2(addh, 0x7e00, 0x3c00, 0x7fff); /* NaN: canonical */
    EXPECT2(mulb, 0x3f80, 0x4040, 0x4040); /* 1 * 3 */
    EXPECT2(mulb, 0x3f81, 0x3f81, 0x3f82); /* (1 + 2^-7)^2 = 1 + 2^-6 + 2^-14 */
    EXPECT3(fmah2, 0x3c004000, 0x40003c00, 0x3c003c00, 0x42004200); /* each half: 1 * 2 + 1 */
    EXPECT3(relu, 0xbc00, 0x3c00, 0, 0);
    EXPECT3(relu, 0x3c00, 0x3c00, 0, 0x3c00);
    EXPECT1(negh, 0x3c00, 0xbc00);
    EXPECT1(negh, 0x7c01, 0x7fff); /* NaN: canonical, as the GPU gives it */
    EXPECT1(absb, 0xbf80, 0x3f80);
}

static void test_minmax_float(void **state)
{
    (void)state;
    ptx_insn mn = mk(PTX_I_min, PTX_T_F32, 2), mx = mk(PTX_I_max, PTX_T_F32, 2);
    ptx_insn mnnan = mkf(PTX_I_min, PTX_T_F32, 2, 0, PTX_F_NAN), mnftz = mkf(PTX_I_min, PTX_T_F32, 2, 0, PTX_F_FTZ);
    ptx_insn xs = mkf(PTX_I_max, PTX_T_F32, 2, 0, PTX_F_XORSIGN | PTX_F_ABS), mn64 = mk(PTX_I_min, PTX_T_F64, 2);
    EXPECT2(mn, F_QNAN, F_ONE, F_ONE);
    EXPECT2(mn, F_ONE, 0xffc00001, F_ONE);
    EXPECT2(mx, F_QNAN, F_MONE, F_MONE);
    EXPECT2(mn, F_QNAN, 0xffc00000, F_NAN);
    EXPECT2(mnnan, F_QNAN, F_ONE, F_NAN);
    EXPECT2(mn, 0, F_MZERO, F_MZERO);
    EXPECT2(mn, F_MZERO, 0, F_MZERO);
    EXPECT2(mx, F_MZERO, 0, 0);
    EXPECT2(mx, 0, F_MZERO, 0);
    EXPECT2(mn, 0x80000001, 0, 0x80000001);
    EXPECT2(mnftz, 0x80000001, 0, F_MZERO);
    EXPECT2(xs, F_MONE, 0x40000000, 0xc0000000); /* |2| with the sign - ^ + */
    EXPECT2(mn64, 0x7ff8000000000000ull, 0x3ff0000000000000ull, 0x3ff0000000000000ull);
    EXPECT2(mn64, 0x7ff8000000000001ull, 0xfff0000000000002ull, 0xfff8000000000002ull); /* b, quieted */
}

static void test_neg_abs_copysign(void **state)
{
    (void)state;
    ptx_insn neg = mk(PTX_I_neg, PTX_T_F32, 1), abs = mk(PTX_I_abs, PTX_T_F32, 1);
    ptx_insn absftz = mkf(PTX_I_abs, PTX_T_F32, 1, 0, PTX_F_FTZ), neg64 = mk(PTX_I_neg, PTX_T_F64, 1);
    ptx_insn cs = mk(PTX_I_copysign, PTX_T_F32, 2), cs64 = mk(PTX_I_copysign, PTX_T_F64, 2);
    EXPECT1(neg, F_ONE, F_MONE);
    EXPECT1(neg, 0, F_MZERO);
    EXPECT1(abs, F_MONE, F_ONE);
    EXPECT1(abs, 0x80000001, 1);
    EXPECT1(absftz, 0x80000001, 0);
    EXPECT1(neg, 0xffc00000, F_NAN);
    EXPECT1(neg64, 0x3ff0000000000000ull, 0xbff0000000000000ull);
    EXPECT1(neg64, 0x7ff0000000000001ull, 0x7ff8000000000001ull); /* NaN: quieted, sign kept */
    EXPECT2(cs, F_MZERO, F_ONE, F_MONE);
    EXPECT2(cs, 0, F_MONE, F_ONE);
    EXPECT2(cs, F_MONE, F_QNAN, 0xffc00000);
    EXPECT2(cs64, 0x8000000000000000ull, 0x4000000000000000ull, 0xc000000000000000ull);
}

static void test_div_rcp_sqrt(void **state)
{
    (void)state;
    ptx_insn divrn = mkf(PTX_I_div, PTX_T_F32, 2, PTX_RND_RN, 0), divrz = mkf(PTX_I_div, PTX_T_F32, 2, PTX_RND_RZ, 0);
    ptx_insn divrp = mkf(PTX_I_div, PTX_T_F32, 2, PTX_RND_RP, 0);
    ptx_insn divapprox = mkf(PTX_I_div, PTX_T_F32, 2, 0, PTX_F_APPROX);
    ptx_insn rcp = mkf(PTX_I_rcp, PTX_T_F32, 1, PTX_RND_RN, 0), sqrt = mkf(PTX_I_sqrt, PTX_T_F32, 1, PTX_RND_RN, 0);
    ptx_insn sqrtrp = mkf(PTX_I_sqrt, PTX_T_F32, 1, PTX_RND_RP, 0);
    ptx_insn div64 = mkf(PTX_I_div, PTX_T_F64, 2, PTX_RND_RN, 0), sqrt64 = mkf(PTX_I_sqrt, PTX_T_F64, 1, PTX_RND_RN, 0);
    EXPECT2(divrn, F_ONE, 0x40400000, 0x3eaaaaab); /* 1/3 */
    EXPECT2(divrz, F_ONE, 0x40400000, 0x3eaaaaaa);
    EXPECT2(divrp, F_ONE, 0x40400000, 0x3eaaaaab);
    EXPECT2(divrz, F_MONE, 0x40400000, 0xbeaaaaaa);
    EXPECT2(divrn, 0, 0, F_NAN);
    EXPECT2(divrn, F_ONE, 0, F_INF);
    EXPECT2(divrn, F_ONE, F_MZERO, 0xff800000);
    /* div.approx: a * (1/b), zero for |b| above 2^126 (the ISA's note) */
    EXPECT2(divapprox, F_ONE, 0x7f000000, 0);
    EXPECT2(divapprox, F_MONE, 0x7f000000, F_MZERO);
    EXPECT2(divapprox, 0x40000000, 0x40000000, F_ONE);
    EXPECT1(rcp, 0x40000000, F_HALF);
    EXPECT1(sqrt, 0x40800000, 0x40000000);
    EXPECT1(sqrt, F_MONE, F_NAN);
    EXPECT1(sqrt, F_MZERO, F_MZERO);
    EXPECT1(sqrt, 0x40000000, 0x3fb504f3);   /* sqrt 2, to nearest */
    EXPECT1(sqrtrp, 0x40000000, 0x3fb504f4);
    EXPECT2(div64, 0x3ff0000000000000ull, 0x4008000000000000ull, 0x3fd5555555555555ull);
    /* f64 NaN: an operand's, quieted; none: the GPU's 0xfff8... */
    EXPECT2(div64, 0, 0, 0xfff8000000000000ull);
    EXPECT1(sqrt64, 0xbff0000000000000ull, 0xfff8000000000000ull);
    EXPECT2(div64, 0x7ff0000000001234ull, 0x3ff0000000000000ull, 0x7ff8000000001234ull);
    ptx_insn add64 = mkf(PTX_I_add, PTX_T_F64, 2, PTX_RND_RN, 0);
    EXPECT2(add64, 0x7ff0000000000000ull, 0xfff0000000000000ull, 0xfff8000000000000ull);
    EXPECT2(add64, 0x7ff8000000000001ull, 0xfff4000000000002ull, 0xfffc000000000002ull); /* b first */
    EXPECT2(add64, 0x7ff4000000000001ull, 0x3ff0000000000000ull, 0x7ffc000000000001ull);
}

static void test_approx(void **state)
{
    (void)state;
    /* approximations: only their special values are exact */
    ptx_insn ex2 = mkf(PTX_I_ex2, PTX_T_F32, 1, 0, PTX_F_APPROX), lg2 = mkf(PTX_I_lg2, PTX_T_F32, 1, 0, PTX_F_APPROX);
    ptx_insn rsq = mkf(PTX_I_rsqrt, PTX_T_F32, 1, 0, PTX_F_APPROX), sin = mkf(PTX_I_sin, PTX_T_F32, 1, 0, PTX_F_APPROX);
    ptx_insn rcpftz = mkf(PTX_I_rcp, PTX_T_F32, 1, 0, PTX_F_APPROX | PTX_F_FTZ);
    ptx_insn rcp64 = mkf(PTX_I_rcp, PTX_T_F64, 1, 0, PTX_F_APPROX | PTX_F_FTZ);
    EXPECT1(ex2, 0x40400000, 0x41000000); /* 2^3 */
    EXPECT1(ex2, 0xff800000, 0);
    EXPECT1(lg2, 0, 0xff800000);
    EXPECT1(lg2, F_MONE, F_NAN);
    EXPECT1(rsq, 0x40800000, F_HALF);
    EXPECT1(sin, 0, 0);
    EXPECT1(sin, F_INF, F_NAN);
    EXPECT1(rcpftz, 0x00000001, F_INF); /* the subnormal is flushed first */
    EXPECT1(rcp64, 0x4000000000000000ull, 0x3fe0000000000000ull);
    EXPECT1(rcp64, 0x4008000000000000ull, 0x3fd5555500000000ull); /* only the upper word */
    REFUSED(mkf(PTX_I_sin, PTX_T_F32, 1, PTX_RND_RN, 0));
    REFUSED(mkf(PTX_I_rcp, PTX_T_F16, 1, 0, PTX_F_APPROX));
}

static void test_testp(void **state)
{
    (void)state;
    static const struct {
        unsigned op;
        uint64_t x, want;
    } cases[] = {
        {PTX_TESTP_FINITE, F_ONE, 1},      {PTX_TESTP_FINITE, F_INF, 0},     {PTX_TESTP_FINITE, F_QNAN, 0},
        {PTX_TESTP_INFINITE, 0xff800000, 1}, {PTX_TESTP_INFINITE, F_QNAN, 0}, {PTX_TESTP_NUMBER, F_INF, 1},
        {PTX_TESTP_NUMBER, 0x7f800001, 0}, {PTX_TESTP_NAN, 0x7f800001, 1},   {PTX_TESTP_NAN, F_INF, 0},
        {PTX_TESTP_NORMAL, F_ONE, 1},      {PTX_TESTP_NORMAL, 0, 1},         {PTX_TESTP_NORMAL, F_MZERO, 1},
        {PTX_TESTP_NORMAL, 1, 0},          {PTX_TESTP_NORMAL, F_INF, 0},     {PTX_TESTP_SUBNORMAL, 1, 1},
        {PTX_TESTP_SUBNORMAL, 0, 0},       {PTX_TESTP_SUBNORMAL, 0x00800000, 0},
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ptx_insn in = mk(PTX_I_testp, PTX_T_F32, 1);
        in.sub = (uint8_t)cases[i].op;
        EXPECT1(in, cases[i].x, cases[i].want);
    }
    ptx_insn sub64 = mk(PTX_I_testp, PTX_T_F64, 1);
    sub64.sub = PTX_TESTP_SUBNORMAL;
    EXPECT1(sub64, 0x000fffffffffffffull, 1);
}

/* ---- conversions ---------------------------------------------------------------------- */

static void test_cvt_float_to_int(void **state)
{
    (void)state;
    static const unsigned rnd[] = {PTX_RND_RNI, PTX_RND_RZI, PTX_RND_RMI, PTX_RND_RPI};
    static const uint64_t pos[] = {2, 2, 2, 3}, neg[] = {0xfffffffe, 0xfffffffe, 0xfffffffd, 0xfffffffe};
    static const uint64_t half[] = {0, 0, 0, 1}, mhalf[] = {0, 0, 0xffffffff, 0};
    for (unsigned i = 0; i < 4; i++) {
        ptx_insn in = mkcvt(PTX_T_S32, PTX_T_F32, rnd[i], 0);
        EXPECT1(in, 0x40200000, pos[i]); /* 2.5 */
        EXPECT1(in, 0xc0200000, neg[i]); /* -2.5 */
        EXPECT1(in, F_HALF, half[i]);
        EXPECT1(in, 0xbf000000, mhalf[i]);
    }
    ptx_insn s32 = mkcvt(PTX_T_S32, PTX_T_F32, PTX_RND_RZI, 0), u32 = mkcvt(PTX_T_U32, PTX_T_F32, PTX_RND_RZI, 0);
    ptx_insn u8 = mkcvt(PTX_T_U8, PTX_T_F32, PTX_RND_RNI, 0), s64 = mkcvt(PTX_T_S64, PTX_T_F64, PTX_RND_RZI, 0);
    ptx_insn s32d = mkcvt(PTX_T_S32, PTX_T_F64, PTX_RND_RZI, 0), u64f = mkcvt(PTX_T_U64, PTX_T_F32, PTX_RND_RZI, 0);
    ptx_insn rmiftz = mkcvt(PTX_T_S32, PTX_T_F32, PTX_RND_RMI, PTX_F_FTZ), rmi = mkcvt(PTX_T_S32, PTX_T_F32, PTX_RND_RMI, 0);
    EXPECT1(s32, 0x4f32d05e, 0x7fffffff); /* 3e9 saturates */
    EXPECT1(s32, 0xcf32d05e, 0x80000000);
    EXPECT1(u32, 0x4f32d05e, 3000000000u);
    EXPECT1(u32, 0xbfc00000, 0); /* -1.5 */
    EXPECT1(u32, F_INF, 0xffffffff);
    EXPECT1(u8, 0x43800000, 0xff); /* 256 */
    EXPECT1(s64, 0xc3e0000000000000ull, 0x8000000000000000ull); /* -2^63 */
    EXPECT1(s64, 0x43e0000000000000ull, 0x7fffffffffffffffull);
    /* NaN: 0 by the ISA, as the GPU gives it from f32 to 32 bits; from f64
     * or to 64 bits the GPU gives the top bit alone */
    EXPECT1(s32, F_QNAN, 0);
    EXPECT1(u32, F_QNAN, 0);
    EXPECT1(s32d, 0x7ff8000000000000ull, 0x80000000);
    EXPECT1(u64f, F_QNAN, 0x8000000000000000ull);
    EXPECT1(rmi, 0x80000001, 0xffffffff); /* -2^-149 rounds down to -1 */
    EXPECT1(rmiftz, 0x80000001, 0);       /* flushed to -0 first */
    REFUSED(mkcvt(PTX_T_S32, PTX_T_F32, PTX_RND_NONE, 0)); /* an integer rounding is required */
    REFUSED(mkcvt(PTX_T_S32, PTX_T_F32, PTX_RND_RN, 0));
}

static void test_cvt_int_to_float(void **state)
{
    (void)state;
    ptx_insn rn = mkcvt(PTX_T_F32, PTX_T_U64, PTX_RND_RN, 0), rz = mkcvt(PTX_T_F32, PTX_T_U64, PTX_RND_RZ, 0);
    ptx_insn rp = mkcvt(PTX_T_F32, PTX_T_U64, PTX_RND_RP, 0), rm = mkcvt(PTX_T_F32, PTX_T_S64, PTX_RND_RM, 0);
    ptx_insn s32 = mkcvt(PTX_T_F32, PTX_T_S32, PTX_RND_RN, 0), h = mkcvt(PTX_T_F16, PTX_T_U32, PTX_RND_RN, 0);
    ptx_insn sat = mkcvt(PTX_T_F32, PTX_T_S32, PTX_RND_RN, PTX_F_SAT);
    EXPECT1(rn, ~0ull, 0x5f800000); /* 2^64 */
    EXPECT1(rz, ~0ull, 0x5f7fffff);
    EXPECT1(rn, 0x1000001, 0x4b800000); /* 2^24 + 1: the tie to even */
    EXPECT1(rp, 0x1000001, 0x4b800001);
    EXPECT1(rn, 0x1000003, 0x4b800002);
    EXPECT1(rn, 0x8000008000000001ull, 0x5f000001); /* above the tie by the last bit */
    EXPECT1(rm, 0xffffffffffffffffull, F_MONE);
    EXPECT1(rm, 0x8000000000000000ull, 0xdf000000);
    EXPECT1(s32, 0x80000000, 0xcf000000);
    EXPECT1(h, 65520, 0x7c00);
    EXPECT1(h, 65519, 0x7bff);
    EXPECT1(sat, 5, F_ONE);
    EXPECT1(sat, 0xffffffff, 0);
    REFUSED(mkcvt(PTX_T_F32, PTX_T_S32, PTX_RND_NONE, 0)); /* a float rounding is required */
}

static void test_cvt_float_to_float(void **state)
{
    (void)state;
    ptx_insn h = mkcvt(PTX_T_F16, PTX_T_F32, PTX_RND_RN, 0), hrz = mkcvt(PTX_T_F16, PTX_T_F32, PTX_RND_RZ, 0);
    ptx_insn f = mkcvt(PTX_T_F32, PTX_T_F16, PTX_RND_NONE, 0), b = mkcvt(PTX_T_BF16, PTX_T_F32, PTX_RND_RN, 0);
    ptx_insn fb = mkcvt(PTX_T_F32, PTX_T_BF16, PTX_RND_NONE, 0), d = mkcvt(PTX_T_F64, PTX_T_F32, PTX_RND_NONE, 0);
    ptx_insn s = mkcvt(PTX_T_F32, PTX_T_F64, PTX_RND_RN, 0), sftz = mkcvt(PTX_T_F32, PTX_T_F64, PTX_RND_RM, PTX_F_FTZ);
    ptx_insn h2 = mkcvt(PTX_T_F16X2, PTX_T_F32, PTX_RND_RN, 0), b2relu = mkcvt(PTX_T_BF16X2, PTX_T_F32, PTX_RND_RN, PTX_F_RELU);
    ptx_insn rni = mkcvt(PTX_T_F32, PTX_T_F32, PTX_RND_RNI, 0), rmi = mkcvt(PTX_T_F32, PTX_T_F32, PTX_RND_RMI, 0);
    ptx_insn sat = mkcvt(PTX_T_F32, PTX_T_F32, PTX_RND_NONE, PTX_F_SAT);
    EXPECT1(h, 0x477ff000, 0x7c00); /* 65520: overflows to inf */
    EXPECT1(hrz, 0x477ff000, 0x7bff);
    EXPECT1(h, 0x477fe000, 0x7bff); /* 65504 */
    EXPECT1(h, F_ONE, 0x3c00);
    EXPECT1(h, F_2P_24, 0x0001);    /* the smallest subnormal */
    EXPECT1(h, 0x33000000, 0);      /* 2^-25 ties to even: 0 */
    EXPECT1(h, F_QNAN, 0x7fff);
    EXPECT1(f, 0x3c00, F_ONE);
    EXPECT1(f, 0x0001, F_2P_24);
    EXPECT1(f, 0xfc00, 0xff800000);
    EXPECT1(f, 0x7e00, F_NAN);
    EXPECT1(b, 0x3f808000, 0x3f80); /* the tie to even */
    EXPECT1(b, 0x3f818000, 0x3f82);
    EXPECT1(b, 0x3f808001, 0x3f81);
    EXPECT1(fb, 0x3f81, 0x3f810000);
    EXPECT1(fb, 0x7f81, 0x7f810000); /* a plain shift, NaN too */
    EXPECT1(d, F_ONE, 0x3ff0000000000000ull);
    EXPECT1(d, 0x00000001, 0x36a0000000000000ull);
    EXPECT1(d, 0x7f800001, 0x7ff8000020000000ull); /* payload kept, quieted */
    EXPECT1(s, 0x3ff0000010000000ull, F_ONE);      /* the tie to even */
    EXPECT1(s, 0x3ff0000030000000ull, F_ONE + 2);
    EXPECT1(s, 0x47f0000000000000ull, F_INF);
    EXPECT1(s, 0xfff9283400000000ull, 0xffc941a0);
    EXPECT1(sftz, 0xb80fffffcba3eedcull, F_MZERO); /* rounds to -2^-126 but is tiny */
    EXPECT2(h2, F_ONE, 0x40000000, 0x3c004000);    /* a in the upper half */
    EXPECT2(b2relu, F_MONE, 0x40000000, 0x00004000);
    EXPECT1(rni, 0x40200000, 0x40000000);
    EXPECT1(rni, 0xbe800000, F_MZERO); /* -0.25: -0 */
    EXPECT1(rmi, 0xbe800000, F_MONE);
    EXPECT1(rni, 0x4b800001, 0x4b800001);
    EXPECT1(sat, 0x40000000, F_ONE);
    EXPECT1(sat, F_QNAN, 0);
    REFUSED(mkcvt(PTX_T_F16, PTX_T_F32, PTX_RND_NONE, 0)); /* narrowing needs a rounding */
}

static void test_cvt_int_to_int(void **state)
{
    (void)state;
    ptx_insn satu8 = mkcvt(PTX_T_U8, PTX_T_S32, PTX_RND_NONE, PTX_F_SAT);
    ptx_insn s8 = mkcvt(PTX_T_S8, PTX_T_S32, PTX_RND_NONE, 0), s32s8 = mkcvt(PTX_T_S32, PTX_T_S8, PTX_RND_NONE, 0);
    ptx_insn u64s32 = mkcvt(PTX_T_U64, PTX_T_S32, PTX_RND_NONE, 0), u64u32 = mkcvt(PTX_T_U64, PTX_T_U32, PTX_RND_NONE, 0);
    ptx_insn sats16 = mkcvt(PTX_T_S16, PTX_T_U32, PTX_RND_NONE, PTX_F_SAT);
    ptx_insn satu32 = mkcvt(PTX_T_U32, PTX_T_S64, PTX_RND_NONE, PTX_F_SAT);
    EXPECT1(satu8, 300, 255);
    EXPECT1(satu8, 0xfffffffb, 0); /* -5 */
    EXPECT1(satu8, 200, 200);
    EXPECT1(s8, 300, 0x2c);
    EXPECT1(s32s8, 0x80, 0xffffff80);
    EXPECT1(s32s8, 0x1ff, 0xffffffff); /* only the low 8 bits count */
    EXPECT1(u64s32, 0xffffffff, ~0ull); /* extended by the source's sign */
    EXPECT1(u64u32, 0xffffffff, 0xffffffff);
    EXPECT1(sats16, 0x80000000, 0x7fff);
    EXPECT1(satu32, 0x8000000000000000ull, 0);
    EXPECT1(satu32, 0x100000000ull, 0xffffffff);
}

/* ---- comparison, selection, moves ------------------------------------------------------- */

static void test_setp(void **state)
{
    (void)state;
    /* truth for (a, b) = (1, 2), (2, 2), (2, 1), (1, NaN) */
    static const struct {
        unsigned cmp;
        int want[4];
    } fc[] = {
        {PTX_CMP_EQ, {0, 1, 0, 0}},  {PTX_CMP_NE, {1, 0, 1, 0}},  {PTX_CMP_LT, {1, 0, 0, 0}},
        {PTX_CMP_LE, {1, 1, 0, 0}},  {PTX_CMP_GT, {0, 0, 1, 0}},  {PTX_CMP_GE, {0, 1, 1, 0}},
        {PTX_CMP_EQU, {0, 1, 0, 1}}, {PTX_CMP_NEU, {1, 0, 1, 1}}, {PTX_CMP_LTU, {1, 0, 0, 1}},
        {PTX_CMP_LEU, {1, 1, 0, 1}}, {PTX_CMP_GTU, {0, 0, 1, 1}}, {PTX_CMP_GEU, {0, 1, 1, 1}},
        {PTX_CMP_NUM, {1, 1, 1, 0}}, {PTX_CMP_NAN, {0, 0, 0, 1}},
    };
    static const uint64_t fa[] = {F_ONE, 0x40000000, 0x40000000, F_ONE};
    static const uint64_t fb[] = {0x40000000, 0x40000000, F_ONE, F_QNAN};
    static const uint64_t da[] = {0x3ff0000000000000ull, 0x4000000000000000ull, 0x4000000000000000ull,
                                  0x3ff0000000000000ull};
    static const uint64_t db[] = {0x4000000000000000ull, 0x4000000000000000ull, 0x3ff0000000000000ull,
                                  0x7ff8000000000000ull};
    for (unsigned i = 0; i < sizeof fc / sizeof fc[0]; i++) {
        ptx_insn f32 = mkf(PTX_I_setp, PTX_T_F32, 2, 0, PTX_F_PRED_OUT), f64 = mk(PTX_I_setp, PTX_T_F64, 2);
        f32.cmp = f64.cmp = (uint8_t)fc[i].cmp;
        for (unsigned k = 0; k < 4; k++) {
            uint64_t d[8];
            unsigned char cf = 0;
            run(&f32, fa[k], fb[k], 0, 0, d, &cf, __LINE__);
            assert_int_equal(d[0], fc[i].want[k]);
            assert_int_equal(d[PTX_ALU_DST2], !fc[i].want[k]); /* q: the complement */
            EXPECT2(f64, da[k], db[k], (uint64_t)fc[i].want[k]);
        }
    }
    /* integers: (a, b) = (-1, 1) */
    static const struct {
        unsigned type, cmp;
        uint64_t want;
    } ic[] = {
        {PTX_T_S32, PTX_CMP_LT, 1}, {PTX_T_U32, PTX_CMP_LT, 0}, {PTX_T_S32, PTX_CMP_GE, 0},
        {PTX_T_U32, PTX_CMP_GE, 1}, {PTX_T_U32, PTX_CMP_LO, 0}, {PTX_T_U32, PTX_CMP_LS, 0},
        {PTX_T_U32, PTX_CMP_HI, 1}, {PTX_T_U32, PTX_CMP_HS, 1}, {PTX_T_S32, PTX_CMP_NE, 1},
        {PTX_T_B32, PTX_CMP_EQ, 0}, {PTX_T_S16, PTX_CMP_LE, 1}, {PTX_T_S64, PTX_CMP_GT, 0},
    };
    for (unsigned i = 0; i < sizeof ic / sizeof ic[0]; i++) {
        ptx_insn in = mk(PTX_I_setp, ic[i].type, 2);
        in.cmp = (uint8_t)ic[i].cmp;
        EXPECT2(in, ~0ull, 1, ic[i].want);
    }
    ptx_insn u16 = mk(PTX_I_setp, PTX_T_U16, 2);
    u16.cmp = PTX_CMP_EQ;
    EXPECT2(u16, 0x10005, 5, 1); /* only the type's bits count */
    ptx_insn bad = mk(PTX_I_setp, PTX_T_S32, 2);
    bad.cmp = PTX_CMP_EQU;
    REFUSED(bad); /* unordered comparisons are for floats */
    /* setp.lt.and.s32 p|q, a, b, c: p = t & c, q = !t & c */
    ptx_insn andp = mkf(PTX_I_setp, PTX_T_S32, 3, 0, PTX_F_PRED_OUT);
    andp.cmp = PTX_CMP_LT;
    andp.boolop = PTX_BOOL_AND;
    uint64_t d[8];
    unsigned char cf = 0;
    run(&andp, 1, 2, 1, 0, d, &cf, __LINE__);
    assert_int_equal(d[0], 1);
    assert_int_equal(d[PTX_ALU_DST2], 0);
    run(&andp, 1, 2, 0, 0, d, &cf, __LINE__);
    assert_int_equal(d[0], 0);
    assert_int_equal(d[PTX_ALU_DST2], 0);
    ptx_insn xorp = andp;
    xorp.boolop = PTX_BOOL_XOR;
    run(&xorp, 3, 2, 1, 0, d, &cf, __LINE__);
    assert_int_equal(d[0], 1);
    assert_int_equal(d[PTX_ALU_DST2], 0);
    ptx_insn ftz = mkf(PTX_I_setp, PTX_T_F32, 2, 0, PTX_F_FTZ);
    ftz.cmp = PTX_CMP_EQ;
    EXPECT2(ftz, 0x00000001, F_MZERO, 1); /* flushed: -0 == +0 */
}

static void test_set_selp_slct(void **state)
{
    (void)state;
    ptx_insn setu = mk(PTX_I_set, PTX_T_U32, 2), setf = mk(PTX_I_set, PTX_T_F32, 2);
    setu.type2 = PTX_T_S32;
    setu.cmp = PTX_CMP_LT;
    setf.type2 = PTX_T_F64;
    setf.cmp = PTX_CMP_GTU;
    EXPECT2(setu, 0xffffffff, 0, 0xffffffff); /* -1 < 0 */
    EXPECT2(setu, 0, 0xffffffff, 0);
    EXPECT2(setf, 0x7ff8000000000000ull, 0, F_ONE);
    EXPECT2(setf, 0, 0x3ff0000000000000ull, 0);
    ptx_insn seland = mk(PTX_I_set, PTX_T_S32, 3);
    seland.type2 = PTX_T_U32;
    seland.cmp = PTX_CMP_LO;
    seland.boolop = PTX_BOOL_AND;
    EXPECT3(seland, 1, 2, 0, 0);
    EXPECT3(seland, 1, 2, 1, 0xffffffff);

    ptx_insn selp = mk(PTX_I_selp, PTX_T_B32, 3), selp64 = mk(PTX_I_selp, PTX_T_F64, 3);
    EXPECT3(selp, 7, 9, 1, 7);
    EXPECT3(selp, 7, 9, 0, 9);
    EXPECT3(selp64, 0x4000000000000000ull, 1, 1, 0x4000000000000000ull);

    ptx_insn ss = mk(PTX_I_slct, PTX_T_U32, 3), sf = mk(PTX_I_slct, PTX_T_B64, 3);
    ptx_insn sftz = mkf(PTX_I_slct, PTX_T_U32, 3, 0, PTX_F_FTZ);
    ss.type2 = PTX_T_S32;
    sf.type2 = PTX_T_F32;
    sftz.type2 = PTX_T_F32;
    EXPECT3(ss, 7, 9, 0, 7);
    EXPECT3(ss, 7, 9, 0xffffffff, 9);
    EXPECT3(sf, 7, 9, F_MZERO, 7); /* -0.0 >= 0 */
    EXPECT3(sf, 7, 9, F_QNAN, 9);
    EXPECT3(sf, 7, 9, 0x80000001, 9);
    EXPECT3(sftz, 7, 9, 0x80000001, 7);
}

static void test_mov(void **state)
{
    (void)state;
    ptx_insn mov = mk(PTX_I_mov, PTX_T_U16, 1), movp = mk(PTX_I_mov, PTX_T_PRED, 1);
    EXPECT1(mov, 0x12345, 0x2345);
    EXPECT1(movp, 1, 1);
    /* mov.b64 %rd, {%r1, %r2}: the low element first */
    ptx_insn pack = mk(PTX_I_mov, PTX_T_B64, 1);
    pack.o[1].kind = PTX_O_VEC;
    pack.o[1].nelem = 2;
    EXPECT2(pack, 0x11111111, 0x22222222, 0x2222222211111111ull);
    ptx_insn pack4 = pack;
    pack4.o[1].nelem = 4;
    EXPECT4(pack4, 1, 2, 3, 0x14, 0x0014000300020001ull);
    ptx_insn pack32 = mk(PTX_I_mov, PTX_T_B32, 1);
    pack32.o[1].kind = PTX_O_VEC;
    pack32.o[1].nelem = 2;
    EXPECT2(pack32, 0x3c00, 0x4000, 0x40003c00);
    ptx_insn unpack = mk(PTX_I_mov, PTX_T_B64, 1);
    unpack.o[0].kind = PTX_O_VEC;
    unpack.o[0].nelem = 4;
    uint64_t d[8];
    unsigned char cf = 0;
    run(&unpack, 0x0004000300020001ull, 0, 0, 0, d, &cf, __LINE__);
    for (unsigned i = 0; i < 4; i++)
        assert_int_equal(d[i], i + 1);
    ptx_insn b128 = mk(PTX_I_mov, PTX_T_B128, 1);
    REFUSED(b128);
}

static void test_refused_forms(void **state)
{
    (void)state;
    REFUSED(mk(PTX_I_add, PTX_T_U8, 2));
    REFUSED(mkf(PTX_I_add, PTX_T_U32, 2, 0, PTX_F_SAT));  /* .sat is for s32 */
    REFUSED(mkf(PTX_I_add, PTX_T_U16, 2, 0, PTX_F_CC));   /* .cc is for 32 and 64 bits */
    REFUSED(mk(PTX_I_mul, PTX_T_U32, 2));                 /* a mode is required */
    REFUSED(mkf(PTX_I_mul, PTX_T_U64, 2, 0, PTX_F_WIDE));
    REFUSED(mkf(PTX_I_add, PTX_T_F64, 2, PTX_RND_RN, PTX_F_FTZ));
    REFUSED(mk(PTX_I_createpolicy, PTX_T_B64, 1));
    REFUSED(mk(PTX_I_ld, PTX_T_U32, 1));
    REFUSED(mkcvt(PTX_T_B32, PTX_T_F32, PTX_RND_RZI, 0));
    ptx_insn fns = mk(PTX_I_fns, PTX_T_B32, 3);
    uint64_t src[8] = {0xaaaaaaaa, 32, 1}, d[8];
    unsigned char cf = 0;
    assert_int_equal(ptx_alu(&fns, src, d, &cf), -1); /* base > 31: undefined */
    EXPECT3(fns, 0xaaaaaaaa, 3, 1, 3); /* the ISA's examples */
    EXPECT3(fns, 0xaaaaaaaa, 3, 0xffffffff, 3);
    EXPECT3(fns, 0xaaaaaaaa, 2, 1, 3);
    EXPECT3(fns, 0xaaaaaaaa, 2, 0xffffffff, 1);
    EXPECT3(fns, 0xaaaaaaaa, 2, 0, 0xffffffff);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wraparound),
        cmocka_unit_test(test_mul),
        cmocka_unit_test(test_mad),
        cmocka_unit_test(test_mul24),
        cmocka_unit_test(test_sad_abs_neg_minmax),
        cmocka_unit_test(test_div_rem),
        cmocka_unit_test(test_carry_chains),
        cmocka_unit_test(test_shifts),
        cmocka_unit_test(test_shf),
        cmocka_unit_test(test_bfe_bfi),
        cmocka_unit_test(test_bmsk_szext),
        cmocka_unit_test(test_counts),
        cmocka_unit_test(test_prmt),
        cmocka_unit_test(test_lop3_logic),
        cmocka_unit_test(test_dot),
        cmocka_unit_test(test_f32_rounding),
        cmocka_unit_test(test_f32_ftz_sat),
        cmocka_unit_test(test_fma),
        cmocka_unit_test(test_f16_bf16),
        cmocka_unit_test(test_minmax_float),
        cmocka_unit_test(test_neg_abs_copysign),
        cmocka_unit_test(test_div_rcp_sqrt),
        cmocka_unit_test(test_approx),
        cmocka_unit_test(test_testp),
        cmocka_unit_test(test_cvt_float_to_int),
        cmocka_unit_test(test_cvt_int_to_float),
        cmocka_unit_test(test_cvt_float_to_float),
        cmocka_unit_test(test_cvt_int_to_int),
        cmocka_unit_test(test_setp),
        cmocka_unit_test(test_set_selp_slct),
        cmocka_unit_test(test_mov),
        cmocka_unit_test(test_refused_forms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
