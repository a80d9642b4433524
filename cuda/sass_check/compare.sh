#!/bin/sh
# Compares the SASS of the dialect's Brent-Kung kernel with its hand-written
# twin: instruction counts and the opcode sequences. Needs nvcc and
# cuobjdump (CUDA toolkit); no GPU. Usage: ./compare.sh [sm arch, default 90]
set -eu
arch=${1:-90}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for k in dialect:bk_scan_i32_add_cuda handwritten:bk_scan_hand; do
    file=${k%%:*} fun=${k#*:}
    nvcc -arch=sm_$arch -cubin -std=c++17 -I"$root" -o "$tmp/$file.cubin" "$here/$file.cu"
    # the kernel's section of the dump (internal-linkage names are mangled:
    # match the plain name), instruction lines only, opcode only
    cuobjdump -sass "$tmp/$file.cubin" |
        awk -v f="$fun" '/Function :/ { on = index($0, f) > 0 } on' |
        grep -E '^\s+/\*[0-9a-f]{4}\*/' |
        sed -E 's#^\s+/\*[0-9a-f]{4}\*/\s+##; s#\s*;.*##; s#^(@!?U?P[0-9T]+\s+)?([A-Z0-9_.]+).*#\2#' > "$tmp/$file.ops"
    echo "$file ($fun): $(wc -l < "$tmp/$file.ops") instructions"
done
if diff "$tmp/dialect.ops" "$tmp/handwritten.ops" > "$tmp/diff"; then
    echo "same opcode sequence"
else
    echo "opcode sequences differ:"
    cat "$tmp/diff"
    exit 1
fi
