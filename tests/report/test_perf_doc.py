#!/usr/bin/env python3
"""tools/perf_doc.py on made-up bench documents: the verdicts of the GPU
targets at their edges (2^16 by GPU time and by call time), the chained
scans' model line with one hand-off for each status word width (and the
one-figure line of older runs), merge keeping both hand-offs, and render
writing only between its markers.

  test_perf_doc.py TOOLS_DIR

Exits 0 when every check holds, 1 with the failed checks on stderr. No
figure here is a measurement: the documents are written by hand so that
each verdict sits on one side of its limit."""
import json
import os
import subprocess
import sys
import tempfile

tools = sys.argv[1]
sys.path.insert(0, tools)
import perf_doc  # noqa: E402

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAILED: " + what, file=sys.stderr)


def row(algo, t, excl, ms, **kw):
    r = {"algo": algo, "type": t, "op": "add", "exclusive": excl, "n": 1 << 28, "median_ms": ms,
         "gbps": 1.0, "frac_of_copy": 0.5, "vs_cub": 1.0, "bound": 2, "bound_ms": ms, "predicted_ms": None,
         "cache_resident": False, "repeatable": True, "reps": 20}
    r.update(kw)
    return r


def verdicts(d):
    return {t[0]: (t[1], t[2]) for t in perf_doc.target_rows(d)}


def main_set(lookback_vs_cub, frac_i32, det_ratio, chained_ratio, handoff16=0.27):
    rs = []
    for t in ("i32", "f32", "i64", "f64"):
        for excl in (False, True):
            rs.append(row("lookback", t, excl, 1.0, vs_cub=lookback_vs_cub if (t, excl) == ("f64", True) else 1.01,
                          frac_of_copy=frac_i32 if t == "i32" else 0.95))
            rs.append(row("lookback-det", t, excl, 1.0 / det_ratio))
            rs.append(row("chained-static", t, excl, 10.0 * chained_ratio, predicted_ms=10.0))
            rs.append(row("reduce-then-scan", t, excl, 1.15, bound=3, bound_ms=1.0))
    return {"date": "x", "block": 0, "param": 0, "handoff_us": 0.25, "handoff16_us": handoff16,
            "command": "scanlab bench --backend cuda", "results": rs}


# --- the verdicts at their edges --------------------------------------------
met = {"sets": {"main-incl": main_set(1.0, 0.90, 0.95, 1.25)}}
v = verdicts(met)
check(v["lookback no slower than CUB at 2^28 (every type, incl. and excl.)"] == ("worst vs CUB 1.000 (f64 excl.)", "met"),
      "lookback at exactly CUB's speed is met: %s" % (v.get("lookback no slower than CUB at 2^28 (every type, incl. and excl.)"),))
check(v["lookback >= 0.90 of the copy, i32"][1] == "met", "0.90 of the copy is met")
check(v["lookback-det >= 0.95 of lookback's throughput (floats, 2^28)"][1] == "met", "0.95 of lookback is met")
check(v["chained-static within 25% of its latency model"] == ("worst 25% off", "met"),
      "25%% above the model is met: %s" % (v.get("chained-static within 25% of its latency model"),))
check(v["reduce-then-scan at most 1.15x its 3n bound"][1] == "met", "1.15x the bound is met")

missed = {"sets": {"main-incl": main_set(0.999, 0.899, 0.949, 1.2501)}}
v = verdicts(missed)
check(v["lookback no slower than CUB at 2^28 (every type, incl. and excl.)"] == ("worst vs CUB 0.999 (f64 excl.)", "not met"),
      "0.999 of CUB is not met, and the worst row is named")
check(v["lookback >= 0.90 of the copy, i32"][1] == "not met", "0.899 of the copy is not met")
check(v["lookback-det >= 0.95 of lookback's throughput (floats, 2^28)"][1] == "not met", "0.949 of lookback is not met")
check(v["chained-static within 25% of its latency model"][1] == "not met", "25.01% above the model is not met")
fast = {"sets": {"main-incl": main_set(1.0, 0.9, 0.95, 0.70)}}
check(verdicts(fast)["chained-static within 25% of its latency model"] == ("worst 30% off", "not met"),
      "30% below the model is as far off as 30% above")
check(perf_doc.target_rows({"sets": {}}) == [], "no runs, no targets")

# --- 2^16 timed as calls: its own verdict, and no late-run count --------------
def latency_set(ratio):
    rs = [row("cub", "i32", False, 0.010, n=1 << 16, late_runs=None),
          row("lookback", "i32", False, 0.010 * ratio, n=1 << 16, vs_cub=1 / ratio, late_runs=None)]
    return {"date": "x", "timing": "call", "command": "scanlab bench --backend cuda --timing call", "results": rs}


def gpu_sizes(late):
    return {"date": "x", "command": "scanlab bench --backend cuda",
            "results": [row("lookback", "i32", False, 0.008, n=1 << 16, vs_cub=1.25, late_runs=late)]}


call_key = "lookback at 2^16 at most 0.7x CUB's time, i32, call time (CUB 10.0 us)"
gpu_key = "lookback at 2^16 at most 0.7x CUB's time, i32, GPU time"
late_key = "every timed run began after the host had queued it (GPU time alone)"
v = verdicts({"sets": {"latency": latency_set(0.7), "sizes": gpu_sizes(0)}})
check(v.get(call_key) == ("0.700 x", "met"), "0.7 of CUB's call time is met: %s" % (v.get(call_key),))
check(v.get(gpu_key) == ("0.800 x", "not met"), "the GPU-time row keeps its own verdict: %s" % (v.get(gpu_key),))
check(v.get(late_key) == ("0 late of 20", "met"), "a call-timed set adds no runs to the late count: %s" % (v.get(late_key),))
v = verdicts({"sets": {"latency": latency_set(0.701), "sizes": gpu_sizes(2)}})
check(v.get(call_key) == ("0.701 x", "not met"), "0.701 of CUB's call time is not met: %s" % (v.get(call_key),))
check(v.get(late_key) == ("2 late of 20", "not met"), "late runs of a GPU-time set still count")
lines = []
perf_doc.section_latency({"sets": {"latency": latency_set(0.6)}}, lines)
check(any("| i32 | 2^16 | - | 10.0 | 6.0 | 0.600 |" in l for l in lines),
      "the call-time table holds microseconds and the time ratio: %s" % lines)

# --- the chained scans' model line --------------------------------------------
s = main_set(1.0, 0.9, 0.95, 1.0)
line = perf_doc.handoff_line(s)
check("0.250 us (8-byte words, 4-byte elements)" in line and "0.270 us (16-byte words, 8-byte elements)" in line,
      "both hand-offs in the model line: " + line)
old = dict(s, handoff16_us=None, handoff_us=0.272)
check(perf_doc.handoff_line(old) == "model ms: the chained scans' tiles x one hand-off between two blocks, "
      "0.272 us as measured in the same run.\n", "a run before the 16-byte hand-off keeps its own line")

with tempfile.TemporaryDirectory() as tmp:
    # --- merge keeps both hand-offs and the command --------------------------
    bench = os.path.join(tmp, "main-incl.json")
    one = {k: s[k] for k in ("date", "block", "param", "handoff_us", "handoff16_us", "results")}
    one.update(device="Test GPU", sms=4, l2_bytes=1 << 20)
    with open(bench, "w") as fh:
        json.dump(one, fh)
    with open(os.path.join(tmp, "main-incl.cmd"), "w") as fh:
        fh.write("scanlab bench --backend cuda --algo chained-static\n")
    merged = os.path.join(tmp, "merged.json")
    p = subprocess.run([sys.executable, os.path.join(tools, "perf_doc.py"), "merge", merged, bench],
                       capture_output=True, text=True)
    check(p.returncode == 0, "merge exits 0: " + p.stderr)
    m = json.load(open(merged)) if p.returncode == 0 else {"sets": {}}
    ms = m["sets"].get("main-incl", {})
    check(ms.get("handoff_us") == 0.25 and ms.get("handoff16_us") == 0.27, "merge keeps both hand-offs: %s" % ms.keys())
    check(ms.get("command") == "scanlab bench --backend cuda --algo chained-static", "merge keeps the command")

    # --- render writes between its markers only -------------------------------
    doc = os.path.join(tmp, "perf.md")
    with open(doc, "w") as fh:
        fh.write("before\n%s\nstale table\n%s\nafter\n" % (perf_doc.BEGIN, perf_doc.END))
    p = subprocess.run([sys.executable, os.path.join(tools, "perf_doc.py"), "render", merged, "--doc", doc],
                       capture_output=True, text=True)
    check(p.returncode == 0, "render exits 0: " + p.stderr)
    text = open(doc).read()
    check(text.startswith("before\n") and text.endswith("after\n") and "stale table" not in text,
          "render replaces what lies between the markers and nothing else")
    check("chained-static within 25% of its latency model | worst 0% off | met" in text,
          "the rendered targets hold the chained verdict")
    check("0.270 us (16-byte words, 8-byte elements)" in text, "the rendered model line names the 16-byte hand-off")
    p = subprocess.run([sys.executable, os.path.join(tools, "perf_doc.py"), "render", os.path.join(tmp, "none.json"),
                        "--doc", doc], capture_output=True, text=True)
    check(p.returncode != 0 and "no GPU run recorded" in p.stderr and open(doc).read() == text,
          "render without data says so and changes nothing")

if failures:
    print("%d check(s) failed" % len(failures), file=sys.stderr)
    sys.exit(1)
print("perf_doc: all checks hold")
