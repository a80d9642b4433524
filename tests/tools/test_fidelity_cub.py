#!/usr/bin/env python3
"""tools/fidelity_cub.py (tools/fidelity-cub.sh's comparison of CUB's scan
launches) on fixtures written here: an Nsight Compute log and a program's
output made into the GPU document, then a `scanlab run --json` record held
against it, with counts chosen so that each kind of difference occurs once.

  test_fidelity_cub.py TOOLS_DIR

Exits 0 when every check holds, 1 with the failed checks on stderr. No
number here is a GPU measurement: the fixtures are made up, which is what
lets the checks be exact."""
import csv
import json
import os
import subprocess
import sys
import tempfile

tools = sys.argv[1]
sys.path.insert(0, tools)
import fidelity_cub  # noqa: E402

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAILED: " + what, file=sys.stderr)


def tool(*args):
    return subprocess.run([sys.executable, os.path.join(tools, "fidelity_cub.py")] + list(args),
                          capture_output=True, text=True)


INIT = "void cub::NS::detail::scan::DeviceScanInitKernel<cub::NS::ScanTileState<int, true> >(int)"
SCAN = "void cub::NS::detail::scan::DeviceScanKernel<Policy, int*, int*>(int*, int*, int)"
MARK = "fidcub_mark()"
STDOUT = "call 0: InclusiveSum i32 2048\ncall 1: ExclusiveSum i32 65536\ncall 2: InclusiveSum f64 65536\nok\n"


def sim_launch(kernel, grid, block, ld=0, st=0, ldc=0, stc=0, gld=0, gst=0, poll=0, atom=0):
    return {"kernel": kernel, "grid": [grid, 1, 1], "block": [block, 1, 1], "shared_load_wavefronts": ld,
            "shared_store_wavefronts": st, "shared_load_conflicts": ldc, "shared_store_conflicts": stc,
            "global_load_sectors": gld, "global_store_sectors": gst, "global_poll_sectors": poll,
            "global_atom_sectors": atom, "shared_wavefronts": ld + st, "bank_conflicts": ldc + stc}


# the simulator's launches: three calls, each a marker, CUB's init kernel
# and its scan kernel
SIM = [
    sim_launch(MARK, 1, 1),
    sim_launch(INIT, 1, 128, gst=9),
    sim_launch(SCAN, 1, 128, ld=300, st=293, ldc=96, stc=96, gld=260, gst=256),
    sim_launch(MARK, 2, 1),
    sim_launch(INIT, 1, 128, gst=14),
    # 22 tiles: 184 of the load sectors are polls of the look-back; 5 are
    # an atomic's, which Nsight Compute's load sectors do not count
    sim_launch(SCAN, 22, 128, ld=6688, st=6509, ldc=2112, stc=2112, gld=8385, gst=8235, poll=184, atom=5),
    sim_launch(MARK, 3, 1),
    sim_launch(INIT, 1, 128, gst=29),
    sim_launch(SCAN, 25, 224, ld=13994, st=12872, ldc=4200, stc=4200, gld=16787, gst=16433, poll=396),
]
WF_LD, WF_ST, C_LD, C_ST, S_LD, S_ST = (m for m, _ in fidelity_cub.SIX)
OWN_LD, OWN_ST = fidelity_cub.OWN


def measured(k):
    """What the made-up GPU measured for SIM[k]: the prediction, but for
    the differences chosen here."""
    c = fidelity_cub.predicted(SIM[k])
    if k == 5:
        c[S_LD] += 14      # more polls on the GPU: timing
        c[WF_LD] += 4      # other traffic: the l1tex count only ...
        c[C_LD] += 4       # ... and its conflicts, the kernel's own (c - (w - own)) equal
    if k == 8:
        c[C_ST] += 2       # the kernel's own conflicts differ
        c[WF_ST] += 2
        c[OWN_ST] += 2
    return c


with tempfile.TemporaryDirectory() as d:
    # ---- the GPU document from an ncu log --------------------------------------
    ncu, out = os.path.join(d, "ncu.csv"), os.path.join(d, "out.txt")
    with open(out, "w") as f:
        f.write("==PROF== Connected to process 7\n" + STDOUT)
    with open(ncu, "w", newline="") as f:
        f.write("==PROF== Disconnected from process 7\n")
        w = csv.writer(f, quoting=csv.QUOTE_ALL)
        w.writerow(["ID", "Kernel Name", "Block Size", "Grid Size"] + fidelity_cub.METRICS)
        w.writerow(["", "", "", ""] + ["sector"] * len(fidelity_cub.METRICS))  # the units row
        for k, s in enumerate(SIM):
            c = measured(k)
            w.writerow([str(k), s["kernel"], f"({s['block'][0]}, 1, 1)", f"({s['grid'][0]}, 1, 1)"]
                       + [f"{c[m]:,}" for m in fidelity_cub.METRICS])
    g = tool("gpu", "--ncu", ncu, "--out", out, "--args", "i32,f64 2048 65536", "--device", "Test GPU",
             "--nvcc", "V13.0.88")
    check(g.returncode == 0, f"gpu: exit {g.returncode}: {g.stderr}")
    gdoc = json.loads(g.stdout) if g.returncode == 0 else {"launches": []}
    gl = gdoc["launches"]
    check(len(gl) == 6, f"gpu: the markers left out, 6 launches: {len(gl)}")
    check([(x["call"], x["index"]) for x in gl] == [("InclusiveSum i32 2048", 0), ("InclusiveSum i32 2048", 1),
                                                    ("ExclusiveSum i32 65536", 0), ("ExclusiveSum i32 65536", 1),
                                                    ("InclusiveSum f64 65536", 0), ("InclusiveSum f64 65536", 1)],
          f"gpu: each launch under the call its marker opened: {[(x['call'], x['index']) for x in gl]}")
    check(len(gl) == 6 and gl[3]["counts"][S_LD] == 8385 - 5 + 14 and isinstance(gl[3]["counts"][S_LD], int),
          f"gpu: a count with thousands separators read as an integer: {gl[3]['counts'][S_LD] if gl else None}")
    check(gdoc.get("args") == ["i32,f64", "2048", "65536"] and gdoc.get("device") == "Test GPU",
          f"gpu: the arguments and device kept: {gdoc.get('args')}, {gdoc.get('device')}")
    gpu_json = os.path.join(d, "gpu.json")
    with open(gpu_json, "w") as f:
        f.write(g.stdout)

    # ---- the comparison ---------------------------------------------------------
    run_json = os.path.join(d, "run.json")
    with open(run_json, "w") as f:
        json.dump({"findings": 0, "launches": SIM}, f)
    cmp_json = os.path.join(d, "cmp.json")
    c = tool("compare", gpu_json, run_json, out, "--args", "i32,f64", "2048", "65536", "--nvcc", "V13.0.88",
             "--json", cmp_json)
    check(c.returncode == 0, f"compare: exit {c.returncode}: {c.stderr}")
    text = c.stdout
    # 6 launches: the three init kernels and the one-tile scan equal; the
    # 22-tile scan off by polls and other traffic only; the f64 scan off
    # in its own store conflicts
    check("all six counts equal: 4 of 6 launches (66.7%)" in text, f"compare: the share of all six equal:\n{text}")
    check("each count equal: shared ld wavefronts 5 of 6, shared st wavefronts 5 of 6, ld conflicts 5 of 6, "
          "st conflicts 5 of 6, global ld sectors 5 of 6, global st sectors 6 of 6" in text,
          f"compare: each count's share:\n{text}")
    check("differing only where the GPU's count depends on timing: 1" in text, f"compare: timing only:\n{text}")
    check("with the kernel's own shared counts (polls still differences): 4 of 6 (66.7%)" in text,
          f"compare: the polls still count as differences:\n{text}")
    check("differing in the kernel's own counts: 1" in text, f"compare: the kernel's own:\n{text}")
    scan22 = [ln for ln in text.splitlines() if ln.startswith("ExclusiveSum i32 65536") and "DeviceScanKernel" in ln]
    check(len(scan22) == 1 and "8380/8394 *" in scan22[0] and "global ld sectors +14: 184 of the predicted are polls"
          in scan22[0] and "wavefronts ld: other traffic" in scan22[0],
          f"compare: the atomic's sectors left out, the polls and other traffic named: {scan22}")
    scan25 = [ln for ln in text.splitlines() if ln.startswith("InclusiveSum f64") and "DeviceScanKernel" in ln]
    check(len(scan25) == 1 and "4200/4202 *" in scan25[0] and "conflicts st: the kernel's own count differs"
          in scan25[0], f"compare: the kernel's own difference: {scan25}")
    doc = json.load(open(cmp_json)) if os.path.exists(cmp_json) else {"summary": {}, "rows": []}
    check(doc["summary"].get("all_six_equal") == 4 and doc["summary"].get("compared") == 6 and
          len(doc["rows"]) == 6 * len(fidelity_cub.METRICS), f"compare: the document's summary: {doc['summary']}")
    # the document's rows as tools/fidelity_data.py reads them
    six = subprocess.run([sys.executable, os.path.join(tools, "fidelity_data.py"), "six", cmp_json],
                         capture_output=True, text=True)
    check(six.returncode == 0 and "all six counts equal: 4 of 6 launches" in six.stdout,
          f"fidelity_data.py six on the document: {six.stdout} {six.stderr}")

    # ---- launches that do not match ------------------------------------------
    other = [dict(x) for x in SIM]
    other[8] = dict(SIM[8], grid=[26, 1, 1])
    with open(run_json, "w") as f:
        json.dump({"findings": 0, "launches": other}, f)
    c = tool("compare", gpu_json, run_json, out, "--args", "i32,f64", "2048", "65536")
    check(c.returncode == 1 and "grid [25, 1, 1] block [224, 1, 1], the simulator grid [26, 1, 1]" in c.stderr
          and "all six counts equal: 4 of 5 launches" in c.stdout,
          f"compare: another grid is not compared, exit 1: {c.returncode} {c.stderr}")
    with open(run_json, "w") as f:
        json.dump({"findings": 2, "launches": SIM}, f)
    c = tool("compare", gpu_json, run_json, out, "--args", "i32", "2048")
    check(c.returncode == 1 and "the simulated run had 2 findings" in c.stderr and
          "the GPU ran the program with ['i32,f64', '2048', '65536'], the simulator with ['i32', '2048']" in c.stderr,
          f"compare: findings and other arguments said, exit 1: {c.returncode} {c.stderr}")

    # ---- bad input: one line, exit 2 ------------------------------------------
    c = tool("compare", os.path.join(d, "none.json"), run_json, out)
    check(c.returncode == 2 and len(c.stderr.strip().splitlines()) == 1 and "none.json" in c.stderr,
          f"compare: a missing file, one line, exit 2: {c.returncode} {c.stderr}")
    with open(gpu_json, "w") as f:
        f.write("{not json")
    c = tool("compare", gpu_json, run_json, out)
    check(c.returncode == 2 and len(c.stderr.strip().splitlines()) == 1, f"compare: damaged JSON: {c.stderr}")
    script = os.path.join(tools, "fidelity-cub.sh")
    for args in ([], ["--compare", gpu_json], ["--compare", os.path.join(d, "none.json"), d]):
        p = subprocess.run(["bash", script] + args, capture_output=True, text=True)
        check(p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1 and "fidelity-cub" in p.stderr,
              f"fidelity-cub.sh {args}: one line, exit 2: {p.returncode} {p.stderr}")

print(f"{len(failures)} failed" if failures else "all checks passed")
sys.exit(1 if failures else 0)
