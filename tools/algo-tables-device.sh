#!/bin/sh
# Prints the markdown tables of docs/algorithms.md: the device-level
# scans of cuda/device/ and the reductions of cuda/reduce/ run by the
# simulator, global element traffic beside the closed forms, and the
# divergence of the reduction trees per call site.
#
#   tools/algo-tables-device.sh [path/to/scanlab]    (default build/scanlab)
set -eu
scanlab=${1:-build/scanlab}

# sim ALGO N BLOCK [more options]: one simulate run, JSON kept in $json.
sim() {
    a=$1 n=$2 b=$3
    shift 3
    json=$("$scanlab" simulate --algo "$a" --n "$n" --block "$b" "$@" --json)
}
# val KEY: the first (top-level) value of KEY in $json.
val() {
    printf '%s' "$json" | grep -o "\"$1\":[0-9]*" | head -n 1 | cut -d: -f2
}
tiles() { echo $((($1 + $2 - 1) / $2)); }

# Closed forms of the element traffic (inclusive, i32), level by level, for
# tiles of S elements (the device-level scans) or blocks of S (reductions).
hier_cf() { # n S -> "loads stores"
    m=$1 l=0 s=0
    while [ "$m" -gt "$2" ]; do
        t=$(tiles "$m" "$2")
        l=$((l + m + (m - $2) + (t - 1)))
        s=$((s + m + t + (m - $2)))
        m=$t
    done
    echo "$((l + m)) $((s + m))"
}
rts_cf() {
    m=$1 l=0 s=0
    while [ "$m" -gt "$2" ]; do
        t=$(tiles "$m" "$2")
        l=$((l + 2 * m + (t - 1)))
        s=$((s + m + t))
        m=$t
    done
    echo "$((l + m)) $((s + m))"
}
reduce_cf() {
    m=$1 l=0 s=0
    while :; do
        t=$(tiles "$m" "$2")
        l=$((l + m))
        s=$((s + t))
        [ "$t" -eq 1 ] && break
        m=$t
    done
    echo "$l $s"
}

head_row() {
    echo "| n | $1 | launches | blocks | loads | closed form | stores | closed form | (loads + stores) / n | work | steps | barriers | races |"
    echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
}
row() { # n layout loads_cf stores_cf
    ld=$(val global_load_elements)
    stv=$(val global_store_elements)
    ratio=$(awk -v a="$ld" -v b="$stv" -v n="$1" 'BEGIN { printf "%.3f", (a + b) / n }')
    echo "| $1 | $2 | $(val launches) | $(val blocks) | $ld | $3 | $stv | $4 | $ratio | $(val work) | $(val steps) | $(val barriers) | $(val races) |"
}

sizes="4096 70001 1048576"
# tile layouts "B I" of the device-level scans: B threads x I items (the
# default for i32 is 128 x 24)
layouts="32:1 96:5 128:24"
blocks="32 256 1024"

emit() { # title algo cf-function: over the tile layouts
    echo "#### $1"
    echo
    head_row "B x I"
    for n in $sizes; do
        for lay in $layouts; do
            b=${lay%:*} i=${lay#*:}
            sim "$2" "$n" "$b" --param "$i"
            cf=$($3 "$n" $((b * i)))
            row "$n" "$b x $i" "${cf% *}" "${cf#* }"
        done
    done
    echo
}
emit_blocks() { # title algo cf-function: over the block sizes (reductions)
    echo "#### $1"
    echo
    head_row "block"
    for n in $sizes; do
        for b in $blocks; do
            sim "$2" "$n" "$b"
            cf=$($3 "$n" "$b")
            row "$n" "$b" "${cf% *}" "${cf#* }"
        done
    done
    echo
}

two_level_cf() { # n S: C = min(8, tiles) ranges of R tiles in the simulator
    t=$(tiles "$1" "$2")
    c=8
    [ "$t" -lt "$c" ] && c=$t
    r=$(tiles "$t" "$c")
    c=$(tiles "$t" "$r")
    if [ "$c" -gt 1 ]; then echo "$((2 * $1 + 2 * c - 1)) $(($1 + 2 * c))"; else echo "$1 $1"; fi
}
two_level_emit() { # C = 8, tiles of B x 24
    echo "#### two-level, C = 8, tiles of B x 24 (2n + 2C - 1 loads, n + 2C stores)"
    echo
    head_row "B x I"
    for n in $sizes; do
        for b in 32 128 256; do
            sim two-level "$n" "$b"
            cf=$(two_level_cf "$n" $((b * 24)))
            row "$n" "$b x 24" "${cf% *}" "${cf#* }"
        done
    done
    echo
}
# Single pass: stores exact; loads at least n + the tickets (T: one block
# per tile, each draws one) + one round of polls over the words each tile
# needs.
polls() { # T kind -> the fewest polls
    awk -v t="$1" -v k="$2" 'BEGIN {
        p = 0
        for (i = 0; i < t; i++) {
            if (k == "lookback") p += (i < 32 ? i : 32)
            else if (k == "det") { j = int(i / 32); p += i % 32 + (j < 32 ? j : 32) }
            else p += (i > 0)
        }
        print p }'
}
chained_cf() { t=$(tiles "$1" "$2"); echo ">=$(($1 + $(polls "$t" chained))) $(($1 + t))"; }
ticket_cf() { t=$(tiles "$1" "$2"); echo ">=$(($1 + $(polls "$t" chained) + t)) $(($1 + t + 1))"; }
lookback_cf() { t=$(tiles "$1" "$2"); echo ">=$(($1 + $(polls "$t" lookback) + t)) $(($1 + 2 * t))"; }
det_cf() { t=$(tiles "$1" "$2"); echo ">=$(($1 + $(polls "$t" det) + t)) $(($1 + t + 2 * (t / 32) + 1))"; }

emit "hierarchical (L(n) = n + L(T) + (n - S) + (T - 1), S(n) = n + T + S(T) + (n - S))" hierarchical hier_cf
emit "reduce-then-scan (L(n) = 2n + (T - 1) + L(T), S(n) = n + T + S(T))" reduce-then-scan rts_cf
two_level_emit
emit "chained-static (n + T stores; loads n + one poll per wait at least)" chained-static chained_cf
emit "chained-ticket (n + T + 1 stores; loads n + polls + T tickets at least)" chained-ticket ticket_cf
emit "lookback (n + 2T stores: A and P per tile, P only for tile 0, the next run's ticket counter)" lookback lookback_cf
emit "lookback-det (n + T + 2 floor(T/32) + 1 stores: A per tile, A and P per full window, the counter)" lookback-det det_cf
emit_blocks "reduce-interleaved (loads n + T1 + T2 + ..., stores T1 + T2 + ... + 1)" reduce-interleaved reduce_cf
emit_blocks "reduce-contiguous (as above)" reduce-contiguous reduce_cf
emit_blocks "reduce-shfl (as above)" reduce-shfl reduce_cf

echo "#### Inter-block progress (n = 2048, tiles of 32 x 1: 64 tiles; 4 residency slots)"
echo
echo "| algorithm | dispatch order | status | deadlocks |"
echo "| --- | --- | --- | ---: |"
for algo in chained-static chained-ticket lookback lookback-det; do
    for order in in reversed random; do
        json=$("$scanlab" simulate --algo $algo --n 2048 --block 32 --param 1 --slots 4 --order $order --seed 5 --json 2>/dev/null || true)
        st=$(printf '%s' "$json" | grep -o '"status":"[^"]*"' | head -n 1 | cut -d'"' -f4)
        echo "| $algo | $order | $st | $(val deadlocks) |"
    done
done
echo

echo "#### Divergence of the reduction trees (one block of 1024 threads, the tree loop's shared store)"
echo
echo "| algorithm | warp issues | divergent issues | shared wavefronts | bank conflicts |"
echo "| --- | ---: | ---: | ---: | ---: |"
for algo in reduce-interleaved reduce-contiguous; do
    sim $algo 1024 1024
    # the sites, one per line; the shared ST with divergent issues is the loop's
    site=$(printf '%s' "$json" | sed 's/},{/}\n{/g' | grep '"what":"ST"' | grep -v '"shared_accesses":0' |
        grep -v '"divergent_issues":0,' | head -n 1)
    json=$site
    echo "| $algo | $(val warp_issues) | $(val divergent_issues) | $(val shared_wavefronts) | $(val bank_conflicts) |"
done
