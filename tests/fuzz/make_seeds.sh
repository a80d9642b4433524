#!/bin/sh
# Writes the seed corpus of the .npy fuzz target, tests/fuzz/corpus/npy/:
# the arrays scanlab writes (every element type; sizes 0, 1 and 7; a scan,
# a reduction and exact prefixes) and npy_variants.py's hand-made files.
#
#   sh tests/fuzz/make_seeds.sh [build]      (default build/, which must hold scanlab)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
scanlab=${1:-$root/build}/scanlab
out=$root/tests/fuzz/corpus/npy
mkdir -p "$out"
for t in i32 i64 f32 f64; do
    for n in 0 1 7; do
        "$scanlab" simulate --algo blelloch --type "$t" --n "$n" --seed 1 \
            --output "$out/scan_${t}_n$n.npy" >/dev/null
    done
done
"$scanlab" verify --input "$out/scan_f64_n7.npy" --algo reduce-sequential --backend seq --op add \
    --output "$out/reduce_f64.npy" >/dev/null
"$scanlab" accuracy --algo sequential --type f32 --n 5 --dist normal --inputs 1 --seed 3 \
    --output "$out/exact_f32.npy" >/dev/null
python3 "$root/tests/fuzz/npy_variants.py" "$out"
