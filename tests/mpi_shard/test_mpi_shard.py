#!/usr/bin/env python3
"""`scanlab verify`, `scanlab litmus` and `scanlab report` under mpirun -np P
(docs/scaling.md): the cases are dealt over the ranks, and rank 0 prints the
same bytes a plain process prints (the litmus timings aside: they are
measured, and differ between any two runs), with the same exit status; a
rank that dies, or fails to compute its share, fails the run with a message
naming it, and nothing is printed or written as whole.

Usage: test_mpi_shard.py SOURCE_ROOT, with $SCANLAB the binary. Exit 77
(skipped) when scanlab was built without MPI or mpirun is missing."""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

SCANLAB = os.environ.get("SCANLAB", "")
ROOT = sys.argv[1]
SEED = ["--seed", "20261127"]
failures = []


def skip(why):
    print("skipped: " + why)
    sys.exit(77)


def launcher():
    mpirun = shutil.which("mpirun")
    if not mpirun:
        skip("mpirun not found")
    version = subprocess.run([SCANLAB, "--version"], capture_output=True, text=True).stdout
    if "mpi yes" not in version:
        skip("scanlab built without MPI: " + version.strip())
    # --oversubscribe: more ranks than cores (this is about correctness,
    # not speed); --allow-run-as-root only where the test runs as root
    # --bind-to none: Open MPI binds each of two ranks to one core, and the
    # omp backend's float sums round by their thread count (docs/scaling.md)
    return [mpirun, "--oversubscribe", "--bind-to", "none"] + (["--allow-run-as-root"] if os.geteuid() == 0 else [])


MPIRUN = launcher() if SCANLAB else skip("$SCANLAB is not set")


def run(args, np=None, env_extra=None, cwd=None):
    env = dict(os.environ)
    env.pop("SCANLAB_TEST_RANK_FAIL", None)
    env.update(env_extra or {})
    cmd = ([] if np is None else MPIRUN + ["-np", str(np)]) + [SCANLAB] + args
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=cwd, timeout=240)
    return p.returncode, p.stdout, p.stderr, " ".join(cmd)


def check(ok, what, detail=""):
    print(("ok: " if ok else "FAILED: ") + what)
    if not ok:
        failures.append(what)
        if detail:
            print(detail[-3000:])


def first_difference(a, b):
    for i, (x, y) in enumerate(zip(a.splitlines(), b.splitlines())):
        if x != y:
            return "line %d:\n  plain: %s\n  ranks: %s" % (i + 1, x, y)
    return "lengths %d and %d" % (len(a), len(b))


def same_as_plain(what, args, want_rc, normalise=lambda s: s, ranks=(1, 2, 3)):
    """args on 1, 2 and 3 ranks: the plain run's exit status and stdout."""
    rc, out, err, cmd = run(args)
    check(rc == want_rc, "%s: plain run exits %d" % (what, want_rc), "exit %d: %s\n%s" % (rc, cmd, err))
    check(out.strip() != "", "%s: plain run prints" % what, cmd)
    for np in ranks:
        r_rc, r_out, r_err, r_cmd = run(args, np=np)
        check(r_rc == rc, "%s: -np %d exits %d like the plain run" % (what, np, rc),
              "exit %d: %s\n%s" % (r_rc, r_cmd, r_err))
        check(normalise(r_out) == normalise(out), "%s: -np %d prints the plain run's bytes" % (what, np),
              r_cmd + "\n" + first_difference(normalise(out), normalise(r_out)))
    return out


# ---- verify -------------------------------------------------------------------
CATALOGUE = ["verify", "--algo", "sequential,kogge-stone,blelloch,lookback", "--type", "i32,f32,f64",
             "--op", "add,max", "--n", "1,33,1000", "--dist", "uniform,normal", "--both"] + SEED
same_as_plain("verify (catalogue, table)", CATALOGUE, 0)
doc = same_as_plain("verify (catalogue, JSON)", CATALOGUE + ["--json"], 0, ranks=(2, 3))
check('"results":' in doc and doc.count('"status":"OK"') >= 20, "verify JSON holds the lines", doc[:400])

# a kernel with a missing barrier: FAILED lines, the first failure's values
# and replay command, exit 1
BROKEN = ["verify", "--kernel", os.path.join(ROOT, "tests/ptx/kernels/ks_block.ptx"), "--entry",
          "ks_block_nobarrier", "--block", "256", "--grid", "1", "--type", "i32", "--op", "add",
          "--n", "1,31,200,255,256", "--dist", "uniform,small"] + SEED
out = same_as_plain("verify (failing kernel, table)", BROKEN, 1)
check("FAILED" in out and "replay:" in out, "the failing kernel's table says FAILED and how to replay it", out)
same_as_plain("verify (failing kernel, JSON)", BROKEN + ["--json"], 1, ranks=(2, 3))

# the default checks of one kernel: its geometry's sizes, the huge check
# and the kernel sites no case reached, merged over the ranks
same_as_plain("verify (default checks)", ["verify", "--algo", "kogge-stone", "--backend", "sim", "--type", "i32",
                                          "--op", "add"] + SEED, 0, ranks=(2,))

# ---- litmus -------------------------------------------------------------------
tests = sorted(glob.glob(os.path.join(ROOT, "tests/litmus/tests/*.litmus")))
check(len(tests) >= 30, "the litmus test set is there")
# the measured time of each test is the one difference allowed
untimed_text = lambda s: re.sub(r", [0-9.]+ s$", ", T s", s, flags=re.M)
untimed_json = lambda s: re.sub(r'"seconds":[0-9.eE+-]+', '"seconds":T', s)
same_as_plain("litmus (table)", ["litmus"] + tests, 0, untimed_text)
same_as_plain("litmus (JSON)", ["litmus", "--json"] + tests, 0, untimed_json, ranks=(2, 3))

# ---- report -------------------------------------------------------------------
# Files that hold measured times (or the date): the deadlock, litmus and
# progress litmus tables' search times, the pages that show them,
# report.json (the date, each section's time).
TIMED = re.compile(r"^(index\.html|report\.md|report\.json|deadlock\.(csv|json)|(progress-)?litmus\.(csv|json))$")


def report(np, cwd):
    rc, out, err, cmd = run(["report", "--quick", "-o", "rep"] + SEED, np=np, cwd=cwd)
    files = {}
    top = os.path.join(cwd, "rep")
    for folder, _, names in os.walk(top):
        for f in names:
            with open(os.path.join(folder, f), "rb") as fh:
                files[os.path.relpath(os.path.join(folder, f), top)] = fh.read()
    return rc, out, err, cmd, files


with tempfile.TemporaryDirectory() as tmp:
    plain_dir = os.path.join(tmp, "plain")
    os.mkdir(plain_dir)
    rc, out, err, cmd, plain = report(None, plain_dir)
    check(rc == 0 and "verify.csv" in plain and "accuracy.csv" in plain and "deadlock.csv" in plain,
          "report --quick: plain run", "exit %d: %s\n%s" % (rc, cmd, err))
    compared = [f for f in plain if not TIMED.match(f)]
    for np in (2, 3):
        d = os.path.join(tmp, "np%d" % np)
        os.mkdir(d)
        r_rc, r_out, r_err, r_cmd, files = report(np, d)
        check(r_rc == rc and r_out == out, "report --quick: -np %d exits and prints like the plain run" % np,
              "exit %d: %s\n%s" % (r_rc, r_cmd, r_err))
        check(sorted(files) == sorted(plain), "report --quick: -np %d writes the same files" % np,
              "%s\n%s" % (sorted(set(files) ^ set(plain)), r_err))
        differ = [f for f in compared if files.get(f) != plain[f]]
        check(not differ, "report --quick: -np %d: %d files byte-identical to the plain run's" % (np, len(compared)),
              "differ: %s" % differ)
        # the deadlock table's verdicts and states, its times aside
        strip = lambda b: re.sub(rb",[0-9.]+,(?=[0-9]+,[0-9]+,[0-9]+,)", b",T,", b)
        check(strip(files.get("deadlock.csv", b"")) == strip(plain["deadlock.csv"]),
              "report --quick: -np %d: the deadlock verdicts and states are the plain run's" % np)
        # the litmus table's rows, each test's time (its last field) aside
        untimed = lambda b: re.sub(rb",[0-9.]+$", b",T", b, flags=re.M)
        check(untimed(files.get("litmus.csv", b"")) == untimed(plain["litmus.csv"]),
              "report --quick: -np %d: the litmus verdicts are the plain run's" % np)
        check(untimed(files.get("progress-litmus.csv", b"")) == untimed(plain["progress-litmus.csv"]),
              "report --quick: -np %d: the progress litmus verdicts are the plain run's" % np)

    # ---- a rank that dies, or fails its share ---------------------------------
    for how in ("1", "1:error"):
        rc, out, err, cmd = run(CATALOGUE, np=2, env_extra={"SCANLAB_TEST_RANK_FAIL": how})
        check(rc != 0 and out == "", "verify: rank %s: the run fails and prints no table" % how,
              "exit %d, stdout %r\n%s" % (rc, out[:300], err))
        check(re.search(r"rank 1\b", err) is not None, "verify: rank %s: the message names rank 1" % how, err)
    rc, out, err, cmd = run(["litmus"] + tests, np=3, env_extra={"SCANLAB_TEST_RANK_FAIL": "2"})
    check(rc != 0 and out == "" and re.search(r"rank 2\b", err) is not None,
          "litmus: rank 2 dies: the run fails, names it and prints nothing", "exit %d\n%s" % (rc, err))
    for how in ("0", "1:error"):
        d = os.path.join(tmp, "fail" + how.replace(":", ""))
        os.mkdir(d)
        rc, out, err, cmd = run(["report", "--quick", "-o", "rep"] + SEED, np=2, cwd=d,
                                env_extra={"SCANLAB_TEST_RANK_FAIL": how})
        # a killed rank 0 leaves its claim (the folder and its lock), as a
        # killed plain report does; never a report
        written = [f for f in ("index.html", "report.md", "verify.csv", ".scanlab-report")
                   if os.path.exists(os.path.join(d, "rep", f))]
        check(rc != 0 and out == "" and not written, "report: rank %s: the run fails and writes no report" % how,
              "exit %d, files %s\n%s" % (rc, written, err))
        check(re.search(r"rank %s\b" % how[0], err) is not None, "report: rank %s: the message names it" % how, err)

print("%d failed" % len(failures) if failures else "all passed")
sys.exit(1 if failures else 0)
