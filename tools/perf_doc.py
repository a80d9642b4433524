#!/usr/bin/env python3
"""The GPU part of docs/performance.md, from a recorded run.

    tools/perf_doc.py table BENCH.json             one `scanlab bench --backend
                                                   cuda --json` document as text
    tools/perf_doc.py merge OUT.json FILE.json...  the bench and simulate JSON of
                                                   one tools/gpu-check.sh run in
                                                   one document (done by the script)
    tools/perf_doc.py render [DATA] [--doc FILE]   the GPU tables and plot of
                                                   docs/performance.md from DATA
                                                   (default docs/data/bench-h100.json)

render replaces what lies between the markers
    <!-- gpu-tables:begin --> and <!-- gpu-tables:end -->
in the doc with tables made from DATA only, and draws DATA's GB/s against n
as an SVG beside DATA (gnuplot). Without DATA it says so and changes
nothing: no table of the doc holds a number that no run produced.
"""
import json
import math
import os
import re
import shutil
import subprocess
import sys

BEGIN = "<!-- gpu-tables:begin -->"
END = "<!-- gpu-tables:end -->"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_DATA = os.path.join(ROOT, "docs", "data", "bench-h100.json")
DEFAULT_DOC = os.path.join(ROOT, "docs", "performance.md")


def die(msg, status=1):
    print("perf_doc: " + msg, file=sys.stderr)
    sys.exit(status)


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        die("%s: %s" % (path, e))


def fmt(x, digits=3):
    if x is None:
        return "-"
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, int):
        return str(x)
    return "%.*f" % (digits, x)


def log2n(n):
    k = int(round(math.log2(n))) if n > 0 else 0
    return "2^%d" % k if n == 1 << k else str(n)


def md_table(header, rows):
    out = ["| " + " | ".join(header) + " |", "| " + " | ".join("---" for _ in header) + " |"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def row_cells(r):
    return [r["algo"], fmt(r["median_ms"], 4), fmt(r["gbps"], 1), fmt(r["frac_of_copy"]), fmt(r["vs_cub"]),
            "%gn" % r["bound"], fmt(r["bound_ms"] / r["median_ms"]), fmt(r.get("predicted_ms")),
            "same" if r.get("repeatable") else "DIFFER"]


ROW_HEADER = ["algorithm", "median ms", "GB/s", "of copy", "vs CUB", "traffic", "of bound", "model ms", "run to run"]


def configs(results):
    """Rows grouped by (type, op, exclusive, n), in the order they came."""
    groups = {}
    for r in results:
        groups.setdefault((r["type"], r["op"], r["exclusive"], r["n"]), []).append(r)
    return groups


def cmd_table(args):
    if len(args) != 1:
        die("usage: perf_doc.py table BENCH.json", 2)
    d = load(args[0])
    print("%s, %s" % (d.get("device"), d.get("date")))
    for (t, op, ex, n), rows in configs(d.get("results", [])).items():
        print("\n%s %s %s n=%s%s" % (t, op, "exclusive" if ex else "inclusive", log2n(n),
                                     " (cache-resident)" if rows[0].get("cache_resident") else ""))
        print("  ".join("%-14s" % h for h in ROW_HEADER))
        for r in rows:
            print("  ".join("%-14s" % c for c in row_cells(r)))


def set_name(path):
    return os.path.splitext(os.path.basename(path))[0]


def cmd_merge(args):
    if len(args) < 1:
        die("usage: perf_doc.py merge OUT.json FILE.json...", 2)
    out, files = args[0], [f for f in args[1:] if os.path.isfile(f)]
    merged = {"device": None, "date": None, "sets": {}, "sim": {}}
    for f in sorted(files):
        name = set_name(f)
        try:
            with open(f) as fh:
                d = json.load(fh)
        except (OSError, ValueError) as e:
            print("perf_doc: skipping %s: %s" % (f, e), file=sys.stderr)
            continue
        if name.startswith("sim-"):
            m = re.match(r"sim-(.*)-n(\d+)$", name)
            if m:
                keep = {k: d.get(k) for k in ("algo", "n", "type", "correct", "work", "steps", "barriers",
                                              "launches", "blocks", "global_load_elements",
                                              "global_store_elements", "bank_conflicts")}
                merged["sim"].setdefault(m.group(1), {})[m.group(2)] = keep
            continue
        cmd_file = os.path.splitext(f)[0] + ".cmd"
        cmd = open(cmd_file).read().strip() if os.path.isfile(cmd_file) else None
        merged["device"] = merged["device"] or d.get("device")
        merged["date"] = max(merged["date"] or "", d.get("date") or "") or None
        keys = ("date", "block", "param", "timing", "handoff_us", "handoff16_us", "sms", "l2_bytes")
        merged["sets"][name] = {k: d.get(k) for k in keys}
        merged["sets"][name]["command"] = cmd
        merged["sets"][name]["results"] = d.get("results", [])
    if not merged["sets"]:
        die("no bench results among %d files" % len(files))
    with open(out, "w") as fh:
        json.dump(merged, fh, indent=1)
        fh.write("\n")
    print("perf_doc: %s: %d bench sets, %d simulated" % (out, len(merged["sets"]), len(merged["sim"])))


# --- render ---------------------------------------------------------------


def find(rows, **kw):
    return [r for r in rows if all(r.get(k) == v for k, v in kw.items())]


def one(rows, **kw):
    got = find(rows, **kw)
    return got[0] if got else None


def handoff_line(s):
    """What prices the chained scans of a set: one hand-off, measured as an
    empty chain through the scans' status words of either size (one
    figure, between two blocks, in sets recorded before)."""
    if s.get("handoff16_us"):
        return ("model ms: the chained scans' tiles x one hand-off, measured in the same run as an empty chain "
                "through their status words: %.3f us (8-byte words, 4-byte elements), %.3f us "
                "(16-byte words, 8-byte elements).\n" % (s["handoff_us"], s["handoff16_us"]))
    return ("model ms: the chained scans' tiles x one hand-off between two blocks, "
            "%.3f us as measured in the same run.\n" % s["handoff_us"])


def section_main(d, lines):
    for name, title in (("main-incl", "inclusive"), ("main-excl", "exclusive")):
        s = d["sets"].get(name)
        if not s:
            continue
        lines.append("#### All device-level scans, %s, n = 2^28\n" % title)
        lines.append("`%s`\n" % s["command"])
        for (t, op, ex, n), rows in configs(s["results"]).items():
            lines.append("%s %s:\n" % (t, op))
            lines.append(md_table(ROW_HEADER, [row_cells(r) for r in rows]) + "\n")
        if s.get("handoff_us"):
            lines.append(handoff_line(s))


def single_pass_table(d, name, title, header, cells):
    """A set of single-pass scans against CUB: one row per (type, n), made
    by cells(type, n, rows by algorithm) from the set's results."""
    s = d["sets"].get(name)
    if not s:
        return []
    rows = []
    for (t, op, ex, n), rs in configs(s["results"]).items():
        by = {a: one(rs, algo=a) for a in ("copy", "cub", "lookback", "lookback-det")}
        rows.append(cells(t, n, rs, by))
    return ["#### %s\n" % title, "`%s`\n" % s["command"], md_table(header, rows) + "\n"]


def section_sizes(d, lines):
    def cells(t, n, rs, by):
        lb, det = by["lookback"], by["lookback-det"]
        ms = lambda r: fmt(r and r["median_ms"], 4)
        return [t, log2n(n), "yes" if rs[0].get("cache_resident") else "no", ms(by["copy"]), ms(by["cub"]),
                ms(lb), fmt(lb and lb["vs_cub"]), ms(det), fmt(det and lb and lb["median_ms"] / det["median_ms"])]
    lines += single_pass_table(d, "sizes", "Sizes: the single-pass scans against CUB",
                               ["type", "n", "cache-resident", "copy ms", "CUB ms", "lookback ms", "lookback vs CUB",
                                "lookback-det ms", "det / lookback (throughput)"], cells)


def section_latency(d, lines):
    def cells(t, n, rs, by):
        lb, det = by["lookback"], by["lookback-det"]
        us = lambda r: fmt(r and r["median_ms"] * 1e3, 1)
        return [t, log2n(n), us(by["copy"]), us(by["cub"]), us(lb), fmt(lb and 1 / lb["vs_cub"]), us(det),
                fmt(det and 1 / det["vs_cub"])]
    lines += single_pass_table(d, "latency", "Small sizes timed as calls (launch calls included)",
                               ["type", "n", "copy us", "CUB us", "lookback us", "lookback / CUB (time)",
                                "lookback-det us", "lookback-det / CUB (time)"], cells)


def section_ops(d, lines):
    s = d["sets"].get("ops")
    if not s:
        return
    lines.append("#### Operators, n = 2^28\n")
    lines.append("`%s`\n" % s["command"])
    for (t, op, ex, n), rows in configs(s["results"]).items():
        lines.append("%s %s:\n" % (t, op))
        lines.append(md_table(ROW_HEADER, [row_cells(r) for r in rows]) + "\n")


def section_repeat(d, lines):
    s = d["sets"].get("repeat")
    if not s:
        return
    lines.append("#### Run to run: bitwise the same output?\n")
    lines.append("`%s`\n" % s["command"])
    rows = [[r["algo"], r["type"], log2n(r["n"]), r["reps"] + 1, "same" if r.get("repeatable") else "DIFFER"]
            for r in s["results"] if r["algo"] not in ("copy",)]
    lines.append(md_table(["algorithm", "type", "n", "runs compared", "result"], rows) + "\n")


def section_above(d, lines):
    s = d["sets"].get("above-2g")
    if not s:
        return
    lines.append("#### Above 2^31 elements\n")
    lines.append("`%s`\n" % s["command"])
    lines.append(md_table(ROW_HEADER, [row_cells(r) for r in s["results"]]) + "\n")


def target_rows(d):
    """The targets of the GPU work, each with the measured value and whether it holds."""
    out = []
    main = d["sets"].get("main-incl", {}).get("results", []) + d["sets"].get("main-excl", {}).get("results", [])
    lb = find(main, algo="lookback")
    if lb:
        worst = min(lb, key=lambda r: r["vs_cub"])
        out.append(["lookback no slower than CUB at 2^28 (every type, incl. and excl.)",
                    "worst vs CUB %.3f (%s %s)" % (worst["vs_cub"], worst["type"],
                                                   "excl." if worst["exclusive"] else "incl."),
                    "met" if worst["vs_cub"] >= 1.0 else "not met"])
        for t in ("i32", "f32"):
            r = one(main, algo="lookback", type=t, exclusive=False)
            if r:
                out.append(["lookback >= 0.90 of the copy, %s" % t, fmt(r["frac_of_copy"]),
                            "met" if r["frac_of_copy"] >= 0.90 else "not met"])
    sizes = d["sets"].get("sizes", {}).get("results", [])
    small = [r for r in find(sizes, algo="lookback") if r["n"] == 1 << 16]
    for r in small:
        out.append(["lookback at 2^16 at most 0.7x CUB's time, %s, GPU time" % r["type"], "%.3f x" % (1 / r["vs_cub"]),
                    "met" if 1 / r["vs_cub"] <= 0.7 else "not met"])
    calls = d["sets"].get("latency", {}).get("results", [])
    for r in [r for r in find(calls, algo="lookback") if r["n"] == 1 << 16]:
        cub = one(calls, algo="cub", type=r["type"], n=r["n"], exclusive=r["exclusive"])
        out.append(["lookback at 2^16 at most 0.7x CUB's time, %s, call time (CUB %.1f us)" % (
                    r["type"], cub["median_ms"] * 1e3 if cub else float("nan")), "%.3f x" % (1 / r["vs_cub"]),
                    "met" if 1 / r["vs_cub"] <= 0.7 else "not met"])
    big = [r for r in find(sizes, algo="lookback") if r["n"] >= 1 << 20]
    if big:
        worst = min(big, key=lambda r: r["vs_cub"])
        out.append(["lookback no slower than CUB, 2^20 .. 2^30", "worst vs CUB %.3f (%s, n = %s)" % (
            worst["vs_cub"], worst["type"], log2n(worst["n"])), "met" if worst["vs_cub"] >= 1.0 else "not met"])
    rep = d["sets"].get("repeat", {}).get("results", [])
    dets = find(rep, algo="lookback-det")
    if dets:
        ok = all(r.get("repeatable") for r in dets)
        out.append(["lookback-det bitwise the same in 50 runs (f32, f64; 2^24, 2^28)",
                    "%d of %d configurations" % (sum(bool(r.get("repeatable")) for r in dets), len(dets)),
                    "met" if ok else "not met"])
    ratios = []
    for r in find(main, algo="lookback-det"):
        l = one(main, algo="lookback", type=r["type"], exclusive=r["exclusive"])
        if l and r["type"] in ("f32", "f64"):
            ratios.append(l["median_ms"] / r["median_ms"])
    if ratios:
        out.append(["lookback-det >= 0.95 of lookback's throughput (floats, 2^28)", "worst %.3f" % min(ratios),
                    "met" if min(ratios) >= 0.95 else "not met"])
    for algo, lim in (("reduce-then-scan", 1.15), ("two-level", 1.15), ("hierarchical", 1.15)):
        rs = find(main, algo=algo)
        if rs:
            worst = max(r["median_ms"] / r["bound_ms"] for r in rs)
            out.append(["%s at most %.2fx its %gn bound" % (algo, lim, rs[0]["bound"]), "worst %.3f x" % worst,
                        "met" if worst <= lim else "not met"])
    for algo in ("chained-static", "chained-ticket"):
        rs = [r for r in find(main, algo=algo) if r.get("predicted_ms")]
        if rs:
            worst = max(abs(r["median_ms"] / r["predicted_ms"] - 1) for r in rs)
            out.append(["%s within 25%% of its latency model" % algo, "worst %.0f%% off" % (100 * worst),
                        "met" if worst <= 0.25 else "not met"])
    allrows = [r for s in d["sets"].values() for r in s.get("results", []) if r.get("late_runs") is not None]
    if allrows:
        late = sum(r["late_runs"] for r in allrows)
        out.append(["every timed run began after the host had queued it (GPU time alone)",
                    "%d late of %d" % (late, sum(r["reps"] for r in allrows)), "met" if late == 0 else "not met"])
    ops = d["sets"].get("ops", {}).get("results", [])
    if ops and main:
        for r in find(ops, algo="lookback"):
            add = one(main, algo="lookback", type=r["type"], exclusive=False)
            if add:
                out.append(["lookback %s %s in the class of add" % (r["type"], r["op"]),
                            "%.3f x add's time" % (r["median_ms"] / add["median_ms"]), ""])
    return out


def section_experiments(d, lines):
    sim = d.get("sim", {})
    sg = sorted((k for k in d["sets"] if k.startswith("sengupta-")),
                key=lambda k: (int(re.search(r"s(\d+)", k).group(1)), int(re.search(r"p(\d+)", k).group(1))))
    if sg:
        lines.append("#### Sengupta, Lefohn & Owens: reduce passes (f32 add)\n")
        lines.append("`%s` for each section size S and passes p (block B = S / 2^p).\n" % re.sub(
            r"--block \d+ --param \d+", "--block B --param p", d["sets"][sg[0]]["command"] or ""))
        rows = []
        for k in sg:
            s = d["sets"][k]
            S = int(re.search(r"s(\d+)", k).group(1))
            rs = find(s["results"], algo="sengupta")
            t18, t20 = one(rs, n=1 << 18), one(rs, n=1 << 20)
            s18, s20 = sim.get(k, {}).get("18", {}), sim.get(k, {}).get("20", {})
            rows.append([S, s["param"], s["block"], fmt(t18 and t18["median_ms"], 4),
                         fmt(t20 and t20["median_ms"], 4), s18.get("work", "-"), s18.get("steps", "-"),
                         s20.get("work", "-"), s20.get("steps", "-")])
        hs = d["sets"].get("hillis-steele")
        if hs:
            for algo in ("kogge-stone", "kogge-stone-db"):
                rs = find(hs["results"], algo=algo)
                t18, t20 = one(rs, n=1 << 18), one(rs, n=1 << 20)
                s18 = sim.get("hillis-steele", {}).get("18", {}) if algo == "kogge-stone" else {}
                s20 = sim.get("hillis-steele", {}).get("20", {}) if algo == "kogge-stone" else {}
                rows.append([1024, algo, hs["block"], fmt(t18 and t18["median_ms"], 4),
                             fmt(t20 and t20["median_ms"], 4), s18.get("work", "-"), s18.get("steps", "-"),
                             s20.get("work", "-"), s20.get("steps", "-")])
        lines.append(md_table(["S", "p", "B", "ms, 2^18", "ms, 2^20", "work, 2^18", "steps, 2^18", "work, 2^20",
                               "steps, 2^20"], rows) + "\n")
    tl = sorted((k for k in d["sets"] if k.startswith("two-level-c")), key=lambda k: int(k.split("-c")[1]))
    if tl:
        lines.append("#### Merry: the two-level scan against its block count C (i32 add)\n")
        lines.append("`%s` for each C.\n" % re.sub(r"--param \d+", "--param C", d["sets"][tl[0]]["command"] or ""))
        rows = []
        for k in tl:
            s = d["sets"][k]
            rs = find(s["results"], algo="two-level")
            t24, t28 = one(rs, n=1 << 24), one(rs, n=1 << 28)
            s22 = sim.get(k, {}).get("22", {})
            rows.append([s["param"], fmt(t24 and t24["median_ms"], 4), fmt(t24 and t24["frac_of_copy"]),
                         fmt(t28 and t28["median_ms"], 4), fmt(t28 and t28["frac_of_copy"]),
                         s22.get("work", "-"), s22.get("steps", "-")])
        lines.append(md_table(["C", "ms, 2^24", "of copy, 2^24", "ms, 2^28", "of copy, 2^28", "work, 2^22 (sim)",
                               "steps, 2^22 (sim)"], rows) + "\n")


def plot(d, svg):
    """GB/s against n for copy, CUB and the single-pass scans (i32, sizes set)."""
    s = d["sets"].get("sizes")
    gnuplot = shutil.which("gnuplot")
    if not s or not gnuplot:
        print("perf_doc: no plot (%s)" % ("no sizes set" if not s else "gnuplot not found"), file=sys.stderr)
        return False
    algos = ["copy", "cub", "lookback", "lookback-det", "reduce-then-scan"]
    data = []
    for a in algos:
        pts = sorted((r["n"], r["gbps"]) for r in find(s["results"], algo=a, type="i32"))
        data.append("\n".join("%d %.3f" % p for p in pts) + "\ne\n")
    script = ("set terminal svg size 720,420 font 'sans,11'\nset output '%s'\nset logscale x 2\n"
              "set format x '2^{%%L}'\nset xlabel 'n (i32, inclusive add)'\nset ylabel 'GB/s (2 n 4 bytes / time)'\n"
              "set key left top\nset grid\nset title '%s'\nplot %s\n%s" % (
                  svg, d.get("device", "GPU"), ", ".join("'-' with linespoints title '%s'" % a for a in algos),
                  "".join(data)))
    subprocess.run([gnuplot], input=script.encode(), check=True)
    return True


def cmd_render(args):
    doc, data = DEFAULT_DOC, DEFAULT_DATA
    rest = list(args)
    if "--doc" in rest:
        i = rest.index("--doc")
        doc = rest[i + 1]
        del rest[i:i + 2]
    if rest:
        data = rest[0]
    if not os.path.isfile(data):
        die("%s: no GPU run recorded (tools/gpu-check.sh gpubench experiments writes it to $OUT); "
            "the GPU tables are not generated" % os.path.relpath(data, ROOT))
    d = load(data)
    text = open(doc).read()
    if BEGIN not in text or END not in text:
        die("%s: markers %s ... %s not found" % (doc, BEGIN, END))
    svg = os.path.splitext(data)[0] + ".svg"
    lines = ["", "Generated by `tools/perf_doc.py render` from `%s`: %s, run of %s." % (
        os.path.relpath(data, os.path.dirname(doc)), d.get("device"), d.get("date")), ""]
    if plot(d, svg):
        lines.append("![GB/s against n](%s)\n" % os.path.relpath(svg, os.path.dirname(doc)))
    targets = target_rows(d)
    if targets:
        lines.append("#### Targets\n")
        lines.append(md_table(["target", "measured", "verdict"], targets) + "\n")
    section_main(d, lines)
    section_sizes(d, lines)
    section_latency(d, lines)
    section_ops(d, lines)
    section_repeat(d, lines)
    section_above(d, lines)
    section_experiments(d, lines)
    head, tail = text.split(BEGIN, 1)[0], text.split(END, 1)[1]
    with open(doc, "w") as fh:
        fh.write(head + BEGIN + "\n" + "\n".join(lines) + "\n" + END + tail)
    print("perf_doc: %s updated from %s" % (os.path.relpath(doc, ROOT), os.path.relpath(data, ROOT)))


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in ("table", "merge", "render"):
        die(__doc__.strip(), 2)
    {"table": cmd_table, "merge": cmd_merge, "render": cmd_render}[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    main()
