#!/bin/bash
# The simulator's counts held against the GPU's own (docs/model-fidelity.md).
# Run on a GPU host with Nsight Compute (tools/gpu-check.sh fidelity does):
#
#   tools/fidelity.sh BUILD OUT
#
# BUILD is a CUDA build (meson -Dcuda=enabled); results go to OUT:
#   fidelity-<gpu>.json     one row per launch and metric, predicted beside
#                           measured: copy it to docs/data/, then run
#                           tools/fidelity_doc.py to regenerate the page
#   fidelity-device.txt     the time model's constants, measured here
#   fidelity-device.def     the same as a line for model/devices.def
#   fidelity.log            what ran, how long, what failed
#   fidelity-work.tar.gz    cases, simulator output, Nsight Compute CSV and
#                           logs, the SASS of the compared kernels
#
# The same launches run in the simulator (tools/fidelity_run sim) and on the
# GPU under ncu (tools/fidelity_run cuda): every block-level scan, device-level
# scan and reduction of cuda/kernels.def, i32 and i64 add, at FIDELITY_SIZES
# with the default block and at 65536 with block FIDELITY_BLOCK too; then the
# scans' times at 2^24 and 2^28. Every ncu run is bounded by `timeout` and by
# FIDELITY_BUDGET seconds (default 200) for the whole stage; a failed one
# leaves its log in the work archive and its launches out of the table
# (fidelity.log names them); the times run first, then the counters one
# algorithm at a time while the budget lasts.
#
# Without a GPU, after a change to the simulator that changes which
# launches it makes (grids, launch counts):
#
#   tools/fidelity.sh --rejoin BUILD ARCHIVE [DOC]
#
# runs every case of a GPU run's work archive (fidelity-work.tar.gz) in the
# simulator again and joins it with that run's Nsight Compute logs into DOC
# (default docs/data/fidelity-h100.json), whose date and command stay the
# run's; the document says when it was joined again ("rejoined").
#
# Without a GPU, after a change to the simulator's counting:
#
#   tools/fidelity.sh --repredict BUILD [DOC]
#
# runs DOC's launches (default docs/data/fidelity-h100.json) in the
# simulator again and replaces its predicted counts and times (with DOC's
# own device constants), keeping what the GPU measured; the document says
# when and how ("repredicted"). Then run tools/fidelity_doc.py. A DOC
# recorded before one of the constants the time model reads has no value
# for it and is refused (exit 2, the constant named).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# sim_shards BUILD CASES DEVICE DIR: the cases (one a line) in the
# simulator, one process per core, each case's launches (and their scaled
# records) into DIR/sim.jsonl; exits on a failed shard.
sim_shards() {
    local build=$1 cases=$2 device=$3 dir=$4 shard pid pids=()
    mkdir -p "$dir"
    grep -v '^$' "$cases" | sort -k3,3nr | awk -v k="$(nproc)" -v w="$dir" '{ print > (w "/shard" (NR % k) ".txt") }'
    for shard in "$dir"/shard*.txt; do
        "$build/tools/fidelity_run" sim "$shard" "$device" "${FIDELITY_TIME_SCALE:-16}" \
            >"${shard%.txt}.jsonl" 2>"${shard%.txt}.err" &
        pids+=($!)
    done
    for pid in "${pids[@]}"; do
        wait "$pid" || { cat "$dir"/shard*.err >&2; echo "fidelity: a simulator shard failed" >&2; exit 1; }
    done
    cat "$dir"/shard*.jsonl >"$dir/sim.jsonl"
}
# usage_of MODE BUILD FILE...: bad input to the modes without a GPU is
# said in one line, with exit status 2
usage_of() {
    local mode=$1 build=$2 f
    shift 2
    if [ -z "$build" ] || [ ! -x "$build/tools/fidelity_run" ]; then
        echo "fidelity: $mode: '$build' is not a build with tools/fidelity_run" >&2
        exit 2
    fi
    for f in "$@"; do
        [ -r "$f" ] || { echo "fidelity: $mode: cannot read '$f'" >&2; exit 2; }
    done
}
if [ "${1:-}" = --rejoin ]; then
    [ $# -ge 3 ] && [ $# -le 4 ] || { echo "usage: tools/fidelity.sh --rejoin BUILD ARCHIVE [DOC]" >&2; exit 2; }
    archive=$3
    doc=${4:-$root/docs/data/fidelity-h100.json}
    usage_of --rejoin "$2" "$archive" "$doc"
    build=$(cd "$2" && pwd)
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    tar -xzf "$archive" -C "$work" || { echo "fidelity: --rejoin: $archive is not a work archive" >&2; exit 2; }
    for f in cases ncu device.txt sass.json; do
        [ -e "$work/$f" ] || { echo "fidelity: --rejoin: $archive has no $f (not a fidelity work archive)" >&2; exit 2; }
    done
    # the time pass's scaled cases are printed by the runs of its own cases
    cat $(ls "$work"/cases/*.txt | grep -v '/time-scaled\.txt$') >"$work/all-cases.txt"
    sim_shards "$build" "$work/all-cases.txt" "$work/device.txt" "$work/rejoin"
    python3 "$root/tools/fidelity_join.py" join --sim "$work/rejoin/sim.jsonl" --ncu "$work/ncu" \
        --cases "$work/cases" --device "$work/device.txt" --sass "$work/sass.json" \
        --scale "${FIDELITY_TIME_SCALE:-16}" --rejoin-of "$doc" >"$work/doc.json" || exit 1
    mv "$work/doc.json" "$doc"
    echo "fidelity: $doc joined again from $archive ($(grep -c '"metric"' "$doc") rows)"
    exit 0
fi
if [ "${1:-}" = --repredict ]; then
    [ $# -ge 2 ] && [ $# -le 3 ] || { echo "usage: tools/fidelity.sh --repredict BUILD [DOC]" >&2; exit 2; }
    build=$2
    doc=${3:-$root/docs/data/fidelity-h100.json}
    usage_of --repredict "$build" "$doc"
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    python3 "$root/tools/fidelity_join.py" cases "$doc" >"$work/cases.txt" || exit 1
    # the device constants of the run the document holds
    python3 "$root/tools/fidelity_join.py" constants "$doc" >"$work/device.txt" || exit 2
    sim_shards "$build" "$work/cases.txt" "$work/device.txt" "$work/sim"
    python3 "$root/tools/fidelity_join.py" repredict --doc "$doc" --sim "$work/sim/sim.jsonl" \
        --command "tools/fidelity.sh --repredict" >"$work/doc.json" || exit 1
    mv "$work/doc.json" "$doc"
    echo "fidelity: predicted counts and times of $doc made again ($(grep -o '"changed": [0-9]*' "$doc"))"
    exit 0
fi
build=${1:?usage: tools/fidelity.sh BUILD OUT}
out=${2:?usage: tools/fidelity.sh BUILD OUT}
build=$(cd "$build" && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)

sizes=${FIDELITY_SIZES:-2048 65536 1048576}
types=${FIDELITY_TYPES:-i32 i64}
extra_block=${FIDELITY_BLOCK:-128}
time_sizes=${FIDELITY_TIME_SIZES:-16777216}
time_scale=${FIDELITY_TIME_SCALE:-16}
budget=${FIDELITY_BUDGET:-200}
only=${FIDELITY_ALGOS:-} # a space-separated subset of the algorithms (default: all)
metrics=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
# the same wavefronts attributed to the kernel's shared instructions (the
# l1tex counters also count what other traffic cost them)
metrics+=,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
metrics+=,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum
metrics+=,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
metrics+=,smsp__sass_branch_targets_threads_divergent.sum,gpu__time_duration.sum

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
log=$out/fidelity.log
: >"$log"
t_start=$SECONDS
status=0
say() { echo "[$((SECONDS - t_start))s] $*" | tee -a "$log"; }
left() { echo $((budget - (SECONDS - t_start))); }
run=$build/tools/fidelity_run
ubench=$build/tools/fidelity_ubench
python=$(command -v python3)
for x in "$run" "$ubench" "$python"; do
    [ -x "$x" ] || { say "missing $x (a CUDA build of scanlab, and python3, are needed)"; exit 2; }
done
command -v ncu >/dev/null || { say "ncu (Nsight Compute) not found"; exit 2; }

# --- the launch set, from cuda/kernels.def ------------------------------------
. "$root/tools/catalogue.sh"
catalogue_kernels "$root" "$build" >"$work/catalogue.txt" || { say "scanlab list failed"; exit 1; }
mkdir -p "$work/cases"
scans=""
while read -r kind algo p both; do
    # only what this build runs on both backends
    [ "$both" = yes ] || { say "skip $algo: not sim,cuda in this build"; continue; }
    if [ -n "$only" ] && ! echo " $only " | grep -q " $algo "; then continue; fi
    for t in $types; do
        for n in $sizes; do echo "$algo $t $n 0 $p"; done
    done >"$work/cases/$algo.txt"
    echo "$algo i32 65536 $extra_block $p" >>"$work/cases/$algo.txt"
    if [ "$kind" = SCAN ]; then
        scans+=" $algo"
        for n in $time_sizes; do echo "$algo i32 $n 0 $p"; done >>"$work/cases/time.txt"
    fi
done <"$work/catalogue.txt"
say "launch set: $(cat "$work"/cases/*.txt | wc -l) cases over $(ls "$work/cases" | grep -vc time) algorithms"

# --- device constants -----------------------------------------------------------
measured="$(date -u +%Y-%m-%d), tools/gpu-check.sh fidelity"
if ! timeout -k 5 60 "$ubench" all "$measured" >"$work/device.txt" 2>"$work/ubench.log"; then
    say "fidelity_ubench failed (log in the work archive)"
    cat "$work/ubench.log" >>"$log"
    device=-
    status=1
else
    timeout -k 5 60 ncu --csv --page raw --print-units base --clock-control none --metrics gpu__time_duration.sum \
        --log-file "$work/ncu-empty.csv" "$ubench" empty >"$work/ncu-empty.log" 2>&1
    if launch_ns=$("$python" "$root/tools/fidelity_join.py" median-time "$work/ncu-empty.csv"); then
        echo "launch_ns = $launch_ns" >>"$work/device.txt"
        device=$work/device.txt
        cp "$device" "$out/fidelity-device.txt"
        "$python" "$root/tools/fidelity_join.py" device-def "$device" >"$out/fidelity-device.def"
        say "device constants: $(grep -v '^#' "$device" | tr '\n' ';')"
    else
        say "empty-kernel timing under ncu failed (ncu-empty.log in the work archive)"
        device=-
        status=1
    fi
fi
gpu_name=$(sed -n 's/^name = //p' "$work/device.txt" 2>/dev/null)
gpu_name=${gpu_name:-gpu}

# --- the simulator, in the background on every core -------------------------
mkdir -p "$work/sim"
shards=$(nproc)
cat "$work"/cases/*.txt | grep -v "^$" | sort -k3,3nr | awk -v k="$shards" '{ print > ("'"$work"'/sim/shard" (NR % k) ".txt") }'
sim_pids=()
for shard in "$work"/sim/shard*.txt; do
    # sizes of the time pass are scaled to the 2^28 launches too
    timeout -k 5 $(($(left) + 30)) "$run" sim "$shard" "$device" "$time_scale" >"${shard%.txt}.jsonl" 2>"${shard%.txt}.err" &
    sim_pids+=($!)
done

# --- Nsight Compute: counters, then times -------------------------------------
mkdir -p "$work/ncu"
profile() { # name, cases file, metrics, seconds
    local name=$1 cases=$2 m=$3 cap=$4 rest
    rest=$(($(left) - 20))
    [ "$cap" -gt "$rest" ] && cap=$rest
    if [ "$cap" -le 5 ]; then
        say "ncu $name: skipped, the stage's budget of ${budget}s is spent"
        return 1
    fi
    local t0=$SECONDS
    timeout -k 10 "$cap" ncu --csv --page raw --print-units base --clock-control none \
        --kernel-name regex:'_cuda$' --metrics "$m" --log-file "$work/ncu/$name.csv" \
        "$run" cuda "$cases" >"$work/ncu/$name.log" 2>&1
    local rc=$?
    say "ncu $name: rc=$rc, $((SECONDS - t0))s, $(grep -c ': ok$' "$work/ncu/$name.log") of $(grep -cv '^ *\(#\|$\)' "$cases") cases ok"
    [ $rc = 0 ] || tail -5 "$work/ncu/$name.log" | sed 's/^/    /' >>"$log"
    return $rc
}
# times first (one pass each), so that a spent budget costs counters only
if [ -s "$work/cases/time.txt" ]; then
    profile time "$work/cases/time.txt" gpu__time_duration.sum 60 || status=1
    # the scaled sizes: the same scans, n times time_scale
    awk -v s="$time_scale" '{ $3 = $3 * s; print }' "$work/cases/time.txt" >"$work/cases/time-scaled.txt"
    profile time-scaled "$work/cases/time-scaled.txt" gpu__time_duration.sum 90 || status=1
fi
for cases in "$work"/cases/*.txt; do
    name=$(basename "$cases" .txt)
    case $name in time*) continue ;; esac
    profile "$name" "$cases" "$metrics" 60 || status=1
done

# --- SASS of the compared kernels -------------------------------------------
if command -v cuobjdump >/dev/null; then
    cuobjdump -sass "$run" >"$work/sass-all.txt" 2>"$work/cuobjdump.log" || say "cuobjdump failed"
    "$python" "$root/tools/fidelity_join.py" sass "$work/sass-all.txt" "$work/sass.txt" "$work/sass.json" ||
        say "SASS summary failed"
    rm -f "$work/sass-all.txt"
else
    say "cuobjdump not found: no SASS"
fi

# --- join ---------------------------------------------------------------------
for pid in "${sim_pids[@]}"; do
    wait "$pid" || { say "a simulator shard failed (sim/*.err in the work archive)"; status=1; }
done
cat "$work"/sim/shard*.jsonl >"$work/sim.jsonl" 2>/dev/null
cat "$work"/sim/shard*.err >>"$log" 2>/dev/null
result=$out/fidelity-$gpu_name.json
if "$python" "$root/tools/fidelity_join.py" join --sim "$work/sim.jsonl" --ncu "$work/ncu" \
    --cases "$work/cases" --device "$device" --sass "$work/sass.json" --scale "$time_scale" \
    --command "tools/gpu-check.sh fidelity" >"$result.tmp" 2>>"$log"; then
    mv "$result.tmp" "$result"
    say "wrote $(basename "$result"): $(grep -c '"metric"' "$result") rows"
else
    rm -f "$result.tmp"
    say "join failed"
    status=1
fi
tar -czf "$out/fidelity-work.tar.gz" -C "$work" . 2>/dev/null
say "done, status $status"
exit $status
