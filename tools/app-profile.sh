#!/bin/bash
# Where the applications' time goes on the GPU, beside CUB's: the radix
# sort, compaction and partition of the catalogue and CUB's versions at one
# size under Nsight Compute, kernel by kernel: time, registers, resident
# warps, DRAM throughput, issue rate, and why the warps waited (stall
# reasons per issued instruction). Bench's own timings say how far apart
# the two are; this says in which kernel and why (docs/performance.md).
#
#   tools/app-profile.sh BUILD OUTDIR [N]      (N: elements, default 2^24)
#
# Writes OUTDIR/app-profile.json:
#   {"device", "date", "command", "n", "rows": [{"set", "type", "kernel",
#    "launch", "time_ns", "regs", "block", "grid", "shared_bytes",
#    "inst", "issue_pct", "warps_active_pct", "dram_pct", "stalls"}]}
# and the raw log beside it. Exit status 2 on bad usage, 1 when ncu failed.
set -uo pipefail
[ $# = 2 ] || [ $# = 3 ] || { echo "usage: tools/app-profile.sh BUILD OUTDIR [N]" >&2; exit 2; }
build=$1 out=$2 n=${3:-2^24}
scanlab=$build/scanlab
[ -x "$scanlab" ] || { echo "app-profile: $scanlab not found (a CUDA build)" >&2; exit 2; }
command -v ncu >/dev/null || { echo "app-profile: ncu (Nsight Compute) not found" >&2; exit 2; }
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

stalls="barrier long_scoreboard short_scoreboard mio_throttle lg_throttle wait not_selected selected
    dispatch_stall math_pipe_throttle membar drain no_instruction branch_resolving sleeping misc"
m=gpu__time_duration.sum,launch__registers_per_thread,launch__block_size,launch__grid_size
m=$m,launch__shared_mem_per_block_dynamic,launch__shared_mem_per_block_static,smsp__inst_executed.sum
m=$m,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active
m=$m,dram__throughput.avg.pct_of_peak_sustained_elapsed
for s in $stalls; do m=$m,smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio; done
# one family a run, each algorithm checked once and timed once (--reps 1):
# the first launches of each kernel are the check's, enough to profile
sets="sort:radix-sort:i32 sort:radix-sort:i64 select:compact:i32 select:compact:f64 partition:partition:i32"
: >"$out/app-profile.log"
for s in $sets; do
    IFS=: read -r set algo type <<<"$s"
    timeout -k 10 300 ncu --csv --page raw --print-units base --clock-control none \
        --kernel-name regex:'os_|Onesweep|RadixSort|Select|Partition|pass|tile|count|scan' --launch-count 24 \
        --metrics "$m" --log-file "$work/$set-$type.csv" \
        "$scanlab" bench --backend cuda --algo "$algo" --type "$type" --n "$n" --reps 1 </dev/null \
        >>"$out/app-profile.log" 2>&1
    rc=$?
    [ $rc = 0 ] || { echo "app-profile: ncu on $algo $type exited $rc (app-profile.log)" >&2; exit 1; }
done
device=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
python3 - "$work" "$device" "$n" "$sets" >"$out/app-profile.json.part" <<'PY' || exit 1
import csv, datetime, json, os, sys
work, device, n, sets = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4].split()
num = lambda s: float(s.replace(",", "")) if s.strip() else None
out = []
for s in sets:
    fam, algo, typ = s.split(":")
    rows = list(csv.reader(open(os.path.join(work, "%s-%s.csv" % (fam, typ)))))
    head = next(i for i, r in enumerate(rows) if r and r[0] == "ID")
    h = rows[head]
    for k, r in enumerate(rows[head + 2:]):  # the row after the header holds the units
        d = dict(zip(h, r))
        stalls = {m.split("stalled_")[1].split("_per_issue")[0]: num(v) for m, v in d.items() if "_stalled_" in m}
        out.append({"set": fam, "algo": algo, "type": typ, "kernel": d["Kernel Name"][:120], "launch": k,
                    "time_ns": num(d["gpu__time_duration.sum"]),
                    "regs": num(d["launch__registers_per_thread"]), "block": num(d["launch__block_size"]),
                    "grid": num(d["launch__grid_size"]),
                    "shared_bytes": (num(d["launch__shared_mem_per_block_dynamic"]) or 0)
                    + (num(d["launch__shared_mem_per_block_static"]) or 0),
                    "inst": num(d["smsp__inst_executed.sum"]),
                    "issue_pct": num(d["smsp__issue_active.avg.pct_of_peak_sustained_active"]),
                    "warps_active_pct": num(d["sm__warps_active.avg.pct_of_peak_sustained_active"]),
                    "dram_pct": num(d["dram__throughput.avg.pct_of_peak_sustained_elapsed"]),
                    "stalls": stalls})
print(json.dumps({"device": device, "date": datetime.date.today().isoformat(),
                  "command": "bash tools/gpu-check.sh appprofile", "n": n, "rows": out}, indent=1))
PY
mv "$out/app-profile.json.part" "$out/app-profile.json"
# a table to read: one line per launch
python3 - "$out/app-profile.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["rows"]:
    top = sorted(r["stalls"].items(), key=lambda kv: -(kv[1] or 0))[:3]
    print("%-9s %-4s %8.1f us regs %3d blk %4d grid %7d smem %6d inst %10d issue %5.1f%% warps %5.1f%% dram %5.1f%% | %s | %s"
          % (r["set"], r["type"], r["time_ns"] / 1e3, r["regs"], r["block"], r["grid"], r["shared_bytes"],
             r["inst"], r["issue_pct"], r["warps_active_pct"], r["dram_pct"] or 0,
             " ".join("%s=%.2f" % kv for kv in top), r["kernel"][:70]))
PY
