#!/usr/bin/env python3
"""The published progress litmus suite of Sorensen et al. ("Specifying and
testing GPU workgroup progress models", OOPSLA 2021; artifact
github.com/tyler-utah/AlloyForwardProgress) held against
`scanlab deadlock --litmus`.

  progress-suite.py vendor ARTIFACT DEST
      copies the 483 tests (ARTIFACT/artifact/cadp/<config>/alloy_output/N/N.txt,
      unchanged) to DEST/<config>/N.txt and writes DEST/expected.csv, the
      published verdicts (below), from the same checkout; ARTIFACT is the
      root of a checkout of the artifact
  progress-suite.py compare --scanlab BIN SUITE [--every K] [--json FILE]
      runs BIN deadlock --litmus --json over every test of SUITE (a folder
      made by vendor, or the root of a checkout of the artifact, whose
      verdicts are then read from it) and compares each verdict that
      scanlab implements with the published one; prints the counts per
      model and fairness and every disagreement; --every K: only every
      K-th test (the first, the K+1-th...; a sanitizer build, whose search
      forks a process at each choice, takes about 2 s a test); FILE gets
      scanlab's document
  progress-suite.py table --scanlab BIN SUITE
      the same comparison as a Markdown table (docs/deadlock.md)

The published verdicts: for every test, CADP's answer per scheduler
(artifact/cadp/<config>/alloy_output_processed/N/label_N.txt, the summary
CADP's log gives, "OBE - Termination: PASS"; for 2_threads_2_instructions
the artifact also has the logs themselves, checker_files/N/labels_N_output.txt,
which must say the same). PASS: the property FreeFromWeakDeadlockLasso (or
Strong) holds, every execution the scheduler allows terminates. The
schedulers: OBE, LOBE, HSA, HSA_OBE and WEAK_FAIR (the fair scheduler)
under weak fairness, the same with _STRONG (STRONG_FAIR) under strong
fairness; the logs also answer HSA_PRIORITY (an HSA variant) and two
sanity properties of the unfair scheduler, which scanlab does not implement:
they are counted, not compared.

Exit status: 0 every implemented verdict agrees; 1 a disagreement, a test
scanlab did not answer, or a log that contradicts its summary; 2 bad input.
"""
import argparse
import csv
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time

CONFIGS = ["2_threads_2_instructions", "2_threads_3_instructions", "2_threads_4_instructions",
           "3_threads_3_instructions", "3_threads_4_instructions"]
MODELS = ["obe", "lobe", "hsa", "hsa+obe", "fair"]
FAIRNESS = ["weak", "strong"]
# the summary's scheduler names: (model, fairness)
SUMMARY = {"OBE": ("obe", "weak"), "LOBE": ("lobe", "weak"), "HSA": ("hsa", "weak"), "HSA_OBE": ("hsa+obe", "weak"),
           "WEAK_FAIR": ("fair", "weak"), "OBE_STRONG": ("obe", "strong"), "LOBE_STRONG": ("lobe", "strong"),
           "HSA_STRONG": ("hsa", "strong"), "HSA_OBE_STRONG": ("hsa+obe", "strong"),
           "STRONG_FAIR": ("fair", "strong")}
# the logs' model files: test_N_<suffix>
LOG = {"obe": ("obe", "weak"), "obe_strong": ("obe", "strong"), "lobe": ("lobe", "weak"),
       "lobe_strong": ("lobe", "strong"), "hsa": ("hsa", "weak"), "hsa_strong": ("hsa", "strong"),
       "hsa_obe": ("hsa+obe", "weak"), "hsa_obe_strong": ("hsa+obe", "strong"), "weak": ("fair", "weak"),
       "strong": ("fair", "strong")}
COLUMNS = ["config", "test"] + ["%s_%s" % (m, f) for m in MODELS for f in FAIRNESS] + \
    ["hsa_priority_weak", "hsa_priority_strong", "unfair_lasso", "unfair_can_terminate"]


class BadInput(Exception):
    pass


def yes_no(word):
    return {"PASS": "yes", "FAIL": "no"}[word]


def read_summary(path):
    """label_N.txt: {(model, fairness): "yes"/"no"} and the unfair scheduler's two checks."""
    text = open(path).read()
    got = {}
    for name, verdict in re.findall(r"^(\w+) - Termination: (PASS|FAIL)\s*$", text, re.M):
        if name not in SUMMARY:
            raise BadInput("%s: unknown scheduler %s" % (path, name))
        got[SUMMARY[name]] = yes_no(verdict)
    if sorted(got) != sorted(SUMMARY.values()):
        raise BadInput("%s: not every scheduler's verdict" % path)
    unfair = dict(re.findall(r"^Unfair - (At least one lasso|Can reach termination): (PASS|FAIL)\s*$", text, re.M))
    return got, {k: yes_no(v) for k, v in unfair.items()}


def read_log(path):
    """labels_N_output.txt: {suffix: "yes"/"no"} per model file."""
    text = open(path).read()
    got = {}
    for suffix, verdict in re.findall(r"^property Free\w*DeadlockLasso \(test_\d+_(\w+)\)\n(?: \|[^\n]*\n)?\n"
                                      r"(PASS|FAIL)", text, re.M):
        got[suffix] = yes_no(verdict)
    return got


def artifact_tests(root):
    """[(config, N, test file, expected row)] of a checkout of the artifact."""
    cadp = os.path.join(root, "artifact", "cadp")
    if not os.path.isdir(cadp):
        raise BadInput("%s: not a checkout of the artifact (no artifact/cadp)" % root)
    out = []
    for config in CONFIGS:
        tests = glob.glob(os.path.join(cadp, config, "alloy_output", "*", "*.txt"))
        tests = [p for p in tests if re.fullmatch(r"(\d+)\.txt", os.path.basename(p)) and
                 os.path.basename(os.path.dirname(p)) + ".txt" == os.path.basename(p)]
        for path in sorted(tests, key=lambda p: int(os.path.basename(p)[:-4])):
            n = os.path.basename(path)[:-4]
            summary = os.path.join(cadp, config, "alloy_output_processed", n, "label_%s.txt" % n)
            if not os.path.exists(summary):
                raise BadInput("%s: no verdicts for test %s/%s (%s)" % (root, config, n, summary))
            verdicts, unfair = read_summary(summary)
            row = {"config": config, "test": n, "hsa_priority_weak": "", "hsa_priority_strong": "",
                   "unfair_lasso": unfair.get("At least one lasso", ""),
                   "unfair_can_terminate": unfair.get("Can reach termination", "")}
            for (m, f), v in verdicts.items():
                row["%s_%s" % (m, f)] = v
            log = os.path.join(cadp, config, "checker_files", n, "labels_%s_output.txt" % n)
            if os.path.exists(log):
                logged = read_log(log)
                for suffix, (m, f) in LOG.items():
                    if logged.get(suffix) != row["%s_%s" % (m, f)]:
                        raise BadInput("%s: %s says %s, the summary %s" % (log, suffix, logged.get(suffix),
                                                                           row["%s_%s" % (m, f)]))
                row["hsa_priority_weak"] = logged.get("hsa_priority", "")
                row["hsa_priority_strong"] = logged.get("hsa_priority_strong", "")
            out.append((config, n, path, row))
    if not out:
        raise BadInput("%s: no tests found" % root)
    return out


def vendored_tests(folder):
    expected = os.path.join(folder, "expected.csv")
    if not os.path.exists(expected):
        raise BadInput("%s: no expected.csv" % folder)
    out = []
    with open(expected, newline="") as f:
        for row in csv.DictReader(f):
            path = os.path.join(folder, row["config"], row["test"] + ".txt")
            if not os.path.exists(path):
                raise BadInput("%s: test %s/%s is missing" % (folder, row["config"], row["test"]))
            out.append((row["config"], row["test"], path, row))
    return out


def vendor(args):
    tests = artifact_tests(args.artifact)
    for config, n, path, _ in tests:
        os.makedirs(os.path.join(args.dest, config), exist_ok=True)
        shutil.copyfile(path, os.path.join(args.dest, config, n + ".txt"))
    with open(os.path.join(args.dest, "expected.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS, lineterminator="\n")
        w.writeheader()
        for _, _, _, row in tests:
            w.writerow(row)
    print("%d tests and their verdicts written to %s" % (len(tests), args.dest))


def run_scanlab(scanlab, tests, json_file):
    start = time.monotonic()
    p = subprocess.run([scanlab, "deadlock", "--litmus", "--json"] + [t[2] for t in tests],
                       capture_output=True, text=True)
    seconds = time.monotonic() - start
    if p.returncode not in (0, 1) or not p.stdout:
        raise BadInput("scanlab deadlock --litmus exited %d: %s" % (p.returncode, p.stderr.strip()))
    if json_file:
        open(json_file, "w").write(p.stdout)
    return {r["file"]: r for r in json.loads(p.stdout)["results"]}, seconds, p.stderr.strip()


# Verdicts where scanlab and the published suite are known to differ, with
# the reason: none. A disagreement fails the comparison.
def compare(args, as_table):
    tests = vendored_tests(args.suite) if os.path.exists(os.path.join(args.suite, "expected.csv")) \
        else artifact_tests(args.suite)
    total_tests = len(tests)
    if args.every < 1:
        raise BadInput("--every must be at least 1")
    tests = tests[::args.every]
    if args.every > 1:
        print("a sample: every %d-th test, %d of the %d" % (args.every, len(tests), total_tests))
    results, seconds, stderr = run_scanlab(args.scanlab, tests, args.json)
    counts = {(m, f): [0, 0] for m in MODELS for f in FAIRNESS}  # agree, disagree
    terminate = {(m, f): 0 for m in MODELS for f in FAIRNESS}  # tests that terminate, as published
    # scanlab says nothing on stderr when every test is answered: anything
    # there (a sanitizer's report among others) is a failure
    problems = ["scanlab wrote on stderr: %s" % line for line in stderr.splitlines()]
    not_implemented = {"hsa_priority": 0, "unfair": 0}
    states = 0
    for config, n, path, row in tests:
        r = results.get(path)
        if r is None or not r["answered"]:
            problems.append("%s/%s: no answer (%s)" % (config, n, r["why"] if r else "not in the output"))
            continue
        states += r["states"]
        for m in MODELS:
            for f in FAIRNESS:
                want = row["%s_%s" % (m, f)] == "yes"
                terminate[(m, f)] += want
                got = r["models"][m][f]["terminates"]
                counts[(m, f)][want != got] += 1
                if want != got:
                    tr = r["models"][m][f]["trace"]
                    problems.append("%s/%s: %s, %s fairness: scanlab %s, published %s%s" % (
                        config, n, m, f, "terminates" if got else "may not terminate",
                        "terminates" if want else "may not terminate",
                        "" if not tr else " (scanlab's lasso: %s, then for ever %s)" %
                        (" ".join(tr["prefix"]) or "-", " ".join(tr["cycle"]))))
        not_implemented["hsa_priority"] += sum(bool(row[k]) for k in ("hsa_priority_weak", "hsa_priority_strong"))
        not_implemented["unfair"] += sum(bool(row[k]) for k in ("unfair_lasso", "unfair_can_terminate"))
    if as_table:
        print("| model | fairness | tests | terminate (published) | agree | disagree |")
        print("| --- | --- | --- | --- | --- | --- |")
    for m in MODELS:
        for f in FAIRNESS:
            a, d = counts[(m, f)]
            if as_table:
                print("| `%s` | %s | %d | %d | %d | %d |" % (m, f, a + d, terminate[(m, f)], a, d))
            else:
                print("%-8s %-6s %4d tests (%3d terminate), %4d agree, %d disagree" % (m, f, a + d,
                                                                                       terminate[(m, f)], a, d))
    total = sum(a + d for a, d in counts.values())
    agree = sum(a for a, _ in counts.values())
    print("%d tests (%d states), %d verdicts compared, %d agree, %d disagree; not implemented in scanlab, not "
          "compared: %d hsa_priority verdicts, %d verdicts of the unfair scheduler; scanlab took %.1f s"
          % (len(tests), states, total, agree, total - agree, not_implemented["hsa_priority"],
             not_implemented["unfair"], seconds))
    for line in problems:
        print("FAIL", line)
    return 1 if problems else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    v = sub.add_parser("vendor")
    v.add_argument("artifact")
    v.add_argument("dest")
    for name in ("compare", "table"):
        c = sub.add_parser(name)
        c.add_argument("--scanlab", required=True)
        c.add_argument("--json")
        c.add_argument("--every", type=int, default=1)
        c.add_argument("suite")
    args = ap.parse_args()
    try:
        if args.cmd == "vendor":
            vendor(args)
            return 0
        return compare(args, args.cmd == "table")
    except (BadInput, OSError, ValueError, KeyError) as e:
        print("progress-suite.py: %s" % e, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
