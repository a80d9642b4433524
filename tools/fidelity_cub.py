#!/usr/bin/env python3
"""Helpers of tools/fidelity-cub.sh: CUB's DeviceScan launches
(tools/fidelity_cub.cu) counted by Nsight Compute on the GPU and by the
simulator under `scanlab run`, launch by launch.

  fidelity_cub.py gpu --ncu NCU.csv --out PROGRAM_STDOUT --args "TYPES N..."
                      [--device NAME] [--nvcc VERSION] [--command TEXT]
      the GPU document on stdout: {"device", "date", "command", "nvcc",
      "args", "calls", "launches": [{"call", "index", "kernel", "grid",
      "block", "counts": {metric: value}}], "problems"}
  fidelity_cub.py compare GPU.json RUN.json PROGRAM_STDOUT [--args TYPES N...] [--nvcc VERSION]
                          [--json FILE]
      RUN.json (scanlab run --json of the same program, with the arguments
      --args gives: they and nvcc's version are checked against GPU.json's)
      held against GPU.json: one line per launch with the six counts predicted
      and measured, then the share of launches with all six equal; FILE
      gets the same as a document whose "rows" tools/fidelity_data.py six
      reads too

The launches of call K (the program's line "call K: NAME TYPE N") are
those after the launch of fidcub_mark with K + 1 blocks, in launch order,
in either list; a launch is compared with the one of the same call and
place whose kernel, grid and block are the same.
Exit status: 0 the comparison made; 1 the runs' launches do not match or
the simulated run failed; 2 bad input.
"""
import argparse
import datetime
import json
import re
import sys

import fidelity_data
from fidelity_join import number, own_conflicts, read_ncu

MARKER = "fidcub_mark"
# the six counts of issue 32's counter goal, as tools/fidelity.sh measures
# them, with the simulator's fields (scanlab run --json) for each
SIX = [
    ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "shared ld wavefronts"),
    ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "shared st wavefronts"),
    ("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "ld conflicts"),
    ("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "st conflicts"),
    ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "global ld sectors"),
    ("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "global st sectors"),
]
# the wavefronts of the kernel's own shared instructions: what tells the
# other traffic through the L1 data banks apart in the l1tex counts
OWN = ["smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
       "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum"]
METRICS = [m for m, _ in SIX] + OWN
CALL = re.compile(r"^call (\d+): (\S+) (\S+) (\d+)$")


def predicted(launch):
    """A scanlab run --json launch's counts under the metrics' names."""
    ld, st = launch["shared_load_wavefronts"], launch["shared_store_wavefronts"]
    return {
        SIX[0][0]: ld, SIX[1][0]: st,
        SIX[2][0]: launch["shared_load_conflicts"], SIX[3][0]: launch["shared_store_conflicts"],
        # the run counts atomics as loads; Nsight Compute's loads do not
        SIX[4][0]: launch["global_load_sectors"] - launch["global_atom_sectors"],
        SIX[5][0]: launch["global_store_sectors"],
        OWN[0]: ld, OWN[1]: st,
    }


def short_kernel(name):
    """void ns::DeviceScanKernel<...>(...) -> DeviceScanKernel"""
    head = re.split(r"[<(]", name.strip(), maxsplit=1)[0].strip()
    return head.split()[-1].split("::")[-1] if head else name


def calls_of(text):
    """{K: (name, type, n)} from the program's "call K: ..." lines."""
    out = {}
    for line in text.splitlines():
        m = CALL.match(line.strip())
        if m:
            out[int(m.group(1))] = (m.group(2), m.group(3), int(m.group(4)))
    return out


def labelled(launches, calls, problems, side):
    """The launches (dicts with kernel, grid) other than the markers, each
    given the call its last marker opened ("call": "NAME TYPE N") and its
    place in that call ("index")."""
    out, call, index = [], None, 0
    for x in launches:
        if short_kernel(x["kernel"]) == MARKER:
            k = x["grid"][0] - 1
            if k not in calls:
                problems.append(f"{side}: a marker of call {k}, which the program did not print")
                call = None
            else:
                call = " ".join(str(v) for v in calls[k])
            index = 0
            continue
        if call is None:
            problems.append(f"{side}: {short_kernel(x['kernel'])} launched before any call's marker")
            continue
        out.append(dict(x, call=call, index=index))
        index += 1
    return out


def dims(text):
    nums = [int(v) for v in re.findall(r"\d+", text or "")]
    return (nums + [1, 1, 1])[:3] if nums else None


def count(text):
    """An ncu value as an integer where it is one (counts are), else None."""
    v = number(text)
    return int(v) if v is not None and v.is_integer() else v


def write_doc(doc, key, out):
    """A document with its keys one a line and the list under key one item
    a line, so that two runs' files diff launch by launch."""
    out.write("{\n")
    for k in [k for k in doc if k != key]:
        out.write(f"  {json.dumps(k)}: {json.dumps(doc[k])},\n")
    out.write(f"  {json.dumps(key)}: [\n")
    out.write(",\n".join("    " + json.dumps(x) for x in doc[key]))
    out.write("\n  ]\n}\n")


def gpu(args):
    with open(args.out, errors="replace") as f:
        calls = calls_of(f.read())
    launches = []
    for r in read_ncu(args.ncu):
        launches.append({"kernel": r.get("Kernel Name", ""), "grid": dims(r.get("Grid Size")),
                         "block": dims(r.get("Block Size")),
                         "counts": {m: count(r.get(m)) for m in METRICS}})
    problems = [f"ncu: a launch without its grid: {x['kernel']}" for x in launches if not x["grid"]]
    launches = [x for x in launches if x["grid"]]
    doc = {
        "device": args.device,
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"),
        "command": args.command,
        "nvcc": args.nvcc,
        "args": args.args.split(),
        "calls": {str(k): " ".join(str(v) for v in c) for k, c in sorted(calls.items())},
        "launches": labelled(launches, calls, problems, "GPU"),
        "problems": problems,
    }
    write_doc(doc, "launches", sys.stdout)
    for p in problems:
        print("fidelity_cub: " + p, file=sys.stderr)
    return 0 if doc["launches"] else 1


def rows_of(sim, meas, place):
    """A launch's rows as tools/fidelity_join.py writes them (fidelity_data
    reads them): one per metric, the global loads' polls and the conflicts
    less other traffic (measured_own) beside."""
    name, typ, n = sim["call"].split()
    pred = predicted(sim)
    rows = []
    for m in METRICS:
        r = {"algo": "cub " + name, "kernel": short_kernel(sim["kernel"]), "type": typ, "n": int(n),
             "block": sim["block"][0], "launch": place, "blocks": sim["grid"][0] * sim["grid"][1] * sim["grid"][2],
             "metric": m, "predicted": pred[m], "measured": meas["counts"].get(m)}
        if m == SIX[4][0] and sim["global_poll_sectors"]:
            r["poll_sectors"] = sim["global_poll_sectors"]
        rows.append(r)
    own_conflicts(rows)
    return rows


def cell(r):
    if r["measured"] is None:
        return f"{r['predicted']}/-"
    mark = "" if r["predicted"] == r["measured"] else " *"
    return f"{r['predicted']}/{r['measured']:.0f}{mark}"


def why(bym, r):
    """Why a count of a launch differs: what the data shows."""
    m = r["metric"]
    if fidelity_data.timing_only(r, bym):
        if m == SIX[4][0]:
            delta = r["measured"] - r["predicted"]
            # fewer than the loads that are not polls cannot be the polls alone
            beyond = " (more than the polls)" if -delta > r["poll_sectors"] else ""
            return (f"global ld sectors {delta:+.0f}: {r['poll_sectors']} of the predicted are polls of the "
                    f"look-back (timing){beyond}")
        return f"{fidelity_data.short(m)}: other traffic (the kernel's own equal)"
    return f"{fidelity_data.short(m)}: the kernel's own count differs"


def compare(args):
    with open(args.gpu) as f:
        gdoc = json.load(f)
    with open(args.run) as f:
        run = json.load(f)
    with open(args.out, errors="replace") as f:
        calls = calls_of(f.read())
    problems = ["GPU run: " + p for p in gdoc.get("problems", [])]
    if args.nvcc and gdoc.get("nvcc") and args.nvcc != gdoc["nvcc"]:
        problems.append(f"nvcc differs: {gdoc['nvcc']} on the GPU host, {args.nvcc} here (the PTX may differ)")
    if [str(a) for a in gdoc.get("args", [])] != [str(a) for a in args.args]:
        problems.append(f"the GPU ran the program with {gdoc.get('args')}, the simulator with {args.args}")
    failed = run.get("findings", 0) != 0
    if failed:
        problems.append(f"the simulated run had {run['findings']} findings")
    sim = labelled(run["launches"], calls, problems, "simulator")
    measured = {(x["call"], x["index"]): x for x in gdoc["launches"]}
    rows, table, compared = [], [], 0
    for place, s in enumerate(sim):
        g = measured.pop((s["call"], s["index"]), None)
        what = f"{s['call']} launch {s['index']} ({short_kernel(s['kernel'])})"
        if g is None:
            problems.append(f"{what}: not measured on the GPU")
            continue
        if (short_kernel(g["kernel"]), g["grid"], g["block"]) != (short_kernel(s["kernel"]), s["grid"], s["block"]):
            problems.append(f"{what}: the GPU ran {short_kernel(g['kernel'])} grid {g['grid']} block {g['block']}, "
                            f"the simulator grid {s['grid']} block {s['block']}: not compared")
            continue
        compared += 1
        rs = rows_of(s, g, place)
        rows += rs
        table.append((s, rs))
    for (c, i), g in measured.items():
        problems.append(f"{c} launch {i} ({short_kernel(g['kernel'])}): measured on the GPU, not run in the simulator")
    six = fidelity_data.six_counts(rows)
    print_table(table, gdoc)
    t = six["total"] or 1
    per_metric = {}
    for m, label in SIX:
        rs = [r for r in rows if r["metric"] == m and r["measured"] is not None]
        per_metric[label] = [sum(r["predicted"] == r["measured"] for r in rs), len(rs)]
    print(f"\nall six counts equal: {six['equal']} of {six['total']} launches ({100 * six['equal'] / t:.1f}%)")
    print("each count equal: " + ", ".join(f"{k} {v[0]} of {v[1]}" for k, v in per_metric.items()))
    print(f"differing only where the GPU's count depends on timing: {len(six['timing'])}")
    print(f"with the kernel's own shared counts (polls still differences): {six['own_equal']} of {six['total']} "
          f"({100 * six['own_equal'] / t:.1f}%)")
    print(f"differing in the kernel's own counts: {len(six['code'])}")
    for p in problems:
        print("fidelity_cub: " + p, file=sys.stderr)
    if args.json:
        summary = {"launches": len(sim), "compared": compared, "all_six_equal": six["equal"],
                   "with_six": six["total"], "timing_only": len(six["timing"]), "own_equal": six["own_equal"],
                   "code": len(six["code"]), "per_count": per_metric}
        doc = {"device": gdoc.get("device"), "measured": gdoc.get("date"), "gpu_command": gdoc.get("command"),
               "compared": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"),
               "command": "tools/fidelity-cub.sh --compare", "args": args.args, "summary": summary,
               "problems": problems, "rows": rows}
        with open(args.json, "w") as f:
            write_doc(doc, "rows", f)
    return 1 if failed or compared != len(sim) or not compared else 0


def print_table(table, gdoc):
    print(f"CUB's DeviceScan launches: simulator (PTX path) / {gdoc.get('device') or 'GPU'} "
          f"(Nsight Compute, {gdoc.get('date')}); * a count that differs")
    head = ["call", "#", "kernel", "grid", "block"] + [label for _, label in SIX] + ["six"]
    lines = []
    for s, rs in table:
        bym = {r["metric"]: r for r in rs}
        cells = [cell(bym[m]) for m, _ in SIX]
        off = [bym[m] for m, _ in SIX if bym[m]["measured"] is not None and bym[m]["predicted"] != bym[m]["measured"]]
        missing = any(bym[m]["measured"] is None for m, _ in SIX)
        verdict = "-" if missing else "equal" if not off else "; ".join(why(bym, r) for r in off)
        lines.append([s["call"], str(s["index"]), short_kernel(s["kernel"]), str(s["grid"][0]), str(s["block"][0])]
                     + cells + [verdict])
    widths = [max(len(x[k]) for x in [head] + lines) for k in range(len(head) - 1)]
    for x in [head] + lines:
        print("  ".join(v.ljust(w) for v, w in zip(x, widths)) + "  " + x[-1])


def main(argv):
    if len(argv) >= 2 and argv[1] == "gpu":
        ap = argparse.ArgumentParser(prog="fidelity_cub.py gpu")
        ap.add_argument("--ncu", required=True)
        ap.add_argument("--out", required=True)
        ap.add_argument("--args", required=True)
        ap.add_argument("--device")
        ap.add_argument("--nvcc")
        ap.add_argument("--command", default="tools/fidelity-cub.sh")
        return gpu(ap.parse_args(argv[2:]))
    if len(argv) >= 2 and argv[1] == "compare":
        ap = argparse.ArgumentParser(prog="fidelity_cub.py compare")
        ap.add_argument("gpu")
        ap.add_argument("run")
        ap.add_argument("out")
        ap.add_argument("--args", nargs="*", default=[])
        ap.add_argument("--nvcc")
        ap.add_argument("--json")
        return compare(ap.parse_args(argv[2:]))
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except (OSError, ValueError, KeyError, TypeError) as e:
        # a missing or damaged input: one line, exit 2
        print(f"fidelity_cub.py: {type(e).__name__}: {e}", file=sys.stderr)
        sys.exit(2)
