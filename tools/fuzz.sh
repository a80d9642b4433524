#!/bin/bash
# Fuzzes each target of tests/fuzz with libFuzzer for a set time, one after
# another, and prints one line a target: executions, coverage, CPU time and
# crashes (docs/hardening.md).
#
#   tools/fuzz.sh [SECONDS [TARGET...]]     default: 600 seconds, every target (npy cli)
#
# Installs clang and libFuzzer's runtime when missing (Debian: clang,
# libclang-rt-dev), builds build-fuzz/ (clang, -Dfuzzing=true, AddressSanitizer,
# UndefinedBehaviorSanitizer and LeakSanitizer, CUDA off), then runs each
# target niced, in one process, from its seeds (tests/fuzz/corpus/T), its
# regression inputs (tests/fuzz/regressions/T) and the corpus that earlier
# runs grew (build-fuzz/corpus/T, kept). A failing input is written to
# build-fuzz/crashes/T/ and the script exits 1: add it to
# tests/fuzz/regressions/T/ with the fix, and the test suite replays it.
# The log of each run is build-fuzz/fuzz-T.log.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build-fuzz
seconds=${1:-600}
[ $# -gt 0 ] && shift
targets=${*:-npy cli}
case "$seconds" in
'' | *[!0-9]*)
    echo "usage: tools/fuzz.sh [SECONDS [TARGET...]] (targets: npy cli)" >&2
    exit 2
    ;;
esac

packages="clang libclang-rt-dev gcc libc6-dev meson ninja-build pkg-config python3 libmpfr-dev libgmp-dev"
missing=""
for p in $packages; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
if [ -n "$missing" ]; then
    sudo=""
    [ "$(id -u)" != 0 ] && sudo=sudo
    echo "fuzz: installing$missing" >&2
    $sudo apt-get update
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends $missing
fi

if [ ! -f "$build/build.ninja" ]; then
    CC=clang meson setup "$build" "$root" -Dfuzzing=true -Dcuda=disabled -Dbuildtype=debugoptimized \
        -Db_sanitize=address,undefined -Db_lundef=false >/dev/null
fi
ninja -C "$build" scanlab $(for t in $targets; do echo "tests/fuzz/fuzz_$t"; done) >/dev/null

# The command-line target's dictionary, from the commands' own help: every
# option, algorithm and value word, so that a new option is in it at once.
"$build/scanlab" --help | sed -n 's/^  \([a-z][a-z]*\) .*/\1/p' >"$build/commands.txt"
{
    while read -r c; do
        echo "$c"
        "$build/scanlab" "$c" --help
    done <"$build/commands.txt"
    "$build/scanlab" list | sed -n 's/^\([a-z][a-z0-9-]*\)  .*/\1/p'
} | grep -o -E -- '--?[a-z][a-z-]*|\b[a-z][a-z0-9-]+\b|[0-9]+(\^[0-9]+)?|\.\.' |
    sort -u | sed 's/.*/"&"/' >"$build/cli.dict"

export ASAN_OPTIONS=detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
status=0
for t in $targets; do
    exe=$build/tests/fuzz/fuzz_$t
    corpus=$build/corpus/$t
    crashes=$build/crashes/$t
    log=$build/fuzz-$t.log
    mkdir -p "$corpus" "$crashes"
    dict=$build/cli.dict
    [ "$t" = npy ] && dict=$root/tests/fuzz/npy.dict
    inputs=("$root/tests/fuzz/corpus/$t")
    [ -d "$root/tests/fuzz/regressions/$t" ] && inputs+=("$root/tests/fuzz/regressions/$t")
    echo "fuzz: $t for $seconds s ($(date -u +%Y-%m-%dT%H:%MZ)), log $log" >&2
    touch "$build/fuzz-$t.start"
    TIMEFORMAT="%U %S"
    # libFuzzer's -timeout and slow units are wall-clock: niced on a busy
    # machine, an input of 1 ms has waited 25 s for a core. An input runs in
    # milliseconds; 300 s still finds a hang.
    cpu=$( { time nice -n 19 "$exe" -max_total_time="$seconds" -timeout=300 -report_slow_units=60 \
        -print_final_stats=1 \
        -dict="$dict" -artifact_prefix="$crashes/" "$corpus" "${inputs[@]}" >"$log" 2>&1; } 2>&1 ) || true
    read -r user sys <<<"$cpu"
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    cov=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -1)
    # crash-, leak-, timeout- and oom- inputs fail; a slow-unit- one (over
    # 60 s once) is kept there but only reported: a busy machine makes them
    found=$(find "$crashes" -type f -newer "$build/fuzz-$t.start" \( -name 'crash-*' -o \
        -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
    slow=$(find "$crashes" -type f -newer "$build/fuzz-$t.start" -name 'slow-unit-*' | wc -l)
    printf 'fuzz: %s: %s executions, %s, corpus %s inputs, %.0f CPU seconds, %s failing input(s)%s\n' \
        "$t" "${runs:-?}" "${cov:-cov: ?}" "$(find "$corpus" -type f | wc -l)" \
        "$(awk "BEGIN { print $user + $sys }")" "$found" "$([ "$found" = 0 ] || echo " in $crashes")"
    [ "$slow" = 0 ] || echo "fuzz: $t: $slow input(s) once slower than 60 s, in $crashes (slow-unit-*)"
    [ "$found" = 0 ] || status=1
done
exit $status
