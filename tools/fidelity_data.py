"""The fidelity data (docs/data/fidelity-<gpu>.json) summarised: what
tools/fidelity_doc.py prints, and model/fidelity.c computes the same for
`scanlab report`.

A row: {"algo", "kernel", "type", "n", "block", "launch", "blocks",
"metric", "predicted", "measured", ...}; time rows (gpu__time_duration.sum)
add "bytes" (global bytes the simulator counted), "bound", "chain",
"scaled"; global load rows of polling kernels add "poll_sectors".
"""
import itertools
import json
import sys

from fidelity_join import METRICS, TIME  # noqa: F401  (re-exported)

BIG_BYTES = 1 << 20     # launches moving more than this are held to the 25% goal
TIME_TOLERANCE = 0.25
# shared wavefronts and conflicts as the l1tex counters give them, which
# also count what other traffic through the L1 data banks cost the
# kernel's shared instructions ...
SHARED = [m for m, f in METRICS if m.startswith("l1tex__") and ("wavefronts" in f or "conflicts" in f)]
# ... and the kernel's own: SASS-attributed wavefronts, and the conflicts
# less that other traffic (fidelity_join.own_conflicts, "measured_own")
SHARED_OWN = [m for m, f in METRICS if m.startswith("smsp__sass_l1tex_")] + \
    [m for m in SHARED if "conflicts" in m]
SECTORS = [m for m, f in METRICS if f.startswith("global_")]


def short(metric):
    """A column name: l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum -> conflicts ld"""
    names = {"bank_conflicts": "conflicts", "wavefronts": "wavefronts", "inst_executed": "shared inst",
             "t_sectors": "global sectors", "branch_targets": "div branches", "time_duration": "time"}
    word = next((v for k, v in names.items() if k in metric), metric)
    if metric.startswith("smsp__sass_l1tex_"):
        word = "own " + word  # the wavefronts of the kernel's own shared instructions
    side = " ld" if "_ld.sum" in metric else " st" if "_st.sum" in metric else ""
    return word + side


def launch_key(r):
    return (r["algo"], r["kernel"], r["type"], r["n"], r["block"], r["launch"])


def per_launch(rows):
    """[(key, {metric: row})] in the file's order."""
    out, index = [], {}
    for r in rows:
        k = launch_key(r)
        if k not in index:
            index[k] = len(out)
            out.append((k, {}))
        out[index[k]][1][r["metric"]] = r
    return out


def own(r):
    """A row's measurement of the kernel's own instructions (the conflicts
    less those of other traffic, where the run measured that)."""
    return r.get("measured_own", r["measured"])


def polling(bym):
    r = bym.get("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum")
    return bool(r and r.get("poll_sectors"))


def summarise(rows):
    per_metric = {}
    for m, _ in METRICS:
        rs = [r for r in rows if r["metric"] == m and r["measured"] is not None]
        per_metric[m] = (sum(r["predicted"] == r["measured"] for r in rs), len(rs))
    launches = per_launch(rows)
    shared_exact = shared_total = 0
    own_exact = own_total = 0
    kernels, own_kernels = set(), set()
    sectors_exact = sectors_total = 0
    sectors_off = set()
    for key, bym in launches:
        rs = [bym[m] for m in SHARED if m in bym and bym[m]["measured"] is not None]
        if len(rs) == len(SHARED):
            shared_total += 1
            kernels.add(key[1].rsplit("_", 2)[0])  # the kernel, whatever its type
            shared_exact += all(r["predicted"] == r["measured"] for r in rs)
        rs = [bym[m] for m in SHARED_OWN if m in bym and bym[m]["measured"] is not None]
        if len(rs) == len(SHARED_OWN) and all("measured_own" in bym[m] for m in SHARED_OWN if "conflicts" in m):
            own_total += 1
            own_kernels.add(key[1].rsplit("_", 2)[0])
            own_exact += all(r["predicted"] == own(r) for r in rs)
        rs = [bym[m] for m in SECTORS if m in bym and bym[m]["measured"] is not None]
        if len(rs) == len(SECTORS) and not polling(bym):
            sectors_total += 1
            if all(r["predicted"] == r["measured"] for r in rs):
                sectors_exact += 1
            else:
                sectors_off.add(key[1])
    # time: launches moving more than 1 MB, and pairs of whole scans
    trs = [r for r in rows if r["metric"] == TIME and r["measured"] and r["predicted"] is not None]
    big = [r for r in trs if (r.get("bytes") or 0) > BIG_BYTES and r["launch"] >= 0]
    within = sum(abs(r["predicted"] - r["measured"]) <= TIME_TOLERANCE * r["measured"] for r in big)
    totals = {}
    for r in rows:
        if r["metric"] != TIME or r["type"] != "i32" or r["n"] < (1 << 24) or r["measured"] is None:
            continue
        t = totals.setdefault(r["n"], {}).setdefault(r["algo"], [0.0, 0.0])
        t[0] = None if t[0] is None or r["predicted"] is None else t[0] + r["predicted"]
        t[1] += r["measured"]
    pairs, ranks = {}, {}
    for n, by_algo in totals.items():
        items = sorted(by_algo.items(), key=lambda kv: kv[1][1])
        ranks[n] = [(a, p, m) for a, (p, m) in items]
        ok = tot = 0
        for (a, (pa, ma)), (b, (pb, mb)) in itertools.combinations(items, 2):
            if pa is None or pb is None or ma == mb:
                continue
            tot += 1
            ok += (pa < pb) == (ma < mb)
        pairs[n] = (ok, tot)
    return {
        "per_metric": per_metric,
        "goals": {"shared_exact": shared_exact, "shared_total": shared_total, "shared_kernels": len(kernels),
                  "own_exact": own_exact, "own_total": own_total, "own_kernels": len(own_kernels),
                  "sectors_exact": sectors_exact, "sectors_total": sectors_total,
                  "sectors_kernels_off": sorted(sectors_off)},
        "time": {"big": len(big), "within": within, "pairs": pairs, "totals": ranks},
    }


# the six counts of a launch held to Nsight Compute's as the counters give
# them (issue 32's counter goal): shared load and store wavefronts and bank
# conflicts, global load and store sectors
SIX = [m for m in SHARED] + SECTORS
OWN_WAVEFRONTS = {m: o for m in SHARED if "wavefronts" in m
                  for o in SHARED_OWN if "wavefronts" in o and o[-7:] == m[-7:]}


def timing_only(r, bym):
    """Whether a differing count of the six differs only by what depends on
    timing on the GPU: a shared count whose kernel's own instructions were
    predicted exactly (the SASS-attributed wavefronts; the conflicts less
    other traffic), the rest being other traffic through the L1 data banks;
    or the global load sectors of a polling kernel."""
    m = r["metric"]
    if m in SECTORS:
        return "_ld." in m and bool(r.get("poll_sectors"))
    if "conflicts" in m:
        return "measured_own" in r and r["predicted"] == r["measured_own"]
    o = bym.get(OWN_WAVEFRONTS.get(m))
    return bool(o) and o["measured"] is not None and o["predicted"] == o["measured"]


def six_counts(rows, sizes=None):
    """Launches (of the sizes given, default all) with all six counts
    measured: {"total", "equal", "timing": keys of those whose every
    differing count differs only by what depends on timing (timing_only),
    "code": keys of the others, "own_equal": launches equal when each
    shared count is held to the kernel's own instructions' (the polls still
    counted as differences)}."""
    out = {"total": 0, "equal": 0, "timing": [], "code": [], "own_equal": 0}
    for key, bym in per_launch(rows):
        if sizes and key[3] not in sizes:
            continue
        rs = [bym.get(m) for m in SIX]
        if not all(r and r["measured"] is not None for r in rs):
            continue
        out["total"] += 1
        off = [r for r in rs if r["predicted"] != r["measured"]]
        if not off:
            out["equal"] += 1
            out["own_equal"] += 1
        elif all(timing_only(r, bym) for r in off):
            out["timing"].append(key)
            out["own_equal"] += all(r["metric"] not in SECTORS for r in off)
        else:
            out["code"].append(key)
    return out


def automatic_cause(r, sass):
    """A cause the data shows by itself, or None."""
    if r["metric"] == "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum" and r.get("poll_sectors"):
        return (f"polling: {r['poll_sectors']} of the predicted sectors are spin-wait loads, whose number "
                "depends on timing on the GPU as in the simulator")
    ops = (sass or {}).get(r["kernel"], {})
    wide = sorted(op for op in ops if op.split(".")[0] in ("LDS", "STS") and
                  any(w in op.split(".") for w in (("64", "128") if r["type"] in ("i32", "f32") else ("128",))))
    if wide and "shared" in r["metric"]:
        return ("the compiler merged shared accesses into vector accesses (SASS: " + ", ".join(
            f"{op} x{ops[op]}" for op in wide) + ")")
    return None


def main(argv):
    """fidelity_data.py six DOC.json [N ...]: the six counts' comparison of
    DOC's launches (of sizes N), one line each for the launches that
    differ."""
    if len(argv) < 3 or argv[1] != "six":
        print("usage: tools/fidelity_data.py six DOC.json [N ...]", file=sys.stderr)
        return 2
    try:
        with open(argv[2]) as f:
            rows = json.load(f)["rows"]
        sizes = {int(x) for x in argv[3:]}
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"fidelity_data.py six: {argv[2]}: {e}", file=sys.stderr)
        return 2
    c = six_counts(rows, sizes)
    t = c["total"] or 1
    print(f"all six counts equal: {c['equal']} of {c['total']} launches ({100 * c['equal'] / t:.1f}%)")
    print(f"differing only where the GPU's count depends on timing: {len(c['timing'])}")
    print(f"with the kernel's own shared counts (polls still differences): {c['own_equal']} of {c['total']} "
          f"({100 * c['own_equal'] / t:.1f}%)")
    print(f"differing in the kernel's own counts: {len(c['code'])}")
    for what, keys in (("timing", c["timing"]), ("own", c["code"])):
        for k in keys:
            print(f"  {what}: {' '.join(str(x) for x in k)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
