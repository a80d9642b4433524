/* The exact add-scan of floats.
 *
 * Every finite float is an integer multiple of its format's smallest
 * subnormal (2^-149 for f32, 2^-1074 for f64) of magnitude below 2^128
 * (2^1024), so any sum of n of them is an integer of 277 (2098) + log2 n
 * bits in those units. The fast path keeps that integer exactly in a
 * fixed-point two's-complement superaccumulator (an array of 64-bit limbs):
 * adding an element shifts its significand into place and touches two limbs
 * plus an amortised carry. Each prefix is rounded once, to nearest with ties
 * to even, straight from the limbs, subnormals and overflow to infinity
 * included. verify_exact_scan_mpfr computes the same with an MPFR
 * accumulator; the tests compare the two bit for bit.
 *
 * Non-finite inputs follow IEEE semantics: a prefix containing a NaN, or
 * both +inf and -inf, is NaN; else one containing +inf (-inf) is +inf
 * (-inf). An exact zero is +0 unless every term was -0 (then -0, as
 * -0 + -0 = -0 in IEEE); the empty prefix of an exclusive scan is +0, the
 * catalogue's identity. */
#include "verify/harness/ref_exact.h"

#include <math.h>
#include <mpfr.h>
#include <stdint.h>
#include <string.h>

/* Limbs per accumulator. f32: 277 bits of range + 64 bits of count + sign
 * fit in 6 limbs (384 bits); f64: 2098 + 64 + 1 fit in 34 limbs (2176). */
enum { LIMBS_F32 = 6, LIMBS_F64 = 34, LIMBS_MAX = LIMBS_F64 };

/* Where the formats differ: significand bits with the hidden one, and the
 * field layout of the IEEE encoding. */
typedef struct {
    int prec;          /* 24 or 53 */
    int exp_bits;      /* 8 or 11 */
    int limbs;         /* accumulator width */
    uint64_t inf_bits; /* encoding of +inf */
} fmt;

static const fmt FMT_F32 = {24, 8, LIMBS_F32, UINT64_C(0x7f800000)};
static const fmt FMT_F64 = {53, 11, LIMBS_F64, UINT64_C(0x7ff0000000000000)};
/* f32 magnitudes are summed exactly and rounded to double for abs_prefix. */
enum { F32_SUBNORMAL_EXP = -149, F64_PREC = 53, F64_EXP_BIAS = 1023 };

/* A two's-complement integer stored sparsely: limbs [lo, top] are held in
 * w, limbs below lo are zero (no term reached them), and every limb above
 * top equals ext (0, or all ones for a negative value). Carries and borrows
 * stop at top, so a sum that wanders around zero costs a few limbs per
 * term, not the whole width. */
typedef struct {
    uint64_t w[LIMBS_MAX];
    int limbs;    /* capacity */
    int lo, top;  /* the stored span; empty while top < lo */
    uint64_t ext; /* the value of every limb above top */
} superacc;

/* Special values seen so far in a prefix. */
typedef struct {
    bool nan, pinf, ninf;
    bool all_negzero; /* every term so far is -0 */
    size_t terms;
} specials;

static void acc_init(superacc *a, int limbs)
{
    memset(a, 0, sizeof *a);
    a->limbs = limbs;
    a->lo = limbs;
    a->top = -1;
}

/* Store limbs up to j (they hold the sign extension until written). */
static void acc_extend(superacc *a, int j)
{
    while (a->top < j)
        a->w[++a->top] = a->ext;
}

/* acc += m * 2^p (sub: acc -= m * 2^p); m < 2^53, so m << (p % 64) spans
 * at most two limbs. A carry (borrow) that runs past top flips an all-ones
 * (all-zeros) extension, or else becomes one more stored limb. The width
 * leaves room for n < 2^64 terms, so top never passes the capacity. */
static void acc_add(superacc *a, uint64_t m, int p, bool sub)
{
    int k = p / 64, off = p % 64;
    uint64_t lo = m << off, hi = off ? m >> (64 - off) : 0;
    uint64_t *w = a->w;
    acc_extend(a, k + 1);
    if (k < a->lo)
        a->lo = k;
    int j = k + 2;
    if (!sub) {
        bool c1 = __builtin_add_overflow(w[k], lo, &w[k]);
        uint64_t t;
        bool c = __builtin_add_overflow(w[k + 1], hi, &t);
        c |= __builtin_add_overflow(t, (uint64_t)c1, &w[k + 1]);
        for (; c && j <= a->top; j++)
            c = ++w[j] == 0;
        if (c) {
            if (a->ext)
                a->ext = 0;
            else
                w[++a->top] = 1;
        }
    } else {
        bool b1 = __builtin_sub_overflow(w[k], lo, &w[k]);
        uint64_t t;
        bool b = __builtin_sub_overflow(w[k + 1], hi, &t);
        b |= __builtin_sub_overflow(t, (uint64_t)b1, &w[k + 1]);
        for (; b && j <= a->top; j++)
            b = w[j]-- == 0;
        if (b) {
            if (!a->ext)
                a->ext = ~UINT64_C(0);
            else
                w[++a->top] = ~UINT64_C(1);
        }
    }
    while (a->top > a->lo && w[a->top] == a->ext)
        a->top--; /* drop limbs that only repeat the extension */
}

/* A non-negative integer: limbs [lo, top] of w, zero elsewhere. */
typedef struct {
    const uint64_t *w;
    int lo, top;
} span;

static uint64_t limb(span v, int j) { return j >= v.lo && j <= v.top ? v.w[j] : 0; }

/* Bits [pos, pos + 64) of v. */
static uint64_t window(span v, int pos)
{
    int k = pos / 64, off = pos % 64;
    uint64_t r = limb(v, k) >> off;
    if (off)
        r |= limb(v, k + 1) << (64 - off);
    return r;
}

/* Whether any of bits [0, pos) of v is set. */
static bool any_below(span v, int pos)
{
    int k = pos / 64, off = pos % 64;
    if (off && (limb(v, k) & ((UINT64_C(1) << off) - 1)))
        return true;
    for (int j = (k - 1 < v.top ? k - 1 : v.top); j >= v.lo; j--)
        if (v.w[j])
            return true;
    return false;
}

/* Round v to prec significant bits, to nearest, ties to even:
 * v ~= q * 2^s with q <= 2^prec, and q < 2^(prec-1) only when s = 0 (the
 * subnormal range, where nothing is lost). False if v is 0. */
static bool round_mag(span v, int prec, uint64_t *q, int *s)
{
    int top = v.top;
    while (top >= v.lo && v.w[top] == 0)
        top--;
    if (top < v.lo)
        return false;
    int h = top * 64 + 63 - __builtin_clzll(v.w[top]);
    if (h < prec) {
        *q = limb(v, 0);
        *s = 0;
        return true;
    }
    int shift = h - (prec - 1);
    uint64_t win = window(v, shift - 1);
    uint64_t mant = (win >> 1) & ((UINT64_C(1) << prec) - 1);
    if ((win & 1) && ((mant & 1) || any_below(v, shift - 1)))
        mant++;
    *q = mant;
    *s = shift;
    return true;
}

/* The IEEE encoding of q * 2^(s + smallest subnormal exponent): adding the
 * shifted exponent to a significand that carries its hidden bit builds the
 * exponent field, and a round-up to 2^prec carries into it by itself. */
static uint64_t encode(const fmt *f, uint64_t q, int s)
{
    uint64_t bits = ((uint64_t)s << (f->prec - 1)) + q;
    return bits >= f->inf_bits ? f->inf_bits : bits;
}

/* |a| of a negative a into out (room for top + 2 limbs): ~a + 1 over the
 * stored span, whose limbs below lo are zero and stay zero; a carry out of
 * the top (a = -2^(64 (top + 1))) is one more limb. */
static span negate(const superacc *a, uint64_t *out)
{
    bool carry = true;
    for (int j = a->lo; j <= a->top; j++) {
        out[j] = ~a->w[j] + carry;
        carry = carry && out[j] == 0;
    }
    int top = a->top;
    if (carry)
        out[++top] = 1;
    return (span){out, a->lo, top};
}

/* The current prefix, rounded to the format, as its encoding. */
static uint64_t prefix_bits(const fmt *f, const superacc *a, const specials *sp)
{
    uint64_t sign = UINT64_C(1) << (f->prec + f->exp_bits - 1);
    if (sp->nan || (sp->pinf && sp->ninf))
        return f->inf_bits | (UINT64_C(1) << (f->prec - 2)); /* quiet NaN */
    if (sp->pinf)
        return f->inf_bits;
    if (sp->ninf)
        return f->inf_bits | sign;
    bool neg = a->ext != 0, nonzero;
    uint64_t q;
    int s;
    if (neg) {
        uint64_t mag[LIMBS_MAX + 1];
        nonzero = round_mag(negate(a, mag), f->prec, &q, &s);
    } else {
        nonzero = round_mag((span){a->w, a->lo, a->top}, f->prec, &q, &s);
    }
    if (!nonzero)
        return sp->terms > 0 && sp->all_negzero ? sign : 0;
    return encode(f, q, s) | (neg ? sign : 0);
}

/* The sum of magnitudes so far (never negative), rounded to double. */
static double abs_value(const fmt *f, const superacc *a, const specials *sp)
{
    if (sp->nan)
        return NAN;
    if (sp->pinf || sp->ninf)
        return INFINITY;
    uint64_t q;
    int s;
    if (!round_mag((span){a->w, a->lo, a->top}, F64_PREC, &q, &s))
        return 0.0;
    if (f->prec == FMT_F64.prec) {
        uint64_t bits = encode(&FMT_F64, q, s);
        double d;
        memcpy(&d, &bits, sizeof d);
        return d;
    }
    /* q * 2^(s - 149) with q exact in a double and the power of two a
     * normal double: the product is exact. */
    uint64_t pow2 = (uint64_t)(s + F32_SUBNORMAL_EXP + F64_EXP_BIAS) << (F64_PREC - 1);
    double scale;
    memcpy(&scale, &pow2, sizeof scale);
    return (double)q * scale;
}

/* Decode x's encoding and add it (and |x|) to the accumulators. */
static void add_term(const fmt *f, uint64_t bits, superacc *sum, superacc *abs_sum, specials *sp)
{
    int mbits = f->prec - 1;
    uint64_t frac = bits & ((UINT64_C(1) << mbits) - 1);
    uint64_t e = (bits >> mbits) & ((UINT64_C(1) << f->exp_bits) - 1);
    bool neg = bits >> (mbits + f->exp_bits);
    uint64_t emax = (UINT64_C(1) << f->exp_bits) - 1;
    sp->all_negzero = sp->all_negzero && neg && e == 0 && frac == 0;
    sp->terms++;
    if (e == emax) {
        if (frac)
            sp->nan = true;
        else if (neg)
            sp->ninf = true;
        else
            sp->pinf = true;
        return;
    }
    uint64_t m = e ? frac | (UINT64_C(1) << mbits) : frac;
    int p = e ? (int)e - 1 : 0;
    if (m == 0)
        return;
    acc_add(sum, m, p, neg);
    if (abs_sum)
        acc_add(abs_sum, m, p, false);
}

static uint64_t load_bits(sl_type t, const void *x, size_t i)
{
    if (t == SL_F32) {
        uint32_t b;
        memcpy(&b, (const char *)x + 4 * i, 4);
        return b;
    }
    uint64_t b;
    memcpy(&b, (const char *)x + 8 * i, 8);
    return b;
}

static void store(sl_type t, void *out, size_t i, uint64_t bits)
{
    if (t == SL_F32) {
        uint32_t b = (uint32_t)bits;
        memcpy((char *)out + 4 * i, &b, 4);
    } else {
        memcpy((char *)out + 8 * i, &bits, 8);
    }
}

sl_status verify_exact_scan(sl_type t, bool exclusive, const void *x, size_t n, void *out,
                            double *abs_prefix)
{
    if (!SL_TYPE_IS_FLOAT(t) || (n > 0 && (!x || !out)))
        return SL_ERR_ARG;
    const fmt *f = t == SL_F32 ? &FMT_F32 : &FMT_F64;
    superacc sum, abs_sum;
    acc_init(&sum, f->limbs);
    acc_init(&abs_sum, f->limbs);
    specials sp = {.all_negzero = true};
    for (size_t i = 0; i < n; i++) {
        uint64_t bits = load_bits(t, x, i); /* read first: out may equal x */
        if (exclusive) {
            store(t, out, i, prefix_bits(f, &sum, &sp));
            if (abs_prefix)
                abs_prefix[i] = abs_value(f, &abs_sum, &sp);
        }
        add_term(f, bits, &sum, abs_prefix ? &abs_sum : NULL, &sp);
        if (!exclusive) {
            store(t, out, i, prefix_bits(f, &sum, &sp));
            if (abs_prefix)
                abs_prefix[i] = abs_value(f, &abs_sum, &sp);
        }
    }
    return SL_OK;
}

/* --- the MPFR reference ---------------------------------------------------- */

/* Bits that make every addition of n terms exact: the format's span of
 * binary places (277 or 2098) plus ceil(log2 n) for the growth of the sum. */
static mpfr_prec_t exact_prec(sl_type t, size_t n)
{
    mpfr_prec_t p = t == SL_F32 ? 277 : 2098;
    for (size_t k = 1; k < n; k <<= 1)
        p++;
    return p;
}

/* acc rounded once to the element type (to nearest, ties to even), with
 * the type's exponent range so that subnormals round once, not twice. */
static void mpfr_round_to(sl_type t, mpfr_t acc, mpfr_t tmp, void *out, size_t i)
{
    if (mpfr_number_p(acc)) {
        mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
        int inex = mpfr_set(tmp, acc, MPFR_RNDN);
        /* MPFR's exponents: x = m * 2^e with 1/2 <= m < 1. */
        mpfr_set_emin(t == SL_F32 ? -148 : -1073);
        mpfr_set_emax(t == SL_F32 ? 128 : 1024);
        inex = mpfr_check_range(tmp, inex, MPFR_RNDN);
        mpfr_subnormalize(tmp, inex, MPFR_RNDN);
        mpfr_set_emin(emin);
        mpfr_set_emax(emax);
    } else {
        mpfr_set(tmp, acc, MPFR_RNDN);
    }
    if (t == SL_F32) {
        float v = mpfr_get_flt(tmp, MPFR_RNDN);
        memcpy((char *)out + 4 * i, &v, 4);
    } else {
        double v = mpfr_get_d(tmp, MPFR_RNDN);
        memcpy((char *)out + 8 * i, &v, 8);
    }
}

sl_status verify_exact_scan_mpfr(sl_type t, bool exclusive, const void *x, size_t n, void *out)
{
    if (!SL_TYPE_IS_FLOAT(t) || (n > 0 && (!x || !out)))
        return SL_ERR_ARG;
    mpfr_t acc, term, tmp;
    mpfr_init2(acc, exact_prec(t, n));
    mpfr_init2(term, t == SL_F32 ? 24 : 53);
    mpfr_init2(tmp, t == SL_F32 ? 24 : 53);
    /* -0 is the identity of IEEE addition: -0 + -0 = -0, -0 + +0 = +0. */
    mpfr_set_zero(acc, -1);
    sl_status st = SL_OK;
    for (size_t i = 0; i < n && st == SL_OK; i++) {
        if (t == SL_F32) {
            float v;
            memcpy(&v, (const char *)x + 4 * i, 4);
            mpfr_set_flt(term, v, MPFR_RNDN);
        } else {
            double v;
            memcpy(&v, (const char *)x + 8 * i, 8);
            mpfr_set_d(term, v, MPFR_RNDN);
        }
        if (exclusive) {
            if (i == 0)
                store(t, out, 0, 0); /* +0, the identity of the catalogue */
            else
                mpfr_round_to(t, acc, tmp, out, i);
        }
        if (mpfr_add(acc, acc, term, MPFR_RNDN) != 0)
            st = SL_ERR_CHECK; /* the precision was not enough: a bug here */
        if (!exclusive)
            mpfr_round_to(t, acc, tmp, out, i);
    }
    mpfr_clears(acc, term, tmp, (mpfr_ptr)0);
    return st;
}
