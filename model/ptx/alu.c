/* The arithmetic of the PTX interpreter: ptx_alu executes one instruction
 * of class ALU on register bits, by the definitions of the PTX ISA (9.0)
 * and, where the ISA leaves a result open (NaN bits, division by zero) or
 * the GPU departs from its text, as an H100 (sm_90, CUDA 13) computes it;
 * each such place says so.
 *
 * Values travel as bits zero-extended to 64. Integer arithmetic is done on
 * unsigned C types (PTX wraps at the type's width) and every conversion of
 * a float to an integer is range-checked before any C cast. Floating point:
 *   - f64 add, sub, mul, fma, div, sqrt and rcp run on the host's IEEE
 *     arithmetic under the instruction's rounding mode (fesetround around
 *     one operation whose operands and result pass through volatile
 *     objects, so that the compiler neither folds nor moves nor contracts
 *     it; GCC ignores FENV_ACCESS);
 *   - f32, f16 and bf16 arithmetic, and every conversion between formats or
 *     from integers, round exactly in software (fpack) from an exact
 *     intermediate: a double and the sign of its exact error, found with
 *     the host's default rounding to nearest;
 *   - NaN results: f32, f16 and bf16 give their canonical NaN (sign clear,
 *     every significand bit set), even from neg and abs; f64 keeps an
 *     input NaN's payload, quieted (see nan_f64), and conversions to or
 *     from f64 carry the payload across (see nan_convert);
 *   - .ftz flushes subnormal inputs, and results that are tiny after
 *     rounding with an unbounded exponent (see fpack), as the GPU does:
 *     a result just below the smallest normal that rounds up to it is
 *     flushed all the same.
 * The .approx instructions (and div.full) are the GPU's own approximations:
 * here they are the correctly rounded or C library value (with the GPU's
 * documented special cases), within a few ulp of the GPU's but not bit for
 * bit; the instruction test set checks them against it. */
#include <fenv.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "model/ptx/ptx.h"

#ifdef __clang__
#pragma STDC FENV_ACCESS ON
#endif

/* ---- types ------------------------------------------------------------------ */

static unsigned type_bits(unsigned t)
{
    switch (t) {
    case PTX_T_PRED: return 1;
    case PTX_T_B8: case PTX_T_U8: case PTX_T_S8: return 8;
    case PTX_T_B16: case PTX_T_U16: case PTX_T_S16: case PTX_T_F16: case PTX_T_BF16: return 16;
    case PTX_T_B32: case PTX_T_U32: case PTX_T_S32: case PTX_T_F32: case PTX_T_F16X2: case PTX_T_BF16X2:
        return 32;
    case PTX_T_B64: case PTX_T_U64: case PTX_T_S64: case PTX_T_F64: return 64;
    case PTX_T_B128: return 128;
    default: return 0;
    }
}

static bool type_signed(unsigned t) { return t >= PTX_T_S8 && t <= PTX_T_S64; }
/* .b8 to .s64 (not .b128): the types integer arithmetic accepts */
static bool type_int(unsigned t) { return t >= PTX_T_B8 && t <= PTX_T_S64 && t != PTX_T_B128; }
/* .u8 to .s64: the integer types of cvt */
static bool type_us(unsigned t) { return t >= PTX_T_U8 && t <= PTX_T_S64; }
static bool type_float(unsigned t) { return t >= PTX_T_F16 && t <= PTX_T_F64; }

static uint64_t mask_of(unsigned bits) { return bits >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1; }

/* v's low `bits` bits as a signed number (two's complement). */
static int64_t sext(uint64_t v, unsigned bits)
{
    if (bits >= 64)
        return (int64_t)v;
    uint64_t m = UINT64_C(1) << (bits - 1);
    return (int64_t)(((v & mask_of(bits)) ^ m) - m);
}

static uint64_t smax_of(unsigned bits) { return mask_of(bits - 1); }
static uint64_t smin_bits(unsigned bits) { return UINT64_C(1) << (bits - 1); } /* as n-bit pattern */

/* ---- float formats and exact rounding ---------------------------------------- */

typedef struct {
    unsigned ebits, mbits;
} ffmt;

static const ffmt FMT_F16 = {5, 10}, FMT_BF16 = {8, 7}, FMT_F32 = {8, 23}, FMT_F64 = {11, 52};

/* NaN results: the GPU's canonical NaN of each format (sign clear, every
 * significand bit set); f64 arithmetic that makes a NaN of no NaN operand
 * gives NAN_F64_DEFAULT. */
#define NAN_F16 UINT64_C(0x7fff)
#define NAN_BF16 UINT64_C(0x7fff)
#define NAN_F32 UINT64_C(0x7fffffff)
#define NAN_F64 UINT64_C(0x7fffffffffffffff)
#define NAN_F64_DEFAULT UINT64_C(0xfff8000000000000)

static uint64_t canon_nan(ffmt f)
{
    if (f.ebits == 11)
        return NAN_F64;
    if (f.mbits == 23)
        return NAN_F32;
    return f.ebits == 5 ? NAN_F16 : NAN_BF16;
}

static unsigned fmt_width(ffmt f) { return 1 + f.ebits + f.mbits; }
static uint64_t fsign_bit(ffmt f) { return UINT64_C(1) << (fmt_width(f) - 1); }
static uint64_t fexp_field(ffmt f, uint64_t x) { return (x >> f.mbits) & mask_of(f.ebits); }
static bool f_isnan(ffmt f, uint64_t x) { return fexp_field(f, x) == mask_of(f.ebits) && (x & mask_of(f.mbits)); }
static bool f_isinf(ffmt f, uint64_t x)
{
    return fexp_field(f, x) == mask_of(f.ebits) && !(x & mask_of(f.mbits));
}
static bool f_issub(ffmt f, uint64_t x) { return fexp_field(f, x) == 0 && (x & mask_of(f.mbits)); }
static bool f_iszero(ffmt f, uint64_t x) { return (x & (fsign_bit(f) - 1)) == 0; }

/* Subnormal to zero of the same sign (.ftz). */
static uint64_t flush(ffmt f, uint64_t x) { return f_issub(f, x) ? x & fsign_bit(f) : x; }

enum { FC_ZERO, FC_SUB, FC_NORM, FC_INF, FC_NAN };

/* A float's value: man * 2^exp, finite classes exact. */
typedef struct {
    int cls;
    int sign;
    uint64_t man;
    int exp;
} fval;

static fval funpack(ffmt f, uint64_t x)
{
    fval v;
    int bias = (1 << (f.ebits - 1)) - 1;
    uint64_t e = fexp_field(f, x), m = x & mask_of(f.mbits);
    v.sign = (x & fsign_bit(f)) != 0;
    v.man = m;
    if (e == mask_of(f.ebits)) {
        v.cls = m ? FC_NAN : FC_INF;
        v.exp = 0;
    } else if (e == 0) {
        v.cls = m ? FC_SUB : FC_ZERO;
        v.exp = 1 - bias - (int)f.mbits;
    } else {
        v.cls = FC_NORM;
        v.man = m | (UINT64_C(1) << f.mbits);
        v.exp = (int)e - bias - (int)f.mbits;
    }
    return v;
}

/* Rounding directions (PTX's .rn, .rz, .rm, .rp, .rna and their integer
 * forms). */
enum { RD_N, RD_Z, RD_M, RD_P, RD_NA };

static int rnd_dir(unsigned rnd)
{
    switch (rnd) {
    case PTX_RND_RZ: case PTX_RND_RZI: return RD_Z;
    case PTX_RND_RM: case PTX_RND_RMI: return RD_M;
    case PTX_RND_RP: case PTX_RND_RPI: return RD_P;
    case PTX_RND_RNA: return RD_NA;
    default: return RD_N;
    }
}

/* Whether to add one unit in the last place to a truncated magnitude. */
static bool round_up(int dir, int sign, uint64_t kept, bool rbit, bool rest)
{
    switch (dir) {
    case RD_N: return rbit && (rest || (kept & 1));
    case RD_NA: return rbit;
    case RD_M: return sign && (rbit || rest);
    case RD_P: return !sign && (rbit || rest);
    default: return false;
    }
}

/* Splits man at bit `sh` (sh >= 1): the kept high part, the bit below it
 * and whether anything below that is set. */
static uint64_t split_at(uint64_t man, int sh, bool *rbit, bool *rest)
{
    if (sh > 64) {
        *rbit = false;
        *rest = man != 0;
        return 0;
    }
    if (sh == 64) {
        *rbit = man >> 63;
        *rest = (man << 1) != 0;
        return 0;
    }
    *rbit = (man >> (sh - 1)) & 1;
    *rest = (man & mask_of((unsigned)sh - 1)) != 0;
    return man >> sh;
}

/* Rounds (-1)^sign * (man * 2^exp + s), where s is a positive amount below
 * the last place of man when sticky, to format f by direction dir: IEEE
 * rounding with gradual underflow and overflow to infinity or the largest
 * finite value. With ftz, a value that is tiny after rounding (rounded to
 * the format's precision with no bound on the exponent, it is below the
 * smallest normal) gives zero of its sign: the GPU's .ftz. */
static uint64_t fpack(ffmt f, int sign, uint64_t man, int exp, bool sticky, int dir, bool ftz)
{
    uint64_t sbit = sign ? fsign_bit(f) : 0;
    int bias = (1 << (f.ebits - 1)) - 1, emin = 1 - bias;
    if (man == 0) {
        if (!sticky)
            return sbit;
        man = 1; /* far below the smallest subnormal: only its stickiness counts */
        exp = -(1 << 20);
    }
    int e = 63 - __builtin_clzll(man) + exp; /* |value| in [2^e, 2^(e+1)) */
    if (ftz && e < emin) {
        /* tiny unless it lies just below 2^emin, has more bits than the
         * format keeps, and rounding carries it up to 2^emin */
        int sh1 = e - (int)f.mbits - exp;
        if (e < emin - 1 || sh1 <= 0)
            return sbit;
        bool rb, rs;
        uint64_t k = split_at(man, sh1, &rb, &rs);
        if (!round_up(dir, sign, k, rb, rs || sticky) || ((k + 1) >> (f.mbits + 1)) == 0)
            return sbit;
        return sbit | (UINT64_C(1) << f.mbits); /* the smallest normal */
    }
    int q = (e < emin ? emin : e) - (int)f.mbits; /* exponent of the result's last place */
    int sh = q - exp;
    uint64_t kept;
    bool rbit = false, rest = sticky;
    if (sh <= 0) {
        kept = man << -sh; /* exact: at most mbits + 1 bits */
    } else {
        bool r2;
        kept = split_at(man, sh, &rbit, &r2);
        rest = rest || r2;
    }
    kept += round_up(dir, sign, kept, rbit, rest);
    /* kept carries the hidden bit, so a carry out of rounding moves into the
     * exponent, and a subnormal that rounds up becomes the smallest normal */
    uint64_t bits = e < emin ? kept : ((uint64_t)(e + bias - 1) << f.mbits) + kept;
    if ((bits >> f.mbits) >= mask_of(f.ebits)) {
        bool to_inf = dir == RD_N || dir == RD_NA || (dir == RD_P && !sign) || (dir == RD_M && sign);
        bits = mask_of(f.ebits) << f.mbits;
        if (!to_inf)
            bits -= 1;
    }
    return sbit | bits;
}

static bool is_f64(ffmt f) { return f.ebits == 11; }

/* The quiet bit of a format: the significand's top bit. */
static uint64_t fquiet_bit(ffmt f) { return UINT64_C(1) << (f.mbits - 1); }

/* A NaN converted between formats, as the GPU does it: to or from f64 the
 * sign and the top of the payload carry across, quieted (like the host's
 * conversions); bf16 to f32 is a plain shift (an sNaN stays signaling);
 * every other pair gives the canonical NaN. */
static uint64_t nan_convert(ffmt to, ffmt from, uint64_t x)
{
    if (is_f64(to) || is_f64(from)) {
        uint64_t pay = x & mask_of(from.mbits);
        pay = to.mbits >= from.mbits ? pay << (to.mbits - from.mbits) : pay >> (from.mbits - to.mbits);
        return ((x & fsign_bit(from)) ? fsign_bit(to) : 0) | (mask_of(to.ebits) << to.mbits) | fquiet_bit(to) | pay;
    }
    if (to.mbits == 23 && from.ebits == 8 && from.mbits == 7)
        return x << 16;
    return canon_nan(to);
}

/* A NaN passed through unchanged in value: f64 keeps it, quieted; the
 * other formats give their canonical NaN. */
static uint64_t nan_same(ffmt f, uint64_t x) { return is_f64(f) ? x | fquiet_bit(f) : canon_nan(f); }

/* Converts bits of format `from` to format `to` by direction dir (exact
 * when `to` is wider), flushing results that are tiny after rounding
 * with ftz. */
static uint64_t fconvert(ffmt to, ffmt from, uint64_t x, int dir, bool ftz)
{
    fval v = funpack(from, x);
    switch (v.cls) {
    case FC_NAN: return nan_convert(to, from, x);
    case FC_INF: return (v.sign ? fsign_bit(to) : 0) | (mask_of(to.ebits) << to.mbits);
    case FC_ZERO: return v.sign ? fsign_bit(to) : 0;
    default: return fpack(to, v.sign, v.man, v.exp, false, dir, ftz);
    }
}

/* Rounds |value| = man * 2^exp to an integer by dir; *big when it is 2^64 or
 * more. */
static uint64_t fround_int(int sign, uint64_t man, int exp, int dir, bool *big)
{
    *big = false;
    if (man == 0)
        return 0;
    if (exp >= 0) {
        if (63 - __builtin_clzll(man) + exp >= 64) {
            *big = true;
            return 0;
        }
        return man << exp;
    }
    bool rbit, rest;
    uint64_t kept = split_at(man, -exp, &rbit, &rest);
    return kept + round_up(dir, sign, kept, rbit, rest);
}

static double fdec(ffmt f, uint64_t x) /* exact: every format here fits a double */
{
    if (f.ebits == 11) {
        double d;
        memcpy(&d, &x, 8);
        return d;
    }
    uint64_t b = fconvert(FMT_F64, f, x, RD_N, false);
    if (f_isnan(f, x)) /* keep a NaN a NaN (its bits do not matter here) */
        b = NAN_F64;
    double d;
    memcpy(&d, &b, 8);
    return d;
}

static uint64_t f64_bits(double d)
{
    uint64_t b;
    memcpy(&b, &d, 8);
    return b;
}

static uint32_t f32_bits(float x)
{
    uint32_t b;
    memcpy(&b, &x, 4);
    return b;
}

static float f32_of(uint64_t b)
{
    uint32_t u = (uint32_t)b;
    float x;
    memcpy(&x, &u, 4);
    return x;
}

static double f64_of(uint64_t b)
{
    double d;
    memcpy(&d, &b, 8);
    return d;
}

/* The format of a scalar float type (F16X2 and BF16X2: of each half). */
static bool fmt_of(unsigned t, ffmt *f, bool *packed)
{
    *packed = false;
    switch (t) {
    case PTX_T_F16: *f = FMT_F16; return true;
    case PTX_T_BF16: *f = FMT_BF16; return true;
    case PTX_T_F16X2: *f = FMT_F16; *packed = true; return true;
    case PTX_T_BF16X2: *f = FMT_BF16; *packed = true; return true;
    case PTX_T_F32: *f = FMT_F32; return true;
    case PTX_T_F64: *f = FMT_F64; return true;
    default: return false;
    }
}

/* ---- float arithmetic ------------------------------------------------------------ */

enum { OP_ADD, OP_SUB, OP_MUL, OP_FMA, OP_DIV, OP_SQRT };

static int fenv_of(int dir)
{
    switch (dir) {
    case RD_Z: return FE_TOWARDZERO;
    case RD_M: return FE_DOWNWARD;
    case RD_P: return FE_UPWARD;
    default: return FE_TONEAREST;
    }
}

/* f64 arithmetic on the host under rounding direction dir. */
static double host_f64(int op, double a, double b, double c, int dir)
{
    int old = fegetround();
    fesetround(fenv_of(dir));
    volatile double va = a, vb = b, vc = c, vr;
    switch (op) {
    case OP_ADD: vr = va + vb; break;
    case OP_SUB: vr = va - vb; break;
    case OP_MUL: vr = va * vb; break;
    case OP_FMA: vr = fma(va, vb, vc); break;
    case OP_DIV: vr = va / vb; break;
    default: vr = sqrt(va); break;
    }
    double r = vr;
    fesetround(old);
    return r;
}

/* .sat: clamp to [+0.0, 1.0], NaN to +0.0 (-0.0 too: saturation gives the
 * positive zero). */
static uint64_t saturate(ffmt f, uint64_t x)
{
    if (f_isnan(f, x) || (x & fsign_bit(f)) || f_iszero(f, x))
        return 0;
    uint64_t one = (uint64_t)((1 << (f.ebits - 1)) - 1) << f.mbits;
    return x > one ? one : x;
}

/* .relu: negative results to +0.0, NaN to the canonical NaN. */
static uint64_t apply_relu(ffmt f, uint64_t x)
{
    if (f_isnan(f, x))
        return canon_nan(f);
    return (x & fsign_bit(f)) ? 0 : x;
}

/* The NaN an f64 operation gives: the first NaN operand in the GPU's order
 * of preference (add, sub, mul: b, a; fma: b, c, a; div: a, b), quieted,
 * its sign and payload kept; NAN_F64_DEFAULT when no operand is a NaN
 * (inf - inf, 0 * inf, sqrt of a negative number). */
static uint64_t nan_f64(int op, uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t order[3];
    unsigned n = 0;
    switch (op) {
    case OP_ADD: case OP_SUB: case OP_MUL: order[n++] = b; order[n++] = a; break;
    case OP_FMA: order[n++] = b; order[n++] = c; order[n++] = a; break;
    case OP_DIV: order[n++] = a; order[n++] = b; break;
    default: order[n++] = a; break;
    }
    for (unsigned i = 0; i < n; i++)
        if (f_isnan(FMT_F64, order[i]))
            return order[i] | fquiet_bit(FMT_F64);
    return NAN_F64_DEFAULT;
}

static uint64_t arith_f64(int op, uint64_t a, uint64_t b, uint64_t c, int dir)
{
    uint64_t r = f64_bits(host_f64(op, f64_of(a), f64_of(b), f64_of(c), dir));
    return f_isnan(FMT_F64, r) ? nan_f64(op, a, b, c) : r;
}

/* Rounds to format f the exact value v that lies within an ulp of the
 * double s, where e is zero when v = s and otherwise has the sign of v - s:
 * s's bits with a sticky remainder, one unit lower when v lies below |s|. */
static uint64_t round_pair(ffmt f, double s, double e, int dir, bool ftz)
{
    fval v = funpack(FMT_F64, f64_bits(s));
    bool sticky = e != 0;
    if (sticky && (signbit(e) != 0) != (signbit(s) != 0))
        v.man -= 1; /* the exact value lies just below |s| */
    return fpack(f, v.sign, v.man, v.exp, sticky, dir, ftz);
}

/* add, sub, mul and fma of f32, f16 and bf16, rounded once and exactly: the
 * product of two such values is exact in a double, and a sum p + q is the
 * double s plus its exact error e (TwoSum), which round_pair rounds. */
static uint64_t arith_exact(ffmt f, int op, uint64_t a, uint64_t b, uint64_t c, int dir, unsigned fl)
{
    bool ftz = (fl & PTX_F_FTZ) != 0;
    if (ftz) {
        a = flush(f, a);
        b = flush(f, b);
        c = flush(f, c);
    }
    double x = fdec(f, a), y = fdec(f, b), z = fdec(f, c);
    volatile double vp; /* keeps the product from being fused into the sum */
    double p, q;
    bool sum = true;
    switch (op) {
    case OP_ADD: p = x; q = y; break;
    case OP_SUB: p = x; q = -y; break;
    case OP_MUL: vp = x * y; p = vp; q = 0; sum = false; break;
    default: vp = x * y; p = vp; q = z; break;
    }
    double s = p, e = 0;
    if (sum) {
        s = p + q;
        if (isfinite(s)) {
            double bv = s - p;
            e = (p - (s - bv)) + (q - bv);
        }
    }
    uint64_t r;
    if (isnan(s)) {
        r = canon_nan(f);
    } else if (isinf(s)) {
        r = signbit(s) ? fsign_bit(f) | (mask_of(f.ebits) << f.mbits) : mask_of(f.ebits) << f.mbits;
    } else if (s == 0 && e == 0) {
        int sign = signbit(s) != 0;
        /* an exact zero sum is +0 but in .rm, where only +0 + +0 stays +0 */
        if (sum && dir == RD_M && !(p == 0 && q == 0 && !signbit(p) && !signbit(q)))
            sign = 1;
        r = sign ? fsign_bit(f) : 0;
    } else {
        r = round_pair(f, s, e, dir, ftz);
    }
    if (fl & PTX_F_SAT)
        r = saturate(f, r);
    if (fl & PTX_F_RELU)
        r = apply_relu(f, r);
    return r;
}

/* div and sqrt of f32, rounded exactly: the double quotient or root q and
 * the sign of the exact remainder (a - q * b, a - q * q, by fma) place the
 * exact result against q. */
static uint64_t divsqrt_f32(int op, uint64_t a, uint64_t b, int dir, unsigned fl)
{
    bool ftz = (fl & PTX_F_FTZ) != 0;
    if (ftz) {
        a = flush(FMT_F32, a);
        b = flush(FMT_F32, b);
    }
    double x = f32_of(a), y = f32_of(b);
    double q = op == OP_DIV ? x / y : sqrt(x);
    uint64_t r;
    if (isnan(q)) {
        r = NAN_F32;
    } else if (isinf(q) || q == 0) { /* exact: no f32 quotient over- or underflows a double */
        r = fconvert(FMT_F32, FMT_F64, f64_bits(q), dir, false);
    } else {
        volatile double rem = op == OP_DIV ? fma(-q, y, x) : fma(-q, q, x);
        /* the exact result minus q has the sign of rem (divided by y) */
        double e = op == OP_DIV && y < 0 ? -rem : rem;
        r = round_pair(FMT_F32, q, e, dir, ftz);
    }
    if (fl & PTX_F_SAT)
        r = saturate(FMT_F32, r);
    return r;
}

/* ---- integer arithmetic --------------------------------------------------------- */

/* The 2n-bit product of n-bit a and b, as its low and high n bits. */
static void mul_full(uint64_t a, uint64_t b, unsigned bits, bool sgn, uint64_t *lo, uint64_t *hi)
{
    uint64_t m = mask_of(bits);
    if (bits <= 32) {
        uint64_t p = sgn ? (uint64_t)(sext(a, bits) * sext(b, bits)) : (a & m) * (b & m);
        *lo = p & m;
        *hi = (p >> bits) & m;
        return;
    }
    unsigned __int128 p = (unsigned __int128)a * b;
    uint64_t h = (uint64_t)(p >> 64);
    if (sgn) /* signed high half from the unsigned one */
        h -= ((a >> 63) ? b : 0) + ((b >> 63) ? a : 0);
    *lo = (uint64_t)p;
    *hi = h;
}

/* n-bit signed x clamped to the range of `bits`-bit signed numbers */
static uint64_t clamp_s(int64_t x, unsigned bits)
{
    int64_t hi = (int64_t)smax_of(bits), lo = -hi - 1;
    return (uint64_t)(x > hi ? hi : x < lo ? lo : x) & mask_of(bits);
}

/* add, sub, addc, subc (and .cc). CC.CF is a carry in both directions, as
 * the GPU keeps it: a subtraction is a + ~b + 1 (subc: a + ~b + CC.CF),
 * so after sub.cc the flag is 1 when nothing was borrowed. The ISA's text
 * calls it a borrow (subc: d = a - (b + CC.CF)); both agree on every chain
 * of sub.cc and subc, and the GPU's reading is the one that holds when a
 * chain mixes additions and subtractions (sub.cc then addc). */
static int int_addsub(const ptx_insn *in, const uint64_t *src, uint64_t *dst, unsigned char *carry, bool sub,
                      bool cin)
{
    unsigned bits = type_bits(in->type);
    bool cc = (in->flags & PTX_F_CC) != 0;
    if ((cc || cin) && bits != 32 && bits != 64)
        return -1;
    uint64_t m = mask_of(bits), a = src[0] & m, b = src[1] & m, ci = cin ? (*carry & 1) : 0;
    if (in->flags & PTX_F_SAT) {
        if (in->type != PTX_T_S32 || cc || cin)
            return -1;
        int64_t r = sub ? sext(a, 32) - sext(b, 32) : sext(a, 32) + sext(b, 32);
        dst[0] = clamp_s(r, 32);
        return 0;
    }
    if (sub) {
        b = ~b & m;
        ci = cin ? ci : 1;
    }
    unsigned __int128 wide = (unsigned __int128)a + b + ci;
    if (cc)
        *carry = (wide >> bits) != 0;
    dst[0] = (uint64_t)wide & m;
    return 0;
}

static int int_mul(const ptx_insn *in, const uint64_t *src, uint64_t *dst)
{
    unsigned bits = type_bits(in->type);
    bool sgn = type_signed(in->type);
    if (bits < 16 || bits > 64)
        return -1;
    uint64_t lo, hi;
    mul_full(src[0], src[1], bits, sgn, &lo, &hi);
    if (in->flags & PTX_F_WIDE) {
        if (bits > 32)
            return -1;
        dst[0] = (hi << bits) | lo;
    } else if (in->flags & PTX_F_HI) {
        dst[0] = hi;
    } else if (in->flags & PTX_F_LO) {
        dst[0] = lo;
    } else {
        return -1;
    }
    return 0;
}

/* mad, madc (.lo, .hi, .wide, .hi.sat.s32, .cc) */
static int int_mad(const ptx_insn *in, const uint64_t *src, uint64_t *dst, unsigned char *carry, bool cin)
{
    unsigned bits = type_bits(in->type);
    bool sgn = type_signed(in->type), cc = (in->flags & PTX_F_CC) != 0;
    if (bits < 16 || bits > 64)
        return -1;
    if ((cc || cin) && (bits < 32 || (in->flags & (PTX_F_WIDE | PTX_F_SAT))))
        return -1;
    uint64_t lo, hi, t;
    mul_full(src[0], src[1], bits, sgn, &lo, &hi);
    if (in->flags & PTX_F_WIDE) {
        if (bits > 32 || (in->flags & PTX_F_SAT))
            return -1;
        unsigned w = 2 * bits;
        dst[0] = (((hi << bits) | lo) + src[2]) & mask_of(w);
        return 0;
    }
    if (in->flags & PTX_F_HI)
        t = hi;
    else if (in->flags & PTX_F_LO)
        t = lo;
    else
        return -1;
    uint64_t m = mask_of(bits), c = src[2] & m;
    if (in->flags & PTX_F_SAT) {
        /* mad.hi.sat.s32: the high half plus c, clamped */
        if (in->type != PTX_T_S32 || !(in->flags & PTX_F_HI))
            return -1;
        dst[0] = clamp_s(sext(t, 32) + sext(c, 32), 32);
        return 0;
    }
    unsigned __int128 wide = (unsigned __int128)t + c + (cin ? (*carry & 1) : 0);
    if (cc)
        *carry = (wide >> bits) != 0;
    dst[0] = (uint64_t)wide & m;
    return 0;
}

/* mul24, mad24: the 48-bit product of the low 24 bits of a and b (sign
 * extended from bit 23 for .s32); .lo is bits 31..0, .hi bits 47..16. */
static int int_mul24(const ptx_insn *in, const uint64_t *src, uint64_t *dst, bool mad)
{
    if (in->type != PTX_T_U32 && in->type != PTX_T_S32)
        return -1;
    bool sgn = in->type == PTX_T_S32;
    uint64_t p;
    if (sgn)
        p = (uint64_t)(sext(src[0], 24) * sext(src[1], 24));
    else
        p = (src[0] & 0xffffff) * (src[1] & 0xffffff);
    uint64_t t;
    if (in->flags & PTX_F_HI)
        t = (p >> 16) & 0xffffffff;
    else if (in->flags & PTX_F_LO)
        t = p & 0xffffffff;
    else
        return -1;
    if (!mad) {
        if (in->flags & PTX_F_SAT)
            return -1;
        dst[0] = t;
        return 0;
    }
    uint64_t c = src[2] & 0xffffffff;
    if (in->flags & PTX_F_SAT) {
        if (!sgn || !(in->flags & PTX_F_HI))
            return -1;
        dst[0] = clamp_s(sext(t, 32) + sext(c, 32), 32);
        return 0;
    }
    dst[0] = (t + c) & 0xffffffff;
    return 0;
}

static int int_sad(const ptx_insn *in, const uint64_t *src, uint64_t *dst)
{
    unsigned bits = type_bits(in->type);
    if (!type_int(in->type) || bits < 16)
        return -1;
    uint64_t m = mask_of(bits), a = src[0] & m, b = src[1] & m;
    bool lt = type_signed(in->type) ? sext(a, bits) < sext(b, bits) : a < b;
    dst[0] = (src[2] + (lt ? b - a : a - b)) & m;
    return 0;
}

/* div and rem. Division by zero is unspecified in the ISA: both give all
 * ones here, signed or not, as the GPU does (the instruction test set
 * checks it). The one overflowing signed case, MIN / -1, gives MIN, and
 * MIN rem -1 gives 0. */
static int int_divrem(const ptx_insn *in, const uint64_t *src, uint64_t *dst, bool rem)
{
    unsigned bits = type_bits(in->type);
    if (!type_int(in->type) || bits < 16)
        return -1;
    uint64_t m = mask_of(bits), a = src[0] & m, b = src[1] & m;
    if (b == 0) {
        dst[0] = m;
        return 0;
    }
    if (!type_signed(in->type)) {
        dst[0] = rem ? a % b : a / b;
        return 0;
    }
    int64_t sa = sext(a, bits), sb = sext(b, bits);
    if (sb == -1) { /* avoids INT64_MIN / -1 */
        dst[0] = rem ? 0 : (0 - a) & m;
        return 0;
    }
    dst[0] = (uint64_t)(rem ? sa % sb : sa / sb) & m;
    return 0;
}

/* min, max of integers (.relu: of s32, the result is at least 0) */
static int int_minmax(const ptx_insn *in, const uint64_t *src, uint64_t *dst, bool is_max)
{
    unsigned bits = type_bits(in->type);
    if (!type_int(in->type) || bits < 16 || (in->flags & ~PTX_F_RELU) || in->nops > 3)
        return -1;
    uint64_t m = mask_of(bits), a = src[0] & m, b = src[1] & m;
    bool sgn = type_signed(in->type);
    bool a_lt_b = sgn ? sext(a, bits) < sext(b, bits) : a < b;
    uint64_t r = (a_lt_b != is_max) ? a : b;
    if (in->flags & PTX_F_RELU) {
        if (in->type != PTX_T_S32)
            return -1;
        if (sext(r, 32) < 0)
            r = 0;
    }
    dst[0] = r;
    return 0;
}

/* ---- bits ---------------------------------------------------------------------- */

static int bit_logic(const ptx_insn *in, const uint64_t *src, uint64_t *dst)
{
    unsigned bits = type_bits(in->type);
    if (in->type == PTX_T_PRED) {
        bool a = src[0] != 0, b = in->op == PTX_I_not ? false : src[1] != 0;
        switch (in->op) {
        case PTX_I_and: dst[0] = a && b; break;
        case PTX_I_or: dst[0] = a || b; break;
        case PTX_I_xor: dst[0] = a != b; break;
        case PTX_I_not: dst[0] = !a; break;
        default: return -1;
        }
        return 0;
    }
    if (!type_int(in->type) || bits < 16)
        return -1;
    uint64_t m = mask_of(bits);
    switch (in->op) {
    case PTX_I_and: dst[0] = src[0] & src[1] & m; break;
    case PTX_I_or: dst[0] = (src[0] | src[1]) & m; break;
    case PTX_I_xor: dst[0] = (src[0] ^ src[1]) & m; break;
    case PTX_I_not: dst[0] = ~src[0] & m; break;
    case PTX_I_cnot: dst[0] = (src[0] & m) == 0; break;
    default: return -1;
    }
    return 0;
}

/* lop3.b32 d, a, b, c, immLut: bit i of d is bit (a_i<<2 | b_i<<1 | c_i) of
 * immLut (immLut = F(0xf0, 0xcc, 0xaa)); with .or/.and, the second
 * destination p = (d != 0) BoolOp q. */
static int bit_lop3(const ptx_insn *in, const uint64_t *src, uint64_t *dst)
{
    if (type_bits(in->type) != 32 || !type_int(in->type))
        return -1;
    uint32_t a = (uint32_t)src[0], b = (uint32_t)src[1], c = (uint32_t)src[2];
    unsigned lut = (unsigned)src[3] & 0xff;
    uint32_t d = 0;
    for (unsigned k = 0; k < 8; k++) {
        if (!((lut >> k) & 1))
            continue;
        uint32_t t = ((k & 4) ? a : ~a) & ((k & 2) ? b : ~b) & ((k & 1) ? c : ~c);
        d |= t;
    }
    dst[0] = d;
    if (in->boolop != PTX_BOOL_NONE) {
        bool q = src[4] != 0, nz = d != 0;
        if (in->boolop == PTX_BOOL_AND)
            dst[PTX_ALU_DST2] = nz && q;
        else if (in->boolop == PTX_BOOL_OR)
            dst[PTX_ALU_DST2] = nz || q;
        else
            return -1;
    }
    return 0;
}

/* shl and shr: the amount is an unsigned 32-bit value, and amounts past the
 * width shift every bit out (shr.s: the sign fills the result). */
static int bit_shift(const ptx_insn *in, const uint64_t *src, uint64_t *dst, bool left)
{
    unsigned bits = type_bits(in->type);
    if (!type_int(in->type) || bits < 16)
        return -1;
    uint64_t m = mask_of(bits), a = src[0] & m, n = src[1] & 0xffffffff;
    if (left) {
        dst[0] = n >= bits ? 0 : (a << n) & m;
    } else if (type_signed(in->type)) {
        int64_t s = sext(a, bits);
        uint64_t fill = s < 0 ? m : 0;
        dst[0] = n >= bits ? fill : n == 0 ? a : ((a >> n) | (fill << (bits - n))) & m;
    } else {
        dst[0] = n >= bits ? 0 : a >> n;
    }
    return 0;
}

/* shf.l/.r.wrap/.clamp.b32: shifts the 64-bit b:a; n = c & 31 (.wrap) or
 * min(c, 32) (.clamp); .l gives the high 32 bits, .r the low 32. */
static int bit_shf(const ptx_insn *in, const uint64_t *src, uint64_t *dst)
{
    if (type_bits(in->type) != 32)
        return -1;
    uint64_t v = ((src[1] & 0xffffffff) << 32) | (src[0] & 0xffffffff);
    uint64_t c = src[2] & 0xffffffff;
    unsigned n = (in->flags & PTX_F_WRAP) ? (unsigned)(c & 31) : (unsigned)(c < 32 ? c : 32);
    if (in->flags & PTX_F_LEFT)
        dst[0] = ((v << n) >> 32) & 0xffffffff;
    else
        dst[0] = (v >> n) & 0xffffffff;
    return 0;
}

static int bit_count(const ptx_insn *in, const uint64_t *src, uint64_t *dst)
{
    unsigned bits = type_bits(in->type);
    if (bits != 32 && bits != 64)
        return -1;
    uint64_t a = src[0] & mask_of(bits);
    if (in->op == PTX_I_popc) {
        dst[0] = (uint64_t)__builtin_popcountll(a);
    } else if (in->op == PTX_I_clz) {
        dst[0] = a == 0 ? bits : (uint64_t)(__builtin_clzll(a) - (64 - (int)bits));
    } else { /* brev */
        uint64_t r = 0;
        for (unsigned i = 0; i < bits; i++)
            r |= ((a >> i) & 1) << (bits - 1 - i);
        dst[0] = r;
    }
    return 0;
}

/* bfind: the position of the most significant bit that is not a sign bit
 * (negative signed inputs are complemented first); 0xffffffff when none;
 * .shiftamt gives msb - position. */
static int bit_bfind(const ptx_insn *in, const uint64_t *src, uint64_t *dst)
{
    unsigned bits = type_bits(in->type);
    if ((bits != 32 && bits != 64) || !type_int(in->type))
        return -1;
    uint64_t a = src[0] & mask_of(bits);
    if (type_signed(in->type) && sext(a, bits) < 0)
        a = ~a & mask_of(bits);
    if (a == 0) {
        dst[0] = 0xffffffff;
        return 0;
    }
    unsigned pos = 63 - (unsigned)__builtin_clzll(a);
    dst[0] = (in->flags & PTX_F_SHIFTAMT) ? bits - 1 - pos : pos;
    return 0;
}

/* fns.b32 d, mask, base, offset: the offset-th set bit of mask counting from
 * base, up (offset > 0) or down (offset < 0); offset 0 tests bit base. A
 * base above 31 is undefined in the ISA. */
static int bit_fns(const ptx_insn *in, const uint64_t *src, uint64_t *dst)
{
    if (type_bits(in->type) != 32)
        return -1;
    uint32_t mask = (uint32_t)src[0];
    uint64_t base = src[1] & 0xffffffff;
    int64_t off = sext(src[2], 32);
    if (base > 31)
        return -1;
    uint64_t d = 0xffffffff;
    if (off == 0) {
        if ((mask >> base) & 1)
            d = base;
    } else {
        int64_t count = (off < 0 ? -off : off) - 1, inc = off > 0 ? 1 : -1;
        for (int64_t pos = (int64_t)base; pos >= 0 && pos < 32; pos += inc) {
            if ((mask >> pos) & 1) {
                if (count == 0) {
                    d = (uint64_t)pos;
                    break;
                }
                count--;
            }
        }
    }
    dst[0] = d;
    return 0;
}

/* bfe's and bfi's position and length: by the ISA, the u32 operand's low 8
 * bits; the GPU's .b64/.u64/.s64 forms take the whole u32 instead (a
 * position or length past 63 then reaches beyond the value). */
static uint64_t field_arg(uint64_t v, unsigned bits) { return bits == 64 ? v & 0xffffffff : v & 0xff; }

/* bfe: len bits of a from pos, zero- or sign-extended (the sign is the
 * field's top bit, or a's msb once the field runs past it; none when len
 * is 0). */
static int bit_bfe(const ptx_insn *in, const uint64_t *src, uint64_t *dst)
{
    unsigned bits = type_bits(in->type);
    if ((bits != 32 && bits != 64) || !type_int(in->type))
        return -1;
    uint64_t msb = bits - 1, pos = field_arg(src[1], bits), len = field_arg(src[2], bits);
    uint64_t a = src[0] & mask_of(bits);
    uint64_t sbit = 0;
    if (type_signed(in->type) && len != 0) {
        uint64_t top = pos + len - 1 < msb ? pos + len - 1 : msb;
        sbit = (a >> top) & 1;
    }
    uint64_t d = 0;
    for (uint64_t i = 0; i <= msb; i++) {
        uint64_t bit = (i < len && pos + i <= msb) ? (a >> (pos + i)) & 1 : sbit;
        d |= bit << i;
    }
    dst[0] = d;
    return 0;
}

/* bfi.b32/.b64 f, a, b, pos, len: b with len bits of a inserted at pos. */
static int bit_bfi(const ptx_insn *in, const uint64_t *src, uint64_t *dst)
{
    unsigned bits = type_bits(in->type);
    if (bits != 32 && bits != 64)
        return -1;
    uint64_t msb = bits - 1, pos = field_arg(src[2], bits), len = field_arg(src[3], bits);
    uint64_t f = src[1] & mask_of(bits);
    for (uint64_t i = 0; i < len && pos + i <= msb; i++)
        f = (f & ~(UINT64_C(1) << (pos + i))) | (((src[0] >> i) & 1) << (pos + i));
    dst[0] = f;
    return 0;
}

/* bmsk.clamp/.wrap.b32 d, a, b: b ones starting at bit a, by the ISA's
 * definition (with .clamp, a >= 32 gives 0 and b >= 32 reaches the top). */
static int bit_bmsk(const ptx_insn *in, const uint64_t *src, uint64_t *dst)
{
    if (type_bits(in->type) != 32)
        return -1;
    uint64_t a = src[0] & 0xffffffff, b = src[1] & 0xffffffff;
    unsigned a1 = (unsigned)(a & 0x1f), b1 = (unsigned)(b & 0x1f), sum = a1 + b1;
    uint32_t mask0 = 0xffffffffu << a1;
    uint32_t mask1 = sum >= 32 ? 0 : 0xffffffffu << sum;
    bool ovf = sum >= 32;
    if (!(in->flags & PTX_F_WRAP)) {
        if (a >= 32) {
            ovf = true;
            mask0 = 0;
        }
        if (b >= 32)
            ovf = true;
    }
    if (ovf)
        mask1 = 0;
    else if (b1 == 0)
        mask1 = 0xffffffffu;
    dst[0] = mask0 & ~mask1;
    return 0;
}

/* szext.clamp/.wrap.u32/.s32 d, a, b: the low b bits of a, zero- or sign-
 * extended (b taken mod 32 by .wrap; with .clamp, b >= 32 keeps a whole). */
static int bit_szext(const ptx_insn *in, const uint64_t *src, uint64_t *dst)
{
    if (in->type != PTX_T_U32 && in->type != PTX_T_S32)
        return -1;
    uint32_t a = (uint32_t)src[0];
    uint64_t b = src[1] & 0xffffffff;
    unsigned b1 = (unsigned)(b & 0x1f);
    bool too_large = b >= 32 && !(in->flags & PTX_F_WRAP);
    uint32_t mask = too_large ? 0 : 0xffffffffu << b1;
    bool sign = false;
    if (b1 != 0 && !too_large && in->type == PTX_T_S32)
        sign = (a >> ((b1 - 1) & 0x1f)) & 1;
    dst[0] = (a & ~mask) | (sign ? mask : 0);
    return 0;
}

/* prmt.b32{.mode} d, a, b, c: bytes of b:a (a is bytes 0-3) by selectors;
 * the default mode takes four 4-bit selectors from c (bit 3: replicate
 * the byte's sign), the others derive them from c & 3. */
static int bit_prmt(const ptx_insn *in, const uint64_t *src, uint64_t *dst)
{
    if (type_bits(in->type) != 32)
        return -1;
    uint64_t v = ((src[1] & 0xffffffff) << 32) | (src[0] & 0xffffffff);
    unsigned c = (unsigned)src[2], c2 = c & 3;
    uint32_t d = 0;
    for (unsigned i = 0; i < 4; i++) {
        unsigned sel;
        switch (in->sub) {
        case PTX_PRMT_DEFAULT: sel = (c >> (4 * i)) & 0xf; break;
        case PTX_PRMT_F4E: sel = (c2 + i) & 7; break;
        case PTX_PRMT_B4E: sel = (c2 + 8 - i) & 7; break;
        case PTX_PRMT_RC8: sel = c2; break;
        case PTX_PRMT_ECL: sel = i > c2 ? i : c2; break;
        case PTX_PRMT_ECR: sel = i < c2 ? i : c2; break;
        case PTX_PRMT_RC16: sel = ((c2 & 1) << 1) | (i & 1); break;
        default: return -1;
        }
        uint32_t byte = (uint32_t)(v >> ((sel & 7) * 8)) & 0xff;
        if (sel & 8)
            byte = (byte & 0x80) ? 0xff : 0;
        d |= byte << (8 * i);
    }
    dst[0] = d;
    return 0;
}

/* dp4a.atype.btype d, a, b, c: c plus the dot product of a's and b's four
 * bytes; dp2a.lo/.hi: of a's two halves with b's low or high two bytes. The
 * sign of each operand's elements is its type (type: a, type2: b). */
static int int_dot(const ptx_insn *in, const uint64_t *src, uint64_t *dst)
{
    if ((in->type != PTX_T_U32 && in->type != PTX_T_S32) || (in->type2 != PTX_T_U32 && in->type2 != PTX_T_S32))
        return -1;
    bool sa = in->type == PTX_T_S32, sb = in->type2 == PTX_T_S32;
    uint64_t d = src[2];
    if (in->op == PTX_I_dp4a) {
        for (unsigned i = 0; i < 4; i++) {
            uint64_t x = (src[0] >> (8 * i)) & 0xff, y = (src[1] >> (8 * i)) & 0xff;
            int64_t xa = sa ? sext(x, 8) : (int64_t)x, yb = sb ? sext(y, 8) : (int64_t)y;
            d += (uint64_t)(xa * yb);
        }
    } else {
        unsigned sel;
        if (in->flags & PTX_F_HI)
            sel = 2;
        else if (in->flags & PTX_F_LO)
            sel = 0;
        else
            return -1;
        for (unsigned i = 0; i < 2; i++) {
            uint64_t x = (src[0] >> (16 * i)) & 0xffff, y = (src[1] >> (8 * (sel + i))) & 0xff;
            int64_t xa = sa ? sext(x, 16) : (int64_t)x, yb = sb ? sext(y, 8) : (int64_t)y;
            d += (uint64_t)(xa * yb);
        }
    }
    dst[0] = d & 0xffffffff;
    return 0;
}

/* ---- floating point --------------------------------------------------------------- */

/* Applies fn to each 16-bit half of a packed type, or once. */
typedef uint64_t (*lane_fn)(ffmt f, const ptx_insn *in, const uint64_t *v);

static uint64_t per_lane(ffmt f, bool packed, const ptx_insn *in, const uint64_t *src, unsigned n, lane_fn fn)
{
    if (!packed)
        return fn(f, in, src);
    uint64_t r = 0;
    for (unsigned lane = 0; lane < 2; lane++) {
        uint64_t v[3] = {0, 0, 0};
        for (unsigned k = 0; k < n; k++)
            v[k] = (src[k] >> (16 * lane)) & 0xffff;
        r |= (fn(f, in, v) & 0xffff) << (16 * lane);
    }
    return r;
}

static int op_of(unsigned opcode)
{
    switch (opcode) {
    case PTX_I_add: return OP_ADD;
    case PTX_I_sub: return OP_SUB;
    case PTX_I_mul: return OP_MUL;
    default: return OP_FMA;
    }
}

static uint64_t lane_arith(ffmt f, const ptx_insn *in, const uint64_t *v)
{
    int op = op_of(in->op), dir = rnd_dir(in->rnd);
    if (is_f64(f))
        return arith_f64(op, v[0], v[1], v[2], dir);
    return arith_exact(f, op, v[0], v[1], v[2], dir, in->flags);
}

/* add, sub, mul, fma, mad of floats. Without a rounding modifier add, sub
 * and mul round to nearest; fma (and mad.f64) need one. */
static int float_arith(const ptx_insn *in, const uint64_t *src, uint64_t *dst)
{
    ffmt f;
    bool packed;
    if (!fmt_of(in->type, &f, &packed))
        return -1;
    unsigned fl = in->flags;
    bool fused = in->op == PTX_I_fma || in->op == PTX_I_mad;
    if (in->rnd != PTX_RND_NONE && (in->rnd < PTX_RND_RN || in->rnd > PTX_RND_RP))
        return -1;
    if (fused && in->rnd == PTX_RND_NONE && in->type != PTX_T_F32)
        return -1;
    if (fl & ~(PTX_F_FTZ | PTX_F_SAT | PTX_F_RELU | PTX_F_NOFTZ))
        return -1;
    if (f.mbits == 52 && (fl & (PTX_F_FTZ | PTX_F_SAT | PTX_F_RELU)))
        return -1;
    if ((fl & PTX_F_RELU) && (f.mbits == 23 || !fused || (fl & PTX_F_SAT)))
        return -1;
    uint64_t v[3] = {src[0], src[1], fused ? src[2] : 0};
    dst[0] = per_lane(f, packed, in, v, 3, lane_arith);
    return 0;
}

/* neg and abs flip or clear the sign, but of a NaN the GPU gives the
 * canonical NaN (f64: the NaN quieted, its sign kept). */
static uint64_t lane_neg_abs(ffmt f, const ptx_insn *in, const uint64_t *v)
{
    uint64_t x = v[0];
    if (f_isnan(f, x))
        return nan_same(f, x);
    if ((in->flags & PTX_F_FTZ) && !is_f64(f))
        x = flush(f, x);
    return in->op == PTX_I_neg ? x ^ fsign_bit(f) : x & ~fsign_bit(f);
}

/* min, max of floats: a NaN operand gives the other one (both NaN, or any
 * NaN with .NaN: the canonical NaN; f64, as the GPU does it: b, quieted);
 * -0.0 is less than +0.0; .xorsign.abs compares magnitudes and gives the
 * result the sign a ^ b. */
static uint64_t fminmax2(ffmt f, unsigned fl, bool is_max, uint64_t a, uint64_t b)
{
    if (fl & PTX_F_FTZ) {
        a = flush(f, a);
        b = flush(f, b);
    }
    bool an = f_isnan(f, a), bn = f_isnan(f, b);
    if (an && bn && is_f64(f))
        return b | fquiet_bit(f);
    if ((an && bn) || ((fl & PTX_F_NAN) && (an || bn)))
        return canon_nan(f);
    if (an)
        return b;
    if (bn)
        return a;
    double x = fdec(f, a), y = fdec(f, b);
    bool pick_a;
    if (x == y) /* equal, or zeros of either sign: -0.0 < +0.0 */
        pick_a = is_max ? !(a & fsign_bit(f)) : (a & fsign_bit(f)) != 0;
    else
        pick_a = is_max ? x > y : x < y;
    return pick_a ? a : b;
}

static uint64_t lane_minmax(ffmt f, const ptx_insn *in, const uint64_t *v)
{
    unsigned fl = in->flags;
    bool is_max = in->op == PTX_I_max;
    uint64_t a = v[0], b = v[1], sgn = (a ^ b) & fsign_bit(f);
    if (fl & PTX_F_ABS) {
        a &= ~fsign_bit(f);
        b &= ~fsign_bit(f);
    }
    uint64_t r = fminmax2(f, fl, is_max, a, b);
    if (in->nops == 4) /* the three-input form (sm_100): of that and c */
        r = fminmax2(f, fl, is_max, r, (fl & PTX_F_ABS) ? v[2] & ~fsign_bit(f) : v[2]);
    if ((fl & PTX_F_XORSIGN) && !f_isnan(f, r))
        r = (r & ~fsign_bit(f)) | sgn;
    return r;
}

static int float_minmax(const ptx_insn *in, const uint64_t *src, uint64_t *dst)
{
    ffmt f;
    bool packed;
    if (!fmt_of(in->type, &f, &packed))
        return -1;
    unsigned fl = in->flags;
    if (fl & ~(PTX_F_FTZ | PTX_F_NAN | PTX_F_XORSIGN | PTX_F_ABS | PTX_F_NOFTZ))
        return -1;
    if (((fl & PTX_F_XORSIGN) != 0) != ((fl & PTX_F_ABS) != 0))
        return -1;
    if ((fl & PTX_F_XORSIGN) && in->nops == 4)
        return -1;
    if (f.mbits == 52 && (fl & (PTX_F_FTZ | PTX_F_NAN | PTX_F_XORSIGN)))
        return -1;
    if (in->nops == 4 && packed)
        return -1;
    dst[0] = per_lane(f, packed, in, src, in->nops == 4 ? 3 : 2, lane_minmax);
    return 0;
}

/* rcp.approx.ftz.f64: the GPU's reciprocal reads only the upper 32 bits of
 * its operand and yields only the upper 32 bits of the result; here that
 * is 1/x of the truncated operand, truncated, which the GPU's result
 * matches but for one unit in the last kept place at times. */
static uint64_t rcp_approx_f64(uint64_t a)
{
    const uint64_t hi = UINT64_C(0xffffffff00000000);
    uint64_t x = a & hi, sign = x & fsign_bit(FMT_F64);
    if (f_isnan(FMT_F64, x))
        return UINT64_C(0x7fffffff00000000);
    if (f_isinf(FMT_F64, x))
        return sign;
    if (fexp_field(FMT_F64, x) == 0) /* zero, or a subnormal flushed */
        return sign | (mask_of(11) << 52);
    uint64_t r = f64_bits(1.0 / f64_of(x)) & hi;
    return flush(FMT_F64, r);
}

/* rsqrt.approx.ftz.f64: likewise only the upper 32 bits in and out (the
 * GPU's rsqrt.approx.f64 without .ftz is a full-precision approximation). */
static uint64_t rsqrt_approx_f64_ftz(uint64_t a)
{
    const uint64_t hi = UINT64_C(0xffffffff00000000);
    uint64_t x = a & hi, sign = x & fsign_bit(FMT_F64);
    if (fexp_field(FMT_F64, x) == 0) /* zero, or a subnormal flushed */
        return sign | (mask_of(11) << 52);
    if (f_isnan(FMT_F64, x) || sign)
        return UINT64_C(0x7fffffff00000000);
    if (f_isinf(FMT_F64, x))
        return 0;
    return f64_bits(1.0 / sqrt(f64_of(x))) & hi;
}

/* div, rcp, sqrt, rsqrt, sin, cos, lg2, ex2, tanh of f32 and f64. */
static int float_special(const ptx_insn *in, const uint64_t *src, uint64_t *dst)
{
    unsigned fl = in->flags;
    bool ftz = (fl & PTX_F_FTZ) != 0, approx = (fl & PTX_F_APPROX) != 0, full = (fl & PTX_F_FULL) != 0;
    int dir = rnd_dir(in->rnd);
    bool ieee = in->rnd >= PTX_RND_RN && in->rnd <= PTX_RND_RP;
    if (fl & ~(PTX_F_FTZ | PTX_F_APPROX | PTX_F_FULL | PTX_F_NOFTZ))
        return -1;
    if (approx + full + ieee != 1)
        return -1;
    if (full && in->op != PTX_I_div)
        return -1;
    switch (in->op) {
    case PTX_I_div: case PTX_I_rcp: case PTX_I_sqrt: break;
    default: if (!approx) return -1; /* rsqrt, sin, cos, lg2, ex2, tanh: .approx only */
    }

    if (in->type == PTX_T_F64) {
        /* IEEE forms; rcp.approx.ftz.f64 and rsqrt.approx(.ftz).f64 */
        bool ok = ieee ? (in->op == PTX_I_div || in->op == PTX_I_rcp || in->op == PTX_I_sqrt) && !ftz
                       : (in->op == PTX_I_rcp && approx && ftz) || in->op == PTX_I_rsqrt;
        if (!ok)
            return -1;
        uint64_t a = src[0], b = in->op == PTX_I_div ? src[1] : 0;
        if (ftz) {
            a = flush(FMT_F64, a);
            b = flush(FMT_F64, b);
        }
        uint64_t r;
        switch (in->op) {
        case PTX_I_div: r = arith_f64(OP_DIV, a, b, 0, dir); break;
        case PTX_I_sqrt: r = arith_f64(OP_SQRT, a, 0, 0, dir); break;
        case PTX_I_rcp:
            r = ieee ? arith_f64(OP_DIV, f64_bits(1.0), a, 0, dir) : rcp_approx_f64(a);
            break;
        default: /* rsqrt.approx.f64: approximate (within 1 ulp of the GPU's) */
            if (ftz) {
                r = rsqrt_approx_f64_ftz(a);
                break;
            }
            r = f64_bits(1.0 / sqrt(f64_of(a)));
            if (f_isnan(FMT_F64, r))
                r = nan_f64(OP_SQRT, a, 0, 0);
            break;
        }
        dst[0] = ftz ? flush(FMT_F64, r) : r;
        return 0;
    }
    if (in->type != PTX_T_F32)
        return -1;

    uint64_t a = src[0] & 0xffffffff, b = in->op == PTX_I_div ? src[1] & 0xffffffff : 0;
    if (ftz) {
        a = flush(FMT_F32, a);
        b = flush(FMT_F32, b);
    }
    uint64_t r;
    double x = f32_of(a);
    unsigned afl = fl & PTX_F_FTZ;
    switch (in->op) {
    case PTX_I_div:
        /* .approx is a * (1/b), which the ISA documents as zero for |b|
         * above 2^126 (the reciprocal, subnormal, is flushed); otherwise
         * .approx and .full (at most 2 ulp off) are the IEEE quotient here */
        if (approx && (b & 0x7fffffff) > 0x7e800000 && !f_isnan(FMT_F32, b))
            r = arith_exact(FMT_F32, OP_MUL, a, b & fsign_bit(FMT_F32), 0, RD_N, afl);
        else
            r = divsqrt_f32(OP_DIV, a, b, ieee ? dir : RD_N, afl);
        break;
    case PTX_I_rcp: r = divsqrt_f32(OP_DIV, f32_bits(1.0f), a, ieee ? dir : RD_N, afl); break;
    case PTX_I_sqrt: r = divsqrt_f32(OP_SQRT, a, 0, ieee ? dir : RD_N, afl); break;
    /* the approximations below: the C library's value in double, rounded
     * to f32 (the GPU's sin and cos reduce their argument less exactly,
     * and past a few thousand differ from it by more than rounding) */
    case PTX_I_rsqrt: r = fconvert(FMT_F32, FMT_F64, f64_bits(1.0 / sqrt(x)), RD_N, false); break;
    case PTX_I_sin: r = fconvert(FMT_F32, FMT_F64, f64_bits(sin(x)), RD_N, false); break;
    case PTX_I_cos: r = fconvert(FMT_F32, FMT_F64, f64_bits(cos(x)), RD_N, false); break;
    case PTX_I_lg2: r = fconvert(FMT_F32, FMT_F64, f64_bits(log2(x)), RD_N, false); break;
    case PTX_I_ex2: r = fconvert(FMT_F32, FMT_F64, f64_bits(exp2(x)), RD_N, false); break;
    case PTX_I_tanh: r = fconvert(FMT_F32, FMT_F64, f64_bits(tanh(x)), RD_N, false); break;
    default: return -1;
    }
    if (f_isnan(FMT_F32, r))
        r = NAN_F32;
    dst[0] = ftz ? flush(FMT_F32, r) : r;
    return 0;
}

/* copysign.f32/.f64 d, a, b: b with a's sign. */
static int float_copysign(const ptx_insn *in, const uint64_t *src, uint64_t *dst)
{
    ffmt f;
    bool packed;
    if (!fmt_of(in->type, &f, &packed) || packed || (f.mbits != 23 && f.mbits != 52) || in->flags)
        return -1;
    uint64_t s = fsign_bit(f);
    dst[0] = (src[0] & s) | (src[1] & mask_of(fmt_width(f)) & ~s);
    return 0;
}

/* testp: finite, infinite, number, notanumber, normal (zero included, by
 * the ISA's special case), subnormal. */
static int float_testp(const ptx_insn *in, const uint64_t *src, uint64_t *dst)
{
    ffmt f;
    bool packed;
    if (!fmt_of(in->type, &f, &packed) || packed || (f.mbits != 23 && f.mbits != 52))
        return -1;
    uint64_t a = src[0] & mask_of(fmt_width(f));
    bool nan = f_isnan(f, a), inf = f_isinf(f, a), sub = f_issub(f, a);
    switch (in->sub) {
    case PTX_TESTP_FINITE: dst[0] = !nan && !inf; break;
    case PTX_TESTP_INFINITE: dst[0] = inf; break;
    case PTX_TESTP_NUMBER: dst[0] = !nan; break;
    case PTX_TESTP_NAN: dst[0] = nan; break;
    case PTX_TESTP_NORMAL: dst[0] = !nan && !inf && !sub; break;
    case PTX_TESTP_SUBNORMAL: dst[0] = sub; break;
    default: return -1;
    }
    return 0;
}

/* ---- conversion --------------------------------------------------------------------- */

/* A float (bits of format f) to an integer type: rounded by dir, out of
 * range to the type's minimum or maximum (the ISA: float-to-integer
 * conversions saturate). NaN gives 0 by the ISA; the GPU gives that from
 * f32 and f16 to types of up to 32 bits, but the top bit alone
 * (0x80000000, 0x80 for .u8 too) from f64 or to a 64-bit type. */
static uint64_t float_to_int(ffmt f, uint64_t x, int dir, unsigned t)
{
    unsigned bits = type_bits(t);
    bool sgn = type_signed(t);
    uint64_t umax = sgn ? smax_of(bits) : mask_of(bits);
    fval v = funpack(f, x);
    if (v.cls == FC_NAN)
        return is_f64(f) || bits == 64 ? smin_bits(bits) : 0;
    if (v.cls == FC_INF)
        return v.sign ? (sgn ? smin_bits(bits) : 0) : umax;
    bool big;
    uint64_t mag = fround_int(v.sign, v.man, v.exp, dir, &big);
    if (!v.sign)
        return big || mag > umax ? umax : mag;
    if (!sgn)
        return 0;
    if (big || mag > smin_bits(bits))
        return smin_bits(bits);
    return (0 - mag) & mask_of(bits);
}

/* A float rounded to an integral value in its own format (.rni, ...). */
static uint64_t float_round_integral(ffmt f, uint64_t x, int dir)
{
    fval v = funpack(f, x);
    if (v.cls == FC_NAN)
        return nan_same(f, x);
    if (v.cls == FC_INF || v.cls == FC_ZERO || v.exp >= 0)
        return x;
    bool big;
    uint64_t mag = fround_int(v.sign, v.man, v.exp, dir, &big);
    return fpack(f, v.sign, mag, 0, false, RD_N, false);
}

/* One value of cvt: from type `from` (bits x) to type `to`. */
static int cvt_one(const ptx_insn *in, unsigned to, unsigned from, uint64_t x, uint64_t *out)
{
    unsigned fl = in->flags, rnd = in->rnd;
    bool ftz = (fl & PTX_F_FTZ) != 0, sat = (fl & PTX_F_SAT) != 0, relu = (fl & PTX_F_RELU) != 0;
    bool irnd = rnd >= PTX_RND_RNI && rnd <= PTX_RND_RPI;
    bool frnd = (rnd >= PTX_RND_RN && rnd <= PTX_RND_RP) || rnd == PTX_RND_RNA;
    int dir = rnd_dir(rnd);
    ffmt ff, ft;
    bool pk;
    if (rnd == PTX_RND_RNA || rnd == PTX_RND_RS)
        return -1;

    if (type_us(to) && type_us(from)) {
        /* integer to integer: extend by the source's signedness, clamp to the
         * destination's range with .sat, keep the low bits */
        if (rnd != PTX_RND_NONE || ftz || relu)
            return -1;
        unsigned fb = type_bits(from), tb = type_bits(to);
        uint64_t v = x & mask_of(fb);
        bool neg = type_signed(from) && sext(v, fb) < 0;
        if (sat) {
            uint64_t tmax = type_signed(to) ? smax_of(tb) : mask_of(tb);
            if (neg) {
                if (!type_signed(to))
                    v = 0;
                else if (sext(v, fb) < sext(smin_bits(tb), tb))
                    v = smin_bits(tb);
            } else if (v > tmax) {
                v = tmax;
            }
        } else if (neg) {
            v = (uint64_t)sext(v, fb);
        }
        *out = v & mask_of(tb);
        return 0;
    }

    if (type_us(to)) {
        /* float to integer: an integer rounding is required */
        if (!fmt_of(from, &ff, &pk) || pk || !irnd || relu)
            return -1;
        if (ftz) {
            if (ff.mbits != 23)
                return -1;
            x = flush(ff, x);
        }
        *out = float_to_int(ff, x & mask_of(fmt_width(ff)), dir, to);
        return 0;
    }

    if (!fmt_of(to, &ft, &pk) || pk)
        return -1;
    uint64_t r;
    if (type_us(from)) {
        /* integer to float: a float rounding is required */
        if (!frnd || ftz || relu)
            return -1;
        unsigned fb = type_bits(from);
        uint64_t v = x & mask_of(fb);
        bool neg = type_signed(from) && sext(v, fb) < 0;
        uint64_t mag = neg ? (0 - v) & mask_of(fb) : v;
        r = fpack(ft, neg, mag, 0, false, dir, false);
    } else {
        if (!fmt_of(from, &ff, &pk) || pk)
            return -1;
        x &= mask_of(fmt_width(ff));
        /* .ftz flushes f32 subnormal inputs and results (and, as the GPU
         * does, makes an f32 NaN input the canonical NaN) */
        if (ftz) {
            if (ff.mbits != 23 && ft.mbits != 23)
                return -1;
            if (ff.mbits == 23)
                x = f_isnan(ff, x) ? NAN_F32 : flush(ff, x);
        }
        bool narrowing = ft.mbits < ff.mbits || ft.ebits < ff.ebits;
        if (ff.mbits == ft.mbits && ff.ebits == ft.ebits) {
            /* same format: an integer rounding or none (.ftz, .sat) */
            if (frnd)
                return -1;
            r = irnd ? float_round_integral(ft, x, dir) : (f_isnan(ft, x) ? nan_same(ft, x) : x);
        } else {
            if (irnd)
                return -1;
            if (narrowing && !frnd)
                return -1;
            r = fconvert(ft, ff, x, frnd ? dir : RD_N, ftz && ft.mbits == 23);
        }
    }
    if (sat)
        r = saturate(ft, r);
    if (relu) {
        if (ft.mbits == 52 || ft.mbits == 23)
            return -1;
        r = apply_relu(ft, r);
    }
    *out = r;
    return 0;
}

static int do_cvt(const ptx_insn *in, const uint64_t *src, uint64_t *dst)
{
    if (in->type == PTX_T_F16X2 || in->type == PTX_T_BF16X2) {
        /* cvt.rn{.relu}.f16x2.f32 d, a, b: a in the upper half */
        if (in->type2 != PTX_T_F32)
            return -1;
        unsigned half = in->type == PTX_T_F16X2 ? PTX_T_F16 : PTX_T_BF16;
        uint64_t hi, lo;
        if (cvt_one(in, half, PTX_T_F32, src[0], &hi) || cvt_one(in, half, PTX_T_F32, src[1], &lo))
            return -1;
        dst[0] = (hi << 16) | lo;
        return 0;
    }
    if (!type_us(in->type) && !type_float(in->type))
        return -1;
    if (!type_us(in->type2) && !type_float(in->type2))
        return -1;
    return cvt_one(in, in->type, in->type2, src[0], dst);
}

/* ---- comparison and selection ----------------------------------------------------------- */

/* a CmpOp b for setp and set, of operand type t. */
static int compare(const ptx_insn *in, unsigned t, uint64_t a, uint64_t b, bool *res)
{
    unsigned c = in->cmp;
    ffmt f;
    bool packed;
    if (fmt_of(t, &f, &packed)) {
        if (packed)
            return -1;
        if (in->flags & PTX_F_FTZ) {
            if (f.mbits == 52)
                return -1;
            a = flush(f, a);
            b = flush(f, b);
        }
        double x = fdec(f, a & mask_of(fmt_width(f))), y = fdec(f, b & mask_of(fmt_width(f)));
        bool un = isnan(x) || isnan(y);
        switch (c) {
        case PTX_CMP_EQ: *res = !un && x == y; break;
        case PTX_CMP_NE: *res = !un && x != y; break;
        case PTX_CMP_LT: *res = !un && x < y; break;
        case PTX_CMP_LE: *res = !un && x <= y; break;
        case PTX_CMP_GT: *res = !un && x > y; break;
        case PTX_CMP_GE: *res = !un && x >= y; break;
        case PTX_CMP_EQU: *res = un || x == y; break;
        case PTX_CMP_NEU: *res = un || x != y; break;
        case PTX_CMP_LTU: *res = un || x < y; break;
        case PTX_CMP_LEU: *res = un || x <= y; break;
        case PTX_CMP_GTU: *res = un || x > y; break;
        case PTX_CMP_GEU: *res = un || x >= y; break;
        case PTX_CMP_NUM: *res = !un; break;
        case PTX_CMP_NAN: *res = un; break;
        default: return -1;
        }
        return 0;
    }
    unsigned bits = type_bits(t);
    if (!type_int(t) || bits < 16 || (in->flags & PTX_F_FTZ))
        return -1;
    if (t >= PTX_T_B8 && t <= PTX_T_B64 && c != PTX_CMP_EQ && c != PTX_CMP_NE)
        return -1; /* bit-size types compare for equality only */
    uint64_t m = mask_of(bits);
    a &= m;
    b &= m;
    bool sgn = type_signed(t);
    int64_t sa = sext(a, bits), sb = sext(b, bits);
    switch (c) {
    case PTX_CMP_EQ: *res = a == b; break;
    case PTX_CMP_NE: *res = a != b; break;
    case PTX_CMP_LT: *res = sgn ? sa < sb : a < b; break;
    case PTX_CMP_LE: *res = sgn ? sa <= sb : a <= b; break;
    case PTX_CMP_GT: *res = sgn ? sa > sb : a > b; break;
    case PTX_CMP_GE: *res = sgn ? sa >= sb : a >= b; break;
    case PTX_CMP_LO: *res = a < b; break;
    case PTX_CMP_LS: *res = a <= b; break;
    case PTX_CMP_HI: *res = a > b; break;
    case PTX_CMP_HS: *res = a >= b; break;
    default: return -1;
    }
    return 0;
}

static int combine(unsigned boolop, bool t, bool c, bool *res)
{
    switch (boolop) {
    case PTX_BOOL_NONE: *res = t; return 0;
    case PTX_BOOL_AND: *res = t && c; return 0;
    case PTX_BOOL_OR: *res = t || c; return 0;
    case PTX_BOOL_XOR: *res = t != c; return 0;
    default: return -1;
    }
}

/* setp.CmpOp{.BoolOp}.type p[|q], a, b{, c}: p = t BoolOp c and
 * q = !t BoolOp c. */
static int do_setp(const ptx_insn *in, const uint64_t *src, uint64_t *dst)
{
    bool t, p, q, c = in->boolop != PTX_BOOL_NONE && src[2] != 0;
    if (compare(in, in->type, src[0], src[1], &t) || combine(in->boolop, t, c, &p) ||
        combine(in->boolop, !t, c, &q))
        return -1;
    dst[0] = p;
    if (in->flags & PTX_F_PRED_OUT)
        dst[PTX_ALU_DST2] = q;
    return 0;
}

/* set.CmpOp{.BoolOp}.dtype.stype d, a, b{, c}: all ones (integer d) or 1.0
 * (f32 d) when true, else 0. */
static int do_set(const ptx_insn *in, const uint64_t *src, uint64_t *dst)
{
    bool t, r, c = in->boolop != PTX_BOOL_NONE && src[2] != 0;
    if (compare(in, in->type2, src[0], src[1], &t) || combine(in->boolop, t, c, &r))
        return -1;
    switch (in->type) {
    case PTX_T_U32: case PTX_T_S32: dst[0] = r ? 0xffffffff : 0; break;
    case PTX_T_F32: dst[0] = r ? 0x3f800000 : 0; break;
    default: return -1;
    }
    return 0;
}

/* selp.type d, a, b, c: a if the predicate c, else b. */
static int do_selp(const ptx_insn *in, const uint64_t *src, uint64_t *dst)
{
    unsigned bits = type_bits(in->type);
    if (bits < 16 || bits > 64)
        return -1;
    dst[0] = (src[2] ? src[0] : src[1]) & mask_of(bits);
    return 0;
}

/* slct.dtype.s32/.f32 d, a, b, c: a if c >= 0, else b (f32 c: -0.0 >= 0,
 * NaN is not; .ftz flushes c). */
static int do_slct(const ptx_insn *in, const uint64_t *src, uint64_t *dst)
{
    unsigned bits = type_bits(in->type);
    if (bits < 16 || bits > 64)
        return -1;
    bool ge;
    if (in->type2 == PTX_T_S32) {
        if (in->flags & PTX_F_FTZ)
            return -1;
        ge = sext(src[2], 32) >= 0;
    } else if (in->type2 == PTX_T_F32) {
        uint64_t c = src[2] & 0xffffffff;
        if (in->flags & PTX_F_FTZ)
            c = flush(FMT_F32, c);
        ge = f32_of(c) >= 0.0f;
    } else {
        return -1;
    }
    dst[0] = (ge ? src[0] : src[1]) & mask_of(bits);
    return 0;
}

/* mov: a value masked to the type's width (a predicate: 0 or 1); a vector
 * source packs its elements, lowest first, a vector destination unpacks. */
static int do_mov(const ptx_insn *in, const uint64_t *src, uint64_t *dst)
{
    unsigned bits = type_bits(in->type);
    if (bits == 0 || bits > 64)
        return -1;
    if (in->type == PTX_T_PRED) {
        dst[0] = src[0] != 0;
        return 0;
    }
    bool pack = in->nops > 1 && in->o[1].kind == PTX_O_VEC, unpack = in->o[0].kind == PTX_O_VEC;
    if (pack && unpack)
        return -1;
    if (pack || unpack) {
        unsigned n = pack ? in->o[1].nelem : in->o[0].nelem;
        if ((n != 2 && n != 4) || bits / n < 8)
            return -1;
        unsigned w = bits / n;
        if (pack) {
            uint64_t d = 0;
            for (unsigned i = 0; i < n; i++)
                d |= (src[i] & mask_of(w)) << (i * w);
            dst[0] = d;
        } else {
            for (unsigned i = 0; i < n; i++)
                dst[i] = (src[0] >> (i * w)) & mask_of(w);
        }
        return 0;
    }
    dst[0] = src[0] & mask_of(bits);
    return 0;
}

/* ---- the entry ---------------------------------------------------------------------------- */

static int do_neg_abs(const ptx_insn *in, const uint64_t *src, uint64_t *dst)
{
    ffmt f;
    bool packed;
    if (fmt_of(in->type, &f, &packed)) {
        if (in->flags & ~(PTX_F_FTZ | PTX_F_NOFTZ))
            return -1;
        if (f.mbits == 52 && (in->flags & PTX_F_FTZ))
            return -1;
        dst[0] = per_lane(f, packed, in, src, 1, lane_neg_abs);
        return 0;
    }
    unsigned bits = type_bits(in->type);
    if (!type_signed(in->type) || bits < 16 || in->flags)
        return -1;
    uint64_t m = mask_of(bits), a = src[0] & m;
    bool negative = sext(a, bits) < 0;
    /* two's complement: neg and abs of the minimum are the minimum */
    dst[0] = (in->op == PTX_I_neg || negative) ? (0 - a) & m : a;
    return 0;
}

int ptx_alu(const ptx_insn *in, const uint64_t *src, uint64_t *dst, unsigned char *carry)
{
    bool fl = type_float(in->type);
    switch (in->op) {
    case PTX_I_add:
    case PTX_I_sub:
        if (fl)
            return (in->flags & PTX_F_CC) ? -1 : float_arith(in, src, dst);
        if (!type_int(in->type) || type_bits(in->type) < 16)
            return -1;
        return int_addsub(in, src, dst, carry, in->op == PTX_I_sub, false);
    case PTX_I_addc:
    case PTX_I_subc:
        if (!type_int(in->type))
            return -1;
        return int_addsub(in, src, dst, carry, in->op == PTX_I_subc, true);
    case PTX_I_mul:
        if (fl)
            return (in->flags & (PTX_F_HI | PTX_F_LO | PTX_F_WIDE)) ? -1 : float_arith(in, src, dst);
        if (!type_int(in->type))
            return -1;
        return int_mul(in, src, dst);
    case PTX_I_mad:
        if (fl)
            return (in->flags & (PTX_F_HI | PTX_F_LO | PTX_F_WIDE | PTX_F_CC)) ? -1 : float_arith(in, src, dst);
        if (!type_int(in->type))
            return -1;
        return int_mad(in, src, dst, carry, false);
    case PTX_I_madc:
        if (!type_int(in->type))
            return -1;
        return int_mad(in, src, dst, carry, true);
    case PTX_I_fma:
        if (!fl || in->rnd == PTX_RND_NONE)
            return -1;
        return float_arith(in, src, dst);
    case PTX_I_mul24: return int_mul24(in, src, dst, false);
    case PTX_I_mad24: return int_mul24(in, src, dst, true);
    case PTX_I_sad: return int_sad(in, src, dst);
    case PTX_I_div:
        if (fl)
            return float_special(in, src, dst);
        return int_divrem(in, src, dst, false);
    case PTX_I_rem: return int_divrem(in, src, dst, true);
    case PTX_I_abs:
    case PTX_I_neg: return do_neg_abs(in, src, dst);
    case PTX_I_min:
    case PTX_I_max:
        if (fl)
            return float_minmax(in, src, dst);
        return int_minmax(in, src, dst, in->op == PTX_I_max);
    case PTX_I_rcp:
    case PTX_I_sqrt:
    case PTX_I_rsqrt:
    case PTX_I_sin:
    case PTX_I_cos:
    case PTX_I_lg2:
    case PTX_I_ex2:
    case PTX_I_tanh: return float_special(in, src, dst);
    case PTX_I_copysign: return float_copysign(in, src, dst);
    case PTX_I_testp: return float_testp(in, src, dst);
    case PTX_I_and:
    case PTX_I_or:
    case PTX_I_xor:
    case PTX_I_not:
    case PTX_I_cnot: return bit_logic(in, src, dst);
    case PTX_I_lop3: return bit_lop3(in, src, dst);
    case PTX_I_shl: return bit_shift(in, src, dst, true);
    case PTX_I_shr: return bit_shift(in, src, dst, false);
    case PTX_I_shf: return bit_shf(in, src, dst);
    case PTX_I_popc:
    case PTX_I_clz:
    case PTX_I_brev: return bit_count(in, src, dst);
    case PTX_I_bfind: return bit_bfind(in, src, dst);
    case PTX_I_fns: return bit_fns(in, src, dst);
    case PTX_I_bfe: return bit_bfe(in, src, dst);
    case PTX_I_bfi: return bit_bfi(in, src, dst);
    case PTX_I_bmsk: return bit_bmsk(in, src, dst);
    case PTX_I_szext: return bit_szext(in, src, dst);
    case PTX_I_prmt: return bit_prmt(in, src, dst);
    case PTX_I_dp4a:
    case PTX_I_dp2a: return int_dot(in, src, dst);
    case PTX_I_setp: return do_setp(in, src, dst);
    case PTX_I_set: return do_set(in, src, dst);
    case PTX_I_selp: return do_selp(in, src, dst);
    case PTX_I_slct: return do_slct(in, src, dst);
    case PTX_I_mov: return do_mov(in, src, dst);
    case PTX_I_cvt: return do_cvt(in, src, dst);
    default: return -1;
    }
}
