#!/bin/sh
# Prints the markdown tables of docs/algorithms.md: every block-level
# scan of cuda/block/ run by the simulator on one section (one block, so the
# hierarchy has one level), its counts beside the closed forms.
#
#   tools/algo-tables-block.sh [path/to/scanlab]    (default build/scanlab)
set -eu
scanlab=${1:-build/scanlab}

# sim ALGO N BLOCK [--exclusive]: one simulate run, JSON kept in $json.
sim() {
    json=$("$scanlab" simulate --algo "$1" --n "$2" --block "$3" ${4:-} --json)
}
# val KEY: the first (top-level) value of KEY in $json.
val() {
    printf '%s' "$json" | grep -o "\"$1\":[0-9]*" | head -n 1 | cut -d: -f2
}
log2() {
    l=0
    while [ $((1 << l)) -lt "$1" ]; do l=$((l + 1)); done
    echo $l
}
row() { # n block work work_cf steps steps_cf
    echo "| $1 | $2 | $3 | $4 | $5 | $6 | $(val barriers) | $(val shared_accesses) | $(val shared_wavefronts) | $(val bank_conflicts) | $(val races) |"
}
head_row() {
    echo "| n | block | work | closed form | steps | closed form | barriers | shared accesses | wavefronts | bank conflicts | races |"
    echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
}

for algo in kogge-stone kogge-stone-db; do
    echo "### $algo (one block of n threads; n log2 n - (n - 1), log2 n)"
    echo
    head_row
    for k in 5 6 7 8 9 10; do
        n=$((1 << k))
        sim $algo $n $n
        row $n $n "$(val work)" $((n * k - n + 1)) "$(val steps)" $k
    done
    echo
done

for algo in blelloch blelloch-cf; do
    for ex in --exclusive ""; do
        echo "### $algo ${ex:-(inclusive)} (n/2 threads; 2(n - 1), 2 log2 n)"
        echo
        head_row
        for k in 5 6 7 8 9 10 11; do
            n=$((1 << k))
            sim $algo $n $((n / 2)) $ex
            row $n $((n / 2)) "$(val work)" $((2 * n - 2)) "$(val steps)" $((2 * k))
        done
        echo
    done
done

echo "### brent-kung-levels (n/2 threads; 2n - 2 - log2 n, 2 log2 n - 1)"
echo
head_row
for k in 5 6 7 8 9 10 11; do
    n=$((1 << k))
    sim brent-kung-levels $n $((n / 2))
    row $n $((n / 2)) "$(val work)" $((2 * n - 2 - k)) "$(val steps)" $((2 * k - 1))
done
echo

echo "### brent-kung-radix, k = 4 (S = 4^M, one section; 2S - 1 - k - (k-1)(M-1), (2M-1)(k-1))"
echo
head_row
for m in 3 4 5; do
    s=$((1 << (2 * m)))
    sim brent-kung-radix $s $((s / 4))
    row $s $((s / 4)) "$(val work)" $((2 * s - 1 - 4 - 3 * (m - 1))) "$(val steps)" $(((2 * m - 1) * 3))
done
echo

echo "### sengupta, p = 2 (S = 4B; 2(S - B) - p + B log2 B - (B - 1), 2(2^p - 1) + log2 B)"
echo
head_row
for b in 32 64 128 256; do
    s=$((4 * b))
    lb=$(log2 $b)
    sim sengupta $s $b
    row $s $b "$(val work)" $((2 * (s - b) - 2 + b * lb - b + 1)) "$(val steps)" $((6 + lb))
done
echo

echo "### coarsened, C = 8 (tile 8B; B(C-1) + B log2 B - (B-1) + (B-1)(C-1), 2(C-1) + log2 B)"
echo
head_row
for b in 32 64 128 256; do
    s=$((8 * b))
    lb=$(log2 $b)
    sim coarsened $s $b
    row $s $b "$(val work)" $((b * 7 + b * lb - b + 1 + (b - 1) * 7)) "$(val steps)" $((14 + lb))
done
echo

echo "### warp-shfl (one block of n threads, n a multiple of 32; W = n/32, L = log2 W;"
echo "### 129 W + 32 L - (2^L - 1) + n - 32, 5 + L + 1)"
echo
head_row
for k in 5 6 7 8 9 10; do
    n=$((1 << k))
    w=$((n / 32))
    l=$(log2 $w)
    sim warp-shfl $n $n
    st=$((5 + l + 1))
    [ $w -eq 1 ] && st=5
    row $n $n "$(val work)" $((129 * w + 32 * l - (1 << l) + 1 + n - 32)) "$(val steps)" $st
done
