#!/usr/bin/env python3
"""Holds scanlab's litmus verdicts against a published suite's expected ones:

  tools/published-litmus.py [--scanlab PATH] [--known FILE] [--every N] [--quiet] SUITE

SUITE is a Dat3M checkout (github.com/hernanponcedeleon/Dat3M; its
expectations in dartagnan/src/test/resources/PTXv7_5-expected.csv) or the
copy in tests/litmus/published/dat3m (the CSV at its top). Each CSV line is
`path,1` where the test's final condition as written (exists, ~exists or
forall) is true under the PTX v7.5 model, `path,0` where it is false; that is
scanlab's `condition_true`. Every listed test runs through one
`scanlab litmus --json`, and each prints one line: `agree`, `DISAGREE` or
`unsupported` (with scanlab's reason), then the totals. A test whose spin
loop can run forever has executions cut at scanlab's bound (--bound), or an
exploration stopped at scanlab's path limit: its verdict is that of the
executions run, and its line says so; executions that hang at a barrier
(every thread left waits at one that cannot complete) have no final state
and are outside the verdict, as in Dat3M, and the line counts them; a test
whose executions stopped otherwise (stuck) disagrees.

--known FILE lists disagreements the model is known to have (a path a line,
then the reason; docs/memory-model.md explains each): they are printed as
`known` and do not fail, but one that agrees now does (the list must be
kept true). --every N runs every Nth test (in path order) and the known
ones, where the whole suite is too slow (a sanitizer build). Exit status: 0 when every supported test agrees (or is known),
1 otherwise, 2 for bad usage or when scanlab cannot run.
"""
import argparse
import json
import os
import subprocess
import sys

CSV_NAMES = ("PTXv7_5-expected.csv", "dartagnan/src/test/resources/PTXv7_5-expected.csv")


def fail_usage(msg):
    print("published-litmus: %s" % msg, file=sys.stderr)
    sys.exit(2)


def read_expected(suite):
    for name in CSV_NAMES:
        path = os.path.join(suite, name)
        if os.path.isfile(path):
            break
    else:
        fail_usage("%s: no PTXv7_5-expected.csv (neither at its top nor under dartagnan/)" % suite)
    expected = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            test, _, value = line.rpartition(",")
            if value not in ("0", "1") or not test:
                fail_usage("%s:%d: not 'path,0' or 'path,1'" % (path, n))
            expected[test] = value == "1"
    return expected


def witnessed(r):
    """Whether the verdict rests on one execution that was run (a state
    that satisfies exists, or one that breaks forall), so that executions
    left unexplored cannot change it."""
    if r.get("quantifier") == "forall":
        return r["verdict"] == "fails"
    return r["verdict"] == "allowed"


def read_known(path):
    known = {}
    if not path:
        return known
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                test, _, reason = line.partition(" ")
                known[test] = reason.strip()
    return known


def main():
    ap = argparse.ArgumentParser(description="scanlab litmus against a published suite's expected verdicts")
    ap.add_argument("suite")
    ap.add_argument("--scanlab", default=os.environ.get("SCANLAB", "scanlab"))
    ap.add_argument("--known", help="known disagreements: a test path a line, then the reason")
    ap.add_argument("--quiet", action="store_true", help="print only what fails and the totals")
    ap.add_argument("--every", type=int, default=1, help="every Nth test only, and the known ones")
    args = ap.parse_args()
    if args.every < 1:
        fail_usage("--every wants a whole number from 1, not %d" % args.every)
    expected = read_expected(args.suite)
    known = read_known(args.known)
    missing = [t for t in expected if not os.path.isfile(os.path.join(args.suite, t))]
    if missing:
        fail_usage("%d listed tests are not in %s, the first %s" % (len(missing), args.suite, missing[0]))
    tests = [t for k, t in enumerate(sorted(expected)) if k % args.every == 0 or t in known]
    try:
        p = subprocess.run([args.scanlab, "litmus", "--json"] + [os.path.join(args.suite, t) for t in tests],
                           capture_output=True, text=True)
    except OSError as e:
        fail_usage("cannot run %s: %s" % (args.scanlab, e))
    # exit 1 is a verdict of scanlab's own (an execution cut by the bound):
    # the document is whole; 2 is bad input, and there is none to read
    if p.returncode not in (0, 1):
        fail_usage("scanlab litmus exited %d: %s" % (p.returncode, p.stderr.strip()))
    results = {os.path.relpath(r["file"], args.suite): r for r in json.loads(p.stdout)["results"]}
    counts = {"agree": 0, "bounded": 0, "incomplete": 0, "disagree": 0, "known": 0, "unsupported": 0}
    failures = []
    for t in tests:
        r = results.get(t)
        if r is None:
            failures.append("%s: no result" % t)
            continue
        if r["condition_true"] is None:
            counts["unsupported"] += 1
            line = "unsupported  %s (%s)" % (t, r.get("unsupported") or r["verdict"])
        elif r["stuck"] or (r["executions"] == 0 and not r.get("hangs")):
            counts["disagree"] += 1
            line = "DISAGREE     %s: executions stopped (%s stuck, %s complete)" % (t, r["stuck"], r["executions"])
            failures.append(line)
        elif r["condition_true"] == expected[t] and (r["bounded"] or r.get("capped")) and not witnessed(r):
            # the verdict needs every execution, and some were not run to
            # their end: not an agreement, not a failure
            counts["incomplete"] += 1
            line = "incomplete   %s (%s on the executions run: %s)" % (
                t, r["verdict"], "%d cut at the bound" % r["bounded"] if r["bounded"] else "the path limit")
            if t in known:
                failures.append("%s: agrees now on the executions run, but is listed as a known disagreement" % t)
        elif r["condition_true"] == expected[t]:
            counts["agree"] += 1
            line = "agree        %s (%s)" % (t, r["verdict"])
            if r["bounded"] or r.get("capped"):
                # executions cut at the bound or an exploration stopped at
                # its path limit (scanlab says so and exits 1), but the
                # verdict has its witness among the executions run
                counts["bounded"] += 1
                line += (", %d executions cut at the bound" % r["bounded"] if r["bounded"] else
                         ", exploration stopped at its path limit") + " (a witness found)"
            if r.get("hangs"):
                # executions in which every thread left waits at a barrier
                # that cannot complete: no final state, outside the verdict,
                # as in Dat3M
                line += ", %d executions hang at a barrier" % r["hangs"]
            if t in known:
                failures.append("%s: agrees now, but is listed as a known disagreement" % t)
        elif t in known:
            counts["known"] += 1
            line = "known        %s: scanlab %s, PTX %s (%s)" % (t, r["verdict"], expected[t], known[t])
        else:
            counts["disagree"] += 1
            line = "DISAGREE     %s: scanlab %s (condition %s), PTX v7.5 condition %s" % (
                t, r["verdict"], r["condition_true"], expected[t])
            failures.append(line)
        if not args.quiet or line.startswith("DISAGREE"):
            print(line)
    for t in known:
        if t not in expected:
            failures.append("%s: listed as known, but not in the suite" % t)
    print("%d tests: %d agree (%d of them with a witness among executions cut at the bound or the path "
          "limit), %d agree on the executions run (incomplete), %d disagree, %d known disagreements, "
          "%d unsupported" % (len(tests), counts["agree"], counts["bounded"], counts["incomplete"],
                              counts["disagree"], counts["known"], counts["unsupported"]))
    for line in failures:
        print("FAIL", line)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
