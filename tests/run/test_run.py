#!/usr/bin/env python3
"""Unchanged nvcc-built programs under `scanlab run -- PROGRAM` and
`scanlab deadlock -- PROGRAM`, with the exit status and the findings each
one's header documents.

  test_run.py PROGRAMS_DIR BUILD_DIR      (the scanlab binary from $SCANLAB)

PROGRAMS_DIR holds the .cu sources (each finding is checked at the line of
the .cu that carries its marker comment: "// RACE", "BUG: out of bounds",
"// WAIT"); BUILD_DIR the programs the build compiled from them with
`nvcc -cudart shared -lineinfo -arch=sm_90` (and scan_ok_static, built
without -cudart shared). Prints TAP and exits 1 if any case failed."""
import json
import os
import re
import subprocess
import sys
import tempfile
import time

TIMEOUT = 300
SRC = os.path.abspath(sys.argv[1])
BIN = os.path.abspath(sys.argv[2])
SCANLAB = os.environ.get("SCANLAB", "")
FINDING_RE = re.compile(r"^(?P<path>.*):(?P<line>\d+): error: (?P<msg>.*)$")


class CaseFailed(Exception):
    pass


ENV = dict(os.environ)


def run(args, program_args=()):
    cmd = [SCANLAB] + list(args)
    try:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=TIMEOUT, env=ENV)
    except subprocess.TimeoutExpired:
        raise CaseFailed("timed out after %d s: %s" % (TIMEOUT, " ".join(cmd)))
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace"), " ".join(cmd)


def describe(rc, out, err, cmd):
    return "%s\nexit status %d\nstderr:\n%s\nstdout:\n%s" % (cmd, rc, err[-3000:] or "(empty)",
                                                             out[-3000:] or "(empty)")


def prog(name):
    return os.path.join(BIN, name)


def marker_line(cu, marker):
    with open(os.path.join(SRC, cu), encoding="utf-8") as f:
        lines = [k + 1 for k, t in enumerate(f) if marker in t and not t.lstrip().startswith("//")]
    if len(lines) != 1:
        raise CaseFailed("%s: %d code lines carry %r (the test and the program disagree)" % (cu, len(lines), marker))
    return lines[0]


def findings(text):
    out = []
    for line in text.splitlines():
        m = FINDING_RE.match(line)
        if m:
            out.append((os.path.basename(m.group("path")), int(m.group("line")), m.group("msg")))
    return out


def expect(cond, why, res):
    if not cond:
        raise CaseFailed(why + "\n" + describe(*res))


# ---- the cases ----------------------------------------------------------------
def case_ok():
    res = run(["run", "--", prog("scan_ok"), "3000"])
    rc, out, err, _ = res
    expect(rc == 0, "a correct program exits 0", res)
    expect("scan of 3000: no error, 0 wrong, timed" in out, "the program's own output is kept and right", res)
    expect("3 launches on the simulator" in out, "its three launches are listed", res)
    for k in ("block_scan", "scan_sums", "add_back"):
        expect(re.search(r"launch \d+: %s grid" % k, out), "launch of %s listed" % k, res)
    expect(not findings(out + err), "no finding", res)


def case_ok_json():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "run.json")
        res = run(["run", "--json", path, "--", prog("scan_ok"), "1000"])
        expect(res[0] == 0, "exit 0 with --json", res)
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        expect(not os.path.exists(path + ".partial"), "no partial file left", res)
    ls = doc["launches"]
    expect(doc["findings"] == 0 and len(ls) == 3, "3 launches and no finding in the document: %s" % doc, res)
    expect(ls[0]["kernel"].startswith("block_scan(") and ls[0]["grid"] == [4, 1, 1] and ls[0]["block"] == [256, 1, 1],
           "the first launch's kernel, grid and block: %s" % ls[0], res)
    expect(ls[0]["barriers"] > 0 and ls[0]["instructions"] > 0, "the first launch's counts", res)
    # loads and stores apart, each a conflict-free warp access of 4-byte
    # words: per block of 8 warps, 9 stores each (the tile, then one per
    # step of the 8); loads: the neighbour at each step by the warps with a
    # lane at or past it (5 x 8 + 7 + 6 + 4), the own word at each step (8
    # x 8), the result (8) and the block's total (1); 4 blocks
    split = [ls[0][k] for k in ("shared_load_wavefronts", "shared_store_wavefronts", "shared_load_conflicts",
                                "shared_store_conflicts", "global_poll_sectors", "global_atom_sectors")]
    expect(split == [4 * 130, 4 * 72, 0, 0, 0, 0] and split[0] + split[1] == ls[0]["shared_wavefronts"],
           "the first launch's shared wavefronts loads and stores apart: %s" % split, res)


def case_ok_schedules():
    res = run(["run", "--schedules", "3", "--", prog("scan_ok"), "600"])
    expect(res[0] == 0 and "3 schedules" in res[1], "three schedules of each launch, no finding", res)


def case_race():
    line = marker_line("scan_race.cu", "// RACE")
    res = run(["run", "--", prog("scan_race")])
    rc, out, err, _ = res
    expect(rc == 1, "a race fails the run (exit 1)", res)
    fs = findings(out)
    expect(fs and all(f[0] == "scan_race.cu" and f[1] == line and "race" in f[2] for f in fs),
           "every finding a race at scan_race.cu:%d" % line, res)
    res = run(["run", "--allow-races", "--", prog("scan_race")])
    expect(res[0] == 0, "--allow-races: the program's status (0)", res)


def case_oob():
    line = marker_line("scan_oob.cu", "BUG: out of bounds")
    res = run(["run", "--", prog("scan_oob")])
    rc, out, err, _ = res
    expect(rc == 1, "an out-of-bounds read fails the run", res)
    expect("after the launch: cudaErrorIllegalAddress" in out, "the program sees the GPU's error", res)
    fs = findings(out)
    expect(len(fs) == 1 and fs[0][:2] == ("scan_oob.cu", line) and "out of bounds" in fs[0][2],
           "one out-of-bounds finding at scan_oob.cu:%d" % line, res)


def case_chained_run():
    res = run(["run", "--", prog("chained_static")])
    expect(res[0] == 0 and "chained scan: 0 wrong" in res[1], "in-order dispatch: correct, no finding", res)


def case_chained_deadlock():
    line = marker_line("chained_static.cu", "// WAIT")
    res = run(["deadlock", "--", prog("chained_static")])
    rc, out, err, _ = res
    expect(rc == 1, "a deadlock under obe fails", res)
    expect(re.search(r"search obe, 3 blocks, 2 resident, exhaustive: DEADLOCK", out), "obe: DEADLOCK", res)
    expect(re.search(r"chained_static\.cu:%d: block \d thread 0 spins" % line, out), "the wait at its line", res)
    expect(re.search(r"search fair, 3 blocks, 3 resident, exhaustive: deadlock-free", out), "fair: free", res)
    res = run(["deadlock", "--model", "fair", "--", prog("chained_static")])
    expect(res[0] == 0 and "search obe" not in res[1], "--model fair alone: free, exit 0", res)


def case_grid_barrier():
    res = run(["run", "--", prog("grid_barrier"), "coop"])
    expect(res[0] == 0 and "cooperative launch: cudaSuccess, 0 wrong" in res[1],
           "a cooperative launch: every block resident, correct, no finding", res)
    line = marker_line("grid_barrier.cu", "// WAIT")
    res = run(["run", "--", prog("grid_barrier"), "plain"])
    fs = findings(res[1])
    expect(res[0] == 1 and len(fs) == 1 and fs[0][:2] == ("grid_barrier.cu", line) and "deadlock" in fs[0][2],
           "the same grid barrier under <<<>>>: a deadlock at grid_barrier.cu:%d" % line, res)
    expect("plain launch: cudaErrorLaunchTimeout" in res[1], "the program sees the launch's error", res)


def case_unsupported():
    res = run(["run", "--", prog("unsupported_api")])
    rc, out, err, _ = res
    expect(rc == 0 and "out[31] = 7" in out, "the program falls back and is right: its status, 0", res)
    named = [l for l in err.splitlines() if "cudaStreamBeginCapture" in l]
    expect(len(named) == 1 and "not supported" in named[0], "one line on stderr naming the call", res)
    expect("not supported: cudaStreamBeginCapture" in out, "the record names it too", res)


def case_static():
    res = run(["run", "--", prog("scan_ok_static")])
    expect(res[0] == 2 and "-cudart shared" in res[2] and len(res[2].splitlines()) == 1,
           "a static-runtime program: one message with the rebuild flag, exit 2", res)


def case_status_kept():
    res = run(["run", "--", "sh", "-c", "exit 5"])
    expect(res[0] == 5, "a program's own exit status is kept", res)


def case_usage():
    for args in (["run"], ["run", "--"], ["run", "--", "/nonexistent/program"], ["run", "--schedules", "0", "--",
                                                                                  prog("scan_ok")],
                 ["run", "--model", "nope", "--", prog("scan_ok")], ["run", "--bogus", "--", prog("scan_ok")]):
        res = run(args)
        expect(res[0] == 2 and len(res[2].splitlines()) == 1 and res[2].startswith("scanlab: run:"),
               "bad use: one message naming the command, exit 2", res)


CASES = [("run: correct program", case_ok), ("run --json", case_ok_json), ("run --schedules 3", case_ok_schedules),
         ("run: race at its line", case_race), ("run: out of bounds at its line", case_oob),
         ("run: chained scan in order", case_chained_run), ("deadlock -- PROGRAM: obe and fair", case_chained_deadlock),
         ("run: grid barrier, cooperative and not", case_grid_barrier),
         ("run: unsupported call named once", case_unsupported), ("run: static runtime refused", case_static),
         ("run: the program's status kept", case_status_kept), ("run: bad use", case_usage)]


# ---- CUB ---------------------------------------------------------------------
CUB_SIZES = ["1", "100", "1000", "4097", "65535", "65536"]


def case_cub():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "cub.json")
        t0 = time.monotonic()
        res = run(["run", "--json", path, "--", prog("cub_device")] + CUB_SIZES)
        seconds = time.monotonic() - t0
        rc, out, err, _ = res
        expect(rc == 0 and "cub_device: 0 failures, cudaSuccess" in out, "every result right, exit 0", res)
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    ls = doc["launches"]
    expect(doc["findings"] == 0 and all(l["findings"] == 0 and l["races"] == 0 and not l["stopped"] for l in ls),
           "no finding in any launch", res)
    for k in ("DeviceScanKernel", "DeviceSelectSweepKernel", "DeviceRadixSort"):
        expect(any(k in l["kernel"] for l in ls), "a launch of %s" % k, res)
    print("# %d launches of CUB's kernels in %.1f s" % (len(ls), seconds))


def case_cub_lookback():
    """CUB's scan and select assign tiles by blockIdx and wait on their
    predecessors' tile status (decoupled look-back). At 5000 elements their
    launches have 2 tiles; with one residency slot every schedule is
    searched. The verdicts are the ones docs/run.md records."""
    res = run(["deadlock", "--model", "obe,lobe", "--resident", "1", "--", prog("cub_device"), "5000"])
    rc, out, err, _ = res
    expect("cub_device: 0 failures" in out, "the run itself is right", res)
    obe = [l for l in out.splitlines() if l.startswith("  search obe, 2 blocks, 1 resident, exhaustive")]
    lobe = [l for l in out.splitlines() if l.startswith("  search lobe, 2 blocks, 1 resident, exhaustive")]
    expect(len(obe) == 9 and len(lobe) == 9, "the 8 scans' and the select's look-back launches searched", res)
    expect(all("deadlock-free" in l for l in lobe), "lobe (blocks start in id order): deadlock-free", res)
    expect(all("DEADLOCK" in l for l in obe) and rc == 1,
           "obe: DEADLOCK (block 1 dispatched first waits for block 0, which never gets the slot)", res)
def case_thrust():
    res = run(["run", "--", prog("thrust_scan_sort"), "20000"])
    expect(res[0] == 0 and "thrust: 0 wrong, sum 9990000" in res[1] and not findings(res[1]),
           "Thrust's scan, sort and reduce: right, no finding", res)


CUB_CASES = [("cub: DeviceScan, DeviceSelect, DevicePartition, DeviceRadixSort to 2^16", case_cub),
             ("thrust: inclusive_scan, sort, reduce", case_thrust),
             ("cub: look-back searched under obe and lobe", case_cub_lookback)]


def main():
    global CASES
    if len(sys.argv) > 3 and sys.argv[3] == "cub":
        CASES = CUB_CASES
    if not SCANLAB:
        print("Bail out! $SCANLAB is not set")
        return 1
    print("1..%d" % len(CASES))
    failed = 0
    for k, (name, fn) in enumerate(CASES, 1):
        try:
            fn()
            print("ok %d - %s" % (k, name))
        except CaseFailed as e:
            failed += 1
            print("not ok %d - %s" % (k, name))
            for line in str(e).splitlines():
                print("# " + line)
        sys.stdout.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
