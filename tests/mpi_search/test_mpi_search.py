#!/usr/bin/env python3
"""`scanlab deadlock --exhaustive` under `mpirun -np P` answers what one
process answers, and a rank that fails makes the run fail.

  test_mpi_search.py mpi|no-mpi      (the scanlab binary from $SCANLAB)

For several algorithms (a look-back scan, a chained scan, compact) and
every progress model, with deadlocks among the answers (chained-static
under obe, the ticketed scans under hsa), the JSON of one plain process
and of 1, 2 and 4 ranks must be equal in every field but `seconds` (wall
time). The ranks are oversubscribed: this checks correctness, not speed.
Exits 77 (skipped) when scanlab was built without MPI or mpirun is missing;
prints TAP and exits 1 if any case failed."""
import json
import os
import shutil
import subprocess
import sys

SCANLAB = os.environ.get("SCANLAB", "")
TIMEOUT = 120
# (algorithms, blocks, resident, models): small grids, so that the whole
# test takes well under a minute on two cores; the split over ranks is
# used at every one of them (it aims at 16 subtrees a rank, else the
# widest depth).
CASES = [
    ("lookback,chained-static,compact", 4, 2, "all"),
    ("lookback", 5, 2, "obe,fair"),
]
RANKS = (1, 2, 4)
# In a sanitizer build (SCANLAB_TEST_SANITIZED, set by meson.build) the
# search forks a process per choice and runs several times slower: one
# smaller case with a deadlock (hsa) and one without, on 1 and 2 ranks.
# LeakSanitizer is off in the ranks there: Open MPI keeps what it
# allocates until the process ends (its plugins unloaded by then, so no
# suppression can name them); the same search runs leak-checked in one
# process in tests/deadlock.
if os.environ.get("SCANLAB_TEST_SANITIZED"):
    TIMEOUT = 600
    CASES = [("lookback,chained-static", 3, 2, "obe,hsa")]
    RANKS = (1, 2)
    os.environ["ASAN_OPTIONS"] = ":".join(filter(None, [os.environ.get("ASAN_OPTIONS", ""), "detect_leaks=0"]))


def mpirun():
    exe = shutil.which("mpirun")
    if not exe:
        return None
    cmd = [exe, "--oversubscribe"]
    if os.geteuid() == 0:
        cmd.append("--allow-run-as-root")
    return cmd


def run(cmd, env=None):
    e = dict(os.environ)
    e.update(env or {})
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT, env=e)
    return p.returncode, p.stdout, p.stderr


def deadlock_args(algos, blocks, resident, models):
    return [SCANLAB, "deadlock", "--algo", algos, "--blocks", str(blocks), "--resident", str(resident),
            "--model", models, "--exhaustive", "--json"]


def without_timing(doc):
    for r in doc["results"]:
        r.pop("seconds", None)
    return doc


def check_equal(launcher, case):
    algos, blocks, resident, models = case
    rc0, out0, err0 = run(deadlock_args(*case))
    if rc0 not in (0, 1):
        return f"plain run: exit {rc0}: {err0.strip()}"
    want = without_timing(json.loads(out0))
    verdicts = {r["verdict"] for r in want["results"]}
    if models == "all" and "deadlock" not in verdicts:
        return "no deadlock among the answers: the case checks no trace"
    for np in RANKS:
        rc, out, err = run(launcher + ["-np", str(np)] + deadlock_args(*case))
        if rc != rc0:
            return f"-np {np}: exit {rc}, one process {rc0}: {err.strip()[-400:]}"
        got = without_timing(json.loads(out))
        if got != want:
            for a, b in zip(want["results"], got["results"]):
                for k in a:
                    if a[k] != b.get(k):
                        return f"-np {np}: {a['algo']} under {a['model']}: {k} is {b.get(k)}, one process {a[k]}"
            return f"-np {np}: the documents differ"
    return None


def check_rank_failure(launcher, how):
    """SCANLAB_TEST_RANK_FAIL=1 (rank 1 stops the campaign) or 1:exit
    (rank 1's process dies without a word): the run fails, and nothing of
    the JSON document is printed."""
    case = ("lookback", 5, 2, "fair")
    rc, out, err = run(launcher + ["-np", "2", "-x", "SCANLAB_TEST_RANK_FAIL"] + deadlock_args(*case),
                       env={"SCANLAB_TEST_RANK_FAIL": how})
    if rc == 0:
        return f"SCANLAB_TEST_RANK_FAIL={how}: the run succeeded"
    if out.strip():
        return f"SCANLAB_TEST_RANK_FAIL={how}: output was printed: {out[:300]}"
    if "rank 1" not in err:
        return f"SCANLAB_TEST_RANK_FAIL={how}: no message names rank 1: {err.strip()[-400:]}"
    return None


def main():
    if len(sys.argv) < 2 or sys.argv[1] != "mpi":
        print("1..0 # SKIP scanlab was built without MPI")
        return 77
    launcher = mpirun()
    if not launcher:
        print("1..0 # SKIP no mpirun")
        return 77
    if not SCANLAB:
        print("SCANLAB is not set", file=sys.stderr)
        return 2
    checks = [(f"same JSON on {', '.join(map(str, RANKS))} ranks: {c[0]} at G = {c[1]}, R = {c[2]}, models {c[3]}",
               lambda c=c: check_equal(launcher, c)) for c in CASES]
    checks += [(f"a failing rank fails the run ({how})", lambda how=how: check_rank_failure(launcher, how))
               for how in ("1", "1:exit")]
    print(f"1..{len(checks)}")
    failed = 0
    for i, (name, check) in enumerate(checks, 1):
        try:
            why = check()
        except (subprocess.TimeoutExpired, json.JSONDecodeError, KeyError) as e:
            why = f"{type(e).__name__}: {e}"
        if why:
            failed += 1
            print(f"not ok {i} - {name}\n# {why}")
        else:
            print(f"ok {i} - {name}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
