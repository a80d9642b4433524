#!/usr/bin/env python3
"""Writes docs/model-fidelity.md from docs/data/fidelity-<gpu>.json (made
by tools/fidelity.sh on a GPU host) and tools/fidelity_causes.txt (the
cause of each known difference, read in the SASS).

  tools/fidelity_doc.py [DATA.json] [CAUSES.txt] [OUT.md]

A check run, DATA-check.json (other sizes, types or blocks than DATA's,
made after the model was fitted to DATA), gets its own line: how many of
its launches the simulator predicted exactly.

An earlier run of the same launches on the same GPU, DATA-earlier.json
beside DATA.json, shows which hardware counts do not repeat from run to
run: a difference on a launch whose kernel compiled to the same SASS in
both runs (the opcode counts of the "sass" summaries) and whose measured
count changed between them is put down to timing, and the exact share is
also given over the launches whose counts repeated.

Without the data file (no GPU run recorded yet) the page says so and
describes the method. Exit status 0, or 2 when a file given cannot be read.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fidelity_data  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

METHOD = """\
## Method

`tools/gpu-check.sh fidelity` runs `tools/fidelity.sh` on the GPU host:

1. the launch set comes from `cuda/kernels.def`: every block-level scan,
   device-level scan and reduction that the build runs on both `sim` and
   `cuda`, each an inclusive add scan (or reduction) of i32 and i64 at
   n = 2048, 65536 and 2^20 with the algorithm's default block, and at
   65536 with 128 threads per block; `two-level` gets 132 ranges on both
   backends (its defaults differ between them);
2. `tools/fidelity_run sim` runs each case in the simulator and prints every
   launch's counts (docs/metrics.md, "Per launch") and predicted time; a
   grid-stride kernel's occupancy query answers what the measured device
   holds of its blocks by threads and shared memory (the GPU's answer also
   counts registers), so that below that many tiles both backends launch
   a block per tile;
3. `tools/fidelity_run cuda` runs the same cases on the GPU under Nsight
   Compute (`ncu --metrics ... --kernel-name regex:'_cuda$' --clock-control
   none --csv --page raw`, one process per algorithm, each bounded by
   `timeout`), with the metrics of the table below;
4. the scans run again at 2^24 and 2^28 (i32) with `gpu__time_duration.sum`
   alone, for the time model; the simulator runs 2^24 itself and stands for
   2^28 by its 2^24 launches with every multi-block launch's counts and
   blocks multiplied by 16 (a grid sized by an occupancy query, of a
   grid-stride or persistent kernel, at most what the device holds; a grid
   the caller fixed, two-level's 132 ranges, keeps its size and its blocks'
   steps grow 16 times instead);
5. `tools/fidelity_ubench` measures the time model's constants, and
   `cuobjdump -sass` dumps the compared kernels' SASS into the stage's work
   archive, where the causes below were read;
6. `tools/fidelity_join.py` joins the launches in order (kernel names
   checked, and grid sizes too in the counter passes; a time row keeps the
   GPU's grid beside the simulator's where they differ, `gpu_blocks`) into
   `docs/data/fidelity-<gpu>.json`, one row per
   launch and metric, and `tools/fidelity_doc.py` writes this page. After a
   change to the simulator, `tools/fidelity.sh --rejoin BUILD ARCHIVE` joins
   a run's work archive again (its Nsight Compute logs kept, the simulator
   run anew), and `tools/fidelity.sh --repredict BUILD` makes the
   predictions of the rows already joined again.

| Nsight Compute metric | the simulator's count (per launch) |
| --- | --- |
| `l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum`, `_op_st.sum` | bank conflicts of shared loads, stores |
| `l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum`, `_op_st.sum` | shared wavefronts of loads, stores |
| `smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum`, `_op_st.sum` | the same |
| `smsp__sass_inst_executed_op_shared_ld.sum`, `_st.sum` | warp-level shared loads, stores |
| `l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum`, `_op_st.sum` | 32-byte sectors of global loads (volatile and strong included, atomics not), stores |
| `smsp__sass_branch_targets_threads_divergent.sum` | divergent branches (per warp and sweep, docs/metrics.md) |
| `gpu__time_duration.sum` (ns) | the time model's prediction |

The l1tex wavefront and conflict counters count what the L1 data banks
spent on the kernel's shared instructions, and that includes the wavefronts
a shared access waited while the global loads and stores of the blocks
resident beside held the banks: those depend on timing and change from run
to run, and the counters add them to the conflicts as well. The
SASS-attributed counter (`smsp__sass_l1tex_...`) counts the wavefronts
that each shared instruction's own addresses need, which is what the
simulator counts. The page therefore gives two figures: the counters as
they are, and the kernel's own counts, with the conflicts taken as the
l1tex count less the difference of the two wavefront counts
(`measured_own` in the data).

## The time model

`model/timemodel.c` prices a launch from the simulator's counts and the
constants of one GPU (`model/devices.def`, measured by
`tools/fidelity_ubench`: device-wide copy bandwidth, DRAM and L2 round
trips of a dependent load, one link of a cross-block flag chain, the
shared-memory wavefront rate of one SM and a dependent shared load, a
barrier interval with nothing in it for one block of 8 and of 32 warps
alone on each SM, and the duration of an empty kernel as Nsight Compute
times it). B is the number of blocks an SM runs at once, a wave the blocks
the whole GPU holds at once:

    stream  = 32 B x (global load + store + atomic sectors) / the copy
              bandwidth (scaled by the share of SMs the grid occupies)
    memory  = the same bytes over what the resident blocks keep in flight:
              each block's loads of one load round (a barrier interval
              that loads; `load_rounds` counts them) over twice the DRAM
              round trip (Little's law); never below stream
    shared  = shared wavefronts / (wavefront rate x SMs in use)
    barrier = per SM: the rounds of B blocks it runs x barrier intervals
              per block x the longer of a lone block's interval
              (barrier_ns + barrier_ns_per_warp x its warps) and
              barrier_ns_per_warp x the SM's resident warps
    latency = waves x (load rounds x twice the DRAM round trip + own steps
              x shared round trip + intervals x a lone block's interval)
              (`own_steps`: the slowest block's steps without its waits
              for other blocks)
    chain   = cross-block waits in series x chain link
    own     = one block's own path: latency / waves
    work    = max(stream, shared + barrier)
              + min(stream, shared + barrier) / B
    total   = launch + max(work, memory, latency, chain + own)

While one block waits at its barriers the other B - 1 on its SM can
stream, so the shorter of the two sides hides but for a share 1/B. The
chain runs beside the work: a block loads and combines its tile before it
waits for its predecessor, so the other blocks' work goes on while the
chain passes from block to block, and only the last block's own path
follows the last link. A chain through every tile (the chained scans) is
the launch's time; a chain of a few links (the windows of `lookback-det`)
hides under the streaming. The barrier constants are those of an interval
with nothing in it: a level of a tree in shared memory costs every
resident warp at least that, and more for the instructions it runs, which
the model does not count ("Where the block scans' time goes" below).

`scanlab simulate` prints each launch's prediction for the device in
`model/devices.def` (`predicted_ns` in `--json`).
"""


def fmt(x):
    if x is None:
        return "-"
    if isinstance(x, float) and not x.is_integer():
        return f"{x:.0f}" if abs(x) >= 100 else f"{x:.3g}"
    return f"{int(x)}"


def pct(a, b):
    return "-" if b == 0 else f"{100.0 * a / b:.1f}%"


def read_causes(path):
    """[(kernel regex, metric regex, cause, confirmed)]"""
    out = []
    if not path or not os.path.exists(path):
        return out
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            # fields are separated by " | ": a regex may use | itself
            parts = [p.strip() for p in line.split(" | ", 3)]
            if len(parts) != 4:
                print(f"fidelity_doc.py: {path}: not 'status | kernel | metric | cause': {line}", file=sys.stderr)
                continue
            status, kern, metric, cause = parts
            out.append((re.compile(kern), re.compile(metric), cause, status in ("sass", "definition", "runs")))
    return out


def earlier_measures(doc, earlier):
    """{(launch key, metric): measured} of the earlier run, for the kernels
    whose SASS summary is the same in both runs."""
    if not earlier:
        return {}
    now, then = doc.get("sass") or {}, earlier.get("sass") or {}
    same = {k for k in now if k in then and now[k] == then[k]}
    return {(fidelity_data.launch_key(r), r["metric"]): r["measured"] for r in earlier["rows"]
            if r["kernel"] in same and r["measured"] is not None}


def unrepeated(r, before):
    """The earlier run's count of r when it differs from this run's."""
    b = before.get((fidelity_data.launch_key(r), r["metric"]))
    return None if b is None or b == r["measured"] else b


def other_traffic(r, bym):
    """The cause of an l1tex shared count that the SASS-attributed count
    shows to be other traffic's, or None."""
    op = "ld" if r["metric"].endswith("_ld.sum") else "st"
    attributed = bym.get(f"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_{op}.sum")
    if not r["metric"].startswith("l1tex__data_") or not attributed or attributed["measured"] is None:
        return None
    if attributed["measured"] != attributed["predicted"]:
        return None
    if "conflicts" in r["metric"] and fidelity_data.own(r) != r["predicted"]:
        return None
    extra = (bym[f"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{op}.sum"]["measured"] - attributed["measured"])
    return (f"other traffic: the kernel's own shared instructions needed {fmt(attributed['measured'])} "
            f"wavefronts, as predicted (`{fidelity_data.short(attributed['metric'])}`); the L1 data banks "
            f"served {fmt(extra)} more for them while the global loads and stores of the blocks resident "
            "beside held the banks, and the l1tex counters count those as wavefronts and as conflicts")


def cause_of(r, causes, sass, before, bym=None):
    ot = other_traffic(r, bym or {})
    if ot:
        return ot
    b = unrepeated(r, before)
    timing = None
    if b is not None:
        what = ("it also counts conflicts with the other traffic of the L1 data banks (the global loads and "
                "stores of the blocks resident beside), which depends on timing"
                if "_mem_shared_" in r["metric"] else "it depends on timing")
        timing = (f"the GPU's own count does not repeat: {fmt(b)} in the earlier run, {fmt(r['measured'])} in "
                  f"this one, the same SASS; {what}")
    for kern, metric, cause, confirmed in causes:
        if (kern.search(r["kernel"]) or kern.search(r["algo"])) and metric.search(r["metric"]):
            text = cause if confirmed else cause + " (from the source; to confirm in the SASS)"
            return text + ("; besides, " + timing if timing else "")
    if timing:
        return timing
    auto = fidelity_data.automatic_cause(r, sass)
    return auto or "not established yet: read this kernel's SASS in the stage's work archive"


def no_data_page(data_path):
    return (
        "# How far the simulator's counts hold on the GPU\n\n"
        "This page is generated by `tools/fidelity_doc.py` from the measurement file\n"
        f"`{os.path.relpath(data_path, ROOT)}`, which `tools/gpu-check.sh fidelity` writes on the GPU\n"
        "host. **No GPU run has been recorded yet**, so there is no table: nothing\n"
        "below is a measured figure. Once the file exists, run\n\n"
        "    python3 tools/fidelity_doc.py\n\n"
        "to regenerate this page with the table, the share of launches predicted\n"
        "exactly per metric, the cause of every difference and the time model's\n"
        "error.\n\n" + METHOD)


def repeated_share(rows, before):
    """(exact, total) over the launches whose four shared counts were
    measured in both runs with the same result."""
    exact = total = 0
    for _, bym in fidelity_data.per_launch(rows):
        rs = [bym[m] for m in fidelity_data.SHARED if m in bym and bym[m]["measured"] is not None]
        if len(rs) != len(fidelity_data.SHARED):
            continue
        if any((fidelity_data.launch_key(r), r["metric"]) not in before or unrepeated(r, before) is not None
               for r in rs):
            continue
        total += 1
        exact += all(r["predicted"] == r["measured"] for r in rs)
    return exact, total


def chain_lines(rows, constants):
    """What the GPU took per link of a cross-block chain, from the launches
    whose predicted time is mostly their chain, against the constant."""
    link, launch = constants.get("chain_link_ns"), constants.get("launch_ns") or 0
    if not link:
        return []
    per = sorted((r["measured"] - launch) / r["chain"] for r in rows
                 if r["metric"] == fidelity_data.TIME and r.get("chain") and r["measured"] and r["predicted"]
                 and r["chain"] * link > r["predicted"] / 2 and r["chain"] >= 100)
    if not per:
        return []
    med = per[len(per) // 2]
    return ["## The chains' links\n",
            f"Over the {len(per)} launches of at least 100 links whose predicted time is mostly their chain "
            f"(chain links x `chain_link_ns` above half of it), the GPU took {fmt(per[0])} to {fmt(per[-1])} ns "
            f"per link (median {fmt(med)}), measured time less the empty launch over the links, against "
            f"`chain_link_ns` = {fmt(link)} of the constants ({link / med:.2f} times the median), as "
            "`tools/fidelity_ubench` measured it in the same run.\n"]


def grid_lines(rows):
    """The time rows at the measured size (not scaled) whose launch the GPU
    ran on another grid than the simulator, and why."""
    other = [r for r in rows if r["metric"] == fidelity_data.TIME and r.get("gpu_blocks") is not None
             and not r.get("scaled")]
    if not other:
        return []
    L = ["Launches the GPU ran on another grid than the simulator (the same tiles and work; the "
         "time is predicted for the simulator's grid):\n",
         "| scan | kernel | n | launch | simulator's blocks | GPU's blocks |",
         "| --- | --- | ---: | ---: | ---: | ---: |"]
    for r in other:
        L.append(f"| {r['algo']} | {r['kernel']} | {r['n']} | {r['launch']} | {r['blocks']} | {r['gpu_blocks']} |")
    L.append("\nThe grid-stride kernels size their grid by an occupancy query. The GPU's answer counts the "
             "kernel's registers; the simulator's counts threads, blocks and shared memory only. A kernel "
             "of many registers therefore gets fewer blocks on the GPU (`nvcc -Xptxas -v` prints a kernel's "
             "registers). The ticketed single-pass scans run as many "
             "blocks as the GPU holds, each drawing tiles, and one block per tile in the simulator. The "
             "time pass joins its launches by kernel names; the scaled rows carry their GPU grids too.\n")
    return L


def issue_lines(rows, issue, issue_path):
    """Where the block scans' time goes: Nsight Compute's instruction and
    stall counts of each scan's launches over 20 us (tools/issue-profile.sh)
    beside the time model's prediction of the same launch."""
    if not issue or not issue.get("rows"):
        return []
    n = issue.get("n")
    pred = {(r["algo"], r["kernel"], r["launch"]): r["predicted"] for r in rows
            if r["metric"] == fidelity_data.TIME and r["n"] == n and r["type"] == issue.get("type")}
    L = ["## Where the block scans' time goes\n",
         f"`tools/issue-profile.sh` ({os.path.relpath(issue_path, ROOT)}: {issue.get('device')}, "
         f"{issue.get('date')}, `{issue.get('command')}`) ran every scan at n = {n} ({issue.get('type')} add) "
         "under Nsight Compute once more for what the simulator does not count: the instructions the warps "
         "issued (`smsp__inst_executed.sum`), the share of cycles a sub-partition issued one "
         "(`smsp__issue_active`), the resident warps against the most an SM holds (`sm__warps_active`) "
         "and the two largest stall reasons (warps stalled per instruction issued, "
         "`smsp__average_warps_issue_stalled_*_per_issue_active`). Launches over 20 us; predicted is the "
         "time model's time of the same launch above.\n",
         "| scan | kernel | launch | measured us | predicted us | pred / meas | instructions | issue active | "
         "warps resident | stalled on |",
         "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    busy = []
    for r in issue["rows"]:
        if r["time_ns"] <= 20000:
            continue
        p = pred.get((r["algo"], r["kernel"], r["launch"]))
        ratio = None if not p else p / r["time_ns"]
        top = sorted(r["stalls"].items(), key=lambda kv: -kv[1])[:2]
        L.append(f"| {r['algo']} | {r['kernel']} | {r['launch']} | {r['time_ns'] / 1e3:.1f} | "
                 f"{'-' if not p else f'{p / 1e3:.1f}'} | {'-' if ratio is None else f'{ratio:.2f}'} | "
                 f"{r['inst'] / 1e6:.1f} M | {r['issue_pct']:.0f}% | {r['warps_active_pct']:.0f}% | "
                 + ", ".join(f"{k.replace('_', ' ')} {v:.1f}" for k, v in top) + " |")
        if r["issue_pct"] >= 60 and ratio is not None:
            busy.append((r["algo"], ratio, r["issue_pct"]))
    L.append("")
    if busy:
        low = [(a, x) for a, x, _ in busy if x < 0.85]
        L.append("Launches whose sub-partitions issued an instruction in at least 60% of their cycles: "
                 + ", ".join(f"{a} ({i:.0f}%, predicted {x:.2f} of measured)" for a, x, i in busy)
                 + ". They are bound by issuing instructions. The simulator counts dialect calls, not "
                 "instructions: the index arithmetic, loop control and branches that the compiler emits "
                 "around a kernel's accesses and operator applications, in every resident warp, are priced "
                 "only through the barrier constants, whose interval has nothing in it and so is the least an "
                 "interval costs. How many instructions a dialect call becomes depends on the kernel's index "
                 "arithmetic, and no count of the simulator follows it"
                 + (": where it is heavy the model is low, as for "
                    + ", ".join(f"{a} ({x:.2f})" for a, x in low) if low else "")
                 + ".\n")
    return L


def page(doc, data_path, causes, earlier=None, earlier_path=None, check=None, check_path=None,
         issue=None, issue_path=None):
    rows, sass = doc["rows"], doc.get("sass") or {}
    before = earlier_measures(doc, earlier)
    s = fidelity_data.summarise(rows)
    L = []
    L.append("# How far the simulator's counts hold on the GPU\n")
    L.append(f"Generated by `tools/fidelity_doc.py` from `{os.path.relpath(data_path, ROOT)}`: "
             f"{doc.get('device') or 'GPU'}, {doc.get('date')}, `{doc.get('command')}`. "
             "Every launch below ran in the simulator and on the GPU (Nsight Compute); "
             "predicted is the simulator's count, measured the hardware counter.\n")
    rj = doc.get("rejoined")
    if rj:
        L.append(f"The run's measurements (its work archive) were joined again on {rj.get('date')} with the "
                 f"simulator as it was then, by `{rj.get('command')}`: {rj.get('rows')} rows, against "
                 f"{rj.get('rows_before')} in the first join.\n")
    rp = doc.get("repredicted")
    if rp:
        kept = rp.get("times_kept")
        L.append(f"The predicted counts and times were made again on {rp.get('date')} by `{rp.get('command')}` "
                 f"(the simulator and the time model as they are now, with this run's device constants; the "
                 f"measured values kept; {rp.get('changed')} predicted values changed"
                 + (f"; the predicted times of {kept} launches the simulator did not run again were kept"
                    if kept else "") + ").\n")
    if earlier:
        L.append(f"An earlier run of the same launches on the same GPU (`{os.path.relpath(earlier_path, ROOT)}`, "
                 f"{earlier.get('date')}, `{earlier.get('command')}`) shows which hardware counts repeat, "
                 "on the kernels that compiled to the same SASS opcode counts in both runs.\n")
    L.append("## Exact predictions per metric\n")
    L.append("| metric | launches | exact | share |")
    L.append("| --- | ---: | ---: | ---: |")
    for m, (exact, total) in s["per_metric"].items():
        L.append(f"| `{m}` | {total} | {exact} | {pct(exact, total)} |")
    g = s["goals"]
    L.append("")
    if g["own_total"]:
        L.append(f"- Shared wavefronts and bank conflicts of the kernel's own shared instructions (loads and "
                 f"stores: the SASS-attributed wavefronts, and the conflicts less the wavefronts other traffic "
                 f"added) all exact: {g['own_exact']} of {g['own_total']} launches "
                 f"({pct(g['own_exact'], g['own_total'])}) over {g['own_kernels']} kernels "
                 "(goal: 95% over at least 15).")
    L.append(f"- Shared wavefronts and bank conflicts as the l1tex counters give them (loads and stores; they "
             f"also count what other traffic through the L1 data banks cost the shared instructions) all exact: "
             f"{g['shared_exact']} of {g['shared_total']} launches ({pct(g['shared_exact'], g['shared_total'])}) "
             f"over {g['shared_kernels']} kernels" + ("" if g["own_total"] else " (goal: 95% over at least 15)")
             + ".")
    if before:
        ex, tot = repeated_share(rows, before)
        L.append(f"- The same, over the launches whose four shared counts the GPU measured alike in both runs: "
                 f"{ex} of {tot} ({pct(ex, tot)}).")
    if check:
        cg = fidelity_data.summarise(check["rows"])["goals"]
        sizes = sorted({r["n"] for r in check["rows"] if r["metric"] != fidelity_data.TIME})
        types = sorted({r["type"] for r in check["rows"] if r["metric"] != fidelity_data.TIME})
        L.append(f"- The same on the check run (`{os.path.relpath(check_path, ROOT)}`, {check.get('date')}, "
                 f"`{check.get('command')}`, "
                 f"launches not used to fit the model: {', '.join(types)} at n = "
                 f"{', '.join(str(n) for n in sizes)}): {cg['shared_exact']} of {cg['shared_total']} launches "
                 f"({pct(cg['shared_exact'], cg['shared_total'])}) over {cg['shared_kernels']} kernels.")
    six = fidelity_data.six_counts(rows)
    if six["total"]:
        L.append(f"- All six of shared load and store wavefronts, load and store bank conflicts (as the l1tex "
                 f"counters give them) and global load and store sectors exact: {six['equal']} of {six['total']} "
                 f"launches ({pct(six['equal'], six['total'])}). Of the others, {len(six['timing'])} differ only "
                 "where the GPU's count depends on timing (other traffic through the L1 data banks, the kernel's "
                 "own shared counts exact; a polling kernel's load sectors) and "
                 f"{len(six['code'])} in the kernel's own counts; with each shared count held to the kernel's own "
                 f"instructions' (polls still differences), {six['own_equal']} of {six['total']} "
                 f"({pct(six['own_equal'], six['total'])}).")
    L.append(f"- Global sectors (loads and stores) exact on deterministic kernels (no polling): "
             f"{g['sectors_exact']} of {g['sectors_total']} launches; kernels with a difference: "
             f"{', '.join(g['sectors_kernels_off']) or 'none'}.")
    t = s["time"]
    L.append(f"- Time model: {t['within']} of {t['big']} launches moving more than 1 MB within 25% "
             f"({pct(t['within'], t['big'])}; goal 80%); pairs of scans in the right order: "
             + ("; ".join(f"n = {n}: {ok} of {tot} ({pct(ok, tot)})" for n, (ok, tot) in sorted(t['pairs'].items()))
                or "none measured at 2^24 or above")
             + " (goal 90%).\n")
    diffs = [r for r in rows if r["metric"] != fidelity_data.TIME and r["measured"] is not None
             and r["predicted"] != r["measured"]]
    L.append("## Every difference and its cause\n")
    if not diffs:
        L.append("None: every count was predicted exactly.\n")
    else:
        L.append("| kernel | type | n | block | launch | metric | predicted | measured | cause |")
        L.append("| --- | --- | ---: | ---: | ---: | --- | ---: | ---: | --- |")
        bykey = dict(fidelity_data.per_launch(rows))
        for r in diffs:
            L.append(f"| {r['kernel']} ({r['algo']}) | {r['type']} | {r['n']} | {r['block']} | {r['launch']} | "
                     f"`{fidelity_data.short(r['metric'])}` | {fmt(r['predicted'])} | {fmt(r['measured'])} | "
                     f"{cause_of(r, causes, sass, before, bykey.get(fidelity_data.launch_key(r)))} |")
        L.append("")
    if doc.get("problems"):
        L.append("Launches left out of the comparison:\n")
        for p in doc["problems"]:
            L.append(f"- {p}")
        L.append("")
    L.append("## The table\n")
    L.append("Predicted / measured per launch (`=` where they agree).\n")
    cols = [m for m, _ in fidelity_data.METRICS]
    L.append("| algorithm | kernel | type | n | block | launch | " +
             " | ".join(fidelity_data.short(m) for m in cols) + " | time ns (pred / meas) |")
    L.append("| --- | --- | --- | ---: | ---: | ---: | " + " | ".join("---:" for _ in cols) + " | ---: |")
    for key, bym in fidelity_data.per_launch(rows):
        cells = []
        for m in cols:
            r = bym.get(m)
            if r is None:
                cells.append("")
            elif r["predicted"] == r["measured"]:
                cells.append(f"{fmt(r['predicted'])} =")
            else:
                cells.append(f"{fmt(r['predicted'])} / {fmt(r['measured'])}")
        tr = bym.get(fidelity_data.TIME)
        tcell = f"{fmt(tr['predicted'])} / {fmt(tr['measured'])}" if tr else ""
        algo, kernel, typ, n, block, launch = key
        L.append(f"| {algo} | {kernel} | {typ} | {n} | {block} | {launch} | " + " | ".join(cells) + f" | {tcell} |")
    L.append("")
    L.extend(chain_lines(rows, doc.get("constants") or {}))
    L.append("## Predicted against measured time of whole scans\n")
    for n, ranks in sorted(s["time"]["totals"].items()):
        L.append(f"n = {n} (i32): predicted and measured time of all launches, in microseconds.\n")
        L.append("| scan | predicted | measured | error |")
        L.append("| --- | ---: | ---: | ---: |")
        for algo, pred, meas in ranks:
            err = "-" if pred is None or not meas else f"{100.0 * (pred - meas) / meas:+.0f}%"
            L.append(f"| {algo} | {fmt(None if pred is None else pred / 1e3)} | {fmt(meas / 1e3)} | {err} |")
        L.append("")
    L.extend(grid_lines(rows))
    L.extend(issue_lines(rows, issue, issue_path))
    c = doc.get("constants")
    if c:
        L.append("## Device constants of this run\n")
        L.append("| constant | value |")
        L.append("| --- | ---: |")
        for k in sorted(c):
            L.append(f"| `{k}` | {c[k]} |")
        L.append("")
    L.append(METHOD)
    return "\n".join(L)


def beside(data, what):
    """(path, document) of DATA-<what>.json beside DATA, or (path, None)
    when there is none; a file that cannot be read raises OSError."""
    path = data[:-5] + f"-{what}.json" if data.endswith(".json") else data + f"-{what}"
    if not os.path.exists(path):
        return path, None
    try:
        with open(path) as f:
            return path, json.load(f)
    except (OSError, ValueError) as e:
        raise OSError(f"{path}: {e}") from e


def main(argv):
    data = argv[1] if len(argv) > 1 else os.path.join(ROOT, "docs", "data", "fidelity-h100.json")
    causes = argv[2] if len(argv) > 2 else os.path.join(ROOT, "tools", "fidelity_causes.txt")
    out = argv[3] if len(argv) > 3 else os.path.join(ROOT, "docs", "model-fidelity.md")
    if len(argv) > 2 and not os.path.exists(causes):
        print(f"fidelity_doc.py: cannot read {causes}", file=sys.stderr)
        return 2
    if os.path.exists(data):
        try:
            with open(data) as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            print(f"fidelity_doc.py: {data}: {e}", file=sys.stderr)
            return 2
        try:
            earlier_path, earlier = beside(data, "earlier")
            check_path, check = beside(data, "check")
            issue_path, issue = beside(data, "issue")
        except OSError as e:
            print(f"fidelity_doc.py: {e}", file=sys.stderr)
            return 2
        text = page(doc, data, read_causes(causes), earlier, earlier_path, check, check_path, issue, issue_path)
    else:
        text = no_data_page(data)
    tmp = out + ".tmp"
    with open(tmp, "w") as f:
        f.write(text.rstrip("\n") + "\n")
    os.replace(tmp, out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
