#!/bin/bash
# Where a block scan's time goes on the GPU: every scan of the catalogue at
# n = 2^24 (i32 add) under Nsight Compute, with the instructions its warps
# issued, the share of cycles an SM sub-partition issued one, the resident
# warps, and why the warps waited (the stall reasons, per issued
# instruction). The simulator counts neither instructions nor stalls: this
# is what explains the time model's misses that its counts cannot
# (docs/model-fidelity.md, "Where the block scans' time goes").
#
#   tools/issue-profile.sh BUILD OUTDIR
#
# Writes OUTDIR/issue-profile.json:
#   {"device", "date", "command", "rows": [{"algo", "kernel", "launch",
#    "time_ns", "inst", "issue_pct", "warps_active_pct", "stalls": {reason: warps}}]}
# and the raw log beside it. Exit status 2 on bad usage, 1 when ncu failed.
set -uo pipefail
[ $# = 2 ] || { echo "usage: tools/issue-profile.sh BUILD OUTDIR" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
build=$1 out=$2
run=$build/tools/fidelity_run
[ -x "$run" ] || { echo "issue-profile: $run not found (a CUDA build)" >&2; exit 2; }
command -v ncu >/dev/null || { echo "issue-profile: ncu (Nsight Compute) not found" >&2; exit 2; }
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# the scans of the catalogue that run on both backends, with the fidelity
# run's parameters (tools/catalogue.sh)
. "$root/tools/catalogue.sh"
catalogue_kernels "$root" "$build" >"$work/catalogue.txt" || { echo "issue-profile: scanlab list failed" >&2; exit 1; }
awk '$1 == "SCAN" && $4 == "yes" { print $2, "i32 16777216 0", $3 }' "$work/catalogue.txt" >"$work/cases.txt"

stalls="barrier long_scoreboard short_scoreboard mio_throttle lg_throttle wait not_selected selected
    dispatch_stall math_pipe_throttle membar drain no_instruction branch_resolving sleeping misc"
m=gpu__time_duration.sum,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active
m=$m,sm__warps_active.avg.pct_of_peak_sustained_active
for s in $stalls; do m=$m,smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio; done
: >"$out/issue-profile.log"
while read -r algo rest; do
    echo "$algo $rest" >"$work/case.txt"
    timeout -k 10 120 ncu --csv --page raw --print-units base --clock-control none --kernel-name regex:'_cuda$' \
        --metrics "$m" --log-file "$work/$algo.csv" "$run" cuda "$work/case.txt" </dev/null \
        >>"$out/issue-profile.log" 2>&1
    rc=$?
    [ $rc = 0 ] || { echo "issue-profile: ncu on $algo exited $rc (issue-profile.log)" >&2; exit 1; }
done <"$work/cases.txt"
device=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
python3 - "$work" "$device" >"$out/issue-profile.json.part" <<'PY' || exit 1
import csv, datetime, json, os, sys
work, device = sys.argv[1], sys.argv[2]
algos = [line.split()[0] for line in open(os.path.join(work, "cases.txt")) if line.strip()]
num = lambda s: float(s.replace(",", ""))
out = []
for algo in algos:
    rows = list(csv.reader(open(os.path.join(work, algo + ".csv"))))
    head = next(i for i, r in enumerate(rows) if r and r[0] == "ID")
    h = rows[head]
    for k, r in enumerate(rows[head + 2:]):  # the row after the header holds the units
        d = dict(zip(h, r))
        name = d["Kernel Name"].split("(")[0]
        stalls = {m.split("stalled_")[1].split("_per_issue")[0]: num(v) for m, v in d.items() if "_stalled_" in m}
        out.append({"algo": algo, "kernel": name[:-5] if name.endswith("_cuda") else name, "launch": k,
                    "time_ns": num(d["gpu__time_duration.sum"]), "inst": num(d["smsp__inst_executed.sum"]),
                    "issue_pct": num(d["smsp__issue_active.avg.pct_of_peak_sustained_active"]),
                    "warps_active_pct": num(d["sm__warps_active.avg.pct_of_peak_sustained_active"]),
                    "stalls": stalls})
print(json.dumps({"device": device, "date": datetime.date.today().isoformat(),
                  "command": "bash tools/gpu-check.sh prebuilt issue", "n": 1 << 24, "type": "i32",
                  "rows": out}, indent=1))
PY
mv "$out/issue-profile.json.part" "$out/issue-profile.json"
echo "issue-profile: $(grep -c '"kernel"' "$out/issue-profile.json") launches of $(wc -l <"$work/cases.txt") scans"
