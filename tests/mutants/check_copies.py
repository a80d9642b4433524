#!/usr/bin/env python3
"""The mutants' copies of catalogue files stay copies.

Five files of tests/mutants are the catalogue's own device code with
mutation points added, so that a planted bug changes nothing in the
catalogue. Each must equal its original once the mutation points are taken
out (`#if defined(MUT_...)` keeps its `#else` branch, `#if !defined(MUT_...)`
its body), its own header paragraph is dropped, include guards are ignored
and trailing comments after code are ignored. A change to the catalogue
file that is not carried into its copy fails here, with the difference.

    check_copies.py SOURCE_ROOT
"""
import difflib
import re
import sys

COPIES = [
    ("tests/mutants/tile_scan_copy.cuh", "cuda/device/tile_scan.cuh"),
    ("tests/mutants/sp_status.cuh", "cuda/device/tile_status.cuh"),
    ("tests/mutants/sp_driver.cuh", "cuda/device/single_pass.cuh"),
    ("tests/mutants/app_scan_copy.cuh", "cuda/apps/app_scan.cuh"),
    ("tests/mutants/sel_family.cuh", "cuda/apps/select_pass.cuh"),
]

GUARD = re.compile(r"^\s*(#ifndef \w+_H|#define \w+_H|#endif /\* \w+_H \*/)\s*$")
TRAILING = re.compile(r"^(\s*\S.*?;)\s*/\*.*\*/\s*$")


def without_mutations(lines):
    out, state = [], None
    for line in lines:
        if re.match(r"\s*#if defined\(MUT_", line):
            state = "mutant"
            continue
        if re.match(r"\s*#if !defined\(MUT_", line):
            state = "kept"
            continue
        if state == "mutant" and re.match(r"\s*#else", line):
            state = "original"
            continue
        if state and re.match(r"\s*#endif", line):
            state = None
            continue
        if state == "mutant":
            continue
        out.append(line)
    return out


def normal(lines):
    return [TRAILING.sub(r"\1", l.rstrip()) for l in lines if not GUARD.match(l)]


def main():
    root = sys.argv[1]
    bad = 0
    for copy, orig in COPIES:
        c = open(f"{root}/{copy}").read().splitlines()
        o = open(f"{root}/{orig}").read().splitlines()
        # the copy's header paragraph ends where the original's first line starts
        first = o[0].replace("/*", " *", 1)
        if first not in c:
            print(f"{copy}: does not contain the first line of {orig}")
            bad += 1
            continue
        c = [o[0]] + c[c.index(first) + 1:]
        a, b = normal(without_mutations(c)), normal(o)
        if a != b:
            bad += 1
            print(f"{copy} differs from {orig} (besides its mutation points):")
            sys.stdout.writelines(l + "\n" for l in difflib.unified_diff(b, a, orig, copy, lineterm="", n=1))
    print(f"{len(COPIES) - bad} of {len(COPIES)} copies match their originals")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
