#!/usr/bin/env python3
"""The catalogue's own CUDA backend under `scanlab run`, against the
simulator's C front end: the same kernel sources compiled by nvcc (their
PTX run by the PTX front end through the simulator's CUDA runtime) and by
the C compiler (`--backend sim`) must pass the same checks and compute the
same bits.

  test_run_catalogue.py    ($SCANLAB: build/scanlab; $SCANLAB_SHARED_CUDART:
                            build/scanlab-shared-cudart, the same command
                            linked with nvcc -cudart shared)

The random inputs come from SCANLAB_SEED when set, else the clock; the
seed is printed. Prints TAP and exits 1 if any case failed."""
import json
import os
import random
import struct
import subprocess
import sys
import tempfile
import time

TIMEOUT = 300
SCANLAB = os.environ.get("SCANLAB", "")
SHARED = os.environ.get("SCANLAB_SHARED_CUDART", "")

# The whole catalogue on i32 and f64, at 0, 1, an odd size
# inside one block and a size over several blocks and tiles.
TYPES = ["i32", "f64"]
SIZES = ["0", "1", "1001", "5000"]
# Lines of the CUDA backend that skip here as on a GPU: compensated is a
# float scan (on CUB). ('cub' and 'compensated' have no simulator line.)
CUDA_SKIPS = {("compensated", "i32", "inclusive"), ("compensated", "i32", "exclusive")}
# Every type and operator (affine is not commutative: a swapped operand
# order fails it) on a block-level scan of each shape, the single-pass
# look-back scan and a reduction.
OPS_ALGOS = ["kogge-stone", "blelloch-cf", "warp-shfl", "lookback", "reduce-shfl"]
OPS_SIZES = ["1", "1001", "5000"]
# Outputs compared byte for byte (--input and --output take one case each):
# f64 add, where a change in the order of the additions changes the bits
# (integers are compared bit for bit with the reference by both runs).
BITWISE_SIZES = [1001, 5000]


class CaseFailed(Exception):
    pass


def run(cmd):
    try:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        raise CaseFailed("timed out after %d s: %s" % (TIMEOUT, " ".join(cmd)))
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace"), " ".join(cmd)


def describe(rc, out, err, cmd):
    return "%s\nexit status %d\nstderr:\n%s\nstdout:\n%s" % (cmd, rc, err[-3000:] or "(empty)",
                                                             out[-3000:] or "(empty)")


def expect(cond, why, res):
    if not cond:
        raise CaseFailed(why + "\n" + describe(*res))


def on_cuda(verify_args, record):
    """verify --backend cuda, every launch on the simulator's runtime."""
    return run([SCANLAB, "run", "--json", record, "--", SHARED, "verify", "--backend", "cuda"] + verify_args)


def on_sim(verify_args):
    return run([SCANLAB, "verify", "--backend", "sim"] + verify_args)


def check_record(record, res, what):
    """The runtime's record: launches ran, none stopped, no finding, no call refused."""
    try:
        with open(record, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        raise CaseFailed("%s: scanlab run's record %s is not readable (%s)\n%s" % (what, record, e, describe(*res)))
    ls = doc["launches"]
    expect(ls, "%s: the CUDA backend's kernels ran on the simulator (no launch recorded)" % what, res)
    expect(doc["findings"] == 0 and not any(l["stopped"] or l["findings"] or l["races"] for l in ls),
           "%s: no finding in any launch" % what, res)
    expect(not doc["not_supported"], "%s: no runtime call refused: %s" % (what, doc["not_supported"]), res)
    return ls


def table_rows(out, backend, res):
    """verify's JSON document: the first thing on stdout (scanlab run's
    record of the launches follows it); its lines by (algorithm, type,
    operator, kind), without the backend."""
    try:
        doc = json.JSONDecoder().raw_decode(out)[0]
    except ValueError as e:
        raise CaseFailed("verify's --json output does not parse (%s)\n%s" % (e, describe(*res)))
    rows = {}
    for r in doc["results"]:
        expect(r["backend"] == backend, "every line on %s" % backend, res)
        row = dict(r)
        del row["backend"]
        rows[(r["algo"], r["type"], r["op"], r["kind"])] = row
    return rows


def compare_tables(args, skips=frozenset()):
    """verify on the CUDA backend under scanlab run and on sim, the same
    selection and seed: every sim line has an identical CUDA line (verdict,
    sizes checked, eta of the float add scans), and every line passed but
    the CUDA lines in skips. Returns the sim lines, the keys of the
    CUDA-only lines and the launches of the CUDA run."""
    with tempfile.TemporaryDirectory() as d:
        record = os.path.join(d, "run.json")
        cuda = on_cuda(args + ["--json"], record)
        expect(cuda[0] == 0, "verify --backend cuda under scanlab run passes", cuda)
        launches = check_record(record, cuda, "the table")
    sim = on_sim(args + ["--json"])
    expect(sim[0] == 0, "verify --backend sim passes", sim)
    crows, srows = table_rows(cuda[1], "cuda", cuda), table_rows(sim[1], "sim", sim)
    expect(srows, "sim ran some lines", sim)
    for k, s in srows.items():
        expect(k in crows, "a CUDA line for %s" % (k,), cuda)
        expect(crows[k] == s, "the lines agree:\ncuda %s\nsim  %s" % (crows[k], s), cuda)
        expect(s["status"] == "OK", "line %s passed" % s, sim)
    only = sorted(set(crows) - set(srows))
    for k in only:
        skipped = (k[0], k[1], k[3]) in skips
        expect(crows[k]["status"] == ("SKIPPED" if skipped else "OK"), "CUDA-only line %s" % crows[k], cuda)
    return srows, only, launches


def case_table(seed):
    """The whole catalogue, i32 and f64 add, inclusive and exclusive."""
    args = ["--algo", "all", "--type", ",".join(TYPES), "--op", "add", "--both", "--n", ",".join(SIZES),
            "--seed", str(seed)]
    srows, only, launches = compare_tables(args, CUDA_SKIPS)
    algos = {k[0] for k in srows}
    kernels = {l["kernel"].split("(")[0] for l in launches}
    print("# %d lines of %d algorithms agree; %d launches of %d kernels on the PTX front end; CUDA only: %s"
          % (len(srows), len(algos), len(launches), len(kernels), sorted({k[0] for k in only})))


def case_ops(seed):
    """Every type and operator on a few kernels."""
    args = ["--algo", ",".join(OPS_ALGOS), "--type", "all", "--op", "all", "--both", "--n", ",".join(OPS_SIZES),
            "--seed", str(seed)]
    srows, _, _ = compare_tables(args)
    expect(len({(k[1], k[2]) for k in srows}) == 4 * 3 + 2 * 1, "every type and operator pair ran (affine on "
           "the integers)", (0, "", "", " ".join(args)))
    print("# %d lines agree" % len(srows))


def input_file(path, n, rng):
    """f64 of mixed signs and magnitudes: most additions round."""
    data = [rng.uniform(-1.0, 1.0) * 2.0 ** rng.randint(-20, 20) for _ in range(n)]
    with open(path, "wb") as f:
        f.write(struct.pack("<%dd" % n, *data))


def read_npy(path):
    with open(path, "rb") as f:
        blob = f.read()
    if blob[:6] != b"\x93NUMPY":
        raise CaseFailed("%s is not a .npy file" % path)
    hlen = struct.unpack("<H", blob[8:10])[0] if blob[6] == 1 else struct.unpack("<I", blob[8:12])[0]
    return blob[(10 if blob[6] == 1 else 12) + hlen:]


def scans_and_reductions():
    rc, out, err, cmd = run([SCANLAB, "list", "--json"])
    expect(rc == 0, "scanlab list --json", (rc, out, err, cmd))
    doc = json.loads(out)
    return [(a["algo"], a["kind"]) for a in doc["algorithms"]
            if a["kind"] in ("scan", "reduce") and "sim" in a["backends"] and "cuda" in a["backends"]]


def case_bitwise(seed):
    """The outputs themselves, byte for byte, on the same f64 input file:
    every scan (inclusive and exclusive) and reduction of the catalogue."""
    rng = random.Random(seed)
    distinct = set()
    with tempfile.TemporaryDirectory() as d:
        for n in BITWISE_SIZES:
            inp = os.path.join(d, "in%d.bin" % n)
            input_file(inp, n, rng)
            for algo, kind in scans_and_reductions():
                for exclusive in ((False, True) if kind == "scan" else (False,)):
                    outs = {}
                    for backend in ("cuda", "sim"):
                        out = os.path.join(d, "%s.npy" % backend)
                        if os.path.exists(out):  # never the previous case's output
                            os.remove(out)
                        args = ["--algo", algo, "--type", "f64", "--op", "add", "--input", inp, "--output", out,
                                "--fail-on-skip"] + (["--exclusive"] if exclusive else [])
                        record = os.path.join(d, "run.json")
                        res = on_cuda(args, record) if backend == "cuda" else on_sim(args)
                        what = "%s%s n=%d on %s" % (algo, " exclusive" if exclusive else "", n, backend)
                        expect(res[0] == 0, what + " passes", res)
                        if backend == "cuda":
                            check_record(record, res, what)
                        outs[backend] = read_npy(out)
                    expect(len(outs["cuda"]) == len(outs["sim"]) == 8 * (n if kind == "scan" else 1),
                           "both outputs of %s n=%d whole" % (algo, n), res)
                    if outs["cuda"] != outs["sim"]:
                        k = next(i for i in range(0, len(outs["sim"]), 8)
                                 if outs["cuda"][i:i + 8] != outs["sim"][i:i + 8]) // 8
                        raise CaseFailed("%s f64%s n=%d (seed %d): the outputs differ first at index %d"
                                         % (algo, " exclusive" if exclusive else "", n, seed, k))
                    if kind == "scan" and not exclusive:
                        distinct.add(outs["sim"])
    # the inputs round: the algorithms' orders of addition give different
    # bits, so equal outputs of the two front ends say something
    expect(len(distinct) > 2, "the scans' f64 outputs differ between algorithms (%d distinct)" % len(distinct),
           (0, "", "", "case_bitwise"))
    print("# %d distinct f64 inclusive outputs among the algorithms" % len(distinct))


CASES = [("verify, the whole catalogue: cuda under scanlab run against sim", case_table),
         ("verify, every type and operator: cuda under scanlab run against sim", case_ops),
         ("f64 outputs bit for bit: cuda under scanlab run against sim", case_bitwise)]


def main():
    if not SCANLAB or not SHARED:
        print("Bail out! $SCANLAB and $SCANLAB_SHARED_CUDART must name the commands")
        return 1
    env = os.environ.get("SCANLAB_SEED", "")
    seed = int(env) if env else int(time.time())
    print("# seed %d (set SCANLAB_SEED to replay)" % seed)
    print("1..%d" % len(CASES))
    failed = 0
    for k, (name, fn) in enumerate(CASES, 1):
        t0 = time.monotonic()
        try:
            fn(seed)
            print("ok %d - %s (%.1f s)" % (k, name, time.monotonic() - t0))
        except CaseFailed as e:
            failed += 1
            print("not ok %d - %s" % (k, name))
            for line in str(e).splitlines():
                print("# " + line)
        sys.stdout.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
