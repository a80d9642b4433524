#!/usr/bin/env python3
"""The progress tests on a GPU against scanlab's progress models.

usage: progress_observed.py [--model M] SCANLAB RUN.json [RUN.json...]

Each RUN.json is a progress run of tools/litmus_gpu (--progress N): per
test, how many testing threads were still spinning when they reached the
loop bound ("hung_threads"). A spin that did not end is the GPU showing
that the test need not terminate. scanlab's verdicts come from
`scanlab deadlock --litmus --model all --fairness weak --json` over the
same files. CUDA's promise is obe (docs/deadlock.md, "Which model
describes an NVIDIA GPU"): a test obe says terminates (under weak
fairness, the weaker promise) that hung on the GPU is a finding: either
the model is wrong or the bound too small for the GPU's speed, and either
must be looked at. --model M holds another model's verdicts against the
runs instead (a model that promises more than the GPU gives, such as fair,
must show findings: the comparison can catch a wrong model). Prints one
line per test and the findings; exit 0 none, 1 a finding, 2 bad input.
"""
import json
import subprocess
import sys

MODELS = ("obe", "lobe", "hsa", "hsa+obe", "fair")


def load_runs(paths):
    runs = {}
    for p in paths:
        try:
            d = json.load(open(p))
        except (OSError, ValueError) as e:
            print("progress_observed: %s: %s" % (p, e), file=sys.stderr)
            sys.exit(2)
        config = d.get("config", {})
        if not config.get("loop_bound"):
            print("progress_observed: %s is not a progress run (no loop_bound)" % p, file=sys.stderr)
            sys.exit(2)
        for t in d.get("tests", []):
            # a published test is named by its file (2_threads_3_instructions/10.txt): the suite
            # reuses its numbers in each configuration
            name = "/".join(t["file"].split("/")[-2:]) if t["file"].endswith(".txt") else t["name"]
            r = runs.setdefault(t["file"], {"name": name, "runs": 0, "hung": 0, "configs": []})
            r["runs"] += t["runs"]
            r["hung"] += t["hung_threads"]
            r["configs"].append("x%d: %d/%d" % (config.get("oversubscribe", 1), t["hung_threads"], t["runs"]))
        for s in d.get("skipped", []):
            print("  %-34s skipped on the GPU: %s" % (s["test"], s["reason"]))
    return runs


def verdicts(scanlab, files):
    cmd = [scanlab, "deadlock", "--litmus", "--model", "all", "--fairness", "weak", "--json"] + files
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode not in (0, 1):
        sys.exit("progress_observed: %s exited %d: %s" % (" ".join(cmd), p.returncode, p.stderr.strip()))
    out = {}
    for r in json.loads(p.stdout)["results"]:
        if r.get("answered"):
            out[r["file"]] = {m: r["models"][m]["weak"]["terminates"] for m in MODELS if m in r["models"]}
    return out


def main():
    args = sys.argv[1:]
    held = "obe"
    if args[:1] == ["--model"] and len(args) > 1:
        held = args[1]
        args = args[2:]
    if held not in MODELS or len(args) < 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    runs = load_runs(args[1:])
    if not runs:
        sys.exit("progress_observed: no test was run")
    v = verdicts(args[0], sorted(runs))
    findings = 0
    print("%-34s %12s %12s  %s" % ("test", "runs", "hung", "terminates (weak): " + " / ".join(MODELS)))
    for f in sorted(runs):
        r = runs[f]
        m = v.get(f)
        if m is None:
            print("%-34s not answered by scanlab" % r["name"])
            findings += 1
            continue
        line = " / ".join("yes" if m[k] else "no" for k in MODELS)
        print("%-34s %12d %12d  %s   (%s)" % (r["name"], r["runs"], r["hung"], line, ", ".join(r["configs"])))
        if r["hung"] and m[held]:
            print("  FINDING: %d threads of %s spun to the bound on the GPU, which %s says always terminates"
                  % (r["hung"], r["name"], held))
            findings += 1
    shown = [runs[f]["name"] for f in sorted(runs) if runs[f]["hung"]]
    print("non-termination shown by the GPU (a spin to the bound): %s" % (", ".join(shown) if shown else "none"))
    print("%d tests, %d findings (held against %s)" % (len(runs), findings, held))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
