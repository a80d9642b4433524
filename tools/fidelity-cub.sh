#!/bin/bash
# CUB's DeviceScan counted by Nsight Compute and by the simulator (its PTX
# path, under `scanlab run`), launch by launch: shared load and store
# wavefronts, load and store bank conflicts, global load and store sectors
# (issue 32's six counts, as tools/fidelity.sh measures them).
#
# On the GPU host, one command (the stage runs tools/fidelity-cub.sh
# build-gpu $OUT; it needs nvcc, ncu and python3, not a build of scanlab):
#
#   OUT=gpu-results tools/gpu-check.sh cubfid
#
# nvcc takes about a minute of one core (56 s here on a loaded 2-core
# machine); ncu gets what is left of FIDCUB_BUDGET seconds (default 110)
# for the whole, so that the GPU is held under two minutes. A program built
# beforehand (BUILD/fidelity-cub/fidelity_cub, newer than its source) is
# used as it is.
#
#   tools/fidelity-cub.sh BUILD OUTDIR
#
# builds tools/fidelity_cub.cu into BUILD/fidelity-cub/ with nvcc (kept
# when newer than its source), runs it under ncu and writes
#   OUTDIR/fidelity-cub-gpu.json   per launch: call, kernel, grid, block and
#                                  the counts (tools/fidelity_cub.py gpu)
#   OUTDIR/fidelity-cub-ncu.csv    Nsight Compute's log
#   OUTDIR/fidelity-cub.log        the program's output and ncu's
# Then, on any machine with a build of scanlab (no GPU needed):
#
#   tools/fidelity-cub.sh --compare OUTDIR/fidelity-cub-gpu.json BUILD
#
# runs the same program with the same arguments under BUILD/scanlab run,
# prints per launch the six counts predicted/measured and the share of
# launches with all six equal, and writes fidelity-cub-compare.json beside
# the GPU document (its "rows" as tools/fidelity_data.py six reads them).
#
# CUB's scan kernel waits on its predecessors' tile status words: those
# polls are global loads whose number depends on how long the wait took on
# that run, so a scan launch of more than one tile may differ in its global
# load sectors by them alone; the comparison says so where it happens (the
# simulator's strong loads, global_poll_sectors). The l1tex shared counts
# may also hold other traffic's wavefronts: the wavefronts of the kernel's
# own shared instructions are measured too, to tell them apart.
#
# FIDCUB_TYPES (default i32,i64,f32,f64) and FIDCUB_SIZES (default 2048
# 65536 1048576) choose the calls. Exit status: 0 done, 1 a step failed
# (ncu out of time or failed: fidelity-cub.log says which), 2 bad usage.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
types=${FIDCUB_TYPES:-i32,i64,f32,f64}
sizes=${FIDCUB_SIZES:-2048 65536 1048576}
export PATH=/usr/local/cuda/bin:$PATH
usage() {
    echo "usage: tools/fidelity-cub.sh BUILD OUTDIR | --compare GPU_JSON BUILD" >&2
    exit 2
}
nvcc_version() { nvcc --version 2>/dev/null | grep -o 'V[0-9][0-9.]*' | head -1; }

# program BUILD: BUILD/fidelity-cub/fidelity_cub, built when missing or
# older than its source; its path on stdout
program() {
    local dir=$1/fidelity-cub prog
    prog=$dir/fidelity_cub
    if [ ! -x "$prog" ] || [ "$root/tools/fidelity_cub.cu" -nt "$prog" ]; then
        command -v nvcc >/dev/null || { echo "fidelity-cub: nvcc not found" >&2; return 2; }
        mkdir -p "$dir" || return 2
        # -cudart shared: the runtime scanlab run takes the place of;
        # -arch=sm_90 embeds compute_90 PTX beside the SASS
        nvcc -cudart shared -lineinfo -arch=sm_90 "$root/tools/fidelity_cub.cu" -o "$prog.tmp" >&2 ||
            { echo "fidelity-cub: nvcc failed on tools/fidelity_cub.cu" >&2; return 1; }
        mv "$prog.tmp" "$prog"
    fi
    echo "$prog"
}

if [ "${1:-}" = --compare ]; then
    [ $# = 3 ] || usage
    gpu_json=$2
    [ -r "$gpu_json" ] || { echo "fidelity-cub: --compare: cannot read '$gpu_json'" >&2; exit 2; }
    [ -x "$3/scanlab" ] || { echo "fidelity-cub: --compare: '$3' is not a build with scanlab" >&2; exit 2; }
    build=$(cd "$3" && pwd)
    args=$(python3 -c 'import json, sys; print(" ".join(json.load(open(sys.argv[1]))["args"]))' "$gpu_json") ||
        { echo "fidelity-cub: --compare: $gpu_json is not a document of tools/fidelity-cub.sh" >&2; exit 2; }
    [ -n "$args" ] || { echo "fidelity-cub: --compare: $gpu_json names no program arguments" >&2; exit 2; }
    prog=$(program "$build") || exit $?
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    # shellcheck disable=SC2086 # the arguments as the GPU run had them
    "$build/scanlab" run --json "$work/run.json" -- "$prog" $args >"$work/out.txt" 2>"$work/err.txt"
    rc=$?
    if [ ! -s "$work/run.json" ]; then
        cat "$work/err.txt" >&2
        echo "fidelity-cub: --compare: scanlab run wrote no record (exit $rc)" >&2
        exit 1
    fi
    [ $rc = 0 ] || { tail -5 "$work/err.txt" >&2; echo "fidelity-cub: --compare: scanlab run exited $rc" >&2; }
    # shellcheck disable=SC2086
    python3 "$root/tools/fidelity_cub.py" compare "$gpu_json" "$work/run.json" "$work/out.txt" --args $args \
        --nvcc "$(nvcc_version)" --json "$(dirname "$gpu_json")/fidelity-cub-compare.json"
    c=$?
    [ $c = 0 ] && [ $rc != 0 ] && c=1
    exit $c
fi

[ $# = 2 ] || usage
case $1 in -*) usage ;; esac
mkdir -p "$1" "$2" || exit 2
build=$(cd "$1" && pwd)
out=$(cd "$2" && pwd)
command -v ncu >/dev/null || { echo "fidelity-cub: ncu (Nsight Compute) not found" >&2; exit 2; }
command -v python3 >/dev/null || { echo "fidelity-cub: python3 not found" >&2; exit 2; }
log=$out/fidelity-cub.log
t0=$SECONDS
prog=$(program "$build" 2>"$log") || { cat "$log" >&2; exit 1; }
echo "built in $((SECONDS - t0)) s: $prog ($(nvcc_version))" | tee -a "$log"
# the program's own runtime, libcudart.so.13 of the toolkit
export LD_LIBRARY_PATH=/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# the six counts, and the kernel's own shared wavefronts (tools/fidelity_cub.py)
metrics=$(cd "$root/tools" && python3 -c 'import fidelity_cub; print(",".join(fidelity_cub.METRICS))') || exit 1
t1=$SECONDS
left=$((${FIDCUB_BUDGET:-110} - (SECONDS - t0)))
[ "$left" -ge 20 ] || left=20
# shellcheck disable=SC2086 # the sizes are words
timeout -k 5 "$left" ncu --csv --page raw --print-units base --clock-control none \
    --metrics "$metrics" --log-file "$out/fidelity-cub-ncu.csv" \
    "$prog" "$types" $sizes >"$out/fidelity-cub.out" 2>>"$log"
rc=$?
cat "$out/fidelity-cub.out" >>"$log"
echo "ncu: exit $rc, $((SECONDS - t1)) s" | tee -a "$log"
device=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
python3 "$root/tools/fidelity_cub.py" gpu --ncu "$out/fidelity-cub-ncu.csv" --out "$out/fidelity-cub.out" \
    --args "$types $sizes" --device "${device:-unknown GPU}" --nvcc "$(nvcc_version)" \
    --command "tools/fidelity-cub.sh (ncu --clock-control none)" >"$out/fidelity-cub-gpu.json.part" 2>>"$log" ||
    { rm -f "$out/fidelity-cub-gpu.json.part"; echo "fidelity-cub: no launch measured (fidelity-cub.log)" >&2; exit 1; }
mv "$out/fidelity-cub-gpu.json.part" "$out/fidelity-cub-gpu.json"
rm -f "$out/fidelity-cub.out"
echo "wrote $out/fidelity-cub-gpu.json: $(grep -c '"index"' "$out/fidelity-cub-gpu.json") launches" | tee -a "$log"
[ $rc = 0 ]
