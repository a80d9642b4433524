#!/usr/bin/env python3
"""Writes the hand-made seeds of the .npy fuzz target into the folder given:
every path of the header parser (versions, key orders, quotes, shapes,
dtypes, Fortran order), sizes at the edges, truncated and trailing data,
and bytes that are not UTF-8. The arrays the project itself writes come
from tests/fuzz/make_seeds.sh."""
import os
import struct
import sys

MAGIC = b"\x93NUMPY"


def npy(header, data=b"", version=(1, 0), hlen=None, pad=True):
    """A .npy file: header text (a str or bytes) padded as NumPy pads it."""
    h = header.encode("latin-1") if isinstance(header, str) else header
    pre = 10 if version[0] == 1 else 12
    if pad:
        total = pre + len(h) + 1
        h = h + b" " * (-total % 64) + b"\n"
    n = len(h) if hlen is None else hlen
    length = struct.pack("<H", n) if version[0] == 1 else struct.pack("<I", n)
    return MAGIC + bytes(version) + length + h + data


def d(descr, shape, fortran="False"):
    return "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (descr, fortran, shape)


I32 = struct.pack("<3i", 1, -2, 3)
seeds = {
    # versions and header lengths
    "v2_i32.npy": npy(d("<i4", "(3,)"), I32, version=(2, 0)),
    "v3_i32.npy": npy(d("<i4", "(3,)"), I32, version=(3, 0)),
    "v1_1.npy": npy(d("<i4", "(3,)"), I32, version=(1, 1)),
    "v4_0.npy": npy(d("<i4", "(3,)"), I32, version=(4, 0)),
    "hlen_short.npy": npy(d("<i4", "(3,)"), I32, hlen=20),
    "hlen_huge_v2.npy": npy(d("<i4", "(3,)"), I32, version=(2, 0), hlen=0x7FFFFFFF),
    "no_newline.npy": npy(d("<i4", "(3,)") + "  ", I32, pad=False),
    "nul_in_header.npy": npy(d("<i4", "(3,)").replace(" ", "\0", 1), I32),
    "bad_magic.npy": b"\x93NUMPZ\x01\x00" + npy(d("<i4", "(3,)"), I32)[8:],
    "magic_only.npy": MAGIC,
    "empty_header.npy": MAGIC + b"\x01\x00\x00\x00",
    # the dict: order, quotes, spacing, keys
    "keys_reordered.npy": npy("{'shape': (3,), 'fortran_order': False, 'descr': '<i4'}", I32),
    "double_quotes.npy": npy('{"descr": "<i4", "fortran_order": False, "shape": (3,)}', I32),
    "no_trailing_comma.npy": npy("{'descr':'<i4','fortran_order':False,'shape':(3,)}", I32),
    "tabs.npy": npy("{\t'descr' :\t'<i4' ,\r'fortran_order': False , 'shape' : ( 3 , ) }", I32),
    "extra_key.npy": npy("{'descr': '<i4', 'fortran_order': False, 'shape': (3,), 'x': 1}", I32),
    "repeated_key.npy": npy("{'descr': '<i4', 'descr': '<i4', 'fortran_order': False, 'shape': (3,)}", I32),
    "missing_shape.npy": npy("{'descr': '<i4', 'fortran_order': False}", I32),
    "text_after.npy": npy(d("<i4", "(3,)") + " x", I32),
    "escape_in_key.npy": npy("{'de\\scr': '<i4', 'fortran_order': False, 'shape': (3,)}", I32),
    "structured_descr.npy": npy("{'descr': [('a', '<i4')], 'fortran_order': False, 'shape': (3,)}", I32),
    "fortran_word.npy": npy(d("<i4", "(3,)", "Falsey"), I32),
    # not UTF-8, in a key and in the dtype
    "latin1_key.npy": npy(b"{'descr\xe9': '<i4', 'fortran_order': False, 'shape': (3,)}", I32),
    "invalid_utf8_descr.npy": npy(b"{'descr': '<\xff\xfe4', 'fortran_order': False, 'shape': (3,)}", I32),
    "newline_in_descr.npy": npy("{'descr': '<\ni4', 'fortran_order': False, 'shape': (3,)}", I32),
    # dtypes the reader refuses
    "big_endian.npy": npy(d(">i4", "(3,)"), struct.pack(">3i", 1, -2, 3)),
    "u1.npy": npy(d("|u1", "(3,)"), b"\x01\x02\x03"),
    "b1.npy": npy(d("|b1", "(3,)"), b"\x01\x00\x01"),
    "f2.npy": npy(d("<f2", "(2,)"), b"\x00\x3c\x00\x40"),
    "c8.npy": npy(d("<c8", "(1,)"), struct.pack("<2f", 1, 2)),
    "u4.npy": npy(d("<U3", "(1,)"), "abc".encode("utf-32-le")),
    "native_i4.npy": npy(d("=i4", "(3,)"), I32),
    # shapes
    "scalar.npy": npy(d("<i4", "()"), I32[:4]),
    "shape_no_comma.npy": npy(d("<i4", "(3)"), I32),
    "shape_2d.npy": npy(d("<i4", "(1, 3)"), I32),
    "shape_2d_fortran.npy": npy(d("<f8", "(2, 2)", "True"), struct.pack("<4d", 1, 2, 3, 4)),
    "fortran_1d.npy": npy(d("<i4", "(3,)", "True"), I32),
    "shape_8d.npy": npy(d("<i4", "(1, 1, 1, 1, 1, 1, 1, 3)"), I32),
    "shape_9d.npy": npy(d("<i4", "(1, 1, 1, 1, 1, 1, 1, 1, 3)"), I32),
    "shape_negative.npy": npy(d("<i4", "(-3,)"), I32),
    "huge_2e61.npy": npy(d("<i8", "(2305843009213693952,)"), I32),
    "huge_u64max.npy": npy(d("<f8", "(18446744073709551615,)"), I32),
    "huge_overflow.npy": npy(d("<i4", "(99999999999999999999999,)"), I32),
    "huge_product.npy": npy(d("<i4", "(4294967296, 4294967296)"), I32),
    # data
    "truncated_data.npy": npy(d("<i8", "(3,)"), struct.pack("<2q", 1, 2)),
    "trailing_data.npy": npy(d("<i4", "(2,)"), I32),
    "partial_element.npy": npy(d("<f4", "(1,)"), b"\x00\x00"),
    # raw files (no magic): read as raw elements of a given type
    "raw_12_bytes.bin": I32,
    "raw_7_bytes.bin": b"\x01\x02\x03\x04\x05\x06\x07",
    "raw_nan_inf.bin": struct.pack("<4d", float("nan"), float("inf"), -float("inf"), -0.0),
}

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
for name, data in seeds.items():
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)
