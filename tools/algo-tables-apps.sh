#!/bin/sh
# Prints the markdown tables of docs/algorithms.md: the applications
# built on scan (the textbook compact-3phase, partition-3phase, radix-sort-3phase,
# pack-3phase) run by the simulator
# on i32 inputs, their counts beside the closed forms derived there.
#
#   tools/algo-tables-apps.sh [path/to/scanlab]    (default build/scanlab)
set -eu
scanlab=${1:-build/scanlab}

# sim ALGO N BLOCK: one simulate run, JSON kept in $json.
sim() {
    json=$("$scanlab" simulate --algo "$1" --n "$2" --block "$3" --json)
}
# val KEY: the first (top-level) value of KEY in $json.
val() {
    printf '%s' "$json" | grep -o "\"$1\":[0-9]*" | head -n 1 | cut -d: -f2
}
cdiv() { echo $((($1 + $2 - 1) / $2)); }
log2() {
    l=0
    while [ $((1 << l)) -lt "$1" ]; do l=$((l + 1)); done
    echo $l
}
# block_scan B: r rounds, S work, Bar barriers of one Kogge-Stone block scan.
block_scan() {
    r=$(log2 "$1")
    S=$((r * $1 - ((1 << r) - 1)))
    Bar=$((2 * r + 2))
}
# count_scan M B: work, steps, barriers of the one-block scan of M counts.
count_scan() {
    C=$(cdiv "$1" "$2")
    cs_work=$((C * S + $1 + C * $2))
    cs_steps=$((C * (r + 2)))
    cs_bar=$((C * Bar))
}
head_row() {
    echo "| n | block | work | closed form | steps | closed form | barriers | closed form | launches | global loads (sectors) | global stores (sectors) | wavefronts | bank conflicts | races |"
    echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
}
row() { # n block work_cf steps_cf barriers_cf
    echo "| $1 | $2 | $(val work) | $3 | $(val steps) | $4 | $(val barriers) | $5 | $(val launches) |" \
         "$(val global_load_elements) ($(val global_load_sectors)) | $(val global_store_elements) ($(val global_store_sectors)) |" \
         "$(val shared_wavefronts) | $(val bank_conflicts) | $(val races) |"
}

for algo in compact-3phase partition-3phase pack-3phase; do
    echo "### $algo"
    echo
    head_row
    for b in 256 64; do
        for n in 1000 4096 20000; do
            block_scan $b
            T=$(cdiv $n $b)
            count_scan $((T + 1)) $b
            sim $algo $n $b
            row $n $b $((2 * T * S + cs_work)) $((2 * r + cs_steps)) $((2 * T * Bar + cs_bar))
        done
    done
    echo
done

echo "### radix-sort-3phase (4-bit digits: 8 passes over i32 keys)"
echo
head_row
for b in 256 64; do
    for n in 1000 4096; do
        block_scan $b
        T=$(cdiv $n $b)
        R=16 G=4 P=8
        count_scan $((R * T + 1)) $b
        sim radix-sort-3phase $n $b
        row $n $b $((P * (2 * T * G * S + cs_work))) $((P * (2 * G * r + cs_steps))) \
            $((P * (2 * T * G * Bar + cs_bar)))
    done
done
echo
