#!/usr/bin/env python3
"""Helpers of tools/fidelity.sh (docs/model-fidelity.md).

  fidelity_join.py join --sim SIM.jsonl --ncu DIR --cases DIR [--device FILE|-]
                        [--sass SASS.json] [--scale S] [--command TEXT]
      the simulator's launches (tools/fidelity_run sim) joined with Nsight
      Compute's (DIR/<name>.csv for the cases DIR/<name>.txt), launch by
      launch in order, kernel names checked, and grids too except in the
      time passes (a time row notes the GPU's grid where it differs:
      gpu_blocks); the document {"device", "date", "rows": [...]} on stdout
  fidelity_join.py repredict --doc DOC.json --sim SIM.jsonl [--command TEXT]
      the counts of DOC (a document made by join) predicted again by the
      simulator as it is now (tools/fidelity_run sim over DOC's launches:
      the cases command prints them), the GPU's measured counts kept; the
      document, with "repredicted": {"date", "command", "changed",
      "times_kept"}, on stdout. Predicted times are made again with the
      document's device constants; those of launches the simulator did not
      run are kept (and counted)
  fidelity_join.py cases DOC.json          DOC's launches as cases (time-pass
                                           launches scaled by 16 as their
                                           unscaled case)
  fidelity_join.py constants DOC.json      DOC's device constants as a device file
  fidelity_join.py median-time NCU.csv     median gpu__time_duration.sum (ns)
  fidelity_join.py device-def DEVICE.txt   the MODEL_DEVICE line of model/devices.def
  fidelity_join.py sass ALL.txt KEPT.txt SUMMARY.json
      from `cuobjdump -sass`, the functions of the i32 and i64 add kernels
      (KEPT.txt) and their memory, shuffle and barrier opcodes counted
      (SUMMARY.json: {kernel: {opcode: count}})
"""
import csv
import datetime
import json
import os
import re
import statistics
import sys

# Nsight Compute's metric -> the simulator's per-launch count
# (docs/metrics.md, "Per launch"); gpu__time_duration.sum is the time model.
METRICS = [
    ("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "shared_ld_conflicts"),
    ("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "shared_st_conflicts"),
    ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "shared_ld_wavefronts"),
    ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "shared_st_wavefronts"),
    # the same wavefronts attributed to the kernel's own shared instructions
    # (SASS-level): the l1tex counters above also count wavefronts that
    # other traffic through the L1 data banks (global loads and stores of
    # the blocks resident beside) cost these instructions
    ("smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "shared_ld_wavefronts"),
    ("smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "shared_st_wavefronts"),
    ("smsp__sass_inst_executed_op_shared_ld.sum", "shared_ld"),
    ("smsp__sass_inst_executed_op_shared_st.sum", "shared_st"),
    ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "global_ld_sectors"),
    ("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "global_st_sectors"),
    ("smsp__sass_branch_targets_threads_divergent.sum", "divergent_branches"),
]
TIME = "gpu__time_duration.sum"
SECTOR_BYTES = 32


def number(text):
    try:
        return float(text.replace(",", ""))
    except (ValueError, AttributeError):
        return None


def read_ncu(path):
    """Kernel rows of an `ncu --csv --page raw` log, in launch order."""
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        lines = [l for l in f if l.startswith('"')]
    rows = list(csv.reader(lines))
    if not rows:
        return []
    head = rows[0]
    out = []
    for r in rows[1:]:
        if len(r) != len(head) or not r[0].strip().isdigit():
            continue  # the units row, or a broken one
        out.append(dict(zip(head, r)))
    return out


def base_name(kernel):
    """ksdb_scan_i32_add_cuda(...) -> ksdb_scan_i32_add"""
    k = kernel.split("(")[0].strip()
    return k[: -len("_cuda")] if k.endswith("_cuda") else k


def grid_blocks(text):
    nums = [int(x) for x in re.findall(r"\d+", text or "")]
    p = 1
    for x in nums:
        p *= x
    return p if nums else None


def read_cases(path):
    cases = []
    with open(path) as f:
        for line in f:
            line = line.split("#")[0].split()
            if len(line) == 5:
                a, t, n, b, p = line
                cases.append((a, t, int(n), int(b), int(p)))
    return cases


def load_sim(path):
    """{(algo, type, n, asked_block, param, scaled): [launch, ...]}"""
    sim = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            r = json.loads(line)
            key = (r["algo"], r["type"], r["n"], r["asked_block"], r["param"], r["scaled"])
            sim.setdefault(key, []).append(r)
    for v in sim.values():
        v.sort(key=lambda r: r["launch"])
    return sim


def match(ncu, p, sim_launches, check_grid):
    if p + len(sim_launches) > len(ncu):
        return False
    for k, s in enumerate(sim_launches):
        r = ncu[p + k]
        if base_name(r.get("Kernel Name", "")) != s["kernel"]:
            return False
        if check_grid and grid_blocks(r.get("Grid Size")) != s["blocks"]:
            return False
    return True


def find(ncu, p, sim_launches, check_grid):
    """Where the simulator's launches start in the ncu log, looking up to
    64 launches on from p, or None."""
    return next((j for j in range(p, min(p + 64, len(ncu))) if match(ncu, j, sim_launches, check_grid)), None)


def row(s, metric, predicted, measured, **extra):
    r = {"algo": s["algo"], "kernel": s["kernel"], "type": s["type"], "n": s["n"], "block": s["block"],
         "launch": s["launch"], "blocks": s["blocks"], "metric": metric, "predicted": predicted,
         "measured": measured}
    r.update(extra)
    return r


def time_row(s, measured, gpu_blocks=None):
    bytes_ = SECTOR_BYTES * (s["global_ld_sectors"] + s["global_st_sectors"] + s["global_atom_sectors"])
    extra = {"gpu_blocks": gpu_blocks} if gpu_blocks is not None and gpu_blocks != s["blocks"] else {}
    return row(s, TIME, s.get("predicted_ns"), measured, bytes=bytes_, bound=s.get("bound"),
               chain=s["chain"], scaled=s["scaled"], **extra)


def own_conflicts(rows):
    """The bank conflicts of the kernel's own shared instructions, on the
    conflict rows of the launch just added ("measured_own"): what the GPU
    counted less the wavefronts that other traffic added, which it counts
    as conflicts too (l1tex wavefronts - SASS-attributed wavefronts)."""
    launch = {}
    for r in reversed(rows):
        if r["metric"] in launch or r["metric"] == TIME:
            break
        launch[r["metric"]] = r
    for op in ("ld", "st"):
        c = launch.get(f"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{op}.sum")
        w = launch.get(f"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{op}.sum")
        own = launch.get(f"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_{op}.sum")
        if c and w and own and None not in (c["measured"], w["measured"], own["measured"]):
            c["measured_own"] = c["measured"] - (w["measured"] - own["measured"])


def join(args):
    sim = load_sim(args.sim)
    rows, problems = [], []
    names = sorted(f[:-4] for f in os.listdir(args.cases) if f.endswith(".txt"))
    for name in names:
        cases = read_cases(os.path.join(args.cases, name + ".txt"))
        ncu = read_ncu(os.path.join(args.ncu, name + ".csv"))
        scaled = name == "time-scaled"
        timing = name.startswith("time")
        p = 0
        for c in cases:
            a, t, n, b, prm = c
            if scaled:
                n_sim = n // args.scale
                launches = sim.get((a, t, n, b, prm, True)) or []
                if not sim.get((a, t, n_sim, b, prm, False)):
                    launches = []
            else:
                launches = sim.get((a, t, n, b, prm, False)) or []
            if not launches:
                problems.append(f"{name}: {a} {t} {n} block {b}: no simulator launches")
                continue
            if not all(l["correct"] for l in launches):
                problems.append(f"{name}: {a} {t} {n} block {b}: the simulated run was not right")
            # The counts depend on the grid, so the counter passes compare
            # grids. The time passes compare kernels only: at 2^24 and above
            # the grids sized by an occupancy query differ, because the
            # GPU's query counts the kernel's registers and the
            # simulator's does not (threads, blocks and shared memory), and
            # the ticketed single-pass scans run a persistent grid on the
            # GPU and a block per tile in the simulator. The tiles and the
            # work are the same; a time row keeps the GPU's grid beside
            # the simulator's (gpu_blocks) where they differ.
            at = find(ncu, p, launches, check_grid=not timing)
            if at is not None:
                for k, s in enumerate(launches):
                    r = ncu[at + k]
                    if not timing:
                        for metric, field in METRICS:
                            extra = {}
                            if field == "global_ld_sectors" and s["global_poll_sectors"]:
                                extra["poll_sectors"] = s["global_poll_sectors"]
                            if field == "global_ld_sectors" and s["global_atom_sectors"]:
                                extra["atom_sectors"] = s["global_atom_sectors"]
                            rows.append(row(s, metric, s[field], number(r.get(metric)), **extra))
                        own_conflicts(rows)
                    rows.append(time_row(s, number(r.get(TIME)), grid_blocks(r.get("Grid Size"))))
                p = at + len(launches)
                continue
            if scaled:
                # more levels at the larger size: the case as a whole, its
                # launches being those whose kernels the scaled case has
                kernels = {s["kernel"] for s in launches}
                q = p
                while q < len(ncu) and base_name(ncu[q].get("Kernel Name", "")) in kernels:
                    q += 1
                if q > p:
                    measured = sum(number(r.get(TIME)) or 0 for r in ncu[p:q])
                    pred = [s.get("predicted_ns") for s in launches]
                    total = dict(launches[0])
                    total.update(kernel="all launches", launch=-1, blocks=None)
                    for f in ("global_ld_sectors", "global_st_sectors", "global_atom_sectors", "chain"):
                        total[f] = sum(s[f] for s in launches)
                    total["predicted_ns"] = None if None in pred else sum(pred)
                    total["bound"] = None
                    rows.append(time_row(total, measured))
                    problems.append(f"{name}: {a} {t} {n}: {q - p} launches measured, {len(launches)} "
                                    "scaled from the simulator: compared as a whole")
                    p = q
                    continue
            other = find(ncu, p, launches, check_grid=False)
            if other is not None:
                gpu = [grid_blocks(r.get("Grid Size")) for r in ncu[other:other + len(launches)]]
                problems.append(f"{name}: {a} {t} {n} block {b}: the GPU ran grids of {gpu} blocks, the simulator "
                                f"{[s['blocks'] for s in launches]} (the GPU's occupancy query counts registers, "
                                "the simulator's does not), so its counts are not compared")
                p = other + len(launches)
                continue
            problems.append(f"{name}: {a} {t} {n} block {b}: its launches were not found in the ncu log "
                            "(a failed run, or other launches than the simulator's)")
    device = None
    if args.device and args.device != "-" and os.path.exists(args.device):
        device = read_device(args.device)
    sass = {}
    if args.sass and os.path.exists(args.sass):
        with open(args.sass) as f:
            sass = json.load(f)
    for m in problems:
        print("fidelity_join: " + m, file=sys.stderr)
    today = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    doc = {
        "device": device["gpu"] if device else None,
        "date": today,
        "command": args.command,
        "constants": device,
        "problems": problems,
        "sass": sass,
        "rows": rows,
    }
    if args.rejoin_of:
        # the same GPU run (its work archive) joined again with the
        # simulator as it is now: the run's own date and command stay
        with open(args.rejoin_of) as f:
            before = json.load(f)
        doc["date"], doc["command"] = before.get("date"), before.get("command")
        doc["rejoined"] = {"date": today, "command": "tools/fidelity.sh --rejoin",
                           "rows_before": len(before.get("rows", [])), "rows": len(rows)}
    write_doc(doc)
    return 0 if rows else 1


def write_doc(doc):
    """A document on stdout: its keys first, one per line, then one row per
    line (so that a new run's diff reads row by row)."""
    out = sys.stdout
    out.write("{\n")
    for k in [k for k in doc if k != "rows"]:
        out.write(f"  {json.dumps(k)}: {json.dumps(doc[k], sort_keys=True)},\n")
    out.write('  "rows": [\n')
    out.write(",\n".join("    " + json.dumps(r) for r in doc["rows"]))
    out.write("\n  ]\n}\n")


# the numeric device constants model/timemodel.c reads, in the order of
# model/devices.def's MODEL_DEVICE
DEVICE_KEYS = ["sms", "threads_per_sm", "blocks_per_sm", "copy_bytes_per_ns", "dram_rtt_ns", "l2_rtt_ns",
               "chain_link_ns", "smem_wavefronts_per_ns", "smem_rtt_ns", "launch_ns", "barrier_ns",
               "barrier_ns_per_warp"]


def doc_constants(path):
    """A document's device constants as a device file (key = value); exits
    2 naming the constants a document recorded before them lacks."""
    with open(path) as f:
        constants = json.load(f).get("constants") or {}
    missing = [k for k in DEVICE_KEYS if k not in constants]
    if missing:
        print(f"fidelity_join: {path} has no device constant {', '.join(missing)} (recorded before the time "
              "model used it): predict again from a new run (tools/gpu-check.sh fidelity)", file=sys.stderr)
        return 2
    for k, v in constants.items():
        print(f"{k} = {v:g}" if isinstance(v, float) else f"{k} = {v}")
    return 0


def doc_cases(path, scale=16):
    """The launches of a document as tools/fidelity_run cases (the asked
    block is 0 but for the extra block of tools/fidelity.sh): the counted
    ones and those of the time pass (whose scaled launches the same run
    prints)."""
    with open(path) as f:
        doc = json.load(f)
    seen = []
    for r in doc["rows"]:
        n = r["n"]
        if r["metric"] == TIME and r.get("scaled"):
            n //= scale  # the case whose run prints these scaled launches
        block = r["block"] if n == 65536 and r["block"] == 128 else 0
        param = 132 if r["algo"] == "two-level" else 0
        c = (r["algo"], r["type"], n, block, param)
        if c not in seen:
            seen.append(c)
    for c in seen:
        print(*c)
    return 0


def repredict(args):
    with open(args.doc) as f:
        doc = json.load(f)
    sim = {}
    with open(args.sim) as f:
        for line in f:
            if line.strip():
                s = json.loads(line)
                sim[(s["algo"], s["type"], s["n"], s["block"], s["launch"], s["scaled"])] = s
    fields = dict(METRICS)
    missing = changed = kept_times = 0
    # a scaled case compared as a whole: the sum of its scaled launches
    whole = {}
    for s in sim.values():
        if s["scaled"] and s.get("predicted_ns") is not None:
            k = (s["algo"], s["type"], s["n"])
            whole[k] = whole.get(k, 0.0) + s["predicted_ns"]
    for r in doc["rows"]:
        if r["metric"] == TIME and r["launch"] < 0:
            total = whole.get((r["algo"], r["type"], r["n"]))
            if total is None:
                kept_times += 1
            else:
                changed += total != r["predicted"]
                r["predicted"] = total
            continue
        s = sim.get((r["algo"], r["type"], r["n"], r["block"], r["launch"], bool(r.get("scaled", False))))
        if s is not None and s["kernel"] != r["kernel"]:
            print(f"fidelity_join: {r['algo']} {r['type']} {r['n']} launch {r['launch']}: kernel {s['kernel']} "
                  f"in the simulator, {r['kernel']} in the document", file=sys.stderr)
            return 1
        if r["metric"] == TIME:
            # predicted with the document's own device constants; a launch
            # the simulator did not run keeps its time
            if s is None:
                kept_times += 1
            else:
                changed += s.get("predicted_ns") != r["predicted"]
                r["predicted"] = s.get("predicted_ns")
            continue
        if s is None:
            missing += 1
            continue
        new = s[fields[r["metric"]]]
        changed += new != r["predicted"]
        r["predicted"] = new
    if missing:
        print(f"fidelity_join: {missing} count rows have no simulator launch", file=sys.stderr)
        return 1
    doc["repredicted"] = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"),
                          "command": args.command, "changed": changed,
                          "times_kept": kept_times}
    write_doc(doc)
    return 0


def read_device(path):
    d = {}
    with open(path) as f:
        for line in f:
            line = line.split("#")[0].strip()
            if "=" in line:
                k, v = (x.strip() for x in line.split("=", 1))
                n = number(v)
                d[k] = v if n is None or k in ("name", "gpu", "measured") else n
    return d


def median_time(path):
    times = [number(r.get(TIME)) for r in read_ncu(path)]
    times = [t for t in times if t is not None]
    if not times:
        return 1
    print(f"{statistics.median(times):.0f}")
    return 0


def device_def(path):
    d = read_device(path)
    vals = ", ".join(f"{d[k]:g}" for k in DEVICE_KEYS)
    print(f'MODEL_DEVICE({d["name"]}, {json.dumps(d["gpu"])}, {json.dumps(d["measured"])}, {vals})')
    return 0


FUNC = re.compile(r"^\s*Function\s*:\s*(\S+)")
INST = re.compile(r"^\s*/\*[0-9a-f]{4,}\*/\s*(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)")
COUNTED = re.compile(r"^(LDS|STS|LDG|STG|LD|ST|ATOM|ATOMS|ATOMG|RED|SHFL|BAR|MEMBAR|FENCE|LDSM)(\.|$)")


def demangle(name):
    """_ZL22ksdb_scan_i32_add_cudaPKiPiS1_mim -> ksdb_scan_i32_add_cuda"""
    m = re.match(r"_ZL?(\d+)", name)
    if not m:
        return name
    n = int(m.group(1))
    return name[m.end(): m.end() + n]


def sass(all_path, kept_path, summary_path):
    summary, keep = {}, False
    with open(all_path, errors="replace") as f, open(kept_path, "w") as kept:
        for line in f:
            m = FUNC.match(line)
            if m:
                name = demangle(m.group(1))
                keep = bool(re.search(r"_i(32|64)_add_cuda$", name))
                if keep:
                    kernel = base_name(name)
                    summary.setdefault(kernel, {})
            if not keep:
                continue
            kept.write(line)
            m = INST.match(line)
            if m and COUNTED.match(m.group(1)):
                ops = summary[kernel]
                ops[m.group(1)] = ops.get(m.group(1), 0) + 1
    with open(summary_path, "w") as f:
        json.dump(summary, f, indent=1, sort_keys=True)
    return 0 if summary else 1


def main(argv):
    if len(argv) >= 2 and argv[1] == "median-time" and len(argv) == 3:
        return median_time(argv[2])
    if len(argv) >= 2 and argv[1] == "device-def" and len(argv) == 3:
        return device_def(argv[2])
    if len(argv) >= 2 and argv[1] == "sass" and len(argv) == 5:
        return sass(argv[2], argv[3], argv[4])
    if len(argv) == 3 and argv[1] == "cases":
        return doc_cases(argv[2])
    if len(argv) == 3 and argv[1] == "constants":
        return doc_constants(argv[2])
    if len(argv) >= 2 and argv[1] == "repredict":
        import argparse
        ap = argparse.ArgumentParser(prog="fidelity_join.py repredict")
        ap.add_argument("--doc", required=True)
        ap.add_argument("--sim", required=True)
        ap.add_argument("--command", default="tools/fidelity.sh --repredict")
        return repredict(ap.parse_args(argv[2:]))
    if len(argv) >= 2 and argv[1] == "join":
        import argparse
        ap = argparse.ArgumentParser(prog="fidelity_join.py join")
        ap.add_argument("--sim", required=True)
        ap.add_argument("--ncu", required=True)
        ap.add_argument("--cases", required=True)
        ap.add_argument("--device", default="-")
        ap.add_argument("--sass")
        ap.add_argument("--scale", type=int, default=16)
        ap.add_argument("--command", default="tools/gpu-check.sh fidelity")
        ap.add_argument("--rejoin-of")
        return join(ap.parse_args(argv[2:]))
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except (OSError, ValueError, KeyError) as e:
        # a missing or damaged input file: one line, exit 2
        print(f"fidelity_join.py: {type(e).__name__}: {e}", file=sys.stderr)
        sys.exit(2)
