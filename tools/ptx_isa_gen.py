#!/usr/bin/env python3
"""Generates the PTX instruction test set in tests/ptx/isa (README.md there).

  forms.ptx   one module, one .entry per instruction form: thread i < n
              loads its operands from in (IN_WORDS u64 words a thread),
              executes the instruction and stores its results to out
              (OUT_WORDS u64 words a thread, each zero-extended)
  inputs.txt  per form, VECTORS operand vectors: edge values first, then
              seeded random ones
  forms.txt   per form: entry name, operand and result counts, class, and
              the instruction's PTX text

The output is a pure function of this file: every form draws its random
values from a generator seeded by SEED and its own name, so that adding or
removing a form leaves the others' inputs (and their recorded results in
h100.txt) unchanged.

  tools/ptx_isa_gen.py [DIR]      (default: tests/ptx/isa)
"""
import os
import struct
import sys
import zlib

SEED = 0x5CA17AB
VECTORS = 64
IN_WORDS = 4
OUT_WORDS = 4

# The approximate forms' tolerances, each the largest difference between
# the H100 and the simulator measured over this set's inputs
# (tests/ptx/test_ptx_isa.c prints them): the simulator gives the correctly
# rounded or C library value, the GPU its own approximation. ulp: units in
# the last place; abs: for sin, cos and lg2, whose error is absolute, the
# difference where the GPU's result is below 1 in magnitude; range: sin and
# cos are compared for operands up to 100 pi in magnitude (beyond, the GPU's
# argument reduction is not the sine's: from 2^23 on it gives 0 and 1). A
# form not named here gets ulp=0 until measured.
APPROX = {'tanh_approx_f32': {'ulp': 114}, 'rcp_approx_ftz_f64': {'ulp': 0}, 'rsqrt_approx_f64': {'ulp': 0},
          'rsqrt_approx_ftz_f64': {'ulp': 0}}
for _ftz in ['', '_ftz']:
    for _op, _tol in [('div_full', {'ulp': 1}), ('div_approx', {'ulp': 1}), ('rcp_approx', {'ulp': 0}),
                      ('sqrt_approx', {'ulp': 1}), ('rsqrt_approx', {'ulp': 1}), ('ex2_approx', {'ulp': 1}),
                      ('lg2_approx', {'ulp': 1, 'abs': 1.2e-7}),
                      ('sin_approx', {'ulp': 0, 'abs': 6.86e-6, 'range': 314.16}),
                      ('cos_approx', {'ulp': 0, 'abs': 4.06e-6, 'range': 314.16})]:
        APPROX[f'{_op}{_ftz}_f32'] = _tol


# ---- forms -------------------------------------------------------------------
class Form:
    def __init__(self, text, srcs, dsts, pre='', post='', approx=None, name=None):
        self.text, self.srcs, self.dsts = text, srcs, dsts
        self.pre, self.post, self.approx, self.name = pre, post, approx, name


FORMS = []


def F(text, srcs, dsts, **kw):
    FORMS.append(Form(text, srcs, dsts, **kw))


# register type of each instruction type (8-bit values live in 16-bit
# registers) and the class of operand values it gets
REG = {'u8': 'b16', 's8': 'b16', 'u16': 'b16', 's16': 'b16', 'b16': 'b16', 'f16': 'b16', 'bf16': 'b16',
       'u32': 'b32', 's32': 'b32', 'b32': 'b32', 'f32': 'b32', 'f16x2': 'b32', 'bf16x2': 'b32',
       'u64': 'b64', 's64': 'b64', 'b64': 'b64', 'f64': 'b64', 'pred': 'pred'}
CLS = {'u8': 'int', 's8': 'int', 'u16': 'int', 's16': 'int', 'b16': 'int', 'u32': 'int', 's32': 'int',
       'b32': 'int', 'u64': 'int', 's64': 'int', 'b64': 'int', 'f32': 'f32', 'f64': 'f64', 'f16': 'f16',
       'bf16': 'bf16', 'f16x2': 'f16x2', 'bf16x2': 'bf16x2', 'pred': 'pred'}


def S(t, cls=None):
    """A source operand of type t: (register type, value class)."""
    return (REG[t], cls or CLS[t])


def cmp_cls(t):
    return CLS[t] + 'cmp'


INT_T = ['u16', 's16', 'u32', 's32', 'u64', 's64']
R4 = ['rn', 'rz', 'rm', 'rp']
RI4 = ['rni', 'rzi', 'rmi', 'rpi']


def mods(ms):
    return ''.join('.' + m for m in ms)


# ---- integer arithmetic
for t in INT_T:
    for o in ['add', 'sub']:
        F(f'{o}.{t} {{d0}}, {{s0}}, {{s1}};', [S(t)] * 2, [REG[t]])
    for m in ['lo', 'hi'] + (['wide'] if t[1:] != '64' else []):
        dw = REG[t] if m != 'wide' else {'16': 'b32', '32': 'b64'}[t[1:]]
        F(f'mul.{m}.{t} {{d0}}, {{s0}}, {{s1}};', [S(t)] * 2, [dw])
        F(f'mad.{m}.{t} {{d0}}, {{s0}}, {{s1}}, {{s2}};', [S(t)] * 2 + [(dw, 'int')], [dw])
    F(f'sad.{t} {{d0}}, {{s0}}, {{s1}}, {{s2}};', [S(t)] * 3, [REG[t]])
    F(f'div.{t} {{d0}}, {{s0}}, {{s1}};', [S(t), S(t, 'divisor')], [REG[t]])
    F(f'rem.{t} {{d0}}, {{s0}}, {{s1}};', [S(t), S(t, 'divisor')], [REG[t]])
    F(f'min.{t} {{d0}}, {{s0}}, {{s1}};', [S(t)] * 2, [REG[t]])
    F(f'max.{t} {{d0}}, {{s0}}, {{s1}};', [S(t)] * 2, [REG[t]])
    if t[0] == 's':
        F(f'abs.{t} {{d0}}, {{s0}};', [S(t)], [REG[t]])
        F(f'neg.{t} {{d0}}, {{s0}};', [S(t)], [REG[t]])
F('add.sat.s32 {d0}, {s0}, {s1};', [S('s32')] * 2, ['b32'])
F('sub.sat.s32 {d0}, {s0}, {s1};', [S('s32')] * 2, ['b32'])
F('min.relu.s32 {d0}, {s0}, {s1};', [S('s32')] * 2, ['b32'])
F('max.relu.s32 {d0}, {s0}, {s1};', [S('s32')] * 2, ['b32'])
F('mad.hi.sat.s32 {d0}, {s0}, {s1}, {s2};', [S('s32')] * 3, ['b32'])
for t in ['u32', 's32']:
    for m in ['lo', 'hi']:
        F(f'mul24.{m}.{t} {{d0}}, {{s0}}, {{s1}};', [S(t)] * 2, ['b32'])
        F(f'mad24.{m}.{t} {{d0}}, {{s0}}, {{s1}}, {{s2}};', [S(t)] * 3, ['b32'])
F('mad24.hi.sat.s32 {d0}, {s0}, {s1}, {s2};', [S('s32')] * 3, ['b32'])

# ---- carries: the carry in is set from a 0/1 operand (0 or 1 plus all ones
# carries out exactly when it is 1); the carry out is read with addc 0 + 0
for t in ['u32', 's32', 'u64', 's64']:
    w = REG[t]
    ct = 'u32' if w == 'b32' else 'u64'
    ones = '0xffffffff' if w == 'b32' else '0xffffffffffffffff'

    def setc(k):
        return f'add.cc.{ct} %cz, {{s{k}}}, {ones};'
    getc = f'addc.{ct} {{d1}}, 0, 0;'
    cin = (w, 'carry')
    F(f'add.cc.{t} {{d0}}, {{s0}}, {{s1}};', [S(t)] * 2, [w, w], post=getc)
    F(f'sub.cc.{t} {{d0}}, {{s0}}, {{s1}};', [S(t)] * 2, [w, w], post=getc)
    F(f'addc.cc.{t} {{d0}}, {{s0}}, {{s1}};', [S(t)] * 2 + [cin], [w, w], pre=setc(2), post=getc)
    F(f'subc.cc.{t} {{d0}}, {{s0}}, {{s1}};', [S(t)] * 2 + [cin], [w, w], pre=setc(2), post=getc)
    F(f'addc.{t} {{d0}}, {{s0}}, {{s1}};', [S(t)] * 2 + [cin], [w], pre=setc(2))
    F(f'subc.{t} {{d0}}, {{s0}}, {{s1}};', [S(t)] * 2 + [cin], [w], pre=setc(2))
    for m in ['lo', 'hi']:
        F(f'mad.{m}.cc.{t} {{d0}}, {{s0}}, {{s1}}, {{s2}};', [S(t)] * 3, [w, w], post=getc)
        F(f'madc.{m}.cc.{t} {{d0}}, {{s0}}, {{s1}}, {{s2}};', [S(t)] * 3 + [cin], [w, w], pre=setc(3), post=getc)

# ---- bits
for t in ['b16', 'b32', 'b64']:
    for o in ['and', 'or', 'xor']:
        F(f'{o}.{t} {{d0}}, {{s0}}, {{s1}};', [S(t)] * 2, [REG[t]])
    F(f'not.{t} {{d0}}, {{s0}};', [S(t)], [REG[t]])
    F(f'cnot.{t} {{d0}}, {{s0}};', [S(t, 'intz')], [REG[t]])
    F(f'shl.{t} {{d0}}, {{s0}}, {{s1}};', [S(t), ('b32', 'shift')], [REG[t]])
for t in ['b16', 'b32', 'b64', 'u16', 'u32', 'u64', 's16', 's32', 's64']:
    F(f'shr.{t} {{d0}}, {{s0}}, {{s1}};', [S(t), ('b32', 'shift')], [REG[t]])
for o in ['and', 'or', 'xor']:
    F(f'{o}.pred {{d0}}, {{s0}}, {{s1}};', [S('pred')] * 2, ['pred'])
F('not.pred {d0}, {s0};', [S('pred')], ['pred'])
for lut in [0x96, 0xe8, 0xf0, 0x1a, 0x80, 0xfe, 0x3c, 0x00, 0xff, 0x6a]:
    F(f'lop3.b32 {{d0}}, {{s0}}, {{s1}}, {{s2}}, 0x{lut:02x};', [S('b32')] * 3, ['b32'], name=f'lop3_b32_{lut:02x}')
for b in ['or', 'and']:
    F(f'lop3.{b}.b32 {{d0}}|{{d1}}, {{s0}}, {{s1}}, {{s2}}, 0x3c, {{s3}};', [S('b32', 'small')] * 3 + [S('pred')],
      ['b32', 'pred'])
for d in ['l', 'r']:
    for m in ['wrap', 'clamp']:
        F(f'shf.{d}.{m}.b32 {{d0}}, {{s0}}, {{s1}}, {{s2}};', [S('b32'), S('b32'), ('b32', 'shift')], ['b32'])
for t in ['b32', 'b64']:
    for o in ['popc', 'clz', 'brev']:
        F(f'{o}.{t} {{d0}}, {{s0}};', [S(t)], ['b32' if o != 'brev' else REG[t]])
    F(f'bfi.{t} {{d0}}, {{s0}}, {{s1}}, {{s2}}, {{s3}};', [S(t), S(t), ('b32', 'pos'), ('b32', 'pos')], [REG[t]])
for t in ['u32', 's32', 'u64', 's64']:
    F(f'bfind.{t} {{d0}}, {{s0}};', [S(t)], ['b32'])
    F(f'bfind.shiftamt.{t} {{d0}}, {{s0}};', [S(t)], ['b32'])
    F(f'bfe.{t} {{d0}}, {{s0}}, {{s1}}, {{s2}};', [S(t), ('b32', 'pos'), ('b32', 'pos')], [REG[t]])
F('fns.b32 {d0}, {s0}, {s1}, {s2};', [S('b32'), ('b32', 'base'), ('b32', 'offset')], ['b32'])
for m in ['clamp', 'wrap']:
    F(f'bmsk.{m}.b32 {{d0}}, {{s0}}, {{s1}};', [('b32', 'pos'), ('b32', 'pos')], ['b32'])
    for t in ['u32', 's32']:
        F(f'szext.{m}.{t} {{d0}}, {{s0}}, {{s1}};', [S(t), ('b32', 'pos')], ['b32'])
for m in ['', '.f4e', '.b4e', '.rc8', '.ecl', '.ecr', '.rc16']:
    F(f'prmt.b32{m} {{d0}}, {{s0}}, {{s1}}, {{s2}};', [S('b32')] * 3, ['b32'])
for ta in ['u32', 's32']:
    for tb in ['u32', 's32']:
        F(f'dp4a.{ta}.{tb} {{d0}}, {{s0}}, {{s1}}, {{s2}};', [S('b32')] * 3, ['b32'])
        for m in ['lo', 'hi']:
            F(f'dp2a.{m}.{ta}.{tb} {{d0}}, {{s0}}, {{s1}}, {{s2}};', [S('b32')] * 3, ['b32'])

# ---- comparison, selection, moves
ICMP = ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'lo', 'ls', 'hi', 'hs']
FCMP = ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'equ', 'neu', 'ltu', 'leu', 'gtu', 'geu', 'num', 'nan']
for t in INT_T + ['b32']:
    for c in ICMP:
        if (t[0] == 's' and c in ('lo', 'ls', 'hi', 'hs')) or (t[0] == 'b' and c not in ('eq', 'ne')):
            continue
        F(f'setp.{c}.{t} {{d0}}|{{d1}}, {{s0}}, {{s1}};', [S(t, cmp_cls(t))] * 2, ['pred', 'pred'])
for t in ['f32', 'f64']:
    for c in FCMP:
        F(f'setp.{c}.{t} {{d0}}|{{d1}}, {{s0}}, {{s1}};', [S(t, cmp_cls(t))] * 2, ['pred', 'pred'])
for c in FCMP:
    F(f'setp.{c}.f16 {{d0}}, {{s0}}, {{s1}};', [S('f16', 'f16cmp')] * 2, ['pred'])
for c in ['lt', 'equ', 'gt']:
    F(f'setp.{c}.ftz.f32 {{d0}}, {{s0}}, {{s1}};', [S('f32', 'f32cmp')] * 2, ['pred'])
for b in ['and', 'or', 'xor']:
    F(f'setp.lt.{b}.s32 {{d0}}|{{d1}}, {{s0}}, {{s1}}, {{s2}};', [S('s32', 'intcmp')] * 2 + [S('pred')],
      ['pred', 'pred'])
    F(f'setp.gtu.{b}.f32 {{d0}}|{{d1}}, {{s0}}, {{s1}}, !{{s2}};', [S('f32', 'f32cmp')] * 2 + [S('pred')],
      ['pred', 'pred'])
for dt in ['u32', 's32', 'f32']:
    for c, st in [('lt', 's32'), ('lt', 'u32'), ('eq', 'f32'), ('gtu', 'f64'), ('ge', 'u64'), ('ne', 's16')]:
        F(f'set.{c}.{dt}.{st} {{d0}}, {{s0}}, {{s1}};', [S(st, cmp_cls(st))] * 2, ['b32'])
F('set.lt.and.u32.s32 {d0}, {s0}, {s1}, {s2};', [S('s32', 'intcmp')] * 2 + [S('pred')], ['b32'])
F('set.lt.ftz.f32.f32 {d0}, {s0}, {s1};', [S('f32', 'f32cmp')] * 2, ['b32'])
for t in ['b16', 'b32', 'b64', 'f32', 'f64', 's32']:
    F(f'selp.{t} {{d0}}, {{s0}}, {{s1}}, {{s2}};', [S(t), S(t), S('pred')], [REG[t]])
for t in ['u32', 'b64', 'f32', 'u16']:
    F(f'slct.{t}.s32 {{d0}}, {{s0}}, {{s1}}, {{s2}};', [S(t), S(t), S('s32')], [REG[t]])
    F(f'slct.{t}.f32 {{d0}}, {{s0}}, {{s1}}, {{s2}};', [S(t), S(t), S('f32')], [REG[t]])
F('slct.ftz.u32.f32 {d0}, {s0}, {s1}, {s2};', [S('u32'), S('u32'), S('f32')], ['b32'])
F('mov.b32 {d0}, {{{s0}, {s1}}};', [S('b16')] * 2, ['b32'])
F('mov.b64 {d0}, {{{s0}, {s1}}};', [S('b32')] * 2, ['b64'])
F('mov.b64 {d0}, {{{s0}, {s1}, {s2}, {s3}}};', [S('b16')] * 4, ['b64'])
F('mov.b32 {{{d0}, {d1}}}, {s0};', [S('b32')], ['b16', 'b16'])
F('mov.b64 {{{d0}, {d1}}}, {s0};', [S('b64')], ['b32', 'b32'])
F('mov.b64 {{{d0}, {d1}, {d2}, {d3}}}, {s0};', [S('b64')], ['b16'] * 4)

# ---- floating point
for o in ['add', 'sub', 'mul']:
    for r in [''] + R4:
        rr = '.' + r if r else ''
        for ms in [[], ['ftz'], ['sat'], ['ftz', 'sat']]:
            F(f'{o}{rr}{mods(ms)}.f32 {{d0}}, {{s0}}, {{s1}};', [S('f32')] * 2, ['b32'])
        F(f'{o}{rr}.f64 {{d0}}, {{s0}}, {{s1}};', [S('f64')] * 2, ['b64'])
    for t in ['f16', 'bf16', 'f16x2', 'bf16x2']:
        F(f'{o}.rn.{t} {{d0}}, {{s0}}, {{s1}};', [S(t)] * 2, [REG[t]])
    F(f'{o}.rn.ftz.f16 {{d0}}, {{s0}}, {{s1}};', [S('f16')] * 2, ['b16'])
    F(f'{o}.rn.sat.f16 {{d0}}, {{s0}}, {{s1}};', [S('f16')] * 2, ['b16'])
for r in R4:
    for ms in [[], ['ftz'], ['sat']]:
        F(f'fma.{r}{mods(ms)}.f32 {{d0}}, {{s0}}, {{s1}}, {{s2}};', [S('f32')] * 3, ['b32'])
    F(f'fma.{r}.f64 {{d0}}, {{s0}}, {{s1}}, {{s2}};', [S('f64')] * 3, ['b64'])
    F(f'mad.{r}.f32 {{d0}}, {{s0}}, {{s1}}, {{s2}};', [S('f32')] * 3, ['b32'])
for t in ['f16', 'bf16', 'f16x2', 'bf16x2']:
    F(f'fma.rn.{t} {{d0}}, {{s0}}, {{s1}}, {{s2}};', [S(t)] * 3, [REG[t]])
    F(f'fma.rn.relu.{t} {{d0}}, {{s0}}, {{s1}}, {{s2}};', [S(t)] * 3, [REG[t]])
F('fma.rn.sat.f16 {d0}, {s0}, {s1}, {s2};', [S('f16')] * 3, ['b16'])
F('fma.rn.ftz.f16 {d0}, {s0}, {s1}, {s2};', [S('f16')] * 3, ['b16'])
for o in ['min', 'max']:
    for t, ms in [('f32', []), ('f32', ['ftz']), ('f32', ['NaN']), ('f32', ['ftz', 'NaN']), ('f64', []),
                  ('f16', []), ('f16', ['NaN']), ('bf16', []), ('bf16', ['NaN']), ('f16x2', []), ('bf16x2', []),
                  ('f32', ['xorsign', 'abs']), ('f16', ['ftz'])]:
        F(f'{o}{mods(ms)}.{t} {{d0}}, {{s0}}, {{s1}};', [S(t, cmp_cls(t))] * 2, [REG[t]])
for o in ['abs', 'neg']:
    for t, ms in [('f32', []), ('f32', ['ftz']), ('f64', []), ('f16', []), ('bf16', []), ('f16x2', []),
                  ('f16', ['ftz'])]:
        F(f'{o}{mods(ms)}.{t} {{d0}}, {{s0}};', [S(t)], [REG[t]])
for r in R4:
    for ms in [[], ['ftz']]:
        F(f'div.{r}{mods(ms)}.f32 {{d0}}, {{s0}}, {{s1}};', [S('f32')] * 2, ['b32'])
        F(f'rcp.{r}{mods(ms)}.f32 {{d0}}, {{s0}};', [S('f32')], ['b32'])
        F(f'sqrt.{r}{mods(ms)}.f32 {{d0}}, {{s0}};', [S('f32')], ['b32'])
    F(f'div.{r}.f64 {{d0}}, {{s0}}, {{s1}};', [S('f64')] * 2, ['b64'])
    F(f'rcp.{r}.f64 {{d0}}, {{s0}};', [S('f64')], ['b64'])
    F(f'sqrt.{r}.f64 {{d0}}, {{s0}};', [S('f64')], ['b64'])
# the GPU's approximations
for ms in [[], ['ftz']]:
    F(f'div.full{mods(ms)}.f32 {{d0}}, {{s0}}, {{s1}};', [S('f32')] * 2, ['b32'], approx='f32')
    F(f'div.approx{mods(ms)}.f32 {{d0}}, {{s0}}, {{s1}};', [S('f32')] * 2, ['b32'], approx='f32')
    for o in ['rcp', 'sqrt', 'rsqrt', 'sin', 'cos', 'lg2', 'ex2']:
        F(f'{o}.approx{mods(ms)}.f32 {{d0}}, {{s0}};', [S('f32')], ['b32'], approx='f32')
F('tanh.approx.f32 {d0}, {s0};', [S('f32')], ['b32'], approx='f32')
F('rcp.approx.ftz.f64 {d0}, {s0};', [S('f64')], ['b64'], approx='f64')
F('rsqrt.approx.f64 {d0}, {s0};', [S('f64')], ['b64'], approx='f64')
F('rsqrt.approx.ftz.f64 {d0}, {s0};', [S('f64')], ['b64'], approx='f64')
for t in ['f32', 'f64']:
    F(f'copysign.{t} {{d0}}, {{s0}}, {{s1}};', [S(t)] * 2, [REG[t]])
    for o in ['finite', 'infinite', 'number', 'notanumber', 'normal', 'subnormal']:
        F(f'testp.{o}.{t} {{d0}}, {{s0}};', [S(t)], ['pred'])

# ---- NaN operands: which payload survives
for o in ['min', 'max', 'add', 'sub', 'mul', 'div']:
    rr = '.rn' if o != 'min' and o != 'max' else ''
    F(f'{o}{rr}.f64 {{d0}}, {{s0}}, {{s1}};', [S('f64', 'f64nan')] * 2, ['b64'], name=f'{o}{rr}.f64.nan')
    F(f'{o}{rr}.f32 {{d0}}, {{s0}}, {{s1}};', [S('f32', 'f32nan')] * 2, ['b32'], name=f'{o}{rr}.f32.nan')
F('fma.rn.f64 {d0}, {s0}, {s1}, {s2};', [S('f64', 'f64nan')] * 3, ['b64'], name='fma.rn.f64.nan')

# ---- cvt
CVT_INT = ['u8', 's8', 'u16', 's16', 'u32', 's32', 'u64', 's64']
for dt in CVT_INT:
    for st in CVT_INT:
        if dt == st:
            continue
        F(f'cvt.{dt}.{st} {{d0}}, {{s0}};', [S(st)], [REG[dt]])
        db, sb = int(dt[1:]), int(st[1:])
        if db < sb or (db == sb and dt[0] != st[0]) or (dt[0] == 'u' and st[0] == 's'):
            F(f'cvt.sat.{dt}.{st} {{d0}}, {{s0}};', [S(st)], [REG[dt]])
for dt in CVT_INT:
    for st in ['f32', 'f64', 'f16']:
        for r in RI4:
            F(f'cvt.{r}.{dt}.{st} {{d0}}, {{s0}};', [S(st, st + 'int')], [REG[dt]])
    F(f'cvt.rmi.ftz.{dt}.f32 {{d0}}, {{s0}};', [S('f32', 'f32int')], [REG[dt]])
for dt in ['f32', 'f64', 'f16', 'bf16']:
    for st in CVT_INT:
        for r in R4:
            if dt == 'bf16' and st[1:] == '8':
                continue
            F(f'cvt.{r}.{dt}.{st} {{d0}}, {{s0}};', [S(st)], [REG[dt]])
F('cvt.rn.sat.f32.s32 {d0}, {s0};', [S('s32')], ['b32'])
F('cvt.f64.f32 {d0}, {s0};', [S('f32')], ['b64'])
F('cvt.ftz.f64.f32 {d0}, {s0};', [S('f32')], ['b64'])
F('cvt.f32.f16 {d0}, {s0};', [S('f16')], ['b32'])
F('cvt.f32.bf16 {d0}, {s0};', [S('bf16')], ['b32'])
F('cvt.f64.f16 {d0}, {s0};', [S('f16')], ['b64'])
F('cvt.f64.bf16 {d0}, {s0};', [S('bf16')], ['b64'])
F('cvt.sat.f32.f32 {d0}, {s0};', [S('f32')], ['b32'])
F('cvt.ftz.f32.f32 {d0}, {s0};', [S('f32')], ['b32'])
F('cvt.ftz.sat.f32.f32 {d0}, {s0};', [S('f32')], ['b32'])
for r in R4:
    for ms in [[], ['ftz'], ['sat']]:
        F(f'cvt.{r}{mods(ms)}.f32.f64 {{d0}}, {{s0}};', [S('f64', 'f64narrow')], ['b32'])
    F(f'cvt.{r}.f16.f32 {{d0}}, {{s0}};', [S('f32', 'f32narrow')], ['b16'])
    F(f'cvt.{r}.f16.f64 {{d0}}, {{s0}};', [S('f64', 'f64narrow')], ['b16'])
    F(f'cvt.{r}.bf16.f32 {{d0}}, {{s0}};', [S('f32', 'f32narrow')], ['b16'])
    F(f'cvt.{r}.bf16.f64 {{d0}}, {{s0}};', [S('f64', 'f64narrow')], ['b16'])
    F(f'cvt.{r}.bf16.f16 {{d0}}, {{s0}};', [S('f16')], ['b16'])
    F(f'cvt.{r}.f16.bf16 {{d0}}, {{s0}};', [S('bf16')], ['b16'])
for r in RI4:
    F(f'cvt.{r}.f32.f32 {{d0}}, {{s0}};', [S('f32', 'f32int')], ['b32'])
    F(f'cvt.{r}.ftz.f32.f32 {{d0}}, {{s0}};', [S('f32', 'f32int')], ['b32'])
    F(f'cvt.{r}.f64.f64 {{d0}}, {{s0}};', [S('f64', 'f64int')], ['b64'])
    F(f'cvt.{r}.f16.f16 {{d0}}, {{s0}};', [S('f16')], ['b16'])
for t in ['f16x2', 'bf16x2']:
    for r in ['rn', 'rz']:
        F(f'cvt.{r}.{t}.f32 {{d0}}, {{s0}}, {{s1}};', [S('f32', 'f32narrow')] * 2, ['b32'])
        F(f'cvt.{r}.relu.{t}.f32 {{d0}}, {{s0}}, {{s1}};', [S('f32', 'f32narrow')] * 2, ['b32'])
F('cvt.rn.relu.f16.f32 {d0}, {s0};', [S('f32', 'f32narrow')], ['b16'])
F('cvt.rn.relu.bf16.f32 {d0}, {s0};', [S('f32', 'f32narrow')], ['b16'])
F('cvt.rn.ftz.f16.f32 {d0}, {s0};', [S('f32', 'f32narrow')], ['b16'])
F('cvt.rn.sat.f16.f32 {d0}, {s0};', [S('f32', 'f32narrow')], ['b16'])

# ---- operands of another size than the instruction's type: cvt reads the
# low bits of a wider source register and extends its result to a wider
# destination register by the destination type's signedness
for dt, st, dw, sw in [('s32', 's8', 'b32', 'b32'), ('u32', 'u8', 'b32', 'b32'), ('s8', 's32', 'b32', 'b32'),
                       ('u8', 's32', 'b32', 'b32'), ('s16', 's64', 'b32', 'b64'), ('u16', 'u32', 'b32', 'b32'),
                       ('s64', 's16', 'b64', 'b32'), ('s8', 'u16', 'b64', 'b16')]:
    F(f'cvt.{dt}.{st} {{d0}}, {{s0}};', [(sw, 'int')], [dw], name=f'cvt.{dt}.{st}.{dw}.{sw}')
F('cvt.rzi.s8.f32 {d0}, {s0};', [S('f32', 'f32int')], ['b32'], name='cvt.rzi.s8.f32.b32')
F('cvt.rn.f32.s8 {d0}, {s0};', [('b32', 'int')], ['b32'], name='cvt.rn.f32.s8.b32')

# ---- registers declared with a float type, as nvcc declares %f and %fd
F('add.rn.f32 {d0}, {s0}, {s1};', [('f32', 'f32')] * 2, ['f32'], name='add.rn.f32.fregs')
F('fma.rn.f64 {d0}, {s0}, {s1}, {s2};', [('f64', 'f64')] * 3, ['f64'], name='fma.rn.f64.fregs')
F('setp.lt.f32 {d0}, {s0}, {s1};', [('f32', 'f32cmp')] * 2, ['pred'], name='setp.lt.f32.fregs')
F('cvt.rn.f32.s32 {d0}, {s0};', [S('s32')], ['f32'], name='cvt.rn.f32.s32.fregs')
F('cvt.rzi.s32.f32 {d0}, {s0};', [('f32', 'f32int')], ['b32'], name='cvt.rzi.s32.f32.fregs')
F('mov.b32 {d0}, {s0};', [('f32', 'f32')], ['b32'], name='mov.b32.fregs')

# ---- loads narrower than their register: extended by the load's type
for t, reg in [('s8', 'b32'), ('u8', 'b16'), ('s8', 'b16'), ('s16', 'b64'), ('u16', 'b32'), ('s32', 'b64'),
               ('u32', 'b64')]:
    F(f'ld.global.{t} {{d0}}, [%a];', [('b64', 'int')], [reg], name=f'ld.global.{t}.{reg}')

# ---- guards and negated predicate operands
F('@{s2} add.s32 {d0}, {s0}, {s1};', [S('s32'), S('s32'), S('pred')], ['b32'], pre='mov.b32 {d0}, 0xdeadbeef;',
  name='add.s32.guard')
F('@!{s2} add.s32 {d0}, {s0}, {s1};', [S('s32'), S('s32'), S('pred')], ['b32'], pre='mov.b32 {d0}, 0xdeadbeef;',
  name='add.s32.guard_not')
F('and.pred {d0}, {s0}, !{s1};', [S('pred')] * 2, ['pred'], name='and.pred.not')
F('xor.pred {d0}, !{s0}, {s1};', [S('pred')] * 2, ['pred'], name='xor.pred.not')

# ---- immediate operands: each literal takes its operand's type
for text, srcs, dsts in [
        ('add.s32 {d0}, {s0}, -1;', [S('s32')], ['b32']),
        ('add.s16 {d0}, {s0}, -16;', [S('s16')], ['b16']),
        ('sub.s64 {d0}, {s0}, 0x100000000;', [S('s64')], ['b64']),
        ('mul.lo.s64 {d0}, {s0}, -3;', [S('s64')], ['b64']),
        ('mul.wide.s32 {d0}, {s0}, -7;', [S('s32')], ['b64']),
        ('mul.wide.u16 {d0}, {s0}, 0xfffe;', [S('u16')], ['b32']),
        ('div.s32 {d0}, {s0}, -3;', [S('s32')], ['b32']),
        ('rem.u64 {d0}, {s0}, 10;', [S('u64')], ['b64']),
        ('min.s16 {d0}, {s0}, -1;', [S('s16')], ['b16']),
        ('sad.u32 {d0}, {s0}, 100, {s1};', [S('u32')] * 2, ['b32']),
        ('and.b32 {d0}, {s0}, 0xff00ff00;', [S('b32')], ['b32']),
        ('xor.b16 {d0}, {s0}, 0x8001;', [S('b16')], ['b16']),
        ('shl.b64 {d0}, {s0}, 33;', [S('b64')], ['b64']),
        ('shr.s32 {d0}, {s0}, 31;', [S('s32')], ['b32']),
        ('shf.l.wrap.b32 {d0}, {s0}, {s1}, 5;', [S('b32')] * 2, ['b32']),
        ('prmt.b32 {d0}, {s0}, {s1}, 0x5140;', [S('b32')] * 2, ['b32']),
        ('bfe.u32 {d0}, {s0}, 4, 12;', [S('u32')], ['b32']),
        ('bfe.s64 {d0}, {s0}, 60, 8;', [S('s64')], ['b64']),
        ('setp.lt.s32 {d0}, {s0}, -5;', [S('s32')], ['pred']),
        ('setp.gt.u64 {d0}, {s0}, 0xffffffff;', [S('u64')], ['pred']),
        ('setp.eq.f64 {d0}, {s0}, 0d7FF0000000000000;', [S('f64')], ['pred']),
        ('selp.b32 {d0}, {s0}, 7, {s1};', [S('b32'), S('pred')], ['b32']),
        ('add.f32 {d0}, {s0}, 0f3F800000;', [S('f32')], ['b32']),
        ('mul.f32 {d0}, {s0}, 0.1;', [S('f32')], ['b32']),
        ('mul.rn.f64 {d0}, {s0}, 0d3FB999999999999A;', [S('f64')], ['b64']),
        ('fma.rn.f32 {d0}, {s0}, 0f40000000, 0fBF800000;', [S('f32')], ['b32']),
        ('max.f64 {d0}, {s0}, 0d8000000000000000;', [S('f64')], ['b64']),
]:
    F(text, srcs, dsts, name=text.split()[0] + '.imm')


# ---- operand values ----------------------------------------------------------
M64 = (1 << 64) - 1


class Rng:
    """splitmix64: the same numbers from every Python."""

    def __init__(self, seed):
        self.s = seed & M64

    def next(self):
        self.s = (self.s + 0x9E3779B97F4A7C15) & M64
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        return z ^ (z >> 31)

    def below(self, n):
        return self.next() % n

    def pick(self, seq):
        return seq[self.below(len(seq))]


# Edge values, arranged in pairs that differ in sign where the format has
# one, so that neighbours make the pairs (0, -0), (inf, -inf), ... .
F32_EDGE = [
    0x00000000, 0x80000000, 0x7f800000, 0xff800000,  # zeros, infinities
    0x7fc00000, 0xffc00000, 0x7fffffff, 0xffffffff,  # quiet NaNs
    0x7f800001, 0xffa00000, 0x7fa5a5a5, 0xff800001,  # signalling NaNs with payloads
    0x00000001, 0x80000001, 0x007fffff, 0x807fffff,  # subnormals
    0x00400000, 0x80400000, 0x00800000, 0x80800000,  # subnormal, smallest normal
    0x3f800000, 0xbf800000, 0x3f000000, 0xbf000000,  # 1, 0.5
    0x3fc00000, 0xbfc00000, 0x40200000, 0xc0200000,  # 1.5, 2.5 (ties)
    0x40400000, 0xc0400000, 0x3effffff, 0xbeffffff,  # 3, just below 0.5
    0x7f7fffff, 0xff7fffff, 0x7e800000, 0x7e7fffff,  # largest, near 2^126
    0x4f000000, 0xcf000000, 0x4f800000, 0x4effffff,  # 2^31, 2^32, just below 2^31
    0x5f000000, 0xdf000000, 0x5f800000, 0x4f32d05e,  # 2^63, 2^64, 3e9
    0x3f7fffff, 0x3f800001, 0x4b000001, 0xcb000001,  # around 1, 2^23 + 1
    0x4b7fffff, 0x3f400000, 0x3eaaaaab, 0x40490fdb,  # 2^24 - 1, 0.75, 1/3, pi
    0x477fe000, 0x477ff000, 0x38800000, 0x387fc000,  # f16: largest, its rounding edge, smallest normal
    0x33800000, 0x33000000, 0x33c00000, 0x33801000,  # f16: smallest subnormal, half of it
    0x37800000, 0x01000000, 0x00ffffff, 0x42c80000,  # 2^-16, 2^-125, 100
]
F64_EDGE = [
    0x0000000000000000, 0x8000000000000000, 0x7ff0000000000000, 0xfff0000000000000,
    0x7ff8000000000000, 0xfff8000000000000, 0x7fffffffffffffff, 0xfff8000000000001,
    0x7ff0000000000001, 0x7ff4000000000000, 0x0000000000000001, 0x8000000000000001,
    0x000fffffffffffff, 0x0008000000000000, 0x0010000000000000, 0x8010000000000000,
    0x3ff0000000000000, 0xbff0000000000000, 0x3fe0000000000000, 0x3fdfffffffffffff,
    0x4004000000000000, 0xc004000000000000, 0x3ff8000000000000, 0x3fd5555555555555,
    0x7fefffffffffffff, 0xffefffffffffffff, 0x3ff0000000000001, 0x3fefffffffffffff,
    0x41e0000000000000, 0xc1e0000000000000, 0x41f0000000000000, 0x41e65a0bc0000000,
    0x43e0000000000000, 0xc3e0000000000000, 0x43f0000000000000, 0x4330000000000001,
    0x47efffffe0000000, 0x47efffff00000000, 0x47f0000000000000, 0xc330000000000001,
    0x36a0000000000000, 0x3690000000000000, 0x36a8000000000000, 0x3810000000000000,
    0x380fffffffffffff, 0x3e70000000000000, 0x40effc0000000000, 0x40effe0000000000,
    0x3f10000000000000, 0x400921fb54442d18,
]
F16_EDGE = [0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7fff, 0x7c01, 0x0001, 0x8001, 0x03ff, 0x83ff,
            0x0400, 0x8400, 0x3c00, 0xbc00, 0x3800, 0xb800, 0x4100, 0xc100, 0x3e00, 0x7bff, 0xfbff, 0x3bff,
            0x3c01, 0x0200, 0x4200]
BF16_EDGE = [0x0000, 0x8000, 0x7f80, 0xff80, 0x7fc0, 0xffc0, 0x7fff, 0x7f81, 0x0001, 0x8001, 0x007f, 0x807f,
             0x0080, 0x8080, 0x3f80, 0xbf80, 0x3f00, 0xbf00, 0x4020, 0xc020, 0x3fc0, 0x7f7f, 0xff7f, 0x3f7f,
             0x3f81, 0x0040]
INT_EDGE = [0, 1, 0xffffffffffffffff, 0xfffffffffffffffe, 2, 3, 7, 8, 15, 16, 31, 32, 33, 63, 64, 65, 127, 128,
            255, 256, 0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffffff, 0x80000000, 0xffffffff, 0x100000000,
            0x7fffffffffffffff, 0x8000000000000000, 0xfffffffe, 0xfffe, 0x80000001, 0x8001, 0x12345678,
            0x00800000, 0x00ffffff, 0xff800000, 0x7fffff, 0xdeadbeefcafef00d, 0xffffffff80000000, 0xffffff80]
SHIFT_EDGE = [0, 1, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 255, 256, 0x80000000, 0xffffffff]
POS_EDGE = [0, 1, 7, 8, 15, 16, 24, 31, 32, 33, 63, 64, 65, 127, 128, 255, 256, 257, 0xffff, 0xffffffff]
DIVISOR_EDGE = [0, 1, 0xffffffffffffffff, 2, 3, 0xfffffffffffffffe, 7, 0x80000000, 0x8000, 0x8000000000000000,
                0xffffffff, 0xffff]
F32_NAN_EDGE = [0x7fc00000, 0xffc00000, 0x7f800001, 0xff800001, 0x7fc00001, 0x7fa5a5a5, 0xffffffff,
                0x3f800000, 0x7f800000]
F64_NAN_EDGE = [0x7ff8000000000000, 0xfff8000000000000, 0x7ff0000000000001, 0xfff0000000000001,
                0x7ff8000000000001, 0x7ff4a5a5a5a5a5a5, 0xffffffffffffffff, 0x7ff00000ffffffff,
                0x3ff0000000000000, 0x7ff0000000000000]


def f32_bits(x):
    return struct.unpack('<I', struct.pack('<f', x))[0]


def f64_bits(x):
    return struct.unpack('<Q', struct.pack('<d', x))[0]


def packed_edges(e):
    return [e[j] | e[(j * 7 + 3) % len(e)] << 16 for j in range(len(e))]


EDGES = {
    'int': INT_EDGE, 'intz': INT_EDGE, 'intcmp': INT_EDGE,
    'f32': F32_EDGE, 'f32cmp': F32_EDGE, 'f32int': F32_EDGE, 'f32narrow': F32_EDGE,
    'f64': F64_EDGE, 'f64cmp': F64_EDGE, 'f64int': F64_EDGE, 'f64narrow': F64_EDGE,
    'f16': F16_EDGE, 'f16cmp': F16_EDGE, 'f16int': F16_EDGE,
    'bf16': BF16_EDGE, 'bf16cmp': BF16_EDGE,
    'f16x2': packed_edges(F16_EDGE), 'f16x2cmp': packed_edges(F16_EDGE),
    'bf16x2': packed_edges(BF16_EDGE), 'bf16x2cmp': packed_edges(BF16_EDGE),
    'pred': [0, 1], 'carry': [0, 1], 'small': [0, 1, 2, 3],
    'shift': SHIFT_EDGE, 'pos': POS_EDGE, 'divisor': DIVISOR_EDGE,
    'base': [0, 1, 15, 16, 31], 'offset': [0, 1, 2**64 - 1, 31, 2**64 - 31, 32, 2**64 - 32, 40, 2**64 - 40],
    'f32nan': F32_NAN_EDGE, 'f64nan': F64_NAN_EDGE,
}


class Values:
    """Random operand values of each class for one form. The comparison
    classes draw half their values from a small pool shared by the form's
    operands, so that equal operands are common."""

    def __init__(self, rng):
        self.r = rng
        self.pool = {'int': [self.int_() for _ in range(4)], 'f32': [self.f32() for _ in range(4)],
                     'f64': [self.f64() for _ in range(4)], 'f16': [self.f16() for _ in range(4)],
                     'bf16': [self.bf16() for _ in range(4)]}
        self.pool['f16x2'] = [self.pool['f16'][k] | self.pool['f16'][3 - k] << 16 for k in range(4)]
        self.pool['bf16x2'] = [self.pool['bf16'][k] | self.pool['bf16'][3 - k] << 16 for k in range(4)]

    def f32(self):
        r = self.r
        k = r.below(6)
        if k == 0:
            return r.pick(F32_EDGE)
        if k == 1:
            return r.next() & 0xffffffff
        if k == 2:  # around 1 (exponents 2^-15 .. 2^16)
            return (r.next() & 0x80000000) | (112 + r.below(32)) << 23 | (r.next() & 0x7fffff)
        if k == 3:  # short significands: ties and exact results
            return (r.next() & 0x80000000) | (120 + r.below(16)) << 23 | (r.next() & 0x7c0000)
        if k == 4:  # subnormals
            return (r.next() & 0x80000000) | ((r.next() & 0x7fffff) >> r.below(23))
        return f32_bits((r.below(200) - 100) / (1 << r.below(4)))  # small multiples of 1/8

    def f64(self):
        r = self.r
        k = r.below(6)
        if k == 0:
            return r.pick(F64_EDGE)
        if k == 1:
            return r.next()
        if k == 2:
            return (r.next() & 1 << 63) | (1000 + r.below(48)) << 52 | (r.next() & (1 << 52) - 1)
        if k == 3:
            return (r.next() & 1 << 63) | (1016 + r.below(16)) << 52 | (r.next() & 0xfc00000000000)
        if k == 4:  # an f32 value, or one next to it
            b = f64_bits(struct.unpack('<f', struct.pack('<I', self.f32()))[0])
            return b ^ (r.next() & 0xfffffff if r.below(3) == 0 else 0)
        return f64_bits((r.below(200) - 100) / (1 << r.below(4)))

    def f16(self):
        r = self.r
        k = r.below(3)
        if k == 0:
            return r.pick(F16_EDGE)
        if k == 1:
            return r.next() & 0xffff
        return (r.next() & 0x8000) | (10 + r.below(10)) << 10 | (r.next() & 0x3ff)

    def bf16(self):
        r = self.r
        k = r.below(3)
        if k == 0:
            return r.pick(BF16_EDGE)
        if k == 1:
            return r.next() & 0xffff
        return (r.next() & 0x8000) | (120 + r.below(14)) << 7 | (r.next() & 0x7f)

    def int_(self):
        r = self.r
        k = r.below(4)
        if k == 0:
            return r.pick(INT_EDGE)
        if k == 1:
            return r.next()
        if k == 2:
            return r.below(1000)
        return -r.below(1000) & M64

    def nan(self, bits):
        """Mostly NaNs of every kind (sign, quiet or not, payload)."""
        r = self.r
        if r.below(4) == 0:
            return self.f64() if bits == 64 else self.f32()
        mb = 52 if bits == 64 else 23
        exp = ((1 << (bits - mb - 1)) - 1) << mb
        quiet = 1 << (mb - 1) if r.below(2) else 0
        payload = ((r.next() & ((1 << (mb - 1)) - 1)) >> r.below(mb)) | 1
        return (r.next() & 1 << (bits - 1)) | exp | quiet | payload

    def int_like(self, bits):
        """Integral values of f32 or f64 across the integer types' ranges."""
        r = self.r
        if r.below(3):
            return self.f32() if bits == 32 else self.f64()
        x = (r.below(2000) - 1000) / 4 * (1 << r.below(30 if bits == 32 else 62))
        return f32_bits(x) if bits == 32 else f64_bits(x)

    def value(self, cls):
        r = self.r
        if cls.endswith('cmp'):
            base = cls[:-3]
            if r.below(2):
                return r.pick(self.pool[base])
            return self.value(base)
        if cls in ('int', 'intz') and (cls == 'int' or r.below(3)):
            return self.int_()
        if cls == 'intz':
            return 0
        if cls in ('f32', 'f64', 'f16', 'bf16'):
            return getattr(self, cls)()
        if cls == 'f16x2':
            return self.f16() | self.f16() << 16
        if cls == 'bf16x2':
            return self.bf16() | self.bf16() << 16
        if cls in ('pred', 'carry'):
            return r.below(2)
        if cls == 'small':
            return r.below(4) if r.below(2) else 0
        if cls == 'shift':
            return r.below(70) if r.below(4) else r.pick(INT_EDGE) & 0xffffffff
        if cls == 'pos':
            return r.below(70) if r.below(4) else r.below(300) if r.below(3) else r.next() & 0xffffffff
        if cls == 'base':
            return r.below(32)
        if cls == 'offset':
            return (r.below(81) - 40) & M64
        if cls == 'divisor':
            return r.pick(DIVISOR_EDGE) if r.below(2) else self.int_()
        if cls == 'f32nan':
            return self.nan(32)
        if cls == 'f64nan':
            return self.nan(64)
        if cls == 'f32int':
            return self.int_like(32)
        if cls == 'f64int':
            return self.int_like(64)
        if cls == 'f16int':
            return self.f16()
        if cls == 'f32narrow':  # around the f16 and bf16 ranges
            if r.below(3):
                return self.f32()
            return (r.next() & 0x80000000) | (100 + r.below(45)) << 23 | (r.next() & 0x7fffff)
        if cls == 'f64narrow':  # around the f32 range
            if r.below(3):
                return self.f64()
            return (r.next() & 1 << 63) | (1023 - 150 + r.below(300)) << 52 | (r.next() & (1 << 52) - 1)
        raise ValueError(cls)


WIDTH_MASK = {'b16': 0xffff, 'b32': 0xffffffff, 'f32': 0xffffffff, 'b64': M64, 'f64': M64, 'pred': 1}


def vectors(form):
    """The form's operand vectors. The first ones walk each operand through
    its class's edge values: operand 0 takes edge j; every third vector the
    others take the same edge (x op x), every third the neighbouring one
    (x op -x), and otherwise one further along. The rest are random."""
    rng = Rng(SEED ^ zlib.crc32(form.name.encode()) << 20)
    vals = Values(rng)
    nedge = max([len(EDGES[c]) for _, c in form.srcs] + [0])
    out = []
    for j in range(VECTORS):
        vec = []
        for k, (reg, cls) in enumerate(form.srcs):
            e = EDGES[cls]
            if j < nedge:
                if k == 0 or j % 3 == 0:
                    i = j
                elif j % 3 == 1:
                    i = j ^ 1
                else:
                    i = j * (2 * k + 1) * 5 + 11 * k
                v = e[i % len(e)]
            else:
                v = vals.value(cls)
            vec.append(v & WIDTH_MASK[reg])
        out.append(vec)
    return out


# ---- output ------------------------------------------------------------------
def entry_name(text):
    return text.replace('.', '_').replace('-', '_')


def assign_names():
    seen = {}
    for f in FORMS:
        base = entry_name(f.name or f.text.split()[0])
        seen[base] = seen.get(base, 0) + 1
        f.name = base if seen[base] == 1 else f'{base}_{seen[base]}'


def instruction(form):
    names = {f's{k}': f'%s{k}' for k in range(IN_WORDS)}
    names.update({f'd{k}': f'%d{k}' for k in range(OUT_WORDS)})
    return ' '.join(x.format(**names) for x in (form.pre, form.text, form.post) if x)


def entry(form):
    body = [f'.visible .entry {form.name}(.param .u64 pin, .param .u64 pout, .param .u32 pn)', '{',
            '\t.reg .pred %p;', '\t.reg .b32 %i, %n, %t;', '\t.reg .b64 %a, %b, %o;']
    for k, (reg, _) in enumerate(form.srcs):
        body.append(f'\t.reg .{reg} %s{k};')
    for k, reg in enumerate(form.dsts):
        body.append(f'\t.reg .{reg} %d{k};')
    if '%cz' in form.pre:
        body.append(f'\t.reg .{form.srcs[-1][0]} %cz;')
    body += ['\tld.param.u64 %a, [pin];', '\tld.param.u64 %b, [pout];', '\tld.param.u32 %n, [pn];',
             '\tmov.u32 %i, %tid.x;', '\tsetp.ge.u32 %p, %i, %n;', '\t@%p bra DONE;',
             f'\tmul.wide.u32 %o, %i, {IN_WORDS * 8};', '\tadd.u64 %a, %a, %o;']
    if OUT_WORDS != IN_WORDS:
        body.append(f'\tmul.wide.u32 %o, %i, {OUT_WORDS * 8};')
    body.append('\tadd.u64 %b, %b, %o;')
    for k, (reg, _) in enumerate(form.srcs):
        if reg == 'pred':
            body += [f'\tld.global.u32 %t, [%a+{8 * k}];', f'\tsetp.ne.u32 %s{k}, %t, 0;']
        else:
            body.append(f'\tld.global.{reg} %s{k}, [%a+{8 * k}];')
    body.append('\t' + instruction(form))
    for k, reg in enumerate(form.dsts):
        if reg == 'pred':
            body += [f'\tselp.u32 %t, 1, 0, %d{k};', f'\tst.global.u32 [%b+{8 * k}], %t;']
        else:
            body.append(f'\tst.global.{reg} [%b+{8 * k}], %d{k};')
    body += ['DONE:', '\tret;', '}', '']
    return '\n'.join(body)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.normpath(
        os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'ptx', 'isa'))
    assign_names()
    for f in FORMS:
        assert len(f.srcs) <= IN_WORDS and len(f.dsts) <= OUT_WORDS, f.name
    os.makedirs(out, exist_ok=True)
    head = '// Generated by tools/ptx_isa_gen.py: one kernel per instruction form (tests/ptx/isa/README.md).\n'
    with open(os.path.join(out, 'forms.ptx'), 'w') as fp:
        # 8.2: the first version with lop3.or and lop3.and
        fp.write(head + '.version 8.2\n.target sm_90\n.address_size 64\n\n')
        for f in FORMS:
            fp.write(entry(f) + '\n')
    with open(os.path.join(out, 'inputs.txt'), 'w') as fp:
        fp.write(f'# Generated by tools/ptx_isa_gen.py: per form, {VECTORS} vectors of its operands in hex,\n'
                 '# vector after vector (the bits of each operand register, zero-extended).\n')
        for f in FORMS:
            words = [f'{v:x}' for vec in vectors(f) for v in vec]
            fp.write(' '.join([f.name] + words) + '\n')
    napprox = 0
    with open(os.path.join(out, 'forms.txt'), 'w') as fp:
        fp.write('# Generated by tools/ptx_isa_gen.py: entry, operands, results, class, instruction.\n'
                 '# exact: bitwise equal to the GPU\'s. approx FMT ulp=U [abs=A] [range=R]: the GPU\'s\n'
                 '# approximation, within the largest differences measured over these inputs (the\n'
                 '# tolerances: tools/ptx_isa_gen.py, tests/ptx/test_ptx_isa.c).\n')
        for f in FORMS:
            if f.approx:
                napprox += 1
                tol = APPROX.get(f.name, {'ulp': 0})
                cls = ' '.join([f'approx {f.approx}'] + [f'{k}={v}' for k, v in tol.items()])
            else:
                cls = 'exact'
            fp.write(f'{f.name} {len(f.srcs)} {len(f.dsts)} {cls} {instruction(f)}\n')
    print(f'{len(FORMS)} forms ({len(FORMS) - napprox} exact, {napprox} approximate) in {out}')


if __name__ == '__main__':
    main()
